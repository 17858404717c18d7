//! CL009 case-only-clash: two columns whose names differ only in letter case (Flink 2.3
//! accepts them: names are case-sensitive; verified in `fixtures/oracle/columns` 029-040).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports a table, materialized table or view with columns such as `id` and `ID`, and a
/// `RENAME` that only changes the case of a column's name.
pub struct CaseOnlyClash;

impl Rule for CaseOnlyClash {
    fn code(&self) -> &'static str {
        "CL009"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::CaseOnlyClash {
                span,
                name,
                other,
                other_origin,
                rename,
            } = &found.problem
            else {
                continue;
            };
            let mut d = if *rename {
                report
                    .diagnostic(
                        found.file,
                        *span,
                        format!("RENAME `{other}` TO `{name}` only changes the letter case"),
                    )
                    .with_label("same name in another case")
            } else {
                report
                    .diagnostic(
                        found.file,
                        *span,
                        format!("columns `{other}` and `{name}` differ only in letter case"),
                    )
                    .with_label(format!("`{other}` in another case"))
                    .with_help("rename one of them: Flink keeps both, but case-insensitive sinks and catalogs (JDBC databases, Hive) cannot tell them apart")
            };
            if *rename {
                d = d.with_help(format!(
                    "Flink treats `{name}` as a new name: queries writing `{other}` break, while case-insensitive systems (JDBC databases, Hive) see no change"
                ));
            }
            if let Some(o) = other_origin {
                d = d.with_related(o.file, o.span, format!("`{other}` is declared here"));
            }
            report.report(d);
        }
    }
}

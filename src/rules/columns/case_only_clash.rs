//! Two columns whose names differ only in letter case (Flink 2.3 accepts them: names are
//! case-sensitive; verified in `fixtures/oracle/columns` 029-040).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports a table, materialized table or view with columns such as `id` and `ID`, and a
/// `RENAME` that only changes the case of a column's name.
pub struct CaseOnlyClash;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &CaseOnlyClash;

impl Rule for CaseOnlyClash {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::CaseOnlyClash { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::CaseOnlyClash {
            span,
            name,
            other,
            other_origin,
            rename,
        } = &found.problem
        else {
            return;
        };
        let mut d = if *rename {
            out
                .diagnostic(
                    found.file,
                    *span,
                    format!("RENAME `{other}` TO `{name}` only changes the letter case"),
                )
                .with_label("same name in another case")
        } else {
            out
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
        out.report(d);
    }
}

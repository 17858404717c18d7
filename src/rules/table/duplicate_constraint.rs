//! TB006 duplicate-constraint: two primary keys, or two WATERMARK clauses, in one definition.

use crate::rules::syntax::rule_for;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports a second primary key (from the semantic stage) and a second WATERMARK clause
/// (Flink rejects it while parsing; the parser reports it with this code).
pub struct DuplicateConstraint;

impl Rule for DuplicateConstraint {
    fn code(&self) -> &'static str {
        "TB006"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::DuplicatePrimaryKey { span, first } = &found.problem else {
                continue;
            };
            let d = report
                .diagnostic(
                    found.file,
                    *span,
                    "a second primary key: a table has at most one",
                )
                .with_related(found.file, *first, "the first primary key")
                .with_help("declare one PRIMARY KEY (a, b) NOT ENFORCED over all key columns")
                .with_flink_message("Duplicate primary key definition");
            report.report(d);
        }
        for file in ctx.files {
            for error in file
                .parsed
                .errors
                .iter()
                .filter(|e| rule_for(&e.kind) == self.code())
            {
                let d = report
                    .diagnostic(
                        file.id,
                        error.span,
                        "a second WATERMARK clause: a table has at most one watermark",
                    )
                    .with_help("keep one WATERMARK FOR ... AS ... clause")
                    .with_flink_message(error.message.clone());
                report.report(d);
            }
        }
    }
}

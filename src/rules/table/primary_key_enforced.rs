//! TB001 primary-key-enforced: PRIMARY KEY without NOT ENFORCED.

use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;
use crate::source::Span;

/// Reports primary keys Flink rejects because they are (implicitly) ENFORCED, with a fix.
pub struct PrimaryKeyEnforced;

/// Flink's message (`SqlConstraintValidator`).
pub const FLINK_MESSAGE: &str = "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode";

impl Rule for PrimaryKeyEnforced {
    fn code(&self) -> &'static str {
        "TB001"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::PrimaryKeyEnforced {
                span,
                insert_at,
                explicit,
            } = &found.problem
            else {
                continue;
            };
            let (edit, title) = if *explicit {
                // Replace the trailing `ENFORCED` keyword.
                let text = ctx.file(found.file).source.slice(*span);
                let at = text
                    .to_ascii_uppercase()
                    .rfind("ENFORCED")
                    .map_or(*insert_at, |i| span.start + i as u32);
                (
                    Edit {
                        file: found.file,
                        span: Span {
                            start: at,
                            end: span.end,
                        },
                        replacement: "NOT ENFORCED".to_string(),
                    },
                    "Write NOT ENFORCED",
                )
            } else {
                (
                    Edit {
                        file: found.file,
                        span: Span::empty(*insert_at),
                        replacement: " NOT ENFORCED".to_string(),
                    },
                    "Add NOT ENFORCED",
                )
            };
            let d = report
                .diagnostic(found.file, *span, "PRIMARY KEY must be declared NOT ENFORCED: Flink does not own the data, so it cannot enforce the key")
                .with_help("add NOT ENFORCED; Flink then trusts the key (e.g. for upserts) without checking it")
                .with_flink_message(FLINK_MESSAGE)
                .with_fix(Fix { title: title.to_string(), applicability: Applicability::Safe, edits: vec![edit] });
            report.report(d);
        }
    }
}

//! PRIMARY KEY without NOT ENFORCED.

use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::source::Span;

/// Reports primary keys Flink rejects because they are (implicitly) ENFORCED, with a fix.
pub struct PrimaryKeyEnforced;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &PrimaryKeyEnforced;

/// Flink's message (`SqlConstraintValidator`).
pub const FLINK_MESSAGE: &str = "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode";

impl Rule for PrimaryKeyEnforced {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::PrimaryKeyEnforced { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::PrimaryKeyEnforced { span, enforced } = &found.problem else {
            return;
        };
        let (edit, title) = match enforced {
            // Replace the written `ENFORCED` keyword.
            Some(keyword) => (
                Edit {
                    file: found.file,
                    span: *keyword,
                    replacement: "NOT ENFORCED".to_string(),
                },
                "Write NOT ENFORCED",
            ),
            // Add the words at the end of the constraint.
            None => (
                Edit {
                    file: found.file,
                    span: Span::empty(span.end),
                    replacement: " NOT ENFORCED".to_string(),
                },
                "Add NOT ENFORCED",
            ),
        };
        let d = out
            .diagnostic(found.file, *span, "PRIMARY KEY must be declared NOT ENFORCED: Flink does not own the data, so it cannot enforce the key")
            .with_help("add NOT ENFORCED; Flink then trusts the key (e.g. for upserts) without checking it")
            .with_flink_message(FLINK_MESSAGE)
            .with_fix(Fix { title: title.to_string(), applicability: Applicability::Safe, edits: vec![edit] });
        out.report(d);
    }
}

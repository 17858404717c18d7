//! Two primary keys, or two WATERMARK clauses, in one definition.

use crate::rules::syntax::rule_for;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports a second primary key (from the semantic stage) and a second WATERMARK clause
/// (Flink rejects it while parsing; the parser reports it with this code).
pub struct DuplicateConstraint;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &DuplicateConstraint;

impl Rule for DuplicateConstraint {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::DuplicatePrimaryKey { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::DuplicatePrimaryKey { span, first } = &found.problem else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                "a second primary key: a table has at most one",
            )
            .with_related(found.file, *first, "the first primary key")
            .with_help("declare one PRIMARY KEY (a, b) NOT ENFORCED over all key columns")
            .with_flink_message("Duplicate primary key definition");
        out.report(d);
    }
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, out: &mut Reporter<'_>) {
        let code = out.meta().code;
        for file in ctx.files {
            for error in file
                .parsed
                .errors
                .iter()
                .filter(|e| rule_for(&e.kind) == code)
            {
                let d = out
                    .diagnostic(
                        file.id,
                        error.span,
                        "a second WATERMARK clause: a table has at most one watermark",
                    )
                    .with_help("keep one WATERMARK FOR ... AS ... clause")
                    .with_flink_message(error.message.clone());
                out.report(d);
            }
        }
    }
}

//! UNIQUE constraints.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports UNIQUE constraints, which Flink rejects.
pub struct UniqueConstraintUnsupported;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UniqueConstraintUnsupported;

impl Rule for UniqueConstraintUnsupported {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::UniqueConstraint { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::UniqueConstraint { span } = &found.problem else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, "UNIQUE constraints are not supported by Flink")
            .with_help("remove the constraint, or declare the key as PRIMARY KEY (...) NOT ENFORCED if it identifies rows")
            .with_flink_message("UNIQUE constraint is not supported yet");
        out.report(d);
    }
}

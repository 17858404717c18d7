//! TB002 unique-constraint-unsupported: UNIQUE constraints.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports UNIQUE constraints, which Flink rejects.
pub struct UniqueConstraintUnsupported;

impl Rule for UniqueConstraintUnsupported {
    fn code(&self) -> &'static str {
        "TB002"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::UniqueConstraint { span } = &found.problem else {
                continue;
            };
            let d = report
                .diagnostic(found.file, *span, "UNIQUE constraints are not supported by Flink")
                .with_help("remove the constraint, or declare the key as PRIMARY KEY (...) NOT ENFORCED if it identifies rows")
                .with_flink_message("UNIQUE constraint is not supported yet");
            report.report(d);
        }
    }
}

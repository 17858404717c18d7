//! LK002 illegal-merging-strategy: OVERWRITING for ALL, CONSTRAINTS, DISTRIBUTION, PARTITIONS.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports OVERWRITING on a feature that cannot be overwritten.
pub struct IllegalMergingStrategy;

impl Rule for IllegalMergingStrategy {
    fn code(&self) -> &'static str {
        "LK002"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::IllegalMergingStrategy { span, feature } = &found.problem else {
                continue;
            };
            let f = feature.as_str();
            let d = report
                .diagnostic(
                    found.file,
                    *span,
                    format!("OVERWRITING is not a merging strategy for {f}"),
                )
                .with_help(format!("use INCLUDING {f} or EXCLUDING {f}"))
                .with_flink_message(format!(
                    "Illegal merging strategy 'OVERWRITING' for '{f}' option."
                ));
            report.report(d.with_notes(&found.diff));
        }
    }
}

//! EXCLUDING PARTITIONS / DISTRIBUTION (or ALL) without the derived table's own: Flink 2.3 still
//! inherits the parent's keys.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::syntax::ast::FeatureOption;

/// Reports EXCLUDING options that do not exclude (flink-spec §3.8 quirk 1, FLINK-37941).
pub struct IneffectiveExcluding;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &IneffectiveExcluding;

impl Rule for IneffectiveExcluding {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::IneffectiveExcluding { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::IneffectiveExcluding {
            span,
            feature,
            parent,
            inherited,
        } = &found.problem
        else {
            return;
        };
        let (clause, what) = match feature {
            FeatureOption::Partitions => ("PARTITIONED BY", "partitioning"),
            _ => ("DISTRIBUTED BY", "distribution"),
        };
        // The option that excludes: the feature itself or ALL.
        let option = super::like_options(ctx, found)
            .iter()
            .find(|o| o.span == *span)
            .map_or(*feature, |o| o.feature);
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "EXCLUDING {} does not drop the parent's {what}: the table declares no {clause}, so Flink 2.3 still inherits `{inherited}`",
                    option.as_str()
                ),
            )
            .with_label("does not exclude the parent's keys")
            .with_related(parent.file, parent.span, format!("the parent's {what}, inherited anyway"))
            .with_help(format!("declare this table's own {clause} to replace the parent's; Flink 2.3 cannot drop an inherited {what}"));
        out.report(d.with_notes(&found.diff));
    }
}

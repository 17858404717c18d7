//! A DISTRIBUTED BY key that is not a physical column, or INTO 0 BUCKETS.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports distributions Flink cannot resolve.
pub struct InvalidDistribution;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidDistribution;

impl Rule for InvalidDistribution {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::InvalidDistribution { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::InvalidDistribution {
            span,
            key,
            physical,
        } = &found.problem
        else {
            return;
        };
        let d = match key {
            Some(k) => {
                let help = match physical.iter().find(|p| p.eq_ignore_ascii_case(k)) {
                    Some(p) if p != k => format!("did you mean `{p}`? (names are case-sensitive)"),
                    _ => "distribute by physical columns of the table".to_string(),
                };
                out.diagnostic(
                    found.file,
                    *span,
                    format!("bucket key `{k}` is not a physical column of the table"),
                )
                .with_label("not a physical column")
                .with_help(help)
                .with_flink_message(format!(
                    "Invalid bucket key '{k}'. A bucket key for a distribution must reference a physical column in the schema. Available columns are: [{}]",
                    physical.join(", ")
                ))
            }
            None => out
                .diagnostic(found.file, *span, "a distribution of 0 buckets".to_string())
                .with_label("INTO 0 BUCKETS")
                .with_help("give at least 1 bucket, or leave out INTO ... BUCKETS")
                .with_flink_message(
                    "Invalid bucket count '0'. The number of buckets for a distributed table must be at least 1.",
                ),
        };
        out.report(d);
    }
}

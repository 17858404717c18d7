//! A temporal join whose versioned table misses what Flink requires.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::{StreamProblem, TemporalMissing};
use crate::semantic::problems::{Found, Problem};

/// A temporal join whose versioned table has no (covered) primary key, no rowtime, or no join
/// key, or that is written as a RIGHT or FULL join.
pub struct TemporalJoinRequirements;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &TemporalJoinRequirements;

impl Rule for TemporalJoinRequirements {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::TemporalJoinRequirement { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(p @ StreamProblem::TemporalJoinRequirement { span, table, missing }) =
            &found.problem
        else {
            return;
        };
        let (message, label, help) = match missing {
            TemporalMissing::PrimaryKey => (
                format!("the versioned table `{table}` of this temporal join has no primary key the join's equalities cover"),
                "no primary key covered by the join",
                "declare `PRIMARY KEY (...) NOT ENFORCED` on the versioned table (or read it through a deduplicating view) and join on all of its columns",
            ),
            TemporalMissing::Rowtime => (
                format!("the versioned table `{table}` of this event-time temporal join has no rowtime attribute"),
                "no WATERMARK on the versioned table",
                "declare a WATERMARK on the versioned table's version time, or join AS OF a PROCTIME() column on a lookup source",
            ),
            TemporalMissing::JoinKey => (
                format!("this temporal join with `{table}` has no equality between the two sides"),
                "no join key",
                "add an equality between a probe column and the versioned table's primary key to ON",
            ),
            TemporalMissing::RightJoin | TemporalMissing::FullJoin => (
                format!("this temporal join with `{table}` is a {} join: Flink joins a versioned table with INNER or LEFT JOIN only", if *missing == TemporalMissing::RightJoin { "RIGHT" } else { "FULL" }),
                "not INNER or LEFT",
                "write the temporal join as `JOIN` or `LEFT JOIN` (the versioned table on the right)",
            ),
        };
        let d = out
            .diagnostic(found.file, *span, message)
            .with_label(label)
            .with_help(help)
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}

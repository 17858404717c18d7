//! A static `PARTITION (k = v)` naming a column that is not a partition key of the sink
//! (`DynamicSinkUtils`, partition validation of the sink).

use super::{is_sink_issue, report_sink};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::insert::SinkIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports an INSERT whose static partition names a column outside `PARTITIONED BY`.
pub struct StaticPartitionNotKey;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &StaticPartitionNotKey;

impl Rule for StaticPartitionNotKey {
    fn consumes(&self, problem: &Problem) -> bool {
        is_sink_issue(problem, |i| matches!(i, SinkIssue::StaticPartitionNotKey { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        report_sink(found, out, |issue, t| {
            let SinkIssue::StaticPartitionNotKey { column, keys } = issue else {
                return Default::default();
            };
            let help = if keys.is_empty() {
                format!("`{t}` is not partitioned: remove the PARTITION clause and select `{column}` in the query")
            } else {
                format!(
                    "name only partition keys ({}) in PARTITION (...); select `{column}` in the query",
                    keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                )
            };
            (
                format!("`{column}` is not a partition key of `{t}`"),
                "not a partition key".to_string(),
                help,
            )
        });
    }
}

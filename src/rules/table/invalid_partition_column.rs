//! A partition key that is unknown or not physical.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{PartitionIssue, Found, Problem};

/// Reports partition keys Flink rejects.
pub struct InvalidPartitionColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidPartitionColumn;

impl Rule for InvalidPartitionColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::InvalidPartition { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::InvalidPartition {
            span,
            column,
            issue,
        } = &found.problem
        else {
            return;
        };
        let (message, flink) = match issue {
            PartitionIssue::UnknownColumn { available } => (
                format!("partition key `{column}` is not a column of the table"),
                format!(
                    "Partition column '{column}' not defined in the table schema. Available columns: [{}]",
                    available.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(", ")
                ),
            ),
            PartitionIssue::NotPhysical { physical } => (
                format!("partition key `{column}` is not a physical column"),
                format!(
                    "Invalid partition key '{column}'. A partition key must reference a physical column in the schema. Available columns are: [{}]",
                    physical.join(", ")
                ),
            ),
        };
        let d = out
            .diagnostic(found.file, *span, message)
            .with_help("partition by physical columns of the table")
            .with_flink_message(flink);
        out.report(d);
    }
}

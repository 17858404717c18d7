//! TB005 invalid-partition-column: a partition key that is unknown or not physical.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{PartitionIssue, Problem};

/// Reports partition keys Flink rejects.
pub struct InvalidPartitionColumn;

impl Rule for InvalidPartitionColumn {
    fn code(&self) -> &'static str {
        "TB005"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::InvalidPartition {
                span,
                column,
                issue,
            } = &found.problem
            else {
                continue;
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
            let d = report
                .diagnostic(found.file, *span, message)
                .with_help("partition by physical columns of the table")
                .with_flink_message(flink);
            report.report(d);
        }
    }
}

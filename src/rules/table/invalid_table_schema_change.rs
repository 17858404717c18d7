//! An ALTER TABLE schema change of a regular table that Flink rejects: a primary key,
//! watermark or distribution the table already has or lacks, a watermark on an unknown or
//! non-timestamp column, two watermarks.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, KeyReason, Problem, SchemaIssue};

/// Reports the schema changes Flink's `AlterSchemaConverter` refuses on a regular table.
pub struct InvalidTableSchemaChange;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidTableSchemaChange;

/// What Flink prints before most of its messages.
const PREFIX: &str = "Failed to execute ALTER TABLE statement.\n";

impl Rule for InvalidTableSchemaChange {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::TableSchemaChange { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::TableSchemaChange { span, issue, table } = &found.problem else {
            return;
        };
        let t = &table.object;
        let (message, label, help, flink) = match issue {
            SchemaIssue::PrimaryKeyExists { columns } => (
                format!("`{t}` already has a primary key"),
                "second primary key".to_string(),
                "use MODIFY PRIMARY KEY, or DROP PRIMARY KEY first".to_string(),
                format!(
                    "{PREFIX}The current table has already defined the primary key constraint [{}]. You might want to drop it before adding a new one.",
                    columns.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
                ),
            ),
            SchemaIssue::NoPrimaryKey { modify: true } => (
                format!("`{t}` has no primary key to modify"),
                "no primary key".to_string(),
                "use ADD PRIMARY KEY".to_string(),
                format!("{PREFIX}The current table does not define any primary key constraint. You might want to add a new one."),
            ),
            SchemaIssue::NoPrimaryKey { modify: false } => (
                format!("`{t}` has no primary key to drop"),
                "no primary key".to_string(),
                "remove the statement".to_string(),
                format!("{PREFIX}The current table does not define any primary key."),
            ),
            SchemaIssue::NoConstraint { name, available } => (
                format!("`{t}` has no constraint named `{name}`"),
                "no such constraint".to_string(),
                match available {
                    Some(a) => format!("the primary key is named `{a}`"),
                    None => "the table has no primary key".to_string(),
                },
                match available {
                    Some(a) => format!("{PREFIX}The current table does not define a primary key constraint named '{name}'. Available constraint name: ['{a}']."),
                    None => format!("{PREFIX}The current table does not define any primary key."),
                },
            ),
            SchemaIssue::WatermarkExists { existing } => (
                format!("`{t}` already has a watermark"),
                "second watermark".to_string(),
                "use MODIFY WATERMARK, or DROP WATERMARK first".to_string(),
                format!("{PREFIX}The current table has already defined the watermark strategy {existing}. You might want to drop it before adding a new one."),
            ),
            SchemaIssue::NoWatermark { modify: true } => (
                format!("`{t}` has no watermark to modify"),
                "no watermark".to_string(),
                "use ADD WATERMARK".to_string(),
                format!("{PREFIX}The current table does not define any watermark. You might want to add a new one."),
            ),
            SchemaIssue::NoWatermark { modify: false } => (
                format!("`{t}` has no watermark to drop"),
                "no watermark".to_string(),
                "remove the statement".to_string(),
                format!("{PREFIX}The current table does not define any watermark strategy."),
            ),
            SchemaIssue::MultipleWatermarks => (
                "a table has one watermark; this ALTER declares two".to_string(),
                "second watermark".to_string(),
                "keep one WATERMARK FOR clause".to_string(),
                "Multiple WATERMARK declarations are not supported yet.".to_string(),
            ),
            SchemaIssue::WatermarkUnknown {
                column, available, ..
            } => (
                format!("the watermark is on `{column}`, which `{t}` does not have"),
                "no such column".to_string(),
                format!("choose one of: {}", available.join(", ")),
                format!(
                    "Invalid column name '{column}' for rowtime attribute in watermark declaration. Available columns are: [{}]",
                    available.join(", ")
                ),
            ),
            SchemaIssue::WatermarkType { found: ty } => (
                format!("the watermark column is {ty}, not a TIMESTAMP(p) or TIMESTAMP_LTZ(p)"),
                ty.clone(),
                "put the watermark on a TIMESTAMP(3) or TIMESTAMP_LTZ(3) column".to_string(),
                format!("Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is {ty}"),
            ),
            SchemaIssue::InvalidKey {
                constraint,
                column,
                reason,
            } => {
                let (message, label, flink) = match reason {
                    KeyReason::Missing => (
                        format!("primary key column `{column}` is not a column of `{t}`"),
                        "no such column",
                        format!("Invalid primary key '{constraint}'. Column '{column}' does not exist."),
                    ),
                    KeyReason::NotPhysical => (
                        format!("primary key column `{column}` is not a physical column"),
                        "not physical",
                        format!("Invalid primary key '{constraint}'. Column '{column}' is not a physical column."),
                    ),
                    KeyReason::Duplicate => (
                        format!("primary key lists `{column}` twice"),
                        "listed twice",
                        format!("Invalid primary key '{constraint}'. A primary key must not contain duplicate columns. Found: [{column}]"),
                    ),
                };
                (
                    message,
                    label.to_string(),
                    "a primary key lists physical columns of the table, each once".to_string(),
                    flink,
                )
            }
            SchemaIssue::NestedWatermark => (
                "a watermark on a nested field".to_string(),
                "nested field".to_string(),
                "declare a computed column for the field (`ts AS r.t`) and put the watermark on it"
                    .to_string(),
                format!("{PREFIX}Watermark strategy on nested column is not supported yet."),
            ),
            SchemaIssue::DistributionExists { existing } => (
                format!("`{t}` already has a distribution"),
                "second distribution".to_string(),
                "use MODIFY DISTRIBUTION, or DROP DISTRIBUTION first".to_string(),
                format!("{PREFIX}The current table has already defined the distribution '{existing}'. You can modify it or drop it before adding a new one."),
            ),
            SchemaIssue::NoDistribution { modify: true } => (
                format!("`{t}` has no distribution to modify"),
                "no distribution".to_string(),
                "use ADD DISTRIBUTION".to_string(),
                format!("{PREFIX}The base table does not define any distribution. You might want to add a new one."),
            ),
            SchemaIssue::NoDistribution { modify: false } => (
                format!("`{t}` has no distribution to drop"),
                "no distribution".to_string(),
                "remove the statement".to_string(),
                format!("Table {table} does not have a distribution to drop."),
            ),
            // The other issues are a materialized table's (MT rules).
            _ => return,
        };
        out.report(
            out.diagnostic(found.file, *span, message)
                .with_label(label)
                .with_help(help)
                .with_flink_message(flink),
        );
    }
}

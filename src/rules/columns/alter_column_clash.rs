//! An ALTER TABLE / ALTER MATERIALIZED TABLE column operation that clashes with the table's columns
//! (Flink 2.3 `AlterSchemaConverter`; verified in `fixtures/oracle/columns` 041-068 and
//! `fixtures/oracle/mt` 166, 186, 190-192).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{AlterClash, Dependency, Found, Problem};

/// Reports ADD of an existing column, RENAME to an existing name, RENAME / DROP / MODIFY of a
/// missing column, and DROP / RENAME of a column something depends on.
pub struct AlterColumnClash;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &AlterColumnClash;

const PERSISTED: &str = "Invalid schema change. All persisted (physical and metadata) columns in the schema part need to be present in the query part.";

impl Rule for AlterColumnClash {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::AlterColumnClash { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::AlterColumnClash {
            span,
            issue,
            materialized,
            table,
            related,
        } = &found.problem
        else {
            return;
        };
        let statement = if *materialized {
            "ALTER MATERIALIZED TABLE"
        } else {
            "ALTER TABLE"
        };
        let kind = if *materialized {
            "materialized table"
        } else {
            "table"
        };
        let t = &table.object;
        let (message, label, help, flink, related_label) = match issue {
            AlterClash::AddExisting { column } => (
                format!("{statement} ... ADD `{column}`: `{t}` already has a column `{column}`"),
                "already exists".to_string(),
                "use MODIFY to change the column, or choose another name".to_string(),
                format!("Column `{column}` already exists in the {kind}."),
                "declared here",
            ),
            AlterClash::AddDuplicate { column } => (
                format!("{statement} ... ADD names `{column}` twice"),
                "added twice".to_string(),
                "add each column once".to_string(),
                format!("Encounter duplicate column `{column}`."),
                "",
            ),
            AlterClash::AfterUnknown { column } => (
                format!("AFTER `{column}`: `{t}` has no column `{column}`"),
                "no such column".to_string(),
                "name an existing column after AFTER, or use FIRST".to_string(),
                format!("Referenced column `{column}` by 'AFTER' does not exist in the table."),
                "",
            ),
            AlterClash::RenameToExisting { column } => (
                format!("{statement} ... RENAME ... TO `{column}`: `{t}` already has a column `{column}`"),
                "already exists".to_string(),
                "choose a name the table does not have".to_string(),
                format!("The column `{column}` already existed in table schema."),
                "declared here",
            ),
            AlterClash::Missing { column, action } => (
                format!("{statement} ... {action} `{column}`: `{t}` has no column `{column}`"),
                "no such column".to_string(),
                if *action == "MODIFY" {
                    "use ADD for a new column".to_string()
                } else {
                    "check the column's name (names are case-sensitive)".to_string()
                },
                match (*action, materialized) {
                    ("MODIFY", true) => format!(
                        "{PERSISTED}\nHowever, physical column `{column}` could not be found in the query."
                    ),
                    ("MODIFY", false) => format!("Column `{column}` does not exist in the table."),
                    _ => format!("The column `{column}` does not exist in the base table."),
                },
                "",
            ),
            AlterClash::DropDuplicate { column } => (
                format!("{statement} ... DROP names `{column}` twice"),
                "dropped twice".to_string(),
                "drop each column once".to_string(),
                format!("Duplicate column `{column}`."),
                "",
            ),
            AlterClash::Referenced { column, by } => {
                let (what, flink, fix) = match by {
                    Dependency::Computed(c) => (
                        format!("the computed column `{c}`"),
                        format!("The column `{column}` is referenced by computed column `{c}`."),
                        format!("drop or change `{c}` first"),
                    ),
                    Dependency::Watermark => (
                        "the watermark".to_string(),
                        format!("The column `{column}` is referenced by watermark expression."),
                        "drop or change the watermark first".to_string(),
                    ),
                    Dependency::PartitionKey => (
                        "PARTITIONED BY".to_string(),
                        format!("The column `{column}` is used as the partition keys."),
                        "a partition key cannot be dropped or renamed: create a new table".to_string(),
                    ),
                    Dependency::PrimaryKey => (
                        "the primary key".to_string(),
                        format!("The column `{column}` is used as the primary key."),
                        "drop the primary key first".to_string(),
                    ),
                    Dependency::DistributionKey => (
                        "the distribution".to_string(),
                        format!("The column `{column}` is used as a distribution key."),
                        "drop or change the distribution first".to_string(),
                    ),
                };
                (
                    format!("`{column}` is used by {what} of `{t}`"),
                    format!("used by {what}"),
                    fix,
                    flink,
                    "declared here",
                )
            }
        };
        let mut d = out
            .diagnostic(found.file, *span, message)
            .with_label(label)
            .with_help(help)
            .with_flink_message(format!("Failed to execute {statement} statement.\n{flink}"));
        if let (Some(r), false) = (related, related_label.is_empty()) {
            d = d.with_related(r.file, r.span, related_label);
        }
        out.report(d);
    }
}

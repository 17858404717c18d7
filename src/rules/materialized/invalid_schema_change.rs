//! A materialized-table schema Flink rejects, in CREATE's column list or in ALTER MATERIALIZED
//! TABLE ADD / MODIFY / DROP (Flink 2.3 `MaterializedTableChangeHandler`,
//! `SqlCreateMaterializedTableConverter`; flink-spec §4.2, §4.6; verified in `fixtures/oracle/mt`
//! 165-229).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem, SchemaIssue};

/// Reports schema changes and declared schemas that do not match the materialized table's query.
pub struct InvalidSchemaChange;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidSchemaChange;

const PREFIX: &str = "Failed to execute ALTER MATERIALIZED TABLE statement.\n";

fn quoted_list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Rule for InvalidSchemaChange {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::InvalidSchema { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::InvalidSchema {
            span,
            issue,
            alter: _,
            table,
            related,
        } = &found.problem
        else {
            return;
        };
        let t = &table.object;
        let (message, label, help, flink): (String, String, String, String) = match issue {
            SchemaIssue::ColumnCount => (
                format!("the column list of `{t}` does not name every column of its query"),
                "column count differs from the query's".into(),
                "list every query column once (or leave the list out)".into(),
                "The number of columns in the column list must match the number of columns in the source schema.".into(),
            ),
            SchemaIssue::NotInSource { column } => (
                format!("the column list names `{column}`, which the query does not produce"),
                "not a query column".into(),
                "name the query's columns (after aliases)".into(),
                format!("Column '{column}' not found in the source schema."),
            ),
            SchemaIssue::TypedNotInQuery { column } => (
                format!("physical column `{column}` is declared but the query does not produce it"),
                "not a query column".into(),
                "every physical column of a materialized table comes from its query: add it to the select list, or declare it as a computed column".into(),
                format!("Invalid as physical column '{column}' is defined in the DDL, but is not used in a query column."),
            ),
            SchemaIssue::IncompatibleType { column, position, source, target } => (
                format!("`{column}` is declared {target} but the query produces {source}"),
                format!("query type {source}"),
                "declare a type the query's type widens to, or CAST in the query".into(),
                format!("Incompatible types for sink column '{column}' at position {position}. The source column has type '{source}', while the target column has type '{target}'."),
            ),
            SchemaIssue::NullablePrimaryKey { constraint, column } => (
                format!("primary key column `{column}` of `{t}` is nullable"),
                "nullable".into(),
                format!("make the query produce a NOT NULL `{column}` (e.g. COALESCE({column}, ...)), or choose NOT NULL key columns"),
                format!("Invalid primary key '{constraint}'. Column '{column}' is nullable."),
            ),
            SchemaIssue::WatermarkUnknown { column, available, alter } => {
                let flink = if *alter {
                    format!("Invalid column name '{column}' for rowtime attribute in watermark declaration. Available columns are: [{}]", available.join(", "))
                } else {
                    format!(
                        "The rowtime attribute field '{column}' is not defined in the table schema, at {}\nAvailable fields: [{}]",
                        ctx.flink_position(found.file, found.statement, span.start),
                        quoted_list(available)
                    )
                };
                (
                    format!("the watermark is on `{column}`, which `{t}` does not have"),
                    "no such column".into(),
                    format!("choose one of: {}", available.join(", ")),
                    flink,
                )
            }
            SchemaIssue::WatermarkType { found: ty } => (
                format!("the watermark column is {ty}, not a TIMESTAMP(p) or TIMESTAMP_LTZ(p)"),
                ty.clone(),
                "put the watermark on a TIMESTAMP(3) or TIMESTAMP_LTZ(3) column".into(),
                format!("Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is {ty}"),
            ),
            SchemaIssue::MultipleWatermarks => (
                "a table has one watermark; this ALTER adds two".into(),
                "second watermark".into(),
                "keep one WATERMARK FOR clause".into(),
                "Multiple WATERMARK declarations are not supported yet.".into(),
            ),
            SchemaIssue::PartitionUnknown { column, available } => (
                format!("partition key `{column}` is not a column of the query"),
                "not a query column".into(),
                format!("choose one of: {}", available.join(", ")),
                format!("Partition column '{column}' not defined in the query's schema. Available columns: [{}].", quoted_list(available)),
            ),
            SchemaIssue::PersistedNotInQuery { column, metadata } => (
                format!("ADD `{column}`: a persisted column of a materialized table must come from its query"),
                "not produced by the query".into(),
                "add the column to the query (CREATE OR ALTER ... AS), or add a computed or METADATA VIRTUAL column".into(),
                format!(
                    "{PREFIX}Invalid schema change. All persisted (physical and metadata) columns in the schema part need to be present in the query part.\nHowever, {} `{column}` could not be found in the query.",
                    if *metadata { "metadata persisted column" } else { "physical column" }
                ),
            ),
            SchemaIssue::UsedInQuery { columns } => (
                format!("DROP of {} that the query produces", columns.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")),
                "produced by the query".into(),
                "change the query instead (CREATE OR ALTER ... AS); only computed and METADATA VIRTUAL columns can be dropped".into(),
                format!("{PREFIX}Column(s) ({}) are used in query.", quoted_list(columns)),
            ),
            SchemaIssue::TypeChange { column, from, to } => (
                format!("`{column}` cannot change from {from} to {to}"),
                format!("was {from}"),
                "a persisted column's type may only widen (e.g. INT to BIGINT) and cannot become NOT NULL".into(),
                format!("{PREFIX}Column '{column}' with type {from} can not be changed to type {to}."),
            ),
            SchemaIssue::PrimaryKeyExists { columns } => (
                format!("`{t}` already has a primary key"),
                "second primary key".into(),
                "use MODIFY PRIMARY KEY, or DROP PRIMARY KEY first".into(),
                format!("{PREFIX}The current materialized table has already defined the primary key constraint [{}]. You might want to drop it before adding a new one.", columns.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")),
            ),
            SchemaIssue::WatermarkExists { existing } => (
                format!("`{t}` already has a watermark"),
                "second watermark".into(),
                "use MODIFY WATERMARK, or DROP WATERMARK first".into(),
                format!("{PREFIX}The current materialized table has already defined the watermark strategy {existing}. You might want to drop it before adding a new one."),
            ),
            SchemaIssue::NoWatermark { modify: true } => (
                format!("`{t}` has no watermark to modify"),
                "no watermark".into(),
                "use ADD WATERMARK".into(),
                format!("{PREFIX}The current materialized table does not define any watermark. You might want to add a new one."),
            ),
            SchemaIssue::NoWatermark { modify: false } => (
                format!("`{t}` has no watermark to drop"),
                "no watermark".into(),
                "remove the statement".into(),
                format!("{PREFIX}The current materialized table does not define any watermark strategy."),
            ),
            SchemaIssue::NoPrimaryKey { .. } => (
                format!("`{t}` has no primary key to drop"),
                "no primary key".into(),
                "remove the statement".into(),
                format!("{PREFIX}The current materialized table does not define any primary key."),
            ),
            SchemaIssue::NoConstraint { name, available } => (
                format!("`{t}` has no constraint named `{name}`"),
                "no such constraint".into(),
                match available {
                    Some(a) => format!("the primary key is named `{a}`"),
                    None => "the table has no primary key".into(),
                },
                match available {
                    Some(a) => format!("{PREFIX}The current materialized table does not define a primary key constraint named '{name}'. Available constraint name: ['{a}']."),
                    None => format!("{PREFIX}The current materialized table does not define any primary key."),
                },
            ),
            SchemaIssue::DistributionExists { existing } => (
                format!("`{t}` already has a distribution"),
                "second distribution".into(),
                "use MODIFY DISTRIBUTION".into(),
                format!("{PREFIX}The current materialized table has already defined the distribution `{existing}`. You can modify it or drop it before adding a new one."),
            ),
            SchemaIssue::NoDistribution { modify } => {
                let verb = if *modify { "modify" } else { "drop" };
                (
                    format!("`{t}` has no distribution to {verb}"),
                    "no distribution".into(),
                    if *modify { "use ADD DISTRIBUTION".into() } else { "remove the statement".into() },
                    format!("Materialized table {table} does not have a distribution to {verb}."),
                )
            }
            // A regular table's issues (TB010).
            SchemaIssue::NestedWatermark | SchemaIssue::InvalidKey { .. } => return,
            SchemaIssue::UnknownIdentifier { name } => (
                format!("the computed column refers to `{name}`, which `{t}` does not have"),
                "unknown column".into(),
                "refer to a column of the table".into(),
                format!("Unknown identifier '{name}'"),
            ),
        };
        let mut d = out
            .diagnostic(found.file, *span, message)
            .with_label(label)
            .with_help(help)
            .with_flink_message(flink);
        if let Some(r) = related {
            d = d.with_related(r.file, r.span, "declared here");
        }
        out.report(d);
    }
}

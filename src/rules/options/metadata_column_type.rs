//! A metadata column whose type the key's value cannot be cast to.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::options::OptionIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports metadata columns Flink rejects for their type
/// (`DynamicSourceUtils#validateAndApplyMetadata`, the planner's cast rules).
pub struct MetadataColumnType;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &MetadataColumnType;

impl Rule for MetadataColumnType {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::ConnectorOption {
                issue: OptionIssue::MetadataType { .. },
                ..
            }
        )
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        if !super::applies(ctx, found.file) {
            return;
        }
        let Problem::ConnectorOption {
            issue:
                OptionIssue::MetadataType {
                    key,
                    column,
                    origin,
                    connector,
                    metadata_type,
                    column_type,
                    planner,
                },
            table,
            used: Some(used),
        } = &found.problem
        else {
            return;
        };
        // Flink's message names the key's type where it says "declared as" and the column's
        // where it says "metadata type" (DynamicSourceUtils, verified with Flink 2.3.0).
        let flink = planner.clone().unwrap_or_else(|| {
            format!(
                "Invalid data type for metadata column '{column}' with metadata key '{key}' of table '{}.{}.{}'. The column cannot be declared as '{metadata_type}' because the type must be castable from metadata type '{column_type}'.",
                table.catalog, table.database, table.object
            )
        });
        let d = out
            .diagnostic(
                found.file,
                used.span,
                format!(
                    "metadata column `{column}` of table `{}` is declared {column_type}, but the `{connector}` connector's key '{key}' is {metadata_type}, which Flink cannot cast to it",
                    table.object
                ),
            )
            .with_label("reads the table here")
            .with_related(
                origin.file,
                origin.span,
                format!("metadata column (in `{}`)", table.object),
            )
            .with_help(format!(
                "declare the column as {metadata_type} (or a type it casts to) and convert it in a computed column or the query"
            ))
            .with_flink_message(flink);
        out.report(d);
    }
}

//! A query column whose type Flink does not cast implicitly to its sink column's
//! (`DynamicSinkUtils.validateSchemaAndApplyImplicitCast`, `LogicalTypeCasts`).

use super::{is_sink_issue, report_sink};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::insert::SinkIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports an INSERT writing a query column into a sink column of a type Flink does not cast
/// to implicitly (BIGINT into INT, INT into STRING, STRING into INT, ...).
pub struct InsertColumnTypeMismatch;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InsertColumnTypeMismatch;

impl Rule for InsertColumnTypeMismatch {
    fn consumes(&self, problem: &Problem) -> bool {
        is_sink_issue(problem, |i| matches!(i, SinkIssue::ColumnType { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        report_sink(found, out, |issue, t| {
            let SinkIssue::ColumnType {
                column,
                query_type,
                sink_type,
                ..
            } = issue
            else {
                return Default::default();
            };
            (
                format!("`{t}`.`{column}` is {sink_type}; the query writes {query_type} into it"),
                format!("{query_type}, not {sink_type}"),
                format!(
                    "Flink casts implicitly only to a type that holds every value: CAST the value AS {sink_type} (it may fail or truncate), or change the sink column's type"
                ),
            )
        });
    }
}

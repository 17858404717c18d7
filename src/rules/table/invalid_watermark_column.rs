//! A watermark on an unknown column, a processing-time attribute, or a column that is not
//! TIMESTAMP(p) / TIMESTAMP_LTZ(p) with p <= 3.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem, WatermarkIssue};

/// Reports watermarks Flink cannot define.
pub struct InvalidWatermarkColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidWatermarkColumn;

impl Rule for InvalidWatermarkColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::InvalidWatermark { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::InvalidWatermark {
            span,
            column,
            issue,
            inherited,
        } = &found.problem
        else {
            return;
        };
        let (message, help, flink) = match issue {
            WatermarkIssue::UnknownColumn { available, inherited: false } => (
                format!("the watermark's rowtime column `{column}` is not a column of the table"),
                "declare the watermark on one of the table's TIMESTAMP(3) or TIMESTAMP_LTZ(3) columns".to_string(),
                format!(
                    "The rowtime attribute field '{column}' is not defined in the table schema, at {}\nAvailable fields: [{}]",
                    ctx.flink_position(found.file, found.statement, span.start),
                    available.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(", ")
                ),
            ),
            WatermarkIssue::UnknownColumn { available, inherited: true } => (
                format!("the inherited watermark's rowtime column `{column}` is no longer in the table"),
                "include the rowtime column (check EXCLUDING GENERATED / METADATA), or add EXCLUDING WATERMARKS".to_string(),
                format!(
                    "Invalid column name '{column}' for rowtime attribute in watermark declaration. Available columns are: [{}]",
                    available.join(", ")
                ),
            ),
            WatermarkIssue::Nested { missing: Some((field, row)), .. } => (
                format!("the watermark's rowtime column `{column}` does not exist: the row has no field `{field}`"),
                "declare the watermark on a top-level TIMESTAMP(3) column; extract a nested field into a computed column first".to_string(),
                format!(
                    "The rowtime attribute field '{column}' is not defined in the table schema, at {}\nNested field '{field}' was not found in a composite type: {row}.",
                    ctx.flink_position(found.file, found.statement, span.start)
                ),
            ),
            WatermarkIssue::Nested { missing: None, available } => (
                format!("the watermark's rowtime column `{column}` is a nested field, which Flink 2.3 does not accept as a rowtime"),
                format!("extract it into a computed column, e.g. `event_time AS {column}`, and declare the watermark on that"),
                format!(
                    "Invalid column name '{column}' for rowtime attribute in watermark declaration. Available columns are: [{}]",
                    available.join(", ")
                ),
            ),
            WatermarkIssue::ProcessingTime => (
                format!("`{column}` is a processing-time attribute (PROCTIME()); a watermark needs an event-time column"),
                "declare the watermark on an event-time TIMESTAMP(3) column".to_string(),
                "A watermark can not be defined for a processing-time attribute.".to_string(),
            ),
            WatermarkIssue::WrongType { found: t } => (
                format!("the watermark's rowtime column `{column}` is {t}, not TIMESTAMP(p) or TIMESTAMP_LTZ(p) with p <= 3"),
                rowtime_help(column, t),
                format!("Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is {t}"),
            ),
        };
        let mut d = out
            .diagnostic(found.file, *span, message)
            .with_help(help)
            .with_flink_message(flink);
        if let Some(origin) = inherited {
            d = d.with_related(
                origin.file,
                origin.span,
                "the watermark inherited from the LIKE parent",
            );
        }
        out.report(d);
    }
}

/// How to turn a column of type `t` into a rowtime.
fn rowtime_help(column: &str, t: &str) -> String {
    if t.starts_with("BIGINT") || t.starts_with("INT") {
        format!("if `{column}` holds epoch milliseconds, add `{column}_ts AS TO_TIMESTAMP_LTZ({column}, 3)` and declare the watermark on it")
    } else if t.starts_with("STRING") || t.starts_with("VARCHAR") || t.starts_with("CHAR") {
        format!("add `{column}_ts AS TO_TIMESTAMP({column})` (with a format if needed) and declare the watermark on it")
    } else if t.starts_with("TIMESTAMP") {
        "declare the column as TIMESTAMP(3) or TIMESTAMP_LTZ(3): a rowtime has at most millisecond precision".to_string()
    } else {
        format!("declare the watermark on a TIMESTAMP(3) or TIMESTAMP_LTZ(3) column derived from `{column}`")
    }
}

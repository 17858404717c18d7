//! A watermark strategy whose type is not a rowtime type, or not the rowtime column's.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports watermark strategies of a type Flink cannot use.
pub struct InvalidWatermarkExpression;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidWatermarkExpression;

impl Rule for InvalidWatermarkExpression {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::InvalidWatermarkExpression { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::InvalidWatermarkExpression {
            span,
            column,
            found: t,
            field,
        } = &found.problem
        else {
            return;
        };
        let (message, flink) = match field {
            None => (
                format!("the watermark strategy for `{column}` is {t}, not TIMESTAMP(p) or TIMESTAMP_LTZ(p) with p <= 3"),
                format!("Invalid data type of expression for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the watermark expression type is {t}"),
            ),
            Some(f) => (
                format!("the watermark strategy for `{column}` is {t}, but `{column}` is {f}"),
                format!("The watermark declaration's output data type '{t}' is different from the time field's data type '{f}'."),
            ),
        };
        let d = out
            .diagnostic(found.file, *span, message)
            .with_label("the watermark strategy")
            .with_help(format!(
                "derive the watermark from `{column}` itself, e.g. `{column} - INTERVAL '5' SECOND`"
            ))
            .with_flink_message(flink);
        out.report(d);
    }
}

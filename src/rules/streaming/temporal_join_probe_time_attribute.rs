//! A temporal join AS OF a probe column that is not a time attribute.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// A temporal join AS OF a probe column that is not a time attribute.
pub struct TemporalJoinProbeTimeAttribute;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &TemporalJoinProbeTimeAttribute;

impl Rule for TemporalJoinProbeTimeAttribute {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::TemporalJoinProbeNotTimeAttribute { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(p @ StreamProblem::TemporalJoinProbeNotTimeAttribute { span, column }) =
            &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("FOR SYSTEM_TIME AS OF `{column}`, which is not a time attribute of the probe side"),
            )
            .with_label("not a time attribute")
            .with_help("join AS OF the probe table's rowtime (the column of its WATERMARK) or a PROCTIME() column, passed through unchanged (a CAST makes it a plain TIMESTAMP)")
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}

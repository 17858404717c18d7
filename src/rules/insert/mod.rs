//! INSERT rules (QV040-QV049): what Flink's sink checks reject in an INSERT whose columns fit
//! its sink in number and names (`PreValidateReWriter`, `DynamicSinkUtils`, the connectors'
//! sinks). Column counts, unknown and repeated target columns are CL011's, read-only target
//! columns CL007's.

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_insert.rs"));

use crate::rules::Reporter;
use crate::semantic::insert::SinkIssue;
use crate::semantic::problems::{Found, Problem};

/// Whether `problem` is a sink problem `matches` accepts.
pub(crate) fn is_sink_issue(problem: &Problem, matches: fn(&SinkIssue) -> bool) -> bool {
    matches!(problem, Problem::SinkSchema { issue, .. } if matches(issue))
}

/// Reports the sink problem of `found` with Flink's message; `text` gives the message, label
/// and help from the issue and the sink's unqualified name.
pub(crate) fn report_sink(
    found: &Found,
    out: &mut Reporter<'_>,
    text: impl Fn(&SinkIssue, &str) -> (String, String, String),
) {
    let Problem::SinkSchema {
        span,
        table,
        sink,
        issue,
    } = &found.problem
    else {
        return;
    };
    let t = table.object.as_str();
    let (message, label, help) = text(issue, t);
    let d = out
        .diagnostic(found.file, *span, message)
        .with_label(label)
        .with_help(help)
        .with_flink_message(issue.flink_message(table))
        .with_related(sink.file, sink.span, format!("`{t}` is defined here"));
    out.report(d);
}

//! An INSERT into a sink with a persisted metadata column whose connector writes no metadata
//! (`DynamicSinkUtils`: the sink does not implement `SupportsWritingMetadata`).

use super::{is_sink_issue, report_sink};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::insert::SinkIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports an INSERT into a `blackhole`, `print` or `filesystem` table that declares a
/// metadata column without `VIRTUAL`.
pub struct InsertMetadataNotWritable;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InsertMetadataNotWritable;

impl Rule for InsertMetadataNotWritable {
    fn consumes(&self, problem: &Problem) -> bool {
        is_sink_issue(problem, |i| matches!(i, SinkIssue::MetadataNotWritable { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        report_sink(found, out, |issue, t| {
            let SinkIssue::MetadataNotWritable { column, connector } = issue else {
                return Default::default();
            };
            (
                format!("`{t}` declares the persisted metadata column `{column}`, and its `{connector}` connector writes no metadata"),
                "sink writes no metadata".to_string(),
                format!("declare `{column}` as METADATA VIRTUAL (read-only) or drop it from `{t}`"),
            )
        });
    }
}

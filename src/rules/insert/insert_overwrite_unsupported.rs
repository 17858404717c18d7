//! `INSERT OVERWRITE` into a sink that cannot overwrite: a connector without
//! `SupportsOverwrite` (`DynamicSinkUtils`), or the `filesystem` connector in streaming mode
//! (`FileSystemTableSink`).

use super::{is_sink_issue, report_sink};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::insert::SinkIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports an `INSERT OVERWRITE` Flink rejects for its sink or runtime mode.
pub struct InsertOverwriteUnsupported;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InsertOverwriteUnsupported;

impl Rule for InsertOverwriteUnsupported {
    fn consumes(&self, problem: &Problem) -> bool {
        is_sink_issue(problem, |i| {
            matches!(
                i,
                SinkIssue::OverwriteUnsupported { .. } | SinkIssue::OverwriteInStreaming
            )
        })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        report_sink(found, out, |issue, t| match issue {
            SinkIssue::OverwriteUnsupported { connector } => (
                format!("the `{connector}` connector of `{t}` cannot overwrite"),
                "INSERT OVERWRITE".to_string(),
                "use INSERT INTO".to_string(),
            ),
            _ => (
                format!("INSERT OVERWRITE into the filesystem table `{t}` in streaming mode"),
                "INSERT OVERWRITE".to_string(),
                "a filesystem sink overwrites only in batch mode: SET 'execution.runtime-mode' = 'batch'; before the INSERT, or use INSERT INTO".to_string(),
            ),
        });
    }
}

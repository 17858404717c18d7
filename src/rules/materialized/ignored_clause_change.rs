//! CREATE OR ALTER of an existing materialized table whose clause changes Flink ignores (FRESHNESS,
//! COMMENT, PARTITIONED BY, an added watermark), rejects (REFRESH_MODE) or applies by removing (an
//! omitted DISTRIBUTED BY or WITH). Flink 2.3.0 verified; flink-spec §4.4.

use crate::diagnostics::Severity;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{IgnoredClause, Found, Problem};

/// Reports clause changes of CREATE OR ALTER that do not do what they say.
pub struct IgnoredClauseChange;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &IgnoredClauseChange;

impl Rule for IgnoredClauseChange {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::IgnoredClauseChange { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::IgnoredClauseChange {
            span,
            clause,
            old,
            new,
            previous,
        } = &found.problem
        else {
            return;
        };
        let old_text = old.as_deref().unwrap_or("none");
        let new_text = new.as_deref().unwrap_or("none");
        let ignored = |what: &str| {
            (
                Severity::Warning,
                format!(
                    "CREATE OR ALTER does not change {what} of an existing materialized table: {new_text} is ignored and {old_text} stays"
                ),
                "ignored".to_string(),
                format!("to change {what}, DROP the materialized table and CREATE it again; to keep the file truthful, write {old_text}"),
                None,
            )
        };
        let (severity, message, label, help, flink) = match clause {
            IgnoredClause::Freshness => ignored("the FRESHNESS"),
            IgnoredClause::Comment => ignored("the COMMENT"),
            IgnoredClause::PartitionedBy => ignored("PARTITIONED BY"),
            IgnoredClause::Watermark => (
                Severity::Warning,
                format!(
                    "CREATE OR ALTER does not add or change the watermark of an existing materialized table: {new_text} is ignored"
                ),
                "ignored".to_string(),
                "add it with ALTER MATERIALIZED TABLE ... ADD WATERMARK FOR ... (Flink 2.3), or DROP and CREATE the table".to_string(),
                None,
            ),
            IgnoredClause::RefreshMode => (
                Severity::Error,
                format!(
                    "CREATE OR ALTER cannot change the refresh mode of an existing materialized table from {old_text} to {new_text}"
                ),
                format!("was {old_text}"),
                format!("keep REFRESH_MODE = {old_text} (or omit it), or DROP the materialized table and CREATE it again"),
                Some("Changing of REFRESH MODE is unsupported"),
            ),
            IgnoredClause::DistributionDropped => (
                Severity::Info,
                format!(
                    "CREATE OR ALTER without DISTRIBUTED BY removes the existing distribution ({old_text})"
                ),
                "no DISTRIBUTED BY here".to_string(),
                format!("CREATE OR ALTER is declarative for DISTRIBUTED BY: repeat `{old_text}` to keep it"),
                None,
            ),
            IgnoredClause::OptionsDropped => (
                Severity::Info,
                format!(
                    "CREATE OR ALTER without WITH removes every stored option of the materialized table ({old_text})"
                ),
                "no WITH here".to_string(),
                "CREATE OR ALTER is declarative for WITH: repeat the options to keep them".to_string(),
                None,
            ),
        };
        let mut d = out
            .diagnostic_with(severity, found.file, *span, message)
            .with_label(label)
            .with_help(help);
        if let Some(f) = flink {
            d = d.with_flink_message(f);
        }
        if let Some(p) = previous {
            d = d.with_related(p.file, p.span, "declared here");
        }
        out.report(d);
    }
}

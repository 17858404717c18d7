//! State that grows without bound: a regular join or a group aggregate over an unbounded
//! stream keeps a row (or an accumulator) per key for ever unless a state TTL bounds it —
//! `table.exec.state.ttl` for the job (`ExecutionConfigOptions.IDLE_STATE_RETENTION`), or
//! the `STATE_TTL` hint for one operator (FLIP-373). Flink accepts such a pipeline; its state
//! grows with the number of keys ever seen.
//!
//! The TTL is often set in the cluster's configuration, which flinklint cannot see: this is
//! worth knowing, not a mistake.

use super::checks::PipelineProblem;
use super::{Node, Op};
use crate::semantic::catalog::TableDef;

/// Whether the source a scan reads is unbounded (`Some(true)`), bounded (`Some(false)`), or
/// not known: kafka, upsert-kafka and the CDC connectors are unbounded (kafka unless
/// `scan.bounded.mode` bounds it, a CDC source unless `scan.startup.mode` is `snapshot`);
/// filesystem is bounded unless `source.monitor-interval` is set. datagen (test data) is
/// not counted.
pub fn table_unbounded(t: &TableDef) -> Option<bool> {
    let connector = t.option("connector")?.value.trim().to_ascii_lowercase();
    let set = |key: &str| t.option(key).is_some();
    Some(match connector.as_str() {
        "kafka" => !set("scan.bounded.mode"),
        "upsert-kafka" => true,
        // Test data: its pipelines are not deployed as they are.
        "datagen" => return None,
        "filesystem" => set("source.monitor-interval"),
        c if c.ends_with("-cdc") => t
            .option("scan.startup.mode")
            .is_none_or(|o| !o.value.trim().eq_ignore_ascii_case("snapshot")),
        _ => return None,
    })
}

/// Whether `table.exec.state.ttl`'s value bounds state (a positive duration; `0` keeps it
/// for ever).
pub fn ttl_bounds(value: &str) -> bool {
    let digits: String = value
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.is_empty() || digits.chars().any(|c| c != '0')
}

/// The first regular join or group aggregate (top-down) over an unbounded source, when the
/// statement has no `STATE_TTL` hint.
pub(crate) fn check(
    input: &Node,
    unbounded: &dyn Fn(&Node) -> Option<bool>,
    query: &crate::syntax::ast::Query,
) -> Option<PipelineProblem> {
    if !input.fully_known() || query.has_hint("STATE_TTL") {
        return None;
    }
    let mut stack = vec![input];
    let mut guard = 0usize;
    while let Some(n) = stack.pop() {
        guard += 1;
        if guard > 100_000 {
            return None;
        }
        // A global aggregate keeps one accumulator: only keyed aggregates grow.
        let keyed = n.op == Op::Join || (n.op == Op::GroupAggregate && !n.unique_keys.is_empty());
        if keyed {
            let scans = super::checks::scans(n);
            let bounded: Vec<Option<bool>> = scans.iter().map(|s| unbounded(s)).collect();
            if !scans.is_empty()
                && bounded.iter().all(Option::is_some)
                && bounded.contains(&Some(true))
            {
                return Some(PipelineProblem::UnboundedState {
                    span: n.span,
                    node: n.op.name(),
                });
            }
        }
        stack.extend(n.inputs.iter().rev());
    }
    None
}

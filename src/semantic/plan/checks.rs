//! The checks Flink's planner makes on a pipeline after its changelog modes are inferred,
//! and what flinklint says about its state:
//!
//! - an upsert sink whose primary key does not contain an upsert key of the query, without
//!   `ON CONFLICT` (Flink 2.3, `FlinkChangelogModeInferenceProgram`'s
//!   `SatisfyUpdateKindTraitVisitor.analyzeUpsertMaterializeStrategy`, FLIP-558), and an
//!   `ON CONFLICT` Flink rejects ([`super::keys`] derives the upsert keys);
//! - a non-deterministic function over an update stream under
//!   `table.optimizer.non-deterministic-update.strategy = 'TRY_RESOLVE'`
//!   (`StreamNonDeterministicUpdatePlanVisitor`, [`super::determinism`]);
//! - state that grows without bound: a regular join or group aggregate over an unbounded
//!   stream without a state TTL ([`super::state`]).

use super::keys::{self, UpsertKeys};
use super::{Kinds, Node, Op, TimeAttr};
use crate::source::Span;
use crate::syntax::ast::{ConflictBehavior, OnConflict, Query};
use compact_str::CompactString;

/// The sink of a pipeline, as the checks after changelog inference need it.
#[derive(Debug, Clone)]
pub struct SinkInfo {
    /// Its full name, as Flink prints it (`cat.db.t`).
    pub name: String,
    /// The name as written in the statement.
    pub span: Span,
    /// Its `connector` option.
    pub connector: Option<String>,
    /// Its primary key's columns (empty: none).
    pub primary_key: Vec<CompactString>,
    /// Where the primary key is declared.
    pub primary_key_at: Option<crate::semantic::catalog::Origin>,
    /// The sink column each column of the query writes, in order (the INSERT's column list,
    /// or the table's writable columns).
    pub targets: Vec<CompactString>,
    /// The statement's `ON CONFLICT`.
    pub on_conflict: Option<OnConflict>,
}

/// The session settings the checks read.
#[derive(Debug, Clone, Default)]
pub struct PipelineSettings {
    /// `table.optimizer.non-deterministic-update.strategy` is `TRY_RESOLVE`.
    pub try_resolve: bool,
    /// `table.exec.state.ttl` is set to a positive duration.
    pub state_ttl: bool,
    /// `table.exec.sink.require-on-conflict` is not `false` and
    /// `table.exec.sink.upsert-materialize` is `AUTO` (the defaults).
    pub require_on_conflict: bool,
}

/// What the checks after changelog inference find.
#[derive(Debug, Clone)]
pub enum PipelineProblem {
    /// An upsert sink whose primary key contains no upsert key of the query, and no
    /// `ON CONFLICT` (Flink 2.3: `SatisfyUpdateKindTraitVisitor`).
    UpsertKeyDiffers {
        /// The sink's name in the statement.
        span: Span,
        /// The sink's full name.
        sink: String,
        /// Where its primary key is declared.
        primary_key_at: Option<crate::semantic::catalog::Origin>,
        /// The primary key, as Flink prints it (`[id]`).
        primary_key: String,
        /// The query's upsert keys, as Flink prints them (`[id, name]`, `none`, or empty).
        upsert_key: String,
        /// Whether the query is insert-only (ON CONFLICT DO DEDUPLICATE is then free).
        insert_only: bool,
    },
    /// `ON CONFLICT` into a sink that is not an upsert sink.
    OnConflictNotUpsert {
        /// The clause.
        span: Span,
        /// The sink's name in the statement.
        sink_span: Span,
        /// The sink's full name.
        sink: String,
    },
    /// `ON CONFLICT DO ERROR | NOTHING` over a source without a watermark.
    OnConflictWithoutWatermark {
        /// The clause.
        span: Span,
        /// `ERROR` or `NOTHING`.
        behavior: &'static str,
        /// The sources without a watermark, in plan order (full names).
        sources: Vec<String>,
    },
    /// A non-deterministic function computes a column of an update stream
    /// (`StreamNonDeterministicUpdatePlanVisitor`, under `TRY_RESOLVE`).
    NonDeterministicUpdate {
        /// The call.
        span: Span,
        /// The column's name, as Flink prints it (`EXPR$2`, an alias, `CURRENT_TIMESTAMP`).
        column: String,
        /// The function, upper case.
        function: String,
        /// The node producing the updates.
        producer: &'static str,
    },
    /// A regular join or group aggregate over an unbounded stream, without a state TTL.
    UnboundedState {
        /// The clause of the operator.
        span: Span,
        /// `GroupAggregate` or `Join`.
        node: &'static str,
    },
}

/// The text of the `ON CONFLICT` behaviours, as Flink prints them.
pub fn behavior_name(b: ConflictBehavior) -> &'static str {
    match b {
        ConflictBehavior::Error => "ERROR",
        ConflictBehavior::Nothing => "NOTHING",
        ConflictBehavior::Deduplicate => "DEDUPLICATE",
    }
}

impl PipelineProblem {
    /// Flink's message.
    pub fn flink_message(&self) -> Option<String> {
        Some(match self {
            PipelineProblem::UpsertKeyDiffers {
                sink,
                primary_key,
                upsert_key,
                ..
            } => format!(
                "The query has an upsert key that differs from the primary key of the sink table '{sink}'. Primary key: {primary_key}, upsert key: {upsert_key}. This can lead to non-deterministic results when multiple records with different upsert keys map to the same primary key. Please specify an ON CONFLICT clause to define how conflicts should be handled: ON CONFLICT DO DEDUPLICATE (update to the latest record, state intensive, since we need to keep the entire history), or ON CONFLICT DO ERROR (fail on conflict), or ON CONFLICT DO NOTHING (keep first record)."
            ),
            PipelineProblem::OnConflictNotUpsert { sink, .. } => format!(
                "ON CONFLICT clause is only allowed for upsert sinks. The sink '{sink}' is not an upsert sink because it only accepts INSERT (append-only) changes."
            ),
            PipelineProblem::OnConflictWithoutWatermark {
                behavior, sources, ..
            } => format!(
                "ON CONFLICT DO {behavior} requires all source tables to define watermarks, but the following source(s) do not: {}. Please add a WATERMARK declaration to these tables.",
                sources.join(", ")
            ),
            PipelineProblem::NonDeterministicUpdate {
                column, function, ..
            } => format!(
                "The column(s): {column}(generated by non-deterministic function: {function} ) can not satisfy the determinism requirement for correctly processing update message('UB'/'UA'/'D' in changelogMode, not 'I' only), this usually happens when input node has no upsertKey(upsertKeys=[{{}}]) or current node outputs non-deterministic update messages. Please consider removing these non-deterministic columns or making them deterministic by using deterministic functions."
            ),
            PipelineProblem::UnboundedState { .. } => return None,
        })
    }

    /// Whether Flink rejects the statement.
    pub fn rejects(&self) -> bool {
        !matches!(self, PipelineProblem::UnboundedState { .. })
    }
}

/// How a sink's changelog mode follows its input (`DynamicTableSink.getChangelogMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SinkMode {
    /// Inserts only, whatever the input (filesystem with csv, kafka with json).
    InsertOnly,
    /// What the input produces (print), without UPDATE_BEFORE (blackhole).
    Mirrors,
    /// INSERT, UPDATE_AFTER and DELETE, whatever the input (upsert-kafka, jdbc).
    Upsert,
    /// Every kind, UPDATE_BEFORE included (a changelog format such as debezium-json).
    Retract,
}

fn sink_mode(connector: &str, format: Option<&str>) -> Option<SinkMode> {
    let caps = crate::semantic::options::catalogs()
        .connector(connector)?
        .changelog
        .as_ref()?;
    Some(match caps.sink.as_deref()? {
        "insert-only" => SinkMode::InsertOnly,
        "all" | "all-but-update-before" => SinkMode::Mirrors,
        "upsert" => SinkMode::Upsert,
        "format" => {
            let f = crate::semantic::options::catalogs()
                .format(format?)?
                .changelog
                .as_ref()?;
            match f.encode.as_deref()? {
                "insert-only" => SinkMode::InsertOnly,
                "all" => SinkMode::Retract,
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// The scans of a plan, in Flink's traversal order (inputs left to right).
pub(crate) fn scans(node: &Node) -> Vec<&Node> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.op == Op::Scan {
            out.push(n);
        }
        stack.extend(n.inputs.iter().rev());
    }
    out
}

/// The table a scan reads, as `(catalog, database, object)` (from its `table=[[c, d, o]]`).
pub fn scan_table(scan: &Node) -> Option<(String, String, String)> {
    let rest = scan.detail.strip_prefix("table=[[")?;
    let inner = &rest[..rest.find("]]")?];
    let mut parts = inner.split(", ");
    let (c, d, o) = (parts.next()?, parts.next()?, parts.next()?);
    parts
        .next()
        .is_none()
        .then(|| (c.to_string(), d.to_string(), o.to_string()))
}

/// Checks a planned INSERT's sink against the query's changelog and upsert keys, as
/// `SatisfyUpdateKindTraitVisitor` does on the sink: `ON CONFLICT` where Flink rejects it,
/// then the primary key against the upsert keys.
pub fn check_sink(
    input: &Node,
    sink: &SinkInfo,
    format: Option<&str>,
    settings: &PipelineSettings,
    filtered: bool,
) -> Option<PipelineProblem> {
    if !input.fully_known() {
        return None;
    }
    let kinds: Kinds = input.kinds?;
    let mode = sink_mode(sink.connector.as_deref()?, format)?;
    let insert_only = kinds.insert_only();
    // The sink's mode for this input: append, upsert or retract.
    let (append, retract) = match mode {
        SinkMode::InsertOnly => (true, false),
        SinkMode::Mirrors => (insert_only, false),
        SinkMode::Upsert => (false, false),
        SinkMode::Retract => (insert_only, !insert_only),
    };
    if let Some(oc) = sink.on_conflict {
        if append {
            return Some(PipelineProblem::OnConflictNotUpsert {
                span: oc.span,
                sink_span: sink.span,
                sink: sink.name.clone(),
            });
        }
        if retract {
            // Flink's reason differs ("it requires UPDATE_BEFORE"): not verified.
            return None;
        }
        if matches!(
            oc.behavior,
            ConflictBehavior::Error | ConflictBehavior::Nothing
        ) {
            let scans = scans(input);
            let missing: Vec<String> = scans
                .iter()
                .filter(|s| !s.columns.iter().any(|c| c.time == TimeAttr::Rowtime))
                .filter_map(|s| scan_table(s).map(|(c, d, o)| format!("{c}.{d}.{o}")))
                .collect();
            if !missing.is_empty() {
                return Some(PipelineProblem::OnConflictWithoutWatermark {
                    span: oc.span,
                    behavior: behavior_name(oc.behavior),
                    sources: missing,
                });
            }
        }
    }
    if sink.primary_key.is_empty() || append || retract || !settings.require_on_conflict {
        return None;
    }
    if sink.on_conflict.is_some() {
        return None;
    }
    let pk: Vec<usize> = sink
        .primary_key
        .iter()
        .map(|c| sink.targets.iter().position(|t| t == c))
        .collect::<Option<_>>()?;
    if input.columns.len() != sink.targets.len() {
        return None;
    }
    let upsert = match keys::upsert_keys(input)? {
        // A filter keeps the Calc that an identity projection would not: its keys are the
        // empty set.
        UpsertKeys::Null if filtered && input.op == Op::Calc => UpsertKeys::Keys(Vec::new()),
        k => k,
    };
    let contained = match &upsert {
        UpsertKeys::Null => false,
        UpsertKeys::Keys(ks) => ks.iter().any(|k| k.iter().all(|i| pk.contains(i))),
    };
    if contained {
        return None;
    }
    let upsert_key = match &upsert {
        UpsertKeys::Null => "none".to_string(),
        UpsertKeys::Keys(ks) => ks
            .iter()
            .map(|k| {
                let mut k = k.clone();
                k.sort_unstable();
                let names: Vec<&str> = k
                    .iter()
                    .filter_map(|i| sink.targets.get(*i).map(|c| c.as_str()))
                    .collect();
                format!("[{}]", names.join(", "))
            })
            .collect::<Vec<_>>()
            .join(","),
    };
    Some(PipelineProblem::UpsertKeyDiffers {
        span: sink.span,
        sink: sink.name.clone(),
        primary_key_at: sink.primary_key_at,
        primary_key: format!("[{}]", sink.primary_key.join(", ")),
        upsert_key,
        insert_only,
    })
}

/// Every check after changelog inference, in Flink's order; the state check when Flink
/// accepts the pipeline.
pub fn check_pipeline(
    root: &Node,
    query: &Query,
    sink: Option<(&SinkInfo, Option<&str>)>,
    settings: &PipelineSettings,
    unbounded: &dyn Fn(&Node) -> Option<bool>,
) -> Option<PipelineProblem> {
    let input = if root.op == Op::Sink {
        root.inputs.first()?
    } else {
        root
    };
    if let Some((sink, format)) = sink {
        let filtered =
            matches!(&query.body, crate::syntax::ast::SetExpr::Select(s) if s.selection.is_some());
        if let Some(p) = check_sink(input, sink, format, settings, filtered) {
            return Some(p);
        }
    }
    if settings.try_resolve {
        let keyed_sink = sink.is_some_and(|(s, _)| !s.primary_key.is_empty());
        if let Some(p) = super::determinism::check(input, query, sink.is_some(), keyed_sink) {
            return Some(p);
        }
    }
    if !settings.state_ttl {
        return super::state::check(input, unbounded, query);
    }
    None
}

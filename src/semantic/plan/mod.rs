//! The logical plan of a pipeline, in the planner's terms, and the streaming checks made on
//! it.
//!
//! Each INSERT (a statement-set member included), CTAS and SELECT becomes a tree of
//! operators named as Flink's physical plan names them (`TableSourceScan`, `Calc`,
//! `GroupAggregate`, `WindowTableFunction`, `WindowAggregate`, `GroupWindowAggregate`,
//! `OverAggregate`, `Join`, `IntervalJoin`, `TemporalJoin`, `LookupJoin`, `Rank`, `SortLimit`,
//! `Limit`, `Union`, `Values`, `Sink`). Per node it records:
//!
//! - its columns, and which of them are time attributes (rowtime, proctime): a watermark's
//!   column and a `PROCTIME()` computed column are; a column passed through unchanged stays
//!   one; a `CAST`, any other expression, a group aggregate and a regular join lose them (as
//!   Flink's `RelTimeIndicatorConverter` materializes them);
//! - the kinds of changes it produces (insert; update; delete), inferred bottom-up as
//!   `FlinkChangelogModeInferenceProgram`'s `SatisfyModifyKindSetTraitVisitor` does, and
//!   whether its updates carry UPDATE_BEFORE, decided top-down from what the consumer needs
//!   (its `SatisfyUpdateKindTraitVisitor`): a sink that accepts everything (print) asks for
//!   UPDATE_BEFORE, one that drops it (blackhole) or upserts does not; aggregates, joins and
//!   ranks consume updates as retractions and ask their inputs for it;
//! - its unique keys where they are plain (a group aggregate's grouping columns).
//!
//! Sources' modes come from the connector and format data (`changelog:` in
//! `rules/data/connectors/*.yaml` and `rules/data/formats/*.yaml`). A node whose behaviour is
//! not modelled (an unknown table or connector, a UDF, MATCH_RECOGNIZE, UNNEST, a sort
//! without LIMIT, ...) is `Unknown`: nothing that depends on it is checked. A GROUP BY with
//! ROLLUP, CUBE or GROUPING SETS is a group aggregate over Flink's `Expand` (grouped by `$e`
//! too when there are several sets).
//!
//! Checks ([`StreamProblem`]): updates or deletes into a sink that accepts only inserts (Flink:
//! "Table sink '...' doesn't support consuming update changes which is produced by node
//! ..."), and a window table function whose time column is not a time attribute (Flink's
//! `StreamPhysicalWindowTableFunctionRule`: "The window function requires the timecol is a
//! time attribute type, but is ..."), and the planner's other time-attribute and window
//! checks: a HOP or CUMULATE size that is not a multiple of its slide or step
//! (`SliceAssigners`), interval and event-time temporal joins whose rowtimes differ in type
//! (bounds in a WHERE included), temporal joins written as RIGHT or FULL joins, OVER
//! aggregates of one SELECT over different windows (partition, order or frame), ordered
//! descending or by several keys, or with a frame that does not end at the current row, and a
//! streaming ORDER BY or a MATCH_RECOGNIZE ordered first by something other than an ascending
//! time attribute.

mod build;
pub mod checks;
mod determinism;
pub mod keys;
mod problem;
pub mod state;

pub use build::{plan_query, plan_sink, Planned, SinkTarget};
pub use checks::{PipelineProblem, PipelineSettings, SinkInfo};
pub use problem::{Phase, StreamProblem, TemporalMissing, WindowCheck};

use super::types::{Kind, Type};
use crate::source::Span;
use compact_str::CompactString;
use std::fmt::Write as _;

/// The kinds of changes a node produces (Flink's `ModifyKindSet`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Kinds {
    /// INSERT.
    pub insert: bool,
    /// UPDATE (UPDATE_AFTER, and UPDATE_BEFORE when asked for).
    pub update: bool,
    /// DELETE.
    pub delete: bool,
}

impl Kinds {
    /// Inserts only.
    pub const INSERT_ONLY: Kinds = Kinds {
        insert: true,
        update: false,
        delete: false,
    };
    /// Every kind (`ModifyKindSet.ALL_CHANGES`).
    pub const ALL: Kinds = Kinds {
        insert: true,
        update: true,
        delete: true,
    };
    /// Inserts and updates (a group aggregate over an insert-only input).
    pub const INSERT_UPDATE: Kinds = Kinds {
        insert: true,
        update: true,
        delete: false,
    };
    /// Both sets together.
    pub fn union(self, other: Kinds) -> Kinds {
        Kinds {
            insert: self.insert || other.insert,
            update: self.update || other.update,
            delete: self.delete || other.delete,
        }
    }
    /// Only inserts.
    pub fn insert_only(self) -> bool {
        !self.update && !self.delete
    }
}

/// Whether a column is a time attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeAttr {
    /// An event-time attribute (the column of a watermark).
    Rowtime,
    /// A processing-time attribute (`PROCTIME()`).
    Proctime,
    /// Not a time attribute (never was, or lost).
    None,
    /// Not known (it comes from something not modelled).
    Unknown,
}

impl TimeAttr {
    fn label(self) -> &'static str {
        match self {
            TimeAttr::Rowtime => "*ROWTIME*",
            TimeAttr::Proctime => "*PROCTIME*",
            TimeAttr::None => "",
            TimeAttr::Unknown => "?",
        }
    }
}

/// A column of a node.
#[derive(Debug, Clone)]
pub struct PlanColumn {
    /// Its name.
    pub name: CompactString,
    /// The relation it belongs to in a FROM clause (alias or table name).
    pub relation: Option<CompactString>,
    /// Whether it is a time attribute.
    pub time: TimeAttr,
    /// Its type, when known.
    pub data_type: Option<Type>,
    /// Where it comes from in the node's first input ([`keys`]).
    pub origin: keys::Origin,
    /// Whether it is a window's start, end or time column ([`WindowProp`]).
    pub window: WindowProp,
}

/// A column's part in a window, as Flink's `FlinkRelMdWindowProperties` tracks it: the
/// `window_start`, `window_end` and `window_time` of a window table function keep it while
/// they are passed on unchanged (a projection, a rename, a filter, a window aggregate grouping
/// by them); any expression loses it. A window aggregate, Top-N or deduplication is planned
/// where the grouping (partition) keys hold a window's start and end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WindowProp {
    /// None.
    #[default]
    None,
    /// The start of window `n` (windows numbered per pipeline).
    Start(u32),
    /// Its end.
    End(u32),
    /// Its time (`window_time`).
    Time(u32),
    /// Not known: derived from a window's column by an expression Flink may simplify away
    /// (`CAST`, `COALESCE`), or passed through something flinklint does not follow (a join, a
    /// UNION of two windows).
    Unknown,
}

/// The operators, named as Flink's physical plan names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `TableSourceScan`.
    Scan,
    /// `Values`.
    Values,
    /// `Calc`: projection and filter.
    Calc,
    /// `GroupAggregate` (GROUP BY, DISTINCT, UNION).
    GroupAggregate,
    /// `WindowTableFunction` (TUMBLE, HOP, CUMULATE, SESSION).
    WindowTableFunction,
    /// `WindowAggregate` over a window table function.
    WindowAggregate,
    /// `GroupWindowAggregate` (legacy `GROUP BY TUMBLE(...)`).
    GroupWindowAggregate,
    /// `OverAggregate`.
    OverAggregate,
    /// `Join` (regular join).
    Join,
    /// `IntervalJoin`.
    IntervalJoin,
    /// `TemporalJoin` (event time, `FOR SYSTEM_TIME AS OF`).
    TemporalJoin,
    /// `LookupJoin`.
    LookupJoin,
    /// `Rank` (Top-N and deduplication by `ROW_NUMBER`).
    Rank,
    /// `WindowRank` and `WindowDeduplicate`: a Top-N partitioned by a window's start and end.
    WindowRank,
    /// `WindowJoin`: a join whose condition equates both sides' window starts and ends.
    WindowJoin,
    /// `Union` (`UNION ALL`).
    Union,
    /// `SortLimit` (ORDER BY with LIMIT or FETCH).
    SortLimit,
    /// `Limit` (LIMIT or FETCH without ORDER BY).
    Limit,
    /// `Sink`.
    Sink,
    /// Something not modelled.
    Unknown,
}

impl Op {
    /// The name Flink's plan prints.
    pub fn name(self) -> &'static str {
        match self {
            Op::Scan => "TableSourceScan",
            Op::Values => "Values",
            Op::Calc => "Calc",
            Op::GroupAggregate => "GroupAggregate",
            Op::WindowTableFunction => "WindowTableFunction",
            Op::WindowAggregate => "WindowAggregate",
            Op::GroupWindowAggregate => "GroupWindowAggregate",
            Op::OverAggregate => "OverAggregate",
            Op::Join => "Join",
            Op::IntervalJoin => "IntervalJoin",
            Op::TemporalJoin => "TemporalJoin",
            Op::LookupJoin => "LookupJoin",
            Op::Rank => "Rank",
            Op::WindowRank => "WindowRank",
            Op::WindowJoin => "WindowJoin",
            Op::Union => "Union",
            Op::SortLimit => "SortLimit",
            Op::Limit => "Limit",
            Op::Sink => "Sink",
            Op::Unknown => "Unknown",
        }
    }
    /// Whether the operator passes its consumer's requirement on to its inputs (it neither
    /// produces nor consumes changes itself).
    fn forwards(self) -> bool {
        matches!(
            self,
            Op::Calc | Op::Union | Op::WindowTableFunction | Op::LookupJoin
        )
    }
}

/// One operator of a plan.
#[derive(Debug, Clone)]
pub struct Node {
    /// The operator.
    pub op: Op,
    /// Its description inside the parentheses, in Flink's form where flinklint can render it
    /// (`groupBy=[id], select=[id, COUNT(*) AS c]`).
    pub detail: String,
    /// Whether `detail` is Flink's exact rendering.
    pub exact: bool,
    /// Its columns.
    pub columns: Vec<PlanColumn>,
    /// The kinds of changes it produces; `None` when not known.
    pub kinds: Option<Kinds>,
    /// Whether its updates carry UPDATE_BEFORE (set by the top-down pass).
    pub before: bool,
    /// Its unique keys (column names), where plain.
    pub unique_keys: Vec<Vec<CompactString>>,
    /// What a join's or Top-N's upsert keys need beyond its columns.
    pub key_info: keys::KeyInfo,
    /// Its inputs.
    pub inputs: Vec<Node>,
    /// Where it comes from in the statement (a node from a view: the view's reference).
    pub span: Span,
}

impl Node {
    /// The changelog mode as Flink's `EXPLAIN CHANGELOG_MODE` prints it (`[I,UB,UA,D]`),
    /// `[?]` when not known; a sink prints `[NONE]`.
    pub fn mode(&self) -> String {
        if self.op == Op::Sink {
            return "[NONE]".to_string();
        }
        let Some(k) = self.kinds else {
            return "[?]".to_string();
        };
        let mut parts = Vec::new();
        if k.insert {
            parts.push("I");
        }
        if k.update {
            if self.before {
                parts.push("UB");
            }
            parts.push("UA");
        }
        if k.delete {
            parts.push("D");
        }
        format!("[{}]", parts.join(","))
    }

    /// `Op(detail)`, as Flink's error messages name a node.
    pub fn description(&self) -> String {
        format!("{}({})", self.op.name(), self.detail)
    }

    /// Whether every node below (and this one) has known kinds.
    pub fn fully_known(&self) -> bool {
        self.kinds.is_some() && self.inputs.iter().all(Node::fully_known)
    }

    /// The plan as text, one node per line, indented as Flink's plans are, with each node's
    /// changelog mode, unique keys and time attributes.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out, "", "", 0);
        out
    }

    fn render_into(&self, out: &mut String, first: &str, rest: &str, depth: usize) {
        out.push_str(first);
        let _ = write!(out, "{}({}", self.op.name(), self.detail);
        if !self.detail.is_empty() {
            out.push_str(", ");
        }
        let _ = write!(out, "changelogMode={}", self.mode());
        if !self.unique_keys.is_empty() {
            let keys: Vec<String> = self
                .unique_keys
                .iter()
                .map(|k| format!("[{}]", k.join(", ")))
                .collect();
            let _ = write!(out, ", uniqueKeys=[{}]", keys.join(", "));
        }
        let times: Vec<String> = self
            .columns
            .iter()
            .filter(|c| matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime))
            .map(|c| format!("{} {}", c.name, c.time.label()))
            .collect();
        if !times.is_empty() {
            let _ = write!(out, ", timeAttributes=[{}]", times.join(", "));
        }
        out.push_str(")\n");
        if depth > 64 {
            return;
        }
        let n = self.inputs.len();
        for (i, input) in self.inputs.iter().enumerate() {
            let last = i + 1 == n;
            let head = format!("{rest}{}", if last { "+- " } else { ":- " });
            let tail = format!("{rest}{}", if last { "   " } else { ":  " });
            input.render_into(out, &head, &tail, depth + 1);
        }
    }
}

impl WindowProp {
    /// The window the column belongs to.
    pub fn window(self) -> Option<u32> {
        match self {
            WindowProp::Start(n) | WindowProp::End(n) | WindowProp::Time(n) => Some(n),
            WindowProp::None | WindowProp::Unknown => None,
        }
    }
}

/// A timestamp type as the planner's window rule prints it (Calcite's type names, without
/// nullability: `TIMESTAMP(3)`, `TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)`); `None` for other types,
/// whose message flinklint has not verified.
pub fn summary_type(t: &Type) -> Option<String> {
    match &t.kind {
        Kind::Timestamp(p) => Some(format!("TIMESTAMP({p})")),
        Kind::TimestampLtz(p) => Some(format!("TIMESTAMP_WITH_LOCAL_TIME_ZONE({p})")),
        _ => None,
    }
}

/// A rowtime's type as Flink's join rules print it (`TIMESTAMP(3) *ROWTIME*`,
/// `TIMESTAMP_LTZ(3) *ROWTIME*`); `None` for other types.
pub fn rowtime_text(t: &Type) -> Option<String> {
    match &t.kind {
        Kind::Timestamp(p) => Some(format!("TIMESTAMP({p}) *ROWTIME*")),
        Kind::TimestampLtz(p) => Some(format!("TIMESTAMP_LTZ({p}) *ROWTIME*")),
        _ => None,
    }
}

/// The top-down pass: whether each node's updates carry UPDATE_BEFORE, from what its consumer
/// needs (`before`).
pub(crate) fn assign_before(node: &mut Node, before: bool) {
    node.before = before && node.kinds.is_some_and(|k| k.update);
    if node.op == Op::TemporalJoin {
        // The probe side follows the consumer; the versioned side prefers ONLY_UPDATE_AFTER
        // (`SatisfyUpdateKindTraitVisitor`).
        let mut inputs = node.inputs.iter_mut();
        if let Some(left) = inputs.next() {
            assign_before(left, before);
        }
        for right in inputs {
            assign_before(right, false);
        }
        return;
    }
    let child = if node.op.forwards() {
        before
    } else {
        // Aggregates, joins, ranks and over aggregates consume updates as retractions.
        !matches!(node.op, Op::Sink | Op::Scan | Op::Values | Op::Unknown)
    };
    for input in &mut node.inputs {
        assign_before(input, child);
    }
}

/// The node that produces the updates a consumer of `node` sees: forwarding nodes pass the
/// requirement down (the first input that carries them), the first node that does not is the
/// one Flink names.
pub(crate) fn producer(node: &Node) -> &Node {
    let mut n = node;
    let mut guard = 0;
    while n.op.forwards() && guard < 256 {
        guard += 1;
        match n
            .inputs
            .iter()
            .find(|i| i.kinds.is_some_and(|k| !k.insert_only()))
        {
            Some(next) => n = next,
            None => break,
        }
    }
    n
}

/// The plans of a file's pipelines as `flinklint explain` prints them: per planned statement
/// (all, or the `statement`-th of the file, 1-based) a header with its number, line and first
/// words, the plan with each node's changelog mode, unique keys and time attributes (in the
/// spirit of Flink's `EXPLAIN CHANGELOG_MODE`), and the message of Flink's planner when it
/// rejects the pipeline.
pub fn explain(
    plans: &[super::session::RecordedPlan],
    file: &crate::files::FileEntry,
    statement: Option<usize>,
) -> String {
    let statements = &file.parsed.script.statements;
    let mut out = String::new();
    for p in plans.iter().filter(|p| p.file == file.id) {
        let Some(index) = statements
            .iter()
            .position(|s| s.span.contains(p.statement) || s.span == p.statement)
        else {
            continue;
        };
        if statement.is_some_and(|n| n != index + 1) {
            continue;
        }
        let line = file.source.line_col(p.statement.start).line;
        let text: String = file
            .source
            .slice(p.statement)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let head: String = text.chars().take(80).collect();
        let ellipsis = if text.chars().count() > 80 { "..." } else { "" };
        let _ = writeln!(
            out,
            "-- statement {} (line {line}): {head}{ellipsis}",
            index + 1
        );
        out.push_str("== Changelog Mode Plan ==\n");
        out.push_str(&p.root.render());
        if let Some(problem) = &p.problem {
            out.push_str("== Rejected by Flink's planner ==\n");
            let _ = writeln!(out, "{}", problem.flink_message());
        }
        out.push('\n');
    }
    out
}

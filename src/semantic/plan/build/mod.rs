//! Builds the plan of a query from its syntax tree and the session's catalog.

use super::{assign_before, producer, Kinds, Node, Op, Phase, StreamProblem, TimeAttr};
use crate::semantic::query::Scope;
use crate::source::Span;
use crate::syntax::ast::{Query, SetExpr, SetOperator};
use compact_str::CompactString;

/// Joins string pieces (`&str`, `String`, `CompactString`) into one string allocated once at
/// its final length: every node gets a description, and `format!` costs several times more.
macro_rules! cat {
    ($($part:expr),+ $(,)?) => {
        $crate::semantic::plan::build::concat(&[$(AsRef::<str>::as_ref(&$part)),+])
    };
}

/// The pieces of [`cat!`], joined.
fn concat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
}

mod aggregate;
mod conditions;
mod connectors;
mod helpers;
mod join;
mod rank;
mod scan;
mod select;
mod sort;
mod subquery;
mod window;

use connectors::{sink_accepts, Accepts};
use helpers::{aggregate_kinds, column, kinds_of, lose_time, unknown};
use scan::rename;

/// Views nested deeper than this are not planned.
const MAX_DEPTH: usize = 24;

/// The sink a pipeline writes.
#[derive(Debug, Clone)]
pub struct SinkTarget {
    /// Its full name, as Flink prints it in messages (`cat.db.t`).
    pub name: String,
    /// The name as written.
    pub span: Span,
    /// Its `connector` option.
    pub connector: Option<String>,
    /// Its `format` (or `value.format`) option.
    pub format: Option<String>,
}

/// A planned pipeline: its plan (when its query could be planned) and the first streaming
/// problem Flink's planner would report.
#[derive(Debug, Clone, Default)]
pub struct Planned {
    /// The plan.
    pub root: Option<Node>,
    /// The first problem.
    pub problem: Option<StreamProblem>,
}

/// Plans `query` written into `sink` and checks it: Flink's first streaming problem, if any.
pub fn plan_sink(query: &Query, scope: &dyn Scope, sink: &SinkTarget) -> Planned {
    let mut b = Builder::new(scope);
    let input = b.query(query);
    let mut problem = b.problem.take();
    let accepts = sink
        .connector
        .as_deref()
        .and_then(|c| sink_accepts(c, sink.format.as_deref()));
    let mut root = Node {
        op: Op::Sink,
        detail: cat!("table=[", sink.name, "]"),
        exact: false,
        columns: input.columns.clone(),
        kinds: None,
        before: false,
        unique_keys: Vec::new(),
        key_info: Default::default(),
        inputs: vec![input],
        span: sink.span,
    };
    let before = match accepts {
        Some(Accepts::Changes { before }) => before,
        _ => false,
    };
    for input in &mut root.inputs {
        assign_before(input, before);
    }
    let earlier =
        |p: &Option<StreamProblem>, phase: Phase| p.as_ref().is_some_and(|p| p.phase() <= phase);
    if !earlier(&problem, Phase::Changelog)
        && accepts == Some(Accepts::InsertOnly)
        && !b.unknown_inputs
    {
        let input = &root.inputs[0];
        if input.fully_known() && input.kinds.is_some_and(|k| !k.insert_only()) {
            let p = producer(input);
            if let Some(k) = p.kinds {
                let changes = match (k.update, k.delete) {
                    (true, true) => "update and delete",
                    (true, false) => "update",
                    _ => "delete",
                };
                problem = Some(StreamProblem::UpdatesIntoInsertOnlySink {
                    span: p.span,
                    sink_span: sink.span,
                    sink: sink.name.clone(),
                    connector: sink.connector.clone().unwrap_or_default(),
                    changes: changes.to_string(),
                    node: p.op.name(),
                    description: p.description(),
                    exact: p.exact,
                });
            }
        }
    }
    // `StreamExecSink`: at most one rowtime attribute may be written.
    if !earlier(&problem, Phase::Exec)
        && root.inputs[0]
            .columns
            .iter()
            .filter(|c| c.time == TimeAttr::Rowtime)
            .nth(1)
            .is_some()
    {
        let input = &root.inputs[0];
        let names = uniquify(input.columns.iter().map(|c| c.name.as_str()));
        let rowtimes: Vec<String> = input
            .columns
            .iter()
            .zip(names)
            .filter(|(c, _)| c.time == TimeAttr::Rowtime)
            .map(|(_, n)| n)
            .collect();
        if rowtimes.len() > 1 {
            problem = Some(StreamProblem::MultipleRowtimeIntoSink {
                span: input.span,
                sink_span: sink.span,
                sink: sink.name.clone(),
                columns: rowtimes,
            });
        }
    }
    Planned {
        root: Some(root),
        problem,
    }
}

/// Column names made unique as Calcite's validator does (`ts`, `ts0`, `ts1`).
fn uniquify<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for n in names {
        let mut name = n.to_string();
        let mut i = 0;
        while seen.contains(&name) && i < 10_000 {
            name = format!("{n}{i}");
            i += 1;
        }
        seen.insert(name.clone());
        out.push(name);
    }
    out
}

/// Plans a query run on its own (a SELECT: its result is collected, which accepts every
/// change) and checks it.
pub fn plan_query(query: &Query, scope: &dyn Scope) -> Planned {
    let mut b = Builder::new(scope);
    let mut root = b.query(query);
    assign_before(&mut root, true);
    Planned {
        root: Some(root),
        problem: b.problem.take(),
    }
}

struct Builder<'s> {
    scope: &'s dyn Scope,
    /// The WITH queries in scope: name, plan, and the problem found in it (reported where
    /// the query is read: Calcite drops a WITH query nothing reads).
    ctes: Vec<(CompactString, Node, Option<StreamProblem>)>,
    /// The span nodes get while a view's query is planned (the view's reference).
    anchor: Option<Span>,
    depth: usize,
    problem: Option<StreamProblem>,
    /// Something the pipeline reads is not modelled or not known (a table the session does
    /// not see, a connector without data, a UDF).
    unknown_inputs: bool,
    /// The scans that accept projection pushdown, by span (`describe_scans`).
    scans: std::collections::HashMap<Span, scan::ScanInfo>,
    /// Spans shared by two scans (inside a view): not refined.
    scans_ambiguous: Vec<Span>,
    /// HOP window table functions whose size is not a multiple of their slide, by the node's
    /// span: Flink rejects them under a window aggregate only.
    hop_sizes: Vec<(u32, StreamProblem)>,
    /// The window table functions planned so far (their columns' [`super::WindowProp`]s
    /// number them).
    windows: u32,
    /// The SESSION windows among them.
    session_windows: Vec<u32>,
    /// The specs of the windows that can be compared (function, time attribute, intervals).
    window_specs: Vec<(u32, String)>,
    /// The next query planned keeps its ORDER BY (a statement's or a view's query; Calcite
    /// drops the ORDER BY of a subquery without LIMIT).
    sort_kept: bool,
}

impl<'s> Builder<'s> {
    fn new(scope: &'s dyn Scope) -> Builder<'s> {
        Builder {
            scope,
            ctes: Vec::new(),
            anchor: None,
            depth: 0,
            problem: None,
            unknown_inputs: false,
            scans: std::collections::HashMap::new(),
            scans_ambiguous: Vec::new(),
            hop_sizes: Vec::new(),
            windows: 0,
            session_windows: Vec::new(),
            window_specs: Vec::new(),
            sort_kept: true,
        }
    }

    /// Whether two columns play the same part in two windows of equal specs.
    fn same_window(&self, a: super::WindowProp, b: super::WindowProp) -> bool {
        use super::WindowProp::{End, Start, Time};
        let spec = |id: u32| {
            self.window_specs
                .iter()
                .find(|(i, _)| *i == id)
                .map(|(_, s)| s)
        };
        let (x, y) = match (a, b) {
            (Start(x), Start(y)) | (End(x), End(y)) | (Time(x), Time(y)) => (x, y),
            _ => return false,
        };
        spec(x).is_some() && spec(x) == spec(y)
    }

    /// Records a problem unless one Flink finds in an earlier phase (or earlier in the same
    /// phase) is recorded.
    fn found(&mut self, p: StreamProblem) {
        if self.problem.as_ref().is_none_or(|q| q.phase() > p.phase()) {
            self.problem = Some(p);
        }
    }

    fn at(&self, span: Span) -> Span {
        self.anchor.unwrap_or(span)
    }

    fn unknown(&mut self, span: Span) -> Node {
        self.unknown_inputs = true;
        unknown(self.at(span))
    }

    fn query(&mut self, q: &Query) -> Node {
        let sort_kept = std::mem::replace(&mut self.sort_kept, false);
        if self.depth > MAX_DEPTH {
            return self.unknown(q.span);
        }
        self.depth += 1;
        let saved = self.ctes.len();
        for cte in &q.with {
            let outer = self.problem.take();
            let mut node = self.query(&cte.query);
            let problem = std::mem::replace(&mut self.problem, outer);
            if let Some(cols) = &cte.columns {
                rename(
                    &mut node,
                    cols.names.iter().map(|c| c.text.clone()).collect(),
                );
            }
            self.ctes.push((cte.name.text.clone(), node, problem));
        }
        let node = if sort_kept && !q.order_by.is_empty() && q.limit.is_none() && q.offset.is_none()
        {
            // A Sort (no LIMIT): Flink sorts a stream on an ascending time attribute only.
            let body = self.set_expr(&q.body);
            self.check_sort(q, &body);
            let mut n = self.unknown(q.span);
            n.inputs = vec![body];
            n
        } else if q.limit.is_some() {
            let body = self.set_expr(&q.body);
            self.sort_limit(q, body)
        } else if let Some(offset) = &q.offset {
            // An OFFSET without FETCH: Flink's Limit and SortLimit do not run it on a stream
            // (found when the plan is translated).
            let body = self.set_expr(&q.body);
            self.found(StreamProblem::OffsetWithoutFetch {
                span: self.at(offset.span),
            });
            let mut n = self.unknown(q.span);
            n.inputs = vec![body];
            n
        } else if !q.order_by.is_empty() {
            // A subquery's Sort: not modelled.
            self.unknown(q.span)
        } else {
            self.set_expr(&q.body)
        };
        self.ctes.truncate(saved);
        self.depth -= 1;
        node
    }

    fn set_expr(&mut self, body: &SetExpr) -> Node {
        match body {
            SetExpr::Select(s) => self.select(s),
            SetExpr::Query(q) => self.query(q),
            SetExpr::Values(v) => {
                let columns = v
                    .rows
                    .first()
                    .map(|row| {
                        (0..row.len())
                            .map(|i| column(&format!("EXPR${i}"), TimeAttr::None, None))
                            .collect()
                    })
                    .unwrap_or_default();
                Node {
                    op: Op::Values,
                    detail: String::new(),
                    exact: false,
                    columns,
                    kinds: Some(Kinds::INSERT_ONLY),
                    before: false,
                    unique_keys: Vec::new(),
                    key_info: Default::default(),
                    inputs: Vec::new(),
                    span: self.at(v.span),
                }
            }
            SetExpr::Table(name) => self.named(name, None, name.span),
            SetExpr::SetOperation {
                op: SetOperator::Union,
                all,
                left,
                right,
                span,
            } => {
                let l = self.set_expr(left);
                let r = self.set_expr(right);
                let mut columns = l.columns.clone();
                for (c, other) in columns.iter_mut().zip(&r.columns) {
                    if c.time != other.time {
                        c.time = TimeAttr::Unknown;
                    }
                    // Two windows' columns: Flink keeps them when the windows are equal.
                    if c.window != other.window && !self.same_window(c.window, other.window) {
                        c.window = super::WindowProp::Unknown;
                    }
                    c.relation = None;
                }
                if !*all && columns.iter().any(|c| c.window != super::WindowProp::None) {
                    // UNION over a window's columns: perhaps a window aggregate.
                    let mut n = self.unknown(*span);
                    n.inputs = vec![l, r];
                    return n;
                }
                let kinds = kinds_of(&[&l, &r]);
                let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
                let union = Node {
                    op: Op::Union,
                    detail: format!("all=[true], union=[{}]", names.join(", ")),
                    exact: false,
                    columns: columns.clone(),
                    kinds,
                    before: false,
                    unique_keys: Vec::new(),
                    key_info: Default::default(),
                    inputs: vec![l, r],
                    span: self.at(*span),
                };
                if *all {
                    union
                } else {
                    // UNION (distinct): a group aggregate on every column.
                    let mut out = columns;
                    lose_time(&mut out);
                    super::keys::identity(&mut out);
                    let names: Vec<CompactString> = out.iter().map(|c| c.name.clone()).collect();
                    Node {
                        op: Op::GroupAggregate,
                        detail: format!(
                            "groupBy=[{}], select=[{}]",
                            names.join(", "),
                            names.join(", ")
                        ),
                        exact: true,
                        columns: out,
                        kinds: aggregate_kinds(union.kinds),
                        before: false,
                        unique_keys: vec![names],
                        key_info: Default::default(),
                        inputs: vec![union],
                        span: self.at(*span),
                    }
                }
            }
            SetExpr::SetOperation {
                op,
                all,
                left,
                right,
                span,
            } => {
                let l = self.set_expr(left);
                let r = self.set_expr(right);
                if l.columns
                    .iter()
                    .any(|c| c.window != super::WindowProp::None)
                {
                    // Over a window's columns: perhaps planned on the window.
                    let mut n = self.unknown(*span);
                    n.inputs = vec![l, r];
                    return n;
                }
                let intersect = *op == SetOperator::Intersect;
                self.intersect_except(intersect, *all, l, r, *span)
            }
        }
    }

    /// INTERSECT and EXCEPT as Flink rewrites them: without ALL a semi (anti) join under a
    /// group aggregate on every column (`ReplaceIntersectWithSemiJoinRule`,
    /// `ReplaceMinusWithAntiJoinRule`); with ALL a union under a group aggregate counting
    /// each side's rows, then a table function that repeats them (`RewriteIntersectAllRule`,
    /// `RewriteMinusAllRule`). Either aggregate produces updates.
    fn intersect_except(
        &mut self,
        intersect: bool,
        all: bool,
        l: Node,
        r: Node,
        span: Span,
    ) -> Node {
        let span = self.at(span);
        let mut columns = l.columns.clone();
        for c in &mut columns {
            c.relation = None;
        }
        lose_time(&mut columns);
        super::keys::identity(&mut columns);
        let names: Vec<CompactString> = columns.iter().map(|c| c.name.clone()).collect();
        let list = names.join(", ");
        if !all {
            // `FlinkChangelogModeInferenceProgram`: a semi join forwards its inputs' changes,
            // an anti join may produce any.
            let kinds = if intersect {
                kinds_of(&[&l, &r])
            } else {
                kinds_of(&[&l, &r]).map(|_| Kinds::ALL)
            };
            let join_type = if intersect {
                "LeftSemiJoin"
            } else {
                "LeftAntiJoin"
            };
            let join = Node {
                op: Op::Join,
                detail: format!("joinType=[{join_type}]"),
                exact: false,
                columns: columns.clone(),
                kinds,
                before: false,
                unique_keys: Vec::new(),
                key_info: Default::default(),
                inputs: vec![l, r],
                span,
            };
            return Node {
                op: Op::GroupAggregate,
                detail: format!("groupBy=[{list}], select=[{list}]"),
                exact: true,
                columns,
                kinds: aggregate_kinds(join.kinds),
                before: false,
                unique_keys: vec![names],
                key_info: Default::default(),
                inputs: vec![join],
                span,
            };
        }
        let union = Node {
            op: Op::Union,
            detail: String::new(),
            exact: false,
            columns: columns.clone(),
            kinds: kinds_of(&[&l, &r]),
            before: false,
            unique_keys: Vec::new(),
            key_info: Default::default(),
            inputs: vec![l, r],
            span,
        };
        let counts = if intersect {
            "COUNT(vcol_left_marker) AS vcol_left_cnt, COUNT(vcol_right_marker) AS vcol_right_cnt"
        } else {
            "SUM(vcol_marker) AS sum_vcol_marker"
        };
        let aggregate = Node {
            op: Op::GroupAggregate,
            detail: format!("groupBy=[{list}], select=[{list}, {counts}]"),
            exact: true,
            columns: columns.clone(),
            kinds: aggregate_kinds(union.kinds),
            before: false,
            unique_keys: vec![names],
            key_info: Default::default(),
            inputs: vec![union],
            span,
        };
        // The rows repeated by a table function (a Correlate): their keys are not known.
        let mut out = columns;
        for c in &mut out {
            c.origin = super::keys::Origin::Unknown;
        }
        Node {
            op: Op::Calc,
            detail: format!("select=[{list}]"),
            exact: false,
            columns: out,
            kinds: aggregate.kinds,
            before: false,
            unique_keys: Vec::new(),
            key_info: Default::default(),
            inputs: vec![aggregate],
            span,
        }
    }
}

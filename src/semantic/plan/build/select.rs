//! SELECT blocks: projections and filters (`Calc`), OVER aggregates, DISTINCT.

use super::super::keys::{self, JoinType, KeyInfo, Origin};
use super::super::{producer, Kinds, Node, Op, PlanColumn, StreamProblem, TimeAttr, WindowProp};
use super::helpers::{
    aggregate_kinds, changes_text, column, contains_agg, contains_over, expr_time, expr_type,
    expr_window, forget_windows, has_unknown_call_or, ident_name, lose_time, strip, unknown,
    window_of_keys, Columns,
};
use super::join::{equi_pair, split_and, Equi};
use super::subquery::subquery_joins;
use super::Builder;
use crate::semantic::exprs::{self, call_name};
use crate::source::Span;
use crate::syntax::ast::{
    BinaryOp, ExprKind, Frame, FrameBound, Over, Select, SelectItem, TableRef, WindowSpec,
};
use compact_str::{format_compact, CompactString};

impl Builder<'_> {
    pub(super) fn select(&mut self, s: &Select) -> Node {
        // Top-N and deduplication: a filter on a ROW_NUMBER of the subquery below.
        if let Some(node) = self.rank(s) {
            return node;
        }
        let mut input = match &s.from {
            // The WHERE's conjuncts are pushed into an inner join below.
            Some(TableRef::Join {
                left,
                right,
                kind,
                on,
                span,
                ..
            }) if s.selection.is_some() => self.join(
                left,
                right,
                *kind,
                on.as_deref(),
                s.selection.as_ref(),
                *span,
            ),
            Some(t) => self.table_ref(t),
            None => Node {
                op: Op::Values,
                detail: String::new(),
                exact: false,
                columns: Vec::new(),
                kinds: Some(Kinds::INSERT_ONLY),
                before: false,
                unique_keys: Vec::new(),
                key_info: Default::default(),
                inputs: Vec::new(),
                span: self.at(s.span),
            },
        };
        self.describe_scans(&mut input, s);
        self.redescribe_problem(&input);
        if let Some(filter) = &s.selection {
            push_filter_keys(&mut input, filter);
        }
        let exprs_of = || {
            s.items
                .iter()
                .filter_map(|i| match i {
                    SelectItem::Expr { expr, .. } => Some(expr),
                    _ => None,
                })
                .chain(s.selection.iter())
                .chain(s.having.iter())
                .chain(s.group_by.iter())
                .chain(s.qualify.iter())
        };
        // Subqueries in the forms Flink turns into joins (semi and anti joins for IN and
        // EXISTS, a join with a single-row aggregate for a scalar subquery, LeftOuterJoins);
        // other forms stay unknown.
        let subqueries = subquery_joins(s);
        let aggregating = !s.group_by.is_empty()
            || s.having.is_some()
            || s.items
                .iter()
                .any(|i| matches!(i, SelectItem::Expr { expr, .. } if contains_agg(expr)));
        if let Some(joins) = &subqueries {
            input = self.subquery_join_nodes(&joins.filter, input, s.span);
            if !aggregating {
                input = self.subquery_join_nodes(&joins.select, input, s.span);
            }
        }
        let unknown_call =
            |e: &crate::syntax::ast::Expr| has_unknown_call_or(e, subqueries.is_none());
        if exprs_of().any(unknown_call) {
            self.unknown_inputs = true;
            let mut n = unknown(self.at(s.span));
            n.inputs = vec![input];
            return n;
        }
        if s.qualify.is_some() {
            return self.unknown(s.span);
        }
        let over = s
            .items
            .iter()
            .any(|i| matches!(i, SelectItem::Expr { expr, .. } if contains_over(expr)));
        let mut node = if aggregating {
            let node = self.aggregate(s, input);
            // The HAVING's and the select list's subqueries join the aggregate's result.
            match &subqueries {
                Some(joins) => {
                    let node = self.subquery_join_nodes(&joins.having, node, s.span);
                    self.subquery_join_nodes(&joins.select, node, s.span)
                }
                None => node,
            }
        } else if over {
            if s.items.iter().any(|i| {
                matches!(i, SelectItem::Expr { expr, .. } if call_name(strip(expr)).as_deref() == Some("ROW_NUMBER"))
            }) {
                // A ROW_NUMBER without a rank filter above it: not modelled.
                let mut n = unknown(self.at(s.span));
                n.inputs = vec![input];
                return n;
            }
            self.check_over(s, &input);
            let mut columns = self.project(s, &input.columns);
            forget_windows(&mut columns);
            Node {
                op: Op::OverAggregate,
                detail: String::new(),
                exact: false,
                columns,
                kinds: if self.over_updates(s, &input) {
                    input.kinds.map(|_| Kinds::ALL)
                } else {
                    input.kinds.filter(|k| k.insert_only())
                },
                before: false,
                unique_keys: Vec::new(),
                key_info: Default::default(),
                inputs: vec![input],
                span: self.at(s.span),
            }
        } else {
            let columns = self.project(s, &input.columns);
            let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
            Node {
                op: Op::Calc,
                detail: cat!("select=[", names.join(", "), "]"),
                exact: false,
                kinds: input.kinds,
                columns,
                before: false,
                unique_keys: Vec::new(),
                key_info: Default::default(),
                inputs: vec![input],
                span: self.at(s.span),
            }
        };
        if s.distinct {
            // DISTINCT on a window's start and end: a window aggregate (insert-only).
            let windows: Vec<WindowProp> = node.columns.iter().map(|c| c.window).collect();
            match window_of_keys(&windows) {
                Err(()) => {
                    let mut n = unknown(self.at(s.span));
                    n.inputs = vec![node];
                    return n;
                }
                Ok(Some(_)) => {
                    let mut columns = node.columns.clone();
                    for c in &mut columns {
                        if !matches!(c.window, WindowProp::Time(_)) {
                            c.time = TimeAttr::None;
                        }
                    }
                    let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
                    return Node {
                        op: Op::WindowAggregate,
                        detail: cat!("select=[", names.join(", "), "]"),
                        exact: false,
                        kinds: node.kinds.filter(|k| k.insert_only()),
                        columns,
                        before: false,
                        unique_keys: Vec::new(),
                        key_info: Default::default(),
                        inputs: vec![node],
                        span: self.at(s.span),
                    };
                }
                Ok(None) => {}
            }
            let mut columns = node.columns.clone();
            lose_time(&mut columns);
            for c in &mut columns {
                c.window = WindowProp::None;
            }
            keys::identity(&mut columns);
            let names: Vec<CompactString> = columns.iter().map(|c| c.name.clone()).collect();
            node = Node {
                op: Op::GroupAggregate,
                detail: {
                    let names = names.join(", ");
                    cat!("groupBy=[", names, "], select=[", names, "]")
                },
                exact: true,
                kinds: aggregate_kinds(node.kinds),
                columns,
                before: false,
                unique_keys: vec![names],
                key_info: Default::default(),
                inputs: vec![node],
                span: self.at(s.span),
            };
        }
        node
    }

    /// The columns of a non-aggregating select list over `input`.
    pub(super) fn project(&self, s: &Select, input: &[PlanColumn]) -> Vec<PlanColumn> {
        let mut out = Vec::with_capacity(s.items.len());
        let by_name = Columns::new(input);
        for (i, item) in s.items.iter().enumerate() {
            match item {
                SelectItem::Expr { expr, alias, .. } => {
                    let name = alias
                        .as_ref()
                        .map(|a| a.text.clone())
                        .or_else(|| ident_name(expr))
                        .unwrap_or_else(|| format_compact!("EXPR${i}"));
                    // A column by name: one look-up gives its time attribute, window
                    // property, type and origin.
                    if let ExprKind::Identifier(n) = &strip(expr).kind {
                        let found = by_name.index(n);
                        let c = found.map(|k| &input[k]);
                        out.push(PlanColumn {
                            origin: found.map_or(Origin::Unknown, Origin::Ref),
                            window: c.map_or(by_name.missing_window(), |c| c.window),
                            ..column(
                                &name,
                                c.map_or(TimeAttr::Unknown, |c| c.time),
                                c.and_then(|c| c.data_type.clone()),
                            )
                        });
                        continue;
                    }
                    let time = expr_time(expr, &by_name);
                    let window = expr_window(expr, &by_name);
                    let origin = match &strip(expr).kind {
                        ExprKind::Binary {
                            op: BinaryOp::Plus | BinaryOp::Minus,
                            ..
                        } if {
                            let mut rowtime = false;
                            exprs::walk(expr, &mut |x| {
                                if let ExprKind::Identifier(n) = &x.kind {
                                    rowtime |= by_name
                                        .lookup(n)
                                        .is_some_and(|c| c.time == TimeAttr::Rowtime);
                                }
                            });
                            rowtime
                        } =>
                        {
                            Origin::Shifted
                        }
                        _ => Origin::Expr,
                    };
                    out.push(PlanColumn {
                        origin,
                        window,
                        ..column(&name, time, expr_type(expr, &by_name))
                    });
                }
                SelectItem::Wildcard { qualifier, .. } => {
                    for (k, c) in input.iter().enumerate() {
                        let keep = match qualifier {
                            Some(q) => c.relation.as_deref() == Some(q.last().text.as_str()),
                            None => true,
                        };
                        if keep {
                            let mut c = c.clone();
                            c.relation = None;
                            c.origin = Origin::Ref(k);
                            out.push(c);
                        }
                    }
                }
            }
        }
        out
    }

    /// The OVER windows of a select list over `input`: one window for every OVER aggregate
    /// (`StreamPhysicalOverAggregateRule`), a bounded window ordered by a time attribute, an
    /// insert-only input (`FlinkChangelogModeInferenceProgram`), and, when the operator is
    /// translated (`StreamExecOverAggregate`), one ascending ORDER BY key and a frame ending at
    /// the current row.
    fn check_over(&mut self, s: &Select, input: &Node) {
        if self.unknown_inputs {
            return;
        }
        let cols = Columns::new(&input.columns);
        let mut specs: Vec<&WindowSpec> = Vec::new();
        let mut unresolved = false;
        let mut ranking = false;
        for item in &s.items {
            if let SelectItem::Expr { expr, .. } = item {
                exprs::walk(expr, &mut |x| {
                    if let ExprKind::Function(call) = &x.kind {
                        match call.over.as_deref() {
                            Some(Over::Spec(spec)) => specs.push(spec),
                            Some(Over::Named(n)) => {
                                match s.windows.iter().find(|(w, _)| w.text == n.text) {
                                    Some((_, spec)) => specs.push(spec),
                                    None => unresolved = true,
                                }
                            }
                            None => {}
                        }
                        // Calcite gives ranking functions their own frame.
                        ranking |= call.over.is_some()
                            && matches!(
                                call_name(x).as_deref(),
                                Some(
                                    "ROW_NUMBER"
                                        | "RANK"
                                        | "DENSE_RANK"
                                        | "PERCENT_RANK"
                                        | "CUME_DIST"
                                        | "NTILE"
                                        | "LEAD"
                                )
                            );
                    }
                });
            }
        }
        // `AggFunctionFactory`: LEAD has no streaming implementation, whatever its window or
        // input (Flink names it before the input's changelog).
        if let Some(span) = lead_call(s) {
            self.found(StreamProblem::LeadInStream {
                span: self.at(span),
            });
        }
        // A window built on another (`w2 AS (w1 ...)`, `OVER (w1 ROWS ...)`) takes its
        // partition, order and frame from it as Calcite's `SqlWindow` rules decide: not
        // modelled, nothing checked.
        if specs.iter().any(|spec| spec.base.is_some()) {
            return;
        }
        // `StreamPhysicalOverAggregateRule`: every OVER aggregate of the SELECT on one window
        // (partition, order and frame).
        if !unresolved {
            if let Some((first, other)) = differing_windows(&specs, !ranking) {
                self.found(StreamProblem::OverWindowsDiffer {
                    span: self.at(other),
                    first: self.at(first),
                });
                return;
            }
        }
        // `StreamExecOverAggregate`, in its order: one ORDER BY key, ascending, a frame that
        // ends at the current row (found after changelog inference: `Phase::Exec`).
        if let Some(second) = specs.iter().find_map(|spec| spec.order_by.get(1)) {
            self.found(StreamProblem::OverOrderKeys {
                span: self.at(second.span),
            });
        }
        if let Some(order) = specs
            .iter()
            .filter_map(|spec| spec.order_by.first())
            .find(|o| o.descending)
        {
            self.found(StreamProblem::OverDescending {
                span: self.at(order.span),
            });
        }
        if let Some(spec) = specs.iter().find(|spec| !ends_at_current_row(spec)) {
            self.found(StreamProblem::OverFollowing {
                span: self.at(spec.frame.unwrap_or(spec.span)),
            });
        }
        // A window without ORDER BY over an insert-only input (an updating one is reported by
        // the changelog inference first); ranking functions need an ORDER BY to validate.
        let insert_only = input.fully_known() && input.kinds.is_some_and(|k| k.insert_only());
        if let Some(spec) = specs.iter().find(|spec| spec.order_by.is_empty()) {
            if insert_only && !ranking && !unresolved {
                self.found(StreamProblem::OverUnordered {
                    span: self.at(spec.span),
                });
            }
        }
        for spec in specs {
            let Some(order) = spec.order_by.first() else {
                continue;
            };
            let time = expr_time(&order.expr, &cols);
            if time == TimeAttr::None
                && spec.frame_bounded
                && spec.order_by.len() == 1
                && !order.descending
                && ends_at_current_row(spec)
            {
                let column = ident_name(&order.expr)
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                self.found(StreamProblem::OverNonTimeSort {
                    span: self.at(order.span),
                    column,
                });
                return;
            }
            if matches!(time, TimeAttr::Rowtime | TimeAttr::Proctime)
                && input.fully_known()
                && input.kinds.is_some_and(|k| !k.insert_only())
            {
                let p = producer(input);
                if let Some(changes) = p.kinds.map(changes_text) {
                    self.found(StreamProblem::UpdatesIntoInsertOnlyOperator {
                        span: p.span,
                        consumer_span: self.at(spec.span),
                        requester: "StreamPhysicalOverAggregate",
                        changes: changes.to_string(),
                        node: p.op.name(),
                        description: p.description(),
                    });
                }
                return;
            }
        }
    }

    /// Whether an OVER window of the select list is unbounded and ordered by a column that is
    /// not a time attribute: Flink 2.x runs it as an updating operator (`[I,UB,UA,D]`).
    fn over_updates(&self, s: &Select, input: &Node) -> bool {
        let cols = Columns::new(&input.columns);
        let mut found = false;
        for item in &s.items {
            if let SelectItem::Expr { expr, .. } = item {
                exprs::walk(expr, &mut |x| {
                    if let ExprKind::Function(call) = &x.kind {
                        if let Some(Over::Spec(spec)) = call.over.as_deref() {
                            if let [order] = spec.order_by.as_slice() {
                                found |= !spec.frame_bounded
                                    && expr_time(&order.expr, &cols) == TimeAttr::None;
                            }
                        }
                    }
                });
            }
        }
        found
    }
}

/// The first LEAD call with an OVER window in the select list.
fn lead_call(s: &Select) -> Option<Span> {
    let mut found = None;
    for item in &s.items {
        if let SelectItem::Expr { expr, .. } = item {
            exprs::walk(expr, &mut |x| {
                if let ExprKind::Function(call) = &x.kind {
                    if found.is_none()
                        && call.over.is_some()
                        && call_name(x).as_deref() == Some("LEAD")
                    {
                        found = Some(x.span);
                    }
                }
            });
        }
    }
    found
}

/// Whether a window's frame starts before the current row and ends at it (`n PRECEDING` or
/// `UNBOUNDED PRECEDING` to `CURRENT ROW`), as a streaming OVER aggregate needs; a window
/// without a frame has the default one (`RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`).
fn ends_at_current_row(spec: &WindowSpec) -> bool {
    spec.frame_bounds.as_ref().is_none_or(|f| {
        matches!(
            f.lower,
            FrameBound::UnboundedPreceding | FrameBound::Preceding(_)
        ) && f.upper == FrameBound::CurrentRow
    })
}

/// The first window and one that differs from it by its PARTITION BY (as a set of columns),
/// its ORDER BY or (with `frames`) its frame (`ROWS` or `RANGE` and the bounds; a window
/// without a frame has `RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`); `None` when they
/// are all one window, or when a window cannot be compared (an expression, no ORDER BY, an
/// offset that is not a literal).
fn differing_windows(specs: &[&WindowSpec], frames: bool) -> Option<(Span, Span)> {
    type Key = (
        Vec<CompactString>,
        Vec<(CompactString, bool)>,
        Option<Frame>,
    );
    let key = |spec: &WindowSpec| -> Option<Key> {
        if spec.base.is_some() || spec.order_by.is_empty() {
            return None;
        }
        let mut partition: Vec<CompactString> = spec
            .partition_by
            .iter()
            .map(ident_name)
            .collect::<Option<_>>()?;
        partition.sort_unstable();
        partition.dedup();
        let order = spec
            .order_by
            .iter()
            .map(|o| ident_name(&o.expr).map(|n| (n, o.descending)))
            .collect::<Option<_>>()?;
        let frame = if frames {
            let f = spec.frame_bounds.clone().unwrap_or(Frame {
                rows: false,
                lower: FrameBound::UnboundedPreceding,
                upper: FrameBound::CurrentRow,
            });
            let literal = |b: &FrameBound| {
                !matches!(b, FrameBound::Preceding(None) | FrameBound::Following(None))
            };
            if !literal(&f.lower) || !literal(&f.upper) {
                return None;
            }
            Some(f)
        } else {
            None
        };
        Some((partition, order, frame))
    };
    let (first, rest) = specs.split_first()?;
    let first_key = key(first)?;
    let mut differing = None;
    for spec in rest {
        let k = key(spec)?;
        if k != first_key && differing.is_none() {
            differing = Some(spec.span);
        }
    }
    differing.map(|d| (first.span, d))
}

/// A WHERE clause over a regular join: Flink pushes its equalities between the two sides into
/// an inner join's condition (`FlinkFilterJoinRule`), which adds equi-join columns; over an
/// outer join (which the filter may turn into an inner one) or with an equality flinklint does
/// not follow, the join's keys are not known.
fn push_filter_keys(input: &mut Node, filter: &crate::syntax::ast::Expr) {
    if input.op != Op::Join {
        return;
    }
    let KeyInfo::Join { join_type, pairs } = &input.key_info else {
        return;
    };
    let [l, r] = input.inputs.as_slice() else {
        return;
    };
    let mut conjuncts = Vec::new();
    split_and(filter, &mut conjuncts);
    let (left, right) = (Columns::new(&l.columns), Columns::new(&r.columns));
    let mut pairs = pairs.clone();
    let mut known = *join_type == JoinType::Inner;
    let mut nested = false;
    for c in &conjuncts {
        match equi_pair(c, &left, &right) {
            Equi::Pair(a, b) => {
                if !pairs.contains(&(a, b)) {
                    pairs.push((a, b));
                }
            }
            Equi::Unknown => known = false,
            Equi::Other => {
                nested |= matches!(
                    &strip(c).kind,
                    ExprKind::Binary {
                        op: crate::syntax::ast::BinaryOp::Eq,
                        ..
                    }
                )
            }
        }
    }
    if known {
        let join_type = *join_type;
        input.key_info = KeyInfo::Join { join_type, pairs };
    } else {
        input.key_info = KeyInfo::None;
    }
    if nested || !known {
        // An equality within one side may be pushed into a join below.
        for i in &mut input.inputs {
            forget_join_keys(i, 0);
        }
    }
}

/// Forgets the key information of the joins of a join tree.
fn forget_join_keys(node: &mut Node, depth: usize) {
    if node.op != Op::Join || depth > 64 {
        return;
    }
    node.key_info = KeyInfo::None;
    for i in &mut node.inputs {
        forget_join_keys(i, depth + 1);
    }
}

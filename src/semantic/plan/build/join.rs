//! Joins: regular, interval, temporal and lookup.

use super::super::keys::{JoinType, KeyInfo};
use super::super::{
    producer, rowtime_text, Kinds, Node, Op, PlanColumn, StreamProblem, TemporalMissing, TimeAttr,
};
use super::conditions::{bound_kind, strong, times_both_sides};
use super::helpers::{changes_text, kinds_of, lose_time, strip, Columns};
use super::Builder;
use crate::semantic::catalog::{ColumnKind, ObjectDef};
use crate::semantic::exprs::{self};
use crate::semantic::options::catalogs;
use crate::semantic::types::{Kind, Type};
use crate::source::Span;
use crate::syntax::ast::{
    BinaryOp, Expr, ExprKind, JoinKind, ObjectName, SelectItem, SetExpr, TableAlias, TableRef,
};

impl Builder<'_> {
    pub(super) fn join(
        &mut self,
        left: &TableRef,
        right: &TableRef,
        kind: JoinKind,
        on: Option<&Expr>,
        filter: Option<&Expr>,
        span: Span,
    ) -> Node {
        // The WHERE above a join: Flink pushes the conjuncts on a preserved side into it.
        let pushes_left = matches!(
            kind,
            JoinKind::Inner | JoinKind::Comma | JoinKind::Cross | JoinKind::Left
        );
        let l = match (left, filter.filter(|_| pushes_left)) {
            (
                TableRef::Join {
                    left: ll,
                    right: lr,
                    kind: lk,
                    on: lon,
                    span: lspan,
                    ..
                },
                Some(_),
            ) => self.join(ll, lr, *lk, lon.as_deref(), filter, *lspan),
            _ => self.table_ref(left),
        };
        // `FOR SYSTEM_TIME AS OF`: a temporal or lookup join.
        if let TableRef::Named {
            name,
            alias,
            span: rspan,
            system_time: Some(period),
            ..
        } = right
        {
            return self.temporal_join(
                left,
                l,
                name,
                alias.as_ref(),
                *rspan,
                period,
                kind,
                on,
                span,
            );
        }
        let r = self.table_ref(right);
        let mut columns = l.columns.clone();
        columns.extend(r.columns.iter().cloned());
        // An outer join whose WHERE rejects the nulls of a side it pads is planned as the
        // narrower join (Calcite's `RelOptUtil.simplifyJoin` under `FlinkFilterJoinRule`).
        let kind = match filter {
            Some(f) if !matches!(kind, JoinKind::Inner | JoinKind::Comma | JoinKind::Cross) => {
                let (lc, rc) = (Columns::new(&l.columns), Columns::new(&r.columns));
                let mut conjuncts = Vec::new();
                split_and(f, &mut conjuncts);
                let strong_left = conjuncts.iter().any(|c| strong(c, &lc, &rc, 0));
                let strong_right = conjuncts.iter().any(|c| strong(c, &rc, &lc, 0));
                match (kind, strong_left, strong_right) {
                    (JoinKind::Left, _, true) | (JoinKind::Right, true, _) => JoinKind::Inner,
                    (JoinKind::Full, true, true) => JoinKind::Inner,
                    (JoinKind::Full, true, false) => JoinKind::Left,
                    (JoinKind::Full, false, true) => JoinKind::Right,
                    (k, _, _) => k,
                }
            }
            _ => kind,
        };
        let inner = matches!(kind, JoinKind::Inner | JoinKind::Comma | JoinKind::Cross);
        // The WHERE above an inner join: Flink pushes its conjuncts into the join's condition
        // (`FlinkFilterJoinRule`), so they can make it an interval join.
        let filter = filter.filter(|_| inner);
        // An interval join: an inner join whose condition bounds one side's time attribute by
        // the other's.
        let (left, right) = (Columns::new(&l.columns), Columns::new(&r.columns));
        let mut pushed = Vec::new();
        if let Some(f) = filter {
            split_and(f, &mut pushed);
            pushed.retain(|c| times_both_sides(c, &left, &right));
            // `IntervalJoinUtil.extractWindowBoundsFromPredicate`: a lower and an upper bound
            // (a BETWEEN, or two comparisons); one bound, or bounds under OR, leave a regular
            // join.
            let (mut lower, mut upper) = (false, false);
            for c in &pushed {
                let (lo, up) = bound_kind(c, &left, &right);
                lower |= lo;
                upper |= up;
            }
            if !(lower && upper) {
                pushed.clear();
            }
        }
        let interval = (!matches!(kind, JoinKind::Comma | JoinKind::Cross)
            && on.is_some_and(|e| times_both_sides(e, &left, &right)))
            || !pushed.is_empty();
        let conditions: Vec<&Expr> = on.into_iter().chain(pushed.iter().copied()).collect();
        // Flink compares the two rowtimes' types where it extracts the window bounds
        // (`IntervalJoinUtil`): a condition without a lower and an upper bound (`l.ts = r.ts`)
        // is a regular join's, and rowtimes of different types are accepted there.
        let bounded = {
            let mut parts = Vec::new();
            for c in &conditions {
                split_and(c, &mut parts);
            }
            let (mut lower, mut upper) = (false, false);
            for c in &parts {
                let (lo, up) = bound_kind(c, &left, &right);
                lower |= lo;
                upper |= up;
            }
            lower && upper
        };
        if interval && bounded && !self.unknown_inputs {
            if let Some((at, lt, rt)) = conditions
                .iter()
                .find_map(|e| rowtime_types(e, &left, &right).map(|(lt, rt)| (e.span, lt, rt)))
            {
                self.found(StreamProblem::RowtimeTypesDiffer {
                    span: self.at(at),
                    temporal: false,
                    left: lt,
                    right: rt,
                });
            }
        }
        let kinds = kinds_of(&[&l, &r]);
        // `FlinkChangelogModeInferenceProgram`: an interval join consumes only inserts (the
        // left input is visited first).
        if interval
            && kinds.is_some_and(|k| !k.insert_only())
            && same_kind_times(&conditions, &left, &right)
        {
            if let Some(side) = [&l, &r]
                .into_iter()
                .find(|n| n.kinds.is_some_and(|k| !k.insert_only()))
            {
                if side.fully_known() {
                    let p = producer(side);
                    if let Some(changes) = p.kinds.map(changes_text) {
                        let problem = StreamProblem::UpdatesIntoInsertOnlyOperator {
                            span: p.span,
                            consumer_span: self.at(span),
                            requester: "StreamPhysicalIntervalJoin",
                            changes: changes.to_string(),
                            node: p.op.name(),
                            description: p.description(),
                        };
                        self.found(problem);
                    }
                }
            }
        }
        // Inputs with a window's columns: a window join, or a join flinklint does not model.
        if !interval {
            match super::window::window_join(&l, &r, kind, on) {
                super::window::WindowJoin::No => {}
                super::window::WindowJoin::Yes => {
                    // Both sides' time attributes are kept, as under an interval join.
                    super::helpers::forget_windows(&mut columns);
                    return Node {
                        op: Op::WindowJoin,
                        detail: String::new(),
                        exact: false,
                        columns,
                        kinds: kinds.filter(|k| k.insert_only()),
                        before: false,
                        unique_keys: Vec::new(),
                        key_info: KeyInfo::None,
                        inputs: vec![l, r],
                        span: self.at(span),
                    };
                }
                super::window::WindowJoin::Unsure => {
                    let mut n = self.unknown(span);
                    n.inputs = vec![l, r];
                    return n;
                }
            }
        }
        let (op, kinds) = if interval {
            // An interval join keeps both sides' time attributes (`StreamExecSink` then sees
            // two rowtimes).
            (Op::IntervalJoin, kinds.filter(|k| k.insert_only()))
        } else {
            lose_time(&mut columns);
            let out = if inner {
                kinds
            } else {
                kinds.map(|_| Kinds::ALL)
            };
            (Op::Join, out)
        };
        let join_type = match kind {
            JoinKind::Inner | JoinKind::Comma | JoinKind::Cross => "InnerJoin",
            JoinKind::Left => "LeftOuterJoin",
            JoinKind::Right => "RightOuterJoin",
            JoinKind::Full => "FullOuterJoin",
        };
        super::helpers::forget_windows(&mut columns);
        let key_info = if op == Op::Join {
            join_key_info(kind, on, &left, &right)
        } else {
            KeyInfo::None
        };
        Node {
            op,
            detail: format!("joinType=[{join_type}]"),
            exact: false,
            columns,
            kinds,
            before: false,
            unique_keys: Vec::new(),
            key_info,
            inputs: vec![l, r],
            span: self.at(span),
        }
    }

    /// A join with `FOR SYSTEM_TIME AS OF`: an event-time temporal join, a processing-time
    /// one, or a lookup join (processing time on a lookup source), checked as Flink's
    /// `LogicalCorrelateToJoinFromTemporalTableRule`, `TemporalJoinRewriteWithUniqueKeyRule`
    /// and `StreamExecTemporalJoin` do.
    #[allow(clippy::too_many_arguments)]
    fn temporal_join(
        &mut self,
        left: &TableRef,
        l: Node,
        name: &ObjectName,
        alias: Option<&TableAlias>,
        rspan: Span,
        period: &Expr,
        kind: JoinKind,
        on: Option<&Expr>,
        span: Span,
    ) -> Node {
        let mut r = self.named(name, alias, rspan);
        let versioned_rowtime = r.columns.iter().any(|c| c.time == TimeAttr::Rowtime);
        let versioned_pk: Option<Vec<compact_str::CompactString>> = match r.op {
            Op::Scan => Some(r.unique_keys.first().cloned().unwrap_or_default()),
            // A view that projects a table without a primary key has none either.
            Op::Calc => {
                let mut n = &r;
                let mut guard = 0;
                while n.op == Op::Calc && n.inputs.len() == 1 && guard < 64 {
                    n = &n.inputs[0];
                    guard += 1;
                }
                (n.op == Op::Scan && n.unique_keys.is_empty()).then(Vec::new)
            }
            _ => None,
        };
        // The versioned table's connector: a lookup source turns a processing-time temporal
        // join into a lookup join.
        let lookup = self.scope.lookup(name).and_then(|(_, o)| match &o.def {
            ObjectDef::Table(t) => {
                let c = t.option("connector")?.value.trim().to_string();
                catalogs().connector(&c).map(|cat| (cat.lookup, c))
            }
            _ => None,
        });
        let probe_time = match &strip(period).kind {
            ExprKind::Identifier(n) => {
                let physical = Columns::new(&l.columns).lookup(n).map(|c| c.time);
                match physical {
                    Some(t @ (TimeAttr::Rowtime | TimeAttr::Proctime)) => Some(t),
                    _ => self.validator_time(left, n, 0),
                }
            }
            _ => None,
        };
        let known = r.kinds.is_some() && l.kinds.is_some() && !self.unknown_inputs;
        let right_cols = Columns::new(&r.columns);
        let left_cols = Columns::new(&l.columns);
        let mut keys: Vec<compact_str::CompactString> = Vec::new();
        let mut conjuncts = Vec::new();
        if let Some(on) = on {
            split_and(on, &mut conjuncts);
        }
        for c in &conjuncts {
            if let ExprKind::Binary {
                op: BinaryOp::Eq,
                left: a,
                right: b,
            } = &strip(c).kind
            {
                for (x, y) in [(a, b), (b, a)] {
                    if let ExprKind::Identifier(n) = &strip(x).kind {
                        let in_right = right_cols.lookup(n).is_some()
                            && (n.parts.len() == 2 || left_cols.lookup(n).is_none());
                        if in_right && refers_to(y, &left_cols) {
                            keys.push(n.last().text.clone());
                        }
                    }
                }
            }
        }
        let probe_span = self.at(period.span);
        let table = name
            .parts
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join(".");
        // `SqlToRelConverter` converts a temporal join into a correlate, which is INNER or
        // LEFT only ("Unknown join type RIGHT"). A period that is not a probe column is a
        // time-travel query, not a temporal join.
        let period_is_column =
            matches!(&strip(period).kind, ExprKind::Identifier(n) if left_cols.lookup(n).is_some());
        if period_is_column && matches!(kind, JoinKind::Right | JoinKind::Full) {
            self.found(StreamProblem::TemporalJoinRequirement {
                span: self.at(rspan),
                table: table.clone(),
                missing: if kind == JoinKind::Right {
                    TemporalMissing::RightJoin
                } else {
                    TemporalMissing::FullJoin
                },
            });
        }
        let inner_or_left = matches!(kind, JoinKind::Inner | JoinKind::Left);
        // A comma (or cross) join's WHERE is not the temporal join's condition: Flink finds no
        // join key. A lookup source may take the WHERE's equalities (not checked).
        let comma = matches!(kind, JoinKind::Comma | JoinKind::Cross);
        let comma_lookup = comma
            && probe_time == Some(TimeAttr::Proctime)
            && lookup.as_ref().map(|(l, _)| *l) != Some(false);
        let mut op = Op::TemporalJoin;
        if known && !comma_lookup && ((inner_or_left && on.is_some()) || comma) {
            let pk_missing = versioned_pk
                .as_ref()
                .map(|pk| pk.is_empty() || !pk.iter().all(|c| keys.contains(c)));
            let lookup_source = lookup.as_ref().map(|(l, _)| *l);
            match probe_time {
                Some(TimeAttr::None) => {
                    self.found(StreamProblem::TemporalJoinProbeNotTimeAttribute {
                        span: probe_span,
                        column: match &strip(period).kind {
                            ExprKind::Identifier(n) => n.last().text.to_string(),
                            _ => String::new(),
                        },
                    })
                }
                Some(t @ (TimeAttr::Rowtime | TimeAttr::Proctime)) => {
                    let event = t == TimeAttr::Rowtime;
                    let missing = if keys.is_empty() {
                        Some(TemporalMissing::JoinKey)
                    } else if (event || lookup_source == Some(false)) && pk_missing == Some(true) {
                        Some(TemporalMissing::PrimaryKey)
                    } else if event
                        && versioned_pk.is_some()
                        && !versioned_rowtime
                        && pk_missing == Some(false)
                    {
                        Some(TemporalMissing::Rowtime)
                    } else {
                        None
                    };
                    if let Some(missing) = missing {
                        self.found(StreamProblem::TemporalJoinRequirement {
                            span: self.at(rspan),
                            table: table.clone(),
                            missing,
                        });
                    } else if event {
                        // The probe side's rowtime and the versioned table's must have one
                        // type (Flink's temporal join rule).
                        let probe = match &strip(period).kind {
                            ExprKind::Identifier(n) => left_cols
                                .lookup(n)
                                .filter(|c| c.time == TimeAttr::Rowtime)
                                .and_then(|c| c.data_type.as_ref()),
                            _ => None,
                        };
                        let versioned = r
                            .columns
                            .iter()
                            .find(|c| c.time == TimeAttr::Rowtime)
                            .and_then(|c| c.data_type.as_ref());
                        if let Some((lt, rt)) = probe.zip(versioned).and_then(|(a, b)| differ(a, b))
                        {
                            self.found(StreamProblem::RowtimeTypesDiffer {
                                span: probe_span,
                                temporal: true,
                                left: lt,
                                right: rt,
                            });
                        }
                    } else {
                        match lookup {
                            Some((true, _)) => op = Op::LookupJoin,
                            Some((false, connector)) if pk_missing == Some(false) => {
                                self.found(StreamProblem::ProcessingTimeTemporalJoin {
                                    span: self.at(rspan),
                                    table: table.clone(),
                                    connector,
                                })
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        lose_time(&mut r.columns);
        let mut columns = l.columns.clone();
        columns.extend(r.columns.iter().cloned());
        let kinds = if known { l.kinds } else { None };
        Node {
            op,
            detail: String::new(),
            exact: false,
            columns,
            kinds,
            before: false,
            unique_keys: Vec::new(),
            key_info: Default::default(),
            inputs: vec![l, r],
            span: self.at(span),
        }
    }

    /// Whether the column `n` of `t` is a time attribute as the validator types it (before
    /// `RelTimeIndicatorConverter` materializes time attributes): a table's watermark or
    /// PROCTIME() column is one, a CAST is not; `None` when not known (a view, a join, an
    /// aggregate: Flink keeps the type there).
    fn validator_time(&self, t: &TableRef, n: &ObjectName, depth: usize) -> Option<TimeAttr> {
        if depth > 16 {
            return None;
        }
        let col = n.last().text.as_str();
        match t {
            TableRef::Named {
                name,
                system_time: None,
                ..
            } => {
                let (_, object) = self.scope.lookup(name)?;
                let ObjectDef::Table(def) = &object.def else {
                    return None;
                };
                if object.incomplete {
                    return None;
                }
                let c = def.columns.iter().find(|c| c.name == col)?;
                let rowtime = def
                    .watermark
                    .as_ref()
                    .is_some_and(|w| w.column.len() == 1 && w.column[0] == c.name);
                Some(if rowtime {
                    TimeAttr::Rowtime
                } else if matches!(&c.kind, ColumnKind::Computed(e) if exprs::is_proctime(e)) {
                    TimeAttr::Proctime
                } else {
                    TimeAttr::None
                })
            }
            TableRef::Subquery {
                lateral: false,
                query,
                alias,
                ..
            } => {
                if alias.as_ref().is_some_and(|a| !a.columns.is_empty()) {
                    return None;
                }
                let SetExpr::Select(s) = &query.body else {
                    return None;
                };
                if !query.with.is_empty() || !s.group_by.is_empty() || s.distinct {
                    return None;
                }
                for item in &s.items {
                    let SelectItem::Expr { expr, alias, .. } = item else {
                        return None;
                    };
                    let e = strip(expr);
                    let item_name =
                        alias
                            .as_ref()
                            .map(|a| a.text.clone())
                            .or_else(|| match &e.kind {
                                ExprKind::Identifier(i) => Some(i.last().text.clone()),
                                _ => None,
                            });
                    if item_name.as_deref() != Some(col) {
                        continue;
                    }
                    return match &e.kind {
                        ExprKind::Cast { .. } => Some(TimeAttr::None),
                        ExprKind::Identifier(inner) => {
                            let from = s.from.as_ref()?;
                            if matches!(from, TableRef::Named { .. }) {
                                self.validator_time(from, inner, depth + 1)
                            } else {
                                None
                            }
                        }
                        _ => None,
                    };
                }
                None
            }
            _ => None,
        }
    }
}

/// The join type and equi-join column pairs of a regular join written with `ON` (Calcite's
/// `JoinInfo`): each conjunct `l = r` of two plain columns, one of each side. `None` when a
/// conjunct equates expressions of both sides (Flink's rules may turn it into an equi-join on
/// a computed column) or the join is a comma or cross join (a WHERE clause may hold its
/// condition).
fn join_key_info(
    kind: JoinKind,
    on: Option<&Expr>,
    left: &Columns<'_>,
    right: &Columns<'_>,
) -> KeyInfo {
    let join_type = match kind {
        JoinKind::Inner => JoinType::Inner,
        JoinKind::Left => JoinType::Left,
        JoinKind::Right => JoinType::Right,
        JoinKind::Full => JoinType::Full,
        JoinKind::Cross | JoinKind::Comma => return KeyInfo::None,
    };
    let Some(on) = on else {
        return KeyInfo::None;
    };
    let mut conjuncts = Vec::new();
    split_and(on, &mut conjuncts);
    let mut pairs = Vec::new();
    for c in conjuncts {
        match equi_pair(c, left, right) {
            Equi::Pair(l, r) => {
                if !pairs.contains(&(l, r)) {
                    pairs.push((l, r));
                }
            }
            Equi::Other => {}
            Equi::Unknown => return KeyInfo::None,
        }
    }
    KeyInfo::Join { join_type, pairs }
}

/// What a conjunct of a join condition is for the join's keys.
pub(super) enum Equi {
    /// `l = r`: the left input's column `l` equals the right input's column `r`.
    Pair(usize, usize),
    /// Not an equality between the two sides.
    Other,
    /// An equality between the sides flinklint does not follow.
    Unknown,
}

/// Classifies a conjunct of a join condition over `left` and `right`.
pub(super) fn equi_pair(c: &Expr, left: &Columns<'_>, right: &Columns<'_>) -> Equi {
    let both = refers_to(c, left) && refers_to(c, right);
    let (a, b) = match &strip(c).kind {
        ExprKind::Binary {
            op: BinaryOp::Eq,
            left: a,
            right: b,
        } => (a, b),
        // `IS NOT DISTINCT FROM` is an equi-join condition to Calcite.
        ExprKind::IsDistinctFrom { .. } if both => return Equi::Unknown,
        _ => return Equi::Other,
    };
    if !both {
        return Equi::Other;
    }
    let side = |e: &Expr| -> Option<(bool, usize)> {
        let ExprKind::Identifier(n) = &strip(e).kind else {
            return None;
        };
        match (left.index(n), right.index(n)) {
            (Some(i), None) => Some((true, i)),
            (None, Some(i)) => Some((false, i)),
            _ => None,
        }
    };
    match (side(a), side(b)) {
        (Some((true, l)), Some((false, r))) | (Some((false, r)), Some((true, l))) => {
            Equi::Pair(l, r)
        }
        _ => Equi::Unknown,
    }
}

/// The conjuncts of an AND tree.
pub(super) fn split_and<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    if out.len() > 1024 {
        return;
    }
    match &strip(e).kind {
        ExprKind::Binary {
            op: BinaryOp::And,
            left,
            right,
        } => {
            split_and(left, out);
            split_and(right, out);
        }
        _ => out.push(e),
    }
}

/// Whether `e` refers to a column of `cols`.
fn refers_to(e: &Expr, cols: &Columns<'_>) -> bool {
    let mut found = false;
    exprs::walk(e, &mut |x| {
        if let ExprKind::Identifier(n) = &x.kind {
            found |= cols.lookup(n).is_some();
        }
    });
    found
}

/// Whether every time attribute an interval join's condition names is of one kind (rowtime or
/// proctime on both sides).
fn same_kind_times(conditions: &[&Expr], left: &Columns<'_>, right: &Columns<'_>) -> bool {
    let mut kinds = Vec::new();
    for on in conditions {
        exprs::walk(on, &mut |x| {
            if let ExprKind::Identifier(n) = &x.kind {
                for cols in [left, right] {
                    if let Some(c) = cols.lookup(n) {
                        if matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime) {
                            kinds.push(c.time);
                        }
                    }
                }
            }
        });
    }
    kinds.windows(2).all(|w| w[0] == w[1])
}

/// The types of two rowtimes when one is a TIMESTAMP and the other a TIMESTAMP_LTZ, as Flink's
/// join rules print them.
fn differ(a: &Type, b: &Type) -> Option<(String, String)> {
    let ltz = |t: &Type| match t.kind {
        Kind::Timestamp(_) => Some(false),
        Kind::TimestampLtz(_) => Some(true),
        _ => None,
    };
    if ltz(a)? == ltz(b)? {
        return None;
    }
    Some((rowtime_text(a)?, rowtime_text(b)?))
}

/// The types of the rowtimes an interval join's condition names on its two sides, when they
/// differ (one rowtime per side).
fn rowtime_types(on: &Expr, left: &Columns<'_>, right: &Columns<'_>) -> Option<(String, String)> {
    let mut found: [Option<&PlanColumn>; 2] = [None, None];
    let mut several = false;
    exprs::walk(on, &mut |x| {
        if let ExprKind::Identifier(n) = &x.kind {
            for (i, cols) in [left, right].into_iter().enumerate() {
                if let Some(c) = cols.lookup(n).filter(|c| c.time == TimeAttr::Rowtime) {
                    match found[i] {
                        Some(f) if !std::ptr::eq(f, c) => several = true,
                        _ => found[i] = Some(c),
                    }
                }
            }
        }
    });
    if several {
        return None;
    }
    let [Some(l), Some(r)] = found else {
        return None;
    };
    differ(l.data_type.as_ref()?, r.data_type.as_ref()?)
}

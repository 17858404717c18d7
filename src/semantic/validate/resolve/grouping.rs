//! The grouping and aggregate checks (Calcite's `AggChecker`, `validateNoAggs`): columns
//! outside aggregate calls and GROUP BY expressions, aggregates where none is allowed, nested
//! aggregates.

use super::{children, written, Walker};
use crate::semantic::exprs;
use crate::semantic::functions::{self, FunctionKind};
use crate::semantic::types::Type;
use crate::semantic::validate::NameProblem;
use crate::source::Span;
use crate::syntax::ast::*;
use compact_str::CompactString;

impl Walker<'_> {
    /// Reports an aggregate call in a clause that allows none.
    pub(super) fn no_aggregates(&mut self, e: &Expr, clause: &'static str) {
        if self.failed() {
            return;
        }
        let mut found = None;
        exprs::walk(e, &mut |x| {
            if found.is_none() {
                if let Some(windowed) = aggregate_call(x) {
                    found = Some((x.span, windowed));
                }
            }
        });
        if let Some((span, windowed)) = found {
            self.fail(NameProblem::IllegalAggregate {
                span,
                clause,
                windowed,
            });
        }
    }

    /// Reports an aggregate call inside another.
    pub(super) fn nested_aggregates(&mut self, e: &Expr) {
        if self.failed() {
            return;
        }
        let mut found = None;
        exprs::walk(e, &mut |x| {
            if found.is_some() || aggregate_call(x) != Some(false) {
                return;
            }
            let ExprKind::Function(call) = &x.kind else {
                return;
            };
            for a in &call.args {
                exprs::walk(&a.value, &mut |y| {
                    if found.is_none() && aggregate_call(y) == Some(false) {
                        found = Some((y.span, call.name.last().text.to_string()));
                    }
                });
            }
        });
        if let Some((span, outer)) = found {
            self.fail(NameProblem::NestedAggregate { span, outer });
        }
    }

    /// The GROUP BY expressions of an aggregate SELECT whose grouping can be checked, or `None`
    /// (not an aggregate query, or grouping forms not modelled).
    pub(super) fn grouping<'s>(&self, s: &'s Select) -> Option<Groups<'s>> {
        let mut groups: Vec<&Expr> = Vec::new();
        for g in &s.group_by {
            if !flatten_group(g, &mut groups) {
                return None;
            }
        }
        if !aggregating(s) {
            return None;
        }
        self.groups_of(groups)
    }

    /// The select list of a `SELECT DISTINCT` that does not aggregate, as the groups its
    /// ORDER BY may read (Calcite validates such an ORDER BY as over an aggregate grouped by
    /// the select list: "Expression 'b' is not in the select clause"); `None` for other
    /// SELECTs, or one with `*`.
    pub(super) fn distinct_grouping<'s>(&self, s: &'s Select) -> Option<Groups<'s>> {
        if !s.distinct || aggregating(s) {
            return None;
        }
        let mut items = Vec::with_capacity(s.items.len());
        for i in &s.items {
            match i {
                SelectItem::Expr { expr, .. } => items.push(expr),
                SelectItem::Wildcard { .. } => return None,
            }
        }
        self.groups_of(items)
    }

    /// `groups` as [`Groups`], when every expression is of a form the comparison handles.
    fn groups_of<'s>(&self, groups: Vec<&'s Expr>) -> Option<Groups<'s>> {
        // Every GROUP BY item of a form the comparison handles. A literal groups by a
        // constant (Flink's conformance reads no GROUP BY ordinals: `isGroupByOrdinal` is
        // false), so it groups no column.
        let comparable = groups.iter().all(|g| {
            let mut ok = true;
            exprs::walk(g, &mut |x| {
                ok &= matches!(
                    x.kind,
                    ExprKind::Identifier(_)
                        | ExprKind::Function(_)
                        | ExprKind::Binary { .. }
                        | ExprKind::Unary { .. }
                        | ExprKind::Nested(_)
                        | ExprKind::Cast { .. }
                        | ExprKind::Literal(_)
                        | ExprKind::TimeUnit(_)
                );
            });
            ok
        });
        // Legacy group windows (`GROUP BY TUMBLE(ts, ...)`) have their auxiliary functions.
        let group_window = groups.iter().any(|g| {
            matches!(
                exprs::call_name(g).as_deref(),
                Some("TUMBLE" | "HOP" | "SESSION" | "CUMULATE")
            )
        });
        if !comparable || group_window {
            return None;
        }
        // Columns by their resolution (a SELECT of many items grouped by as many columns
        // costs one look-up each), other expressions compared one by one.
        let mut out = Groups::default();
        for g in groups {
            match &g.kind {
                ExprKind::Identifier(n) => match self.columns.get(&g.span) {
                    Some(c) => {
                        out.columns.insert((c.relation.clone(), c.column.clone()));
                    }
                    None => {
                        out.written.insert(written(n));
                    }
                },
                _ => out.exprs.push(g),
            }
        }
        Some(out)
    }

    /// Reports the first column of `e` outside aggregate calls and `groups`.
    /// `clause` is where `e` is: `the select list`, `HAVING`, `ORDER BY`, or `ORDER BY` of a
    /// `SELECT DISTINCT` (`distinct`).
    pub(super) fn grouped(
        &mut self,
        e: &Expr,
        groups: &Groups<'_>,
        clause: &'static str,
        distinct: bool,
    ) {
        if self.failed() {
            return;
        }
        if let Some((span, expr)) = self.ungrouped(e, groups) {
            self.fail(NameProblem::NotGrouped {
                span,
                expr,
                clause,
                distinct,
            });
        }
    }

    /// The first column reference of `e` outside aggregate calls and `groups`, with its text.
    fn ungrouped(&self, e: &Expr, groups: &Groups<'_>) -> Option<(Span, String)> {
        let mut inner = e;
        while let ExprKind::Nested(x) = &inner.kind {
            inner = x;
        }
        if let ExprKind::Identifier(n) = &inner.kind {
            let grouped = match self.columns.get(&inner.span) {
                Some(c) => groups
                    .columns
                    .contains(&(c.relation.clone(), c.column.clone())),
                None => groups.written.contains(&written(n)),
            };
            if grouped {
                return None;
            }
        } else if groups.exprs.iter().any(|g| self.same(e, g)) {
            return None;
        }
        match &e.kind {
            ExprKind::Identifier(n) => {
                // Only a column of this SELECT's relations (not a correlated one).
                let c = self.columns.get(&e.span)?;
                (!c.outer).then(|| (e.span, written(n)))
            }
            ExprKind::Function(call) => {
                if call.over.is_some() || aggregate_call(e).is_some() {
                    return None;
                }
                let name = call.name.last().as_str();
                // Not a built-in function (a UDF may aggregate), or GROUPING(...): not looked into.
                let f = functions::lookup(name)?;
                if call.name.parts.len() > 1
                    || f.kind != FunctionKind::Scalar && f.kind != FunctionKind::Other
                {
                    return None;
                }
                let mut hit = None;
                for a in &call.args {
                    if hit.is_none() {
                        hit = self.ungrouped(&a.value, groups);
                    }
                }
                hit
            }
            ExprKind::Subquery(_)
            | ExprKind::Exists(_)
            | ExprKind::InSubquery { .. }
            | ExprKind::ArrayQuery(_)
            | ExprKind::MapQuery(_)
            | ExprKind::Lambda { .. } => None,
            _ => {
                let mut hit = None;
                children(e, &mut |c| {
                    if hit.is_none() {
                        hit = self.ungrouped(c, groups);
                    }
                });
                hit
            }
        }
    }

    /// Structural equality of two expressions, columns compared after resolution.
    fn same(&self, a: &Expr, b: &Expr) -> bool {
        match (&a.kind, &b.kind) {
            (ExprKind::Nested(x), _) => self.same(x, b),
            (_, ExprKind::Nested(y)) => self.same(a, y),
            (ExprKind::Identifier(x), ExprKind::Identifier(y)) => {
                match (self.columns.get(&a.span), self.columns.get(&b.span)) {
                    (Some(c), Some(d)) => c.relation == d.relation && c.column == d.column,
                    _ => written(x) == written(y),
                }
            }
            (ExprKind::Literal(x), ExprKind::Literal(y)) => same_literal(x, y),
            (ExprKind::TimeUnit(x), ExprKind::TimeUnit(y)) => x == y,
            (ExprKind::Function(x), ExprKind::Function(y)) => {
                x.name.parts.len() == y.name.parts.len()
                    && x.name
                        .parts
                        .iter()
                        .zip(&y.name.parts)
                        .all(|(p, q)| p.as_str().eq_ignore_ascii_case(q.as_str()))
                    && x.distinct == y.distinct
                    && x.star == y.star
                    && x.filter.is_none()
                    && y.filter.is_none()
                    && x.over.is_none()
                    && y.over.is_none()
                    && x.args.len() == y.args.len()
                    && x.args
                        .iter()
                        .zip(&y.args)
                        .all(|(p, q)| p.keyword == q.keyword && self.same(&p.value, &q.value))
            }
            (
                ExprKind::Binary {
                    op: o1,
                    left: l1,
                    right: r1,
                },
                ExprKind::Binary {
                    op: o2,
                    left: l2,
                    right: r2,
                },
            ) => o1 == o2 && self.same(l1, l2) && self.same(r1, r2),
            (ExprKind::Unary { op: o1, expr: e1 }, ExprKind::Unary { op: o2, expr: e2 }) => {
                o1 == o2 && self.same(e1, e2)
            }
            (
                ExprKind::Cast {
                    expr: e1,
                    data_type: t1,
                    try_cast: c1,
                },
                ExprKind::Cast {
                    expr: e2,
                    data_type: t2,
                    try_cast: c2,
                },
            ) => c1 == c2 && Type::from_ast(t1) == Type::from_ast(t2) && self.same(e1, e2),
            _ => false,
        }
    }
}

/// The GROUP BY of a SELECT, for the grouping check.
#[derive(Default)]
pub(super) struct Groups<'s> {
    /// Grouped columns by resolution: relation and column (field path).
    columns: foldhash::HashSet<(Option<CompactString>, CompactString)>,
    /// Grouped identifiers that did not resolve, as written.
    written: foldhash::HashSet<String>,
    /// Other grouped expressions.
    exprs: Vec<&'s Expr>,
}

/// Whether two literals are the same value as written (spans aside).
fn same_literal(a: &Literal, b: &Literal) -> bool {
    match (a, b) {
        (Literal::Number(x), Literal::Number(y)) => x == y,
        (Literal::String(x), Literal::String(y)) | (Literal::Binary(x), Literal::Binary(y)) => {
            x.value == y.value
        }
        (Literal::Boolean(x), Literal::Boolean(y)) => x == y,
        (Literal::Null, Literal::Null) | (Literal::Unknown, Literal::Unknown) => true,
        (
            Literal::Typed {
                type_name: t1,
                value: v1,
            },
            Literal::Typed {
                type_name: t2,
                value: v2,
            },
        ) => t1 == t2 && v1.value == v2.value,
        (
            Literal::Interval {
                negative: n1,
                value: v1,
                qualifier: q1,
            },
            Literal::Interval {
                negative: n2,
                value: v2,
                qualifier: q2,
            },
        ) => {
            n1 == n2
                && v1.value == v2.value
                && q1.start == q2.start
                && q1.end == q2.end
                && q1.start_precision == q2.start_precision
                && q1.start_fraction_precision == q2.start_fraction_precision
                && q1.end_precision == q2.end_precision
        }
        _ => false,
    }
}

/// Whether `e` is a call of a built-in aggregate function: `Some(windowed)`.
pub(super) fn aggregate_call(e: &Expr) -> Option<bool> {
    let ExprKind::Function(call) = &e.kind else {
        return None;
    };
    if call.name.parts.len() != 1 {
        return None;
    }
    let f = functions::lookup(call.name.parts[0].as_str())?;
    (f.kind == FunctionKind::Aggregate).then_some(call.over.is_some())
}

/// Whether a SELECT aggregates (Calcite's `isAggregate`): GROUP BY, HAVING, or a built-in
/// aggregate call in its select list.
pub(super) fn aggregating(s: &Select) -> bool {
    !s.group_by.is_empty()
        || s.having.is_some()
        || s.items.iter().any(|i| match i {
            SelectItem::Expr { expr, .. } => has_aggregate(expr),
            SelectItem::Wildcard { .. } => false,
        })
}

/// Whether `e` holds a built-in aggregate call without OVER (not in subqueries).
fn has_aggregate(e: &Expr) -> bool {
    let mut found = false;
    exprs::walk(e, &mut |x| found |= aggregate_call(x) == Some(false));
    found
}

/// The grouping expressions of a GROUP BY item (through ROLLUP, CUBE, GROUPING SETS and
/// rows); `false` when the item is of a form not modelled.
fn flatten_group<'s>(g: &'s Expr, out: &mut Vec<&'s Expr>) -> bool {
    match &g.kind {
        ExprKind::Row(items) => items.iter().all(|i| flatten_group(i, out)),
        ExprKind::Nested(inner) => flatten_group(inner, out),
        ExprKind::Function(call)
            if matches!(
                exprs::call_name(g).as_deref(),
                Some("ROLLUP" | "CUBE" | "GROUPING SETS" | "GROUPING_SETS")
            ) =>
        {
            call.args.iter().all(|a| flatten_group(&a.value, out))
        }
        _ => {
            out.push(g);
            true
        }
    }
}

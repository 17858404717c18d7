//! Join conditions: which conjuncts reject a side's nulls (outer joins narrowed as Calcite's
//! `RelOptUtil.simplifyJoin` does) and which bound one side's time attribute by the other's
//! (interval joins, `IntervalJoinUtil`).

use super::super::TimeAttr;
use super::helpers::{strip, Columns};
use crate::semantic::exprs;
use crate::syntax::ast::{BinaryOp, Expr, ExprKind};

/// Whether a condition is false or unknown whenever the columns of `side` are null (Calcite's
/// `Strong`): a comparison, BETWEEN, LIKE, IN list or IS NOT NULL of an expression that is null
/// when one of them is.
pub(super) fn strong(c: &Expr, side: &Columns<'_>, other: &Columns<'_>, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    let strict = |e: &Expr| strict(e, side, other, 0);
    match &strip(c).kind {
        ExprKind::Binary {
            op:
                BinaryOp::Eq
                | BinaryOp::NotEq
                | BinaryOp::Lt
                | BinaryOp::LtEq
                | BinaryOp::Gt
                | BinaryOp::GtEq,
            left,
            right,
        } => strict(left) || strict(right),
        ExprKind::Binary {
            op: BinaryOp::And,
            left,
            right,
        } => strong(left, side, other, depth + 1) || strong(right, side, other, depth + 1),
        ExprKind::Binary {
            op: BinaryOp::Or,
            left,
            right,
        } => strong(left, side, other, depth + 1) && strong(right, side, other, depth + 1),
        ExprKind::Between {
            expr,
            negated,
            low,
            high,
            ..
        } => strict(expr) || (!negated && (strict(low) || strict(high))),
        ExprKind::Like { expr, pattern, .. } => strict(expr) || strict(pattern),
        ExprKind::InList { expr, .. } => strict(expr),
        ExprKind::Is {
            expr,
            negated: true,
            test,
        } if test == "NULL" => strict(expr),
        _ => false,
    }
}

/// Whether `e` is null whenever a column of `side` it names is: a column of that side, or
/// arithmetic, a sign or a CAST over one.
fn strict(e: &Expr, side: &Columns<'_>, other: &Columns<'_>, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    match &strip(e).kind {
        ExprKind::Identifier(n) => {
            side.lookup(n).is_some() && (n.parts.len() == 2 || other.lookup(n).is_none())
        }
        ExprKind::Binary {
            op:
                BinaryOp::Plus
                | BinaryOp::Minus
                | BinaryOp::Multiply
                | BinaryOp::Divide
                | BinaryOp::Modulo
                | BinaryOp::Concat,
            left,
            right,
        } => strict(left, side, other, depth + 1) || strict(right, side, other, depth + 1),
        ExprKind::Unary {
            op: crate::syntax::ast::UnaryOp::Minus | crate::syntax::ast::UnaryOp::Plus,
            expr,
        } => strict(expr, side, other, depth + 1),
        ExprKind::Cast {
            expr,
            try_cast: false,
            ..
        } => strict(expr, side, other, depth + 1),
        _ => false,
    }
}

/// Which bounds a conjunct naming both sides' time attributes puts on the left side's time:
/// (lower, upper).
pub(super) fn bound_kind(c: &Expr, left: &Columns<'_>, right: &Columns<'_>) -> (bool, bool) {
    let time_of = |e: &Expr, cols: &Columns<'_>| {
        let mut found = false;
        exprs::walk(e, &mut |x| {
            if let ExprKind::Identifier(n) = &x.kind {
                found |= cols
                    .lookup(n)
                    .is_some_and(|c| matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime));
            }
        });
        found
    };
    match &strip(c).kind {
        ExprKind::Between { negated: false, .. } => (true, true),
        ExprKind::Binary { op, left: a, .. }
            if matches!(
                op,
                BinaryOp::Lt | BinaryOp::LtEq | BinaryOp::Gt | BinaryOp::GtEq
            ) =>
        {
            let greater = matches!(op, BinaryOp::Gt | BinaryOp::GtEq);
            match (time_of(a, left), time_of(a, right)) {
                (true, false) => (greater, !greater),
                (false, true) => (!greater, greater),
                _ => (false, false),
            }
        }
        _ => (false, false),
    }
}

/// Whether `e` names a time attribute of each side of a join.
pub(super) fn times_both_sides(e: &Expr, left: &Columns<'_>, right: &Columns<'_>) -> bool {
    let mut sides = (false, false);
    exprs::walk(e, &mut |x| {
        if let ExprKind::Identifier(n) = &x.kind {
            let is_time = |cols: &Columns<'_>| {
                cols.lookup(n)
                    .is_some_and(|c| matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime))
            };
            sides.0 |= is_time(left);
            sides.1 |= is_time(right);
        }
    });
    sides.0 && sides.1
}

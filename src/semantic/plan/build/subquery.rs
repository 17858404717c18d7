//! Subqueries in a SELECT: the joins Flink's plan has for them. `FlinkSubQueryRemoveRule`
//! turns the `EXISTS` and `IN` conjuncts of a WHERE (or HAVING) into semi joins and their
//! negations into anti joins, in the order they are written; Calcite's `SubQueryRemoveRule`
//! joins a scalar subquery with a single-value aggregate (an inner join above them), and
//! every subquery of a filter with a subquery it does not take (one under OR, under a NOT of
//! a compound condition, under `IS NOT TRUE`) or of the select list as a LeftOuterJoin.

use super::super::{Kinds, Node, Op, TimeAttr};
use super::helpers::{forget_windows, lose_time, strip};
use super::join::split_and;
use super::Builder;
use crate::semantic::exprs;
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, Query, Select, SelectItem, UnaryOp};

/// One join a subquery becomes.
#[derive(Debug, Clone, Copy)]
pub(super) enum SubqueryJoin<'q> {
    /// `EXISTS (q)`, `x IN (q)` as a conjunct: a LeftSemiJoin, which forwards the changes of
    /// both sides (the subquery's are planned) and materializes the time attributes.
    Semi(&'q Query),
    /// `NOT EXISTS (q)`, `x NOT IN (q)` as a conjunct: a LeftAntiJoin, which emits updates and
    /// deletes (a row leaves when a match arrives).
    Anti,
    /// A conjunct comparing with a scalar subquery: an InnerJoin with a single-value
    /// aggregate (updates); the time attributes are kept.
    Scalar,
    /// A subquery of the select list: a LeftOuterJoin (with a single-value aggregate for a
    /// scalar subquery, a mark for `EXISTS` and `IN`); a window table function over its
    /// result still sees the time attributes.
    SelectOuter,
    /// An `IN` conjunct that Calcite's rule joins (beside a subquery Flink's rule does not
    /// take): an InnerJoin with an aggregate of the subquery's distinct keys.
    CalciteIn,
    /// A subquery of a filter under OR (...): a LeftOuterJoin.
    Outer,
}

/// The joins of a SELECT's subqueries: the WHERE's below its aggregate, the select list's
/// and the HAVING's above it.
#[derive(Debug, Default)]
pub(super) struct SubqueryJoins<'q> {
    pub(super) filter: Vec<SubqueryJoin<'q>>,
    pub(super) select: Vec<SubqueryJoin<'q>>,
    pub(super) having: Vec<SubqueryJoin<'q>>,
}

/// The number of subqueries (scalar, `EXISTS`, `IN`) in `e`, outside nested queries.
pub(super) fn subqueries(e: &Expr) -> usize {
    let mut n = 0;
    exprs::walk(e, &mut |x| {
        if matches!(
            x.kind,
            ExprKind::Subquery(_)
                | ExprKind::Exists(_)
                | ExprKind::InSubquery { .. }
                | ExprKind::ArrayQuery(_)
        ) {
            n += 1;
        }
    });
    n
}

/// Only scalar subqueries in `e`.
fn scalar_only(e: &Expr) -> bool {
    let mut other = false;
    exprs::walk(e, &mut |x| {
        other |= matches!(
            x.kind,
            ExprKind::Exists(_) | ExprKind::InSubquery { .. } | ExprKind::ArrayQuery(_)
        );
    });
    !other
}

/// The joins of `s`'s subqueries; `None` when one is in a form not modelled (in GROUP BY or
/// QUALIFY, an `IN` of a row of subqueries, ...).
pub(super) fn subquery_joins(s: &Select) -> Option<SubqueryJoins<'_>> {
    if s.group_by
        .iter()
        .chain(s.qualify.iter())
        .any(|e| subqueries(e) > 0)
    {
        return None;
    }
    let mut out = SubqueryJoins::default();
    for item in &s.items {
        if let SelectItem::Expr { expr, .. } = item {
            out.select.extend(std::iter::repeat_n(
                SubqueryJoin::SelectOuter,
                subqueries(expr),
            ));
        }
    }
    if let Some(w) = &s.selection {
        let mut conjuncts = Vec::new();
        split_and(w, &mut conjuncts);
        out.filter = conjunct_joins(&conjuncts)?;
    }
    if let Some(h) = &s.having {
        let mut conjuncts = Vec::new();
        split_and(h, &mut conjuncts);
        out.having = conjunct_joins(&conjuncts)?;
    }
    Some(out)
}

/// The joins of a filter's conjuncts (see [`SubqueryJoin`]), innermost first: the semi and
/// anti joins in the order written, then the scalar subqueries' joins; with a subquery
/// `FlinkSubQueryRemoveRule` does not take, Calcite's rule joins them all, in the order
/// written. `None` when a conjunct's form is not modelled.
pub(super) fn conjunct_joins<'q>(conjuncts: &[&'q Expr]) -> Option<Vec<SubqueryJoin<'q>>> {
    let mut semi_anti = Vec::new();
    let mut scalar = Vec::new();
    let mut in_order = Vec::new();
    let mut calcite = false;
    for c in conjuncts {
        let n = subqueries(c);
        if n == 0 {
            continue;
        }
        if let Some((positive, query, _)) = semi_or_anti(c, true, 0) {
            if n != 1 {
                return None;
            }
            let join = if positive {
                SubqueryJoin::Semi(query)
            } else {
                SubqueryJoin::Anti
            };
            semi_anti.push(join);
            in_order.push(join);
        } else if outer_form(c) {
            calcite = true;
            in_order.extend(std::iter::repeat_n(SubqueryJoin::Outer, n));
        } else if scalar_only(c) {
            scalar.extend(std::iter::repeat_n(SubqueryJoin::Scalar, n));
            in_order.extend(std::iter::repeat_n(SubqueryJoin::Scalar, n));
        } else {
            return None;
        }
    }
    if calcite {
        // Calcite's `SubQueryRemoveRule`: an IN conjunct joins the subquery's distinct keys,
        // a NOT EXISTS or NOT IN one a LeftOuterJoin.
        return Some(
            in_order
                .into_iter()
                .map(|j| match j {
                    SubqueryJoin::Semi(_) => SubqueryJoin::CalciteIn,
                    SubqueryJoin::Anti => SubqueryJoin::Outer,
                    j => j,
                })
                .collect(),
        );
    }
    semi_anti.extend(scalar);
    Some(semi_anti)
}

/// `e` as an `EXISTS` or `IN` subquery, negated or not (`NOT`, `IS TRUE`, `EXISTS ... IS
/// FALSE`): (`true` for a semi join, the subquery, whether it is an `EXISTS`).
fn semi_or_anti(e: &Expr, positive: bool, depth: usize) -> Option<(bool, &Query, bool)> {
    if depth > 64 {
        return None;
    }
    match &strip(e).kind {
        ExprKind::Exists(q) => Some((positive, q, true)),
        ExprKind::InSubquery {
            expr,
            negated,
            query,
        } if subqueries(expr) == 0 => Some((positive != *negated, query, false)),
        ExprKind::Unary {
            op: UnaryOp::Not,
            expr,
        } => semi_or_anti(expr, !positive, depth + 1),
        ExprKind::Is {
            expr,
            negated: false,
            test,
        } if test == "TRUE" => semi_or_anti(expr, positive, depth + 1),
        // Two-valued: `EXISTS (...) IS FALSE` is `NOT EXISTS (...)`.
        ExprKind::Is {
            expr,
            negated: false,
            test,
        } if test == "FALSE" => {
            semi_or_anti(expr, !positive, depth + 1).filter(|(_, _, exists)| *exists)
        }
        _ => None,
    }
}

/// A conjunct whose subqueries Calcite joins with a LeftOuterJoin: an OR, a NOT of an AND,
/// an `IS NOT TRUE`.
fn outer_form(c: &Expr) -> bool {
    match &strip(c).kind {
        ExprKind::Binary {
            op: BinaryOp::Or, ..
        } => true,
        ExprKind::Unary {
            op: UnaryOp::Not,
            expr,
        } => matches!(
            strip(expr).kind,
            ExprKind::Binary {
                op: BinaryOp::And,
                ..
            }
        ),
        ExprKind::Is {
            negated: true,
            test,
            ..
        } => test == "TRUE",
        _ => false,
    }
}

impl Builder<'_> {
    /// `input` under the joins `joins` of its SELECT's subqueries.
    pub(super) fn subquery_join_nodes(
        &mut self,
        joins: &[SubqueryJoin<'_>],
        input: Node,
        span: Span,
    ) -> Node {
        let mut node = input;
        for join in joins {
            let (join_type, kinds, time) = match join {
                SubqueryJoin::Semi(q) => {
                    let right = self.query(q);
                    let kinds = match (node.kinds, right.fully_known()) {
                        (Some(k), true) => right.kinds.map(|r| k.union(r)),
                        _ => None,
                    };
                    ("LeftSemiJoin", kinds, Time::Lost)
                }
                SubqueryJoin::Anti => ("LeftAntiJoin", node.kinds.map(|_| Kinds::ALL), Time::Lost),
                SubqueryJoin::Scalar => (
                    "InnerJoin",
                    node.kinds.map(|k| k.union(Kinds::INSERT_UPDATE)),
                    Time::Kept,
                ),
                SubqueryJoin::SelectOuter => {
                    ("LeftOuterJoin", node.kinds.map(|_| Kinds::ALL), Time::Kept)
                }
                SubqueryJoin::CalciteIn => (
                    "InnerJoin",
                    node.kinds.map(|k| k.union(Kinds::INSERT_UPDATE)),
                    Time::Unknown,
                ),
                SubqueryJoin::Outer => (
                    "LeftOuterJoin",
                    node.kinds.map(|_| Kinds::ALL),
                    Time::Unknown,
                ),
            };
            let mut columns = node.columns.clone();
            match time {
                Time::Kept => {}
                Time::Lost => lose_time(&mut columns),
                Time::Unknown => {
                    for c in &mut columns {
                        if matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime) {
                            c.time = TimeAttr::Unknown;
                        }
                    }
                }
            }
            forget_windows(&mut columns);
            node = Node {
                op: Op::Join,
                detail: cat!("joinType=[", join_type, "]"),
                exact: false,
                columns,
                kinds,
                before: false,
                unique_keys: Vec::new(),
                key_info: Default::default(),
                inputs: vec![node],
                span: self.at(span),
            };
        }
        node
    }
}

/// What a subquery's join does to the time attributes of its input.
enum Time {
    Kept,
    Lost,
    /// Not verified.
    Unknown,
}

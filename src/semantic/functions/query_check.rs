//! Walks a query in Flink's validation order and runs the expression checks of
//! [`super::check`] on its parts, with the column types the query validator resolved
//! ([`crate::semantic::validate`]: tables, views, WITH queries, subqueries, window TVFs, ROW
//! fields). Set operations are checked for their column counts and types.
//!
//! Flink stops at the first problem of a statement; so does [`check_query`], which returns
//! the first finding of Flink's validator, else the first of its planner.

use super::check::{Checker, ExprFinding, ExprIssue, FunctionEnv};
use crate::semantic::exprs::{common_type, infer_type_in, Aggregation};
use crate::semantic::types::{Kind, Type};
use crate::semantic::validate::Validation;
use crate::syntax::ast::*;

/// The deepest nesting of queries walked.
const MAX_QUERY_DEPTH: usize = 64;

struct Walker<'a> {
    validation: &'a Validation,
    checker: Checker<'a>,
    depth: usize,
    /// How many derived tables (FROM subqueries, WITH queries) enclose the part walked: the
    /// planner drops a column of theirs that nothing reads, and what only the planner rejects
    /// in it goes with it (`SELECT s FROM (SELECT s, i = '1' AS f FROM t)` is accepted).
    derived: usize,
}

/// The first problem Flink reports in `query`, if flinklint can tell; `validation` is the
/// query's name resolution (without a problem). `planned`: whether Flink plans the query (not
/// for a view's, which it only validates): else what only the planner rejects is left out.
pub fn check_query(
    query: &Query,
    validation: &Validation,
    env: &FunctionEnv,
    planned: bool,
) -> Option<ExprFinding> {
    let mut w = Walker {
        validation,
        checker: Checker::new(env),
        depth: 0,
        derived: 0,
    };
    w.query(query);
    let mut found = std::mem::take(&mut w.checker.found);
    if !planned {
        found.retain(|f| !f.planning);
    }
    let first_validator = found.iter().position(|f| !f.planning);
    let index = first_validator.or(if found.is_empty() { None } else { Some(0) })?;
    found.into_iter().nth(index)
}

fn aggregation(select: &Select) -> Aggregation {
    if !select.group_by.is_empty() {
        let plain = select.group_by.iter().all(|e| {
            !matches!(&e.kind, ExprKind::Function(c) if ["GROUPING SETS", "ROLLUP", "CUBE"]
                .iter()
                .any(|n| c.name.last().text.eq_ignore_ascii_case(n)))
        });
        return if plain {
            Aggregation::Grouped
        } else {
            Aggregation::None
        };
    }
    let mut aggregate = false;
    for item in &select.items {
        if let SelectItem::Expr { expr, .. } = item {
            crate::semantic::exprs::walk(expr, &mut |e| {
                if let ExprKind::Function(c) = &e.kind {
                    if c.over.is_none()
                        && super::lookup(c.name.last().text.as_str())
                            .is_some_and(|f| f.kind == super::FunctionKind::Aggregate)
                    {
                        aggregate = true;
                    }
                }
            });
        }
    }
    if aggregate {
        Aggregation::Global
    } else {
        Aggregation::None
    }
}

fn set_op_name(op: SetOperator, all: bool) -> String {
    let base = match op {
        SetOperator::Union => "UNION",
        SetOperator::Intersect => "INTERSECT",
        SetOperator::Except => "EXCEPT",
    };
    if all {
        format!("{base} ALL")
    } else {
        base.to_string()
    }
}

/// Whether Flink finds a common type for a column of these two types in a set operation
/// (`Some(false)`: it reports "Type mismatch"; `None`: not certain).
/// Whether a set operation's column may have types `a` and `b` (Calcite's
/// `leastRestrictive`, as Flink's validator applies it); `None` where flinklint does not know.
#[derive(Debug, PartialEq)]
enum SetTypes {
    /// A common type exists, and the planner casts both sides to it.
    Compatible,
    /// No common type: the validator rejects the query ("Type mismatch in column 1 of UNION").
    Mismatch,
    /// An exact number beside a DATE, TIME or TIMESTAMP: the validator finds the date-time
    /// type common, but the planner cannot cast the number to it. Flink's message.
    Uncastable(String),
}

fn set_types_compatible(a: &Type, b: &Type) -> Option<SetTypes> {
    #[derive(PartialEq)]
    enum F {
        Exact,
        Approx,
        Chr,
        Bin,
        Bool,
        Date,
        Time,
        Ts,
        Coll,
    }
    let fam = |k: &Kind| match k {
        Kind::TinyInt | Kind::SmallInt | Kind::Int | Kind::BigInt | Kind::Decimal(..) => {
            Some(F::Exact)
        }
        Kind::Float | Kind::Double => Some(F::Approx),
        Kind::Char(_) | Kind::VarChar(_) => Some(F::Chr),
        Kind::Binary(_) | Kind::VarBinary(_) => Some(F::Bin),
        Kind::Boolean => Some(F::Bool),
        Kind::Date => Some(F::Date),
        Kind::Time(_) => Some(F::Time),
        Kind::Timestamp(_) | Kind::TimestampLtz(_) => Some(F::Ts),
        Kind::Array(_) => Some(F::Coll),
        _ => None,
    };
    let (x, y) = (fam(&a.kind)?, fam(&b.kind)?);
    let numeric = |f: &F| matches!(f, F::Exact | F::Approx);
    if x == y || (numeric(&x) && numeric(&y)) {
        // Collections compare by their elements, which are not judged here.
        return (x != F::Coll).then_some(SetTypes::Compatible);
    }
    let (number, datetime) = match (&x, &y) {
        (F::Exact, F::Date | F::Time | F::Ts) => (a, b),
        (F::Date | F::Time | F::Ts, F::Exact) => (b, a),
        _ => return Some(SetTypes::Mismatch),
    };
    let n = number.clone().with_nullable(true).summary();
    let message = match &datetime.kind {
        Kind::Date if !matches!(number.kind, Kind::Decimal(..)) => {
            format!("Only legacy cast behaviour supports cast from '{n}' to 'DATE'.")
        }
        Kind::Date | Kind::Time(_) => format!(
            "Unsupported cast from '{n}' to '{}'.",
            datetime.clone().with_nullable(true).summary()
        ),
        Kind::TimestampLtz(_) => "The cast from NUMERIC type to TIMESTAMP_LTZ type is not allowed. It's recommended to use TO_TIMESTAMP_LTZ(numeric_col, precision) instead.".to_string(),
        _ => "The cast from NUMERIC type to TIMESTAMP type is not allowed. It's recommended to use TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, note the numeric is in seconds.".to_string(),
    };
    Some(SetTypes::Uncastable(message))
}

impl Walker<'_> {
    /// Drops what only the planner rejects among the findings from `before` on, when they are
    /// in a column of a derived table: the planner prunes a column nothing reads before it
    /// would reject it, and flinklint does not follow which columns are read.
    fn forget_prunable(&mut self, before: usize) {
        if self.derived > 0 && self.checker.found.len() > before {
            let added = self.checker.found.split_off(before);
            let kept = added.into_iter().filter(|f| !f.planning);
            self.checker.found.extend(kept);
        }
    }

    fn query(&mut self, q: &Query) -> Option<Vec<Option<Type>>> {
        if self.depth > MAX_QUERY_DEPTH {
            return None;
        }
        self.depth += 1;
        for cte in &q.with {
            self.derived += 1;
            self.query(&cte.query);
            self.derived -= 1;
        }
        let types = self.body(&q.body);
        // ORDER BY, after the select list (Calcite's `validateOrderList`); a name a select
        // alias gives has no type here, so what reads one is not judged.
        let agg = match &q.body {
            SetExpr::Select(s) => aggregation(s),
            _ => Aggregation::None,
        };
        for o in &q.order_by {
            let names = self.validation.names(&o.expr);
            self.checker.expr(&o.expr, &|n| names.get(n), agg);
        }
        self.depth -= 1;
        types
    }

    /// Checks a query body; returns the types of its output columns when their count is known.
    fn body(&mut self, body: &SetExpr) -> Option<Vec<Option<Type>>> {
        match body {
            SetExpr::Select(s) => self.select(s),
            SetExpr::Query(q) => self.query(q),
            SetExpr::Values(v) => {
                let mut out: Option<Vec<Option<Type>>> = None;
                for row in &v.rows {
                    // A bare NULL in VALUES is as illegal as in a select list (Flink 2.3
                    // rejects `VALUES (1, NULL)`, into a sink too).
                    for e in row {
                        let before = self.checker.found.len();
                        self.checker.select_item(e, &|_| None, Aggregation::None);
                        self.forget_prunable(before);
                    }
                    if out.is_none() {
                        out = Some(
                            row.iter()
                                .map(|e| infer_type_in(e, &|_| None, Aggregation::None))
                                .collect(),
                        );
                    }
                }
                out
            }
            SetExpr::Table(_) => None,
            SetExpr::SetOperation {
                op,
                all,
                left,
                right,
                span,
            } => {
                let l = self.body(left);
                let r = self.body(right);
                let (l, r) = (l?, r?);
                let name = set_op_name(*op, *all);
                if l.len() != r.len() {
                    self.checker.found.push(ExprFinding {
                        span: *span,
                        flink: Some(format!("Column count mismatch in {name}")),
                        issue: ExprIssue::SetColumnCount {
                            op: name,
                            left: l.len(),
                            right: r.len(),
                        },
                        planning: false,
                    });
                    return None;
                }
                let mut out = Vec::with_capacity(l.len());
                for (i, (a, b)) in l.iter().zip(&r).enumerate() {
                    if let (Some(a), Some(b)) = (a, b) {
                        let (flink, planning) = match set_types_compatible(a, b) {
                            Some(SetTypes::Mismatch) => (
                                format!("Type mismatch in column {} of {name}", i + 1),
                                false,
                            ),
                            // A column the planner may prune (see `derived`) is not judged.
                            Some(SetTypes::Uncastable(message)) if self.derived == 0 => {
                                (message, true)
                            }
                            _ => (String::new(), false),
                        };
                        if !flink.is_empty() {
                            self.checker.found.push(ExprFinding {
                                span: *span,
                                flink: Some(flink),
                                issue: ExprIssue::SetColumnTypes {
                                    op: name.clone(),
                                    column: i + 1,
                                    left: a.summary(),
                                    right: b.summary(),
                                },
                                planning,
                            });
                            if !planning {
                                return None;
                            }
                        }
                    }
                    // The result type is the common type of both.
                    out.push(match (a, b) {
                        (Some(a), Some(b)) => common_type(&[a.clone(), b.clone()]),
                        _ => None,
                    });
                }
                Some(out)
            }
        }
    }

    /// Checks the subqueries, ON conditions and UNNEST arguments of a FROM item.
    fn from(&mut self, t: &TableRef) {
        let v = self.validation;
        match t {
            TableRef::Named { .. }
            | TableRef::Function { .. }
            | TableRef::MatchRecognize { .. } => {}
            TableRef::Subquery { query, .. } => {
                self.derived += 1;
                self.query(query);
                self.derived -= 1;
            }
            TableRef::Join {
                left, right, on, ..
            } => {
                self.from(left);
                self.from(right);
                if let Some(on) = on {
                    let names = v.names(on);
                    self.checker
                        .condition("ON", on, &|n| names.get(n), Aggregation::None);
                }
            }
            TableRef::Nested { inner, .. } => self.from(inner),
            TableRef::Unnest { exprs, .. } => {
                for e in exprs {
                    let names = v.names(e);
                    self.checker.unnest(e, &|n| names.get(n));
                }
            }
        }
    }

    fn select(&mut self, s: &Select) -> Option<Vec<Option<Type>>> {
        let v = self.validation;
        if let Some(from) = &s.from {
            self.from(from);
        }
        let agg = aggregation(s);
        if let Some(w) = &s.selection {
            let names = v.names(w);
            self.checker
                .condition("WHERE", w, &|n| names.get(n), Aggregation::None);
        }
        for g in &s.group_by {
            let names = v.names(g);
            self.checker.expr(g, &|n| names.get(n), Aggregation::None);
        }
        if let Some(h) = &s.having {
            let names = v.names(h);
            self.checker
                .condition("HAVING", h, &|n| names.get(n), Aggregation::Grouped);
        }
        for item in &s.items {
            if let SelectItem::Expr { expr, .. } = item {
                // A bare NULL is illegal in an INSERT's query too: Flink's validator does not
                // type it from the sink.
                let names = v.names(expr);
                let before = self.checker.found.len();
                self.checker.select_item(expr, &|n| names.get(n), agg);
                self.forget_prunable(before);
            }
        }
        v.output(s.span).map(<[_]>::to_vec)
    }
}

//! Walks a query in Flink's validation order and runs the expression checks of
//! [`super::check`] on its parts, with the column types the session can see: the columns of
//! tables and views the FROM clause names (through [`crate::semantic::query::output_columns`]),
//! and of subqueries. Set operations are checked for their column counts and types.
//!
//! Flink stops at the first problem of a statement; so does [`check_query`], which returns
//! the first finding of Flink's validator, else the first of its planner.

use super::check::{Checker, ExprFinding, ExprIssue, FunctionEnv};
use crate::semantic::exprs::{infer_type_in, Aggregation};
use crate::semantic::query::{output_columns, Scope};
use crate::semantic::types::{Kind, Type};
use crate::source::FileId;
use crate::syntax::ast::*;
use compact_str::CompactString;

/// Columns of one FROM item: its name for qualified references, and its columns (`None` when
/// not knowable).
struct Relation {
    alias: Option<CompactString>,
    columns: Option<Vec<(CompactString, Option<Type>)>>,
}

/// The deepest nesting of queries walked.
const MAX_QUERY_DEPTH: usize = 64;

struct Walker<'a> {
    scope: &'a dyn Scope,
    file: FileId,
    checker: Checker<'a>,
    /// Names of the CTEs in scope: a FROM item of one of these names is not a catalog table.
    ctes: Vec<CompactString>,
    depth: usize,
    /// Whether the query is an INSERT's (its bare NULL select items take the sink's types).
    insert: bool,
}

/// Past this many columns in a FROM clause, column types are not looked up (each lookup scans
/// the columns; say nothing rather than cost more than linear time).
const MAX_COLUMNS: usize = 1000;

/// The first problem Flink reports in `query`, if flinklint can tell.
pub fn check_query(
    query: &Query,
    scope: &dyn Scope,
    file: FileId,
    env: &FunctionEnv,
    insert: bool,
) -> Option<ExprFinding> {
    let mut w = Walker {
        scope,
        file,
        checker: Checker::new(env),
        ctes: Vec::new(),
        depth: 0,
        insert,
    };
    w.query(query);
    let found = std::mem::take(&mut w.checker.found);
    let first_validator = found.iter().position(|f| !f.planning);
    let index = first_validator.or(if found.is_empty() { None } else { Some(0) })?;
    found.into_iter().nth(index)
}

fn lookup_in(relations: &[Relation], name: &str) -> Option<Type> {
    if let Some((qualifier, column)) = name.split_once('.') {
        let r = relations
            .iter()
            .find(|r| r.alias.as_deref() == Some(qualifier))?;
        return r
            .columns
            .as_ref()?
            .iter()
            .find(|(n, _)| n == column)
            .and_then(|(_, t)| t.clone());
    }
    let mut found = None;
    for r in relations {
        let cols = r.columns.as_ref()?;
        for (n, t) in cols {
            if n == name {
                if found.is_some() {
                    return None;
                }
                found = Some(t.clone());
            }
        }
    }
    found.flatten()
}

fn aggregation(select: &Select) -> Aggregation {
    if !select.group_by.is_empty() {
        let plain = select.group_by.iter().all(|e| {
            !matches!(&e.kind, ExprKind::Function(c) if matches!(
                c.name.last().text.to_ascii_uppercase().as_str(),
                "GROUPING SETS" | "ROLLUP" | "CUBE"
            ))
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
fn set_types_compatible(a: &Type, b: &Type) -> Option<bool> {
    #[derive(PartialEq)]
    enum F {
        Num,
        Chr,
        Bool,
        Date,
        Ts,
        Coll,
    }
    let fam = |k: &Kind| match k {
        Kind::TinyInt
        | Kind::SmallInt
        | Kind::Int
        | Kind::BigInt
        | Kind::Float
        | Kind::Double
        | Kind::Decimal(..) => Some(F::Num),
        Kind::Char(_) | Kind::VarChar(_) => Some(F::Chr),
        Kind::Boolean => Some(F::Bool),
        Kind::Date => Some(F::Date),
        Kind::Timestamp(_) | Kind::TimestampLtz(_) => Some(F::Ts),
        Kind::Array(_) => Some(F::Coll),
        _ => None,
    };
    let (x, y) = (fam(&a.kind)?, fam(&b.kind)?);
    if x == F::Coll && y == F::Coll {
        return None;
    }
    Some(x == y)
}

impl Walker<'_> {
    fn query(&mut self, q: &Query) -> Option<Vec<Option<Type>>> {
        if self.depth > MAX_QUERY_DEPTH {
            return None;
        }
        self.depth += 1;
        let before = self.ctes.len();
        for cte in &q.with {
            self.query(&cte.query);
            self.ctes.push(cte.name.text.clone());
        }
        let types = self.body(&q.body);
        self.ctes.truncate(before);
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
                    for e in row {
                        self.checker.expr(e, &|_| None, Aggregation::None);
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
                        if set_types_compatible(a, b) == Some(false) {
                            self.checker.found.push(ExprFinding {
                                span: *span,
                                flink: Some(format!("Type mismatch in column {} of {name}", i + 1)),
                                issue: ExprIssue::SetColumnTypes {
                                    op: name.clone(),
                                    column: i + 1,
                                    left: a.summary(),
                                    right: b.summary(),
                                },
                                planning: false,
                            });
                            return None;
                        }
                    }
                    // The result type is the common type: known only when both are the same.
                    out.push(match (a, b) {
                        (Some(a), Some(b)) if a == b => Some(a.clone()),
                        _ => None,
                    });
                }
                Some(out)
            }
        }
    }

    fn relation_columns(&mut self, t: &TableRef, out: &mut Vec<Relation>) {
        match t {
            TableRef::Named {
                name, alias, span, ..
            } => {
                let alias_name = alias
                    .as_ref()
                    .map(|a| a.name.text.clone())
                    .or_else(|| Some(name.last().text.clone()));
                let is_cte =
                    name.parts.len() == 1 && self.ctes.iter().any(|c| c == name.parts[0].as_str());
                let columns = if is_cte {
                    None
                } else {
                    let probe = Query {
                        with: Vec::new(),
                        body: SetExpr::Select(Box::new(Select {
                            hints: Vec::new(),
                            distinct: false,
                            items: vec![SelectItem::Wildcard {
                                qualifier: None,
                                span: *span,
                            }],
                            from: Some(TableRef::Named {
                                name: name.clone(),
                                hints: Vec::new(),
                                system_time: None,
                                alias: alias.clone(),
                                span: *span,
                            }),
                            selection: None,
                            group_by: Vec::new(),
                            having: None,
                            windows: Vec::new(),
                            qualify: None,
                            span: *span,
                        })),
                        order_by: Vec::new(),
                        limit: None,
                        offset: None,
                        span: *span,
                    };
                    output_columns(&probe, self.scope, self.file)
                        .map(|cols| cols.into_iter().map(|c| (c.name, c.data_type)).collect())
                };
                out.push(Relation {
                    alias: alias_name,
                    columns,
                });
            }
            TableRef::Subquery { query, alias, .. } => {
                let types = self.query(query);
                // Names of the subquery's columns: known when no CTE is in scope.
                let columns = if self.ctes.is_empty() {
                    output_columns(query, self.scope, self.file).map(|cols| {
                        cols.into_iter()
                            .enumerate()
                            .map(|(i, c)| {
                                let name = alias
                                    .as_ref()
                                    .and_then(|a| a.columns.get(i))
                                    .map_or(c.name.clone(), |n| n.text.clone());
                                let t = types
                                    .as_ref()
                                    .and_then(|ts| ts.get(i).cloned().flatten())
                                    .or(c.data_type);
                                (name, t)
                            })
                            .collect()
                    })
                } else {
                    None
                };
                out.push(Relation {
                    alias: alias.as_ref().map(|a| a.name.text.clone()),
                    columns,
                });
            }
            TableRef::Join {
                left, right, on, ..
            } => {
                self.relation_columns(left, out);
                self.relation_columns(right, out);
                if let Some(on) = on {
                    let rels: &Vec<Relation> = out;
                    let column = |n: &str| lookup_in(rels, n);
                    self.checker.condition("ON", on, &column, Aggregation::None);
                }
            }
            TableRef::Nested { inner, alias, .. } => {
                if alias.is_some() {
                    let mut inner_rels = Vec::new();
                    self.relation_columns(inner, &mut inner_rels);
                    out.push(Relation {
                        alias: alias.as_ref().map(|a| a.name.text.clone()),
                        columns: None,
                    });
                } else {
                    self.relation_columns(inner, out);
                }
            }
            TableRef::Unnest { exprs, alias, .. } => {
                {
                    let rels: &Vec<Relation> = out;
                    let column = |n: &str| lookup_in(rels, n);
                    for e in exprs {
                        self.checker.unnest(e, &column);
                    }
                }
                out.push(Relation {
                    alias: alias.as_ref().map(|a| a.name.text.clone()),
                    columns: None,
                });
            }
            TableRef::Function { alias, .. } | TableRef::MatchRecognize { alias, .. } => {
                out.push(Relation {
                    alias: alias.as_ref().map(|a| a.name.text.clone()),
                    columns: None,
                });
            }
        }
    }

    fn select(&mut self, s: &Select) -> Option<Vec<Option<Type>>> {
        let mut rels = Vec::new();
        if let Some(from) = &s.from {
            self.relation_columns(from, &mut rels);
        }
        let agg = aggregation(s);
        let total: usize = rels
            .iter()
            .map(|r| r.columns.as_ref().map_or(0, Vec::len))
            .sum();
        if total > MAX_COLUMNS || s.items.len() > MAX_COLUMNS {
            return None;
        }
        let column = |n: &str| lookup_in(&rels, n);
        if let Some(w) = &s.selection {
            self.checker
                .condition("WHERE", w, &column, Aggregation::None);
        }
        for g in &s.group_by {
            self.checker.expr(g, &column, Aggregation::None);
        }
        if let Some(h) = &s.having {
            self.checker
                .condition("HAVING", h, &column, Aggregation::Grouped);
        }
        let mut types = Vec::with_capacity(s.items.len());
        let mut known = true;
        for item in &s.items {
            match item {
                SelectItem::Expr { expr, .. } => {
                    if self.insert {
                        self.checker.expr(expr, &column, agg);
                    } else {
                        self.checker.select_item(expr, &column, agg);
                    }
                    types.push(infer_type_in(expr, &column, agg));
                }
                SelectItem::Wildcard { qualifier, .. } => {
                    let matching: Vec<&Relation> = match qualifier {
                        None => rels.iter().collect(),
                        Some(q) => rels
                            .iter()
                            .filter(|r| r.alias.as_deref() == Some(q.last().text.as_str()))
                            .collect(),
                    };
                    if matching.is_empty() {
                        known = false;
                    }
                    for r in matching {
                        match &r.columns {
                            Some(cols) => types.extend(cols.iter().map(|(_, t)| t.clone())),
                            None => known = false,
                        }
                    }
                }
            }
        }
        known.then_some(types)
    }
}

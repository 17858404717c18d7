//! Queries: SELECT, set operations, VALUES, FROM clauses, MATCH_RECOGNIZE.

use super::{ColumnList, Expr, Hint, Ident, MatchSpec, ObjectName, OrderItem, WindowSpec};
use crate::source::Span;
use serde::Serialize;

/// A query expression with optional WITH, ORDER BY, LIMIT, OFFSET and FETCH.
#[derive(Debug, Clone, Serialize)]
pub struct Query {
    /// `WITH name AS (...), ...`.
    pub with: Vec<Cte>,
    /// The body.
    pub body: SetExpr,
    /// `ORDER BY`.
    pub order_by: Vec<OrderItem>,
    /// `LIMIT n` / `FETCH FIRST n ROWS ONLY` (boxed, as `offset`: most queries have neither).
    pub limit: Option<Box<Expr>>,
    /// `OFFSET n`.
    pub offset: Option<Box<Expr>>,
    /// The whole query.
    pub span: Span,
}

/// A common table expression.
#[derive(Debug, Clone, Serialize)]
pub struct Cte {
    /// Its name.
    pub name: Ident,
    /// Explicit column names.
    pub columns: Option<ColumnList>,
    /// Its query.
    pub query: Box<Query>,
    /// The whole definition.
    pub span: Span,
}

/// Set operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub enum SetOperator {
    Union,
    Intersect,
    Except,
}

/// The body of a query.
#[derive(Debug, Clone, Serialize)]
pub enum SetExpr {
    /// `SELECT ...`.
    Select(Box<Select>),
    /// `VALUES (...), ...`.
    Values(Values),
    /// `TABLE name`.
    Table(ObjectName),
    /// `(query)`.
    Query(Box<Query>),
    /// `left UNION|INTERSECT|EXCEPT [ALL|DISTINCT] right`.
    SetOperation {
        /// The operator.
        op: SetOperator,
        /// `ALL` was written.
        all: bool,
        /// Left side.
        left: Box<SetExpr>,
        /// Right side.
        right: Box<SetExpr>,
        /// Both sides.
        span: Span,
    },
}

impl Query {
    /// Whether a hint named `name` is written in this query: on a SELECT or a table of it,
    /// of its CTEs, set operations, subqueries and joins (not in expressions' subqueries).
    pub fn has_hint(&self, name: &str) -> bool {
        enum Part<'q> {
            Query(&'q Query),
            Set(&'q SetExpr),
            Table(&'q TableRef),
        }
        // A stack, not recursion: queries may nest arbitrarily deep.
        let mut stack = vec![Part::Query(self)];
        while let Some(part) = stack.pop() {
            match part {
                Part::Query(q) => {
                    stack.extend(q.with.iter().map(|c| Part::Query(&c.query)));
                    stack.push(Part::Set(&q.body));
                }
                Part::Set(SetExpr::Select(s)) => {
                    if s.hints.iter().any(|h| h.has(name)) {
                        return true;
                    }
                    stack.extend(s.from.iter().map(Part::Table));
                }
                Part::Set(SetExpr::Query(q)) => stack.push(Part::Query(q)),
                Part::Set(SetExpr::SetOperation { left, right, .. }) => {
                    stack.push(Part::Set(left));
                    stack.push(Part::Set(right));
                }
                Part::Set(SetExpr::Values(_) | SetExpr::Table(_)) => {}
                Part::Table(TableRef::Named { hints, .. }) => {
                    if hints.iter().any(|h| h.has(name)) {
                        return true;
                    }
                }
                Part::Table(TableRef::Subquery { query, .. }) => stack.push(Part::Query(query)),
                Part::Table(TableRef::Join { left, right, .. }) => {
                    stack.push(Part::Table(left));
                    stack.push(Part::Table(right));
                }
                Part::Table(
                    TableRef::MatchRecognize { input: inner, .. } | TableRef::Nested { inner, .. },
                ) => stack.push(Part::Table(inner)),
                Part::Table(TableRef::Function { .. } | TableRef::Unnest { .. }) => {}
            }
        }
        false
    }
}

impl SetExpr {
    /// The span of the body.
    pub fn span(&self) -> Span {
        match self {
            SetExpr::Select(s) => s.span,
            SetExpr::Values(v) => v.span,
            SetExpr::Table(t) => t.span,
            SetExpr::Query(q) => q.span,
            SetExpr::SetOperation { span, .. } => *span,
        }
    }
}

/// `VALUES (row), ...`.
#[derive(Debug, Clone, Serialize)]
pub struct Values {
    /// The rows; each row is its list of expressions.
    pub rows: Vec<Vec<Expr>>,
    /// The whole clause.
    pub span: Span,
}

/// `SELECT [hints] [ALL|DISTINCT] items [FROM ...] [WHERE] [GROUP BY] [HAVING] [WINDOW]
/// [QUALIFY]`.
#[derive(Debug, Clone, Serialize)]
pub struct Select {
    /// Query hints after SELECT.
    pub hints: Vec<Hint>,
    /// `DISTINCT` was written.
    pub distinct: bool,
    /// The select list.
    pub items: Vec<SelectItem>,
    /// `FROM`.
    pub from: Option<TableRef>,
    /// `WHERE`.
    pub selection: Option<Expr>,
    /// `GROUP BY` items (grouping sets kept as expressions).
    pub group_by: Vec<Expr>,
    /// `HAVING`.
    pub having: Option<Expr>,
    /// `WINDOW name AS (...)`.
    pub windows: Vec<(Ident, WindowSpec)>,
    /// `QUALIFY`.
    pub qualify: Option<Expr>,
    /// The whole SELECT.
    pub span: Span,
}

/// One item of a select list.
#[derive(Debug, Clone, Serialize)]
pub enum SelectItem {
    /// `expr [[AS] alias]`.
    Expr {
        /// The expression.
        expr: Expr,
        /// Its alias.
        alias: Option<Ident>,
        /// The item.
        span: Span,
    },
    /// `*` or `t.*`.
    Wildcard {
        /// `t` in `t.*`.
        qualifier: Option<ObjectName>,
        /// The item.
        span: Span,
    },
}

/// `[AS] alias [(col, ...)]` after a table reference.
#[derive(Debug, Clone, Serialize)]
pub struct TableAlias {
    /// The alias.
    pub name: Ident,
    /// Column aliases.
    pub columns: Vec<Ident>,
    /// The alias clause.
    pub span: Span,
}

/// Join kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub enum JoinKind {
    Inner,
    Left,
    Right,
    Full,
    Cross,
    /// `a, b`.
    Comma,
}

/// A FROM-clause item.
#[derive(Debug, Clone, Serialize)]
pub enum TableRef {
    /// `name [hints] [FOR SYSTEM_TIME AS OF e] [alias]`.
    Named {
        /// The table, view or CTE.
        name: ObjectName,
        /// Table hints.
        hints: Vec<Hint>,
        /// `FOR SYSTEM_TIME AS OF expr`.
        system_time: Option<Box<Expr>>,
        /// Alias.
        alias: Option<TableAlias>,
        /// The item.
        span: Span,
    },
    /// `[LATERAL] (query) [alias]`.
    Subquery {
        /// `LATERAL` was written.
        lateral: bool,
        /// The query.
        query: Box<Query>,
        /// Alias.
        alias: Option<TableAlias>,
        /// The item.
        span: Span,
    },
    /// `[LATERAL] TABLE(f(...)) [alias]`, window TVFs included.
    Function {
        /// `LATERAL` was written.
        lateral: bool,
        /// The call inside `TABLE(...)`.
        call: Box<Expr>,
        /// Alias.
        alias: Option<TableAlias>,
        /// The item.
        span: Span,
    },
    /// `UNNEST(expr, ...) [WITH ORDINALITY] [alias]`.
    Unnest {
        /// The collections.
        exprs: Vec<Expr>,
        /// `WITH ORDINALITY`.
        with_ordinality: bool,
        /// Alias.
        alias: Option<TableAlias>,
        /// The item.
        span: Span,
    },
    /// `left [NATURAL] kind JOIN right [ON e | USING (cols)]`.
    Join {
        /// Left side.
        left: Box<TableRef>,
        /// Right side.
        right: Box<TableRef>,
        /// Kind.
        kind: JoinKind,
        /// `ON` condition.
        on: Option<Box<Expr>>,
        /// `USING` columns.
        using: Option<ColumnList>,
        /// The whole join.
        span: Span,
    },
    /// `input MATCH_RECOGNIZE (...) [alias]`.
    MatchRecognize {
        /// The input table.
        input: Box<TableRef>,
        /// `ORDER BY` items.
        order_by: Vec<OrderItem>,
        /// `MEASURES` items: expression and name.
        measures: Vec<(Expr, Ident)>,
        /// PARTITION BY, the rows per match, PATTERN and DEFINE (boxed: a table reference is
        /// moved whole, and most are not MATCH_RECOGNIZE).
        spec: Box<MatchSpec>,
        /// Alias.
        alias: Option<TableAlias>,
        /// The item.
        span: Span,
    },
    /// `(table_ref)`.
    Nested {
        /// The inner reference.
        inner: Box<TableRef>,
        /// Alias.
        alias: Option<TableAlias>,
        /// With parentheses.
        span: Span,
    },
}

impl TableRef {
    /// The span of the item.
    pub fn span(&self) -> Span {
        match self {
            TableRef::Named { span, .. }
            | TableRef::Subquery { span, .. }
            | TableRef::Function { span, .. }
            | TableRef::Unnest { span, .. }
            | TableRef::Join { span, .. }
            | TableRef::MatchRecognize { span, .. }
            | TableRef::Nested { span, .. } => *span,
        }
    }
}

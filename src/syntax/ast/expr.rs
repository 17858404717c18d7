//! Expressions (Calcite's expression grammar as Flink uses it).

use super::{DataType, Ident, IntervalQualifier, ObjectName, Query, StringLit};
use crate::source::Span;
use compact_str::CompactString;
use serde::Serialize;

/// An expression with its span.
#[derive(Debug, Clone, Serialize)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it was written (parentheses around it included when it is [`ExprKind::Nested`]).
    pub span: Span,
}

/// Binary operators, loosest first in Calcite's precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    Plus,
    Minus,
    Multiply,
    Divide,
    Modulo,
    Concat,
}

impl BinaryOp {
    /// The operator as Flink prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Or => "OR",
            BinaryOp::And => "AND",
            BinaryOp::Eq => "=",
            BinaryOp::NotEq => "<>",
            BinaryOp::Lt => "<",
            BinaryOp::LtEq => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::GtEq => ">=",
            BinaryOp::Plus => "+",
            BinaryOp::Minus => "-",
            BinaryOp::Multiply => "*",
            BinaryOp::Divide => "/",
            BinaryOp::Modulo => "%",
            BinaryOp::Concat => "||",
        }
    }
    /// Binding power (higher binds tighter), following Calcite's operator table.
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq
            | BinaryOp::NotEq
            | BinaryOp::Lt
            | BinaryOp::LtEq
            | BinaryOp::Gt
            | BinaryOp::GtEq => 4,
            BinaryOp::Plus | BinaryOp::Minus => 6,
            BinaryOp::Multiply | BinaryOp::Divide | BinaryOp::Modulo | BinaryOp::Concat => 7,
        }
    }
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum UnaryOp {
    /// `NOT`.
    Not,
    /// `-`.
    Minus,
    /// `+`.
    Plus,
}

/// Literal values.
#[derive(Debug, Clone, Serialize)]
pub enum Literal {
    /// Exact or approximate number, as written.
    Number(CompactString),
    /// `'...'` (also `U&'..'`, prefixed).
    String(StringLit),
    /// `X'0A1B'` binary string literal: the value holds the hexadecimal digits (continuation
    /// segments joined), a `BINARY(n)` of `n` = half the digits.
    Binary(StringLit),
    /// `TRUE` / `FALSE`.
    Boolean(bool),
    /// `NULL`.
    Null,
    /// `UNKNOWN`.
    Unknown,
    /// `DATE '...'`, `TIME '...'`, `TIMESTAMP '...'`, `TIMESTAMP WITH LOCAL TIME ZONE '...'`,
    /// `TIMESTAMP_LTZ '...'`: the keyword(s) upper-cased and the value.
    Typed {
        /// e.g. `TIMESTAMP` or `TIMESTAMP WITH LOCAL TIME ZONE`.
        type_name: CompactString,
        /// The quoted value.
        value: StringLit,
    },
    /// `INTERVAL [-]'value' qualifier`.
    Interval {
        /// A leading sign inside `INTERVAL -'5' ...`.
        negative: bool,
        /// The quoted value (may itself have a sign).
        value: StringLit,
        /// The unit(s).
        qualifier: Box<IntervalQualifier>,
    },
}

/// An argument of a function call.
#[derive(Debug, Clone, Serialize)]
pub struct FunctionArg {
    /// `name =>` for named arguments.
    pub name: Option<Ident>,
    /// The keyword that introduced the argument in the special forms (`FROM`, `FOR`, `TO`,
    /// `IN`, `PLACING`, `VALUE`, ...), upper-case; `None` after a comma or first.
    pub keyword: Option<CompactString>,
    /// The value.
    pub value: Expr,
}

/// A window specification in `OVER (...)` or `WINDOW w AS (...)`.
#[derive(Debug, Clone, Serialize)]
pub struct WindowSpec {
    /// A base window name.
    pub base: Option<Ident>,
    /// `PARTITION BY`.
    pub partition_by: Vec<Expr>,
    /// `ORDER BY`.
    pub order_by: Vec<OrderItem>,
    /// `ROWS | RANGE BETWEEN ...` frame, kept as its span.
    pub frame: Option<Span>,
    /// Whether the frame's lower bound is `n PRECEDING` (or `n FOLLOWING`): a bounded window.
    pub frame_bounded: bool,
    /// The frame's kind and bounds, when written.
    pub frame_bounds: Option<Frame>,
    /// From `(` to `)`.
    pub span: Span,
}

/// A window frame: `ROWS` or `RANGE`, its lower and upper bounds (`ROWS n PRECEDING` is
/// `BETWEEN n PRECEDING AND CURRENT ROW`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// `ROWS` (else `RANGE`).
    pub rows: bool,
    /// The lower bound.
    pub lower: FrameBound,
    /// The upper bound.
    pub upper: FrameBound,
}

/// A bound of a window frame. An offset is kept as a normalized key of its literal (upper
/// case, single spaces, an integer's leading zeros dropped), `None` when it is not a literal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum FrameBound {
    /// `UNBOUNDED PRECEDING`.
    UnboundedPreceding,
    /// `UNBOUNDED FOLLOWING`.
    UnboundedFollowing,
    /// `CURRENT ROW`.
    CurrentRow,
    /// `n PRECEDING`.
    Preceding(Option<CompactString>),
    /// `n FOLLOWING`.
    Following(Option<CompactString>),
}

/// `OVER w` or `OVER (...)`.
#[derive(Debug, Clone, Serialize)]
pub enum Over {
    /// A named window.
    Named(Ident),
    /// An inline specification.
    Spec(WindowSpec),
}

/// An ORDER BY item.
#[derive(Debug, Clone, Serialize)]
pub struct OrderItem {
    /// The sort key.
    pub expr: Expr,
    /// `DESC` was written.
    pub descending: bool,
    /// The item, direction and NULLS clause included.
    pub span: Span,
}

/// A function call, including the special forms (`TRIM(BOTH x FROM y)`, `EXTRACT`, ...)
/// whose keyword arguments are folded into `args`.
#[derive(Debug, Clone, Serialize)]
pub struct FunctionCall {
    /// The function name (qualified for catalog functions).
    pub name: ObjectName,
    /// Arguments in order.
    pub args: Vec<FunctionArg>,
    /// `DISTINCT` inside the parentheses.
    pub distinct: bool,
    /// `COUNT(*)`.
    pub star: bool,
    /// `FILTER (WHERE ...)`.
    pub filter: Option<Box<Expr>>,
    /// `OVER ...` (boxed: most calls have none, and a call is moved whole).
    pub over: Option<Box<Over>>,
    /// The type of a JSON function's `RETURNING type` clause (`JSON_VALUE(j, p RETURNING
    /// INT)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returning: Option<Box<DataType>>,
}

/// The kinds of expression.
#[derive(Debug, Clone, Serialize)]
pub enum ExprKind {
    /// A column or field reference: `a`, `t.a`, `t.a.b`.
    Identifier(ObjectName),
    /// A literal.
    Literal(Literal),
    /// `op expr`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        expr: Box<Expr>,
    },
    /// `left op right`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        left: Box<Expr>,
        /// Right operand.
        right: Box<Expr>,
    },
    /// `(expr)`.
    Nested(Box<Expr>),
    /// `(ts2 - ts1) DAY [TO HOUR]`: the difference of two datetimes as an interval of the
    /// qualifier's units (`expr` is the parenthesized difference).
    DatetimeInterval {
        /// The parenthesized expression, `Nested`.
        expr: Box<Expr>,
        /// The unit(s).
        qualifier: Box<IntervalQualifier>,
    },
    /// `expr IS [NOT] NULL | TRUE | FALSE | UNKNOWN | JSON ...`.
    Is {
        /// The operand.
        expr: Box<Expr>,
        /// `NOT` was written.
        negated: bool,
        /// `NULL`, `TRUE`, `FALSE`, `UNKNOWN`, `JSON ...`, upper-case.
        test: CompactString,
    },
    /// `left IS [NOT] DISTINCT FROM right`.
    IsDistinctFrom {
        /// Left operand.
        left: Box<Expr>,
        /// Right operand.
        right: Box<Expr>,
        /// `NOT` was written.
        negated: bool,
    },
    /// `expr [NOT] BETWEEN [ASYMMETRIC|SYMMETRIC] low AND high`.
    Between {
        /// The operand.
        expr: Box<Expr>,
        /// `NOT` was written.
        negated: bool,
        /// `SYMMETRIC` was written.
        symmetric: bool,
        /// Lower bound.
        low: Box<Expr>,
        /// Upper bound.
        high: Box<Expr>,
    },
    /// `expr [NOT] IN (list)`.
    InList {
        /// The operand.
        expr: Box<Expr>,
        /// `NOT` was written.
        negated: bool,
        /// The list.
        list: Vec<Expr>,
    },
    /// `expr [NOT] IN (query)`.
    InSubquery {
        /// The operand.
        expr: Box<Expr>,
        /// `NOT` was written.
        negated: bool,
        /// The subquery.
        query: Box<Query>,
    },
    /// `expr [NOT] LIKE | ILIKE | SIMILAR TO | RLIKE pattern [ESCAPE e]`.
    Like {
        /// The operand.
        expr: Box<Expr>,
        /// `NOT` was written.
        negated: bool,
        /// `LIKE`, `ILIKE`, `SIMILAR TO`, `RLIKE`.
        operator: CompactString,
        /// The pattern.
        pattern: Box<Expr>,
        /// `ESCAPE` character.
        escape: Option<Box<Expr>>,
    },
    /// `CASE [operand] WHEN ... THEN ... [ELSE ...] END`.
    Case {
        /// The simple-CASE operand.
        operand: Option<Box<Expr>>,
        /// `WHEN cond THEN result` pairs.
        whens: Vec<(Expr, Expr)>,
        /// `ELSE` result.
        else_result: Option<Box<Expr>>,
    },
    /// `CAST(expr AS type)` / `TRY_CAST(...)`.
    Cast {
        /// The operand.
        expr: Box<Expr>,
        /// The target type.
        data_type: Box<DataType>,
        /// `TRY_CAST`.
        try_cast: bool,
    },
    /// A function call.
    Function(Box<FunctionCall>),
    /// A niladic function without parentheses (`CURRENT_TIMESTAMP`, `LOCALTIMESTAMP`, ...).
    NiladicFunction(CompactString),
    /// `(query)` as a scalar.
    Subquery(Box<Query>),
    /// `EXISTS (query)`.
    Exists(Box<Query>),
    /// `ROW(a, b)` or `(a, b)`.
    Row(Vec<Expr>),
    /// `ARRAY[a, b]`.
    Array(Vec<Expr>),
    /// `ARRAY(query)`.
    ArrayQuery(Box<Query>),
    /// `MAP[k, v, ...]`.
    Map(Vec<Expr>),
    /// `MAP(query)`.
    MapQuery(Box<Query>),
    /// `MULTISET[...]` / `MULTISET(query)`.
    Multiset(Vec<Expr>),
    /// `expr[index]`.
    Item {
        /// The container.
        expr: Box<Expr>,
        /// The index or key.
        index: Box<Expr>,
    },
    /// `(expr).field`.
    Field {
        /// The composite.
        expr: Box<Expr>,
        /// The field.
        field: Ident,
    },
    /// `expr::type` (not Flink grammar; kept for a precise message).
    DoubleColonCast {
        /// The operand.
        expr: Box<Expr>,
        /// The target type.
        data_type: Box<DataType>,
    },
    /// `*` as an argument (`COUNT(*)`) or `t.*` inside a function.
    Star,
    /// A time unit used as an argument (`EXTRACT(HOUR FROM ts)`, `TIMESTAMPADD(DAY, ...)`).
    TimeUnit(CompactString),
    /// A bare keyword used as an argument or flag (`BOTH`, `LEADING`, `NULL ON NULL`, ...).
    Keyword(CompactString),
    /// `?` dynamic parameter.
    Parameter,
    /// `DESCRIPTOR(a, b)`.
    Descriptor(Vec<Ident>),
    /// `TABLE t [PARTITION BY ...] [ORDER BY ...]` as a table-function argument (`MODEL m`
    /// too): the table, where `PARTITION BY keys` was written, and the keys (one expression,
    /// or a parenthesized list). The name is boxed: the variant would make every `Expr` larger.
    TableArg(Box<ObjectName>, Option<Span>, Option<Box<Expr>>),
    /// `DEFAULT` as an argument.
    Default,
    /// `x -> body` lambda (Flink 2.2+ for some functions).
    Lambda {
        /// Parameters.
        params: Vec<Ident>,
        /// Body.
        body: Box<Expr>,
    },
    /// An expression that could not be parsed (an error was reported).
    Error,
}

impl Expr {
    /// Calls `f` on each direct child expression (operands, arguments, CASE branches; not the
    /// expressions of subqueries).
    pub fn for_each_child<'e>(&'e self, f: &mut impl FnMut(&'e Expr)) {
        match &self.kind {
            ExprKind::Unary { expr, .. }
            | ExprKind::Nested(expr)
            | ExprKind::DatetimeInterval { expr, .. }
            | ExprKind::Is { expr, .. }
            | ExprKind::Cast { expr, .. }
            | ExprKind::DoubleColonCast { expr, .. }
            | ExprKind::Field { expr, .. }
            | ExprKind::InSubquery { expr, .. } => f(expr),
            ExprKind::Binary { left, right, .. } | ExprKind::IsDistinctFrom { left, right, .. } => {
                f(left);
                f(right);
            }
            ExprKind::Between {
                expr, low, high, ..
            } => {
                f(expr);
                f(low);
                f(high);
            }
            ExprKind::InList { expr, list, .. } => {
                f(expr);
                list.iter().for_each(f);
            }
            ExprKind::Like {
                expr,
                pattern,
                escape,
                ..
            } => {
                f(expr);
                f(pattern);
                if let Some(x) = escape {
                    f(x);
                }
            }
            ExprKind::Case {
                operand,
                whens,
                else_result,
            } => {
                if let Some(o) = operand {
                    f(o);
                }
                for (c, r) in whens {
                    f(c);
                    f(r);
                }
                if let Some(x) = else_result {
                    f(x);
                }
            }
            ExprKind::Function(call) => {
                call.args.iter().for_each(|a| f(&a.value));
                if let Some(x) = &call.filter {
                    f(x);
                }
            }
            ExprKind::Row(items)
            | ExprKind::Array(items)
            | ExprKind::Map(items)
            | ExprKind::Multiset(items) => items.iter().for_each(f),
            ExprKind::Item { expr, index } => {
                f(expr);
                f(index);
            }
            ExprKind::Lambda { body, .. } => f(body),
            _ => {}
        }
    }
}

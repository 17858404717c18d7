//! Expressions: a precedence-climbing parser over Calcite's operator table, with the special
//! call forms (`CAST`, `EXTRACT`, `TRIM`, `SUBSTRING ... FROM ... FOR`, `JSON_VALUE ... RETURNING`,
//! ...), constructors, subqueries, window specifications and literals.
//!
//! Split by meaning: `operators` (precedence climbing, prefix and postfix operators, the
//! comparison-level forms IS, BETWEEN, IN, LIKE, ...), `primary` (literal strings and numbers,
//! names, parentheses, subqueries, lambdas), `keyword` (primaries that start with a keyword:
//! typed literals, INTERVAL, CASE, CAST, EXISTS, constructors, niladic functions), `call`
//! (function calls: arguments, DISTINCT, FILTER, named arguments, the keyword-separated forms
//! of the special functions) and `window` (OVER specifications and ORDER BY items).

mod call;
mod keyword;
mod operators;
mod primary;
mod window;

use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};

/// Operators in one chain (`a + b + c ...`); the tree is nested that deep.
const MAX_OPERATORS: u32 = 4096;
/// Precedence of NOT (between AND and the comparisons).
const NOT_PREC: u8 = 3;
/// Precedence of comparisons, IS, BETWEEN, IN, LIKE.
const CMP_PREC: u8 = 4;
/// Precedence of unary minus and plus.
const UNARY_PREC: u8 = 8;

impl Parser<'_> {
    /// A comma-separated list of expressions up to (not including) `close`.
    pub(crate) fn expr_list(&mut self, close: TokenKind) -> PResult<Vec<Expr>> {
        let mut list = Vec::new();
        if self.at_kind(close) {
            return Ok(list);
        }
        loop {
            list.push(self.expr()?);
            if self.eat_kind(TokenKind::Comma).is_none() {
                return Ok(list);
            }
        }
    }
}

fn binary(op: BinaryOp, left: Expr, right: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Binary {
            op,
            left: Box::new(left),
            right: Box::new(right),
        },
        span,
    }
}

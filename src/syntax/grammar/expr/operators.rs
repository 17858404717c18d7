//! The operator-precedence core: precedence climbing over the binary operators (with the
//! nesting-depth guard and the operator-count limit), the comparison-level forms (`IS`,
//! `BETWEEN`, `IN`, `LIKE`, `SIMILAR TO`, period predicates, `MEMBER OF`, quantified
//! comparisons), prefix operators, and the postfix forms after a primary.

use super::{binary, CMP_PREC, MAX_OPERATORS, NOT_PREC, UNARY_PREC};
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::{Suggestion, SyntaxErrorKind};
use compact_str::CompactString;

impl Parser<'_> {
    /// A full expression.
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.expr_bp(0)
    }

    /// An expression whose operators bind tighter than `min` (precedence climbing).
    pub(super) fn expr_bp(&mut self, min: u8) -> PResult<Expr> {
        self.enter()?;
        let result = self.expr_bp_inner(min);
        self.exit();
        result
    }

    fn expr_bp_inner(&mut self, min: u8) -> PResult<Expr> {
        let start = self.start();
        let mut left = self.prefix()?;
        let mut operators = 0u32;
        loop {
            operators += 1;
            if operators > MAX_OPERATORS {
                let span = self.current().span;
                self.push_error(
                    SyntaxErrorKind::TooDeep,
                    format!("an expression with more than {MAX_OPERATORS} operators; the rest of the statement is skipped"),
                    span,
                    Some("split the expression, e.g. into several computed columns or a CTE".to_string()),
                );
                return Err(crate::syntax::parser::Recover);
            }
            let tok = self.current();
            // Most expressions end at `,`, `)` or `;`, which no arm below reads (they all
            // break there too): one test instead of the operator and keyword dispatch.
            if matches!(
                tok.kind,
                TokenKind::Comma | TokenKind::RParen | TokenKind::Semicolon
            ) {
                break;
            }
            // Binary operators.
            let op = match (tok.kind, tok.kw) {
                (_, Kw::OR) => Some(BinaryOp::Or),
                (_, Kw::AND) => Some(BinaryOp::And),
                (TokenKind::Eq, _) => Some(BinaryOp::Eq),
                (TokenKind::NotEq | TokenKind::BangEq, _) => Some(BinaryOp::NotEq),
                (TokenKind::Lt, _) => Some(BinaryOp::Lt),
                (TokenKind::LtEq, _) => Some(BinaryOp::LtEq),
                (TokenKind::Gt, _) => Some(BinaryOp::Gt),
                (TokenKind::GtEq, _) => Some(BinaryOp::GtEq),
                (TokenKind::Plus, _) => Some(BinaryOp::Plus),
                (TokenKind::Minus | TokenKind::TypographicDash, _) => Some(BinaryOp::Minus),
                (TokenKind::Star, _) => Some(BinaryOp::Multiply),
                (TokenKind::Slash, _) => Some(BinaryOp::Divide),
                (TokenKind::Percent, _) => Some(BinaryOp::Modulo),
                (TokenKind::Concat, _) => Some(BinaryOp::Concat),
                _ => None,
            };
            if let Some(op) = op {
                let prec = op.precedence();
                if prec <= min {
                    break;
                }
                let op_tok = self.bump();
                if op_tok.kind == TokenKind::BangEq {
                    self.note_error_with_fix(
                        SyntaxErrorKind::Unexpected,
                        "Bang equal '!=' is not allowed under the current SQL conformance level"
                            .to_string(),
                        op_tok.span,
                        Some("write `<>` for not equal".to_string()),
                        Suggestion {
                            title: "Replace `!=` with `<>`".to_string(),
                            span: op_tok.span,
                            replacement: "<>".to_string(),
                        },
                    );
                }
                // `x = ANY (...)`, `x > ALL (...)`, `x = SOME (...)`.
                if prec == CMP_PREC
                    && matches!(self.kw(), Kw::ANY | Kw::ALL | Kw::SOME)
                    && self.nth(1).kind == TokenKind::LParen
                {
                    let q_start = self.start();
                    let name = self.bump();
                    let name = ObjectName {
                        parts: NameParts::one(Ident {
                            text: CompactString::from(name.kw.as_str()),
                            quoted: false,
                            span: name.span,
                        }),
                        span: name.span,
                    };
                    let right = self.call_after_name(name, q_start)?;
                    left = binary(op, left, right, self.finish(start));
                    continue;
                }
                let right = self.expr_bp(prec)?;
                left = binary(op, left, right, self.finish(start));
                continue;
            }
            // Postfix and special infix forms at comparison precedence.
            if CMP_PREC <= min {
                break;
            }
            let negated = tok.kw == Kw::NOT
                && matches!(
                    self.nth(1).kw,
                    Kw::BETWEEN | Kw::IN | Kw::LIKE | Kw::ILIKE | Kw::SIMILAR | Kw::RLIKE
                );
            let kw = if negated { self.nth(1).kw } else { tok.kw };
            match kw {
                Kw::IS => {
                    self.bump();
                    let not = self.eat(Kw::NOT).is_some();
                    if self.eat(Kw::DISTINCT).is_some() {
                        self.expect(Kw::FROM)?;
                        let right = self.expr_bp(CMP_PREC)?;
                        let span = self.finish(start);
                        left = Expr {
                            kind: ExprKind::IsDistinctFrom {
                                left: Box::new(left),
                                right: Box::new(right),
                                negated: not,
                            },
                            span,
                        };
                        continue;
                    }
                    let test = match self.kw() {
                        Kw::NULL | Kw::TRUE | Kw::FALSE | Kw::UNKNOWN => {
                            self.bump().kw.as_str().to_string()
                        }
                        Kw::JSON => {
                            self.bump();
                            let mut t = "JSON".to_string();
                            if matches!(self.kw(), Kw::VALUE | Kw::SCALAR | Kw::ARRAY | Kw::OBJECT)
                            {
                                t.push(' ');
                                t.push_str(self.bump().kw.as_str());
                            }
                            t
                        }
                        _ => {
                            return Err(self.expected(
                                "`NULL`, `TRUE`, `FALSE`, `UNKNOWN`, `JSON` or `DISTINCT FROM`",
                            ))
                        }
                    };
                    let span = self.finish(start);
                    left = Expr {
                        kind: ExprKind::Is {
                            expr: Box::new(left),
                            negated: not,
                            test: test.into(),
                        },
                        span,
                    };
                }
                Kw::BETWEEN => {
                    if negated {
                        self.bump();
                    }
                    self.bump();
                    let mut symmetric = false;
                    if self.eat(Kw::SYMMETRIC).is_some() {
                        symmetric = true;
                    } else {
                        self.eat(Kw::ASYMMETRIC);
                    }
                    let low = self.expr_bp(CMP_PREC)?;
                    self.expect(Kw::AND)?;
                    let high = self.expr_bp(CMP_PREC)?;
                    let span = self.finish(start);
                    left = Expr {
                        kind: ExprKind::Between {
                            expr: Box::new(left),
                            negated,
                            symmetric,
                            low: Box::new(low),
                            high: Box::new(high),
                        },
                        span,
                    };
                }
                Kw::IN if !self.no_in_operator => {
                    if negated {
                        self.bump();
                    }
                    self.bump();
                    self.expect_kind(TokenKind::LParen, "`(`")?;
                    if self.query_ahead(0) {
                        let query = Box::new(self.query()?);
                        self.expect_kind(TokenKind::RParen, "`)`")?;
                        let span = self.finish(start);
                        left = Expr {
                            kind: ExprKind::InSubquery {
                                expr: Box::new(left),
                                negated,
                                query,
                            },
                            span,
                        };
                    } else {
                        if self.at_kind(TokenKind::RParen) {
                            return Err(self.expected("a value in the IN list"));
                        }
                        let list = self.expr_list(TokenKind::RParen)?;
                        self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
                        let span = self.finish(start);
                        left = Expr {
                            kind: ExprKind::InList {
                                expr: Box::new(left),
                                negated,
                                list,
                            },
                            span,
                        };
                    }
                }
                Kw::LIKE | Kw::ILIKE | Kw::SIMILAR | Kw::RLIKE => {
                    if negated {
                        self.bump();
                    }
                    let op_tok = self.bump();
                    let operator = if op_tok.kw == Kw::SIMILAR {
                        self.expect(Kw::TO)?;
                        "SIMILAR TO".to_string()
                    } else {
                        op_tok.kw.as_str().to_string()
                    };
                    let pattern = self.expr_bp(CMP_PREC)?;
                    let escape = if self.eat(Kw::ESCAPE).is_some() {
                        Some(Box::new(self.expr_bp(CMP_PREC)?))
                    } else {
                        None
                    };
                    let span = self.finish(start);
                    left = Expr {
                        kind: ExprKind::Like {
                            expr: Box::new(left),
                            negated,
                            operator: operator.into(),
                            pattern: Box::new(pattern),
                            escape,
                        },
                        span,
                    };
                }
                Kw::OVERLAPS
                | Kw::EQUALS
                | Kw::PRECEDES
                | Kw::SUCCEEDS
                | Kw::IMMEDIATELY
                | Kw::CONTAINS
                    if !negated
                        && (kw != Kw::IMMEDIATELY
                            || matches!(self.nth(1).kw, Kw::PRECEDES | Kw::SUCCEEDS)) =>
                {
                    if self.bump().kw == Kw::IMMEDIATELY && self.eat(Kw::PRECEDES).is_none() {
                        self.expect(Kw::SUCCEEDS)?;
                    }
                    let right = self.expr_bp(CMP_PREC)?;
                    left = binary(BinaryOp::Eq, left, right, self.finish(start));
                }
                Kw::MEMBER | Kw::SUBMULTISET => {
                    self.bump();
                    self.expect(Kw::OF)?;
                    let right = self.expr_bp(CMP_PREC)?;
                    left = binary(BinaryOp::Eq, left, right, self.finish(start));
                }
                _ => break,
            }
        }
        Ok(left)
    }

    /// Prefix operators, then a primary with its postfix operators.
    fn prefix(&mut self) -> PResult<Expr> {
        let tok = self.current();
        let start = tok.span.start;
        let op = match (tok.kind, tok.kw) {
            (_, Kw::NOT) => Some((UnaryOp::Not, NOT_PREC - 1)),
            (TokenKind::Minus | TokenKind::TypographicDash, _) => {
                Some((UnaryOp::Minus, UNARY_PREC))
            }
            (TokenKind::Plus, _) => Some((UnaryOp::Plus, UNARY_PREC)),
            _ => None,
        };
        if let Some((op, prec)) = op {
            self.bump();
            let operand = self.expr_bp(prec)?;
            return Ok(Expr {
                kind: ExprKind::Unary {
                    op,
                    expr: Box::new(operand),
                },
                span: self.finish(start),
            });
        }
        let primary = self.primary()?;
        if matches!(primary.kind, ExprKind::Nested(_)) && self.at_time_unit() {
            // `(ts2 - ts1) DAY [TO HOUR]`: a datetime difference as an interval.
            let qualifier = self.interval_qualifier()?;
            let span = self.finish(start);
            return Ok(Expr {
                kind: ExprKind::DatetimeInterval {
                    expr: Box::new(primary),
                    qualifier: Box::new(qualifier),
                },
                span,
            });
        }
        // Most primaries have no postfix operator: returned without a call (and a move).
        match self.kind() {
            TokenKind::LBracket | TokenKind::Dot | TokenKind::DoubleColon => {
                self.postfix(primary, start)
            }
            _ => Ok(primary),
        }
    }

    /// `[index]`, `.field`, `::type` after a primary.
    fn postfix(&mut self, mut expr: Expr, start: u32) -> PResult<Expr> {
        loop {
            match self.kind() {
                TokenKind::LBracket => {
                    self.bump();
                    // `row[...]`: the reserved word is reported (SY004, as Flink's ROW
                    // constructor, which needs parentheses) and its brackets may hold a list
                    // (`row['a', 'b']`): read them as one, so the same problem gives no
                    // follow-on syntax error at the comma.
                    let row = matches!(&expr.kind, ExprKind::Identifier(name)
                        if name.parts.len() == 1
                            && !name.parts[0].quoted
                            && name.parts[0].text.eq_ignore_ascii_case("row"));
                    let index = if row {
                        let mut items = self.expr_list(TokenKind::RBracket)?;
                        match items.is_empty() {
                            true => return Err(self.expected("an expression")),
                            false => items.swap_remove(0),
                        }
                    } else {
                        self.expr()?
                    };
                    self.expect_kind(TokenKind::RBracket, "`]`")?;
                    expr = Expr {
                        kind: ExprKind::Item {
                            expr: Box::new(expr),
                            index: Box::new(index),
                        },
                        span: self.finish(start),
                    };
                }
                TokenKind::Dot => {
                    self.bump();
                    if self.at_kind(TokenKind::Star) {
                        self.bump();
                        expr = Expr {
                            kind: ExprKind::Star,
                            span: self.finish(start),
                        };
                        continue;
                    }
                    let field = self.ident("a field name")?;
                    if self.at_kind(TokenKind::LParen) {
                        // Method-style call on a composite: keep it as a call of the field name.
                        let name = ObjectName {
                            span: field.span,
                            parts: NameParts::one(field),
                        };
                        expr = self.call_after_name(name, start)?;
                        continue;
                    }
                    expr = Expr {
                        kind: ExprKind::Field {
                            expr: Box::new(expr),
                            field,
                        },
                        span: self.finish(start),
                    };
                }
                TokenKind::DoubleColon => {
                    let span = self.bump().span;
                    self.note_error(
                        SyntaxErrorKind::Unexpected,
                        "`::` casts are not Flink SQL".to_string(),
                        span,
                        Some("write CAST(expr AS type)".to_string()),
                    );
                    let data_type = self.data_type()?;
                    expr = Expr {
                        kind: ExprKind::DoubleColonCast {
                            expr: Box::new(expr),
                            data_type: Box::new(data_type),
                        },
                        span: self.finish(start),
                    };
                }
                _ => return Ok(expr),
            }
        }
    }
}

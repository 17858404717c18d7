//! Expressions: a precedence-climbing parser over Calcite's operator table, with the special
//! call forms (`CAST`, `EXTRACT`, `TRIM`, `SUBSTRING ... FROM ... FOR`, `JSON_VALUE ... RETURNING`,
//! ...), constructors, subqueries, window specifications and literals.

use super::types::time_unit;
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::{QuoteUsage, Suggestion, SyntaxErrorKind};
use compact_str::CompactString;

/// Operators in one chain (`a + b + c ...`); the tree is nested that deep.
const MAX_OPERATORS: u32 = 4096;
/// Precedence of NOT (between AND and the comparisons).
const NOT_PREC: u8 = 3;
/// Precedence of comparisons, IS, BETWEEN, IN, LIKE.
const CMP_PREC: u8 = 4;
/// Precedence of unary minus and plus.
const UNARY_PREC: u8 = 8;

impl Parser<'_> {
    /// A full expression.
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.expr_bp(0)
    }

    /// An expression whose operators bind tighter than `min` (precedence climbing).
    fn expr_bp(&mut self, min: u8) -> PResult<Expr> {
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
                        parts: vec![Ident {
                            text: CompactString::from(name.kw.as_str()),
                            quoted: false,
                            span: name.span,
                        }],
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
        let start = self.start();
        let tok = self.current();
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
            self.interval_qualifier()?;
            let span = self.finish(start);
            return Ok(Expr {
                kind: primary.kind,
                span,
            });
        }
        self.postfix(primary, start)
    }

    /// `[index]`, `.field`, `::type` after a primary.
    fn postfix(&mut self, mut expr: Expr, start: u32) -> PResult<Expr> {
        loop {
            match self.kind() {
                TokenKind::LBracket => {
                    self.bump();
                    let index = self.expr()?;
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
                            parts: vec![field],
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

    fn primary(&mut self) -> PResult<Expr> {
        let start = self.start();
        let tok = self.current();
        let lit = |kind| {
            Ok(Expr {
                kind: ExprKind::Literal(kind),
                span: tok.span,
            })
        };
        match tok.kind {
            TokenKind::Integer | TokenKind::Decimal => {
                self.bump();
                return lit(Literal::Number(self.text_of(tok).into()));
            }
            TokenKind::String
            | TokenKind::BinaryString
            | TokenKind::UnicodeString
            | TokenKind::PrefixedString
            | TokenKind::UnterminatedString
            | TokenKind::DoubleQuoted
            | TokenKind::TypographicQuoted => {
                // A double-quoted or typographically quoted word followed by `.` is a name.
                if matches!(
                    tok.kind,
                    TokenKind::DoubleQuoted | TokenKind::TypographicQuoted
                ) && self.nth(1).kind == TokenKind::Dot
                {
                    let name = self.object_name("a name")?;
                    return Ok(Expr {
                        kind: ExprKind::Identifier(name),
                        span: self.finish(start),
                    });
                }
                if matches!(
                    tok.kind,
                    TokenKind::DoubleQuoted | TokenKind::TypographicQuoted
                ) {
                    // Noted before `string_lit` notes a string: the first note counts.
                    let usage = if self.after_value_operator() {
                        QuoteUsage::ComparedValue
                    } else {
                        QuoteUsage::Expression
                    };
                    self.note_usage(tok.span, usage);
                }
                let s = self.string_lit("a string")?;
                if self.at(Kw::UESCAPE) {
                    let uescape = self.bump().span;
                    if tok.kind != TokenKind::UnicodeString {
                        self.note_error(
                            SyntaxErrorKind::Unexpected,
                            "UESCAPE cannot be specified without Unicode literal introducer"
                                .to_string(),
                            uescape,
                            Some("UESCAPE belongs after a U&'...' literal".to_string()),
                        );
                    }
                    self.string_lit("an escape character")?;
                }
                let span = s.span;
                let lit = if tok.kind == TokenKind::BinaryString {
                    Literal::Binary(s)
                } else {
                    Literal::String(s)
                };
                return Ok(Expr {
                    span,
                    kind: ExprKind::Literal(lit),
                });
            }
            TokenKind::Question => {
                self.bump();
                return Ok(Expr {
                    kind: ExprKind::Parameter,
                    span: tok.span,
                });
            }
            TokenKind::LParen => return self.parenthesized(),
            TokenKind::Star => {
                self.bump();
                return Ok(Expr {
                    kind: ExprKind::Star,
                    span: tok.span,
                });
            }
            TokenKind::LBrace
                if {
                    let next = self.nth(1);
                    next.kind == TokenKind::Word && self.text_of(next).eq_ignore_ascii_case("fn")
                } =>
            {
                // JDBC escape `{fn NAME(args)}`.
                self.bump();
                self.bump();
                let f_start = self.start();
                let name = self.expr_name()?;
                let call = self.call_after_name(name, f_start)?;
                self.expect_kind(TokenKind::RBrace, "`}`")?;
                return Ok(Expr {
                    kind: call.kind,
                    span: self.finish(start),
                });
            }
            TokenKind::Word | TokenKind::QuotedIdent | TokenKind::UnterminatedQuotedIdent => {}
            _ => return Err(self.expected("an expression")),
        }
        if tok.kind == TokenKind::Word {
            if let Some(expr) = self.keyword_primary(tok)? {
                return Ok(expr);
            }
        }
        // Lambda `x -> body`.
        if self.nth(1).kind == TokenKind::Arrow
            && tok.kind == TokenKind::Word
            && !tok.kw.is_reserved()
        {
            let param = self.ident("a parameter name")?;
            self.bump();
            let body = self.expr()?;
            return Ok(Expr {
                kind: ExprKind::Lambda {
                    params: vec![param],
                    body: Box::new(body),
                },
                span: self.finish(start),
            });
        }
        // A name: column reference, or a function call.
        let name = self.expr_name()?;
        if self.at_kind(TokenKind::LParen) {
            return self.call_after_name(name, start);
        }
        Ok(Expr {
            span: name.span,
            kind: ExprKind::Identifier(name),
        })
    }

    /// A dotted name in an expression; stops before `.*`.
    fn expr_name(&mut self) -> PResult<ObjectName> {
        let start = self.start();
        let mut parts = vec![self.ident("an expression")?];
        while self.at_kind(TokenKind::Dot) && self.nth(1).kind != TokenKind::Star {
            self.bump();
            parts.push(self.ident("a name after `.`")?);
        }
        self.check_dollar_compound(&parts);
        Ok(ObjectName {
            parts,
            span: self.finish(start),
        })
    }

    /// Expressions that start with a keyword; `None` when the word is a plain name.
    fn keyword_primary(&mut self, tok: crate::syntax::Token) -> PResult<Option<Expr>> {
        let start = tok.span.start;
        let next = self.nth(1);
        let literal = |kind, span| {
            Ok(Some(Expr {
                kind: ExprKind::Literal(kind),
                span,
            }))
        };
        match tok.kw {
            Kw::TRUE | Kw::FALSE => {
                self.bump();
                literal(Literal::Boolean(tok.kw == Kw::TRUE), tok.span)
            }
            Kw::NULL => {
                self.bump();
                literal(Literal::Null, tok.span)
            }
            Kw::UNKNOWN => {
                self.bump();
                literal(Literal::Unknown, tok.span)
            }
            Kw::DEFAULT if next.kind != TokenKind::LParen => {
                self.bump();
                Ok(Some(Expr {
                    kind: ExprKind::Default,
                    span: tok.span,
                }))
            }
            Kw::DATE | Kw::TIME | Kw::TIMESTAMP | Kw::TIMESTAMP_LTZ if next.kind.is_string() => {
                self.bump();
                let value = self.string_lit("a literal")?;
                let span = self.finish(start);
                literal(
                    Literal::Typed {
                        type_name: tok.kw.as_str().into(),
                        value,
                    },
                    span,
                )
            }
            Kw::TIMESTAMP if next.kw == Kw::WITH && self.nth(2).kw == Kw::LOCAL => {
                self.bump();
                self.bump();
                self.bump();
                self.expect(Kw::TIME)?;
                self.expect(Kw::ZONE)?;
                let value = self.string_lit("a timestamp string")?;
                let span = self.finish(start);
                literal(
                    Literal::Typed {
                        type_name: "TIMESTAMP WITH LOCAL TIME ZONE".into(),
                        value,
                    },
                    span,
                )
            }
            Kw::INTERVAL => {
                self.bump();
                let mut negative = false;
                if self.at_kind(TokenKind::Minus) {
                    self.bump();
                    negative = true;
                } else if self.at_kind(TokenKind::Plus) {
                    self.bump();
                }
                let value = if self.at_string() {
                    self.string_lit("an interval value in quotes")?
                } else if matches!(self.kind(), TokenKind::Integer | TokenKind::Decimal) {
                    // Calcite 1.36 also accepts `INTERVAL 5 SECOND`.
                    let t = self.bump();
                    StringLit {
                        value: self.text_of(t).into(),
                        span: t.span,
                    }
                } else {
                    return Err(self.expected("an interval value such as '5'"));
                };
                let qualifier = self.interval_qualifier()?;
                let span = self.finish(start);
                literal(
                    Literal::Interval {
                        negative,
                        value,
                        qualifier: Box::new(qualifier),
                    },
                    span,
                )
            }
            Kw::CASE => Ok(Some(self.case_expr()?)),
            Kw::CAST | Kw::TRY_CAST if next.kind == TokenKind::LParen => {
                self.bump();
                self.bump();
                let expr = self.expr()?;
                self.expect(Kw::AS)?;
                let data_type = self.data_type()?;
                if data_type.nullability != Nullability::Unspecified {
                    self.note_error(
                        SyntaxErrorKind::Unexpected,
                        "CAST does not accept NULL / NOT NULL on the target type".to_string(),
                        data_type.span,
                        Some("cast to the type alone; use COALESCE to replace NULLs".to_string()),
                    );
                }
                self.expect_kind(TokenKind::RParen, "`)`")?;
                let span = self.finish(start);
                Ok(Some(Expr {
                    kind: ExprKind::Cast {
                        expr: Box::new(expr),
                        data_type: Box::new(data_type),
                        try_cast: tok.kw == Kw::TRY_CAST,
                    },
                    span,
                }))
            }
            Kw::EXISTS if next.kind == TokenKind::LParen => {
                self.bump();
                self.bump();
                let query = Box::new(self.query()?);
                self.expect_kind(TokenKind::RParen, "`)`")?;
                Ok(Some(Expr {
                    kind: ExprKind::Exists(query),
                    span: self.finish(start),
                }))
            }
            Kw::ARRAY | Kw::MAP | Kw::MULTISET if next.kind == TokenKind::LBracket => {
                self.bump();
                self.bump();
                let items = self.expr_list(TokenKind::RBracket)?;
                self.expect_kind(TokenKind::RBracket, "`,` or `]`")?;
                let span = self.finish(start);
                let kind = match tok.kw {
                    Kw::ARRAY => ExprKind::Array(items),
                    Kw::MAP => ExprKind::Map(items),
                    _ => ExprKind::Multiset(items),
                };
                Ok(Some(Expr { kind, span }))
            }
            Kw::ARRAY | Kw::MAP | Kw::MULTISET
                if next.kind == TokenKind::LParen && self.query_ahead(2) =>
            {
                self.bump();
                self.bump();
                let query = Box::new(self.query()?);
                self.expect_kind(TokenKind::RParen, "`)`")?;
                let span = self.finish(start);
                let kind = match tok.kw {
                    Kw::ARRAY => ExprKind::ArrayQuery(query),
                    Kw::MAP => ExprKind::MapQuery(query),
                    _ => ExprKind::Multiset(Vec::new()),
                };
                Ok(Some(Expr { kind, span }))
            }
            Kw::ROW if next.kind == TokenKind::LParen => {
                self.bump();
                self.bump();
                let items = self.expr_list(TokenKind::RParen)?;
                self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
                Ok(Some(Expr {
                    kind: ExprKind::Row(items),
                    span: self.finish(start),
                }))
            }
            Kw::DESCRIPTOR if next.kind == TokenKind::LParen => {
                self.bump();
                self.bump();
                let mut cols = vec![self.ident("a column name")?];
                while self.eat_kind(TokenKind::Comma).is_some() {
                    cols.push(self.ident("a column name")?);
                }
                self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
                Ok(Some(Expr {
                    kind: ExprKind::Descriptor(cols),
                    span: self.finish(start),
                }))
            }
            Kw::RUNNING | Kw::FINAL if next.kind == TokenKind::Word => {
                // MATCH_RECOGNIZE semantics prefix: `FINAL LAST(A.x)`.
                self.bump();
                let inner = self.expr_bp(UNARY_PREC)?;
                Ok(Some(Expr {
                    kind: inner.kind,
                    span: self.finish(start),
                }))
            }
            kw if kw.is_bare_function() && next.kind != TokenKind::LParen => {
                self.bump();
                Ok(Some(Expr {
                    kind: ExprKind::NiladicFunction(kw.as_str().into()),
                    span: tok.span,
                }))
            }
            Kw::LOCALTIME | Kw::LOCALTIMESTAMP if next.kind != TokenKind::LParen => {
                self.bump();
                Ok(Some(Expr {
                    kind: ExprKind::NiladicFunction(tok.kw.as_str().into()),
                    span: tok.span,
                }))
            }
            kw if kw.is_reserved() && next.kind == TokenKind::LParen => {
                // Reserved function names: LEFT(...), YEAR(...), COUNT(...), ...
                self.bump();
                let name = ObjectName {
                    parts: vec![Ident {
                        text: CompactString::from(kw.as_str()),
                        quoted: false,
                        span: tok.span,
                    }],
                    span: tok.span,
                };
                Ok(Some(self.call_after_name(name, start)?))
            }
            _ => Ok(None),
        }
    }

    /// `( expr )`, `( a, b )` (row), `( query )`, or `()` (empty grouping set).
    fn parenthesized(&mut self) -> PResult<Expr> {
        let saved = std::mem::replace(&mut self.no_in_operator, false);
        let result = self.parenthesized_inner();
        self.no_in_operator = saved;
        result
    }

    fn parenthesized_inner(&mut self) -> PResult<Expr> {
        let start = self.start();
        if self.query_ahead(1) {
            // A scalar subquery, unless it is `(SELECT ...) UNION ...` etc.; query() handles both.
            self.bump();
            let query = Box::new(self.query()?);
            self.expect_kind(TokenKind::RParen, "`)`")?;
            return Ok(Expr {
                kind: ExprKind::Subquery(query),
                span: self.finish(start),
            });
        }
        self.bump();
        if self.eat_kind(TokenKind::RParen).is_some() {
            return Ok(Expr {
                kind: ExprKind::Row(Vec::new()),
                span: self.finish(start),
            });
        }
        let first = self.expr()?;
        if self.at_kind(TokenKind::Comma) {
            let mut items = vec![first];
            while self.eat_kind(TokenKind::Comma).is_some() {
                items.push(self.expr()?);
            }
            self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
            let span = self.finish(start);
            if self.at_kind(TokenKind::Arrow) {
                return self.lambda_from_params(items, start);
            }
            return Ok(Expr {
                kind: ExprKind::Row(items),
                span,
            });
        }
        self.expect_kind(TokenKind::RParen, "`)`")?;
        if self.at_kind(TokenKind::Arrow) {
            return self.lambda_from_params(vec![first], start);
        }
        Ok(Expr {
            kind: ExprKind::Nested(Box::new(first)),
            span: self.finish(start),
        })
    }

    fn lambda_from_params(&mut self, items: Vec<Expr>, start: u32) -> PResult<Expr> {
        self.bump();
        let mut params = Vec::new();
        for item in items {
            if let ExprKind::Identifier(name) = item.kind {
                params.extend(name.parts);
            }
        }
        let body = self.expr()?;
        Ok(Expr {
            kind: ExprKind::Lambda {
                params,
                body: Box::new(body),
            },
            span: self.finish(start),
        })
    }

    /// `CASE [operand] WHEN ... THEN ... [ELSE ...] END`.
    fn case_expr(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.expect(Kw::CASE)?;
        let operand = if self.at(Kw::WHEN) {
            None
        } else {
            Some(Box::new(self.expr()?))
        };
        let mut whens = Vec::new();
        while self.eat(Kw::WHEN).is_some() {
            let mut cond = self.expr()?;
            // Simple CASE may list several values: WHEN 1, 2 THEN ...
            while self.eat_kind(TokenKind::Comma).is_some() {
                let more = self.expr()?;
                let span = cond.span.cover(more.span);
                cond = binary(BinaryOp::Or, cond, more, span);
            }
            self.expect(Kw::THEN)?;
            let result = self.expr()?;
            whens.push((cond, result));
        }
        if whens.is_empty() {
            return Err(self.expected("`WHEN`"));
        }
        let else_result = if self.eat(Kw::ELSE).is_some() {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        self.expect(Kw::END)?;
        Ok(Expr {
            kind: ExprKind::Case {
                operand,
                whens,
                else_result,
            },
            span: self.finish(start),
        })
    }

    /// The argument list and trailing clauses of a call whose name was just parsed.
    pub(crate) fn call_after_name(&mut self, name: ObjectName, start: u32) -> PResult<Expr> {
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut call = FunctionCall {
            name,
            args: Vec::new(),
            distinct: false,
            star: false,
            filter: None,
            over: None,
        };
        if self.eat(Kw::DISTINCT).is_some() {
            call.distinct = true;
        } else if self.at(Kw::ALL)
            && !matches!(self.nth(1).kind, TokenKind::RParen | TokenKind::Comma)
        {
            self.bump();
        }
        if self.at_kind(TokenKind::Star) && self.nth(1).kind == TokenKind::RParen {
            self.bump();
            call.star = true;
        } else if !self.at_kind(TokenKind::RParen) {
            let position = call.name.parts.len() == 1
                && call.name.last().text.eq_ignore_ascii_case("POSITION");
            let saved = std::mem::replace(&mut self.no_in_operator, position);
            // TIMESTAMPADD(WEEK, ...), TIMESTAMPDIFF(EPOCH, ...): the first argument is a time
            // unit even where the unit is a non-reserved word (elsewhere `epoch` is a column).
            let unit_first = call.name.parts.len() == 1
                && ["TIMESTAMPADD", "TIMESTAMPDIFF"]
                    .iter()
                    .any(|f| call.name.last().text.eq_ignore_ascii_case(f));
            let result = self.call_args(&mut call.args, unit_first);
            self.no_in_operator = saved;
            result?;
        }
        self.expect_kind(TokenKind::RParen, "`,` or `)` after the function arguments")?;
        self.check_json_object_args(&call);
        // Trailing clauses.
        if self.at(Kw::WITHIN) && self.nth_at(1, Kw::GROUP) {
            self.bump();
            self.bump();
            self.expect_kind(TokenKind::LParen, "`(`")?;
            self.expect(Kw::ORDER)?;
            self.expect(Kw::BY)?;
            self.order_items()?;
            self.expect_kind(TokenKind::RParen, "`)`")?;
        }
        if self.at(Kw::FILTER) && self.nth(1).kind == TokenKind::LParen {
            self.bump();
            self.bump();
            self.expect(Kw::WHERE)?;
            call.filter = Some(Box::new(self.expr()?));
            self.expect_kind(TokenKind::RParen, "`)`")?;
        }
        if matches!(self.kw(), Kw::RESPECT | Kw::IGNORE) && self.nth_at(1, Kw::NULLS) {
            self.bump();
            self.bump();
        }
        if self.eat(Kw::OVER).is_some() {
            call.over = Some(if self.at_kind(TokenKind::LParen) {
                Over::Spec(self.window_spec()?)
            } else {
                Over::Named(self.ident("a window name or `(`")?)
            });
        }
        Ok(Expr {
            kind: ExprKind::Function(Box::new(call)),
            span: self.finish(start),
        })
    }

    /// `JSON_OBJECT` / `JSON_OBJECTAGG` take `[KEY] k VALUE v` (or `k : v`) pairs.
    fn check_json_object_args(&mut self, call: &FunctionCall) {
        let name = call.name.last().text.to_ascii_uppercase();
        if call.name.parts.len() != 1 || (name != "JSON_OBJECT" && name != "JSON_OBJECTAGG") {
            return;
        }
        let args: Vec<&FunctionArg> = call
            .args
            .iter()
            .filter(|a| !matches!(&a.value.kind, ExprKind::Keyword(k) if k == "KEY"))
            .collect();
        let mut i = 0;
        while i < args.len() {
            let is_value = |a: &FunctionArg| matches!(a.keyword.as_deref(), Some("VALUE" | ":"));
            if is_value(args[i]) || !args.get(i + 1).is_some_and(|a| is_value(a)) {
                let span = args[i].value.span;
                self.note_error(
                    SyntaxErrorKind::Unexpected,
                    format!("{name} takes key-value pairs: KEY 'k' VALUE v"),
                    span,
                    Some(format!("write {name}(KEY 'name' VALUE expr, ...)")),
                );
                return;
            }
            i += 2;
        }
    }

    /// Arguments, including the keyword-separated forms of the special functions.
    fn call_args(&mut self, args: &mut Vec<FunctionArg>, unit_first: bool) -> PResult<()> {
        let mut keyword: Option<compact_str::CompactString> = None;
        loop {
            // Leading flag words: TRIM(BOTH ...), JSON_OBJECT(KEY ...).
            while matches!(self.kw(), Kw::BOTH | Kw::LEADING | Kw::TRAILING | Kw::KEY)
                && !matches!(self.nth(1).kind, TokenKind::Comma | TokenKind::RParen)
            {
                let t = self.bump();
                args.push(FunctionArg {
                    name: None,
                    keyword: None,
                    value: Expr {
                        kind: ExprKind::Keyword(t.kw.as_str().into()),
                        span: t.span,
                    },
                });
            }
            if matches!(self.kw(), Kw::FROM) && keyword.is_none() {
                // TRIM(FROM s), TRIM(BOTH FROM s)
                self.bump();
                keyword = Some("FROM".into());
            }
            let arg_start = self.start();
            let name = if self.nth(1).kind == TokenKind::FatArrow && self.at_name() {
                let n = self.ident("an argument name")?;
                self.bump();
                Some(n)
            } else {
                None
            };
            let value = if self.at(Kw::TABLE) && self.nth(1).kind != TokenKind::LParen {
                self.table_arg()?
            } else if self.at(Kw::MODEL)
                && matches!(self.nth(1).kind, TokenKind::Word | TokenKind::QuotedIdent)
            {
                let m_start = self.start();
                self.bump();
                let model = self.object_name("a model name")?;
                Expr {
                    kind: ExprKind::TableArg(model),
                    span: self.finish(m_start),
                }
            } else if matches!(self.kw(), Kw::SELECT | Kw::WITH | Kw::VALUES) {
                let q_start = self.start();
                let query = Box::new(self.query()?);
                Expr {
                    kind: ExprKind::Subquery(query),
                    span: self.finish(q_start),
                }
            } else if self.at_time_unit()
                && matches!(self.nth(1).kind, TokenKind::Comma | TokenKind::RParen)
                && (self.kw().is_reserved() || unit_first && args.is_empty())
                || self.at_time_unit() && self.nth_at(1, Kw::FROM)
            {
                let t = self.bump();
                let unit = time_unit(t.kw).unwrap_or("WEEK").to_string();
                Expr {
                    kind: ExprKind::TimeUnit(unit.into()),
                    span: t.span,
                }
            } else {
                self.expr()?
            };
            let _ = arg_start;
            args.push(FunctionArg {
                name,
                keyword: keyword.take(),
                value,
            });
            self.arg_modifiers()?;
            // Separator: comma or a keyword of the special forms.
            let sep = self.current();
            match (sep.kind, sep.kw) {
                (TokenKind::Comma, _) => {
                    self.bump();
                }
                (TokenKind::Colon, _) => {
                    self.bump();
                    keyword = Some(":".into());
                }
                (
                    _,
                    Kw::FROM | Kw::FOR | Kw::IN | Kw::PLACING | Kw::VALUE | Kw::AS | Kw::SEPARATOR,
                ) => {
                    self.bump();
                    keyword = Some(sep.kw.as_str().into());
                    if sep.kw == Kw::AS {
                        // CAST-like: `f(x AS type)`.
                        let t_start = self.start();
                        let data_type = self.data_type()?;
                        let _ = data_type;
                        args.push(FunctionArg {
                            name: None,
                            keyword: keyword.take(),
                            value: Expr {
                                kind: ExprKind::Keyword("TYPE".into()),
                                span: self.finish(t_start),
                            },
                        });
                        self.arg_modifiers()?;
                        if self.eat_kind(TokenKind::Comma).is_none() {
                            return Ok(());
                        }
                    }
                }
                (_, Kw::TO) => {
                    // FLOOR(x TO unit), CEIL(x TO unit)
                    self.bump();
                    let t = self.current();
                    let Some(unit) = time_unit(t.kw) else {
                        return Err(self.expected("a time unit"));
                    };
                    self.bump();
                    args.push(FunctionArg {
                        name: None,
                        keyword: Some("TO".into()),
                        value: Expr {
                            kind: ExprKind::TimeUnit(unit.into()),
                            span: t.span,
                        },
                    });
                    return Ok(());
                }
                (_, Kw::ORDER) if self.nth_at(1, Kw::BY) => {
                    // JSON_ARRAYAGG(x ORDER BY y), LISTAGG(x ORDER BY y)
                    self.bump();
                    self.bump();
                    self.order_items()?;
                    self.arg_modifiers()?;
                    return Ok(());
                }
                _ => return Ok(()),
            }
        }
    }

    /// Trailing argument clauses of the JSON functions: `RETURNING type`, `... ON EMPTY`,
    /// `... ON ERROR`, `NULL ON NULL`, `ABSENT ON NULL`, `WITH [..] WRAPPER`, `FORMAT JSON`.
    fn arg_modifiers(&mut self) -> PResult<()> {
        loop {
            match self.kw() {
                Kw::RESPECT | Kw::IGNORE if self.nth_at(1, Kw::NULLS) => {
                    self.bump();
                    self.bump();
                }
                Kw::RETURNING => {
                    self.bump();
                    self.data_type()?;
                }
                Kw::FORMAT => {
                    self.bump();
                    self.expect(Kw::JSON)?;
                }
                Kw::NULL | Kw::ERROR | Kw::ABSENT | Kw::TRUE | Kw::FALSE | Kw::UNKNOWN
                    if self.nth_at(1, Kw::ON) =>
                {
                    self.bump();
                    self.on_clause_tail()?;
                }
                Kw::EMPTY if matches!(self.nth(1).kw, Kw::ARRAY | Kw::OBJECT | Kw::ON) => {
                    self.bump();
                    if matches!(self.kw(), Kw::ARRAY | Kw::OBJECT) {
                        self.bump();
                    }
                    self.on_clause_tail()?;
                }
                Kw::DEFAULT => {
                    self.bump();
                    self.expr_bp(CMP_PREC)?;
                    self.on_clause_tail()?;
                }
                Kw::WITH | Kw::WITHOUT
                    if matches!(
                        self.nth(1).kw,
                        Kw::CONDITIONAL | Kw::UNCONDITIONAL | Kw::ARRAY | Kw::WRAPPER
                    ) =>
                {
                    self.bump();
                    if matches!(self.kw(), Kw::CONDITIONAL | Kw::UNCONDITIONAL) {
                        self.bump();
                    }
                    self.eat(Kw::ARRAY);
                    self.expect(Kw::WRAPPER)?;
                }
                _ => return Ok(()),
            }
        }
    }

    fn on_clause_tail(&mut self) -> PResult<()> {
        self.expect(Kw::ON)?;
        match self.kw() {
            Kw::EMPTY | Kw::ERROR | Kw::NULL => {
                self.bump();
                Ok(())
            }
            _ => Err(self.expected("`EMPTY`, `ERROR` or `NULL`")),
        }
    }

    /// `TABLE name [PARTITION BY ...] [ORDER BY ...]` as a table-function argument.
    fn table_arg(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.expect(Kw::TABLE)?;
        let name = self.object_name("a table name")?;
        if self.at(Kw::PARTITION) && self.nth_at(1, Kw::BY) {
            self.bump();
            self.bump();
            // One key, or a parenthesized list.
            self.expr()?;
        }
        if self.at(Kw::ORDER) && self.nth_at(1, Kw::BY) {
            self.bump();
            self.bump();
            if self.eat_kind(TokenKind::LParen).is_some() {
                self.order_items()?;
                self.expect_kind(TokenKind::RParen, "`)`")?;
            } else {
                self.order_item()?;
            }
        }
        Ok(Expr {
            kind: ExprKind::TableArg(name),
            span: self.finish(start),
        })
    }

    fn partition_exprs(&mut self) -> PResult<Vec<Expr>> {
        if self.at_kind(TokenKind::LParen) && !self.query_ahead(1) {
            // PARTITION BY (a, b)
            let e = self.expr()?;
            return Ok(match e.kind {
                ExprKind::Row(items) => items,
                _ => vec![e],
            });
        }
        let mut list = vec![self.expr()?];
        while self.eat_kind(TokenKind::Comma).is_some() {
            list.push(self.expr()?);
        }
        Ok(list)
    }

    /// `expr [ASC|DESC] [NULLS FIRST|LAST], ...`.
    pub(crate) fn order_items(&mut self) -> PResult<Vec<OrderItem>> {
        let mut items = Vec::new();
        loop {
            items.push(self.order_item()?);
            if self.eat_kind(TokenKind::Comma).is_none() {
                return Ok(items);
            }
        }
    }

    /// `expr [ASC|DESC] [NULLS FIRST|LAST]`.
    fn order_item(&mut self) -> PResult<OrderItem> {
        let start = self.start();
        let expr = self.expr()?;
        let mut descending = false;
        if self.eat(Kw::DESC).is_some() {
            descending = true;
        } else {
            self.eat(Kw::ASC);
        }
        if self.eat(Kw::NULLS).is_some() && self.eat(Kw::FIRST).is_none() {
            self.expect(Kw::LAST)?;
        }
        Ok(OrderItem {
            expr,
            descending,
            span: self.finish(start),
        })
    }

    /// `( [base] [PARTITION BY ...] [ORDER BY ...] [frame] )`.
    pub(crate) fn window_spec(&mut self) -> PResult<WindowSpec> {
        let start = self.start();
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let base = if self.at_optional_name()
            && !matches!(self.kw(), Kw::PARTITION | Kw::ORDER | Kw::ROWS | Kw::RANGE)
        {
            Some(self.ident("a window name")?)
        } else {
            None
        };
        let mut partition_by = Vec::new();
        if self.at(Kw::PARTITION) {
            self.bump();
            self.expect(Kw::BY)?;
            partition_by = self.partition_exprs()?;
        }
        let mut order_by = Vec::new();
        if self.at(Kw::ORDER) {
            self.bump();
            self.expect(Kw::BY)?;
            order_by = self.order_items()?;
        }
        let mut frame = None;
        if matches!(self.kw(), Kw::ROWS | Kw::RANGE) {
            let f_start = self.start();
            self.bump();
            if self.eat(Kw::BETWEEN).is_some() {
                self.frame_bound()?;
                self.expect(Kw::AND)?;
                self.frame_bound()?;
            } else {
                self.frame_bound()?;
            }
            if self.eat(Kw::EXCLUDE).is_some() {
                match self.kw() {
                    Kw::CURRENT => {
                        self.bump();
                        self.expect(Kw::ROW)?;
                    }
                    Kw::GROUP | Kw::TIES => {
                        self.bump();
                    }
                    Kw::NO => {
                        self.bump();
                        self.expect(Kw::OTHERS)?;
                    }
                    _ => return Err(self.expected("`CURRENT ROW`, `GROUP`, `TIES` or `NO OTHERS`")),
                }
            }
            frame = Some(self.finish(f_start));
        }
        if matches!(self.kw(), Kw::ALLOW | Kw::DISALLOW) {
            self.bump();
            self.expect(Kw::PARTIAL)?;
        }
        self.expect_kind(TokenKind::RParen, "`)` to close the window")?;
        Ok(WindowSpec {
            base,
            partition_by,
            order_by,
            frame,
            span: self.finish(start),
        })
    }

    fn frame_bound(&mut self) -> PResult<()> {
        if self.eat(Kw::UNBOUNDED).is_some() {
            if self.eat(Kw::PRECEDING).is_none() {
                self.expect(Kw::FOLLOWING)?;
            }
            return Ok(());
        }
        if self.eat(Kw::CURRENT).is_some() {
            self.expect(Kw::ROW)?;
            return Ok(());
        }
        self.expr_bp(CMP_PREC)?;
        if self.eat(Kw::PRECEDING).is_none() {
            self.expect(Kw::FOLLOWING)?;
        }
        Ok(())
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

impl Parser<'_> {
    /// Whether the current token follows a comparison, `LIKE`, or `IN (` / a string literal
    /// and a comma: where a quoted operand is most likely a value.
    fn after_value_operator(&self) -> bool {
        match self.behind(1) {
            Some((
                TokenKind::Eq
                | TokenKind::NotEq
                | TokenKind::BangEq
                | TokenKind::Lt
                | TokenKind::LtEq
                | TokenKind::Gt
                | TokenKind::GtEq,
                _,
            )) => true,
            Some((_, Kw::LIKE)) => true,
            Some((TokenKind::LParen, _)) => matches!(self.behind(2), Some((_, Kw::IN))),
            Some((TokenKind::Comma, _)) => {
                matches!(self.behind(2), Some((k, _)) if k.is_string())
            }
            _ => false,
        }
    }
}

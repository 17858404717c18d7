//! Primaries: number and string literals (with the quote-usage notes for double-quoted
//! words), `?` parameters, `*`, JDBC `{fn ...}` escapes, names and function calls by name,
//! lambdas, and parenthesized forms (nested expressions, rows, scalar subqueries).

use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::{QuoteUsage, SyntaxErrorKind};

impl Parser<'_> {
    pub(super) fn primary(&mut self) -> PResult<Expr> {
        // The token and the next one, read once: a name needs both (a keyword form, a lambda).
        let (tok, next) = self.current_and_next();
        let start = tok.span.start;
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
                ) && next.kind == TokenKind::Dot
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
        let mut next = next;
        // A word that is no keyword (most names) starts no keyword form.
        if tok.kind == TokenKind::Word && tok.kw != Kw::NONE {
            if let Some(expr) = self.keyword_primary(tok)? {
                return Ok(expr);
            }
            next = self.nth(1);
        }
        // Lambda `x -> body`.
        if next.kind == TokenKind::Arrow && tok.kind == TokenKind::Word && !tok.kw.is_reserved() {
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
        let first = self.ident("an expression")?;
        // The name starts where its first part does (the current token's start).
        let start = first.span.start;
        let (dot, after) = self.current_and_next();
        if dot.kind != TokenKind::Dot || after.kind == TokenKind::Star {
            // Most names: one part, held inline.
            return Ok(ObjectName {
                span: first.span,
                parts: NameParts::one(first),
            });
        }
        let mut parts = Vec::with_capacity(self.name_parts_ahead());
        parts.push(first);
        loop {
            let (dot, after) = self.current_and_next();
            if dot.kind != TokenKind::Dot || after.kind == TokenKind::Star {
                break;
            }
            self.bump();
            parts.push(self.ident("a name after `.`")?);
        }
        self.check_dollar_compound(&parts);
        Ok(ObjectName {
            parts: parts.into(),
            span: self.finish(start),
        })
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

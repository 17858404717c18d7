//! Primaries that start with a keyword: boolean, NULL and UNKNOWN literals, typed literals
//! (`DATE '...'`, `TIMESTAMP WITH LOCAL TIME ZONE '...'`), `INTERVAL`, `CASE`, `CAST` /
//! `TRY_CAST`, `EXISTS`, the constructors (`ARRAY`, `MAP`, `MULTISET`, `ROW`), `DESCRIPTOR`,
//! niladic functions and calls of reserved function names.

use super::{binary, UNARY_PREC};
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::Recover;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::{FlinkSyntax, SyntaxErrorKind};
use compact_str::CompactString;

impl Parser<'_> {
    /// Expressions that start with a keyword; `None` when the word is a plain name.
    pub(super) fn keyword_primary(&mut self, tok: crate::syntax::Token) -> PResult<Option<Expr>> {
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
                let mut cols = vec![self.descriptor_column()?];
                while self.eat_kind(TokenKind::Comma).is_some() {
                    cols.push(self.descriptor_column()?);
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
            kw if kw != Kw::USER
                && next.kind == TokenKind::LParen
                && context_variable_as_name(kw) =>
            {
                // `CURRENT_USER()`: Calcite's grammar reads the context variable without
                // parentheses and stops at `(` (`USER()` parses, as a function call).
                self.bump();
                let paren = self.current().span;
                let name = kw.as_str();
                let before = self.error_count();
                self.note_error(
                    SyntaxErrorKind::Unexpected,
                    format!("`{name}` is a context variable, not a function: it takes no `()`"),
                    paren,
                    Some(format!(
                        "Flink 2.3 has no `{name}` function; without `()` the word is read as a column name"
                    )),
                );
                self.set_flink(
                    before,
                    FlinkSyntax::Encountered {
                        at: paren,
                        expected: Vec::new(),
                    },
                );
                Err(Recover)
            }
            kw if kw.is_bare_function()
                && next.kind != TokenKind::LParen
                && context_variable_as_name(kw) =>
            {
                // Calcite parses these SQL-standard context variables, but Flink 2.3's
                // operator table has none of them: its validator resolves the name as a
                // column (`SELECT USER FROM t` reads a column `USER`, else "Column 'USER' not
                // found in any table"). The written text is the name, as for any identifier.
                self.bump();
                let ident = Ident {
                    text: CompactString::from(self.text_of(tok)),
                    quoted: false,
                    span: tok.span,
                };
                Ok(Some(Expr {
                    kind: ExprKind::Identifier(ObjectName {
                        parts: NameParts::one(ident),
                        span: tok.span,
                    }),
                    span: tok.span,
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
                    parts: NameParts::one(Ident {
                        text: CompactString::from(kw.as_str()),
                        quoted: false,
                        span: tok.span,
                    }),
                    span: tok.span,
                };
                Ok(Some(self.call_after_name(name, start)?))
            }
            _ => Ok(None),
        }
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
}

impl Parser<'_> {
    /// A column of `DESCRIPTOR(...)`. Flink parses its arguments as expressions and takes each
    /// identifier for a column: a context variable or a niladic date-time function written
    /// bare (`CURRENT_DATE`, `USER`) is an identifier there, its text as written (verified
    /// with Flink 2.3.0).
    fn descriptor_column(&mut self) -> PResult<Ident> {
        let tok = self.current();
        let niladic = matches!(
            tok.kw,
            Kw::CURRENT_DATE
                | Kw::CURRENT_TIME
                | Kw::CURRENT_TIMESTAMP
                | Kw::LOCALTIME
                | Kw::LOCALTIMESTAMP
        );
        if tok.kind == TokenKind::Word
            && (niladic || context_variable_as_name(tok.kw))
            && self.nth(1).kind != TokenKind::LParen
        {
            self.bump();
            return Ok(Ident {
                text: self.text_of(tok).into(),
                quoted: false,
                span: tok.span,
            });
        }
        self.ident("a column name")
    }
}

/// Whether `kw` is one of the SQL-standard context variables (`USER`, `CURRENT_USER`,
/// `CURRENT_CATALOG`, ...) that Flink 2.3's validator reads as a name, not as a function
/// (`FlinkSqlOperatorTable` has no operator for them; verified with Flink 2.3.0).
fn context_variable_as_name(kw: Kw) -> bool {
    matches!(
        kw,
        Kw::USER
            | Kw::CURRENT_USER
            | Kw::SESSION_USER
            | Kw::SYSTEM_USER
            | Kw::CURRENT_ROLE
            | Kw::CURRENT_PATH
            | Kw::CURRENT_CATALOG
            | Kw::CURRENT_SCHEMA
            | Kw::CURRENT_DEFAULT_TRANSFORM_GROUP
    )
}

//! The FROM clause: comma-separated references with joins, and the table primaries (named
//! tables with hints, FOR SYSTEM_TIME AS OF, PIVOT, TABLESAMPLE; LATERAL, `TABLE(...)` table
//! functions and window TVFs, subqueries, parenthesized joins, UNNEST), with their aliases.

use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::{Suggestion, SyntaxErrorKind};

impl Parser<'_> {
    /// `[AS] name [(col, ...)]` after a table reference.
    pub(super) fn opt_table_alias(&mut self) -> PResult<Option<TableAlias>> {
        let start = self.start();
        let name = if self.eat(Kw::AS).is_some() || self.at_optional_name() {
            self.ident("an alias")?
        } else {
            return Ok(None);
        };
        let mut columns = Vec::new();
        if self.at_kind(TokenKind::LParen) {
            columns = self.column_list()?.names;
        }
        Ok(Some(TableAlias {
            name,
            columns,
            span: self.finish(start),
        }))
    }

    /// `FROM` items: comma-separated references with joins.
    pub(super) fn table_refs(&mut self) -> PResult<TableRef> {
        let start = self.start();
        let mut left = self.joined_ref()?;
        while self.eat_kind(TokenKind::Comma).is_some() {
            let right = self.joined_ref()?;
            left = TableRef::Join {
                left: Box::new(left),
                right: Box::new(right),
                kind: JoinKind::Comma,
                on: None,
                using: None,
                span: self.finish(start),
            };
        }
        Ok(left)
    }

    fn joined_ref(&mut self) -> PResult<TableRef> {
        let start = self.start();
        let mut left = self.table_primary()?;
        loop {
            let natural = self.eat(Kw::NATURAL).is_some();
            let kind = match self.kw() {
                Kw::JOIN => JoinKind::Inner,
                Kw::INNER => {
                    self.bump();
                    JoinKind::Inner
                }
                Kw::LEFT => {
                    self.bump();
                    self.eat(Kw::OUTER);
                    JoinKind::Left
                }
                Kw::RIGHT => {
                    self.bump();
                    self.eat(Kw::OUTER);
                    JoinKind::Right
                }
                Kw::FULL => {
                    self.bump();
                    self.eat(Kw::OUTER);
                    JoinKind::Full
                }
                Kw::CROSS => {
                    self.bump();
                    JoinKind::Cross
                }
                _ if natural => return Err(self.expected("`JOIN`")),
                _ => break,
            };
            self.expect(Kw::JOIN)?;
            let right = self.table_primary()?;
            let mut on = None;
            let mut using = None;
            if self.eat(Kw::ON).is_some() {
                on = Some(Box::new(self.expr()?));
            } else if self.eat(Kw::USING).is_some() {
                using = Some(self.column_list()?);
            }
            left = TableRef::Join {
                left: Box::new(left),
                right: Box::new(right),
                kind,
                on,
                using,
                span: self.finish(start),
            };
        }
        Ok(left)
    }

    fn table_primary(&mut self) -> PResult<TableRef> {
        self.enter()?;
        let result = self.table_primary_inner();
        self.exit();
        result
    }

    fn table_primary_inner(&mut self) -> PResult<TableRef> {
        let start = self.start();
        let lateral = self.eat(Kw::LATERAL).is_some();
        let mut item = if self.at(Kw::TABLE) && self.nth(1).kind == TokenKind::LParen {
            self.bump();
            self.bump();
            let call = Box::new(self.expr()?);
            self.expect_kind(TokenKind::RParen, "`)`")?;
            let alias = self.opt_table_alias()?;
            TableRef::Function {
                lateral,
                call,
                alias,
                span: self.finish(start),
            }
        } else if self.at_kind(TokenKind::LParen) {
            if self.query_ahead(1) {
                self.bump();
                let query = Box::new(self.query()?);
                self.expect_kind(TokenKind::RParen, "`)`")?;
                let alias = self.opt_table_alias()?;
                TableRef::Subquery {
                    lateral,
                    query,
                    alias,
                    span: self.finish(start),
                }
            } else {
                self.bump();
                let inner = Box::new(self.table_refs()?);
                if !matches!(*inner, TableRef::Join { .. }) {
                    let span = inner.span();
                    self.note_error(
                        SyntaxErrorKind::Unexpected,
                        "Expected query or join: parentheses in FROM hold a subquery or a join"
                            .to_string(),
                        span,
                        Some("remove the parentheses, or write (SELECT * FROM ...)".to_string()),
                    );
                }
                self.expect_kind(TokenKind::RParen, "`)`")?;
                let alias = self.opt_table_alias()?;
                TableRef::Nested {
                    inner,
                    alias,
                    span: self.finish(start),
                }
            }
        } else if self.at(Kw::UNNEST) {
            self.bump();
            self.expect_kind(TokenKind::LParen, "`(`")?;
            let exprs = self.expr_list(TokenKind::RParen)?;
            self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
            let with_ordinality = if self.at(Kw::WITH) && self.nth_at(1, Kw::ORDINALITY) {
                self.bump();
                self.bump();
                true
            } else {
                false
            };
            let alias = self.opt_table_alias()?;
            TableRef::Unnest {
                exprs,
                with_ordinality,
                alias,
                span: self.finish(start),
            }
        } else {
            let name = self.object_name("a table name")?;
            if self.at_kind(TokenKind::LParen) {
                // A table function called without TABLE(...) (Flink 2.x PTF call syntax).
                let call = Box::new(self.call_after_name(name, start)?);
                let alias = self.opt_table_alias()?;
                TableRef::Function {
                    lateral,
                    call,
                    alias,
                    span: self.finish(start),
                }
            } else {
                let hints = self.hints();
                let mut system_time = None;
                if self.at(Kw::FOR) && self.nth_at(1, Kw::SYSTEM_TIME) {
                    self.bump();
                    self.bump();
                    self.expect(Kw::AS)?;
                    self.expect(Kw::OF)?;
                    system_time = Some(Box::new(self.expr()?));
                } else if self.at(Kw::AS) && self.nth_at(1, Kw::OF) {
                    // `t AS OF time`: a temporal table without `FOR SYSTEM_TIME` (Flink's
                    // parser stops at `OF`, a reserved word where it reads an alias).
                    let at = self.current().span;
                    let of = self.nth(1).span;
                    self.note_error_in_step(
                        SyntaxErrorKind::Unexpected,
                        "`AS OF` without `FOR SYSTEM_TIME`: a temporal table is read with \
                         `FOR SYSTEM_TIME AS OF <time>`"
                            .to_string(),
                        at.cover(of),
                        Some("write `FOR SYSTEM_TIME AS OF`".to_string()),
                        Some(Suggestion {
                            title: "Insert `FOR SYSTEM_TIME`".to_string(),
                            span: Span::empty(at.start),
                            replacement: "FOR SYSTEM_TIME ".to_string(),
                        }),
                    );
                    self.bump();
                    self.bump();
                    system_time = Some(Box::new(self.expr()?));
                }
                if matches!(self.kw(), Kw::PIVOT | Kw::UNPIVOT) {
                    self.pivot()?;
                }
                let alias = self.opt_table_alias()?;
                if self.at(Kw::TABLESAMPLE) {
                    self.tablesample()?;
                }
                TableRef::Named {
                    name,
                    hints,
                    system_time,
                    alias,
                    span: self.finish(start),
                }
            }
        };
        if self.at(Kw::MATCH_RECOGNIZE) {
            item = self.match_recognize(item, start)?;
        }
        Ok(item)
    }

    /// `PIVOT (...)` / `UNPIVOT [INCLUDE|EXCLUDE NULLS] (...)`, checked for balance only.
    fn pivot(&mut self) -> PResult<()> {
        if self.bump().kw == Kw::UNPIVOT && matches!(self.kw(), Kw::INCLUDE | Kw::EXCLUDE) {
            self.bump();
            self.expect(Kw::NULLS)?;
        }
        self.balanced_parens()
    }

    /// `TABLESAMPLE BERNOULLI|SYSTEM (pct) [REPEATABLE (n)]` or `TABLESAMPLE SUBSTITUTE ('x')`.
    fn tablesample(&mut self) -> PResult<()> {
        self.expect(Kw::TABLESAMPLE)?;
        match self.kw() {
            Kw::BERNOULLI | Kw::SYSTEM | Kw::SUBSTITUTE => {
                self.bump();
            }
            _ => return Err(self.expected("`BERNOULLI`, `SYSTEM` or `SUBSTITUTE`")),
        }
        self.balanced_parens()?;
        if self.eat(Kw::REPEATABLE).is_some() {
            self.balanced_parens()?;
        }
        Ok(())
    }

    /// Consumes `( ... )` with balanced parentheses.
    pub(in crate::syntax::grammar) fn balanced_parens(&mut self) -> PResult<()> {
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut depth = 1;
        while depth > 0 {
            match self.kind() {
                TokenKind::Eof | TokenKind::Semicolon => return Err(self.expected("`)`")),
                TokenKind::LParen => depth += 1,
                TokenKind::RParen => depth -= 1,
                _ => {}
            }
            self.bump();
        }
        Ok(())
    }
}

//! INSERT / UPSERT and statement sets.

use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};

impl Parser<'_> {
    /// `INSERT INTO | INSERT OVERWRITE | UPSERT INTO table [hint] [PARTITION (...)] [(cols)]
    /// query [ON CONFLICT DO ...]`.
    pub(super) fn insert_statement(&mut self) -> PResult<StatementKind> {
        let mut overwrite = false;
        let upsert = self.eat(Kw::UPSERT).is_some();
        if upsert {
            self.expect(Kw::INTO)?;
        } else {
            self.expect(Kw::INSERT)?;
            if self.eat(Kw::OVERWRITE).is_some() {
                overwrite = true;
            } else {
                self.expect(Kw::INTO)?;
            }
        }
        let table = self.object_name("the sink table name")?;
        self.hints();
        if self.at_kind(TokenKind::LParen)
            && matches!(self.nth(1).kind, TokenKind::Word | TokenKind::QuotedIdent)
            && !matches!(self.nth(2).kind, TokenKind::Comma | TokenKind::RParen)
            && !self.query_ahead(1)
        {
            // Calcite's extended columns: INSERT INTO t (extra_col TYPE) ...
            self.table_elements()?;
        }
        let partition = if self.at(Kw::PARTITION) {
            Some(self.partition_spec()?)
        } else {
            None
        };
        let columns = if self.at_kind(TokenKind::LParen) && !self.query_ahead(1) {
            Some(self.column_list()?)
        } else {
            None
        };
        let query = std::sync::Arc::new(self.query()?);
        let mut on_conflict = None;
        if self.at(Kw::ON) && self.nth_at(1, Kw::CONFLICT) {
            let start = self.bump().span.start;
            self.bump();
            self.expect(Kw::DO)?;
            let behavior = match self.kw() {
                Kw::ERROR => ConflictBehavior::Error,
                Kw::NOTHING => ConflictBehavior::Nothing,
                Kw::DEDUPLICATE => ConflictBehavior::Deduplicate,
                _ => return Err(self.expected("`ERROR`, `NOTHING` or `DEDUPLICATE`")),
            };
            let end = self.bump().span.end;
            on_conflict = Some(OnConflict {
                behavior,
                span: crate::source::Span { start, end },
            });
        }
        Ok(StatementKind::Insert(Box::new(Insert {
            overwrite,
            upsert,
            table,
            partition,
            columns,
            query,
            on_conflict,
        })))
    }

    /// Whether the token `n` ahead starts a query (after a `(`).
    pub(crate) fn query_ahead(&mut self, n: usize) -> bool {
        let mut n = n;
        while self.nth(n).kind == TokenKind::LParen {
            n += 1;
        }
        matches!(
            self.nth(n).kw,
            Kw::SELECT | Kw::WITH | Kw::VALUES | Kw::TABLE
        )
    }

    /// `STATEMENT SET BEGIN insert; ... END` (after EXECUTE or EXPLAIN).
    pub(super) fn statement_set(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::STATEMENT)?;
        self.expect(Kw::SET)?;
        self.expect(Kw::BEGIN)?;
        let mut statements = Vec::new();
        loop {
            if self.at(Kw::END) || self.at_eof() {
                break;
            }
            if !matches!(self.kw(), Kw::INSERT | Kw::UPSERT) {
                return Err(self.expected("an INSERT statement or `END`"));
            }
            let start = self.start();
            let errors_before = self.error_count();
            let kind = match self.insert_statement() {
                Ok(kind) => kind,
                Err(_) => {
                    self.skip_in_statement_set();
                    StatementKind::Error
                }
            };
            let has_error = self.error_count() > errors_before || self.is_muted();
            statements.push(Statement {
                kind,
                span: self.finish(start),
                has_error,
            });
            self.resync();
            if self.eat_kind(TokenKind::Semicolon).is_none() {
                return Err(self.expected(
                    "`;` after the INSERT (each INSERT in a statement set ends with `;`)",
                ));
            }
        }
        if statements.is_empty() {
            return Err(self.expected("an INSERT statement (a statement set cannot be empty)"));
        }
        self.expect(Kw::END)?;
        Ok(StatementKind::StatementSet(Box::new(StatementSet {
            statements,
        })))
    }
}

impl Parser<'_> {
    /// After an error in a statement set's INSERT: skips to its `;` or the set's `END`.
    fn skip_in_statement_set(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.kind() {
                TokenKind::Eof => return,
                TokenKind::Semicolon if depth <= 0 => return,
                TokenKind::LParen => depth += 1,
                TokenKind::RParen => depth -= 1,
                _ if depth <= 0 && self.at(Kw::END) => return,
                _ => {}
            }
            self.bump();
        }
    }
}

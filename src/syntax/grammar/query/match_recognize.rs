//! `MATCH_RECOGNIZE ( ... )` after a table reference, and its row pattern.

use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};

impl Parser<'_> {
    /// `input MATCH_RECOGNIZE ( ... ) [alias]`.
    pub(super) fn match_recognize(&mut self, input: TableRef, start: u32) -> PResult<TableRef> {
        self.expect(Kw::MATCH_RECOGNIZE)?;
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut measures = Vec::new();
        if self.at(Kw::PARTITION) {
            self.bump();
            self.expect(Kw::BY)?;
            self.expr_list(TokenKind::RParen)?;
        }
        let mut order_by = Vec::new();
        if self.at(Kw::ORDER) {
            self.bump();
            self.expect(Kw::BY)?;
            order_by = self.order_items()?;
        }
        if self.eat(Kw::MEASURES).is_some() {
            loop {
                let expr = self.expr()?;
                self.expect(Kw::AS)?;
                let name = self.ident("a measure name")?;
                measures.push((expr, name));
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
        }
        if self.eat(Kw::ONE).is_some() {
            self.expect(Kw::ROW)?;
            self.expect(Kw::PER)?;
            self.expect(Kw::MATCH)?;
        } else if self.eat(Kw::ALL).is_some() {
            self.expect(Kw::ROWS)?;
            self.expect(Kw::PER)?;
            self.expect(Kw::MATCH)?;
            if matches!(self.kw(), Kw::SHOW | Kw::OMIT) {
                self.bump();
                self.expect(Kw::EMPTY)?;
                self.expect(Kw::MATCHES)?;
            } else if self.at(Kw::WITH) {
                self.bump();
                if !self.at_word("UNMATCHED") {
                    return Err(self.expected("`UNMATCHED`"));
                }
                self.bump();
                self.expect(Kw::ROWS)?;
            }
        }
        if self.eat(Kw::AFTER).is_some() {
            self.expect(Kw::MATCH)?;
            self.expect(Kw::SKIP)?;
            if self.eat(Kw::PAST).is_some() {
                self.expect(Kw::LAST)?;
                self.expect(Kw::ROW)?;
            } else {
                self.expect(Kw::TO)?;
                if self.eat(Kw::NEXT).is_some() {
                    self.expect(Kw::ROW)?;
                } else {
                    if matches!(self.kw(), Kw::FIRST | Kw::LAST) {
                        self.bump();
                    }
                    self.ident("a pattern variable")?;
                }
            }
        }
        self.expect(Kw::PATTERN)?;
        self.pattern()?;
        if self.eat(Kw::WITHIN).is_some() {
            self.expr()?;
        }
        if self.eat(Kw::SUBSET).is_some() {
            loop {
                self.ident("a subset name")?;
                self.expect_kind(TokenKind::Eq, "`=`")?;
                self.column_list()?;
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
        }
        self.expect(Kw::DEFINE)?;
        loop {
            self.ident("a pattern variable")?;
            self.expect(Kw::AS)?;
            self.expr()?;
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        self.expect_kind(TokenKind::RParen, "`)` to close MATCH_RECOGNIZE")?;
        let alias = self.opt_table_alias()?;
        Ok(TableRef::MatchRecognize {
            input: Box::new(input),
            order_by,
            measures,
            alias,
            span: self.finish(start),
        })
    }

    /// `PATTERN ( ... )`: a row-pattern regular expression, checked for balance and tokens.
    fn pattern(&mut self) -> PResult<()> {
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut depth = 1;
        loop {
            let tok = self.current();
            match tok.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return Ok(());
                    }
                }
                TokenKind::Word
                | TokenKind::QuotedIdent
                | TokenKind::Star
                | TokenKind::Plus
                | TokenKind::Question
                | TokenKind::LBrace
                | TokenKind::RBrace
                | TokenKind::LBraceMinus
                | TokenKind::MinusRBrace
                | TokenKind::Comma
                | TokenKind::Integer
                | TokenKind::Pipe
                | TokenKind::Caret => {}
                _ => return Err(self.expected("a pattern variable, quantifier or `)`")),
            }
            self.bump();
        }
    }
}

//! Window specifications (`OVER (...)`: base window, PARTITION BY, ORDER BY, the ROWS / RANGE
//! frame) and ORDER BY items, shared with queries.

use super::CMP_PREC;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};

impl Parser<'_> {
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
    pub(super) fn order_item(&mut self) -> PResult<OrderItem> {
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
        let mut frame_bounded = false;
        if matches!(self.kw(), Kw::ROWS | Kw::RANGE) {
            let f_start = self.start();
            self.bump();
            if self.eat(Kw::BETWEEN).is_some() {
                frame_bounded = self.frame_bound()?;
                self.expect(Kw::AND)?;
                self.frame_bound()?;
            } else {
                frame_bounded = self.frame_bound()?;
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
            frame_bounded,
            span: self.finish(start),
        })
    }

    /// One frame bound; whether it is `n PRECEDING` / `n FOLLOWING` (bounded).
    fn frame_bound(&mut self) -> PResult<bool> {
        if self.eat(Kw::UNBOUNDED).is_some() {
            if self.eat(Kw::PRECEDING).is_none() {
                self.expect(Kw::FOLLOWING)?;
            }
            return Ok(false);
        }
        if self.eat(Kw::CURRENT).is_some() {
            self.expect(Kw::ROW)?;
            return Ok(false);
        }
        self.expr_bp(CMP_PREC)?;
        if self.eat(Kw::PRECEDING).is_none() {
            self.expect(Kw::FOLLOWING)?;
        }
        Ok(true)
    }
}

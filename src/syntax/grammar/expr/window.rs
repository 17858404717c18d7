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
        let mut frame_bounds = None;
        if matches!(self.kw(), Kw::ROWS | Kw::RANGE) {
            let f_start = self.start();
            let rows = self.kw() == Kw::ROWS;
            self.bump();
            let (lower, upper) = if self.eat(Kw::BETWEEN).is_some() {
                let (bounded, lower) = self.frame_bound()?;
                frame_bounded = bounded;
                self.expect(Kw::AND)?;
                let (_, upper) = self.frame_bound()?;
                (lower, upper)
            } else {
                let (bounded, lower) = self.frame_bound()?;
                frame_bounded = bounded;
                (lower, FrameBound::CurrentRow)
            };
            frame_bounds = Some(Frame { rows, lower, upper });
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
            frame_bounds,
            span: self.finish(start),
        })
    }

    /// One frame bound; whether it is `n PRECEDING` / `n FOLLOWING` (bounded), and the bound.
    fn frame_bound(&mut self) -> PResult<(bool, FrameBound)> {
        if self.eat(Kw::UNBOUNDED).is_some() {
            if self.eat(Kw::PRECEDING).is_some() {
                return Ok((false, FrameBound::UnboundedPreceding));
            }
            self.expect(Kw::FOLLOWING)?;
            return Ok((false, FrameBound::UnboundedFollowing));
        }
        if self.eat(Kw::CURRENT).is_some() {
            self.expect(Kw::ROW)?;
            return Ok((false, FrameBound::CurrentRow));
        }
        let offset = self.expr_bp(CMP_PREC)?;
        let key = offset_key(&offset.kind, &self.text[offset.span.range()]);
        if self.eat(Kw::PRECEDING).is_some() {
            return Ok((true, FrameBound::Preceding(key)));
        }
        self.expect(Kw::FOLLOWING)?;
        Ok((true, FrameBound::Following(key)))
    }
}

/// A frame offset's key: a number's or an interval literal's text, upper case, single-spaced,
/// an integer's leading zeros dropped (`INTERVAL '01' MINUTE` is `INTERVAL '1' MINUTE`);
/// `None` for anything else.
fn offset_key(kind: &ExprKind, text: &str) -> Option<compact_str::CompactString> {
    if !matches!(
        kind,
        ExprKind::Literal(Literal::Number(_) | Literal::Interval { .. })
    ) || text.len() > 200
    {
        return None;
    }
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            let (quoted, inner) = match w.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')) {
                Some(inner) => (true, inner),
                None => (false, w),
            };
            let normal = match inner.parse::<u64>() {
                Ok(n) => n.to_string(),
                Err(_) => inner.to_ascii_uppercase(),
            };
            if quoted {
                format!("'{normal}'")
            } else {
                normal
            }
        })
        .collect();
    Some(words.join(" ").into())
}

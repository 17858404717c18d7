//! Queries: WITH, set operations, SELECT, VALUES, FROM with joins, LATERAL, UNNEST, table
//! functions and window TVFs, FOR SYSTEM_TIME AS OF, MATCH_RECOGNIZE, ORDER BY / LIMIT /
//! OFFSET / FETCH.
//!
//! This module holds the query expression (WITH, set operations, ORDER BY / LIMIT / OFFSET /
//! FETCH), VALUES and SELECT with its items; `from` the FROM clause, `match_recognize` the
//! MATCH_RECOGNIZE clause and `hints` the `/*+ ... */` hint comments.

mod from;
mod hints;
mod match_recognize;

use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};

impl Parser<'_> {
    /// A query expression.
    pub(crate) fn query(&mut self) -> PResult<Query> {
        self.enter()?;
        let result = self.query_inner();
        self.exit();
        result
    }

    fn query_inner(&mut self) -> PResult<Query> {
        let start = self.start();
        let mut with = Vec::new();
        if self.eat(Kw::WITH).is_some() {
            self.eat(Kw::RECURSIVE);
            loop {
                with.push(self.cte()?);
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
        }
        let body = self.set_expr(0)?;
        let mut order_by = Vec::new();
        if self.at(Kw::ORDER) {
            self.bump();
            self.expect(Kw::BY)?;
            order_by = self.order_items()?;
        }
        let mut limit = None;
        let mut offset = None;
        if self.eat(Kw::LIMIT).is_some() && self.eat(Kw::ALL).is_none() {
            let first = self.expr()?;
            if self.eat_kind(TokenKind::Comma).is_some() {
                offset = Some(first);
                limit = Some(self.expr()?);
            } else {
                limit = Some(first);
            }
        }
        if self.eat(Kw::OFFSET).is_some() {
            offset = Some(self.expr()?);
            if self.eat(Kw::ROW).is_none() {
                self.eat(Kw::ROWS);
            }
        }
        if self.eat(Kw::FETCH).is_some() {
            if self.eat(Kw::FIRST).is_none() {
                self.expect(Kw::NEXT)?;
            }
            if !matches!(self.kw(), Kw::ROW | Kw::ROWS) {
                limit = Some(self.expr()?);
            }
            if self.eat(Kw::ROW).is_none() {
                self.expect(Kw::ROWS)?;
            }
            self.expect(Kw::ONLY)?;
        }
        Ok(Query {
            with,
            body,
            order_by,
            limit: limit.map(Box::new),
            offset: offset.map(Box::new),
            span: self.finish(start),
        })
    }

    fn cte(&mut self) -> PResult<Cte> {
        let start = self.start();
        let name = self.ident("a name for the WITH query")?;
        let columns = if self.at_kind(TokenKind::LParen) {
            Some(self.column_list()?)
        } else {
            None
        };
        self.expect(Kw::AS)?;
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let query = Box::new(self.query()?);
        self.expect_kind(TokenKind::RParen, "`)`")?;
        Ok(Cte {
            name,
            columns,
            query,
            span: self.finish(start),
        })
    }

    /// Set operations by precedence: INTERSECT binds tighter than UNION / EXCEPT.
    fn set_expr(&mut self, min: u8) -> PResult<SetExpr> {
        let start = self.start();
        let mut left = self.set_primary()?;
        loop {
            let (op, prec) = match self.kw() {
                Kw::UNION => (SetOperator::Union, 1),
                Kw::EXCEPT | Kw::MINUS => (SetOperator::Except, 1),
                Kw::INTERSECT => (SetOperator::Intersect, 2),
                _ => break,
            };
            if prec <= min {
                break;
            }
            self.bump();
            let all = self.eat(Kw::ALL).is_some();
            if !all {
                self.eat(Kw::DISTINCT);
            }
            self.enter()?;
            let right = self.set_expr(prec);
            self.exit();
            let right = right?;
            left = SetExpr::SetOperation {
                op,
                all,
                left: Box::new(left),
                right: Box::new(right),
                span: self.finish(start),
            };
        }
        Ok(left)
    }

    fn set_primary(&mut self) -> PResult<SetExpr> {
        match self.kw() {
            Kw::SELECT => Ok(SetExpr::Select(Box::new(self.select()?))),
            Kw::VALUES => Ok(SetExpr::Values(self.values()?)),
            Kw::TABLE => {
                self.bump();
                Ok(SetExpr::Table(self.object_name("a table name")?))
            }
            _ if self.at_kind(TokenKind::LParen) => {
                self.bump();
                let query = self.query()?;
                self.expect_kind(TokenKind::RParen, "`)`")?;
                Ok(SetExpr::Query(Box::new(query)))
            }
            _ => Err(self.expected("`SELECT`, `VALUES` or `(`")),
        }
    }

    fn values(&mut self) -> PResult<Values> {
        let start = self.start();
        self.expect(Kw::VALUES)?;
        let mut rows = Vec::new();
        loop {
            let row = self.expr()?;
            rows.push(match row.kind {
                ExprKind::Row(items) => items,
                _ => vec![row],
            });
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        Ok(Values {
            rows,
            span: self.finish(start),
        })
    }

    fn select(&mut self) -> PResult<Select> {
        let start = self.start();
        self.expect(Kw::SELECT)?;
        let hints = self.hints();
        self.eat(Kw::STREAM);
        let mut distinct = false;
        if self.eat(Kw::DISTINCT).is_some() {
            distinct = true;
        } else {
            self.eat(Kw::ALL);
        }
        // Select lists are rarely short: one allocation for most of them.
        let mut items = Vec::with_capacity(8);
        loop {
            items.push(self.select_item()?);
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        let from = if self.eat(Kw::FROM).is_some() {
            Some(self.table_refs()?)
        } else {
            None
        };
        let selection = if self.eat(Kw::WHERE).is_some() {
            Some(self.expr()?)
        } else {
            None
        };
        let mut group_by = Vec::new();
        if self.at(Kw::GROUP) {
            self.bump();
            self.expect(Kw::BY)?;
            if self.eat(Kw::DISTINCT).is_none() {
                self.eat(Kw::ALL);
            }
            loop {
                group_by.push(self.group_item()?);
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
        }
        let having = if self.eat(Kw::HAVING).is_some() {
            Some(self.expr()?)
        } else {
            None
        };
        let mut windows = Vec::new();
        if self.eat(Kw::WINDOW).is_some() {
            loop {
                let name = self.ident("a window name")?;
                self.expect(Kw::AS)?;
                windows.push((name, self.window_spec()?));
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
        }
        let qualify = if self.eat(Kw::QUALIFY).is_some() {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Select {
            hints,
            distinct,
            items,
            from,
            selection,
            group_by,
            having,
            windows,
            qualify,
            span: self.finish(start),
        })
    }

    fn group_item(&mut self) -> PResult<Expr> {
        let start = self.start();
        if self.at(Kw::GROUPING) && self.nth_at(1, Kw::SETS) {
            self.bump();
            self.bump();
            self.expect_kind(TokenKind::LParen, "`(`")?;
            let mut items = Vec::new();
            loop {
                items.push(self.group_item()?);
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
            self.expect_kind(TokenKind::RParen, "`)`")?;
            return Ok(Expr {
                kind: ExprKind::Row(items),
                span: self.finish(start),
            });
        }
        self.expr()
    }

    fn select_item(&mut self) -> PResult<SelectItem> {
        let start = self.start();
        if self.at_kind(TokenKind::Star) {
            self.bump();
            return Ok(SelectItem::Wildcard {
                qualifier: None,
                span: self.finish(start),
            });
        }
        // `t.*` / `db.t.*`
        if self.at_name() && self.qualified_star_ahead() {
            let q_start = self.start();
            let mut parts = vec![self.ident("a table name")?];
            while self.nth(1).kind != TokenKind::Star {
                self.bump();
                parts.push(self.ident("a name")?);
            }
            let qualifier = ObjectName {
                parts: parts.into(),
                span: self.finish(q_start),
            };
            self.bump();
            self.bump();
            return Ok(SelectItem::Wildcard {
                qualifier: Some(qualifier),
                span: self.finish(start),
            });
        }
        let expr = self.expr()?;
        let alias = self.opt_alias()?;
        Ok(SelectItem::Expr {
            expr,
            alias,
            span: self.finish(start),
        })
    }

    /// `[AS] name` after a select item.
    fn opt_alias(&mut self) -> PResult<Option<Ident>> {
        if self.eat(Kw::AS).is_some() {
            return Ok(Some(self.ident("an alias")?));
        }
        if self.at_optional_name() {
            return Ok(Some(self.ident("an alias")?));
        }
        Ok(None)
    }
}

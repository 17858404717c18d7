//! Queries: WITH, set operations, SELECT, VALUES, FROM with joins, LATERAL, UNNEST, table
//! functions and window TVFs, FOR SYSTEM_TIME AS OF, MATCH_RECOGNIZE, ORDER BY / LIMIT /
//! OFFSET / FETCH.

use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::SyntaxErrorKind;

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
            limit,
            offset,
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
        let mut items = Vec::new();
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
        if self.at_name() {
            let mut n = 1;
            while self.nth(n).kind == TokenKind::Dot
                && matches!(
                    self.nth(n + 1).kind,
                    TokenKind::Word | TokenKind::QuotedIdent
                )
            {
                n += 2;
            }
            if self.nth(n).kind == TokenKind::Dot && self.nth(n + 1).kind == TokenKind::Star {
                let q_start = self.start();
                let mut parts = vec![self.ident("a table name")?];
                while self.nth(1).kind != TokenKind::Star {
                    self.bump();
                    parts.push(self.ident("a name")?);
                }
                let qualifier = ObjectName {
                    parts,
                    span: self.finish(q_start),
                };
                self.bump();
                self.bump();
                return Ok(SelectItem::Wildcard {
                    qualifier: Some(qualifier),
                    span: self.finish(start),
                });
            }
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

    /// `[AS] name [(col, ...)]` after a table reference.
    fn opt_table_alias(&mut self) -> PResult<Option<TableAlias>> {
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
    fn table_refs(&mut self) -> PResult<TableRef> {
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

    /// Hint comments at the current position, each checked against Flink's hint syntax:
    /// `/*+ NAME[(options)] [, NAME[(options)]] */`.
    pub(crate) fn hints(&mut self) -> Vec<Hint> {
        let mut hints = Vec::new();
        while let Some(span) = self.eat_kind(TokenKind::Hint) {
            let body_start = span.start as usize + 3;
            let body_end = (span.end as usize).saturating_sub(2).max(body_start);
            let body = &self.text[body_start..body_end];
            if let Some((offset, message)) = check_hint_body(body) {
                let at = (body_start + offset) as u32;
                self.note_error(
                    crate::syntax::SyntaxErrorKind::Unexpected,
                    message,
                    crate::source::Span {
                        start: at,
                        end: (at + 1).min(span.end),
                    },
                    Some("hints look like /*+ NAME(options), OTHER(options) */".to_string()),
                );
            }
            if !hints.is_empty() {
                self.note_error(
                    crate::syntax::SyntaxErrorKind::Unexpected,
                    "a second hint comment: Flink accepts one `/*+ ... */` here".to_string(),
                    span,
                    Some("put all hints in one comment, separated by commas".to_string()),
                );
            }
            hints.push(Hint { span });
        }
        hints
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
    pub(super) fn balanced_parens(&mut self) -> PResult<()> {
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

    /// `input MATCH_RECOGNIZE ( ... ) [alias]`.
    fn match_recognize(&mut self, input: TableRef, start: u32) -> PResult<TableRef> {
        self.expect(Kw::MATCH_RECOGNIZE)?;
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut measures = Vec::new();
        if self.at(Kw::PARTITION) {
            self.bump();
            self.expect(Kw::BY)?;
            self.expr_list(TokenKind::RParen)?;
        }
        if self.at(Kw::ORDER) {
            self.bump();
            self.expect(Kw::BY)?;
            self.order_items()?;
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

/// Checks a hint body; returns the byte offset and message of the first problem.
fn check_hint_body(body: &str) -> Option<(usize, String)> {
    let tokens: Vec<_> = crate::syntax::lexer::lex(body)
        .into_iter()
        .filter(|t| !t.kind.is_trivia())
        .collect();
    let mut i = 0;
    let describe = |i: usize| {
        tokens
            .get(i)
            .map_or("the end of the hint".to_string(), |t| {
                format!("`{}`", &body[t.span.range()])
            })
    };
    let offset = |i: usize| tokens.get(i).map_or(body.len(), |t| t.span.start as usize);
    if tokens.is_empty() {
        return Some((0, "empty hint".to_string()));
    }
    loop {
        if !matches!(
            tokens.get(i).map(|t| t.kind),
            Some(TokenKind::Word | TokenKind::QuotedIdent)
        ) {
            return Some((
                offset(i),
                format!("expected a hint name, found {}", describe(i)),
            ));
        }
        i += 1;
        if tokens.get(i).map(|t| t.kind) == Some(TokenKind::LParen) {
            i += 1;
            let mut depth = 1;
            while depth > 0 {
                match tokens.get(i).map(|t| t.kind) {
                    None => return Some((offset(i), "unclosed `(` in hint".to_string())),
                    Some(TokenKind::LParen) => depth += 1,
                    Some(TokenKind::RParen) => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
        }
        match tokens.get(i).map(|t| t.kind) {
            None => return None,
            Some(TokenKind::Comma) => i += 1,
            _ => {
                return Some((
                    offset(i),
                    format!("expected `,` between hints, found {}", describe(i)),
                ))
            }
        }
    }
}

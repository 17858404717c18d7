//! Function calls: the argument list (`DISTINCT` / `ALL`, `*`, named arguments `name => v`,
//! `TABLE` and `MODEL` arguments, subqueries, time units), the keyword-separated forms of the
//! special functions (`EXTRACT(u FROM x)`, `TRIM(BOTH c FROM s)`, `POSITION(a IN b)`,
//! `OVERLAY(... PLACING ... FROM ... FOR ...)`, `FLOOR(x TO u)`, ...), the JSON argument
//! clauses, and the trailing `WITHIN GROUP`, `FILTER`, `RESPECT|IGNORE NULLS` and `OVER`.

use super::CMP_PREC;
use crate::syntax::ast::*;
use crate::syntax::grammar::types::time_unit;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::SyntaxErrorKind;

impl Parser<'_> {
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
            returning: None,
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
            let result = self.call_args(&mut call.args, unit_first, &mut call.returning);
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
            call.over = Some(Box::new(if self.at_kind(TokenKind::LParen) {
                Over::Spec(self.window_spec()?)
            } else {
                Over::Named(self.ident("a window name or `(`")?)
            }));
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
    fn call_args(
        &mut self,
        args: &mut Vec<FunctionArg>,
        unit_first: bool,
        returning: &mut Option<Box<DataType>>,
    ) -> PResult<()> {
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
            } else if self.at(Kw::TABLE) {
                // `TABLE (subquery)` or `TABLE (t)`: Flink's parser wants a name after
                // `TABLE` (a subquery is passed without it: `TUMBLE((SELECT ...), ...)`).
                self.bump();
                return Err(self.expected_as_flink(
                    "a table name after TABLE (pass a subquery without TABLE)",
                    crate::syntax::expected::IDENTIFIERS,
                ));
            } else if self.at(Kw::MODEL)
                && matches!(self.nth(1).kind, TokenKind::Word | TokenKind::QuotedIdent)
            {
                let m_start = self.start();
                self.bump();
                let model = self.object_name("a model name")?;
                Expr {
                    kind: ExprKind::TableArg(Box::new(model), None, None),
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
            self.arg_modifiers(returning)?;
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
                        self.arg_modifiers(returning)?;
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
                    self.arg_modifiers(returning)?;
                    return Ok(());
                }
                _ => return Ok(()),
            }
        }
    }

    /// Trailing argument clauses of the JSON functions: `RETURNING type`, `... ON EMPTY`,
    /// `... ON ERROR`, `NULL ON NULL`, `ABSENT ON NULL`, `WITH [..] WRAPPER`, `FORMAT JSON`.
    fn arg_modifiers(&mut self, returning: &mut Option<Box<DataType>>) -> PResult<()> {
        loop {
            match self.kw() {
                Kw::RESPECT | Kw::IGNORE if self.nth_at(1, Kw::NULLS) => {
                    self.bump();
                    self.bump();
                }
                Kw::RETURNING => {
                    self.bump();
                    *returning = Some(Box::new(self.data_type()?));
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
        let mut partition = None;
        let mut keys = None;
        if self.at(Kw::PARTITION) && self.nth_at(1, Kw::BY) {
            let p_start = self.start();
            self.bump();
            self.bump();
            // One key, or a parenthesized list.
            keys = Some(Box::new(self.expr()?));
            partition = Some(self.finish(p_start));
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
            kind: ExprKind::TableArg(Box::new(name), partition, keys),
            span: self.finish(start),
        })
    }
}

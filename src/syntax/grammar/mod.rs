//! Grammar of Flink SQL, split by area. `statement` dispatches on the first keywords.
//!
//! Each area module adds `impl Parser` methods: `ddl` (CREATE TABLE / VIEW, table elements,
//! LIKE), `materialized` (materialized tables and START_MODE), `alter` (ALTER TABLE and the
//! shared schema changes), `dml` (INSERT, statement sets), `query`, `expr`, `types` and `misc`
//! (SET, USE, SHOW, catalogs, functions, ...).

mod alter;
mod ddl;
mod dml;
mod expr;
mod lexical;
mod materialized;
mod misc;
mod query;
mod start_mode;
mod types;

use super::ast::{StatementKind, WrappedStatement, WrapperKind};
use super::keywords::Kw;
use super::lexer::TokenKind;
use super::parser::{PResult, Parser};

use super::SyntaxErrorKind;
use crate::source::Span;
pub(crate) use lexical::{lexical_errors, may_report};

impl Parser<'_> {
    /// One statement, without its terminator.
    pub(crate) fn statement(&mut self) -> PResult<StatementKind> {
        match self.kw() {
            Kw::CREATE => self.create_statement(),
            Kw::REPLACE => self.create_table_statement(),
            Kw::ALTER => self.alter_statement(),
            Kw::DROP => self.drop_statement(),
            Kw::INSERT | Kw::UPSERT => self.insert_statement(),
            Kw::SELECT | Kw::WITH | Kw::VALUES | Kw::TABLE => {
                Ok(StatementKind::Query(Box::new(self.query()?)))
            }
            Kw::EXECUTE => self.execute_statement(),
            Kw::EXPLAIN => self.explain_statement(),
            Kw::COMPILE => self.compile_statement(),
            Kw::BEGIN => {
                self.bump();
                self.expect(Kw::STATEMENT)?;
                self.expect(Kw::SET)?;
                Ok(StatementKind::BeginStatementSet)
            }
            Kw::END => {
                self.bump();
                Ok(StatementKind::End)
            }
            Kw::SET => self.set_statement(),
            Kw::RESET => self.reset_statement(),
            Kw::USE => self.use_statement(),
            _ => {
                if self.at_kind(TokenKind::LParen) {
                    return Ok(StatementKind::Query(Box::new(self.query()?)));
                }
                self.misc_statement()
            }
        }
    }

    /// `CREATE ...`: dispatch on what is created.
    fn create_statement(&mut self) -> PResult<StatementKind> {
        // Look past CREATE [OR REPLACE|OR ALTER] [TEMPORARY [SYSTEM]].
        let mut n = 1;
        if self.nth_at(n, Kw::OR) {
            n += 2;
        }
        if self.nth_at(n, Kw::TEMPORARY) {
            n += 1;
            if self.nth_at(n, Kw::SYSTEM) {
                n += 1;
            }
        }
        match self.nth(n).kw {
            Kw::TABLE => self.create_table_statement(),
            Kw::MATERIALIZED => self.create_materialized_table(),
            Kw::VIEW => self.create_view(),
            _ => self.misc_create(n),
        }
    }

    /// `EXECUTE STATEMENT SET ...`, `EXECUTE PLAN '...'`, `EXECUTE <insert|query>`.
    fn execute_statement(&mut self) -> PResult<StatementKind> {
        if self.nth_at(1, Kw::STATEMENT) {
            self.bump();
            return self.statement_set();
        }
        if self.nth_at(1, Kw::PLAN) {
            return self.misc_statement();
        }
        self.bump();
        self.wrapped(WrapperKind::Execute)
    }

    /// `EXPLAIN [PLAN FOR | detail, ...] statement`.
    fn explain_statement(&mut self) -> PResult<StatementKind> {
        self.bump();
        if self.eat(Kw::PLAN).is_some() {
            self.expect(Kw::FOR)?;
        } else {
            let mut seen = Vec::new();
            loop {
                let is_detail = matches!(
                    self.kw(),
                    Kw::ESTIMATED_COST
                        | Kw::CHANGELOG_MODE
                        | Kw::JSON_EXECUTION_PLAN
                        | Kw::PLAN_ADVICE
                );
                if !is_detail {
                    break;
                }
                let detail = self.bump();
                if seen.contains(&detail.kw) {
                    self.note_error(
                        SyntaxErrorKind::Unexpected,
                        "Duplicate EXPLAIN DETAIL is not allowed.".to_string(),
                        detail.span,
                        None,
                    );
                }
                seen.push(detail.kw);
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
        }
        if self.at(Kw::STATEMENT) {
            let start = self.start();
            let kind = self.statement_set()?;
            return Ok(wrap(WrapperKind::Explain, kind, self.finish(start)));
        }
        self.wrapped(WrapperKind::Explain)
    }

    /// `COMPILE PLAN 'file' [IF NOT EXISTS] FOR ...` / `COMPILE AND EXECUTE PLAN 'file' FOR ...`.
    fn compile_statement(&mut self) -> PResult<StatementKind> {
        self.bump();
        let wrapper = if self.eat(Kw::AND).is_some() {
            self.expect(Kw::EXECUTE)?;
            WrapperKind::CompileAndExecutePlan
        } else {
            WrapperKind::CompilePlan
        };
        self.expect(Kw::PLAN)?;
        self.string_lit("a plan file path")?;
        if self.eat(Kw::IF).is_some() {
            self.expect(Kw::NOT)?;
            self.expect(Kw::EXISTS)?;
        }
        self.expect(Kw::FOR)?;
        if self.at(Kw::STATEMENT) {
            let start = self.start();
            let kind = self.statement_set()?;
            return Ok(wrap(wrapper, kind, self.finish(start)));
        }
        self.wrapped(wrapper)
    }

    /// The statement inside EXPLAIN / EXECUTE / COMPILE.
    fn wrapped(&mut self, wrapper: WrapperKind) -> PResult<StatementKind> {
        let start = self.start();
        let inner = match self.kw() {
            Kw::INSERT | Kw::UPSERT => self.insert_statement()?,
            Kw::CREATE | Kw::REPLACE => {
                let inner = self.create_table_statement()?;
                if let StatementKind::CreateTable(table) = &inner {
                    if table.query.is_none() {
                        let span = self.finish(start);
                        self.note_error(
                            SyntaxErrorKind::Unexpected,
                            "EXPLAIN, EXECUTE and COMPILE PLAN accept CREATE TABLE only with AS query (CTAS/RTAS)".to_string(),
                            span,
                            None,
                        );
                    }
                }
                inner
            }
            Kw::SELECT | Kw::WITH | Kw::VALUES | Kw::TABLE => {
                StatementKind::Query(Box::new(self.query()?))
            }
            Kw::EXECUTE if wrapper == WrapperKind::Explain => self.execute_statement()?,
            _ if self.at_kind(TokenKind::LParen) => StatementKind::Query(Box::new(self.query()?)),
            _ => return Err(self.expected("a query, INSERT or STATEMENT SET")),
        };
        Ok(wrap(wrapper, inner, self.finish(start)))
    }
}

fn wrap(wrapper: WrapperKind, inner: StatementKind, span: Span) -> StatementKind {
    let inner = super::ast::Statement {
        kind: inner,
        span,
        has_error: false,
    };
    StatementKind::Wrapped(Box::new(WrappedStatement { wrapper, inner }))
}

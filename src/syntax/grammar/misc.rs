//! SET / RESET / USE, and the statements kept by kind only: catalogs, databases, functions,
//! models, connections, SHOW, DESCRIBE, JAR, MODULE, ANALYZE, CALL, TRUNCATE, DELETE, UPDATE,
//! STOP JOB, EXECUTE PLAN (flink-spec §2.6).

use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::SyntaxErrorKind;

impl Parser<'_> {
    /// `SET`, `SET 'k' = 'v'`, or the SQL client's `SET k = v` / `SET k = 'v'`.
    pub(super) fn set_statement(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::SET)?;
        if self.at_kind(TokenKind::Semicolon) || self.at_eof() {
            return Ok(StatementKind::Set(Box::new(SetStatement { pair: None })));
        }
        let quoted_key = self.at_string();
        let (key, key_span) = if quoted_key {
            let s = self.string_lit("a key in quotes")?;
            (s.value.into_string(), s.span)
        } else {
            self.raw_run("a configuration key", true)?
        };
        self.expect_kind(TokenKind::Eq, "`=`")?;
        if quoted_key && !self.at_string() {
            // `SET 'k' = v` is neither SQL (both quoted) nor the SQL client's form (key unquoted).
            let found = self.describe_current();
            return Err(self.error_here(format!(
                "expected the value in quotes after a quoted key, found {found}"
            )));
        }
        let (value, value_span) = if self.at_string() {
            let s = self.string_lit("a value in quotes")?;
            (s.value.into_string(), s.span)
        } else {
            self.raw_run("a value", false)?
        };
        Ok(StatementKind::Set(Box::new(SetStatement {
            pair: Some(SetPair {
                key,
                key_span,
                value,
                value_span,
            }),
        })))
    }

    /// A run of adjacent tokens without whitespace between them (the SQL client's unquoted
    /// keys and values, e.g. `table.exec.mini-batch.enabled`).
    fn raw_run(&mut self, what: &str, stop_at_eq: bool) -> PResult<(String, Span)> {
        let start = self.start();
        let mut end = start;
        let mut first = true;
        loop {
            let tok = self.current();
            let stop = match tok.kind {
                TokenKind::Eof | TokenKind::Semicolon => true,
                TokenKind::Eq => stop_at_eq,
                _ => false,
            };
            if stop || (!first && tok.span.start != end) || tok.kind.is_string() {
                break;
            }
            end = self.bump().span.end;
            first = false;
        }
        if first {
            return Err(self.expected(what));
        }
        let span = Span { start, end };
        self.note_raw_region(span);
        Ok((self.text[span.range()].to_string(), span))
    }

    /// `RESET`, `RESET 'k'` or `RESET k`.
    pub(super) fn reset_statement(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::RESET)?;
        let key = if self.at_kind(TokenKind::Semicolon) || self.at_eof() {
            None
        } else if self.at_string() {
            Some(self.string_lit("a key")?.value.to_string())
        } else {
            Some(self.raw_run("a configuration key", false)?.0)
        };
        Ok(StatementKind::Reset(Box::new(ResetStatement { key })))
    }

    /// `USE CATALOG c`, `USE MODULES a, b`, `USE [cat.]db`.
    pub(super) fn use_statement(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::USE)?;
        let stmt = if self.at(Kw::CATALOG)
            && self.nth(1).kind != TokenKind::Semicolon
            && self.nth(1).kind != TokenKind::Eof
        {
            self.bump();
            UseStatement::Catalog(self.ident("a catalog name")?)
        } else if self.at(Kw::MODULES) {
            self.bump();
            let mut names = vec![self.ident("a module name")?];
            while self.eat_kind(TokenKind::Comma).is_some() {
                names.push(self.ident("a module name")?);
            }
            UseStatement::Modules(names)
        } else {
            UseStatement::Database(self.object_name("a database name")?)
        };
        Ok(StatementKind::Use(Box::new(stmt)))
    }

    fn other(kind: OtherKind, name: Option<ObjectName>) -> PResult<StatementKind> {
        Self::other_form(kind, name, OtherForm::Plain)
    }

    fn other_form(
        kind: OtherKind,
        name: Option<ObjectName>,
        form: OtherForm,
    ) -> PResult<StatementKind> {
        Ok(StatementKind::Other(Box::new(OtherStatement {
            kind,
            name,
            form,
        })))
    }

    /// `CREATE CATALOG | DATABASE | FUNCTION | MODEL | CONNECTION ...`; `n` is the position of
    /// the object keyword.
    pub(super) fn misc_create(&mut self, n: usize) -> PResult<StatementKind> {
        let object = self.nth(n).kw;
        self.expect(Kw::CREATE)?;
        if self.eat(Kw::OR).is_some() {
            self.expect(Kw::REPLACE)?;
        }
        let mut system = false;
        if self.eat(Kw::TEMPORARY).is_some() {
            system = self.eat(Kw::SYSTEM).is_some();
        }
        match object {
            Kw::CATALOG | Kw::DATABASE => {
                self.bump();
                self.if_not_exists()?;
                let name = if object == Kw::CATALOG {
                    let id = self.ident("a catalog name")?;
                    ObjectName { span: id.span, parts: NameParts::one(id) }
                } else {
                    self.object_name("a database name")?
                };
                if self.eat(Kw::COMMENT).is_some() {
                    self.string_lit("a comment string")?;
                }
                if self.eat(Kw::WITH).is_some() {
                    self.property_list()?;
                }
                let kind = if object == Kw::CATALOG { OtherKind::CreateCatalog } else { OtherKind::CreateDatabase };
                Self::other(kind, Some(name))
            }
            Kw::FUNCTION => {
                self.bump();
                self.if_not_exists()?;
                let name = self.object_name("a function name")?;
                if system && name.parts.len() > 1 {
                    self.note_error(
                        SyntaxErrorKind::Unexpected,
                        "a temporary system function has a simple name, without catalog or database".to_string(),
                        name.span,
                        None,
                    );
                }
                self.expect(Kw::AS)?;
                self.string_lit("the implementation class name in quotes")?;
                self.function_tail()?;
                Self::other(OtherKind::CreateFunction, Some(name))
            }
            Kw::MODEL => {
                self.bump();
                self.if_not_exists()?;
                let name = self.object_name("a model name")?;
                let input = self.eat(Kw::INPUT).is_some();
                if input {
                    self.table_elements()?;
                }
                let output = self.eat(Kw::OUTPUT).is_some();
                if output {
                    self.table_elements()?;
                }
                if self.eat(Kw::COMMENT).is_some() {
                    self.string_lit("a comment string")?;
                }
                if self.eat(Kw::WITH).is_some() {
                    self.property_list()?;
                }
                let mut form = OtherForm::Plain;
                if self.eat(Kw::AS).is_some() {
                    self.query()?;
                    form = OtherForm::ModelAsQuery { input, output };
                }
                Self::other_form(OtherKind::CreateModel, Some(name), form)
            }
            Kw::CONNECTION => {
                self.bump();
                self.if_not_exists()?;
                let name = self.object_name("a connection name")?;
                if self.eat(Kw::COMMENT).is_some() {
                    self.string_lit("a comment string")?;
                }
                if self.eat(Kw::WITH).is_some() {
                    self.property_list()?;
                }
                Self::other(OtherKind::CreateConnection, Some(name))
            }
            _ => Err(self.expected(
                "`TABLE`, `VIEW`, `MATERIALIZED TABLE`, `CATALOG`, `DATABASE`, `FUNCTION`, `MODEL` or `CONNECTION`",
            )),
        }
    }

    /// `[LANGUAGE JAVA|SCALA|PYTHON|SQL] [USING JAR 'x' [, JAR 'y']] [WITH (...)]`.
    fn function_tail(&mut self) -> PResult<()> {
        let mut language = Kw::JAVA;
        if self.eat(Kw::LANGUAGE).is_some() {
            match self.kw() {
                Kw::JAVA | Kw::SCALA | Kw::PYTHON | Kw::SQL => {
                    language = self.bump().kw;
                }
                _ => return Err(self.expected("`JAVA`, `SCALA`, `PYTHON` or `SQL`")),
            }
        }
        if let Some(using) = self.eat(Kw::USING) {
            if matches!(language, Kw::PYTHON | Kw::SQL) {
                self.note_error(
                    SyntaxErrorKind::Unexpected,
                    format!(
                        "CREATE FUNCTION USING JAR/ARTIFACT syntax is not applicable to {} language.",
                        language.as_str()
                    ),
                    using,
                    Some("USING JAR is for JAVA and SCALA functions".to_string()),
                );
            }
            loop {
                if self.eat(Kw::JAR).is_none() {
                    self.expect(Kw::ARTIFACT)?;
                }
                self.string_lit("a jar path in quotes")?;
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
        }
        if self.eat(Kw::WITH).is_some() {
            self.property_list()?;
        }
        Ok(())
    }

    /// `ALTER CATALOG | DATABASE | FUNCTION | MODEL | CONNECTION ...`.
    pub(super) fn misc_alter(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::ALTER)?;
        let mut temporary_system = false;
        if self.eat(Kw::TEMPORARY).is_some() {
            temporary_system = self.eat(Kw::SYSTEM).is_some();
        }
        let object = self.kw();
        match object {
            Kw::CATALOG | Kw::DATABASE | Kw::MODEL | Kw::CONNECTION => {
                self.bump();
                self.if_exists()?;
                let name = self.object_name("a name")?;
                let mut form = OtherForm::Plain;
                match self.kw() {
                    Kw::SET => {
                        self.bump();
                        self.property_list()?;
                    }
                    Kw::RESET => {
                        self.bump();
                        form = OtherForm::Reset(self.key_list()?);
                    }
                    Kw::COMMENT => {
                        self.bump();
                        self.string_lit("a comment string")?;
                    }
                    Kw::RENAME => {
                        self.bump();
                        self.expect(Kw::TO)?;
                        self.object_name("the new name")?;
                    }
                    _ => return Err(self.expected("`SET`, `RESET`, `COMMENT` or `RENAME TO`")),
                }
                let kind = match object {
                    Kw::CATALOG => OtherKind::AlterCatalog,
                    Kw::DATABASE => OtherKind::AlterDatabase,
                    Kw::MODEL => OtherKind::AlterModel,
                    _ => OtherKind::AlterConnection,
                };
                Self::other_form(kind, Some(name), form)
            }
            Kw::FUNCTION => {
                self.bump();
                self.if_exists()?;
                let name = self.object_name("a function name")?;
                self.expect(Kw::AS)?;
                self.string_lit("the implementation class name in quotes")?;
                self.function_tail()?;
                let form = if temporary_system {
                    OtherForm::TemporarySystem
                } else {
                    OtherForm::Plain
                };
                Self::other_form(OtherKind::AlterFunction, Some(name), form)
            }
            _ => Err(self.expected(
                "`TABLE`, `MATERIALIZED TABLE`, `VIEW`, `CATALOG`, `DATABASE`, `FUNCTION`, `MODEL` or `CONNECTION`",
            )),
        }
    }

    /// The remaining statements, by first keyword.
    pub(super) fn misc_statement(&mut self) -> PResult<StatementKind> {
        match self.kw() {
            Kw::SHOW => self.show_statement(),
            Kw::DESCRIBE | Kw::DESC => {
                self.bump();
                match self.kw() {
                    Kw::CATALOG | Kw::DATABASE | Kw::FUNCTION | Kw::MODEL | Kw::CONNECTION
                        if !matches!(self.nth(1).kind, TokenKind::Semicolon | TokenKind::Eof) =>
                    {
                        self.bump();
                        self.eat(Kw::EXTENDED);
                        let name = self.object_name("a name")?;
                        Self::other(OtherKind::Describe, Some(name))
                    }
                    Kw::JOB if self.nth(1).kind.is_string() => {
                        self.bump();
                        self.string_lit("a job id")?;
                        Self::other(OtherKind::Describe, None)
                    }
                    _ => {
                        self.eat(Kw::EXTENDED);
                        let name = self.object_name("a table name")?;
                        Self::other(OtherKind::Describe, Some(name))
                    }
                }
            }
            Kw::ADD | Kw::REMOVE => {
                let add = self.bump().kw == Kw::ADD;
                self.expect(Kw::JAR)?;
                self.string_lit("a jar path in quotes")?;
                Self::other(
                    if add {
                        OtherKind::AddJar
                    } else {
                        OtherKind::RemoveJar
                    },
                    None,
                )
            }
            Kw::LOAD | Kw::UNLOAD => {
                let load = self.bump().kw == Kw::LOAD;
                self.expect(Kw::MODULE)?;
                let name = self.object_name("a module name")?;
                if load && self.eat(Kw::WITH).is_some() {
                    self.property_list()?;
                }
                Self::other(
                    if load {
                        OtherKind::LoadModule
                    } else {
                        OtherKind::UnloadModule
                    },
                    Some(name),
                )
            }
            Kw::ANALYZE => {
                self.bump();
                self.expect(Kw::TABLE)?;
                let name = self.object_name("a table name")?;
                if self.at(Kw::PARTITION) {
                    self.partition_spec()?;
                }
                self.expect(Kw::COMPUTE)?;
                self.expect(Kw::STATISTICS)?;
                if self.eat(Kw::FOR).is_some() {
                    if self.eat(Kw::ALL).is_some() {
                        self.expect(Kw::COLUMNS)?;
                    } else {
                        self.expect(Kw::COLUMNS)?;
                        self.ident("a column name")?;
                        while self.eat_kind(TokenKind::Comma).is_some() {
                            self.ident("a column name")?;
                        }
                    }
                }
                Self::other(OtherKind::Analyze, Some(name))
            }
            Kw::CALL => {
                self.bump();
                let start = self.start();
                let name = self.object_name("a procedure name")?;
                self.call_after_name(name.clone(), start)?;
                Self::other(OtherKind::Call, Some(name))
            }
            Kw::TRUNCATE => {
                self.bump();
                self.expect(Kw::TABLE)?;
                let name = self.object_name("a table name")?;
                Self::other(OtherKind::Truncate, Some(name))
            }
            Kw::DELETE => {
                self.bump();
                self.expect(Kw::FROM)?;
                let name = self.object_name("a table name")?;
                let mut alias = None;
                if self.eat(Kw::AS).is_some() || self.at_optional_name() {
                    alias = Some(self.ident("an alias")?);
                }
                let mut filter = None;
                if self.eat(Kw::WHERE).is_some() {
                    filter = Some(Box::new(self.expr()?));
                }
                Self::other_form(
                    OtherKind::Delete,
                    Some(name),
                    OtherForm::Delete { alias, filter },
                )
            }
            Kw::UPDATE => {
                self.bump();
                let name = self.object_name("a table name")?;
                let mut alias = None;
                if self.eat(Kw::AS).is_some() || (self.at_optional_name() && !self.at(Kw::SET)) {
                    alias = Some(self.ident("an alias")?);
                }
                self.expect(Kw::SET)?;
                let mut assignments = Vec::new();
                loop {
                    let column = self.object_name("a column name")?;
                    self.expect_kind(TokenKind::Eq, "`=`")?;
                    assignments.push((column, self.expr()?));
                    if self.eat_kind(TokenKind::Comma).is_none() {
                        break;
                    }
                }
                let mut filter = None;
                if self.eat(Kw::WHERE).is_some() {
                    filter = Some(Box::new(self.expr()?));
                }
                Self::other_form(
                    OtherKind::Update,
                    Some(name),
                    OtherForm::Update {
                        alias,
                        assignments,
                        filter,
                    },
                )
            }
            Kw::STOP => {
                self.bump();
                self.expect(Kw::JOB)?;
                self.string_lit("a job id in quotes")?;
                let mut savepoint = false;
                while self.eat(Kw::WITH).is_some() {
                    if self.eat(Kw::SAVEPOINT).is_some() {
                        savepoint = true;
                    } else {
                        let drain = self.expect(Kw::DRAIN)?;
                        if !savepoint {
                            self.note_error(
                                SyntaxErrorKind::Unexpected,
                                "WITH DRAIN could only be used after WITH SAVEPOINT.".to_string(),
                                drain,
                                Some("write STOP JOB '<id>' WITH SAVEPOINT WITH DRAIN".to_string()),
                            );
                        }
                    }
                }
                Self::other(OtherKind::StopJob, None)
            }
            Kw::EXECUTE => {
                self.bump();
                self.expect(Kw::PLAN)?;
                self.string_lit("a plan file path")?;
                Self::other(OtherKind::ExecutePlan, None)
            }
            Kw::MERGE => self.merge_statement(),
            _ if ["QUIT", "EXIT", "HELP", "CLEAR"]
                .iter()
                .any(|w| self.at_word(w))
                && matches!(self.nth(1).kind, TokenKind::Semicolon | TokenKind::Eof) =>
            {
                self.bump();
                Self::other(OtherKind::ClientCommand, None)
            }
            _ => Err(self.expected(
                "a statement (CREATE, ALTER, DROP, INSERT, SELECT, SET, USE, SHOW, ...)",
            )),
        }
    }

    /// `MERGE INTO t [alias] USING src ON cond WHEN [NOT] MATCHED [AND c] THEN ...`.
    fn merge_statement(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::MERGE)?;
        self.expect(Kw::INTO)?;
        let name = self.object_name("a table name")?;
        if self.eat(Kw::AS).is_some() || self.at_optional_name() {
            self.ident("an alias")?;
        }
        self.expect(Kw::USING)?;
        if self.at_kind(TokenKind::LParen) {
            self.bump();
            self.query()?;
            self.expect_kind(TokenKind::RParen, "`)`")?;
        } else {
            self.object_name("a table name")?;
        }
        if self.eat(Kw::AS).is_some() || self.at_optional_name() {
            self.ident("an alias")?;
        }
        self.expect(Kw::ON)?;
        self.expr()?;
        while self.eat(Kw::WHEN).is_some() {
            let not = self.eat(Kw::NOT).is_some();
            self.expect(Kw::MATCHED)?;
            if self.eat(Kw::AND).is_some() {
                self.expr()?;
            }
            self.expect(Kw::THEN)?;
            if not {
                self.expect(Kw::INSERT)?;
                if self.at_kind(TokenKind::LParen) {
                    self.column_list()?;
                }
                self.expect(Kw::VALUES)?;
                self.expr_list(TokenKind::Semicolon)?;
            } else if self.eat(Kw::DELETE).is_none() {
                self.expect(Kw::UPDATE)?;
                self.expect(Kw::SET)?;
                loop {
                    self.object_name("a column name")?;
                    self.expect_kind(TokenKind::Eq, "`=`")?;
                    self.expr()?;
                    if self.eat_kind(TokenKind::Comma).is_none() {
                        break;
                    }
                }
            }
        }
        Self::other(OtherKind::Merge, Some(name))
    }

    fn show_statement(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::SHOW)?;
        let mut name = None;
        let mut form = OtherForm::Plain;
        match self.kw() {
            Kw::CREATE => {
                self.bump();
                if self.eat(Kw::OR).is_some() {
                    self.expect(Kw::ALTER)?;
                    self.expect(Kw::MATERIALIZED)?;
                    self.expect(Kw::TABLE)?;
                } else {
                    match self.kw() {
                        Kw::TABLE | Kw::VIEW | Kw::MODEL | Kw::CONNECTION | Kw::CATALOG | Kw::FUNCTION => {
                            if self.bump().kw == Kw::CONNECTION {
                                form = OtherForm::ShowCreateConnection;
                            }
                        }
                        Kw::MATERIALIZED => {
                            self.bump();
                            self.expect(Kw::TABLE)?;
                        }
                        _ => return Err(self.expected("`TABLE`, `VIEW`, `MATERIALIZED TABLE`, `MODEL`, `CONNECTION` or `CATALOG`")),
                    }
                }
                name = Some(self.object_name("a name")?);
            }
            Kw::CURRENT => {
                self.bump();
                if self.eat(Kw::CATALOG).is_none() {
                    self.expect(Kw::DATABASE)?;
                }
            }
            Kw::COLUMNS => {
                self.bump();
                if self.eat(Kw::FROM).is_none() {
                    self.expect(Kw::IN)?;
                }
                name = Some(self.object_name("a table name")?);
                self.show_like()?;
            }
            Kw::PARTITIONS => {
                self.bump();
                name = Some(self.object_name("a table name")?);
                if self.at(Kw::PARTITION) {
                    self.partition_spec()?;
                }
            }
            Kw::FULL => {
                self.bump();
                self.expect(Kw::MODULES)?;
            }
            Kw::MODULES | Kw::JARS | Kw::JOBS => {
                self.bump();
            }
            Kw::USER => {
                self.bump();
                self.expect(Kw::FUNCTIONS)?;
                self.show_from_like()?;
            }
            Kw::MATERIALIZED => {
                self.bump();
                self.expect(Kw::TABLES)?;
                self.show_from_like()?;
            }
            Kw::CATALOGS
            | Kw::DATABASES
            | Kw::TABLES
            | Kw::VIEWS
            | Kw::FUNCTIONS
            | Kw::PROCEDURES
            | Kw::MODELS
            | Kw::CONNECTIONS => {
                let what = self.bump().kw;
                if what == Kw::DATABASES && matches!(self.kw(), Kw::FROM | Kw::IN) {
                    self.bump();
                    let catalog = self.object_name("a catalog name")?;
                    if catalog.parts.len() > 1 {
                        self.note_error(
                            SyntaxErrorKind::Unexpected,
                            format!(
                                "SHOW DATABASES FROM takes a catalog name, found `{}`",
                                catalog.dotted()
                            ),
                            catalog.span,
                            None,
                        );
                    }
                    self.show_like()?;
                } else {
                    let from = self.show_from_like()?;
                    if what == Kw::CONNECTIONS {
                        form = OtherForm::ShowConnections { from };
                    }
                }
            }
            _ => return Err(self.expected("what to show (TABLES, DATABASES, CREATE TABLE, ...)")),
        }
        Self::other_form(OtherKind::Show, name, form)
    }

    /// `[FROM | IN name] [[NOT] LIKE 'pattern']`; whether `FROM` / `IN` was written.
    fn show_from_like(&mut self) -> PResult<bool> {
        let from = matches!(self.kw(), Kw::FROM | Kw::IN);
        if from {
            self.bump();
            self.object_name("a catalog or database name")?;
        }
        self.show_like()?;
        Ok(from)
    }

    fn show_like(&mut self) -> PResult<()> {
        self.eat(Kw::NOT);
        if matches!(self.kw(), Kw::LIKE | Kw::ILIKE) {
            self.bump();
            self.string_lit("a pattern in quotes")?;
        }
        Ok(())
    }
}

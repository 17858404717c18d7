//! ALTER TABLE / VIEW, DROP, and the ADD / MODIFY / DROP schema changes shared with
//! ALTER MATERIALIZED TABLE (FLIP-273, FLIP-550; flink-spec §2.4-2.5).

use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser, Recover};
use crate::syntax::{Suggestion, SyntaxErrorKind};

impl Parser<'_> {
    /// `ALTER ...`: dispatch on what is altered.
    pub(super) fn alter_statement(&mut self) -> PResult<StatementKind> {
        match self.nth(1).kw {
            Kw::TABLE => self.alter_table(),
            Kw::MATERIALIZED => self.alter_materialized_table(),
            Kw::VIEW => self.alter_view(),
            _ => self.misc_alter(),
        }
    }

    /// `ALTER TABLE [IF EXISTS] name action`.
    fn alter_table(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::ALTER)?;
        self.expect(Kw::TABLE)?;
        let if_exists = self.if_exists()?;
        let name = self.object_name("a table name")?;
        let action = match self.kw() {
            Kw::RENAME => {
                self.bump();
                if self.eat(Kw::TO).is_some() {
                    AlterTableAction::RenameTo(self.object_name("the new table name")?)
                } else {
                    self.column_keyword("RENAME", |kind, kw| {
                        kw == Kw::TO || kind == TokenKind::Dot
                    });
                    let from = self.object_name("the column to rename")?;
                    self.expect(Kw::TO)?;
                    let to = self.object_name("the new column name")?;
                    AlterTableAction::RenameColumn { from, to }
                }
            }
            Kw::SET => {
                self.bump();
                AlterTableAction::SetOptions(self.property_list()?)
            }
            Kw::RESET => {
                self.bump();
                AlterTableAction::ResetOptions(self.key_list()?)
            }
            Kw::ADD if self.add_partition_ahead() => {
                self.bump();
                let _ = self.if_not_exists()?;
                let mut specs = Vec::new();
                while self.at(Kw::PARTITION) {
                    specs.push(self.partition_spec()?);
                    if self.eat(Kw::WITH).is_some() {
                        self.property_list()?;
                    }
                }
                AlterTableAction::AddPartitions(specs)
            }
            Kw::DROP if self.drop_partition_ahead() => {
                self.bump();
                let _ = self.if_exists()?;
                let mut specs = vec![self.partition_spec()?];
                while self.eat_kind(TokenKind::Comma).is_some() {
                    specs.push(self.partition_spec()?);
                }
                AlterTableAction::DropPartitions(specs)
            }
            Kw::PARTITION => {
                self.partition_spec()?;
                if !self.at_word("COMPACT") {
                    return Err(self.expected("`COMPACT`"));
                }
                self.bump();
                AlterTableAction::Compact
            }
            _ if self.at_word("COMPACT") => {
                self.bump();
                AlterTableAction::Compact
            }
            Kw::ADD | Kw::MODIFY | Kw::DROP => AlterTableAction::Schema(self.schema_change()?),
            _ => {
                return Err(self.expected(
                    "`RENAME`, `SET`, `RESET`, `ADD`, `MODIFY` or `DROP` after the table name",
                ))
            }
        };
        Ok(StatementKind::AlterTable(Box::new(AlterTable {
            if_exists,
            name,
            action,
        })))
    }

    fn add_partition_ahead(&mut self) -> bool {
        self.nth_at(1, Kw::PARTITION) || (self.nth_at(1, Kw::IF) && self.nth_at(4, Kw::PARTITION))
    }

    fn drop_partition_ahead(&mut self) -> bool {
        self.nth_at(1, Kw::PARTITION) || (self.nth_at(1, Kw::IF) && self.nth_at(3, Kw::PARTITION))
    }

    /// `ADD ...`, `MODIFY ...` or `DROP ...` of schema parts.
    pub(super) fn schema_change(&mut self) -> PResult<SchemaChange> {
        match self.kw() {
            Kw::ADD | Kw::MODIFY => {
                let modify = self.bump().kw == Kw::MODIFY;
                self.column_keyword(if modify { "MODIFY" } else { "ADD" }, |kind, _| {
                    !matches!(
                        kind,
                        TokenKind::Comma
                            | TokenKind::RParen
                            | TokenKind::Semicolon
                            | TokenKind::Eof
                    )
                });
                if self.at(Kw::DISTRIBUTION) {
                    let start = self.start();
                    self.bump();
                    let dist = self.distribution_body(start)?;
                    return Ok(if modify {
                        SchemaChange::ModifyDistribution(dist)
                    } else {
                        SchemaChange::AddDistribution(dist)
                    });
                }
                let items = if self.at_kind(TokenKind::LParen) {
                    self.alter_items()?
                } else {
                    vec![self.table_element(true)?]
                };
                Ok(if modify {
                    SchemaChange::Modify(items)
                } else {
                    SchemaChange::Add(items)
                })
            }
            Kw::DROP => {
                self.bump();
                self.column_keyword("DROP", |_, _| true);
                match self.kw() {
                    Kw::PRIMARY => {
                        let start = self.start();
                        self.bump();
                        self.expect(Kw::KEY)?;
                        Ok(SchemaChange::DropPrimaryKey(self.finish(start)))
                    }
                    Kw::CONSTRAINT => {
                        self.bump();
                        Ok(SchemaChange::DropConstraint(
                            self.ident("a constraint name")?,
                        ))
                    }
                    Kw::DISTRIBUTION => Ok(SchemaChange::DropDistribution(self.bump().span)),
                    Kw::WATERMARK => Ok(SchemaChange::DropWatermark(self.bump().span)),
                    _ if self.at_kind(TokenKind::LParen) => {
                        self.bump();
                        let mut names = vec![self.object_name("a column name")?];
                        while self.eat_kind(TokenKind::Comma).is_some() {
                            names.push(self.object_name("a column name")?);
                        }
                        self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
                        Ok(SchemaChange::DropColumns(names))
                    }
                    _ => Ok(SchemaChange::DropColumns(vec![self.object_name(
                        "a column name, `PRIMARY KEY`, `CONSTRAINT`, `WATERMARK` or `DISTRIBUTION`",
                    )?])),
                }
            }
            _ => Err(self.expected("`ADD`, `MODIFY` or `DROP`")),
        }
    }

    /// `COLUMN` after `verb` (ADD, MODIFY, DROP, RENAME), as other databases write it
    /// (`ADD COLUMN c INT`): Flink's ALTER TABLE has no such keyword, and its parser stops at
    /// the reserved word (`Incorrect syntax near the keyword 'COLUMN'`). Reported with a fix
    /// that removes the word, then skipped. It is taken for the keyword when a name follows it
    /// and `then` accepts the token after that name; otherwise `COLUMN` is left to be read as a
    /// name (`ADD COLUMN INT` names a column `COLUMN`, a reserved word: SY004).
    fn column_keyword(&mut self, verb: &str, then: impl Fn(TokenKind, Kw) -> bool) {
        if !self.at(Kw::COLUMN) {
            return;
        }
        let name = self.nth(1);
        let is_name = match name.kind {
            TokenKind::Word => !crate::syntax::parser::is_structural(name.kw),
            TokenKind::QuotedIdent | TokenKind::DoubleQuoted => true,
            _ => false,
        };
        let after = self.nth(2);
        if !is_name || !then(after.kind, after.kw) {
            return;
        }
        let column = self.bump();
        self.note_error_in_step(
            SyntaxErrorKind::Unexpected,
            format!(
                "`{verb} COLUMN` is not Flink SQL: Flink's ALTER TABLE writes `{verb} <column>`, \
                 without `COLUMN`"
            ),
            column.span,
            Some(format!("remove `COLUMN`: `{verb} {}`", self.text_of(name))),
            Some(Suggestion {
                title: "Remove `COLUMN`".to_string(),
                span: crate::source::Span {
                    start: column.span.start,
                    end: name.span.start,
                },
                replacement: String::new(),
            }),
        );
    }

    /// `( item, ... )` of ALTER ... ADD / MODIFY, with list recovery.
    fn alter_items(&mut self) -> PResult<Vec<TableElement>> {
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut items = Vec::new();
        let mut failed = false;
        while !self.at_kind(TokenKind::RParen) && !self.at_eof() {
            match self.table_element(true) {
                Ok(e) => items.push(e),
                Err(Recover) => {
                    failed = true;
                    if !self.recover_in_list(0) {
                        return Err(Recover);
                    }
                }
            }
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        if failed && !self.at_kind(TokenKind::RParen) {
            return Err(Recover);
        }
        self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
        Ok(items)
    }

    /// `PARTITION (k = v, ...)`; values are literals (ANALYZE also allows bare keys).
    pub(crate) fn partition_spec(&mut self) -> PResult<PartitionSpec> {
        let start = self.start();
        self.expect(Kw::PARTITION)?;
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut items = Vec::new();
        loop {
            let key = self.ident("a partition column")?;
            let value = if self.eat_kind(TokenKind::Eq).is_some() {
                Some(self.expr()?)
            } else {
                None
            };
            items.push((key, value));
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
        Ok(PartitionSpec {
            items,
            span: self.finish(start),
        })
    }

    /// `ALTER VIEW name (RENAME TO new | AS query)`.
    fn alter_view(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::ALTER)?;
        self.expect(Kw::VIEW)?;
        let name = self.object_name("a view name")?;
        let mut view = AlterView {
            name,
            rename_to: None,
            query: None,
        };
        if self.eat(Kw::RENAME).is_some() {
            self.expect(Kw::TO)?;
            view.rename_to = Some(self.object_name("the new view name")?);
        } else if self.eat(Kw::AS).is_some() {
            view.query = Some(std::sync::Arc::new(self.query()?));
        } else {
            return Err(self.expected("`RENAME TO` or `AS`"));
        }
        Ok(StatementKind::AlterView(Box::new(view)))
    }

    /// `DROP [TEMPORARY [SYSTEM]] kind [IF EXISTS] name [RESTRICT|CASCADE]`.
    pub(super) fn drop_statement(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::DROP)?;
        let temporary_span = self.eat(Kw::TEMPORARY);
        let temporary = temporary_span.is_some();
        if temporary {
            self.eat(Kw::SYSTEM);
        }
        let object = match self.kw() {
            Kw::TABLE => ObjectKind::Table,
            Kw::VIEW => ObjectKind::View,
            Kw::MATERIALIZED => {
                // `DROP TEMPORARY MATERIALIZED TABLE` is kept in the tree: SY005 reports it.
                self.bump();
                if !self.at(Kw::TABLE) {
                    return Err(self.expected("`TABLE`"));
                }
                if temporary {
                    self.note_refused_form();
                }
                ObjectKind::MaterializedTable
            }
            Kw::DATABASE => ObjectKind::Database,
            Kw::CATALOG => ObjectKind::Catalog,
            Kw::FUNCTION => ObjectKind::Function,
            Kw::MODEL => ObjectKind::Model,
            Kw::CONNECTION => ObjectKind::Connection,
            _ => {
                return Err(self.expected(
                    "`TABLE`, `VIEW`, `MATERIALIZED TABLE`, `DATABASE`, `CATALOG`, `FUNCTION`, `MODEL` or `CONNECTION`",
                ))
            }
        };
        self.bump();
        let if_exists = self.if_exists()?;
        let name = self.object_name("a name")?;
        if object == ObjectKind::Database && self.eat(Kw::RESTRICT).is_none() {
            self.eat(Kw::CASCADE);
        }
        Ok(StatementKind::Drop(Box::new(DropObject {
            object,
            temporary,
            temporary_span,
            if_exists,
            name,
        })))
    }
}

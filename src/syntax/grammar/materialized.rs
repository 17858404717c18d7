//! Materialized tables: CREATE [OR ALTER], ALTER forms, FRESHNESS, REFRESH_MODE, and where
//! START_MODE goes (the clause itself is `start_mode.rs`) (FLIP-435, FLIP-492, FLIP-546,
//! FLIP-550, FLIP-557; flink-spec §2.3-2.4).

use super::ddl::TableClause;
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::{expected, FlinkSyntax, Suggestion, SyntaxErrorKind};

/// Where START_MODE goes, for help texts.
const START_MODE_PLACE: &str = "START_MODE belongs after COMMENT, DISTRIBUTED BY, PARTITIONED BY and WITH, and before FRESHNESS and REFRESH_MODE: ... WITH (...) START_MODE = ... FRESHNESS = ... REFRESH_MODE = ... AS query";

impl Parser<'_> {
    /// `CREATE [OR ALTER] MATERIALIZED TABLE name [(elements)] [COMMENT] [DISTRIBUTED ...]
    /// [PARTITIONED BY] [WITH] [START_MODE = ...] [FRESHNESS = ...] [REFRESH_MODE = ...] AS query`.
    /// `OR REPLACE`, `TEMPORARY` and `IF NOT EXISTS`, which no Flink version has, are kept in
    /// the tree for SY005, so that the rest of the statement is still analysed.
    pub(super) fn create_materialized_table(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::CREATE)?;
        let mut or_alter = None;
        let mut or_replace = None;
        if let Some(or_span) = self.eat(Kw::OR) {
            if let Some(replace) = self.eat(Kw::REPLACE) {
                or_replace = Some(or_span.cover(replace));
            } else {
                let alter = self.expect(Kw::ALTER)?;
                or_alter = Some(or_span.cover(alter));
            }
        }
        let temporary = self.eat(Kw::TEMPORARY);
        if or_replace.is_some() || temporary.is_some() {
            self.note_refused_form();
        }
        self.expect(Kw::MATERIALIZED)?;
        self.expect(Kw::TABLE)?;
        let mut if_not_exists = None;
        if self.at(Kw::IF) && self.nth_at(1, Kw::NOT) && self.nth_at(2, Kw::EXISTS) {
            let first = self.bump().span;
            self.bump();
            let last = self.bump().span;
            if_not_exists = Some(first.cover(last));
            self.note_refused_form();
        }
        let name = self.object_name("a materialized table name")?;
        let mut table = CreateMaterializedTable {
            or_alter,
            or_replace,
            temporary,
            if_not_exists,
            name,
            elements: None,
            comment: None,
            distribution: None,
            partitioned_by: None,
            with: None,
            start_mode: None,
            freshness: None,
            refresh_mode: None,
            as_span: None,
            query: None,
        };
        let _ = self.create_materialized_rest(&mut table);
        Ok(StatementKind::CreateMaterializedTable(Box::new(table)))
    }

    fn create_materialized_rest(&mut self, table: &mut CreateMaterializedTable) -> PResult<()> {
        if self.at_kind(TokenKind::LParen) {
            table.elements = Some(self.table_elements()?);
        }
        // The latest clause in Flink's order so far, and the clause just before this one.
        let mut last: Option<(TableClause, Span)> = None;
        let mut prev: Option<(TableClause, Span)> = None;
        let mut start_mode_reported = false;
        loop {
            let clause_start = self.start();
            let first_token = self.current().span;
            let mut repeated_start_mode = false;
            let clause = match self.kw() {
                Kw::COMMENT => {
                    self.bump();
                    table.comment = Some(self.string_lit("a comment string")?);
                    TableClause::Comment
                }
                Kw::DISTRIBUTED => {
                    table.distribution = Some(self.distribution()?);
                    TableClause::Distributed
                }
                Kw::PARTITIONED => {
                    self.bump();
                    self.expect(Kw::BY)?;
                    table.partitioned_by = Some(self.column_list()?);
                    TableClause::Partitioned
                }
                Kw::WITH => {
                    self.bump();
                    table.with = Some(self.property_list()?);
                    TableClause::With
                }
                Kw::START_MODE => {
                    let clause = self.start_mode_clause(None)?;
                    if table.start_mode.is_some() {
                        repeated_start_mode = true;
                    } else {
                        table.start_mode = Some(clause);
                    }
                    TableClause::StartMode
                }
                Kw::FRESHNESS => {
                    table.freshness = Some(self.freshness()?);
                    TableClause::Freshness
                }
                Kw::REFRESH_MODE => {
                    table.refresh_mode = Some(self.refresh_mode()?);
                    TableClause::RefreshMode
                }
                Kw::AS => {
                    let as_span = self.bump().span;
                    table.as_span = Some(as_span);
                    table.query = Some(std::sync::Arc::new(self.query()?));
                    TableClause::LikeOrAs
                }
                _ => break,
            };
            let span = self.finish(clause_start);
            let max = last.map(|(c, _)| c);
            let start_mode_misplaced = max.is_some_and(|max| {
                clause <= max && (clause == TableClause::StartMode || max == TableClause::StartMode)
            });
            if start_mode_misplaced || repeated_start_mode {
                // One misplaced START_MODE is one finding, however many clauses it precedes.
                if repeated_start_mode || !start_mode_reported {
                    self.start_mode_order_error(table, (clause, span), first_token, last, prev);
                }
                start_mode_reported |= !repeated_start_mode;
            } else {
                self.check_clause_order(&mut last, clause, span);
            }
            prev = Some((clause, span));
            if clause == TableClause::LikeOrAs {
                return Ok(());
            }
        }
        Err(self.expected("`AS` and the materialized table's query"))
    }

    /// A START_MODE clause out of Flink's fixed order, or written twice: where it belongs,
    /// Flink's message (at the first token of `current`), and a fix that swaps two adjacent
    /// clauses.
    fn start_mode_order_error(
        &mut self,
        table: &CreateMaterializedTable,
        current: (TableClause, Span),
        first_token: Span,
        last: Option<(TableClause, Span)>,
        prev: Option<(TableClause, Span)>,
    ) {
        let (clause, span) = current;
        let max = last.map_or(TableClause::Comment, |(c, _)| c);
        let expected = match prev.map(|(c, _)| c) {
            Some(TableClause::StartMode) => {
                let now_without_arg = table.start_mode.as_ref().is_some_and(|m| {
                    matches!(
                        m.kind,
                        StartModeKind::FromNow | StartModeKind::ResumeOrFromNow
                    ) && m.arg.is_none()
                });
                if now_without_arg {
                    expected::AFTER_START_MODE_NOW.to_vec()
                } else {
                    expected::AFTER_START_MODE.to_vec()
                }
            }
            Some(TableClause::RefreshMode) => expected::AFTER_REFRESH_MODE.to_vec(),
            _ => Vec::new(),
        };
        let flink = FlinkSyntax::Encountered {
            at: first_token,
            expected,
        };
        let (message, error_span, swap) = if clause == TableClause::StartMode && max == clause {
            ("START_MODE is written twice".to_string(), span, None)
        } else if clause == TableClause::StartMode {
            (
                format!("START_MODE must come before {}", max.name()),
                span,
                prev.filter(|(c, _)| *c > TableClause::StartMode)
                    .map(|(c, s)| (s, span, format!("Move START_MODE before {}", c.name()))),
            )
        } else {
            let start_mode_span = last.map_or(span, |(_, s)| s);
            (
                format!("START_MODE must come after {}", clause.name()),
                start_mode_span,
                prev.filter(|(c, _)| *c == TableClause::StartMode)
                    .map(|(_, s)| (s, span, format!("Move START_MODE after {}", clause.name()))),
            )
        };
        let help = if message.ends_with("twice") {
            format!("keep one START_MODE clause; {START_MODE_PLACE}")
        } else {
            START_MODE_PLACE.to_string()
        };
        let before = self.error_count();
        self.note_error(SyntaxErrorKind::StartMode, message, error_span, Some(help));
        self.set_flink(before, flink);
        if let Some((a, b, title)) = swap {
            // Swap two adjacent clauses, keeping what is between them.
            let text = self.text;
            let replacement = format!(
                "{}{}{}",
                &text[b.range()],
                &text[a.end as usize..b.start as usize],
                &text[a.range()]
            );
            self.set_suggestion(
                before,
                Suggestion {
                    title,
                    span: a.cover(b),
                    replacement,
                },
            );
        }
    }

    /// `FRESHNESS = value`. The value is parsed as an expression, as Flink does; MT008 checks
    /// that it is an interval literal Flink accepts.
    pub(super) fn freshness(&mut self) -> PResult<Freshness> {
        let start = self.start();
        self.expect(Kw::FRESHNESS)?;
        self.expect_kind(TokenKind::Eq, "`=`")?;
        let interval = self.expr()?;
        Ok(Freshness {
            interval,
            span: self.finish(start),
        })
    }

    /// `REFRESH_MODE = FULL | CONTINUOUS`.
    pub(super) fn refresh_mode(&mut self) -> PResult<RefreshModeClause> {
        let start = self.start();
        self.expect(Kw::REFRESH_MODE)?;
        self.expect_kind(TokenKind::Eq, "`=`")?;
        let mode = match self.kw() {
            Kw::FULL => RefreshMode::Full,
            Kw::CONTINUOUS => RefreshMode::Continuous,
            _ => {
                return Err(self
                    .expected_as_flink("`FULL` or `CONTINUOUS`", &["\"FULL\"", "\"CONTINUOUS\""]))
            }
        };
        self.bump();
        Ok(RefreshModeClause {
            mode,
            span: self.finish(start),
        })
    }

    /// `ALTER MATERIALIZED TABLE name action`.
    pub(super) fn alter_materialized_table(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::ALTER)?;
        self.expect(Kw::MATERIALIZED)?;
        self.expect(Kw::TABLE)?;
        // `IF EXISTS` is kept in the tree for SY005 (no Flink version has it).
        let mut if_exists = None;
        if self.at(Kw::IF) && self.nth_at(1, Kw::EXISTS) {
            let first = self.bump().span;
            let last = self.bump().span;
            if_exists = Some(first.cover(last));
            self.note_refused_form();
        }
        let name = self.object_name("a materialized table name")?;
        let action = match self.kw() {
            Kw::SUSPEND => {
                self.bump();
                AlterMaterializedTableAction::Suspend
            }
            Kw::RESUME => {
                self.bump();
                let with = if self.eat(Kw::WITH).is_some() {
                    Some(self.property_list()?)
                } else {
                    None
                };
                AlterMaterializedTableAction::Resume(with)
            }
            Kw::REFRESH => {
                self.bump();
                let partition = if self.at(Kw::PARTITION) {
                    Some(self.partition_spec()?)
                } else {
                    None
                };
                AlterMaterializedTableAction::Refresh(partition)
            }
            Kw::SET => {
                let set = self.bump().span;
                match self.kw() {
                    Kw::FRESHNESS => AlterMaterializedTableAction::SetFreshness(self.freshness()?),
                    Kw::REFRESH_MODE => {
                        AlterMaterializedTableAction::SetRefreshMode(self.refresh_mode()?)
                    }
                    Kw::START_MODE => {
                        let clause = self.start_mode_clause(Some(set))?;
                        if self.at(Kw::AS) {
                            self.alter_as_query(None, Some(clause))?
                        } else {
                            // No Flink version has it (the seed FLIP's form ends with AS).
                            self.note_refused_form();
                            AlterMaterializedTableAction::SetStartMode(clause)
                        }
                    }
                    _ if self.at_kind(TokenKind::LParen) => {
                        AlterMaterializedTableAction::SetOptions(self.property_list()?)
                    }
                    _ => {
                        return Err(self.expected_as_flink(
                            "`FRESHNESS`, `REFRESH_MODE` or `(` options",
                            expected::ALTER_MT_SET,
                        ))
                    }
                }
            }
            Kw::RESET => {
                self.bump();
                AlterMaterializedTableAction::ResetOptions(self.key_list()?)
            }
            Kw::RENAME => {
                // Not in Flink 2.3's grammar; kept in the tree for MT010.
                self.bump();
                if self.eat(Kw::TO).is_some() {
                    AlterMaterializedTableAction::RenameTo(self.object_name("the new name")?)
                } else {
                    let from = self.object_name("the column to rename")?;
                    self.expect(Kw::TO)?;
                    let to = self.object_name("the new column name")?;
                    AlterMaterializedTableAction::RenameColumn { from, to }
                }
            }
            Kw::WITH => {
                self.bump();
                let with = self.property_list()?;
                let start_mode = if self.at(Kw::SET) && self.nth_at(1, Kw::START_MODE) {
                    let set = self.bump().span;
                    Some(self.start_mode_clause(Some(set))?)
                } else if self.at(Kw::START_MODE) {
                    Some(self.start_mode_clause(None)?)
                } else {
                    None
                };
                self.alter_as_query(Some(with), start_mode)?
            }
            Kw::START_MODE => {
                let clause = self.start_mode_clause(None)?;
                self.alter_as_query(None, Some(clause))?
            }
            Kw::AS => self.alter_as_query(None, None)?,
            Kw::ADD | Kw::MODIFY | Kw::DROP => {
                AlterMaterializedTableAction::Schema(self.schema_change()?)
            }
            _ => return Err(self.expected_as_flink(
                "`SUSPEND`, `RESUME`, `REFRESH`, `SET`, `RESET`, `ADD`, `MODIFY`, `DROP` or `AS`",
                expected::ALTER_MT_ACTIONS,
            )),
        };
        Ok(StatementKind::AlterMaterializedTable(Box::new(
            AlterMaterializedTable {
                if_exists,
                name,
                action,
            },
        )))
    }

    fn alter_as_query(
        &mut self,
        with: Option<PropertyList>,
        start_mode: Option<StartModeClause>,
    ) -> PResult<AlterMaterializedTableAction> {
        let as_span = self.expect(Kw::AS)?;
        let query = std::sync::Arc::new(self.query()?);
        Ok(AlterMaterializedTableAction::AsQuery(Box::new(
            AlterAsQuery {
                with,
                start_mode,
                as_span,
                query,
            },
        )))
    }
}

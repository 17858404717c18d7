//! Materialized tables: CREATE [OR ALTER], ALTER forms, START_MODE, FRESHNESS, REFRESH_MODE
//! (FLIP-435, FLIP-492, FLIP-546, FLIP-550, FLIP-557; flink-spec §2.3-2.4).

use super::ddl::TableClause;
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::SyntaxErrorKind;

impl Parser<'_> {
    /// `CREATE [OR ALTER] MATERIALIZED TABLE name [(elements)] [COMMENT] [DISTRIBUTED ...]
    /// [PARTITIONED BY] [WITH] [START_MODE = ...] [FRESHNESS = ...] [REFRESH_MODE = ...] AS query`.
    pub(super) fn create_materialized_table(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::CREATE)?;
        let mut or_alter = None;
        if let Some(or_span) = self.eat(Kw::OR) {
            if self.at(Kw::REPLACE) {
                let span = self.current().span.cover(or_span);
                self.push_error(
                    SyntaxErrorKind::Unexpected,
                    "REPLACE MATERIALIZED TABLE is not supported.".to_string(),
                    span,
                    Some(
                        "use CREATE OR ALTER MATERIALIZED TABLE to evolve a materialized table"
                            .to_string(),
                    ),
                );
                self.bump();
            } else {
                let alter = self.expect(Kw::ALTER)?;
                or_alter = Some(or_span.cover(alter));
            }
        }
        if let Some(span) = self.eat(Kw::TEMPORARY) {
            self.note_error(
                SyntaxErrorKind::Unexpected,
                "CREATE TEMPORARY MATERIALIZED TABLE is not supported.".to_string(),
                span,
                Some("materialized tables are always permanent: remove TEMPORARY".to_string()),
            );
        }
        self.expect(Kw::MATERIALIZED)?;
        self.expect(Kw::TABLE)?;
        if self.at(Kw::IF) {
            let span = self.current().span;
            return Err(self.push_error(
                SyntaxErrorKind::Unexpected,
                "CREATE MATERIALIZED TABLE does not accept IF NOT EXISTS".to_string(),
                span,
                Some(
                    "use CREATE OR ALTER MATERIALIZED TABLE for an idempotent deployment"
                        .to_string(),
                ),
            ));
        }
        let name = self.object_name("a materialized table name")?;
        let mut table = CreateMaterializedTable {
            or_alter,
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
        let mut last: Option<(TableClause, Span)> = None;
        loop {
            let clause_start = self.start();
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
                        self.note_error(
                            SyntaxErrorKind::StartMode,
                            "START_MODE is written twice".to_string(),
                            clause.span,
                            Some("keep one START_MODE clause".to_string()),
                        );
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
            if clause != TableClause::StartMode || last.is_none_or(|(c, _)| c != clause) {
                // A repeated START_MODE is reported above, with its own message.
                self.check_clause_order(&mut last, clause, span);
            }
            if clause == TableClause::LikeOrAs {
                return Ok(());
            }
        }
        Err(self.expected("`AS` and the materialized table's query"))
    }

    /// `[SET] START_MODE = kind [(arg)]`; `set_keyword` is a `SET` already consumed.
    pub(super) fn start_mode_clause(
        &mut self,
        set_keyword: Option<Span>,
    ) -> PResult<StartModeClause> {
        let start = set_keyword.map_or_else(|| self.start(), |s| s.start);
        self.expect(Kw::START_MODE)?;
        if !self.at_kind(TokenKind::Eq) {
            let found = self.describe_current();
            let span = self.current().span;
            return Err(self.push_error(
                SyntaxErrorKind::StartMode,
                format!("expected `=` after START_MODE, found {found}"),
                span,
                Some("write START_MODE = FROM_BEGINNING (or another mode)".to_string()),
            ));
        }
        self.bump();
        let tok = self.current();
        let kind = match tok.kw {
            Kw::FROM_BEGINNING => StartModeKind::FromBeginning,
            Kw::FROM_NOW => StartModeKind::FromNow,
            Kw::FROM_TIMESTAMP => StartModeKind::FromTimestamp,
            Kw::RESUME_OR_FROM_BEGINNING => StartModeKind::ResumeOrFromBeginning,
            Kw::RESUME_OR_FROM_NOW => StartModeKind::ResumeOrFromNow,
            Kw::RESUME_OR_FROM_TIMESTAMP => StartModeKind::ResumeOrFromTimestamp,
            _ => {
                let found = self.describe(tok);
                let quoted = tok
                    .kind
                    .is_string()
                    .then(|| self.text_of(tok).trim_matches('\'').to_string());
                let help = match quoted.as_deref().and_then(StartModeKind::parse) {
                    Some(k) => format!("write the mode as a keyword, without quotes: START_MODE = {}", k.as_str()),
                    None => "one of FROM_BEGINNING, FROM_NOW[(INTERVAL ...)], FROM_TIMESTAMP(TIMESTAMP '...'), RESUME_OR_FROM_BEGINNING, RESUME_OR_FROM_NOW[(INTERVAL ...)], RESUME_OR_FROM_TIMESTAMP(TIMESTAMP '...')".to_string(),
                };
                return Err(self.push_error(
                    SyntaxErrorKind::StartMode,
                    format!("expected a start mode, found {found}"),
                    tok.span,
                    Some(help),
                ));
            }
        };
        let kind_span = self.bump().span;
        let mut arg = None;
        if self.at_kind(TokenKind::LParen) {
            let open = self.bump().span;
            let value = self.expr()?;
            self.expect_kind(TokenKind::RParen, "`)`")?;
            arg = Some(self.classify_start_mode_arg(kind, value, open)?);
        } else if matches!(
            kind,
            StartModeKind::FromTimestamp | StartModeKind::ResumeOrFromTimestamp
        ) {
            let span = self.finish(kind_span.start);
            return Err(self.push_error(
                SyntaxErrorKind::StartMode,
                format!("{} needs a timestamp argument", kind.as_str()),
                span,
                Some(format!(
                    "write {}(TIMESTAMP '2026-01-01 00:00:00')",
                    kind.as_str()
                )),
            ));
        }
        Ok(StartModeClause {
            set_keyword,
            kind,
            kind_span,
            arg,
            span: self.finish(start),
        })
    }

    /// Checks the argument against what Flink's parser accepts for `kind`.
    fn classify_start_mode_arg(
        &mut self,
        kind: StartModeKind,
        value: Expr,
        open: Span,
    ) -> PResult<StartModeArg> {
        let span = value.span;
        let is_interval = matches!(&value.kind, ExprKind::Literal(Literal::Interval { .. }));
        let is_timestamp = matches!(&value.kind, ExprKind::Literal(Literal::Typed { type_name, .. })
            if type_name == "TIMESTAMP" || type_name == "TIMESTAMP WITH LOCAL TIME ZONE");
        match kind {
            StartModeKind::FromNow | StartModeKind::ResumeOrFromNow => {
                if !is_interval {
                    return Err(self.push_error(
                        SyntaxErrorKind::StartMode,
                        "START_MODE literal must be an interval for FROM_NOW and RESUME_OR_FROM_NOW modes.".to_string(),
                        span,
                        Some(format!("write {}(INTERVAL '1' HOUR), or FROM_TIMESTAMP(TIMESTAMP '...') for an instant", kind.as_str())),
                    ));
                }
                if let ExprKind::Literal(Literal::Interval { qualifier, .. }) = &value.kind {
                    let units = [Some(qualifier.start.as_str()), qualifier.end.as_deref()];
                    if units
                        .iter()
                        .flatten()
                        .any(|u| *u == "MILLISECOND" || *u == "MICROSECOND" || *u == "NANOSECOND")
                    {
                        return Err(self.push_error(
                            SyntaxErrorKind::StartMode,
                            format!("START_MODE intervals cannot be in {}", qualifier.start),
                            qualifier.span,
                            Some(
                                "use SECOND or a larger unit, e.g. INTERVAL '1' SECOND".to_string(),
                            ),
                        ));
                    }
                }
                Ok(StartModeArg::Interval(value))
            }
            StartModeKind::FromTimestamp | StartModeKind::ResumeOrFromTimestamp => {
                if !is_timestamp {
                    let help = match &value.kind {
                        ExprKind::Literal(Literal::String(s)) => format!(
                            "add the TIMESTAMP keyword: {}(TIMESTAMP '{}')",
                            kind.as_str(),
                            s.value.replace('\'', "''")
                        ),
                        _ => format!("write {}(TIMESTAMP 'yyyy-MM-dd HH:mm:ss')", kind.as_str()),
                    };
                    return Err(self.push_error(
                        SyntaxErrorKind::StartMode,
                        format!("{} needs a TIMESTAMP literal", kind.as_str()),
                        span,
                        Some(help),
                    ));
                }
                Ok(StartModeArg::Timestamp(value))
            }
            _ => {
                let span = open.cover(self.finish(open.start));
                Err(self.push_error(
                    SyntaxErrorKind::StartMode,
                    format!("{} takes no argument", kind.as_str()),
                    span,
                    Some(format!("write START_MODE = {}", kind.as_str())),
                ))
            }
        }
    }

    /// `FRESHNESS = INTERVAL ...`.
    pub(super) fn freshness(&mut self) -> PResult<Freshness> {
        let start = self.start();
        self.expect(Kw::FRESHNESS)?;
        self.expect_kind(TokenKind::Eq, "`=`")?;
        let interval = self.expr()?;
        let quoted = match &interval.kind {
            ExprKind::Literal(Literal::Interval { value, .. }) => {
                self.text[value.span.range()].starts_with('\'')
            }
            _ => false,
        };
        if !quoted {
            self.note_error(
                SyntaxErrorKind::Unexpected,
                "MATERIALIZED TABLE only supports define interval type FRESHNESS, please refer to the materialized table document.".to_string(),
                interval.span,
                Some("write FRESHNESS = INTERVAL '3' MINUTE".to_string()),
            );
        }
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
            _ => return Err(self.expected("`FULL` or `CONTINUOUS`")),
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
        if self.at(Kw::IF) {
            return Err(self.expected(
                "a materialized table name (ALTER MATERIALIZED TABLE has no IF EXISTS)",
            ));
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
                            AlterMaterializedTableAction::SetStartMode(clause)
                        }
                    }
                    _ if self.at_kind(TokenKind::LParen) => {
                        AlterMaterializedTableAction::SetOptions(self.property_list()?)
                    }
                    _ => return Err(self.expected("`FRESHNESS`, `REFRESH_MODE` or `(` options")),
                }
            }
            Kw::RESET => {
                self.bump();
                AlterMaterializedTableAction::ResetOptions(self.key_list()?)
            }
            Kw::RENAME => {
                self.bump();
                self.expect(Kw::TO)?;
                AlterMaterializedTableAction::RenameTo(self.object_name("the new name")?)
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
            _ => return Err(self.expected(
                "`SUSPEND`, `RESUME`, `REFRESH`, `SET`, `RESET`, `ADD`, `MODIFY`, `DROP` or `AS`",
            )),
        };
        Ok(StatementKind::AlterMaterializedTable(Box::new(
            AlterMaterializedTable { name, action },
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

//! CREATE TABLE, CREATE VIEW, table elements (columns, constraints, watermarks), LIKE, and the
//! shared pieces: names, property lists, column lists, distribution.
//!
//! This module holds CREATE TABLE (with the clause-order check), DISTRIBUTED BY, LIKE and
//! CREATE VIEW; `elements` the table elements, `common` the pieces other statements share.

mod common;
mod elements;

use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::SyntaxErrorKind;

/// Clauses of CREATE TABLE in Flink's fixed order (flink-spec §2.2).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) enum TableClause {
    Comment,
    Distributed,
    Partitioned,
    With,
    StartMode,
    Freshness,
    RefreshMode,
    LikeOrAs,
}

impl TableClause {
    pub(super) fn name(self) -> &'static str {
        match self {
            TableClause::Comment => "COMMENT",
            TableClause::Distributed => "DISTRIBUTED",
            TableClause::Partitioned => "PARTITIONED BY",
            TableClause::With => "WITH",
            TableClause::StartMode => "START_MODE",
            TableClause::Freshness => "FRESHNESS",
            TableClause::RefreshMode => "REFRESH_MODE",
            TableClause::LikeOrAs => "LIKE / AS",
        }
    }
}

impl Parser<'_> {
    /// `CREATE [OR REPLACE] [TEMPORARY] TABLE ...` or `REPLACE [TEMPORARY] TABLE ...`.
    pub(super) fn create_table_statement(&mut self) -> PResult<StatementKind> {
        let mut or_replace = false;
        let replace_only = self.eat(Kw::REPLACE).is_some();
        if replace_only {
            or_replace = true;
        } else {
            self.expect(Kw::CREATE)?;
            if self.eat(Kw::OR).is_some() {
                self.expect(Kw::REPLACE)?;
                or_replace = true;
            }
        }
        let temporary = self.eat(Kw::TEMPORARY).is_some();
        self.expect(Kw::TABLE)?;
        let if_not_exists = self.if_not_exists()?;
        let name = self.object_name("a table name")?;
        let mut table = CreateTable {
            or_replace,
            replace_only,
            temporary,
            if_not_exists,
            name,
            elements: None,
            comment: None,
            distribution: None,
            partitioned_by: None,
            with: None,
            like: None,
            query: None,
        };
        // Errors in later clauses keep the partial definition for the catalog.
        if self.create_table_rest(&mut table).is_ok() && table.query.is_none() {
            if let Some(elements) = &table.elements {
                if elements
                    .columns()
                    .any(|c| matches!(c.kind, ColumnKind::NameOnly))
                {
                    self.note_error(
                        SyntaxErrorKind::Unexpected,
                        "Columns identifiers without types in the schema are supported on CTAS/RTAS statements only.".to_string(),
                        elements.span,
                        Some("give each column a data type, or add AS <query>".to_string()),
                    );
                }
            }
        }
        Ok(StatementKind::CreateTable(Box::new(table)))
    }

    fn create_table_rest(&mut self, table: &mut CreateTable) -> PResult<()> {
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
                Kw::LIKE => {
                    table.like = Some(self.like_clause()?);
                    TableClause::LikeOrAs
                }
                Kw::AS => {
                    self.bump();
                    table.query = Some(std::sync::Arc::new(self.query()?));
                    TableClause::LikeOrAs
                }
                _ => break,
            };
            let span = self.finish(clause_start);
            self.check_clause_order(&mut last, clause, span);
            if clause == TableClause::LikeOrAs {
                break;
            }
        }
        Ok(())
    }

    /// Records a clause written after one that Flink requires later, or twice.
    pub(super) fn check_clause_order(
        &mut self,
        last: &mut Option<(TableClause, Span)>,
        clause: TableClause,
        span: Span,
    ) {
        if let Some((previous, _)) = *last {
            if clause == previous {
                self.note_error(
                    SyntaxErrorKind::Unexpected,
                    format!("{} is written twice", clause.name()),
                    span,
                    Some("Flink accepts each clause once".to_string()),
                );
            } else if clause < previous {
                // START_MODE is placed by the materialized-table grammar itself (MT004).
                self.note_error(
                    SyntaxErrorKind::ClauseOrder,
                    format!("{} must come before {}", clause.name(), previous.name()),
                    span,
                    Some(clause_order_help(clause)),
                );
            }
        }
        if last.is_none_or(|(previous, _)| clause > previous) {
            *last = Some((clause, span));
        }
    }

    /// `DISTRIBUTED BY [HASH|RANGE] (cols) [INTO n BUCKETS]` or `DISTRIBUTED INTO n BUCKETS`.
    pub(crate) fn distribution(&mut self) -> PResult<Distribution> {
        let start = self.start();
        self.expect(Kw::DISTRIBUTED)?;
        self.distribution_body(start)
    }

    /// The part of a distribution after `DISTRIBUTED` (also after `ADD/MODIFY DISTRIBUTION`).
    pub(crate) fn distribution_body(&mut self, start: u32) -> PResult<Distribution> {
        let mut kind = None;
        let mut columns = None;
        let mut buckets = None;
        if self.eat(Kw::BY).is_some() {
            if self.eat(Kw::HASH).is_some() {
                kind = Some(DistributionKind::Hash);
            } else if self.eat(Kw::RANGE).is_some() {
                kind = Some(DistributionKind::Range);
            }
            columns = Some(self.column_list()?);
            if self.eat(Kw::INTO).is_some() {
                buckets = Some(self.bucket_count()?);
            }
        } else if self.eat(Kw::INTO).is_some() {
            buckets = Some(self.bucket_count()?);
        } else {
            return Err(self.expected("`BY` or `INTO`"));
        }
        Ok(Distribution {
            kind,
            columns,
            buckets,
            span: self.finish(start),
        })
    }

    fn bucket_count(&mut self) -> PResult<u64> {
        let tok = self.current();
        if tok.kind != TokenKind::Integer {
            return Err(self.expected("a positive whole number of buckets"));
        }
        self.bump();
        let n = self.text_of(tok).parse::<u64>().unwrap_or(u64::MAX);
        self.expect(Kw::BUCKETS)?;
        Ok(n)
    }

    /// `LIKE source [(option ...)]` (options space-separated, no commas).
    fn like_clause(&mut self) -> PResult<LikeClause> {
        let start = self.start();
        self.expect(Kw::LIKE)?;
        let source = self.object_name("the LIKE source table")?;
        let mut options = Vec::new();
        if self.eat_kind(TokenKind::LParen).is_some() {
            loop {
                let opt_start = self.start();
                let strategy = match self.kw() {
                    Kw::INCLUDING => MergingStrategy::Including,
                    Kw::EXCLUDING => MergingStrategy::Excluding,
                    Kw::OVERWRITING => MergingStrategy::Overwriting,
                    _ if self.at_kind(TokenKind::Comma) && !options.is_empty() => {
                        let span = self.current().span;
                        return Err(self.push_error(
                            SyntaxErrorKind::Unexpected,
                            "like options are separated by spaces, not commas".to_string(),
                            span,
                            Some(
                                "remove the comma: LIKE src (INCLUDING ALL EXCLUDING OPTIONS)"
                                    .to_string(),
                            ),
                        ));
                    }
                    _ => return Err(self.expected("`INCLUDING`, `EXCLUDING` or `OVERWRITING`")),
                };
                self.bump();
                let feature = match self.kw() {
                    Kw::ALL => FeatureOption::All,
                    Kw::CONSTRAINTS => FeatureOption::Constraints,
                    Kw::DISTRIBUTION => FeatureOption::Distribution,
                    Kw::GENERATED => FeatureOption::Generated,
                    Kw::METADATA => FeatureOption::Metadata,
                    Kw::OPTIONS => FeatureOption::Options,
                    Kw::PARTITIONS => FeatureOption::Partitions,
                    Kw::WATERMARKS => FeatureOption::Watermarks,
                    _ => {
                        return Err(self.expected(
                            "a like feature: ALL, CONSTRAINTS, DISTRIBUTION, GENERATED, METADATA, OPTIONS, PARTITIONS or WATERMARKS",
                        ))
                    }
                };
                self.bump();
                options.push(LikeOption {
                    strategy,
                    feature,
                    span: self.finish(opt_start),
                });
                if self.eat_kind(TokenKind::RParen).is_some() {
                    break;
                }
            }
        }
        Ok(LikeClause {
            source,
            options,
            span: self.finish(start),
        })
    }

    /// `CREATE [OR REPLACE] [TEMPORARY] VIEW [IF NOT EXISTS] name [(cols)] [COMMENT] AS query`.
    pub(super) fn create_view(&mut self) -> PResult<StatementKind> {
        self.expect(Kw::CREATE)?;
        let or_replace = if self.eat(Kw::OR).is_some() {
            self.expect(Kw::REPLACE)?;
            true
        } else {
            false
        };
        let temporary = self.eat(Kw::TEMPORARY).is_some();
        self.expect(Kw::VIEW)?;
        let if_not_exists = self.if_not_exists()?;
        let name = self.object_name("a view name")?;
        let mut view = CreateView {
            or_replace,
            temporary,
            if_not_exists,
            name,
            columns: None,
            comment: None,
            query: None,
        };
        let _ = self.create_view_rest(&mut view);
        Ok(StatementKind::CreateView(Box::new(view)))
    }

    fn create_view_rest(&mut self, view: &mut CreateView) -> PResult<()> {
        if self.at_kind(TokenKind::LParen) {
            view.columns = Some(self.column_list()?);
        }
        if self.eat(Kw::COMMENT).is_some() {
            view.comment = Some(self.string_lit("a comment string")?);
        }
        self.expect(Kw::AS)?;
        view.query = Some(std::sync::Arc::new(self.query()?));
        Ok(())
    }
}

fn clause_order_help(clause: TableClause) -> String {
    match clause {
        TableClause::StartMode | TableClause::Freshness | TableClause::RefreshMode => {
            "Flink's order is: COMMENT, DISTRIBUTED BY, PARTITIONED BY, WITH, START_MODE, FRESHNESS, REFRESH_MODE, AS query".to_string()
        }
        _ => "Flink's order is: COMMENT, DISTRIBUTED BY, PARTITIONED BY, WITH, then LIKE or AS".to_string(),
    }
}

//! CREATE TABLE, CREATE VIEW, table elements (columns, constraints, watermarks), LIKE, and the
//! shared pieces: names, property lists, column lists, distribution.

use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser, Recover};
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
        if self.eat(Kw::REPLACE).is_some() {
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

    /// `[IF NOT EXISTS]`.
    pub(super) fn if_not_exists(&mut self) -> PResult<bool> {
        if self.at(Kw::IF) && self.nth_at(1, Kw::NOT) {
            self.bump();
            self.bump();
            self.expect(Kw::EXISTS)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// `[IF EXISTS]`.
    pub(super) fn if_exists(&mut self) -> PResult<bool> {
        if self.at(Kw::IF) && self.nth_at(1, Kw::EXISTS) {
            self.bump();
            self.bump();
            return Ok(true);
        }
        Ok(false)
    }

    /// A dotted name: `a`, `a.b`, `a.b.c`, ...
    pub(crate) fn object_name(&mut self, what: &str) -> PResult<ObjectName> {
        let start = self.start();
        let mut parts = vec![self.ident(what)?];
        while self.at_kind(TokenKind::Dot) {
            self.bump();
            parts.push(self.ident("a name after `.`")?);
        }
        self.check_dollar_compound(&parts);
        Ok(ObjectName {
            parts,
            span: self.finish(start),
        })
    }

    /// Flink's lexer reads an unquoted `a.b$c` (no spaces) as a single token that no rule
    /// accepts, so `t.$rowtime` and `db.orders$snapshots` are parse errors while `a$b`,
    /// `` t.`$rowtime` `` and `db . a$b` are fine (verified with Flink 2.3).
    pub(crate) fn check_dollar_compound(&mut self, parts: &[Ident]) {
        for pair in parts.windows(2) {
            let (left, right) = (&pair[0], &pair[1]);
            let adjacent = left.span.end + 1 == right.span.start;
            if adjacent && !left.quoted && !right.quoted && right.text.contains('$') {
                let span = left.span.cover(right.span);
                let fixed = format!("{}.`{}`", left.text, right.text.replace('`', "``"));
                self.note_error(
                    SyntaxErrorKind::Unexpected,
                    format!("Flink cannot read `{}.{}`: a qualified name part with `$` must be in backticks", left.text, right.text),
                    span,
                    Some(format!("write {fixed}")),
                );
                return;
            }
        }
    }

    /// `( name, ... )`.
    pub(crate) fn column_list(&mut self) -> PResult<ColumnList> {
        let start = self.start();
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut names = Vec::new();
        loop {
            names.push(self.ident("a column name")?);
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
        Ok(ColumnList {
            names,
            span: self.finish(start),
        })
    }

    /// `( 'k' = 'v', ... )`; empty lists are allowed by the grammar.
    pub(crate) fn property_list(&mut self) -> PResult<PropertyList> {
        let start = self.start();
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut items = Vec::new();
        while !self.at_kind(TokenKind::RParen) && !self.at_eof() {
            let before = self.checkpoint();
            match self.property() {
                Ok(p) => items.push(p),
                Err(Recover) => {
                    if !self.recover_in_list(before.0) {
                        return Err(Recover);
                    }
                }
            }
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
            if self.at_kind(TokenKind::RParen) {
                return Err(self.trailing_comma());
            }
        }
        self.expect_kind(TokenKind::RParen, "`,` or `)` in the option list")?;
        Ok(PropertyList {
            items,
            span: self.finish(start),
        })
    }

    fn property(&mut self) -> PResult<Property> {
        let start = self.start();
        if !self.at_string() {
            let found = self.describe_current();
            let message =
                format!("expected an option key in quotes like 'connector', found {found}");
            return Err(self.error_here(message));
        }
        let key = self.string_lit("an option key")?;
        self.expect_kind(TokenKind::Eq, "`=`")?;
        if !self.at_string() {
            let found = self.describe_current();
            let message = format!("expected an option value in quotes, found {found}");
            return Err(self.error_here(message));
        }
        let value = self.string_lit("an option value")?;
        Ok(Property {
            key,
            value,
            span: self.finish(start),
        })
    }

    /// `( 'k', ... )`.
    pub(crate) fn key_list(&mut self) -> PResult<KeyList> {
        let start = self.start();
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut keys = Vec::new();
        while !self.at_kind(TokenKind::RParen) {
            keys.push(self.string_lit("an option key in quotes")?);
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
        Ok(KeyList {
            keys,
            span: self.finish(start),
        })
    }

    /// After an error inside a parenthesized list: skips to the next `,` or the closing `)` at
    /// this nesting level. Returns whether it resynchronized (the caller continues the list).
    pub(crate) fn recover_in_list(&mut self, element_start: usize) -> bool {
        let _ = element_start;
        let mut depth = 0i32;
        loop {
            match self.kind() {
                TokenKind::Eof | TokenKind::Semicolon => return false,
                TokenKind::LParen | TokenKind::LBracket => depth += 1,
                TokenKind::RParen | TokenKind::RBracket if depth == 0 => {
                    self.resync_quiet();
                    return true;
                }
                TokenKind::RParen | TokenKind::RBracket => depth -= 1,
                TokenKind::Comma if depth == 0 => {
                    self.resync_quiet();
                    return true;
                }
                _ => {}
            }
            if depth == 0 && self.at_statement_start_on_new_line() {
                return false;
            }
            self.bump();
        }
    }

    fn resync_quiet(&mut self) {
        self.resync();
    }

    /// A `,` right before `)`: Flink does not allow trailing commas.
    pub(crate) fn trailing_comma(&mut self) -> Recover {
        let span = self.current().span;
        let comma = Span {
            start: span.start.saturating_sub(1),
            end: span.start,
        };
        let _ = comma;
        self.error_here(
            "expected another element after `,`, found `)`: Flink does not allow a trailing comma"
                .to_string(),
        )
    }

    /// `( element, ... )` of a table definition.
    pub(crate) fn table_elements(&mut self) -> PResult<TableElements> {
        let start = self.start();
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut items = Vec::new();
        let mut failed = false;
        if self.at_kind(TokenKind::RParen) {
            let _ = self.expected("a column definition");
            failed = true;
        }
        while !self.at_kind(TokenKind::RParen) && !self.at_eof() {
            match self.table_element(false) {
                Ok(e) => items.push(e),
                Err(Recover) => {
                    failed = true;
                    if !self.recover_in_list(0) {
                        return Err(Recover);
                    }
                }
            }
            if self.eat_kind(TokenKind::Comma).is_none() {
                if self.at_name() && self.is_first_on_line_here() && !failed {
                    // A missing comma at the end of a line: report it and read on.
                    let found = self.describe_current();
                    let span = self.current().span;
                    self.note_error(
                        SyntaxErrorKind::Unexpected,
                        format!("expected `,` or `)` after the element, found {found} (a comma is missing?)"),
                        span,
                        Some("add `,` at the end of the previous line".to_string()),
                    );
                    continue;
                }
                break;
            }
            if self.at_kind(TokenKind::RParen) {
                return Err(self.trailing_comma());
            }
        }
        if failed && !self.at_kind(TokenKind::RParen) {
            return Err(Recover);
        }
        if !self.at_kind(TokenKind::RParen) {
            // A missing comma between elements is the most common mistake.
            let found = self.describe_current();
            let message = if self.at_name() {
                format!(
                    "expected `,` or `)` after the element, found {found} (a comma is missing?)"
                )
            } else {
                format!("expected `,` or `)` after the element, found {found}")
            };
            return Err(self.error_here(message));
        }
        self.bump();
        let elements = TableElements {
            items,
            span: self.finish(start),
        };
        self.check_elements(&elements);
        Ok(elements)
    }

    /// Parser-level checks of an element list: one WATERMARK (Flink: "Multiple WATERMARK
    /// declarations are not supported yet."), and no mixing of bare names with typed columns.
    fn check_elements(&mut self, elements: &TableElements) {
        if let Some(second) = elements.watermarks().nth(1) {
            self.note_error(
                SyntaxErrorKind::DuplicateWatermark,
                "Multiple WATERMARK declarations are not supported yet.".to_string(),
                second.span,
                Some("keep one WATERMARK clause per table".to_string()),
            );
        }
        // The first element decides whether the list names columns only (CTAS) or defines them.
        let is_bare = |e: &TableElement| {
            matches!(
                e,
                TableElement::Column(ColumnDef {
                    kind: ColumnKind::NameOnly,
                    ..
                })
            )
        };
        if let Some(first) = elements.items.first() {
            let bare_list = is_bare(first);
            if let Some(bad) = elements.items.iter().find(|e| is_bare(e) != bare_list) {
                let (span, message) = match bad {
                    TableElement::Column(c) if bare_list => (
                        c.kind.data_type().map_or(c.span, |t| t.span),
                        "a list of column names cannot also define columns with types".to_string(),
                    ),
                    TableElement::Column(c) => (
                        c.name.span,
                        format!("column `{}` has no data type", c.name.text),
                    ),
                    TableElement::Constraint(c) => (
                        c.span,
                        "a list of column names cannot hold constraints".to_string(),
                    ),
                    TableElement::Watermark(w) => (
                        w.span,
                        "a list of column names cannot hold a watermark".to_string(),
                    ),
                };
                self.note_error(SyntaxErrorKind::Unexpected, message, span, None);
            }
        }
    }

    /// A column, constraint or watermark. `in_alter` allows `FIRST` / `AFTER col`.
    pub(crate) fn table_element(&mut self, in_alter: bool) -> PResult<TableElement> {
        match self.kw() {
            Kw::CONSTRAINT | Kw::PRIMARY | Kw::UNIQUE => {
                Ok(TableElement::Constraint(self.table_constraint()?))
            }
            Kw::WATERMARK if self.nth_at(1, Kw::FOR) => {
                Ok(TableElement::Watermark(self.watermark()?))
            }
            _ => Ok(TableElement::Column(self.column_def(in_alter)?)),
        }
    }

    /// `name type [constraint] [COMMENT]`, `name type METADATA [FROM 'k'] [VIRTUAL] [COMMENT]`,
    /// `name AS expr [COMMENT]`, or a bare `name` (identifiers-only lists).
    fn column_def(&mut self, in_alter: bool) -> PResult<ColumnDef> {
        let start = self.start();
        let mut name = self.ident("a column definition, PRIMARY KEY or WATERMARK")?;
        let mut parents = Vec::new();
        while in_alter && self.at_kind(TokenKind::Dot) {
            self.bump();
            parents.push(std::mem::replace(
                &mut name,
                self.ident("a nested column name")?,
            ));
        }
        let mut constraint = None;
        let kind = if self.eat(Kw::AS).is_some() {
            ColumnKind::Computed {
                expr: std::sync::Arc::new(self.expr()?),
            }
        } else if matches!(self.kind(), TokenKind::Comma | TokenKind::RParen) {
            ColumnKind::NameOnly
        } else {
            let data_type = self.data_type()?;
            if matches!(data_type.kind, TypeKind::Interval(_)) {
                self.note_error(
                    SyntaxErrorKind::Unexpected,
                    "INTERVAL types are not supported as column types".to_string(),
                    data_type.span,
                    Some("store the duration as BIGINT (milliseconds) or STRING".to_string()),
                );
            }
            if self.eat(Kw::METADATA).is_some() {
                let key = if self.eat(Kw::FROM).is_some() {
                    Some(self.string_lit("a metadata key in quotes")?)
                } else {
                    None
                };
                let virtual_span = self.eat(Kw::VIRTUAL);
                ColumnKind::Metadata {
                    data_type,
                    key,
                    virtual_span,
                }
            } else {
                if matches!(self.kw(), Kw::CONSTRAINT | Kw::PRIMARY | Kw::UNIQUE) {
                    constraint = Some(Box::new(self.column_constraint()?));
                }
                ColumnKind::Physical { data_type }
            }
        };
        let comment = if self.eat(Kw::COMMENT).is_some() {
            Some(self.string_lit("a comment string")?)
        } else {
            None
        };
        let position = if in_alter {
            self.column_position()?
        } else {
            None
        };
        Ok(ColumnDef {
            parents,
            name,
            kind,
            constraint,
            comment,
            position: position.map(Box::new),
            span: self.finish(start),
        })
    }

    fn column_position(&mut self) -> PResult<Option<ColumnPosition>> {
        if let Some(span) = self.eat(Kw::FIRST) {
            return Ok(Some(ColumnPosition::First(span)));
        }
        if self.eat(Kw::AFTER).is_some() {
            return Ok(Some(ColumnPosition::After(
                self.object_name("a column name")?,
            )));
        }
        Ok(None)
    }

    fn constraint_name(&mut self) -> PResult<Option<Ident>> {
        if self.eat(Kw::CONSTRAINT).is_some() {
            return Ok(Some(self.ident("a constraint name")?));
        }
        Ok(None)
    }

    fn constraint_kind(&mut self) -> PResult<ConstraintKind> {
        if self.eat(Kw::PRIMARY).is_some() {
            self.expect(Kw::KEY)?;
            Ok(ConstraintKind::PrimaryKey)
        } else if self.eat(Kw::UNIQUE).is_some() {
            Ok(ConstraintKind::Unique)
        } else {
            Err(self.expected("`PRIMARY KEY` or `UNIQUE`"))
        }
    }

    /// `[NOT] ENFORCED`, and the span of the words when they are written.
    fn enforcement(&mut self) -> PResult<(Enforcement, Option<Span>)> {
        if self.at(Kw::NOT) && self.nth_at(1, Kw::ENFORCED) {
            let not = self.bump().span;
            let enforced = self.bump().span;
            return Ok((Enforcement::NotEnforced, Some(not.cover(enforced))));
        }
        if let Some(enforced) = self.eat(Kw::ENFORCED) {
            return Ok((Enforcement::Enforced, Some(enforced)));
        }
        Ok((Enforcement::Unspecified, None))
    }

    fn column_constraint(&mut self) -> PResult<ColumnConstraint> {
        let start = self.start();
        let name = self.constraint_name()?;
        let kind = self.constraint_kind()?;
        let (enforcement, enforcement_span) = self.enforcement()?;
        Ok(ColumnConstraint {
            name,
            kind,
            enforcement,
            enforcement_span,
            span: self.finish(start),
        })
    }

    pub(crate) fn table_constraint(&mut self) -> PResult<TableConstraint> {
        let start = self.start();
        let name = self.constraint_name()?;
        let kind = self.constraint_kind()?;
        let columns = self.column_list()?;
        let (enforcement, enforcement_span) = self.enforcement()?;
        Ok(TableConstraint {
            name,
            kind,
            columns,
            enforcement,
            enforcement_span,
            span: self.finish(start),
        })
    }

    pub(crate) fn watermark(&mut self) -> PResult<Watermark> {
        let start = self.start();
        self.expect(Kw::WATERMARK)?;
        self.expect(Kw::FOR)?;
        let column = self.object_name("the rowtime column")?;
        self.expect(Kw::AS)?;
        let expr = std::sync::Arc::new(self.expr()?);
        Ok(Watermark {
            column,
            expr,
            span: self.finish(start),
        })
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

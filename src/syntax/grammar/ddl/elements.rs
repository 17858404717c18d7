//! Table elements: the parenthesized list of a table definition (with its checks: one
//! WATERMARK, no mixing of bare names with typed columns), columns (physical, metadata,
//! computed; `FIRST` / `AFTER col` in ALTER TABLE), constraints and watermarks.

use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser, Recover};
use crate::syntax::{FlinkSyntax, SyntaxErrorKind};

impl Parser<'_> {
    /// `( element, ... )` of a table definition.
    pub(crate) fn table_elements(&mut self) -> PResult<TableElements> {
        let start = self.start();
        self.expect_kind(TokenKind::LParen, "`(`")?;
        // Tables rarely have fewer columns: one allocation for most lists.
        let mut items = Vec::with_capacity(8);
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
            // The column is built in place of the element (no copy of the definition).
            _ => self.column_def(in_alter),
        }
    }

    /// `name type [constraint] [COMMENT]`, `name type METADATA [FROM 'k'] [VIRTUAL] [COMMENT]`,
    /// `name AS expr [COMMENT]`, or a bare `name` (identifiers-only lists).
    fn column_def(&mut self, in_alter: bool) -> PResult<TableElement> {
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
        // The token after the name, read once: `AS`, `,` or `)`, or a type.
        let next = self.current();
        // The token after a column's type (read below; not read for the other kinds).
        let mut after = next;
        let kind = if next.kw == Kw::AS {
            self.bump_read(next);
            let expr = self.expr()?;
            self.check_no_query(&expr);
            ColumnKind::Computed {
                expr: std::sync::Arc::new(expr),
            }
        } else if matches!(next.kind, TokenKind::Comma | TokenKind::RParen) {
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
            // What follows the type, read once: most columns end here (`,` or `)`).
            after = self.current();
            match after.kw {
                Kw::METADATA => {
                    self.bump();
                    let key = if self.eat(Kw::FROM).is_some() {
                        Some(Box::new(self.string_lit("a metadata key in quotes")?))
                    } else {
                        None
                    };
                    let virtual_span = self.eat(Kw::VIRTUAL);
                    ColumnKind::Metadata {
                        data_type,
                        key,
                        virtual_span,
                    }
                }
                Kw::CONSTRAINT | Kw::PRIMARY | Kw::UNIQUE => {
                    constraint = Some(Box::new(self.column_constraint()?));
                    ColumnKind::Physical { data_type }
                }
                _ => ColumnKind::Physical { data_type },
            }
        };
        // Most columns are physical and end after their type: the token read there says
        // whether a `COMMENT` follows (any other column reads it again).
        let at_comment = match kind {
            ColumnKind::Physical { .. } if constraint.is_none() => after.kw == Kw::COMMENT,
            _ => self.at(Kw::COMMENT),
        };
        let comment = if at_comment {
            self.bump();
            Some(Box::new(self.string_lit("a comment string")?))
        } else {
            None
        };
        let position = if in_alter {
            self.column_position()?
        } else {
            None
        };
        Ok(TableElement::Column(ColumnDef {
            // Most columns have no parents: no call to shrink an empty vector.
            parents: if parents.is_empty() {
                Box::default()
            } else {
                parents.into_boxed_slice()
            },
            name,
            kind,
            constraint,
            comment,
            position: position.map(Box::new),
            span: self.finish(start),
        }))
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
    fn enforcement(&mut self) -> PResult<(Enforcement, Option<crate::source::Span>)> {
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
        let expr = self.expr()?;
        self.check_no_query(&expr);
        let expr = std::sync::Arc::new(expr);
        Ok(Watermark {
            column,
            expr,
            span: self.finish(start),
        })
    }

    /// A subquery in a computed column or a watermark strategy, which Flink rejects: its parser
    /// when the whole expression is a scalar subquery or EXISTS ("Query expression encountered
    /// in illegal context"), its validator otherwise (an internal error naming the scope).
    fn check_no_query(&mut self, expr: &Expr) {
        let is_query = |e: &Expr| {
            matches!(
                e.kind,
                ExprKind::Subquery(_)
                    | ExprKind::Exists(_)
                    | ExprKind::InSubquery { .. }
                    | ExprKind::ArrayQuery(_)
                    | ExprKind::MapQuery(_)
            )
        };
        let mut stack = vec![expr];
        let mut found = None;
        while let Some(e) = stack.pop() {
            if is_query(e) {
                found = Some(e);
                break;
            }
            e.for_each_child(&mut |c| stack.push(c));
        }
        let Some(query) = found else {
            return;
        };
        let before = self.error_count();
        self.note_error(
            SyntaxErrorKind::Unexpected,
            "a subquery in a computed column or watermark: Flink computes these from the row alone"
                .to_string(),
            query.span,
            Some("read the other table in the query that reads this one (a join)".to_string()),
        );
        if matches!(expr.kind, ExprKind::Subquery(_) | ExprKind::Exists(_)) {
            self.set_flink(
                before,
                FlinkSyntax::Verbatim(
                    "Query expression encountered in illegal context".to_string(),
                ),
            );
        }
    }
}

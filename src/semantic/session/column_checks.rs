//! Column checks shared by every kind of statement: the names of its query (the validator of
//! [`crate::semantic::validate`]; another platform's system column read where the tables do
//! not declare it is one of them), a declared column shadowing a system column or in the
//! reserved prefix, and column names differing only in case.

use super::Session;
use crate::files::FileEntry;
use crate::semantic::catalog::ColumnKind;
use crate::semantic::catalog::*;
use crate::semantic::problems::Problem;
use crate::semantic::validate;
use crate::source::Span;
use crate::syntax::ast;
use crate::syntax::ast::*;
use std::collections::{HashMap, HashSet};

impl Session<'_> {
    /// The names of a statement's query, resolved as Flink's validator resolves them
    /// ([`crate::semantic::validate`]): the first problem is reported (Flink stops at it),
    /// another platform's system column read from tables that do not declare it included.
    /// Returns the resolution when the expression checks may follow (no name problem).
    pub(super) fn validate_query(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        query: &Query,
    ) -> Option<validate::Validation> {
        if statement.has_error || !self.validate_queries {
            return None;
        }
        let system = self.system;
        let found = validate::validate(query, self, &system.foreign);
        // A syntax or lexical error between the statement's start and the next statement's
        // (an unterminated comment that swallowed its end): Flink stops there.
        let statements = &file.parsed.script.statements;
        let next = statements.partition_point(|s| s.span.start <= statement.span.start);
        let next_start = statements.get(next).map_or(u32::MAX, |s| s.span.start);
        let errors = &file.parsed.errors;
        let first = errors.partition_point(|e| e.span.start < statement.span.start);
        if errors.get(first).is_some_and(|e| e.span.start < next_start) {
            return Some(found);
        }
        match found.problem {
            Some(problem) => {
                self.report(file.id, statement.span, Problem::Names(problem));
                None
            }
            None => Some(found),
        }
    }

    /// A computed column or watermark strategy of a CREATE TABLE reading another
    /// platform's system column the table does not declare (Flink 2.3: "Unknown identifier";
    /// fixtures/oracle/columns 113-114). A watermark *on* such a column is an invalid watermark
    /// ([`Problem::InvalidWatermark`]). With LIKE the parent may declare it: nothing is
    /// reported.
    pub(super) fn foreign_in_table(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        ct: &CreateTable,
    ) {
        if statement.has_error || ct.like.is_some() || self.system.foreign.is_empty() {
            return;
        }
        let Some(elements) = &ct.elements else {
            return;
        };
        // Each expression with the watermark's rowtime column, if it is a watermark strategy.
        let mut exprs: Vec<(&ast::Expr, Option<&str>)> = Vec::new();
        for item in &elements.items {
            match item {
                TableElement::Column(c) => {
                    if let ast::ColumnKind::Computed { expr } = &c.kind {
                        exprs.push((expr, None));
                    }
                }
                TableElement::Watermark(w) => {
                    exprs.push((&w.expr, w.column.parts.first().map(|p| p.as_str())));
                }
                TableElement::Constraint(_) => {}
            }
        }
        for name in self.system.foreign.clone() {
            if elements.columns().any(|c| c.name.as_str() == name) {
                continue;
            }
            // A watermark on the column itself: an invalid watermark, found where the
            // watermark is resolved (fixtures/oracle/columns 117).
            let found = exprs
                .iter()
                .filter(|(_, on)| *on != Some(name.as_str()))
                .find_map(|(e, _)| {
                    crate::semantic::exprs::column_references(e)
                        .into_iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, span)| span)
                });
            if let Some(span) = found {
                self.report(
                    file.id,
                    statement.span,
                    Problem::ForeignSystemColumn {
                        span,
                        name,
                        in_table: true,
                    },
                );
                return;
            }
        }
    }

    /// A column written in `statement` shadowing a system column or in the reserved prefix.
    pub(super) fn system_column_checks(&mut self, statement: Origin, t: &TableDef) {
        let here = |o: &Origin| o.file == statement.file && statement.span.contains(o.span);
        let problems: Vec<Problem> = t
            .columns
            .iter()
            .filter(|c| here(&c.origin) && c.inherited_from.is_none())
            .filter_map(|c| self.system_column_problem(c, c.origin.span))
            .collect();
        for p in problems {
            self.report(statement.file, statement.span, p);
        }
    }

    /// One declared (or renamed) column shadowing a system column
    /// ([`Problem::SystemColumnShadowed`]) or in the reserved prefix
    /// ([`Problem::ReservedPrefix`]), reported at `span`.
    pub(super) fn system_column_problem(&self, c: &Column, span: Span) -> Option<Problem> {
        let kind = crate::semantic::table::kind_of(&c.kind);
        if let Some(system) = self.system.implicit(&c.name) {
            return Some(Problem::SystemColumnShadowed {
                span,
                name: c.name.to_string(),
                kind,
                system_type: system.type_text.clone(),
            });
        }
        let prefix = self.system.prefix.clone()?;
        if self.system.is_declared_system(c) {
            return None;
        }
        let aliased_key = match &c.kind {
            ColumnKind::Metadata { key: Some(k), .. } if self.system.reserved(k) => Some(k.clone()),
            _ => None,
        };
        (aliased_key.is_some() || self.system.reserved(&c.name)).then(|| Problem::ReservedPrefix {
            span,
            name: c.name.to_string(),
            kind,
            aliased_key: aliased_key.map(String::from),
            prefix,
        })
    }

    /// Columns whose names differ only in letter case, at least one of them written in
    /// `statement` (a pair both from one `*`, or both from earlier statements, was reported
    /// where it was made).
    pub(in crate::semantic) fn case_clashes<T>(
        &mut self,
        statement: Origin,
        columns: &[T],
        column: impl Fn(&T) -> (&str, Origin),
    ) {
        let here = |o: &Origin| o.file == statement.file && statement.span.contains(o.span);
        // A clash pairs two names equal in lower case, one of them written here: only the
        // columns named like a column written here can take part. When few are (an ALTER
        // adding a column to a wide table), only those columns are compared, so a statement
        // costs a scan of the table, not a look-up of each of its columns.
        let written: Vec<&str> = columns
            .iter()
            .map(&column)
            .filter(|(_, o)| here(o))
            .map(|(n, _)| n)
            .take(9)
            .collect();
        if written.is_empty() {
            return;
        }
        let entries: Vec<(&str, Origin)> = if written.len() <= 8 && columns.len() >= 32 {
            let lower: Vec<String> = written.iter().map(|n| n.to_lowercase()).collect();
            let like_written = |name: &str| {
                written.iter().zip(&lower).any(|(w, l)| {
                    if w.is_ascii() && name.is_ascii() {
                        w.eq_ignore_ascii_case(name)
                    } else {
                        name.to_lowercase() == *l
                    }
                })
            };
            columns
                .iter()
                .map(&column)
                .filter(|(n, _)| like_written(n))
                .collect()
        } else {
            columns.iter().map(&column).collect()
        };
        let columns = &entries[..];
        let column = entry;
        // A few columns are compared pairwise (cheaper than hashing). Many go through a map:
        // per lower-case name, its spellings in order of first use, each with its first column;
        // the first earlier column whose name differs from a column's only in case is the
        // first of another spelling (one look-up per column).
        let few = columns.len() < 32;
        let ascii = few && columns.iter().all(|c| column(c).0.is_ascii());
        let clash = |a: &str, b: &str| {
            if ascii {
                a.len() == b.len() && a != b && a.eq_ignore_ascii_case(b)
            } else {
                a != b && a.to_lowercase() == b.to_lowercase()
            }
        };
        let mut spellings: HashMap<String, Vec<(&str, Origin)>> = HashMap::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for (j, c) in columns.iter().enumerate() {
            let (name, origin) = column(c);
            let other = if few {
                columns[..j]
                    .iter()
                    .map(&column)
                    .find(|(n, _)| clash(n, name))
            } else {
                let known = spellings.entry(name.to_lowercase()).or_default();
                // Spellings are distinct: the first or the second differs from `name`.
                let other = known.iter().find(|(n, _)| *n != name).copied();
                if seen.insert(name) {
                    known.push((name, origin));
                }
                other
            };
            let Some((other, other_origin)) = other else {
                continue;
            };
            let (origin, other_origin) = (&origin, &other_origin);
            if !(here(origin) || here(other_origin)) || origin == other_origin {
                continue;
            }
            let (span, name, other, other_origin) = if here(origin) {
                (origin.span, name, other, other_origin)
            } else {
                (other_origin.span, other, name, origin)
            };
            self.report(
                statement.file,
                statement.span,
                Problem::CaseOnlyClash {
                    span,
                    name: name.to_string(),
                    other: other.to_string(),
                    other_origin: Some(*other_origin),
                    rename: false,
                },
            );
        }
    }
}

/// A name and origin as [`Session::case_clashes`] compares them.
fn entry<'a>(c: &(&'a str, Origin)) -> (&'a str, Origin) {
    *c
}

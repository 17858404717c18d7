//! `CREATE TABLE`, plain, with `LIKE` or `AS SELECT`: the existing-name and LIKE-source checks
//! (Flink's `SqlCreateTableConverter`), the merge ([`crate::semantic::table::build_table`]) and
//! the registration of the result; also the repeated-column-name checks of column lists shared
//! with materialized tables.

use super::like_diff::{explain_diff, needle};
use super::Session;
use crate::files::FileEntry;
use crate::semantic::catalog::*;
use crate::semantic::problems::{Found, Problem};
use crate::semantic::query::OutputColumn;
use crate::semantic::table::{self, Declared, Parent, QueryColumns};
use crate::source::FileId;
use crate::syntax::ast;
use crate::syntax::ast::*;

impl Session<'_> {
    /// `CREATE TABLE`, plain, with `LIKE` or `AS SELECT`: an existing name, a LIKE source that
    /// is missing or not a table, then every problem of [`table::build_table`] (for CTAS also
    /// the query's renamed columns), with the diff lines that explain a LIKE problem. The table
    /// is registered unless an existing one stays; one Flink rejects is registered as
    /// incomplete.
    pub(super) fn create_table(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        ct: &CreateTable,
    ) {
        let Some(name) = self.resolve(&ct.name) else {
            return;
        };
        let existing = self.existing(&name, ct.temporary);
        // OR REPLACE replaces with CREATE TABLE ... AS only: without a query Flink 2.3 runs a
        // plain CREATE.
        let replaces = ct.or_replace && ct.query.is_some();
        if let Some(existing) = &existing {
            if !ct.if_not_exists && !replaces {
                self.report(
                    file.id,
                    statement.span,
                    Problem::AlreadyExists {
                        span: ct.name.span,
                        name: name.clone(),
                        existing: existing.clone(),
                        creating: "table",
                    },
                );
            }
        }
        let mut parent_object = None;
        if let Some(like) = &ct.like {
            if let Some(source) = self.resolve(&like.source) {
                match self.catalog.get(&source).cloned() {
                    None => {
                        // Option-list problems come first in Flink; the build reports them.
                        let similar = self.similar(&source);
                        let (_, option_problems) = table::strategies(&like.options);
                        if option_problems.is_empty() {
                            self.report(
                                file.id,
                                statement.span,
                                Problem::LikeSourceNotFound {
                                    span: like.source.span,
                                    name: source,
                                    similar,
                                },
                            );
                        }
                    }
                    // A parent whose definition had a syntax error: its columns are unknown.
                    Some(object) if object.incomplete => {}
                    Some(object) => match &object.def {
                        ObjectDef::Table(_) => parent_object = Some((source, object)),
                        _ => {
                            let (_, option_problems) = table::strategies(&like.options);
                            if option_problems.is_empty() {
                                self.report(
                                    file.id,
                                    statement.span,
                                    Problem::LikeSourceIsView {
                                        span: like.source.span,
                                        name: source,
                                        source: object,
                                    },
                                );
                            }
                        }
                    },
                }
            }
        }
        // CTAS: the query's columns, when the session can see what it reads.
        let query_columns = ct.query.as_ref().map(|q| self.query_columns(q, file.id));
        let declared = Declared {
            file: file.id,
            system: &self.system.implicit,
            elements: ct.elements.as_ref(),
            comment: ct.comment.as_ref(),
            distribution: ct.distribution.as_ref(),
            partitioned_by: ct.partitioned_by.as_ref(),
            with: ct.with.as_ref(),
            like: ct.like.as_ref(),
            query: match &query_columns {
                Some(Some(columns)) => QueryColumns::Known(columns),
                Some(None) => QueryColumns::Unknown,
                None => QueryColumns::None,
            },
        };
        let parent = parent_object
            .as_ref()
            .and_then(|(n, o)| table::parent_table(o).map(|t| Parent { name: n, table: t }));
        let has_parent = parent.is_some();
        let mut built = table::build_table(&declared, parent);
        let mut unknown_query = false;
        // A typed CTAS column list keeps one column per name; an identifier list naming a
        // column twice is rejected ("Number of columns must match number of query columns").
        let names_only = ct.elements.as_ref().is_some_and(|e| {
            e.columns()
                .any(|c| matches!(c.kind, ast::ColumnKind::NameOnly))
        });
        if ct.query.is_some() && !names_only {
            collapse_duplicates(&mut built.problems, false);
        }
        match &query_columns {
            Some(Some(columns)) => {
                built
                    .problems
                    .extend(renamed_columns(columns, file.id, "CREATE TABLE ... AS"));
            }
            // Reads tables the session cannot see: the columns are unknown.
            Some(None) => unknown_query = true,
            None => {}
        }
        // Computed columns and the watermark strategy, once the schema's columns resolve (a
        // double-quoted token is a name to Flink and a string to flinklint's tree).
        if !statement.has_error
            && !built.problems.iter().any(Problem::rejects)
            && !file.source.slice(statement.span).contains('"')
            && (ct.like.is_none() || has_parent)
        {
            if let Some(p) = self.table_expression_problem(ct, &built.table) {
                built.problems.push(p);
            }
        }
        // Flink creates nothing when it rejects the statement; a missing LIKE parent leaves
        // the columns unknown.
        let rejected = statement.has_error
            || unknown_query
            || built.problems.iter().any(Problem::rejects)
            || (ct.like.is_some() && !has_parent);
        // The diff lines that explain LIKE problems; rendered only when there is one.
        let wants_diff = built.problems.iter().any(|p| needle(p).is_some());
        let explain = parent_object
            .as_ref()
            .filter(|_| wants_diff)
            .map(|(_, parent)| {
                let derived = CatalogObject {
                    name: name.clone(),
                    def: ObjectDef::Table(built.table.clone()),
                    temporary: ct.temporary,
                    statement: Origin {
                        file: file.id,
                        span: statement.span,
                    },
                    name_origin: Origin {
                        file: file.id,
                        span: ct.name.span,
                    },
                    incomplete: false,
                    derived_from: None,
                    ambiguous: false,
                };
                let parent_text = match &parent.def {
                    ObjectDef::Table(t) => crate::semantic::show_create::table(parent, t),
                    _ => String::new(),
                };
                (
                    parent_text,
                    crate::semantic::show_create::table(&derived, &built.table),
                    parent.name.object.clone(),
                )
            });
        let skip_problems = statement.has_error
            || (ct.like.is_some()
                && !has_parent
                && built.problems.iter().all(|p| !p.in_like_options()));
        for p in built.problems {
            // Without the parent, only the option-list and constraint checks are meaningful.
            if skip_problems && !p.without_catalog() {
                continue;
            }
            let diff = match (&explain, needle(&p)) {
                (Some((parent_text, derived_text, parent_name)), Some(needle)) => explain_diff(
                    parent_text,
                    derived_text,
                    &needle,
                    parent_name,
                    &name.object,
                ),
                _ => Vec::new(),
            };
            self.found.push(Found {
                file: file.id,
                statement: statement.span,
                problem: p,
                diff,
            });
        }
        // IF NOT EXISTS keeps the existing table; without it Flink rejects the CREATE, so the
        // existing one stays either way (OR REPLACE replaces it).
        if existing.is_some() && !replaces {
            return;
        }
        let object = self.register(CatalogObject {
            name,
            def: ObjectDef::Table(built.table),
            temporary: ct.temporary,
            statement: Origin {
                file: file.id,
                span: statement.span,
            },
            name_origin: Origin {
                file: file.id,
                span: ct.name.span,
            },
            incomplete: rejected,
            derived_from: parent_object.as_ref().map(|(_, o)| o.clone()),
            ambiguous: false,
        });
        self.unused_connector_options(file, statement, &object);
    }
}

/// The query's select items that Flink renames because an earlier item has the same name (`x`
/// becomes `x0`): [`Problem::RenamedQueryColumn`].
pub(in crate::semantic) fn renamed_columns(
    columns: &[OutputColumn],
    file: FileId,
    statement: &'static str,
) -> Vec<Problem> {
    let mut out = Vec::new();
    for (j, c) in columns.iter().enumerate() {
        if c.name == c.written_name {
            continue;
        }
        let Some(first) = columns[..j].iter().find(|k| k.name == c.written_name) else {
            continue;
        };
        out.push(Problem::RenamedQueryColumn {
            span: c.span,
            name: c.written_name.to_string(),
            renamed: c.name.to_string(),
            first: Origin {
                file,
                span: first.span,
            },
            statement,
        });
    }
    out
}

/// A CTAS or materialized-table column list may name a physical column twice: Flink keeps one
/// column of that name, so the [`Problem::DuplicateColumn`] Flink rejects in a plain CREATE
/// TABLE becomes a [`Problem::CollapsedColumnList`] it accepts.
pub(in crate::semantic) fn collapse_duplicates(problems: &mut [Problem], identifiers: bool) {
    for p in problems.iter_mut() {
        if let Problem::DuplicateColumn {
            span,
            name,
            first,
            first_kind: crate::semantic::problems::Kind::Physical,
            second_kind: crate::semantic::problems::Kind::Physical,
        } = p
        {
            *p = Problem::CollapsedColumnList {
                span: *span,
                name: std::mem::take(name),
                first: *first,
                identifiers,
            };
        }
    }
}

//! Views: `CREATE VIEW` and `ALTER VIEW`, with the duplicate-column checks Flink runs on a
//! view's columns (`SqlCreateViewConverter`).

use super::Session;
use crate::files::FileEntry;
use crate::semantic::catalog::*;
use crate::semantic::problems::Problem;
use crate::semantic::query::OutputColumn;
use crate::semantic::types::Type;
use crate::source::Span;
use crate::syntax::ast::*;
use compact_str::CompactString;

impl Session<'_> {
    /// `CREATE VIEW`: an existing name (the existing view stays unless `OR REPLACE`),
    /// repeated column names and names differing only in case, then the view is registered
    /// with its columns and their types as far as the session knows the query.
    pub(super) fn create_view(&mut self, file: &FileEntry, statement: &Statement, v: &CreateView) {
        let Some(name) = self.resolve(&v.name) else {
            return;
        };
        let existing = self.existing(&name, v.temporary);
        if let Some(existing) = &existing {
            if !v.if_not_exists && !v.or_replace {
                self.report(
                    file.id,
                    statement.span,
                    Problem::AlreadyExists {
                        span: v.name.span,
                        name: name.clone(),
                        existing: existing.clone(),
                        creating: "view",
                    },
                );
            }
            if !v.or_replace {
                return;
            }
        }
        let output = v
            .query
            .as_ref()
            .and_then(|q| self.query_columns(q, file.id));
        // The view's columns as written (names and where), for the duplicate checks.
        let written: Option<Vec<(CompactString, Span)>> = match &v.columns {
            Some(list) => Some(
                list.names
                    .iter()
                    .map(|n| (n.text.clone(), n.span))
                    .collect(),
            ),
            None => output.as_ref().map(|cols| {
                cols.iter()
                    .map(|c| (c.written_name.clone(), c.span))
                    .collect()
            }),
        };
        let mut rejected = statement.has_error;
        if let Some(written) = &written {
            if !statement.has_error {
                rejected |= self.view_duplicates(file, statement, written, output.as_deref());
            }
        }
        let columns: Option<Vec<CompactString>> = match &v.columns {
            Some(list) => Some(list.names.iter().map(|n| n.text.clone()).collect()),
            None => output
                .as_ref()
                .map(|cols| cols.iter().map(|c| c.name.clone()).collect()),
        };
        let types = view_types(columns.as_deref(), output.as_deref());
        let expanded_query = v
            .query
            .as_ref()
            .and_then(|q| crate::semantic::render_query::flink_expanded(q, self));
        self.register(CatalogObject {
            name,
            def: ObjectDef::View(ViewDef {
                query: v.query.clone(),
                columns,
                types,
                comment: v.comment.as_ref().map(|c| c.value.clone()),
                expanded_query,
            }),
            temporary: v.temporary,
            statement: Origin {
                file: file.id,
                span: statement.span,
            },
            name_origin: Origin {
                file: file.id,
                span: v.name.span,
            },
            incomplete: rejected,
            derived_from: None,
            ambiguous: false,
        });
    }

    /// A view's repeated column names ([`Problem::DuplicateViewColumn`]): Flink rejects a
    /// view whose columns repeat a name (case-sensitive); also names differing only in case
    /// ([`Problem::CaseOnlyClash`]). Returns whether Flink rejects the view.
    fn view_duplicates(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        written: &[(CompactString, Span)],
        output: Option<&[OutputColumn]>,
    ) -> bool {
        let mut rejected = false;
        // The first column of each name.
        let mut firsts: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::with_capacity(written.len());
        for (j, (name, span)) in written.iter().enumerate() {
            if let Some(&i) = firsts.get(name.as_str()) {
                // Flink points at the select item the first column comes from.
                let flink_at = output
                    .and_then(|o| o.get(i))
                    .map_or(written[i].1.start, |c| c.span.start);
                self.report(
                    file.id,
                    statement.span,
                    Problem::DuplicateViewColumn {
                        span: *span,
                        name: name.to_string(),
                        first: Origin {
                            file: file.id,
                            span: written[i].1,
                        },
                        flink_at,
                    },
                );
                rejected = true;
            } else {
                firsts.insert(name.as_str(), j);
            }
        }
        if !rejected {
            self.case_clashes(
                Origin {
                    file: file.id,
                    span: statement.span,
                },
                written,
                |(n, span)| {
                    (
                        n.as_str(),
                        Origin {
                            file: file.id,
                            span: *span,
                        },
                    )
                },
            );
        }
        rejected
    }

    /// `ALTER VIEW`: a rename (`RENAME TO`) or a new query (`AS`); a view the session cannot see
    /// is left alone.
    pub(super) fn alter_view(&mut self, file: &FileEntry, statement: &Statement, av: &AlterView) {
        let Some(name) = self.resolve(&av.name) else {
            return;
        };
        let Some(object) = self.catalog.get(&name).cloned() else {
            return;
        };
        let ObjectDef::View(v) = &object.def else {
            return;
        };
        // Flink alters permanent views only ("... doesn't exist or is a temporary view."); the
        // view keeps its name and query.
        if object.temporary {
            if !statement.has_error {
                self.report(
                    file.id,
                    statement.span,
                    Problem::AlterTemporary {
                        span: av.name.span,
                        name,
                        origin: object.name_origin,
                        view: true,
                    },
                );
            }
            return;
        }
        let mut v = v.clone();
        let mut new_name = name.clone();
        if let Some(to) = &av.rename_to {
            if let Some(n) = self.resolve(to) {
                new_name = n;
            }
        }
        if let Some(q) = &av.query {
            let output = self.query_columns(q, file.id);
            v.columns = output
                .as_ref()
                .map(|c| c.iter().map(|c| c.name.clone()).collect());
            v.types = view_types(v.columns.as_deref(), output.as_deref());
            v.query = Some(q.clone());
            v.expanded_query = crate::semantic::render_query::flink_expanded(q, self);
        }
        if new_name != name {
            self.catalog.remove(&name, object.temporary);
        }
        self.register(CatalogObject {
            name: new_name,
            def: ObjectDef::View(v),
            temporary: object.temporary,
            statement: Origin {
                file: file.id,
                span: statement.span,
            },
            name_origin: object.name_origin,
            incomplete: object.incomplete,
            derived_from: None,
            ambiguous: false,
        });
    }
}

/// A view's column types: the query's, when it has as many columns as the view.
fn view_types(
    columns: Option<&[CompactString]>,
    output: Option<&[OutputColumn]>,
) -> Vec<Option<Type>> {
    match (columns, output) {
        (Some(c), Some(o)) if c.len() == o.len() => o.iter().map(|c| c.data_type.clone()).collect(),
        _ => Vec::new(),
    }
}

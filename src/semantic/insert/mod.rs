//! INSERT checks against the sink's columns (read-only columns written, column lists and counts
//! that do not fit), as Flink's `PreValidateReWriter`
//! and `DynamicSinkUtils.validateSchemaAndApplyImplicitCast` do them (verified in
//! `fixtures/oracle/columns` 076-106):
//! - a target column list naming a column twice: "Target column 'x' is assigned more than once";
//! - naming a computed or virtual metadata column, or a column the sink lacks: "Unknown target
//!   column 'x'";
//! - a list whose length differs from the query's: "Number of columns must match number of
//!   query columns";
//! - without a list, a query whose column count differs from the sink's persisted (physical and
//!   non-virtual metadata) columns, static partition values counted as query columns: "Column
//!   types of query result and sink for 'cat.db.t' do not match. Cause: Different number of
//!   columns." with both schemas.

use super::catalog::{CatalogObject, Column, ColumnKind, ObjectDef, Origin, TableDef};
use super::names::QualifiedName;
use super::problems::{InsertIssue, Problem, ReadOnly};
use super::query::{self, OutputColumn};
use super::session::Session;
use super::sink_cast;
use super::types::Type;
use crate::files::FileEntry;
use crate::source::Span;
use crate::syntax::ast::{
    ColumnList, ExprKind, Insert, ObjectName, Query, SetExpr, Statement, TableRef,
};
use compact_str::CompactString;
use std::collections::{HashMap, HashSet};

mod sink;

pub use sink::SinkIssue;

impl Session<'_> {
    /// The column problems of an INSERT into `object`; Flink stops at the first problem, so does
    /// this check.
    pub(super) fn check_insert(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        i: &Insert,
        name: &QualifiedName,
        object: &CatalogObject,
    ) {
        if statement.has_error || object.incomplete {
            return;
        }
        let t = match &object.def {
            ObjectDef::Table(t) => t,
            ObjectDef::View(_) => {
                // Flink looks the sink up as a table when it plans the INSERT.
                let p = Problem::SinkSchema {
                    span: i.table.span,
                    table: name.clone(),
                    sink: object.name_origin,
                    issue: SinkIssue::IntoView,
                };
                self.report(file.id, statement.span, p);
                return;
            }
            ObjectDef::Materialized(_) => return,
        };
        if let Some(p) = self
            .insert_problem(file, i, name, object, t)
            .or_else(|| self.sink_problem(file, i, name, object, t))
        {
            self.report(file.id, statement.span, p);
        }
    }

    fn read_only(&self, c: &Column) -> Option<ReadOnly> {
        if self.system.is_declared_system(c) {
            return Some(ReadOnly::System);
        }
        match c.kind {
            ColumnKind::Computed(_) => Some(ReadOnly::Computed),
            ColumnKind::Metadata {
                is_virtual: true, ..
            } => Some(ReadOnly::VirtualMetadata),
            _ => None,
        }
    }

    /// A read-only column of the sink named `column` (`found`: the sink's column of that name,
    /// if any): its kind and declaration.
    fn read_only_column(
        &self,
        t: &TableDef,
        found: Option<&Column>,
        column: &str,
    ) -> Option<(ReadOnly, Option<Origin>)> {
        match found {
            Some(c) => self.read_only(c).map(|k| (k, Some(c.origin))),
            None => self
                .system
                .of_table(t)
                .any(|s| s.name == column)
                .then_some((ReadOnly::System, None)),
        }
    }

    fn insert_problem(
        &self,
        file: &FileEntry,
        i: &Insert,
        name: &QualifiedName,
        object: &CatalogObject,
        t: &TableDef,
    ) -> Option<Problem> {
        let mismatch = |span, issue| Problem::InsertMismatch {
            span,
            table: name.clone(),
            sink: object.name_origin,
            issue,
        };
        // The sink's columns by name (the first of each): a hash map when there are many.
        let mut by_name: HashMap<&str, &Column> = HashMap::new();
        let indexed = t.columns.len() >= 32;
        if indexed {
            by_name.reserve(t.columns.len());
            for c in &t.columns {
                by_name.entry(c.name.as_str()).or_insert(c);
            }
        }
        let sink_column = |name: &str| -> Option<&Column> {
            if indexed {
                by_name.get(name).copied()
            } else {
                t.column(name)
            }
        };
        if let Some(spec) = &i.partition {
            for (key, value) in &spec.items {
                if value.is_some() && sink_column(key.text.as_str()).is_none() {
                    return Some(mismatch(
                        key.span,
                        InsertIssue::UnknownTarget {
                            column: key.text.to_string(),
                            other_case: None,
                        },
                    ));
                }
            }
        }
        if let Some(list) = &i.columns {
            let mut assigned: HashSet<&str> = HashSet::new();
            for (k, n) in list.names.iter().enumerate() {
                let column = n.text.as_str();
                let twice = if list.names.len() < 32 {
                    list.names[..k].iter().any(|m| m.text == n.text)
                } else {
                    !assigned.insert(column)
                };
                if twice {
                    return Some(mismatch(
                        n.span,
                        InsertIssue::AssignedTwice {
                            column: column.to_string(),
                        },
                    ));
                }
                let found = sink_column(column);
                if let Some((kind, declared)) = self.read_only_column(t, found, column) {
                    return Some(Problem::WriteToReadOnly {
                        span: n.span,
                        column: column.to_string(),
                        kind,
                        declared,
                        in_list: true,
                        table: name.clone(),
                        flink: format!("Unknown target column '{column}'"),
                    });
                }
                if found.is_none() {
                    let lower = column.to_lowercase();
                    let other_case = t
                        .columns
                        .iter()
                        .find(|c| c.name.to_lowercase() == lower)
                        .map(|c| c.name.to_string());
                    return Some(mismatch(
                        n.span,
                        InsertIssue::UnknownTarget {
                            column: column.to_string(),
                            other_case,
                        },
                    ));
                }
            }
        }
        // Names first: types are needed only for a count mismatch's message.
        let names = query::output_names(&i.query, self)?;
        if let Some(list) = &i.columns {
            if let Some(column) = self.omitted_not_null(i, t, list) {
                return Some(Problem::SinkSchema {
                    span: list.span,
                    table: name.clone(),
                    sink: object.name_origin,
                    issue: SinkIssue::NotNullOmitted {
                        column: column.name.to_string(),
                        declared: column.origin,
                    },
                });
            }
            // `PreValidateReWriter` appends each static partition value to the query and its
            // column to the list unless the list names it already: a static partition column
            // named in the list makes the query one column longer than the list.
            let statics: Vec<&str> = i
                .partition
                .iter()
                .flat_map(|p| p.items.iter())
                .filter(|(_, v)| v.is_some())
                .map(|(k, _)| k.text.as_str())
                .collect();
            let listed: HashSet<&str> = list.names.iter().map(|n| n.text.as_str()).collect();
            let not_listed = statics.iter().filter(|k| !listed.contains(**k)).count();
            let (list_len, query_len) =
                (list.names.len() + not_listed, names.len() + statics.len());
            if list_len != query_len {
                return Some(mismatch(
                    i.query.span,
                    InsertIssue::ListLength {
                        list: list_len,
                        query: query_len,
                    },
                ));
            }
            return None;
        }
        let is_writable = |c: &&Column| c.kind.is_persisted() && self.read_only(c).is_none();
        if i.partition.is_none() && names.len() == t.columns.iter().filter(is_writable).count() {
            // The common case: the counts agree.
            return None;
        }
        let columns = self.query_columns(&i.query, file.id)?;
        let writable: Vec<&Column> = t.columns.iter().filter(is_writable).collect();
        // Static partition values become query columns at their sink position.
        let mut full: std::borrow::Cow<[OutputColumn]> = std::borrow::Cow::Borrowed(&columns);
        let mut static_partitions = Vec::new();
        if let Some(spec) = &i.partition {
            let full = full.to_mut();
            let mut statics: Vec<(usize, &crate::syntax::ast::Expr, Option<super::types::Type>)> =
                spec.items
                    .iter()
                    .filter_map(|(key, value)| {
                        let value = value.as_ref()?;
                        let at = writable.iter().position(|c| c.name == key.text)?;
                        static_partitions.push(key.text.to_string());
                        Some((at, value, writable[at].data_type.clone()))
                    })
                    .collect();
            statics.sort_by_key(|(at, _, _)| *at);
            for (at, value, sink_type) in statics {
                let at = at.min(full.len());
                let expr_name = query::expr_name(at);
                full.insert(
                    at,
                    OutputColumn {
                        name: expr_name.clone(),
                        written_name: expr_name,
                        // Flink casts the literal to the partition column's type.
                        data_type: sink_type.map(|t| t.with_nullable(false)),
                        span: value.span,
                    },
                );
            }
            query::uniquify(full);
        }
        if full.len() == writable.len() {
            return None;
        }
        // `name: TYPE` per column, when every type is known.
        let schema = |columns: &mut dyn Iterator<Item = (&str, Option<&super::types::Type>)>| {
            columns
                .map(|(name, t)| t.map(|d| format!("{name}: {}", d.summary())))
                .collect::<Option<Vec<String>>>()
        };
        let query_schema =
            schema(&mut full.iter().map(|c| (c.name.as_str(), c.data_type.as_ref())));
        // Flink prints the sink's columns without their top-level NOT NULL.
        let sink_types: Vec<Option<super::types::Type>> = writable
            .iter()
            .map(|c| c.data_type.clone().map(|d| d.with_nullable(true)))
            .collect();
        let sink_schema = schema(
            &mut writable
                .iter()
                .zip(&sink_types)
                .map(|(c, d)| (c.name.as_str(), d.as_ref())),
        );
        let flink = count_message(name, query_schema.as_deref(), sink_schema.as_deref());
        // One column too many, named like a read-only sink column: that column explains it.
        if full.len() > writable.len() {
            for c in &columns {
                let found = sink_column(&c.name);
                if let Some((kind, declared)) = self.read_only_column(t, found, &c.name) {
                    return Some(Problem::WriteToReadOnly {
                        span: c.span,
                        column: c.name.to_string(),
                        kind,
                        declared,
                        in_list: false,
                        table: name.clone(),
                        flink,
                    });
                }
            }
        }
        let read_only = t
            .columns
            .iter()
            .filter(|c| !c.kind.is_persisted() || self.read_only(c).is_some())
            .map(|c| c.name.to_string())
            .collect();
        Some(mismatch(
            i.query.span,
            InsertIssue::Count {
                query: full.len(),
                sink: writable.len(),
                query_schema,
                sink_schema,
                read_only,
                static_partitions,
            },
        ))
    }
}

/// Flink's message for a column-count mismatch; the schemas only when every type is known.
pub fn count_message(
    table: &QualifiedName,
    query: Option<&[String]>,
    sink: Option<&[String]>,
) -> String {
    schema_message(table, "Different number of columns.", query, sink)
}

/// Flink's message for a query whose columns do not fit its sink
/// (`DynamicSinkUtils.validateSchemaAndApplyImplicitCast`): the cause, then both schemas when
/// they are known.
fn schema_message(
    table: &QualifiedName,
    cause: &str,
    query: Option<&[String]>,
    sink: Option<&[String]>,
) -> String {
    let mut out = format!(
        "Column types of query result and sink for '{}' do not match.\nCause: {cause}",
        table.dotted()
    );
    if let (Some(q), Some(s)) = (query, sink) {
        out.push_str(&format!(
            "\n\nQuery schema: [{}]\nSink schema:  [{}]",
            q.join(", "),
            s.join(", ")
        ));
    }
    out
}

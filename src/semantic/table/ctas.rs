//! The columns of a `CREATE TABLE ... AS SELECT` query joined with the declared ones (flink-spec
//! §4.2; Flink's `MergeTableAsUtil`), after step C and before the watermark, primary key and
//! partition keys are checked against the columns.

use super::{derived_columns, Merge, QueryColumns};
use crate::semantic::catalog::{Column, ColumnKind, Origin};
use crate::semantic::query::OutputColumn;
use crate::source::FileId;
use crate::syntax::ast::{self, TableElements};
use std::collections::HashMap;

impl Merge<'_> {
    /// The CTAS step: the query's columns join the declared ones before the references are
    /// checked (see [`ctas_columns`]). Records the columns only the query types (their
    /// nullability is the query's) and whether the query's columns are unknown.
    pub(super) fn query_columns(&mut self) {
        let declared = self.declared;
        self.query_unknown = matches!(declared.query, QueryColumns::Unknown);
        if let QueryColumns::Known(query) = declared.query {
            let typed = |name: &str| {
                derived_columns(declared).any(|d| {
                    d.name.as_str() == name && !matches!(d.kind, ast::ColumnKind::NameOnly)
                })
            };
            self.from_query = query
                .iter()
                .filter(|q| !typed(&q.name))
                .map(|q| q.name.clone())
                .collect();
            self.columns = ctas_columns(&self.columns, query, declared.elements, declared.file);
            self.reindex();
        }
    }
}

/// CTAS-style merge of declared columns with the query's output (flink-spec §4.2): columns
/// only in the DDL come first in DDL order, then the query's columns in query order; a typed
/// DDL column that the query also produces keeps the query position with the DDL type. An
/// identifiers-only list reorders the query's columns.
pub(in crate::semantic) fn ctas_columns(
    declared: &[Column],
    query: &[OutputColumn],
    elements: Option<&TableElements>,
    file: FileId,
) -> Vec<Column> {
    let names_only = elements.is_some_and(|e| {
        e.columns()
            .any(|c| matches!(c.kind, ast::ColumnKind::NameOnly))
    });
    let from_query = |c: &OutputColumn| Column {
        name: c.name.clone(),
        kind: ColumnKind::Physical,
        data_type: c.data_type.clone(),
        comment: None,
        origin: Origin { file, span: c.span },
        inherited_from: None,
    };
    // The first query column and the first declared column of each name.
    let mut by_name: HashMap<&str, &OutputColumn> = HashMap::with_capacity(query.len());
    for q in query {
        by_name.entry(q.name.as_str()).or_insert(q);
    }
    if names_only {
        let mut out: Vec<Column> = declared
            .iter()
            .filter_map(|d| by_name.get(d.name.as_str()).map(|q| from_query(q)))
            .collect();
        if out.len() != query.len() {
            out = query.iter().map(from_query).collect();
        }
        return out;
    }
    let mut declared_by_name: HashMap<&str, &Column> = HashMap::with_capacity(declared.len());
    for d in declared {
        declared_by_name.entry(d.name.as_str()).or_insert(d);
    }
    let mut out: Vec<Column> = declared
        .iter()
        .filter(|d| !by_name.contains_key(d.name.as_str()))
        .cloned()
        .collect();
    for q in query {
        match declared_by_name.get(q.name.as_str()) {
            Some(d) => {
                let mut c = from_query(q);
                if d.data_type.is_some() {
                    c.data_type = d.data_type.clone();
                }
                c.comment = d.comment.clone();
                out.push(c);
            }
            None => out.push(from_query(q)),
        }
    }
    out
}

//! Tables, views and WITH queries by name, and the FROM clause's table references.

use super::super::{Node, Op, TimeAttr};
use super::connectors::source_kinds;
use super::helpers::column;
use super::Builder;
use crate::semantic::catalog::{ColumnKind, ObjectDef};
use crate::semantic::exprs::{self};
use crate::source::Span;
use crate::syntax::ast::{ObjectName, TableAlias, TableRef};
use compact_str::CompactString;

impl Builder<'_> {
    /// A table, view or WITH query by name.
    pub(super) fn named(
        &mut self,
        name: &ObjectName,
        alias: Option<&TableAlias>,
        span: Span,
    ) -> Node {
        let relation: CompactString =
            alias.map_or_else(|| name.last().text.clone(), |a| a.name.text.clone());
        if name.parts.len() == 1 {
            if let Some((_, node)) = self.ctes.iter().rev().find(|(n, _)| *n == name.last().text) {
                let mut node = node.clone();
                set_relation(&mut node, &relation, alias);
                return node;
            }
        }
        let Some((qname, object)) = self.scope.lookup(name) else {
            return self.unknown(span);
        };
        if object.incomplete {
            return self.unknown(span);
        }
        let mut node = match &object.def {
            ObjectDef::Table(t) => {
                let rowtime = t
                    .watermark
                    .as_ref()
                    .filter(|w| w.column.len() == 1)
                    .map(|w| w.column[0].clone());
                let columns = t
                    .columns
                    .iter()
                    .map(|c| {
                        let time = if rowtime.as_deref() == Some(c.name.as_str()) {
                            TimeAttr::Rowtime
                        } else if matches!(&c.kind, ColumnKind::Computed(e) if exprs::is_proctime(e))
                        {
                            TimeAttr::Proctime
                        } else {
                            TimeAttr::None
                        };
                        column(&c.name, time, c.data_type.clone())
                    })
                    .collect();
                let kinds = source_kinds(t);
                if kinds.is_none() {
                    self.unknown_inputs = true;
                }
                let unique_keys = t
                    .primary_key
                    .as_ref()
                    .map(|pk| vec![pk.columns.clone()])
                    .unwrap_or_default();
                Node {
                    op: Op::Scan,
                    detail: format!(
                        "table=[[{}, {}, {}]]",
                        qname.catalog, qname.database, qname.object
                    ),
                    exact: false,
                    columns,
                    kinds,
                    before: false,
                    unique_keys,
                    inputs: Vec::new(),
                    span: self.at(span),
                }
            }
            ObjectDef::View(v) => {
                let Some(query) = v.query.clone() else {
                    return self.unknown(span);
                };
                let saved_anchor = self.anchor;
                let saved_ctes = std::mem::take(&mut self.ctes);
                self.anchor = Some(self.at(span));
                let mut node = self.query(&query);
                self.anchor = saved_anchor;
                self.ctes = saved_ctes;
                if let Some(cols) = &v.columns {
                    rename(&mut node, cols.clone());
                }
                node
            }
            ObjectDef::Materialized(_) => return self.unknown(span),
        };
        set_relation(&mut node, &relation, alias);
        node
    }

    pub(super) fn table_ref(&mut self, t: &TableRef) -> Node {
        match t {
            TableRef::Named {
                name,
                alias,
                span,
                system_time: None,
                ..
            } => self.named(name, alias.as_ref(), *span),
            TableRef::Subquery {
                lateral: false,
                query,
                alias,
                ..
            } => {
                let mut node = self.query(query);
                if let Some(a) = alias {
                    set_relation(&mut node, &a.name.text, Some(a));
                }
                node
            }
            TableRef::Nested { inner, alias, .. } => {
                let mut node = self.table_ref(inner);
                if let Some(a) = alias {
                    set_relation(&mut node, &a.name.text, Some(a));
                }
                node
            }
            TableRef::Function {
                lateral: false,
                call,
                alias,
                span,
            } => {
                let mut node = self.window_tvf(call, *span);
                if let Some(a) = alias {
                    set_relation(&mut node, &a.name.text, Some(a));
                }
                node
            }
            TableRef::Join {
                left,
                right,
                kind,
                on,
                span,
                ..
            } => self.join(left, right, *kind, on.as_deref(), *span),
            other => self.unknown(other.span()),
        }
    }
}

/// Renames a node's columns (`AS t (a, b)`, a view's or WITH query's column list).
pub(super) fn rename(node: &mut Node, names: Vec<CompactString>) {
    if names.len() != node.columns.len() {
        return;
    }
    for (c, n) in node.columns.iter_mut().zip(names) {
        c.name = n;
    }
}

/// Sets the relation name of a node's columns (and renames them by the alias's column list).
pub(super) fn set_relation(node: &mut Node, relation: &str, alias: Option<&TableAlias>) {
    if let Some(a) = alias {
        if !a.columns.is_empty() {
            rename(node, a.columns.iter().map(|c| c.text.clone()).collect());
        }
    }
    for c in &mut node.columns {
        c.relation = Some(relation.into());
    }
}

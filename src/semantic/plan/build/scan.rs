//! Tables, views and WITH queries by name, and the FROM clause's table references.

use super::super::{producer, Node, Op, StreamProblem, TimeAttr};
use super::connectors::source_kinds;
use super::helpers::{changes_text, column, expr_time, ident_name, Columns};
use super::Builder;
use crate::semantic::catalog::{ColumnKind, ObjectDef};
use crate::semantic::exprs::{self};
use crate::source::Span;
use crate::syntax::ast::{
    Expr, ExprKind, ObjectName, Over, Select, SelectItem, TableAlias, TableRef,
};
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
            if let Some((_, node, problem)) = self
                .ctes
                .iter()
                .rev()
                .find(|(n, _, _)| *n == name.last().text)
            {
                let mut node = node.clone();
                if let Some(p) = problem.clone() {
                    self.found(p);
                }
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
                        // A computed column's type, when the catalog has none: inferred
                        // from the table's columns (`ts2 AS CAST(ts AS TIMESTAMP(3))`).
                        let data_type = c.data_type.clone().or_else(|| match &c.kind {
                            ColumnKind::Computed(e) => exprs::infer_type(e, &|n| {
                                t.columns
                                    .iter()
                                    .find(|c| c.name == n)
                                    .and_then(|c| c.data_type.clone())
                            }),
                            _ => None,
                        });
                        column(&c.name, time, data_type)
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
                // Flink's description: the physical fields read; a source that accepts
                // projection pushdown (filesystem) lists the fields the query uses once
                // `describe_scans` knows them.
                let path = cat!(qname.catalog, ", ", qname.database, ", ", qname.object);
                let physical: Vec<CompactString> = t
                    .columns
                    .iter()
                    .filter(|c| matches!(c.kind, ColumnKind::Physical))
                    .map(|c| c.name.clone())
                    .collect();
                let only_physical = physical.len()
                    + t.columns
                        .iter()
                        .filter(|c| matches!(&c.kind, ColumnKind::Computed(_)))
                        .count()
                    == t.columns.len();
                let connector = t.option("connector").map(|o| o.value.trim().to_string());
                let known =
                    only_physical && matches!(connector.as_deref(), Some("datagen" | "filesystem"));
                let scan_span = self.at(span);
                if connector.as_deref() == Some("filesystem") && only_physical {
                    let info = ScanInfo {
                        path: path.clone(),
                        physical: physical.clone(),
                        watermark: rowtime.clone(),
                    };
                    if self.scans.insert(scan_span, info).is_some() {
                        self.scans_ambiguous.push(scan_span);
                    }
                }
                Node {
                    op: Op::Scan,
                    detail: cat!("table=[[", path, "]], fields=[", physical.join(", "), "]"),
                    exact: known,
                    columns,
                    kinds,
                    before: false,
                    unique_keys,
                    key_info: Default::default(),
                    inputs: Vec::new(),
                    span: scan_span,
                }
            }
            ObjectDef::View(v) => {
                let Some(query) = v.query.clone() else {
                    return self.unknown(span);
                };
                let saved_anchor = self.anchor;
                let saved_ctes = std::mem::take(&mut self.ctes);
                self.anchor = Some(self.at(span));
                // A view's ORDER BY is kept (Flink expands the view's query as written).
                self.sort_kept = true;
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
            } => self.join(left, right, *kind, on.as_deref(), None, *span),
            TableRef::MatchRecognize {
                input,
                order_by,
                span,
                ..
            } => {
                let input = self.table_ref(input);
                // `StreamExecMatch`: ordered first by an ascending time attribute.
                if let Some(first) = order_by.first() {
                    let cols = Columns::new(&input.columns);
                    let descending = match expr_time(&first.expr, &cols) {
                        TimeAttr::None => Some(false),
                        TimeAttr::Rowtime | TimeAttr::Proctime if first.descending => Some(true),
                        _ => None,
                    };
                    if let Some(descending) = descending {
                        self.found(StreamProblem::SortNotOnTime {
                            span: self.at(first.span),
                            column: ident_name(&first.expr)
                                .map(|n| n.to_string())
                                .unwrap_or_default(),
                            descending,
                            match_recognize: true,
                        });
                    }
                }
                // `FlinkChangelogModeInferenceProgram`: MATCH_RECOGNIZE consumes only inserts.
                if !self.unknown_inputs
                    && input.fully_known()
                    && input.kinds.is_some_and(|k| !k.insert_only())
                {
                    let p = producer(&input);
                    if let Some(changes) = p.kinds.map(changes_text) {
                        let problem = StreamProblem::UpdatesIntoInsertOnlyOperator {
                            span: p.span,
                            consumer_span: self.at(*span),
                            requester: "Match Recognize",
                            changes: changes.to_string(),
                            node: p.op.name(),
                            description: p.description(),
                        };
                        self.found(problem);
                    }
                }
                let mut n = self.unknown(*span);
                n.inputs = vec![input];
                n
            }
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

/// What `describe_scans` needs of a scan that accepts projection pushdown.
#[derive(Debug, Clone)]
pub(super) struct ScanInfo {
    /// `cat, db, t`.
    path: String,
    /// The physical columns, in the table's order.
    physical: Vec<CompactString>,
    /// The watermark's column (read even when the query does not use it).
    watermark: Option<CompactString>,
}

impl Builder<'_> {
    /// Renders the scans directly below a SELECT block (through its joins) as Flink does
    /// after projection pushdown: `table=[[cat, db, t, project=[a, b], metadata=[]]],
    /// fields=[a, b]` when the block uses only some of the physical columns.
    pub(super) fn describe_scans(&self, node: &mut Node, s: &Select) {
        if self.scans.is_empty() {
            return;
        }
        let mut refs: Vec<(Option<CompactString>, CompactString)> = Vec::new();
        let mut wildcards: Vec<Option<CompactString>> = Vec::new();
        let visit = |e: &Expr, refs: &mut Vec<(Option<CompactString>, CompactString)>| {
            exprs::walk(e, &mut |x| match &x.kind {
                ExprKind::Identifier(n) => match n.parts.as_slice() {
                    [c] => refs.push((None, c.text.clone())),
                    [r, c, ..] => refs.push((Some(r.text.clone()), c.text.clone())),
                    [] => {}
                },
                ExprKind::Function(call) => {
                    if let Some(Over::Spec(spec)) = call.over.as_deref() {
                        for p in spec
                            .partition_by
                            .iter()
                            .chain(spec.order_by.iter().map(|o| &o.expr))
                        {
                            exprs::walk(p, &mut |y| {
                                if let ExprKind::Identifier(n) = &y.kind {
                                    match n.parts.as_slice() {
                                        [c] => refs.push((None, c.text.clone())),
                                        [r, c, ..] => {
                                            refs.push((Some(r.text.clone()), c.text.clone()))
                                        }
                                        [] => {}
                                    }
                                }
                            });
                        }
                    }
                }
                _ => {}
            });
        };
        for item in &s.items {
            match item {
                SelectItem::Expr { expr, .. } => visit(expr, &mut refs),
                SelectItem::Wildcard { qualifier, .. } => {
                    wildcards.push(qualifier.as_ref().map(|q| q.last().text.clone()))
                }
            }
        }
        for e in s
            .selection
            .iter()
            .chain(s.group_by.iter())
            .chain(s.having.iter())
            .chain(s.qualify.iter())
        {
            visit(e, &mut refs);
        }
        let mut ons = Vec::new();
        if let Some(from) = &s.from {
            join_conditions(from, &mut ons, 0);
        }
        for e in ons {
            visit(e, &mut refs);
        }
        self.refine(node, &refs, &wildcards, 0);
    }

    /// A problem recorded while the block's joins were built names a scan by its description:
    /// once `describe_scans` rendered the scan, the problem names it so.
    pub(super) fn redescribe_problem(&mut self, node: &Node) {
        let Some(StreamProblem::UpdatesIntoInsertOnlyOperator {
            span, description, ..
        }) = &mut self.problem
        else {
            return;
        };
        fn find(n: &Node, span: Span, depth: usize) -> Option<&Node> {
            if n.op == Op::Scan && n.span == span {
                return Some(n);
            }
            if depth > 64
                || !matches!(
                    n.op,
                    Op::Join
                        | Op::IntervalJoin
                        | Op::WindowJoin
                        | Op::TemporalJoin
                        | Op::LookupJoin
                )
            {
                return None;
            }
            n.inputs.iter().find_map(|i| find(i, span, depth + 1))
        }
        if let Some(scan) = find(node, *span, 0) {
            *description = scan.description();
        }
    }

    fn refine(
        &self,
        node: &mut Node,
        refs: &[(Option<CompactString>, CompactString)],
        wildcards: &[Option<CompactString>],
        depth: usize,
    ) {
        if depth > 64 {
            return;
        }
        match node.op {
            Op::Scan => {
                if self.scans_ambiguous.contains(&node.span) {
                    return;
                }
                let Some(info) = self.scans.get(&node.span) else {
                    return;
                };
                let relation = node.columns.first().and_then(|c| c.relation.clone());
                let all = wildcards.iter().any(|w| w.is_none() || *w == relation);
                if all {
                    return;
                }
                let used: Vec<&CompactString> = info
                    .physical
                    .iter()
                    .filter(|c| {
                        info.watermark.as_ref() == Some(*c)
                            || refs
                                .iter()
                                .any(|(r, n)| n == *c && (r.is_none() || *r == relation))
                    })
                    .collect();
                if used.len() == info.physical.len() {
                    return;
                }
                let names: Vec<&str> = used.iter().map(|c| c.as_str()).collect();
                node.detail = format!(
                    "table=[[{}, project=[{}], metadata=[]]], fields=[{}]",
                    info.path,
                    names.join(", "),
                    names.join(", ")
                );
            }
            Op::Join | Op::IntervalJoin | Op::WindowJoin | Op::TemporalJoin | Op::LookupJoin => {
                for input in &mut node.inputs {
                    self.refine(input, refs, wildcards, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// The ON conditions of a FROM clause's joins.
fn join_conditions<'q>(t: &'q TableRef, out: &mut Vec<&'q Expr>, depth: usize) {
    if depth > 64 {
        return;
    }
    match t {
        TableRef::Join {
            left, right, on, ..
        } => {
            if let Some(on) = on {
                out.push(on);
            }
            join_conditions(left, out, depth + 1);
            join_conditions(right, out, depth + 1);
        }
        TableRef::Nested { inner, .. } => join_conditions(inner, out, depth + 1),
        _ => {}
    }
}

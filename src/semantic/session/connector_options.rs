//! Connector options checked where Flink checks them: Flink accepts any options at `CREATE
//! TABLE` and asks the connector's factory for a source or a sink only when a statement reads
//! or writes the table (a query, `INSERT INTO`, a view's query, `EXPLAIN`). The first such
//! statement of the session gets the problems ([`Problem::ConnectorOption`] with `used`,
//! [`Problem::ConnectorDirection`]); a table that nothing uses gets them at its `CREATE TABLE`
//! without `used`, and the end of the run drops those that a use reported
//! ([`crate::semantic::keep_unused_option_problems_once`]).

use super::Session;
use crate::files::FileEntry;
use crate::semantic::catalog::{CatalogObject, ObjectDef};
use crate::semantic::exprs;
use crate::semantic::options;
use crate::semantic::problems::{Problem, TableUse};
use crate::syntax::ast::*;
use std::sync::Arc;

/// How deep the walk follows nested queries and views (hostile input stays bounded).
const MAX_DEPTH: usize = 64;

impl Session<'_> {
    /// Checks the connectors of the tables `statement` reads and writes, before the statement
    /// runs (called for every statement [`Session::apply`] applies, and for the statement an
    /// `EXPLAIN` or `COMPILE PLAN` plans).
    pub(super) fn connector_uses(&mut self, file: &FileEntry, statement: &Statement) {
        if statement.has_error {
            return;
        }
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        uses(statement, &mut reads, &mut writes);
        // Views expanded for this statement: each once (a view reachable along several paths
        // is not walked again, so the cost stays linear in the views).
        let mut expanded = std::collections::HashSet::new();
        for name in reads {
            self.read_name(file, statement, name, name.span, 0, &mut expanded);
        }
        for name in writes {
            let Some(q) = self.resolve(name) else {
                continue;
            };
            if let Some(object) = self.catalog.get(&q).cloned() {
                self.check_use(file, statement, name.span, &object, true);
            }
        }
    }

    /// A name the statement reads: a table is checked, a view's query is followed (its
    /// tables are read by the statement too; the error goes on the statement's name).
    fn read_name(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        name: &ObjectName,
        at: crate::source::Span,
        depth: usize,
        expanded: &mut std::collections::HashSet<usize>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(q) = self.resolve(name) else {
            return;
        };
        let Some(object) = self.catalog.get(&q).cloned() else {
            return;
        };
        match &object.def {
            ObjectDef::Table(_) => self.check_use(file, statement, at, &object, false),
            ObjectDef::View(v) => {
                if object.incomplete
                    || object.ambiguous
                    || !expanded.insert(Arc::as_ptr(&object) as usize)
                {
                    return;
                }
                let Some(query) = v.query.clone() else {
                    return;
                };
                let mut names = Vec::new();
                query_reads(&query, &mut Vec::new(), &mut names, 0);
                for inner in names {
                    self.read_name(file, statement, inner, at, depth + 1, expanded);
                }
            }
            ObjectDef::Materialized(_) => {}
        }
    }

    /// The checks of one use of a table, once per version of the table and session.
    fn check_use(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        span: crate::source::Span,
        object: &Arc<CatalogObject>,
        write: bool,
    ) {
        // A table of the `external-tables` files stands for one that lives elsewhere: its
        // declaration need not carry the real options.
        if object.incomplete
            || object.ambiguous
            || self.catalog.is_external_file(object.statement.file)
        {
            return;
        }
        let ObjectDef::Table(table) = &object.def else {
            return;
        };
        let Some(known) = self.connectors else {
            return;
        };
        let Some((connector, connector_origin)) = options::connector_of(known, table) else {
            return;
        };
        let identity = Arc::as_ptr(object) as usize;
        let can = if write {
            connector.sink_table
        } else {
            connector.source_table
        };
        if !can {
            if self.option_checked.insert((identity, 1 + u8::from(write))) {
                self.option_held.push(object.clone());
                self.report(
                    file.id,
                    statement.span,
                    Problem::ConnectorDirection {
                        span,
                        table: object.name.clone(),
                        connector: connector.name.as_str().into(),
                        connector_origin,
                        write,
                    },
                );
            }
            return;
        }
        let mut issues = Vec::new();
        let mut checked = false;
        if self.option_checked.insert((identity, 0)) {
            checked = true;
            // The problems found at the CREATE TABLE, unless a write checks more.
            issues = match self.option_unused.remove(&identity) {
                Some((held, found)) if Arc::ptr_eq(&held, object) => found,
                _ => options::check_use(known, table, Some(write)),
            };
        }
        // Metadata columns are checked against what the source can read, on the first read.
        if !write && self.option_checked.insert((identity, 3)) {
            checked = true;
            issues.extend(options::check_read_metadata(known, table));
        }
        if checked {
            self.option_held.push(object.clone());
        }
        for issue in issues {
            self.report(
                file.id,
                statement.span,
                Problem::ConnectorOption {
                    issue,
                    table: object.name.clone(),
                    used: Some(TableUse { span, write }),
                },
            );
        }
    }

    /// The option problems of a table `statement` just created, as if nothing used it.
    pub(super) fn unused_connector_options(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        object: &Arc<CatalogObject>,
    ) {
        if statement.has_error || object.incomplete {
            return;
        }
        // CREATE TABLE ... AS: the statement writes the table it creates (Flink plans the
        // sink with it).
        if let StatementKind::CreateTable(ct) = &statement.kind {
            if ct.query.is_some() {
                self.check_use(file, statement, ct.name.span, object, true);
                return;
            }
        }
        let (ObjectDef::Table(table), Some(known)) = (&object.def, self.connectors) else {
            return;
        };
        let (issues, write_sensitive) = options::check_use_tracked(known, table, None);
        if !write_sensitive {
            self.option_unused.insert(
                Arc::as_ptr(object) as usize,
                (object.clone(), issues.clone()),
            );
        }
        for issue in issues {
            self.report(
                file.id,
                statement.span,
                Problem::ConnectorOption {
                    issue,
                    table: object.name.clone(),
                    used: None,
                },
            );
        }
    }
}

/// The names a statement reads and the tables it writes, in order, for the statements whose
/// planning creates sources and sinks. Statement sets and `EXECUTE` are applied statement by
/// statement (their members reach [`Session::connector_uses`] themselves); `EXPLAIN` and
/// `COMPILE PLAN` plan their statement without running it.
fn uses<'a>(
    statement: &'a Statement,
    reads: &mut Vec<&'a ObjectName>,
    writes: &mut Vec<&'a ObjectName>,
) {
    match &statement.kind {
        StatementKind::Query(q) => query_reads(q, &mut Vec::new(), reads, 0),
        StatementKind::Insert(i) => {
            query_reads(&i.query, &mut Vec::new(), reads, 0);
            writes.push(&i.table);
        }
        StatementKind::CreateTable(ct) => {
            if let Some(q) = &ct.query {
                query_reads(q, &mut Vec::new(), reads, 0);
            }
        }
        StatementKind::CreateView(v) => {
            if let Some(q) = &v.query {
                query_reads(q, &mut Vec::new(), reads, 0);
            }
        }
        StatementKind::Wrapped(w)
            if matches!(w.wrapper, WrapperKind::Explain | WrapperKind::CompilePlan) =>
        {
            match &w.inner.kind {
                StatementKind::StatementSet(set) => {
                    for s in &set.statements {
                        uses(s, reads, writes);
                    }
                }
                _ => uses(&w.inner, reads, writes),
            }
        }
        _ => {}
    }
}

/// The tables and views a query reads (not its CTEs), in order.
fn query_reads<'a>(
    q: &'a Query,
    ctes: &mut Vec<&'a str>,
    out: &mut Vec<&'a ObjectName>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let base = ctes.len();
    for cte in &q.with {
        query_reads(&cte.query, ctes, out, depth + 1);
        ctes.push(cte.name.text.as_str());
    }
    set_reads(&q.body, ctes, out, depth + 1);
    ctes.truncate(base);
}

fn set_reads<'a>(
    body: &'a SetExpr,
    ctes: &mut Vec<&'a str>,
    out: &mut Vec<&'a ObjectName>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match body {
        SetExpr::Select(s) => {
            if let Some(from) = &s.from {
                table_reads(from, ctes, out, depth + 1);
            }
            let mut queries = Vec::new();
            for item in &s.items {
                if let SelectItem::Expr { expr, .. } = item {
                    expr_reads(expr, &mut queries, ctes, out);
                }
            }
            for e in s.selection.iter().chain(s.having.iter()) {
                expr_reads(e, &mut queries, ctes, out);
            }
            for q in queries {
                query_reads(q, ctes, out, depth + 1);
            }
        }
        SetExpr::Values(_) => {}
        SetExpr::Table(name) => named(name, ctes, out),
        SetExpr::Query(q) => query_reads(q, ctes, out, depth + 1),
        SetExpr::SetOperation { left, right, .. } => {
            set_reads(left, ctes, out, depth + 1);
            set_reads(right, ctes, out, depth + 1);
        }
    }
}

fn table_reads<'a>(
    t: &'a TableRef,
    ctes: &mut Vec<&'a str>,
    out: &mut Vec<&'a ObjectName>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match t {
        TableRef::Named { name, .. } => named(name, ctes, out),
        TableRef::Subquery { query, .. } => query_reads(query, ctes, out, depth + 1),
        TableRef::Function { call, .. } => {
            let mut queries = Vec::new();
            expr_reads(call, &mut queries, ctes, out);
            for q in queries {
                query_reads(q, ctes, out, depth + 1);
            }
        }
        TableRef::Unnest { .. } => {}
        TableRef::Join {
            left, right, on, ..
        } => {
            table_reads(left, ctes, out, depth + 1);
            table_reads(right, ctes, out, depth + 1);
            if let Some(on) = on {
                let mut queries = Vec::new();
                expr_reads(on, &mut queries, ctes, out);
                for q in queries {
                    query_reads(q, ctes, out, depth + 1);
                }
            }
        }
        TableRef::MatchRecognize { input, .. } => table_reads(input, ctes, out, depth + 1),
        TableRef::Nested { inner, .. } => table_reads(inner, ctes, out, depth + 1),
    }
}

/// The subqueries of an expression (collected, walked by the caller) and the tables passed
/// as `TABLE t` arguments.
fn expr_reads<'a>(
    e: &'a Expr,
    queries: &mut Vec<&'a Query>,
    ctes: &[&'a str],
    out: &mut Vec<&'a ObjectName>,
) {
    exprs::walk(e, &mut |x| match &x.kind {
        ExprKind::InSubquery { query, .. }
        | ExprKind::Subquery(query)
        | ExprKind::Exists(query)
        | ExprKind::ArrayQuery(query)
        | ExprKind::MapQuery(query) => queries.push(query),
        ExprKind::TableArg(name, ..) => named(name, ctes, out),
        _ => {}
    });
}

fn named<'a>(name: &'a ObjectName, ctes: &[&'a str], out: &mut Vec<&'a ObjectName>) {
    if name.parts.len() == 1 && ctes.contains(&name.parts[0].text.as_str()) {
        return;
    }
    out.push(name);
}

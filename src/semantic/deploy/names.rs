//! What a script creates and what it uses, read from its syntax trees before any session runs:
//! the edges of the deployment order.
//!
//! Names are resolved as the session would resolve them (`USE CATALOG` and `USE` followed in
//! order). A script *creates* the names of its permanent `CREATE TABLE`, `CREATE VIEW` and
//! `CREATE MATERIALIZED TABLE` statements and of its `RENAME TO`s; it *uses* every other name
//! it reads or changes: the target of an `INSERT`, `ALTER` or `DROP`, a `LIKE` source, and the
//! tables of its queries (`FROM`, joins, subqueries, `TABLE t` arguments), common table
//! expressions excepted. A name the script creates itself, or declares `TEMPORARY`, is not a
//! use: the script sees its own object. Statements Flink plans without running them (`EXPLAIN`,
//! `COMPILE PLAN ... FOR`) are skipped, as the session skips them.

use crate::files::FileEntry;
use crate::semantic::exprs;
use crate::semantic::names::{QualifiedName, DEFAULT_CATALOG, DEFAULT_DATABASE};
use crate::source::Span;
use crate::syntax::ast::*;
use compact_str::CompactString;

/// A use of a name: where the name is written, and the statement it is in.
#[derive(Debug, Clone)]
pub struct Use {
    /// The name as resolved.
    pub name: QualifiedName,
    /// The name in the statement.
    pub span: Span,
    /// The statement (the outer one for a statement set or `EXECUTE`).
    pub statement: Span,
}

/// What one script creates and uses.
#[derive(Debug, Clone, Default)]
pub struct ScriptNames {
    /// The permanent objects it creates, sorted, without repeats.
    pub creates: Vec<QualifiedName>,
    /// Where the script first creates each of them (the name in the statement), parallel to
    /// `creates`.
    pub created_at: Vec<Span>,
    /// The first use of each name it uses but neither creates nor declares `TEMPORARY`, in
    /// source order.
    pub uses: Vec<Use>,
    /// The names it declares `TEMPORARY`, sorted, without repeats.
    pub temporary: Vec<QualifiedName>,
}

impl ScriptNames {
    /// Whether the script creates `name` (as a permanent object).
    pub fn creates(&self, name: &QualifiedName) -> bool {
        self.creates.binary_search(name).is_ok()
    }
}

/// Reads what `file` creates and uses.
pub fn script_names(file: &FileEntry) -> ScriptNames {
    let mut walker = Walker {
        catalog: DEFAULT_CATALOG.into(),
        database: DEFAULT_DATABASE.into(),
        creates: Vec::new(),
        temporary: Vec::new(),
        uses: Vec::new(),
        ctes: Vec::new(),
        statement: Span::empty(0),
    };
    if file.load_error.is_none() {
        // Statements of other dialects do not run: they create and use nothing.
        for (i, statement) in file.parsed.script.statements.iter().enumerate() {
            if !file.dialect.is_flink(i) {
                continue;
            }
            walker.statement = statement.span;
            walker.statement(statement);
        }
    }
    let Walker {
        mut creates,
        mut temporary,
        uses,
        ..
    } = walker;
    // Sorted by name, the first creation of each name kept (the sort is stable).
    creates.sort_by(|a, b| a.0.cmp(&b.0));
    creates.dedup_by(|later, first| later.0 == first.0);
    let (creates, created_at): (Vec<QualifiedName>, Vec<Span>) = creates.into_iter().unzip();
    temporary.sort();
    temporary.dedup();
    let mut seen: Vec<&QualifiedName> = Vec::new();
    let mut kept = Vec::new();
    for u in &uses {
        if creates.binary_search(&u.name).is_ok()
            || temporary.binary_search(&u.name).is_ok()
            || seen.contains(&&u.name)
        {
            continue;
        }
        seen.push(&u.name);
        kept.push(u.clone());
    }
    ScriptNames {
        creates,
        created_at,
        uses: kept,
        temporary,
    }
}

/// The walk over one script's statements.
struct Walker<'a> {
    catalog: CompactString,
    database: CompactString,
    creates: Vec<(QualifiedName, Span)>,
    temporary: Vec<QualifiedName>,
    uses: Vec<Use>,
    /// The common table expressions in scope (single-part names that are not tables).
    ctes: Vec<&'a str>,
    /// The top-level statement being walked.
    statement: Span,
}

impl<'a> Walker<'a> {
    fn resolve(&self, name: &ObjectName) -> Option<QualifiedName> {
        QualifiedName::resolve(name, &self.catalog, &self.database)
    }

    fn create(&mut self, name: &ObjectName, temporary: bool) {
        if let Some(q) = self.resolve(name) {
            if temporary {
                self.temporary.push(q);
            } else {
                self.creates.push((q, name.span));
            }
        }
    }

    fn use_(&mut self, name: &'a ObjectName) {
        if let [only] = name.parts.as_slice() {
            if self.ctes.contains(&only.as_str()) {
                return;
            }
        }
        if let Some(q) = self.resolve(name) {
            self.uses.push(Use {
                name: q,
                span: name.span,
                statement: self.statement,
            });
        }
    }

    fn statement(&mut self, statement: &'a Statement) {
        match &statement.kind {
            StatementKind::CreateTable(ct) => {
                if let Some(like) = &ct.like {
                    self.use_(&like.source);
                }
                if let Some(q) = &ct.query {
                    self.query(q);
                }
                self.create(&ct.name, ct.temporary);
            }
            StatementKind::CreateView(v) => {
                if let Some(q) = &v.query {
                    self.query(q);
                }
                self.create(&v.name, v.temporary);
            }
            StatementKind::CreateMaterializedTable(mt) => {
                if let Some(q) = &mt.query {
                    self.query(q);
                }
                self.create(&mt.name, mt.temporary.is_some());
            }
            StatementKind::AlterTable(at) => {
                self.use_(&at.name);
                if let AlterTableAction::RenameTo(to) = &at.action {
                    self.create(to, false);
                }
            }
            StatementKind::AlterMaterializedTable(amt) => {
                self.use_(&amt.name);
                match &amt.action {
                    AlterMaterializedTableAction::AsQuery(a) => self.query(&a.query),
                    AlterMaterializedTableAction::RenameTo(to) => self.create(to, false),
                    _ => {}
                }
            }
            StatementKind::AlterView(av) => {
                self.use_(&av.name);
                if let Some(q) = &av.query {
                    self.query(q);
                }
                if let Some(to) = &av.rename_to {
                    self.create(to, false);
                }
            }
            StatementKind::Drop(d)
                if matches!(
                    d.object,
                    ObjectKind::Table | ObjectKind::View | ObjectKind::MaterializedTable
                ) && !d.temporary =>
            {
                self.use_(&d.name);
            }
            StatementKind::Insert(i) => {
                self.use_(&i.table);
                self.query(&i.query);
            }
            StatementKind::Query(q) => self.query(q),
            StatementKind::StatementSet(set) => {
                for s in &set.statements {
                    self.statement(s);
                }
            }
            StatementKind::Wrapped(w) => {
                if matches!(
                    w.wrapper,
                    WrapperKind::Execute | WrapperKind::CompileAndExecutePlan
                ) {
                    self.statement(&w.inner);
                }
            }
            StatementKind::Use(u) => match &**u {
                UseStatement::Catalog(c) => {
                    self.catalog = c.text.clone();
                    self.database = if c.as_str() == DEFAULT_CATALOG {
                        DEFAULT_DATABASE.into()
                    } else {
                        "default".into()
                    };
                }
                UseStatement::Database(name) => match name.parts.as_slice() {
                    [db] => self.database = db.text.clone(),
                    [cat, db] => {
                        self.catalog = cat.text.clone();
                        self.database = db.text.clone();
                    }
                    _ => {}
                },
                UseStatement::Modules(_) => {}
            },
            _ => {}
        }
    }

    fn query(&mut self, q: &'a Query) {
        let scope = self.ctes.len();
        for cte in &q.with {
            self.query(&cte.query);
            self.ctes.push(cte.name.as_str());
        }
        self.set_expr(&q.body);
        for item in &q.order_by {
            self.expr(&item.expr);
        }
        for e in q.limit.iter().chain(&q.offset) {
            self.expr(e);
        }
        self.ctes.truncate(scope);
    }

    fn set_expr(&mut self, body: &'a SetExpr) {
        match body {
            SetExpr::Select(s) => {
                if let Some(from) = &s.from {
                    self.table_ref(from);
                }
                for item in &s.items {
                    if let SelectItem::Expr { expr, .. } = item {
                        self.expr(expr);
                    }
                }
                for e in s
                    .selection
                    .iter()
                    .chain(&s.group_by)
                    .chain(&s.having)
                    .chain(&s.qualify)
                {
                    self.expr(e);
                }
            }
            SetExpr::Values(v) => {
                for e in v.rows.iter().flatten() {
                    self.expr(e);
                }
            }
            SetExpr::Table(name) => self.use_(name),
            SetExpr::Query(q) => self.query(q),
            SetExpr::SetOperation { left, right, .. } => {
                self.set_expr(left);
                self.set_expr(right);
            }
        }
    }

    fn table_ref(&mut self, t: &'a TableRef) {
        match t {
            TableRef::Named {
                name, system_time, ..
            } => {
                self.use_(name);
                if let Some(e) = system_time {
                    self.expr(e);
                }
            }
            TableRef::Subquery { query, .. } => self.query(query),
            TableRef::Function { call, .. } => self.expr(call),
            TableRef::Unnest { exprs, .. } => {
                for e in exprs {
                    self.expr(e);
                }
            }
            TableRef::Join {
                left, right, on, ..
            } => {
                self.table_ref(left);
                self.table_ref(right);
                if let Some(e) = on {
                    self.expr(e);
                }
            }
            TableRef::MatchRecognize { input, .. } => self.table_ref(input),
            TableRef::Nested { inner, .. } => self.table_ref(inner),
        }
    }

    /// The subqueries and `TABLE t` arguments inside an expression.
    fn expr(&mut self, e: &'a Expr) {
        let mut nested: Vec<&'a Query> = Vec::new();
        let mut tables: Vec<&'a ObjectName> = Vec::new();
        exprs::walk(e, &mut |x| match &x.kind {
            ExprKind::InSubquery { query, .. }
            | ExprKind::Subquery(query)
            | ExprKind::Exists(query)
            | ExprKind::ArrayQuery(query)
            | ExprKind::MapQuery(query) => nested.push(query),
            ExprKind::TableArg(name, ..) => tables.push(name),
            _ => {}
        });
        for name in tables {
            self.use_(name);
        }
        for q in nested {
            self.query(q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{FileId, SourceFile};

    fn names(sql: &str) -> ScriptNames {
        let source = SourceFile::new("a.sql", sql);
        let (parsed, dialect) = crate::files::parse(&source);
        let file = FileEntry {
            id: FileId(0),
            source,
            parsed,
            dialect,
            load_error: None,
            report: true,
            base_of: None,
        };
        script_names(&file)
    }

    fn objects(list: impl IntoIterator<Item = QualifiedName>) -> Vec<String> {
        list.into_iter().map(|n| n.dotted()).collect()
    }

    #[test]
    fn creates_and_uses() {
        let n = names(
            "CREATE TABLE sink (a INT) WITH ('connector' = 'print');\n\
             CREATE TEMPORARY VIEW t AS SELECT * FROM src;\n\
             INSERT INTO sink WITH c AS (SELECT a FROM t) SELECT a FROM c\n\
               WHERE a IN (SELECT a FROM other.dim) AND EXISTS (SELECT 1 FROM TABLE(f(TABLE ptf_in)));\n\
             USE CATALOG hive;\n\
             CREATE TABLE events (a INT) LIKE base_events;\n\
             ALTER TABLE events RENAME TO events_v2;\n\
             EXPLAIN INSERT INTO planned SELECT * FROM events;\n\
             DROP TABLE IF EXISTS old_events;",
        );
        assert_eq!(
            objects(n.creates.clone()),
            [
                "default_catalog.default_database.sink",
                "hive.default.events",
                "hive.default.events_v2"
            ]
        );
        assert_eq!(
            objects(n.uses.iter().map(|u| u.name.clone())),
            [
                "default_catalog.default_database.src",
                "default_catalog.other.dim",
                "default_catalog.default_database.ptf_in",
                "hive.default.base_events",
                "hive.default.old_events",
            ]
        );
    }
}

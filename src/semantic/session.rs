//! A session: the catalog as one SQL client session sees it while its statements run in order,
//! plus the current catalog and database and the configuration set with `SET`.

use super::catalog::ColumnKind;
use super::catalog::*;
use super::names::{QualifiedName, DEFAULT_CATALOG, DEFAULT_DATABASE};
use super::problems::{Found, Problem, SessionSetting};
use super::query::{self, OutputColumn, Scope};
use super::table::{self, Declared, Parent, QueryColumns};
use super::types::Type;
use crate::files::FileEntry;
use crate::source::{FileId, Span};
use crate::syntax::ast;
use crate::syntax::ast::*;
use compact_str::CompactString;
use std::sync::Arc;

/// One version of an object, as a statement left it (for `expand --history`).
#[derive(Debug, Clone)]
pub struct Version {
    /// The object after the statement.
    pub object: Arc<CatalogObject>,
    /// The statement.
    pub statement: Origin,
}

/// The mutable state of one session.
pub struct Session<'b> {
    /// The catalog as this session sees it.
    pub catalog: SessionCatalog<'b>,
    /// `USE CATALOG`.
    pub current_catalog: CompactString,
    /// `USE`.
    pub current_database: CompactString,
    /// `SET 'key' = 'value'` pairs in effect (the statements' own text), with the SET
    /// statement.
    pub config: Vec<(&'b str, &'b str, Origin)>,
    /// Problems found so far.
    pub found: Vec<Found>,
    /// Every version of every object created or changed in this session.
    pub versions: Vec<Version>,
    /// Materialized tables deployed by the earlier version of the running file (`--base`),
    /// with the normalized text of the statement that defined them there (see
    /// [`normalized_statement`]).
    pub deployed: std::collections::HashMap<QualifiedName, String>,
    /// The run's system columns.
    pub system: &'b super::system::SystemColumns,
}

impl<'b> Session<'b> {
    /// A fresh session over `base`, with the run's system columns.
    pub fn new(base: &'b Catalog, system: &'b super::system::SystemColumns) -> Session<'b> {
        Session {
            catalog: SessionCatalog::new(base),
            current_catalog: DEFAULT_CATALOG.into(),
            current_database: DEFAULT_DATABASE.into(),
            config: Vec::new(),
            found: Vec::new(),
            versions: Vec::new(),
            deployed: std::collections::HashMap::new(),
            system,
        }
    }

    /// The value `SET` gave `key`, if any.
    pub fn config_value(&self, key: &str) -> Option<&str> {
        self.config
            .iter()
            .rev()
            .find(|(k, _, _)| *k == key)
            .map(|(_, v, _)| *v)
    }

    /// The `SET` in effect for `key`, with where it was written.
    pub fn setting(&self, key: &str) -> Option<SessionSetting> {
        self.config
            .iter()
            .rev()
            .find(|(k, _, _)| *k == key)
            .map(|(_, v, origin)| SessionSetting {
                value: v.to_string(),
                origin: *origin,
            })
    }

    /// Resolves a 1-3 part name against the current catalog and database.
    pub fn resolve(&self, name: &ObjectName) -> Option<QualifiedName> {
        QualifiedName::resolve(name, &self.current_catalog, &self.current_database)
    }

    /// Names the session sees that look like `target` (case-insensitive match or edit
    /// distance up to 2 on the object name), for did-you-mean help.
    pub fn similar(&self, target: &QualifiedName) -> Vec<QualifiedName> {
        let wanted = target.object.to_lowercase();
        let mut out: Vec<QualifiedName> = Vec::new();
        // Edit distance is at least the difference in length: skip the far ones cheaply.
        let near = |name: &QualifiedName| name.object.len().abs_diff(wanted.len()) <= 2;
        // ASCII names: a byte histogram of the wanted name, to skip a candidate cheaply when
        // the letters alone differ by more than two edits (an edit changes at most one letter
        // in and one letter out: the distance is at least the larger of the two surpluses).
        let histogram = wanted.is_ascii().then(|| {
            let mut h = [0i16; 128];
            for b in wanted.bytes() {
                h[usize::from(b)] += 1;
            }
            h
        });
        for name in self.catalog.names_where(near) {
            if name == target {
                continue;
            }
            if let (Some(wanted_letters), true) = (&histogram, name.object.is_ascii()) {
                let mut h = *wanted_letters;
                for b in name.object.bytes() {
                    h[usize::from(b.to_ascii_lowercase())] -= 1;
                }
                let (missing, extra) = h.iter().fold((0i32, 0i32), |(m, e), &d| {
                    (m + i32::from(d.max(0)), e + i32::from((-d).max(0)))
                });
                if missing.max(extra) > 2 {
                    continue;
                }
            }
            let lower = name.object.to_lowercase();
            if lower == wanted || (wanted.len() > 3 && strsim::levenshtein(&lower, &wanted) <= 2) {
                out.push(name.clone());
            }
        }
        out.sort();
        out.dedup();
        out.truncate(3);
        out
    }

    pub(super) fn report(&mut self, file: FileId, statement: Span, problem: Problem) {
        self.found.push(Found {
            file,
            statement,
            problem,
            diff: Vec::new(),
        });
    }

    pub(super) fn register(&mut self, object: CatalogObject) -> Arc<CatalogObject> {
        if !object.incomplete {
            if let ObjectDef::Table(t) | ObjectDef::Materialized(t) = &object.def {
                self.case_clashes(object.statement, &t.columns, |c| {
                    (c.name.as_str(), c.origin)
                });
                self.system_column_checks(object.statement, t);
            }
        }
        // Names its connector reserves, while the table's columns and options are at hand.
        for problem in super::connectors::problems(&object) {
            self.report(object.statement.file, object.statement.span, problem);
        }
        let object = Arc::new(object);
        self.catalog.insert(object.clone());
        self.versions.push(Version {
            object: object.clone(),
            statement: object.statement,
        });
        object
    }

    /// Applies one statement (and the statements nested in it that run).
    pub fn apply(&mut self, file: &'b FileEntry, statement: &'b Statement) {
        // Another platform's system column read by the statement's query.
        let query: Option<&Query> = match &statement.kind {
            StatementKind::CreateTable(ct) => ct.query.as_deref(),
            StatementKind::CreateView(v) => v.query.as_deref(),
            StatementKind::CreateMaterializedTable(mt) => mt.query.as_deref(),
            StatementKind::AlterMaterializedTable(amt) => match &amt.action {
                ast::AlterMaterializedTableAction::AsQuery(a) => Some(&a.query),
                _ => None,
            },
            StatementKind::Insert(i) => Some(&i.query),
            StatementKind::Query(q) => Some(q),
            _ => None,
        };
        if let Some(q) = query {
            self.foreign_system_columns(file, statement, q);
        }
        match &statement.kind {
            StatementKind::CreateTable(ct) => {
                self.foreign_in_table(file, statement, ct);
                self.create_table(file, statement, ct)
            }
            StatementKind::CreateView(v) => self.create_view(file, statement, v),
            StatementKind::CreateMaterializedTable(mt) => {
                self.create_materialized(file, statement, mt)
            }
            StatementKind::AlterTable(at) => self.alter_table(file, statement, at),
            StatementKind::AlterMaterializedTable(amt) => {
                self.alter_materialized(file, statement, amt)
            }
            StatementKind::AlterView(av) => self.alter_view(file, statement, av),
            StatementKind::Drop(d) => self.drop(file, statement, d),
            StatementKind::Insert(i) => self.insert(file, statement, i),
            StatementKind::StatementSet(set) => {
                for s in &set.statements {
                    self.apply(file, s);
                }
            }
            StatementKind::Wrapped(w) => {
                if matches!(
                    w.wrapper,
                    WrapperKind::Execute | WrapperKind::CompileAndExecutePlan
                ) {
                    self.apply(file, &w.inner);
                }
            }
            StatementKind::Set(set) => {
                if let Some(pair) = &set.pair {
                    self.config.push((
                        pair.key.as_str(),
                        pair.value.as_str(),
                        Origin {
                            file: file.id,
                            span: statement.span,
                        },
                    ));
                }
            }
            StatementKind::Reset(reset) => match &reset.key {
                Some(key) => self.config.retain(|(k, _, _)| *k != key.as_str()),
                None => self.config.clear(),
            },
            StatementKind::Use(u) => match u.as_ref() {
                UseStatement::Catalog(c) => {
                    self.current_catalog = c.text.clone();
                    self.current_database = if c.as_str() == DEFAULT_CATALOG {
                        DEFAULT_DATABASE.into()
                    } else {
                        "default".into()
                    };
                }
                UseStatement::Database(name) => match name.parts.as_slice() {
                    [db] => self.current_database = db.text.clone(),
                    [cat, db] => {
                        self.current_catalog = cat.text.clone();
                        self.current_database = db.text.clone();
                    }
                    _ => {}
                },
                UseStatement::Modules(_) => {}
            },
            _ => {}
        }
    }

    /// The object a CREATE would clash with: the temporary one for TEMPORARY, else the
    /// permanent one (a temporary object may shadow a permanent one).
    fn existing(&self, name: &QualifiedName, temporary: bool) -> Option<Arc<CatalogObject>> {
        // A definition with a syntax error never reached Flink's catalog.
        let found = if temporary {
            self.catalog.temporary(name)
        } else {
            self.catalog.permanent(name)
        };
        found.filter(|o| !o.incomplete).cloned()
    }

    fn create_table(&mut self, file: &FileEntry, statement: &Statement, ct: &CreateTable) {
        let Some(name) = self.resolve(&ct.name) else {
            return;
        };
        let existing = self.existing(&name, ct.temporary);
        if let Some(existing) = &existing {
            if !ct.if_not_exists && !ct.or_replace {
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
                };
                let parent_text = match &parent.def {
                    ObjectDef::Table(t) => super::show_create::table(parent, t),
                    _ => String::new(),
                };
                (
                    parent_text,
                    super::show_create::table(&derived, &built.table),
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
        if existing.is_some() && !ct.or_replace {
            return;
        }
        self.register(CatalogObject {
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
        });
    }

    pub(super) fn query_columns(&self, query: &Query, file: FileId) -> Option<Vec<OutputColumn>> {
        query::output_columns(query, self, file)
    }

    fn create_view(&mut self, file: &FileEntry, statement: &Statement, v: &CreateView) {
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
        self.register(CatalogObject {
            name,
            def: ObjectDef::View(ViewDef {
                query: v.query.clone(),
                columns,
                types,
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
        });
    }

    /// A query reading another platform's system column (`$rowtime` outside Confluent
    /// Cloud) from tables that do not declare it.
    fn foreign_system_columns(&mut self, file: &FileEntry, statement: &Statement, query: &Query) {
        if statement.has_error {
            return;
        }
        let system = self.system;
        for name in &system.foreign {
            if let Some(span) = query::missing_reference(query, self, file.id, name) {
                self.report(
                    file.id,
                    statement.span,
                    Problem::ForeignSystemColumn {
                        span,
                        name: name.to_string(),
                        in_table: false,
                    },
                );
                return;
            }
        }
    }

    /// A computed column or watermark strategy of a CREATE TABLE reading another
    /// platform's system column the table does not declare (Flink 2.3: "Unknown identifier";
    /// fixtures/oracle/columns 113-114). A watermark *on* such a column is an invalid
    /// watermark ([`Problem::InvalidWatermark`]). With LIKE the
    /// parent may declare it: nothing is reported.
    fn foreign_in_table(&mut self, file: &FileEntry, statement: &Statement, ct: &CreateTable) {
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
            // A watermark on the column itself is an invalid watermark (fixtures/oracle/columns
            // 117).
            let found = exprs
                .iter()
                .filter(|(_, on)| *on != Some(name.as_str()))
                .find_map(|(e, _)| {
                    super::exprs::column_references(e)
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

    /// System-column shadowing and reserved-prefix problems of the columns written in
    /// `statement`.
    fn system_column_checks(&mut self, statement: Origin, t: &TableDef) {
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

    /// The system-column shadowing or reserved-prefix problem of one declared (or renamed)
    /// column, reported at `span`.
    fn system_column_problem(&self, c: &Column, span: Span) -> Option<Problem> {
        let kind = super::table::kind_of(&c.kind);
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
    pub(super) fn case_clashes<T>(
        &mut self,
        statement: Origin,
        columns: &[T],
        column: impl Fn(&T) -> (&str, Origin),
    ) {
        let here = |o: &Origin| o.file == statement.file && statement.span.contains(o.span);
        let ascii = columns.iter().all(|c| column(c).0.is_ascii());
        let clash = |a: &str, b: &str| {
            if ascii {
                a.len() == b.len() && a != b && a.eq_ignore_ascii_case(b)
            } else {
                a != b && a.to_lowercase() == b.to_lowercase()
            }
        };
        for (j, c) in columns.iter().enumerate() {
            let (name, origin) = column(c);
            let Some((other, other_origin)) = columns[..j]
                .iter()
                .map(&column)
                .find(|(n, _)| clash(n, name))
            else {
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

    /// Repeated column names of a view: Flink rejects a view whose columns repeat a name
    /// (case-sensitive); names differing only in case are reported too. Returns whether Flink
    /// rejects the view.
    fn view_duplicates(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        written: &[(CompactString, Span)],
        output: Option<&[OutputColumn]>,
    ) -> bool {
        let mut rejected = false;
        for (j, (name, span)) in written.iter().enumerate() {
            if let Some(i) = written[..j].iter().position(|(n, _)| n == name) {
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

    /// The object an ALTER / DROP / INSERT targets; reports an unknown table when the session
    /// cannot see it (unless `IF EXISTS`).
    fn target(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        name: &ObjectName,
        action: &'static str,
        if_exists: bool,
    ) -> Option<(QualifiedName, Arc<CatalogObject>)> {
        let resolved = self.resolve(name)?;
        match self.catalog.get(&resolved).cloned() {
            Some(o) => Some((resolved, o)),
            None => {
                if !if_exists && !statement.has_error {
                    let similar = self.similar(&resolved);
                    self.report(
                        file.id,
                        statement.span,
                        Problem::UnknownTable {
                            span: name.span,
                            name: resolved,
                            similar,
                            action,
                        },
                    );
                }
                None
            }
        }
    }

    fn alter_table(&mut self, file: &FileEntry, statement: &Statement, at: &AlterTable) {
        let Some((name, object)) =
            self.target(file, statement, &at.name, "ALTER TABLE", at.if_exists)
        else {
            return;
        };
        let ObjectDef::Table(t) = &object.def else {
            if matches!(object.def, ObjectDef::Materialized(_)) && !statement.has_error {
                self.report_not_materialized(
                    file,
                    statement,
                    &at.name,
                    name,
                    "ALTER TABLE",
                    object.clone(),
                    true,
                );
            }
            return;
        };
        let mut t = t.clone();
        let origin = |span: Span| Origin {
            file: file.id,
            span,
        };
        let mut new_name = name.clone();
        let altered = super::alter::Altered {
            table: &t,
            name: &name,
            query: None,
        };
        let problem = match &at.action {
            AlterTableAction::Schema(change) => super::alter::schema_change(&altered, change),
            AlterTableAction::RenameColumn { from, to } => {
                super::alter::rename_column(&altered, from, to)
            }
            _ => None,
        };
        if let Some(p) = problem {
            // Flink rejects the statement: the table stays as it was.
            if !statement.has_error {
                self.report(file.id, statement.span, p);
            }
            return;
        }
        match &at.action {
            AlterTableAction::RenameTo(to) => {
                if let Some(n) = self.resolve(to) {
                    new_name = n;
                }
            }
            AlterTableAction::RenameColumn { from, to } => {
                let old = from.last().text.clone();
                let new = to.last().text.clone();
                if !statement.has_error {
                    let lower = new.to_lowercase();
                    let other = t
                        .columns
                        .iter()
                        .find(|c| c.name != old && c.name != new && c.name.to_lowercase() == lower);
                    let clash = match other {
                        Some(c) => Some((c.name.to_string(), Some(c.origin), false)),
                        None if old != new && old.to_lowercase() == lower => {
                            Some((old.to_string(), None, true))
                        }
                        None => None,
                    };
                    if let Some((other, other_origin, rename)) = clash {
                        self.report(
                            file.id,
                            statement.span,
                            Problem::CaseOnlyClash {
                                span: to.span,
                                name: new.to_string(),
                                other,
                                other_origin,
                                rename,
                            },
                        );
                    }
                }
                if let Some(c) = t.columns.iter_mut().find(|c| c.name == old) {
                    c.name = new.clone();
                    // Renamed onto a system column or into the reserved prefix.
                    if old != new && !statement.has_error {
                        if let Some(p) = self.system_column_problem(c, to.span) {
                            self.report(file.id, statement.span, p);
                        }
                    }
                }
                let rename = |names: &mut Vec<CompactString>| {
                    names
                        .iter_mut()
                        .filter(|n| **n == old)
                        .for_each(|n| *n = new.clone())
                };
                if let Some(pk) = &mut t.primary_key {
                    rename(&mut pk.columns);
                }
                if let Some(p) = &mut t.partitions {
                    rename(&mut p.columns);
                }
                if let Some(w) = &mut t.watermark {
                    rename(&mut w.column);
                }
            }
            AlterTableAction::SetOptions(props) => {
                for p in &props.items {
                    t.set_option(OptionDef {
                        key: p.key.value.clone(),
                        value: p.value.value.clone(),
                        origin: origin(p.span),
                    });
                }
            }
            AlterTableAction::ResetOptions(keys) => {
                t.options
                    .retain(|o| !keys.keys.iter().any(|k| k.value == o.key));
            }
            AlterTableAction::Schema(change) => apply_schema_change(&mut t, change, file.id),
            AlterTableAction::AddPartitions(_)
            | AlterTableAction::DropPartitions(_)
            | AlterTableAction::Compact => return,
        }
        if new_name != name {
            self.catalog.remove(&name, object.temporary);
        }
        self.register(CatalogObject {
            name: new_name,
            def: ObjectDef::Table(t),
            temporary: object.temporary,
            statement: origin(statement.span),
            name_origin: object.name_origin,
            incomplete: object.incomplete || statement.has_error,
            derived_from: object.derived_from.clone(),
        });
    }

    fn alter_view(&mut self, file: &FileEntry, statement: &Statement, av: &AlterView) {
        let Some(name) = self.resolve(&av.name) else {
            return;
        };
        let Some(object) = self.catalog.get(&name).cloned() else {
            return;
        };
        let ObjectDef::View(v) = &object.def else {
            return;
        };
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
        });
    }

    fn drop(&mut self, file: &FileEntry, statement: &Statement, d: &DropObject) {
        let action = match d.object {
            ObjectKind::Table => "DROP TABLE",
            ObjectKind::View => "DROP VIEW",
            ObjectKind::MaterializedTable => "DROP MATERIALIZED TABLE",
            _ => return,
        };
        let Some(name) = self.resolve(&d.name) else {
            return;
        };
        // Flink looks tables and materialized tables up as separate kinds for DROP.
        let found = self.catalog.get(&name).cloned();
        let is_materialized = |o: &CatalogObject| matches!(o.def, ObjectDef::Materialized(_));
        match (d.object, found) {
            (ObjectKind::MaterializedTable, Some(o)) if is_materialized(&o) => {
                self.catalog.remove(&name, false);
            }
            (ObjectKind::Table, Some(o)) if is_materialized(&o) => {
                if !d.if_exists && !statement.has_error {
                    self.report_not_materialized(file, statement, &d.name, name, action, o, true);
                }
            }
            (ObjectKind::MaterializedTable, Some(o)) => {
                if !d.if_exists && !statement.has_error {
                    self.report_not_materialized(file, statement, &d.name, name, action, o, true);
                }
            }
            (ObjectKind::MaterializedTable, None) => {
                if !d.if_exists && !statement.has_error {
                    let similar = self.similar(&name);
                    self.report(
                        file.id,
                        statement.span,
                        Problem::UnknownMaterialized {
                            span: d.name.span,
                            name,
                            action,
                            similar,
                        },
                    );
                }
            }
            _ => {
                if let Some((name, object)) =
                    self.target(file, statement, &d.name, action, d.if_exists)
                {
                    self.catalog.remove(&name, d.temporary || object.temporary);
                }
            }
        }
    }

    /// A statement for one kind of table (regular or materialized) on the other kind.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn report_not_materialized(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        written: &ObjectName,
        name: QualifiedName,
        action: &'static str,
        existing: Arc<CatalogObject>,
        verified: bool,
    ) {
        self.report(
            file.id,
            statement.span,
            Problem::NotMaterialized {
                span: written.span,
                name,
                action,
                existing,
                verified,
            },
        );
    }

    fn insert(&mut self, file: &FileEntry, statement: &Statement, i: &Insert) {
        if let Some((name, object)) = self.target(file, statement, &i.table, "INSERT INTO", false) {
            self.check_insert(file, statement, i, &name, &object);
        }
    }
}

impl Scope for Session<'_> {
    fn lookup(&self, name: &ObjectName) -> Option<(QualifiedName, &CatalogObject)> {
        let q = self.resolve(name)?;
        let object = self.catalog.get(&q)?;
        Some((q, object))
    }
    fn hidden_from_star(&self, column: &Column) -> bool {
        if self.system.is_declared_system(column) {
            return true;
        }
        let ColumnKind::Metadata {
            key,
            is_virtual: true,
        } = &column.kind
        else {
            return false;
        };
        let strategy = self
            .config_value("table.column-expansion-strategy")
            .unwrap_or_default()
            .to_ascii_uppercase();
        if key.is_none() {
            strategy.contains("EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS")
        } else {
            strategy.contains("EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS")
        }
    }
    fn system_columns(&self, table: &TableDef) -> Vec<(CompactString, Option<Type>)> {
        self.system
            .of_table(table)
            .map(|c| (CompactString::from(c.name.as_str()), c.data_type.clone()))
            .collect()
    }
}

/// The select items of a query that Flink renames because an earlier item has
/// the same name (`x` becomes `x0`).
pub(super) fn renamed_columns(
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
/// column of that name, so what is a duplicate column in a plain CREATE TABLE is a collapsed
/// column list here.
pub(super) fn collapse_duplicates(problems: &mut [Problem], identifiers: bool) {
    for p in problems.iter_mut() {
        if let Problem::DuplicateColumn {
            span,
            name,
            first,
            first_kind: super::problems::Kind::Physical,
            second_kind: super::problems::Kind::Physical,
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

/// A statement's tokens without comments, joined by single spaces: two statements with the
/// same normalized text differ only in layout and comments.
pub fn normalized_statement(text: &str) -> String {
    use crate::syntax::lexer::{lex, TokenKind};
    let mut out = String::with_capacity(text.len());
    for tok in lex(text) {
        if matches!(tok.kind, TokenKind::LineComment | TokenKind::BlockComment) {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&text[tok.span.range()]);
    }
    out
}

/// Applies ALTER ... ADD / MODIFY / DROP to a table definition (no checks: rules report the
/// problems from the definition before the change).
pub fn apply_schema_change(t: &mut TableDef, change: &SchemaChange, file: FileId) {
    let origin = |span: Span| Origin { file, span };
    match change {
        SchemaChange::Add(items) | SchemaChange::Modify(items) => {
            let modify = matches!(change, SchemaChange::Modify(_));
            for item in items {
                match item {
                    TableElement::Column(c) if c.parents.is_empty() => {
                        let column = single_column(c, file);
                        if let Some(cc) = c
                            .constraint
                            .as_ref()
                            .filter(|cc| cc.kind == ConstraintKind::PrimaryKey)
                        {
                            let columns = vec![c.name.text.clone()];
                            t.primary_key = Some(PrimaryKeyDef {
                                name: cc.name.as_ref().map_or_else(
                                    || table::generated_pk_name(&columns),
                                    |n| n.text.clone(),
                                ),
                                columns,
                                origin: origin(c.span),
                            });
                        }
                        let existing = t.columns.iter().position(|k| k.name == column.name);
                        if let Some(i) = existing.filter(|_| modify) {
                            t.columns.remove(i);
                        } else if existing.is_some() {
                            continue;
                        }
                        let at = match c.position.as_deref() {
                            Some(ColumnPosition::First(_)) => 0,
                            Some(ColumnPosition::After(after)) => t
                                .columns
                                .iter()
                                .position(|k| k.name == after.last().text)
                                .map_or(t.columns.len(), |i| i + 1),
                            None => existing
                                .filter(|_| modify)
                                .unwrap_or(t.columns.len())
                                .min(t.columns.len()),
                        };
                        t.columns.insert(at, column);
                    }
                    TableElement::Column(_) => {}
                    TableElement::Constraint(c) if c.kind == ConstraintKind::PrimaryKey => {
                        let columns: Vec<CompactString> =
                            c.columns.names.iter().map(|n| n.text.clone()).collect();
                        let name = c
                            .name
                            .as_ref()
                            .map_or_else(|| table::generated_pk_name(&columns), |n| n.text.clone());
                        for col in t.columns.iter_mut().filter(|k| columns.contains(&k.name)) {
                            if let Some(ty) = &mut col.data_type {
                                ty.nullable = false;
                            }
                        }
                        t.primary_key = Some(PrimaryKeyDef {
                            name,
                            columns,
                            origin: origin(c.span),
                        });
                    }
                    TableElement::Constraint(_) => {}
                    TableElement::Watermark(w) => {
                        t.watermark = Some(WatermarkDef {
                            column: w.column.parts.iter().map(|p| p.text.clone()).collect(),
                            expr: w.expr.clone(),
                            origin: origin(w.span),
                            inherited_from: None,
                        });
                    }
                }
            }
            // Flink rebuilds the schema after the change: primary-key columns, new or
            // modified, are NOT NULL (`ALTER TABLE t MODIFY a BIGINT` on a key column shows
            // `a BIGINT NOT NULL`).
            if let Some(pk) = &t.primary_key {
                for col in t
                    .columns
                    .iter_mut()
                    .filter(|k| pk.columns.contains(&k.name))
                {
                    if let Some(ty) = &mut col.data_type {
                        ty.nullable = false;
                    }
                }
            }
        }
        SchemaChange::AddDistribution(d) | SchemaChange::ModifyDistribution(d) => {
            t.distribution = Some(DistributionDef {
                kind: d.kind,
                columns: d
                    .columns
                    .as_ref()
                    .map(|c| c.names.iter().map(|n| n.text.clone()).collect())
                    .unwrap_or_default(),
                buckets: d.buckets,
                origin: origin(d.span),
            });
        }
        SchemaChange::DropColumns(names) => {
            for n in names {
                if n.parts.len() == 1 {
                    t.columns.retain(|c| c.name != n.last().text);
                }
            }
        }
        SchemaChange::DropPrimaryKey(_) | SchemaChange::DropConstraint(_) => t.primary_key = None,
        SchemaChange::DropDistribution(_) => t.distribution = None,
        SchemaChange::DropWatermark(_) => t.watermark = None,
    }
}

fn single_column(c: &ColumnDef, file: FileId) -> Column {
    let (kind, data_type) = match &c.kind {
        crate::syntax::ast::ColumnKind::Physical { data_type } => {
            (ColumnKind::Physical, Some(Type::from_ast(data_type)))
        }
        crate::syntax::ast::ColumnKind::Computed { expr } => {
            (ColumnKind::Computed(expr.clone()), None)
        }
        crate::syntax::ast::ColumnKind::Metadata {
            data_type,
            key,
            virtual_span,
        } => (
            ColumnKind::Metadata {
                key: key.as_ref().map(|k| k.value.clone()),
                is_virtual: virtual_span.is_some(),
            },
            Some(Type::from_ast(data_type)),
        ),
        crate::syntax::ast::ColumnKind::NameOnly => (ColumnKind::Physical, None),
    };
    Column {
        name: c.name.text.clone(),
        kind,
        data_type,
        comment: c.comment.as_ref().map(|s| s.value.to_string()),
        origin: Origin { file, span: c.span },
        inherited_from: None,
    }
}

/// The text that marks the expanded-definition lines a LIKE problem is about.
fn needle(p: &Problem) -> Option<String> {
    Some(match p {
        Problem::OptionKeyConflict { key, .. } | Problem::OverridesOption { key, .. } => {
            format!("'{key}' =")
        }
        Problem::WatermarkConflict { .. } | Problem::MultipleWatermarks { .. } => {
            "WATERMARK FOR".to_string()
        }
        Problem::PrimaryKeyConflict { .. } => "PRIMARY KEY".to_string(),
        Problem::PartitionConflict { .. } => "PARTITIONED BY".to_string(),
        Problem::DistributionConflict { .. } => "DISTRIBUTED".to_string(),
        Problem::IneffectiveExcluding { feature, .. } => if *feature == FeatureOption::Partitions {
            "PARTITIONED BY"
        } else {
            "DISTRIBUTED"
        }
        .to_string(),
        Problem::LikeColumnClash { name, .. } | Problem::InheritedNotResolvable { name, .. } => {
            format!("{} ", super::names::quote(name))
        }
        _ => return None,
    })
}

/// The few lines of a diff between the parent's and the derived table's expanded definitions
/// that explain a LIKE problem, after a header line.
fn explain_diff(
    parent: &str,
    derived: &str,
    needle: &str,
    parent_name: &str,
    derived_name: &str,
) -> Vec<String> {
    let diff = similar::TextDiff::from_lines(parent, derived);
    let mut lines = Vec::new();
    // A line that only gained or lost its trailing comma did not change.
    let strip = |s: &str| {
        s.trim_end_matches('\n')
            .trim_end_matches(',')
            .trim()
            .to_string()
    };
    let deleted: Vec<String> = diff
        .iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Delete)
        .map(|c| strip(c.value()))
        .collect();
    for change in diff.iter_all_changes() {
        let text = strip(change.value());
        if !text.contains(needle) {
            continue;
        }
        let sign = match change.tag() {
            similar::ChangeTag::Delete if !lines_contain(&diff, &text) => '-',
            similar::ChangeTag::Insert if !deleted.contains(&text) => '+',
            similar::ChangeTag::Equal => ' ',
            _ => continue,
        };
        let line = format!("{sign} {text}");
        if !lines.contains(&line) {
            lines.push(line);
        }
        if lines.len() == 4 {
            break;
        }
    }
    if lines.is_empty() {
        return lines;
    }
    let mut out = vec![format!(
        "expanded `{parent_name}` (-) and `{derived_name}` (+):"
    )];
    out.extend(lines);
    out
}

/// Whether an inserted line of the diff equals `text` (ignoring a trailing comma).
fn lines_contain(diff: &similar::TextDiff<'_, '_, str>, text: &str) -> bool {
    diff.iter_all_changes().any(|c| {
        c.tag() == similar::ChangeTag::Insert
            && c.value()
                .trim_end_matches('\n')
                .trim_end_matches(',')
                .trim()
                == text
    })
}

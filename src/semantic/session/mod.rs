//! A session: the catalog as one SQL client session sees it while its statements run in order,
//! plus the current catalog and database and the configuration set with `SET`.
//!
//! This module holds the session's state, its name lookups and reporting, and the dispatch of a
//! statement to the code for its kind; each family of statements has its own module:
//!
//! - `settings`: `SET`, `RESET` and `USE` (the configuration, current catalog and database);
//! - `create_table`: `CREATE TABLE`, with `LIKE` or `AS SELECT` (the merge itself is
//!   [`super::table::build_table`]), and `like_diff`, the lines that explain a LIKE problem;
//! - `view`: `CREATE VIEW` and `ALTER VIEW`;
//! - `alter_table`: `ALTER TABLE` and the schema changes it applies;
//! - `drop`: `DROP TABLE`, `DROP VIEW` and `DROP MATERIALIZED TABLE`;
//! - `column_checks`: the column checks every kind of statement shares (system columns, names
//!   differing only in case).
//!
//! Materialized tables ([`super::materialized`]) and the checks of `INSERT`
//! ([`super::insert`]) live beside this module, as further `impl Session` blocks.

mod alter_table;
mod column_checks;
mod connector_options;
mod create_table;
mod drop;
mod like_diff;
mod pipeline;
mod settings;
mod streaming;
mod table_exprs;
mod update_delete;
mod view;

pub use alter_table::apply_schema_change;
pub(super) use create_table::{collapse_duplicates, renamed_columns};

use super::catalog::ColumnKind;
use super::catalog::*;
use super::names::{QualifiedName, DEFAULT_CATALOG, DEFAULT_DATABASE};
use super::problems::{Found, Problem};
use super::query::{self, OutputColumn, Scope};
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
    pub config: Vec<(CompactString, CompactString, Origin)>,
    /// Problems found so far.
    pub found: Vec<Found>,
    /// Every version of every object created or changed in this session, when
    /// [`Self::record_versions`] is set.
    pub versions: Vec<Version>,
    /// Whether [`Self::versions`] are recorded (for `expand`); off, an object a statement
    /// changes is changed in place when nothing else holds it, and memory does not grow with
    /// every version of a table.
    pub record_versions: bool,
    /// Materialized tables deployed by the earlier version of the running file (`--base`),
    /// with the normalized text of the statement that defined them there (see
    /// [`normalized_statement`]).
    pub deployed: std::collections::HashMap<QualifiedName, String>,
    /// The run's system columns.
    pub system: &'b super::system::SystemColumns,
    /// The table versions whose connector this session checked at a use, with how (options,
    /// read as a source, written as a sink), by the address of the version ...
    pub option_checked: std::collections::HashSet<(usize, u8)>,
    /// ... which these hold, so that no address is reused while the session runs.
    pub option_held: Vec<Arc<CatalogObject>>,
    /// The option problems found at each table's `CREATE TABLE`, by the address of the
    /// version (held), kept for its first use when they do not depend on the side
    /// ([`super::options::check_use_tracked`]): a table is checked once, not again per use.
    pub option_unused:
        foldhash::HashMap<usize, (Arc<CatalogObject>, Vec<super::options::OptionIssue>)>,
    /// Whether statements' queries are validated ([`super::validate`]; on unless a benchmark
    /// measures the pass).
    pub validate_queries: bool,
    /// Whether pipelines are planned and checked ([`super::plan`]; on unless a benchmark
    /// measures the pass).
    pub plan_pipelines: bool,
    /// The plans of the session's pipelines ([`super::plan`]), kept when
    /// [`Self::record_versions`] is set (for `explain`).
    pub plans: Vec<RecordedPlan>,
    /// The functions the run creates, loads or declares beside the built-ins (until set:
    /// unknown, and calls are not checked).
    pub functions: Arc<super::functions::check::FunctionEnv>,
    /// The connector and format catalogs options are checked against (the built-in ones and
    /// the configuration's `connectors:`); `None`: options are not checked (a benchmark
    /// measuring the checks).
    pub connectors: Option<super::options::Known>,
    /// Permanent objects this session dropped or renamed and did not create again: their
    /// names certainly name nothing (a temporary object may hide a permanent one the session
    /// does not know, so dropping one proves nothing).
    pub dropped: std::collections::HashSet<QualifiedName>,
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
            record_versions: true,
            deployed: std::collections::HashMap::new(),
            system,
            option_checked: std::collections::HashSet::new(),
            option_held: Vec::new(),
            option_unused: Default::default(),
            validate_queries: true,
            plan_pipelines: true,
            plans: Vec::new(),
            functions: Arc::new(super::functions::check::FunctionEnv::unknown()),
            connectors: Some(super::options::Known::default()),
            dropped: Default::default(),
        }
    }

    /// A fresh session over `base` that also sees the objects other scripts create
    /// ([`Shared`]).
    pub fn with_shared(
        base: &'b Catalog,
        shared: Shared<'b>,
        system: &'b super::system::SystemColumns,
    ) -> Session<'b> {
        Session {
            catalog: SessionCatalog::with_shared(base, shared),
            ..Session::new(base, system)
        }
    }

    /// Resolves a 1-3 part name against the current catalog and database.
    pub fn resolve(&self, name: &ObjectName) -> Option<QualifiedName> {
        QualifiedName::resolve(name, &self.current_catalog, &self.current_database)
    }

    /// Names the session sees that look like `target` (case-insensitive match or edit
    /// distance up to 2 on the object name), for did-you-mean help.
    pub fn similar(&self, target: &QualifiedName) -> Vec<QualifiedName> {
        if target.object.len() > crate::syntax::MAX_IDENTIFIER_LEN {
            return Vec::new();
        }
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

    /// Records a problem found in `statement`.
    pub(super) fn report(&mut self, file: FileId, statement: Span, problem: Problem) {
        self.found.push(Found {
            file,
            statement,
            problem,
            diff: Vec::new(),
        });
    }

    /// Puts `object` in the catalog as a new version of it, after the checks of its columns
    /// (names differing only in case, a column shadowing a system column or in the reserved
    /// prefix, a column named like a field of its connector), and returns it.
    pub(super) fn register(&mut self, object: CatalogObject) -> Arc<CatalogObject> {
        if !object.incomplete {
            if let ObjectDef::Table(t) | ObjectDef::Materialized(t) = &object.def {
                self.case_clashes(object.statement, &t.columns, |c| {
                    (c.name.as_str(), c.origin)
                });
                self.system_column_checks(object.statement, t);
            }
        }
        // Columns named like a field of the connector, while the table's columns and options
        // are at hand.
        for problem in super::connectors::problems(&object) {
            self.report(object.statement.file, object.statement.span, problem);
        }
        let object = Arc::new(object);
        self.dropped.remove(&object.name);
        self.catalog.insert(object.clone());
        if self.record_versions {
            self.versions.push(Version {
                object: object.clone(),
                statement: object.statement,
            });
        }
        object
    }

    /// Applies one statement (and the statements nested in it that run).
    pub fn apply(&mut self, file: &'b FileEntry, statement: &'b Statement) {
        let found_before = self.found.len();
        // The names of the statement's query, before the statement changes the catalog (an
        // EXPLAIN validates its statement's query without running it).
        let explained = match &statement.kind {
            StatementKind::Wrapped(w) if w.wrapper == WrapperKind::Explain => &w.inner.kind,
            kind => kind,
        };
        let mut planned = false;
        if let Some(q) = statement_query(explained) {
            // Flink stops at a statement's first problem: names are resolved before
            // expressions are typed.
            if !self.validate_queries {
                // Validation off (only to measure what it costs): the pipeline is planned as
                // after a validation that finds nothing, so that the measure leaves out the
                // plan pass, which is measured on its own.
                planned = true;
            } else if let Some(validation) = self.validate_query(file, statement, q) {
                self.check_expressions(file, statement, q, &validation);
                planned = true;
            }
        }
        // The connectors of the tables it reads and writes, as the planner creates them.
        self.connector_uses(file, statement);
        // The pipeline's plan and Flink's planner checks on it, when nothing before stopped
        // the statement.
        if planned && self.found.len() == found_before {
            self.check_streaming(file, statement, explained);
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
            StatementKind::Set(set) => self.set(file, statement, set),
            StatementKind::Reset(reset) => self.reset(reset),
            StatementKind::Use(u) => self.use_(u),
            StatementKind::Other(o) if matches!(o.kind, OtherKind::Update | OtherKind::Delete) => {
                self.update_delete(file, statement, o)
            }
            _ => {}
        }
    }

    /// The first problem of the query's expressions and set operations
    /// ([`super::functions::query_check`]), unless the statement has a syntax error.
    fn check_expressions(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        q: &Query,
        validation: &super::validate::Validation,
    ) {
        // A double-quoted token: Flink reads it as a name, flinklint's tree as a string.
        if statement.has_error || file.source.slice(statement.span).contains('"') {
            return;
        }
        // An INSERT into a table the session cannot see: Flink resolves the target before it
        // validates the query, and the unknown table is the finding.
        let target = match &statement.kind {
            StatementKind::Insert(i) => Some(&i.table),
            StatementKind::Wrapped(w) => match &w.inner.kind {
                StatementKind::Insert(i) => Some(&i.table),
                _ => None,
            },
            _ => None,
        };
        if target.is_some_and(|t| self.lookup(t).is_none()) {
            return;
        }
        let env = self.functions.clone();
        // A view's query is validated when the view is created, and planned only where a
        // query reads the view.
        let planned = !matches!(statement.kind, StatementKind::CreateView(_));
        if let Some(f) = super::functions::query_check::check_query(q, validation, &env, planned) {
            self.report(
                file.id,
                statement.span,
                Problem::Expression {
                    span: f.span,
                    issue: f.issue,
                    flink: f.flink,
                },
            );
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

    /// The output columns of `query`, when the session can see what it reads.
    pub(super) fn query_columns(&self, query: &Query, file: FileId) -> Option<Vec<OutputColumn>> {
        query::output_columns(query, self, file)
    }

    /// The object an ALTER / DROP / INSERT targets; reports an unknown table
    /// ([`Problem::UnknownTable`]) when the session cannot see it (unless `IF EXISTS`).
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
                // An ALTER TABLE on a Kafka topic's name: a table registered outside SQL.
                let topic = action == "ALTER TABLE" && topic_name(name);
                if !if_exists && !statement.has_error && !topic {
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

    /// A statement for one kind of table on the other kind ([`Problem::NotMaterialized`]).
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

    /// `INSERT INTO`: an unknown table when the session cannot see the target, else the checks
    /// of [`super::insert`].
    fn insert(&mut self, file: &FileEntry, statement: &Statement, i: &Insert) {
        // `VALUES (DEFAULT, ...)`: Flink has no column defaults and reports the keyword as an
        // unknown function before it looks the target up (fixtures/oracle/qv-insert).
        if !statement.has_error {
            if let Some(span) = values_default(&i.query) {
                self.report(
                    file.id,
                    statement.span,
                    Problem::Expression {
                        span,
                        issue: super::functions::check::ExprIssue::UnknownFunction {
                            name: "DEFAULT".into(),
                            similar: Vec::new(),
                        },
                        flink: Some("No match found for function signature DEFAULT".into()),
                    },
                );
                return;
            }
        }
        if let Some((name, object)) = self.target(file, statement, &i.table, "INSERT INTO", false) {
            self.check_insert(file, statement, i, &name, &object);
        }
    }
}

/// Whether `name` is one quoted part holding dots (`` `card-tx.public.customers` ``): a Kafka
/// topic's name as Debezium and Kafka Connect write them (`server.schema.table`). Catalogs over
/// Kafka (Confluent Cloud's, which exposes every topic of a cluster as a table) register such
/// tables outside SQL, and scripts `ALTER TABLE` them to set their format, changelog mode or
/// metadata columns: that no script creates one says nothing. Other statements on such a name
/// are still reported (`` INSERT INTO `your_catalog.your_database.sink` `` is more often three
/// parts written in one pair of backticks).
fn topic_name(name: &ObjectName) -> bool {
    matches!(name.parts.as_slice(), [only] if only.quoted && only.text.contains('.'))
}

/// The first `DEFAULT` written as a value of an INSERT's `VALUES` rows (in a row or a
/// parenthesized query of VALUES).
fn values_default(query: &Query) -> Option<crate::source::Span> {
    let mut body = &query.body;
    // `(VALUES ...)`: a few levels at most.
    for _ in 0..16 {
        match body {
            SetExpr::Query(q) => body = &q.body,
            SetExpr::Values(v) => {
                return v
                    .rows
                    .iter()
                    .flatten()
                    .find(|e| matches!(e.kind, ExprKind::Default))
                    .map(|e| e.span)
            }
            _ => return None,
        }
    }
    None
}

/// The plan of one pipeline, as `explain` prints it.
#[derive(Debug, Clone)]
pub struct RecordedPlan {
    /// The file of the statement.
    pub file: FileId,
    /// The statement (an INSERT, a statement-set member, a CTAS, a SELECT).
    pub statement: Span,
    /// The plan.
    pub root: super::plan::Node,
    /// The first streaming problem found on it.
    pub problem: Option<super::plan::StreamProblem>,
}

/// The query a statement runs or defines: of a CREATE TABLE AS, a view, a materialized
/// table, an ALTER MATERIALIZED TABLE ... AS, an INSERT or a SELECT.
pub fn statement_query(kind: &StatementKind) -> Option<&Query> {
    match kind {
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
    }
}

impl Scope for Session<'_> {
    fn lookup(&self, name: &ObjectName) -> Option<(QualifiedName, &CatalogObject)> {
        let q = self.resolve(name)?;
        let object = self.catalog.get(&q)?;
        Some((q, object))
    }
    fn current_catalog(&self) -> String {
        self.current_catalog.to_string()
    }
    fn dropped(&self, name: &ObjectName) -> bool {
        self.resolve(name)
            .is_some_and(|q| self.dropped.contains(&q) && self.catalog.get(&q).is_none())
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

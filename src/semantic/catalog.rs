//! The catalog: typed tables, views and materialized tables, each element with the file and
//! span it came from, and the session view of it (temporary objects shadow permanent ones).

use super::names::QualifiedName;
use super::types::Type;
use crate::source::{FileId, Span};
use crate::syntax::ast::{DistributionKind, Expr, Query, RefreshMode, StartModeClause};
use compact_str::CompactString;
use std::sync::Arc;

/// The catalog's maps, keyed by qualified names: foldhash (randomly seeded, much faster than
/// SipHash on short keys).
type HashMap<K, V> = foldhash::HashMap<K, V>;

/// Where a definition or element was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The file.
    pub file: FileId,
    /// The element's span in it.
    pub span: Span,
}

/// Flink's three column kinds.
#[derive(Debug, Clone)]
pub enum ColumnKind {
    /// Stored in and read from the external system.
    Physical,
    /// `name AS expr`: computed on read; not writable. The expression is the statement's own,
    /// shared.
    Computed(Arc<Expr>),
    /// `METADATA [FROM 'key'] [VIRTUAL]`.
    Metadata {
        /// `FROM 'key'`, if written.
        key: Option<CompactString>,
        /// `VIRTUAL`: read-only, not part of the sink schema.
        is_virtual: bool,
    },
}

impl ColumnKind {
    /// "physical", "computed" or "metadata".
    pub fn describe(&self) -> &'static str {
        match self {
            ColumnKind::Physical => "physical",
            ColumnKind::Computed(_) => "computed",
            ColumnKind::Metadata { .. } => "metadata",
        }
    }
    /// A physical column.
    pub fn is_physical(&self) -> bool {
        matches!(self, ColumnKind::Physical)
    }
    /// Physical or non-virtual metadata: persisted columns.
    pub fn is_persisted(&self) -> bool {
        matches!(
            self,
            ColumnKind::Physical
                | ColumnKind::Metadata {
                    is_virtual: false,
                    ..
                }
        )
    }
}

/// A column of a resolved table.
#[derive(Debug, Clone)]
pub struct Column {
    /// Name (case-sensitive).
    pub name: CompactString,
    /// Kind.
    pub kind: ColumnKind,
    /// Type; `None` for computed columns whose type flinklint cannot infer.
    pub data_type: Option<Type>,
    /// Column comment.
    pub comment: Option<String>,
    /// Where it was declared.
    pub origin: Origin,
    /// The LIKE parent it was inherited from, if any (shared by every element inherited from
    /// it).
    pub inherited_from: Option<Arc<QualifiedName>>,
}

/// `WATERMARK FOR col AS expr`.
#[derive(Debug, Clone)]
pub struct WatermarkDef {
    /// The rowtime column (a nested path has several parts).
    pub column: Vec<CompactString>,
    /// The strategy (the statement's expression, shared).
    pub expr: Arc<Expr>,
    /// Where declared.
    pub origin: Origin,
    /// The LIKE parent it was inherited from, if any (shared by every element inherited from
    /// it).
    pub inherited_from: Option<Arc<QualifiedName>>,
}

/// `PRIMARY KEY (...) NOT ENFORCED`.
#[derive(Debug, Clone)]
pub struct PrimaryKeyDef {
    /// Constraint name: as written, or Flink's generated `PK_<col>_<col>`.
    pub name: CompactString,
    /// Key columns.
    pub columns: Vec<CompactString>,
    /// Where declared.
    pub origin: Origin,
}

/// `DISTRIBUTED BY ...`.
#[derive(Debug, Clone)]
pub struct DistributionDef {
    /// HASH / RANGE / unspecified.
    pub kind: Option<DistributionKind>,
    /// Keys.
    pub columns: Vec<CompactString>,
    /// `INTO n BUCKETS`.
    pub buckets: Option<u64>,
    /// Where declared.
    pub origin: Origin,
}

/// `PARTITIONED BY (...)`.
#[derive(Debug, Clone)]
pub struct PartitionDef {
    /// Keys.
    pub columns: Vec<CompactString>,
    /// Where declared.
    pub origin: Origin,
}

/// One `'key' = 'value'` option.
#[derive(Debug, Clone)]
pub struct OptionDef {
    /// Key.
    pub key: CompactString,
    /// Value.
    pub value: CompactString,
    /// Where declared.
    pub origin: Origin,
}

/// What only a materialized table has.
#[derive(Debug, Clone)]
pub struct MaterializedDef {
    /// The defining query.
    pub query: Arc<Query>,
    /// Where the query is.
    pub query_origin: Origin,
    /// START_MODE as declared by the statement that defined the current version.
    pub start_mode: Option<StartModeClause>,
    /// FRESHNESS as written (e.g. `INTERVAL '3' MINUTE`), if declared.
    pub freshness: Option<Expr>,
    /// REFRESH_MODE, if declared.
    pub refresh_mode: Option<RefreshMode>,
    /// Whether the column list came from the query (no typed DDL columns).
    pub schema_from_query: bool,
    /// The query as `SHOW CREATE MATERIALIZED TABLE` prints it (validated, fully qualified),
    /// when flinklint can print it: see [`super::render_query::flink_expanded`].
    pub expanded_query: Option<String>,
}

/// A resolved table or materialized table.
#[derive(Debug, Clone)]
pub struct TableDef {
    /// Columns in Flink's order.
    pub columns: Vec<Column>,
    /// Watermark.
    pub watermark: Option<WatermarkDef>,
    /// Primary key.
    pub primary_key: Option<PrimaryKeyDef>,
    /// Distribution.
    pub distribution: Option<DistributionDef>,
    /// Partition keys.
    pub partitions: Option<PartitionDef>,
    /// Options in declaration order (duplicates resolved: last wins).
    pub options: Vec<OptionDef>,
    /// Table comment.
    pub comment: Option<String>,
    /// For materialized tables (boxed: most tables are not).
    pub materialized: Option<Box<MaterializedDef>>,
}

impl TableDef {
    /// An empty definition.
    pub fn empty() -> TableDef {
        TableDef {
            columns: Vec::new(),
            watermark: None,
            primary_key: None,
            distribution: None,
            partitions: None,
            options: Vec::new(),
            comment: None,
            materialized: None,
        }
    }
    /// The column named `name` (case-sensitive).
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }
    /// The option `key`'s value.
    pub fn option(&self, key: &str) -> Option<&OptionDef> {
        self.options.iter().rev().find(|o| o.key == key)
    }
    /// Sets an option, replacing an existing value in place.
    pub fn set_option(&mut self, option: OptionDef) {
        match self.options.iter_mut().find(|o| o.key == option.key) {
            Some(existing) => *existing = option,
            None => self.options.push(option),
        }
    }
}

/// A view: its query and, when knowable, its output column names.
#[derive(Debug, Clone)]
pub struct ViewDef {
    /// The query.
    pub query: Option<Arc<Query>>,
    /// Explicit column names.
    pub columns: Option<Vec<CompactString>>,
    /// The column types inferred from the query, parallel to `columns` (empty when the
    /// query's columns are unknown; `None` where a type cannot be inferred).
    pub types: Vec<Option<Type>>,
    /// `COMMENT`.
    pub comment: Option<CompactString>,
    /// The query as Flink's `SHOW CREATE VIEW` prints it (validated and fully qualified), when
    /// flinklint can print it: see [`super::render_query::flink_expanded`].
    pub expanded_query: Option<String>,
}

/// What a catalog object is.
#[derive(Debug, Clone)]
pub enum ObjectDef {
    /// A table (`CREATE TABLE`).
    Table(TableDef),
    /// A materialized table (`CREATE [OR ALTER] MATERIALIZED TABLE`).
    Materialized(TableDef),
    /// A view.
    View(ViewDef),
}

impl ObjectDef {
    /// "table", "materialized table" or "view".
    pub fn kind_name(&self) -> &'static str {
        match self {
            ObjectDef::Table(_) => "table",
            ObjectDef::Materialized(_) => "materialized table",
            ObjectDef::View(_) => "view",
        }
    }
    /// The table definition of a table or materialized table.
    pub fn table(&self) -> Option<&TableDef> {
        match self {
            ObjectDef::Table(t) | ObjectDef::Materialized(t) => Some(t),
            ObjectDef::View(_) => None,
        }
    }
}

/// A catalog object: its definition, where it was defined, and flags.
#[derive(Debug, Clone)]
pub struct CatalogObject {
    /// Its name.
    pub name: QualifiedName,
    /// Its definition.
    pub def: ObjectDef,
    /// `TEMPORARY`.
    pub temporary: bool,
    /// The statement that defined its current version.
    pub statement: Origin,
    /// The name in that statement.
    pub name_origin: Origin,
    /// Whether the defining statement had a syntax error (the definition may be partial).
    pub incomplete: bool,
    /// The LIKE parent as it was when this object was created (for `expand --diff`).
    pub derived_from: Option<Arc<CatalogObject>>,
    /// Whether scripts of the project define it differently (`catalog: auto`): a script that
    /// uses it cannot know which definition it gets, so nothing that depends on the definition
    /// is checked (it is also `incomplete`).
    pub ambiguous: bool,
}

/// A set of permanent and temporary objects.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    permanent: HashMap<QualifiedName, Arc<CatalogObject>>,
    /// The `external-tables` files: the tables they declare stand for tables that live
    /// elsewhere, and their connector options are not checked.
    pub external_files: Arc<Vec<crate::source::FileId>>,
}

impl Catalog {
    /// The permanent object named `name`.
    pub fn get(&self, name: &QualifiedName) -> Option<&Arc<CatalogObject>> {
        self.permanent.get(name)
    }
    /// Adds or replaces a permanent object.
    pub fn insert(&mut self, object: Arc<CatalogObject>) {
        self.permanent.insert(object.name.clone(), object);
    }
    /// Removes a permanent object.
    pub fn remove(&mut self, name: &QualifiedName) {
        self.permanent.remove(name);
    }
    /// Whether it holds no object.
    pub fn is_empty(&self) -> bool {
        self.permanent.is_empty()
    }
    /// Every permanent object.
    pub fn objects(&self) -> impl Iterator<Item = &Arc<CatalogObject>> {
        self.permanent.values()
    }
}

/// The permanent objects that other scripts of the project create, as one script sees them
/// (`catalog: auto`): every object of `objects` but those the script creates itself (`own`,
/// sorted), which it sees only once it has created them.
#[derive(Debug, Clone, Copy)]
pub struct Shared<'b> {
    /// The objects, by name.
    pub objects: &'b Catalog,
    /// The names the script creates itself, sorted.
    pub own: &'b [QualifiedName],
    /// The objects the script sees instead of those of `objects` under the same names (the
    /// definitions of the creators nearest to it), sorted by name.
    pub nearer: &'b [Arc<CatalogObject>],
}

impl<'b> Shared<'b> {
    /// The object `name`, unless the script creates it itself.
    pub(crate) fn get(&self, name: &QualifiedName) -> Option<&'b Arc<CatalogObject>> {
        if self.own.binary_search(name).is_ok() {
            return None;
        }
        match self.nearer.binary_search_by(|o| o.name.cmp(name)) {
            Ok(at) => self.nearer.get(at),
            Err(_) => self.objects.get(name),
        }
    }
    /// Every object it shows, but those the script creates itself.
    pub(crate) fn visible(self) -> impl Iterator<Item = &'b Arc<CatalogObject>> {
        let nearer = self.nearer;
        self.objects
            .objects()
            .filter(move |o| nearer.binary_search_by(|n| n.name.cmp(&o.name)).is_err())
            .chain(nearer)
            .filter(move |o| self.own.binary_search(&o.name).is_err())
    }
}

/// A session's view of the catalog: its own temporary objects and its changes to the
/// permanent ones, over a shared base (the persistent catalog) that is never copied, and the
/// objects other scripts create ([`Shared`]), when the deployment model shows them.
#[derive(Debug, Clone)]
pub struct SessionCatalog<'b> {
    base: &'b Catalog,
    shared: Option<Shared<'b>>,
    /// Permanent objects created, replaced (`Some`) or dropped (`None`) in this session.
    changes: HashMap<QualifiedName, Option<Arc<CatalogObject>>>,
    temporary: HashMap<QualifiedName, Arc<CatalogObject>>,
    /// The names [`SessionCatalog::get`] did not find, in order, repeats included: what the
    /// session used but could not see (for the deployment model).
    misses: std::cell::RefCell<Vec<QualifiedName>>,
    /// What the session asked of `shared`: each name looked up there and what it found, and
    /// whether it listed every object (what a re-check needs to know to reuse its results).
    shared_reads: std::cell::RefCell<SharedReads>,
}

/// What a session read of the objects other scripts create ([`Shared`]).
#[derive(Debug, Clone, Default)]
pub struct SharedReads {
    /// Each name looked up, with what it resolved to (repeats included until taken).
    pub lookups: Vec<(QualifiedName, Option<Arc<CatalogObject>>)>,
    /// Whether the session listed every object it sees (names for suggestions, `SHOW`).
    pub listed: bool,
}

impl<'b> SessionCatalog<'b> {
    /// Whether `file` is an `external-tables` file of the run.
    pub fn is_external_file(&self, file: crate::source::FileId) -> bool {
        self.base.external_files.contains(&file)
    }

    /// A session starting from `base`.
    pub fn new(base: &'b Catalog) -> SessionCatalog<'b> {
        SessionCatalog {
            base,
            shared: None,
            changes: HashMap::default(),
            temporary: HashMap::default(),
            misses: Default::default(),
            shared_reads: Default::default(),
        }
    }
    /// A session starting from `base` that also sees the objects of other scripts: `shared`
    /// holds no name of `base`.
    pub fn with_shared(base: &'b Catalog, shared: Shared<'b>) -> SessionCatalog<'b> {
        SessionCatalog {
            shared: Some(shared),
            ..SessionCatalog::new(base)
        }
    }
    /// What `name` resolves to: a temporary object first, then a permanent one. A name not
    /// found is noted ([`SessionCatalog::take_misses`]).
    pub fn get(&self, name: &QualifiedName) -> Option<&Arc<CatalogObject>> {
        if let Some(t) = self.temporary.get(name) {
            return Some(t);
        }
        let found = self.permanent(name);
        if found.is_none() {
            self.misses.borrow_mut().push(name.clone());
        }
        found
    }
    /// The names the session used but could not see ([`SessionCatalog::get`] found nothing),
    /// sorted, without repeats and without the names it created or declared itself (before or
    /// after the use).
    pub fn take_misses(&mut self) -> Vec<QualifiedName> {
        let mut misses = std::mem::take(self.misses.get_mut());
        misses.retain(|n| !self.changes.contains_key(n) && !self.temporary.contains_key(n));
        misses.sort_unstable();
        misses.dedup();
        misses
    }
    /// What the session read of the objects other scripts create ([`SharedReads`]), each
    /// name once, sorted.
    pub fn take_shared_reads(&mut self) -> SharedReads {
        let mut reads = std::mem::take(self.shared_reads.get_mut());
        reads.lookups.sort_by(|a, b| a.0.cmp(&b.0));
        reads.lookups.dedup_by(|a, b| a.0 == b.0);
        reads
    }
    /// The permanent objects the session created, replaced (`Some`) or dropped (`None`).
    pub fn changes(&self) -> impl Iterator<Item = (&QualifiedName, Option<&Arc<CatalogObject>>)> {
        self.changes.iter().map(|(n, c)| (n, c.as_ref()))
    }
    /// The permanent object `name`.
    pub fn permanent(&self, name: &QualifiedName) -> Option<&Arc<CatalogObject>> {
        match self.changes.get(name) {
            Some(change) => change.as_ref(),
            None => self.base.get(name).or_else(|| {
                let shared = self.shared?;
                let found = shared.get(name);
                self.shared_reads
                    .borrow_mut()
                    .lookups
                    .push((name.clone(), found.cloned()));
                found
            }),
        }
    }

    /// The temporary object `name`.
    pub fn temporary(&self, name: &QualifiedName) -> Option<&Arc<CatalogObject>> {
        self.temporary.get(name)
    }
    /// Adds or replaces an object (temporary or permanent, as it says).
    pub fn insert(&mut self, object: Arc<CatalogObject>) {
        if object.temporary {
            self.temporary.insert(object.name.clone(), object);
        } else {
            self.changes.insert(object.name.clone(), Some(object));
        }
    }
    /// Drops the temporary object `name` if there is one, else the permanent one.
    pub fn remove(&mut self, name: &QualifiedName, temporary: bool) {
        if temporary || self.temporary.contains_key(name) {
            self.temporary.remove(name);
        } else {
            self.changes.insert(name.clone(), None);
        }
    }
    /// The names of every object the session sees that pass `keep`, unsorted, without
    /// allocating. `keep` is a cheap test, applied before the session's changes are looked up.
    pub fn names_where<'s>(
        &'s self,
        keep: impl Fn(&QualifiedName) -> bool + Copy + 's,
    ) -> impl Iterator<Item = &'s QualifiedName> {
        let base = self
            .base
            .objects()
            .map(|o| &o.name)
            .filter(move |n| keep(n) && !self.changes.contains_key(*n));
        let changed = self
            .changes
            .iter()
            .filter(move |(n, c)| c.is_some() && keep(n))
            .map(|(n, _)| n);
        if self.shared.is_some() {
            self.shared_reads.borrow_mut().listed = true;
        }
        let shared = self.shared.into_iter().flat_map(move |s| {
            s.visible()
                .map(|o| &o.name)
                .filter(move |n| keep(n) && !self.changes.contains_key(*n))
        });
        base.chain(changed)
            .chain(shared)
            .chain(self.temporary.keys().filter(move |n| keep(n)))
    }

    /// Every object the session sees (temporary ones shadowing permanent ones).
    pub fn objects(&self) -> Vec<&Arc<CatalogObject>> {
        let mut out: Vec<&Arc<CatalogObject>> = self.temporary.values().collect();
        for o in self.base.objects() {
            if !self.changes.contains_key(&o.name) && !self.temporary.contains_key(&o.name) {
                out.push(o);
            }
        }
        if let Some(shared) = self.shared {
            self.shared_reads.borrow_mut().listed = true;
            for o in shared.visible() {
                if !self.changes.contains_key(&o.name) && !self.temporary.contains_key(&o.name) {
                    out.push(o);
                }
            }
        }
        for o in self.changes.values().flatten() {
            if !self.temporary.contains_key(&o.name) {
                out.push(o);
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }
    /// The session's own state (its changes and temporary objects) without the base, to keep
    /// after the session ends: the base is shared, not copied.
    pub fn overlay(&self) -> Overlay {
        Overlay {
            changes: self.changes.clone(),
            temporary: self.temporary.clone(),
        }
    }

    /// Replaces what the session created and changed with `overlay`'s (a history's
    /// checkpoint put back).
    pub fn restore(&mut self, overlay: Overlay) {
        self.changes = overlay.changes;
        self.temporary = overlay.temporary;
    }

    /// [`Self::overlay`], moving the session's state out instead of copying it.
    pub fn into_overlay(self) -> Overlay {
        Overlay {
            changes: self.changes,
            temporary: self.temporary,
        }
    }
}

/// What a session changed on top of its base catalog.
#[derive(Debug, Clone, Default)]
pub struct Overlay {
    changes: HashMap<QualifiedName, Option<Arc<CatalogObject>>>,
    temporary: HashMap<QualifiedName, Arc<CatalogObject>>,
}

impl Overlay {
    /// The permanent changes (a dropped object is `None`), to apply to a persistent catalog
    /// (histories).
    pub fn into_changes(self) -> HashMap<QualifiedName, Option<Arc<CatalogObject>>> {
        self.changes
    }
    /// What `name` resolves to over `base`: a temporary object first, then the session's
    /// permanent changes, then the base.
    pub fn get<'a>(
        &'a self,
        base: &'a Catalog,
        name: &QualifiedName,
    ) -> Option<&'a Arc<CatalogObject>> {
        if let Some(t) = self.temporary.get(name) {
            return Some(t);
        }
        match self.changes.get(name) {
            Some(change) => change.as_ref(),
            None => base.get(name),
        }
    }
}

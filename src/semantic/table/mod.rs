//! Building a table definition from `CREATE TABLE`, with or without `LIKE`: Flink's merge
//! algorithm (FLIP-110; `MergeTableLikeUtil`, flink-spec §3.2-3.6) and the checks every table
//! definition goes through (§2.1 and §3.5 step I). One function, [`build_table`], returns the
//! resolved table and every problem, in Flink's order; the LIKE, column and table rules all
//! report from it.
//!
//! [`build_table`] is a short driver: each step of the merge is one function of a `Merge`,
//! in the module of its part of the table:
//!
//! - `statement`: the checks of the statement itself, before any merge (the LIKE option list
//!   and its effective merging strategies, constraints);
//! - `columns`: steps A-C, the columns (parent's first, then the derived physical, computed
//!   and metadata ones);
//! - `ctas`: the columns of a `CREATE TABLE ... AS SELECT` query;
//! - `schema`: steps D-E, the watermark and the primary key;
//! - `properties`: steps F-H, partition keys, options and distribution;
//! - `resolve`: step I, the resolution of the merged watermark.

mod columns;
mod ctas;
mod properties;
mod resolve;
mod schema;
mod statement;

pub(super) use ctas::ctas_columns;
pub(in crate::semantic) use properties::distribution_problem;
pub(super) use statement::constraint_problems;
pub use statement::strategies;

use super::catalog::*;
use super::names::QualifiedName;
use super::problems::{Kind, Problem, Strategies};
use super::system::SystemColumn;
use super::types::Type;
use crate::source::FileId;
use crate::syntax::ast::{self, ColumnDef, TableElements};
use compact_str::CompactString;
use std::collections::HashMap;
use std::sync::Arc;

/// The LIKE parent as the session resolved it.
pub struct Parent<'a> {
    /// Its name.
    pub name: &'a QualifiedName,
    /// Its definition.
    pub table: &'a TableDef,
}

/// What the derived statement declares, independent of the statement kind (CREATE TABLE,
/// CREATE MATERIALIZED TABLE).
pub struct Declared<'a> {
    /// The file of the statement.
    pub file: FileId,
    /// Column list, constraints and watermarks.
    pub elements: Option<&'a TableElements>,
    /// Table comment.
    pub comment: Option<&'a ast::StringLit>,
    /// Distribution.
    pub distribution: Option<&'a ast::Distribution>,
    /// Partition keys.
    pub partitioned_by: Option<&'a ast::ColumnList>,
    /// Options.
    pub with: Option<&'a ast::PropertyList>,
    /// The LIKE clause.
    pub like: Option<&'a ast::LikeClause>,
    /// The query's columns of a `CREATE TABLE ... AS SELECT` (merged before the primary key,
    /// watermark and partition keys are checked, as Flink's `MergeTableAsUtil` does).
    pub query: QueryColumns<'a>,
    /// The platform's implicit system columns (Confluent Cloud's `$rowtime`): a watermark or a
    /// computed column may refer to one the table does not shadow.
    pub system: &'a [SystemColumn],
}

/// The columns of a CTAS query, as far as the session knows them.
#[derive(Clone, Copy)]
pub enum QueryColumns<'a> {
    /// Not a CTAS (or the query's columns are merged elsewhere).
    None,
    /// The query's output columns.
    Known(&'a [super::query::OutputColumn]),
    /// A CTAS whose query reads objects the session cannot see: its columns are unknown, so
    /// column references are not checked.
    Unknown,
}

/// The result of building a table.
pub struct Built {
    /// The resolved table (partial when problems stopped the merge).
    pub table: TableDef,
    /// Problems, in Flink's order.
    pub problems: Vec<Problem>,
    /// Effective merging strategies (for `--explain-like`), when there is a LIKE.
    pub strategies: Option<Strategies>,
}

/// Builds the table a CREATE statement defines: the derived declaration merged with the LIKE
/// parent (or with nothing, as Flink does for a plain CREATE TABLE), then resolved.
///
/// `parent` is `None` when there is no LIKE or its source was not found / not a table (the
/// caller reports those). Problems come in Flink's order: option list, constraints, partitions
/// conflict, columns, watermark, primary key, partition keys, options, distribution,
/// resolution.
pub fn build_table(declared: &Declared<'_>, parent: Option<Parent<'_>>) -> Built {
    let (strategies, mut problems) = statement::like_options(declared);
    let options_invalid = !problems.is_empty();
    statement::constraint_checks(declared, &mut problems);
    if options_invalid {
        // Flink rejects the option list while validating the statement: no merge happens.
        return Built {
            table: declared_only(declared),
            problems,
            strategies,
        };
    }
    let empty = TableDef::empty();
    let mut merge = Merge::new(
        declared,
        strategies.clone().unwrap_or_else(Strategies::defaults),
        parent.as_ref(),
        &empty,
        problems,
    );
    merge.partitions_conflict(); // G, first part
    merge.seed_from_parent(); // A
    merge.derived_physical_columns(); // B
    merge.derived_computed_and_metadata_columns(); // C
    merge.order_columns_and_check_inherited(); // C, end
    merge.query_columns(); // CTAS
    merge.derived_watermark(); // D
    merge.derived_primary_key(); // E
    let partitions = merge.partition_keys(); // G, second part
    let options = merge.options(); // H
    let distribution = merge.distribution(); // F
    merge.resolve_watermark(); // I
    let Merge {
        columns,
        watermark,
        primary_key,
        problems,
        ..
    } = merge;
    let table = TableDef {
        columns,
        watermark,
        primary_key,
        distribution,
        partitions,
        options,
        comment: declared.comment.map(|c| c.value.to_string()),
        materialized: None,
    };
    Built {
        table,
        problems,
        strategies,
    }
}

/// The state of one merge: what the derived statement declares, the parent, and the table as
/// the steps so far left it. Each step is a method, in the module of its part of the table.
struct Merge<'a> {
    /// What the derived statement declares.
    declared: &'a Declared<'a>,
    /// The effective merging strategies (Flink's defaults without LIKE).
    strategies: Strategies,
    /// The parent's definition (an empty table without a parent).
    parent: &'a TableDef,
    /// Whether there is a parent.
    has_parent: bool,
    /// The parent's name, if any.
    parent_name: Option<QualifiedName>,
    /// The parent's name as inherited elements record it.
    inherited_name: Option<Arc<QualifiedName>>,
    /// Problems so far, in Flink's order.
    problems: Vec<Problem>,
    /// The merged columns: the inherited ones first.
    columns: Vec<Column>,
    /// The position in `columns` of each name (its first column): look-ups by name in
    /// constant time once there are many, so that a table of many columns is built in linear
    /// time.
    positions: Positions,
    /// How many of `columns` were inherited (step A).
    inherited_count: usize,
    /// The merged watermark.
    watermark: Option<WatermarkDef>,
    /// The merged primary key.
    primary_key: Option<PrimaryKeyDef>,
    /// Whether `primary_key` was inherited (step A).
    inherited_pk: bool,
    /// Columns only the CTAS query gives a type (not typed in the column list).
    from_query: Vec<CompactString>,
    /// A CTAS whose query's columns are unknown: column references are not checked.
    query_unknown: bool,
}

impl<'a> Merge<'a> {
    /// A merge of `declared` with `parent` (`empty` when there is none), after the statement's
    /// own `problems`.
    fn new(
        declared: &'a Declared<'a>,
        strategies: Strategies,
        parent: Option<&Parent<'a>>,
        empty: &'a TableDef,
        problems: Vec<Problem>,
    ) -> Merge<'a> {
        let parent_name = parent.map(|p| p.name.clone());
        Merge {
            declared,
            strategies,
            parent: parent.map_or(empty, |p| p.table),
            has_parent: parent.is_some(),
            inherited_name: parent_name.clone().map(Arc::new),
            parent_name,
            problems,
            columns: Vec::new(),
            positions: Positions::default(),
            inherited_count: 0,
            watermark: None,
            primary_key: None,
            inherited_pk: false,
            from_query: Vec::new(),
            query_unknown: false,
        }
    }

    /// Rebuilds [`Merge::positions`] after `columns` was reordered or replaced.
    fn reindex(&mut self) {
        self.positions = Positions::of(&self.columns);
    }

    /// The position of the column `name`.
    fn position(&self, name: &str) -> Option<usize> {
        self.positions.get(&self.columns, name)
    }

    /// Adds a column at the end.
    fn push(&mut self, column: Column) {
        self.columns.push(column);
        self.positions.pushed(&self.columns);
    }

    /// The column `name`.
    fn column(&self, name: &str) -> Option<&Column> {
        self.position(name).map(|i| &self.columns[i])
    }

    /// The parent's name for a problem (empty without a parent).
    fn parent_name_or_empty(&self) -> QualifiedName {
        self.parent_name
            .clone()
            .unwrap_or_else(|| QualifiedName::new("", "", ""))
    }
}

/// The columns the derived statement declares, in written order.
fn derived_columns<'a>(declared: &Declared<'a>) -> impl Iterator<Item = &'a ColumnDef> {
    declared.elements.into_iter().flat_map(|e| e.columns())
}

/// The kind of a catalog column, as problems name it.
pub(crate) fn kind_of(c: &ColumnKind) -> Kind {
    match c {
        ColumnKind::Physical => Kind::Physical,
        ColumnKind::Computed(_) => Kind::Computed,
        ColumnKind::Metadata { .. } => Kind::Metadata,
    }
}

/// A declared column as a catalog column.
pub(crate) fn column_from_ast(c: &ColumnDef, file: FileId) -> Column {
    let (kind, data_type) = match &c.kind {
        ast::ColumnKind::Physical { data_type } => {
            (ColumnKind::Physical, Some(Type::from_ast(data_type)))
        }
        ast::ColumnKind::Computed { expr } => (ColumnKind::Computed(expr.clone()), None),
        ast::ColumnKind::Metadata {
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
        ast::ColumnKind::NameOnly => (ColumnKind::Physical, None),
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

/// Columns a table has before their positions by name go into a hash map: below it, a scan
/// costs less than hashing.
const INDEXED_FROM: usize = 32;

/// The position of each column name in a list of columns (the first column of that name): a
/// scan of a few columns, a hash map of many.
#[derive(Debug, Default)]
struct Positions(Option<HashMap<CompactString, usize>>);

impl Positions {
    /// The positions of `columns`.
    fn of(columns: &[Column]) -> Positions {
        if columns.len() < INDEXED_FROM {
            return Positions(None);
        }
        let mut map = HashMap::with_capacity(columns.len());
        for (i, c) in columns.iter().enumerate() {
            map.entry(c.name.clone()).or_insert(i);
        }
        Positions(Some(map))
    }

    /// The position of `name` in `columns` (the list these are the positions of).
    fn get(&self, columns: &[Column], name: &str) -> Option<usize> {
        match &self.0 {
            Some(map) => map.get(name).copied(),
            None => columns.iter().position(|c| c.name == name),
        }
    }

    /// Records the last of `columns`, just added.
    fn pushed(&mut self, columns: &[Column]) {
        match &mut self.0 {
            Some(map) => {
                if let Some(c) = columns.last() {
                    map.entry(c.name.clone()).or_insert(columns.len() - 1);
                }
            }
            None if columns.len() >= INDEXED_FROM => *self = Positions::of(columns),
            None => {}
        }
    }
}

/// Flink's generated constraint name: `PK_` and the columns joined by `_`.
pub fn generated_pk_name<S: AsRef<str>>(columns: impl IntoIterator<Item = S>) -> CompactString {
    let mut name = CompactString::const_new("PK");
    for c in columns {
        name.push('_');
        name.push_str(c.as_ref());
    }
    name
}

/// The type of the column `name` of a table with `columns`, falling back to the implicit
/// system columns (for computed columns and watermarks over `$rowtime`).
pub(crate) fn column_type(columns: &[Column], system: &[SystemColumn], name: &str) -> Option<Type> {
    system_fallback(columns.iter().find(|c| c.name == name), system, name)
}

/// The type of `column`, or, without one, of the system column `name`.
fn system_fallback(column: Option<&Column>, system: &[SystemColumn], name: &str) -> Option<Type> {
    match column {
        Some(c) => c.data_type.clone(),
        None => system
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.data_type.clone()),
    }
}

/// The parent of a LIKE as the session sees it, for diagnostics.
pub fn parent_table(object: &Arc<CatalogObject>) -> Option<&TableDef> {
    match &object.def {
        ObjectDef::Table(t) => Some(t),
        _ => None,
    }
}

/// The table as declared, without a merge: what flinklint registers when the merge cannot run.
fn declared_only(declared: &Declared<'_>) -> TableDef {
    let mut t = TableDef::empty();
    if let Some(elements) = declared.elements {
        t.columns = elements
            .columns()
            .map(|c| column_from_ast(c, declared.file))
            .collect();
    }
    t
}

//! Checks of ALTER TABLE / ALTER MATERIALIZED TABLE schema changes and of a materialized
//! table's CREATE-time schema, in Flink 2.3's order (`AlterSchemaConverter`,
//! `MaterializedTableChangeHandler`, `SqlCreateMaterializedTableConverter`; flink-spec §2.5,
//! §4.2, §4.6; verified in `fixtures/oracle/columns` and `fixtures/oracle/mt`).
//!
//! Column clashes (ADD of an existing column, RENAME / DROP / MODIFY of a missing one, a DROP or
//! RENAME of a column something depends on) are [`Problem::AlterColumnClash`] for both kinds of
//! table; the checks only materialized tables have (persisted columns must come from the
//! query, type changes must widen, one key / watermark / distribution) are
//! [`Problem::InvalidSchema`].

use super::catalog::{Column, ColumnKind, TableDef};
use super::exprs;
use super::names::QualifiedName;
use super::problems::{AlterClash, Dependency, Problem, SchemaIssue};
use super::query::OutputColumn;
use super::session::Session;
use super::show_create;
use super::types::Type;
use crate::source::{FileId, Span};
use crate::syntax::ast::{
    self, ColumnPosition, ConstraintKind, CreateMaterializedTable, ObjectName, SchemaChange,
    TableElement,
};

/// What a check needs to know about the table being altered.
pub(super) struct Altered<'a> {
    /// The definition before the statement.
    pub table: &'a TableDef,
    /// Its resolved name.
    pub name: &'a QualifiedName,
    /// A materialized table: its query's output columns when knowable.
    pub query: Option<Option<Vec<OutputColumn>>>,
    /// The target gives every table system columns and a default watermark (Confluent
    /// Cloud's `$rowtime`): a regular table's watermark changes are not checked.
    pub system_watermark: bool,
}

impl Altered<'_> {
    fn materialized(&self) -> bool {
        self.query.is_some()
    }
    fn clash(&self, span: Span, issue: AlterClash, related: Option<&Column>) -> Problem {
        Problem::AlterColumnClash {
            span,
            issue,
            materialized: self.materialized(),
            table: self.name.clone(),
            related: related.map(|c| c.origin),
        }
    }
    fn schema(&self, span: Span, issue: SchemaIssue) -> Problem {
        if !self.materialized() {
            return Problem::TableSchemaChange {
                span,
                issue,
                table: self.name.clone(),
            };
        }
        Problem::InvalidSchema {
            span,
            issue,
            alter: true,
            table: self.name.clone(),
            related: None,
        }
    }
    /// Whether the query produces `name` (`None`: the query's columns are unknown).
    fn in_query(&self, name: &str) -> Option<bool> {
        match &self.query {
            Some(Some(cols)) => Some(cols.iter().any(|c| c.name == name)),
            _ => None,
        }
    }
}

/// The first thing that depends on `column`, in Flink's order: a computed column, the
/// watermark, the partition keys, the primary key (`with_key`: DROP checks the key, RENAME not).
fn dependency(t: &TableDef, column: &str, with_key: bool, dropped: &[&str]) -> Option<Dependency> {
    for c in &t.columns {
        if let ColumnKind::Computed(expr) = &c.kind {
            // A computed column dropped in the same statement no longer depends on anything.
            if c.name != column
                && !dropped.contains(&c.name.as_str())
                && exprs::column_references(expr)
                    .iter()
                    .any(|(n, _)| *n == column)
            {
                return Some(Dependency::Computed(c.name.as_str().to_string()));
            }
        }
    }
    if let Some(w) = &t.watermark {
        let on_column = w.column.first().is_some_and(|c| c == column);
        if on_column
            || exprs::column_references(&w.expr)
                .iter()
                .any(|(n, _)| *n == column)
        {
            return Some(Dependency::Watermark);
        }
    }
    if t.partitions
        .as_ref()
        .is_some_and(|p| p.columns.iter().any(|k| k == column))
    {
        return Some(Dependency::PartitionKey);
    }
    if with_key
        && t.primary_key
            .as_ref()
            .is_some_and(|k| k.columns.iter().any(|k| k == column))
    {
        return Some(Dependency::PrimaryKey);
    }
    if t.distribution
        .as_ref()
        .is_some_and(|d| d.columns.iter().any(|k| k == column))
    {
        return Some(Dependency::DistributionKey);
    }
    None
}

fn declared_type(c: &ast::ColumnDef) -> Option<Type> {
    match &c.kind {
        ast::ColumnKind::Physical { data_type } | ast::ColumnKind::Metadata { data_type, .. } => {
            Some(Type::from_ast(data_type))
        }
        _ => None,
    }
}

fn is_persisted(c: &ast::ColumnDef) -> bool {
    match &c.kind {
        ast::ColumnKind::Physical { .. } => true,
        ast::ColumnKind::Metadata { virtual_span, .. } => virtual_span.is_none(),
        _ => false,
    }
}

/// The first constraint-form problem of an `ADD` / `MODIFY` (an enforced primary key, a UNIQUE
/// constraint, a second primary key): Flink checks the constraints' form
/// (`SqlConstraintValidator`) before it looks the table up, so this holds whether or not the
/// table is known.
pub(super) fn constraint_form(change: &SchemaChange) -> Option<Problem> {
    let (SchemaChange::Add(items) | SchemaChange::Modify(items)) = change else {
        return None;
    };
    let mut constraints = Vec::new();
    super::table::constraint_problems(items, &mut constraints);
    constraints.into_iter().find(Problem::rejects)
}

/// Problems of `ALTER [MATERIALIZED] TABLE ... ADD / MODIFY / DROP`, in Flink's order. Flink
/// stops at the first, so at most one problem per statement is returned.
pub(super) fn schema_change(a: &Altered<'_>, change: &SchemaChange) -> Option<Problem> {
    let t = a.table;
    match change {
        SchemaChange::Add(items) | SchemaChange::Modify(items) => {
            if let Some(p) = constraint_form(change) {
                return Some(p);
            }
            let modify = matches!(change, SchemaChange::Modify(_));
            let keeps_watermark = !items
                .iter()
                .any(|i| matches!(i, TableElement::Watermark(_)));
            // The table's columns by name (the first of a name) and the names added so far:
            // an ALTER of many columns stays linear.
            let mut by_name: std::collections::HashMap<&str, &Column> =
                std::collections::HashMap::with_capacity(t.columns.len());
            for k in &t.columns {
                by_name.entry(k.name.as_str()).or_insert(k);
            }
            let column_of = |name: &str| by_name.get(name).copied();
            let mut added: std::collections::HashSet<&str> = std::collections::HashSet::new();
            let mut watermarks = 0;
            for item in items {
                match item {
                    TableElement::Column(c) if c.parents.is_empty() => {
                        let name = c.name.as_str();
                        let existing = column_of(name);
                        if !modify {
                            if let Some(e) = existing {
                                return Some(a.clash(
                                    c.name.span,
                                    AlterClash::AddExisting {
                                        column: name.to_string(),
                                    },
                                    Some(e),
                                ));
                            }
                            if added.contains(&name) {
                                return Some(a.clash(
                                    c.name.span,
                                    AlterClash::AddDuplicate {
                                        column: name.to_string(),
                                    },
                                    None,
                                ));
                            }
                        } else if existing.is_none() {
                            return Some(a.clash(
                                c.name.span,
                                AlterClash::Missing {
                                    column: name.to_string(),
                                    action: "MODIFY",
                                },
                                None,
                            ));
                        }
                        if let Some(ColumnPosition::After(after)) = c.position.as_deref() {
                            let target = after.last().as_str();
                            if column_of(target).is_none() && !added.contains(&target) {
                                return Some(a.clash(
                                    after.span,
                                    AlterClash::AfterUnknown {
                                        column: target.to_string(),
                                    },
                                    None,
                                ));
                            }
                        }
                        if a.materialized() {
                            if let Some(p) = materialized_column(a, c, existing, &added) {
                                return Some(p);
                            }
                        } else if let Some(p) = column_primary_key(a, c, modify) {
                            return Some(p);
                        }
                        // A new type for the rowtime column of the table's watermark (one the
                        // statement keeps): Flink validates the watermark over it.
                        let rowtime = t
                            .watermark
                            .as_ref()
                            .is_some_and(|w| w.column.len() == 1 && w.column[0] == name);
                        if let (true, true, true, ast::ColumnKind::Physical { data_type }) = (
                            modify && !a.materialized(),
                            keeps_watermark,
                            rowtime,
                            &c.kind,
                        ) {
                            let ty = Type::from_ast(data_type);
                            if !ty.is_rowtime_capable() {
                                return Some(a.schema(
                                    data_type.span,
                                    SchemaIssue::WatermarkType {
                                        found: ty.with_nullable(true).summary(),
                                    },
                                ));
                            }
                        }
                        added.insert(name);
                    }
                    TableElement::Column(_) => {}
                    TableElement::Constraint(k) if a.materialized() => {
                        if k.kind != ConstraintKind::PrimaryKey {
                            continue;
                        }
                        if !modify {
                            if let Some(pk) = &t.primary_key {
                                return Some(a.schema(
                                    k.span,
                                    SchemaIssue::PrimaryKeyExists {
                                        columns: pk.columns.iter().map(|c| c.to_string()).collect(),
                                    },
                                ));
                            }
                        }
                        for col in &k.columns.names {
                            let Some(ty) =
                                column_of(col.as_str()).and_then(|c| c.data_type.clone())
                            else {
                                continue;
                            };
                            if !ty.nullable {
                                continue;
                            }
                            let issue = if modify {
                                SchemaIssue::TypeChange {
                                    column: col.as_str().to_string(),
                                    from: ty.summary(),
                                    to: ty.clone().with_nullable(false).summary(),
                                }
                            } else {
                                let columns: Vec<_> =
                                    k.columns.names.iter().map(|n| n.text.clone()).collect();
                                SchemaIssue::NullablePrimaryKey {
                                    constraint: k.name.as_ref().map_or_else(
                                        || super::table::generated_pk_name(&columns).to_string(),
                                        |n| n.as_str().to_string(),
                                    ),
                                    column: col.as_str().to_string(),
                                }
                            };
                            return Some(a.schema(col.span, issue));
                        }
                    }
                    TableElement::Constraint(k) if k.kind == ConstraintKind::PrimaryKey => {
                        if let Some(p) = table_primary_key(a, k.span, modify) {
                            return Some(p);
                        }
                    }
                    TableElement::Constraint(_) => {}
                    TableElement::Watermark(_) if !a.materialized() && a.system_watermark => {}
                    TableElement::Watermark(w) => {
                        watermarks += 1;
                        if watermarks > 1 {
                            return Some(a.schema(w.span, SchemaIssue::MultipleWatermarks));
                        }
                        match (&t.watermark, modify) {
                            (Some(existing), false) => {
                                return Some(
                                    a.schema(
                                        w.span,
                                        SchemaIssue::WatermarkExists {
                                            existing: show_create::watermark(existing)
                                                .trim_start_matches("WATERMARK FOR ")
                                                .to_string(),
                                        },
                                    ),
                                )
                            }
                            (None, true) => {
                                return Some(
                                    a.schema(w.span, SchemaIssue::NoWatermark { modify: true }),
                                )
                            }
                            _ => {}
                        }
                        if w.column.parts.len() > 1 && !a.materialized() {
                            return Some(a.schema(w.column.span, SchemaIssue::NestedWatermark));
                        }
                        if w.column.parts.len() == 1 && !added.contains(&w.column.last().as_str()) {
                            let name = w.column.last().as_str();
                            match column_of(name) {
                                None => {
                                    return Some(
                                        a.schema(
                                            w.column.span,
                                            SchemaIssue::WatermarkUnknown {
                                                column: name.to_string(),
                                                available: t
                                                    .columns
                                                    .iter()
                                                    .map(|c| c.name.as_str().to_string())
                                                    .collect(),
                                                alter: true,
                                            },
                                        ),
                                    )
                                }
                                Some(c) => {
                                    if let Some(ty) =
                                        c.data_type.as_ref().filter(|ty| !ty.is_rowtime_capable())
                                    {
                                        return Some(a.schema(
                                            w.column.span,
                                            SchemaIssue::WatermarkType {
                                                found: ty.clone().with_nullable(true).summary(),
                                            },
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
            }
            None
        }
        SchemaChange::DropColumns(names) => {
            let mut seen: Vec<&str> = Vec::new();
            let mut used_in_query = Vec::new();
            let mut first_used = None;
            let dropped: Vec<&str> = names.iter().map(|n| n.last().as_str()).collect();
            for n in names.iter().filter(|n| n.parts.len() == 1) {
                let name = n.last().as_str();
                if seen.contains(&name) {
                    return Some(a.clash(
                        n.span,
                        AlterClash::DropDuplicate {
                            column: name.to_string(),
                        },
                        None,
                    ));
                }
                seen.push(name);
                let Some(column) = t.column(name) else {
                    return Some(a.clash(
                        n.span,
                        AlterClash::Missing {
                            column: name.to_string(),
                            action: "DROP",
                        },
                        None,
                    ));
                };
                if let Some(by) = dependency(t, name, true, &dropped) {
                    return Some(a.clash(
                        n.span,
                        AlterClash::Referenced {
                            column: name.to_string(),
                            by,
                        },
                        Some(column),
                    ));
                }
                if column.kind.is_persisted() && a.in_query(name) == Some(true) {
                    used_in_query.push(name.to_string());
                    first_used.get_or_insert(n.span);
                }
            }
            first_used.map(|span| {
                a.schema(
                    span,
                    SchemaIssue::UsedInQuery {
                        columns: used_in_query,
                    },
                )
            })
        }
        SchemaChange::DropPrimaryKey(span) if t.primary_key.is_none() => {
            Some(a.schema(*span, SchemaIssue::NoPrimaryKey { modify: false }))
        }
        SchemaChange::DropConstraint(name)
            if t.primary_key
                .as_ref()
                .is_none_or(|k| k.name != name.as_str()) =>
        {
            Some(a.schema(
                name.span,
                SchemaIssue::NoConstraint {
                    name: name.as_str().to_string(),
                    available: t.primary_key.as_ref().map(|k| k.name.to_string()),
                },
            ))
        }
        SchemaChange::DropWatermark(span)
            if t.watermark.is_none() && (a.materialized() || !a.system_watermark) =>
        {
            Some(a.schema(*span, SchemaIssue::NoWatermark { modify: false }))
        }
        SchemaChange::AddDistribution(d) => t.distribution.as_ref().map(|existing| {
            a.schema(
                d.span,
                SchemaIssue::DistributionExists {
                    existing: show_create::distribution(existing),
                },
            )
        }),
        SchemaChange::ModifyDistribution(d) if t.distribution.is_none() => {
            Some(a.schema(d.span, SchemaIssue::NoDistribution { modify: true }))
        }
        SchemaChange::DropDistribution(span) if t.distribution.is_none() => {
            Some(a.schema(*span, SchemaIssue::NoDistribution { modify: false }))
        }
        _ => None,
    }
}

/// The materialized-table checks of one ADD / MODIFY column.
fn materialized_column(
    a: &Altered<'_>,
    c: &ast::ColumnDef,
    existing: Option<&Column>,
    added: &std::collections::HashSet<&str>,
) -> Option<Problem> {
    let name = c.name.as_str();
    if let ast::ColumnKind::Computed { expr } = &c.kind {
        for (reference, span) in exprs::column_references(expr) {
            if a.table.column(reference).is_none() && !added.contains(reference) {
                return Some(a.schema(
                    span,
                    SchemaIssue::UnknownIdentifier {
                        name: reference.to_string(),
                    },
                ));
            }
        }
        return None;
    }
    match existing {
        None if is_persisted(c) && a.in_query(name) == Some(false) => Some(a.schema(
            c.name.span,
            SchemaIssue::PersistedNotInQuery {
                column: name.to_string(),
                metadata: matches!(c.kind, ast::ColumnKind::Metadata { .. }),
            },
        )),
        Some(old) if old.kind.is_persisted() => {
            let (Some(from), Some(to)) = (&old.data_type, declared_type(c)) else {
                return None;
            };
            (!from.widens_to(&to)).then(|| {
                a.schema(
                    c.span,
                    SchemaIssue::TypeChange {
                        column: name.to_string(),
                        from: from.summary(),
                        to: to.summary(),
                    },
                )
            })
        }
        _ => None,
    }
}

/// Problems of `ALTER TABLE ... RENAME from TO to`.
pub(super) fn rename_column(
    a: &Altered<'_>,
    from: &ObjectName,
    to: &ObjectName,
) -> Option<Problem> {
    if from.parts.len() != 1 || to.parts.len() != 1 {
        return None;
    }
    let t = a.table;
    let old = from.last().as_str();
    let new = to.last().as_str();
    let Some(column) = t.column(old) else {
        return Some(a.clash(
            from.span,
            AlterClash::Missing {
                column: old.to_string(),
                action: "RENAME",
            },
            None,
        ));
    };
    if let Some(existing) = t.column(new) {
        return Some(a.clash(
            to.span,
            AlterClash::RenameToExisting {
                column: new.to_string(),
            },
            Some(existing),
        ));
    }
    dependency(t, old, false, &[]).map(|by| {
        a.clash(
            from.span,
            AlterClash::Referenced {
                column: old.to_string(),
                by,
            },
            Some(column),
        )
    })
}

impl Session<'_> {
    /// The query columns of a materialized table, for [`Altered::query`].
    pub(super) fn materialized_query(&self, t: &TableDef) -> Option<Option<Vec<OutputColumn>>> {
        t.materialized
            .as_ref()
            .map(|m| self.query_columns(&m.query, m.query_origin.file))
    }
}

/// A regular table's ADD of a column declared PRIMARY KEY when the table has a key (Flink's
/// `AlterSchemaConverter`: "The current table has already defined the primary key
/// constraint").
fn column_primary_key(a: &Altered<'_>, c: &ast::ColumnDef, modify: bool) -> Option<Problem> {
    let key = c
        .constraint
        .as_ref()
        .filter(|k| k.kind == ConstraintKind::PrimaryKey)?;
    table_primary_key(a, key.span, modify)
}

/// A regular table's ADD PRIMARY KEY when it has one, or MODIFY PRIMARY KEY when it has none.
/// (A materialized table's key has checks of its own, against its query.)
fn table_primary_key(a: &Altered<'_>, span: Span, modify: bool) -> Option<Problem> {
    if a.materialized() {
        return None;
    }
    match (&a.table.primary_key, modify) {
        (Some(pk), false) => Some(a.schema(
            span,
            SchemaIssue::PrimaryKeyExists {
                columns: pk.columns.iter().map(|c| c.to_string()).collect(),
            },
        )),
        (None, true) => Some(a.schema(span, SchemaIssue::NoPrimaryKey { modify: true })),
        _ => None,
    }
}

/// The schema problems of a CREATE MATERIALIZED TABLE's declared schema against its query: the
/// column list, PRIMARY KEY nullability, watermark and partition columns (flink-spec §4.2).
pub(super) fn create_schema(
    mt: &CreateMaterializedTable,
    query: &[OutputColumn],
    merged: &TableDef,
    table: &QualifiedName,
    file: FileId,
) -> Vec<Problem> {
    let _ = file;
    let problem = |span: Span, issue: SchemaIssue| Problem::InvalidSchema {
        span,
        issue,
        alter: false,
        table: table.clone(),
        related: None,
    };
    let mut out = Vec::new();
    let declared: Vec<&ast::ColumnDef> = mt
        .elements
        .as_ref()
        .map(|e| e.columns().collect())
        .unwrap_or_default();
    let names_only = !declared.is_empty()
        && declared
            .iter()
            .all(|c| matches!(c.kind, ast::ColumnKind::NameOnly));
    if names_only {
        if declared.len() != query.len() {
            let span = mt.elements.as_ref().map_or(mt.name.span, |e| e.span);
            out.push(problem(span, SchemaIssue::ColumnCount));
            return out;
        }
        for c in &declared {
            if !query.iter().any(|q| q.name == c.name.as_str()) {
                out.push(problem(
                    c.name.span,
                    SchemaIssue::NotInSource {
                        column: c.name.as_str().to_string(),
                    },
                ));
                return out;
            }
        }
    } else {
        for (i, c) in declared.iter().enumerate() {
            let ast::ColumnKind::Physical { data_type } = &c.kind else {
                continue;
            };
            let Some(q) = query.iter().find(|q| q.name == c.name.as_str()) else {
                out.push(problem(
                    c.name.span,
                    SchemaIssue::TypedNotInQuery {
                        column: c.name.as_str().to_string(),
                    },
                ));
                return out;
            };
            let target = Type::from_ast(data_type);
            if let Some(source) = &q.data_type {
                if !source.widens_to(&target) {
                    out.push(problem(
                        c.span,
                        SchemaIssue::IncompatibleType {
                            column: c.name.as_str().to_string(),
                            position: i + 1,
                            source: source.summary(),
                            target: target.summary(),
                        },
                    ));
                    return out;
                }
            }
        }
    }
    let query_names: Vec<String> = query.iter().map(|q| q.name.to_string()).collect();
    if let Some(p) = &mt.partitioned_by {
        for k in &p.names {
            if merged.column(k.as_str()).is_none() {
                out.push(problem(
                    k.span,
                    SchemaIssue::PartitionUnknown {
                        column: k.as_str().to_string(),
                        available: query_names.clone(),
                    },
                ));
                return out;
            }
        }
    }
    if let Some(elements) = &mt.elements {
        for item in &elements.items {
            match item {
                TableElement::Constraint(k) if k.kind == ConstraintKind::PrimaryKey => {
                    for col in &k.columns.names {
                        // A typed DDL column in the key is NOT NULL by declaration.
                        let typed = declared.iter().any(|d| {
                            d.name.as_str() == col.as_str()
                                && matches!(d.kind, ast::ColumnKind::Physical { .. })
                        });
                        let nullable = query
                            .iter()
                            .find(|q| q.name == col.as_str())
                            .and_then(|q| q.data_type.as_ref())
                            .is_some_and(|t| t.nullable);
                        if nullable && !typed {
                            let columns: Vec<_> =
                                k.columns.names.iter().map(|n| n.text.clone()).collect();
                            out.push(problem(
                                col.span,
                                SchemaIssue::NullablePrimaryKey {
                                    constraint: k.name.as_ref().map_or_else(
                                        || super::table::generated_pk_name(&columns).to_string(),
                                        |n| n.as_str().to_string(),
                                    ),
                                    column: col.as_str().to_string(),
                                },
                            ));
                            return out;
                        }
                    }
                }
                TableElement::Watermark(w) if w.column.parts.len() == 1 => {
                    let name = w.column.last().as_str();
                    if merged.column(name).is_none() {
                        out.push(problem(
                            w.column.span,
                            SchemaIssue::WatermarkUnknown {
                                column: name.to_string(),
                                available: merged
                                    .columns
                                    .iter()
                                    .map(|c| c.name.as_str().to_string())
                                    .collect(),
                                alter: false,
                            },
                        ));
                        return out;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

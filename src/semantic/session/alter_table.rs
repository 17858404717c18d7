//! `ALTER TABLE`: the checks of a schema change or a rename (the rules of Flink's
//! `AlterSchemaConverter` are in [`crate::semantic::alter`]) and the change applied to the
//! table's definition.

use super::Session;
use crate::files::FileEntry;
use crate::semantic::catalog::*;
use crate::semantic::names::QualifiedName;
use crate::semantic::problems::{KeyReason, Problem, SchemaIssue};
use crate::semantic::table;
use crate::source::{FileId, Span};
use crate::syntax::ast::*;
use compact_str::CompactString;
use std::collections::HashMap;
use std::sync::Arc;

impl Session<'_> {
    /// `ALTER TABLE`: an unknown table when the session cannot see it (unless `IF EXISTS`),
    /// the wrong kind of table on a materialized table; the schema change or column rename is
    /// checked (a rejected one leaves the table as it was), and a renamed column only changing
    /// case, shadowing a system column or in the reserved prefix, then the changed table is
    /// registered (under its new name for `RENAME TO`).
    pub(super) fn alter_table(&mut self, file: &FileEntry, statement: &Statement, at: &AlterTable) {
        // A constraint Flink rejects whatever the table (even one the session cannot see).
        if let AlterTableAction::Schema(change) = &at.action {
            if let Some(p) = crate::semantic::alter::constraint_form(change) {
                if !statement.has_error {
                    self.report(file.id, statement.span, p);
                }
                return;
            }
        }
        let Some((name, object)) =
            self.target(file, statement, &at.name, "ALTER TABLE", at.if_exists)
        else {
            return;
        };
        // Flink alters permanent tables only ("... doesn't exist or is a temporary table"),
        // and IF EXISTS then does nothing.
        if object.temporary && matches!(object.def, ObjectDef::Table(_)) {
            if !at.if_exists && !statement.has_error {
                self.report(
                    file.id,
                    statement.span,
                    Problem::AlterTemporary {
                        span: at.name.span,
                        name,
                        origin: object.name_origin,
                        view: false,
                    },
                );
            }
            return;
        }
        let ObjectDef::Table(t) = &object.def else {
            if matches!(object.def, ObjectDef::Materialized(_))
                && !statement.has_error
                && !object.ambiguous
            {
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
        let origin = |span: Span| Origin {
            file: file.id,
            span,
        };
        let altered = crate::semantic::alter::Altered {
            table: t,
            name: &name,
            query: None,
            system_watermark: !self.system.implicit.is_empty(),
        };
        // The columns of a definition that scripts define differently are not knowable:
        // nothing to check them against.
        let problem = match &at.action {
            _ if object.ambiguous => None,
            AlterTableAction::Schema(change) => {
                crate::semantic::alter::schema_change(&altered, change)
            }
            AlterTableAction::RenameColumn { from, to } => {
                crate::semantic::alter::rename_column(&altered, from, to)
            }
            // Flink looks the table up first, then refuses an empty key list.
            AlterTableAction::ResetOptions(keys) if keys.keys.is_empty() => {
                Some(Problem::EmptyTableReset { span: keys.span })
            }
            _ => None,
        };
        if let Some(p) = problem {
            // Flink rejects the statement: the table stays as it was. A table whose definition
            // had a syntax error (a CREATE or an earlier ALTER Flink rejected) may not have the
            // columns the session gave it: nothing is said about it.
            if !statement.has_error && !object.incomplete {
                self.report(file.id, statement.span, p);
            }
            return;
        }
        // Flink resolves the altered schema: the computed columns, watermark and distribution
        // the statement declares are checked as a CREATE's are.
        if let AlterTableAction::Schema(change) = &at.action {
            if !statement.has_error
                && !object.incomplete
                && !object.ambiguous
                && !file.source.slice(statement.span).contains('"')
            {
                if let Some(p) = self.altered_schema_problem(t, &name, change, file.id) {
                    self.report(file.id, statement.span, p);
                    return;
                }
            }
        }
        if matches!(
            at.action,
            AlterTableAction::AddPartitions(_)
                | AlterTableAction::DropPartitions(_)
                | AlterTableAction::Compact
        ) {
            return;
        }
        let new_name = match &at.action {
            AlterTableAction::RenameTo(to) => self.resolve(to).unwrap_or_else(|| name.clone()),
            _ => name.clone(),
        };
        // RENAME TO a name the catalog has: Flink renames nothing.
        if let (AlterTableAction::RenameTo(to), Some(existing)) =
            (&at.action, self.catalog.get(&new_name))
        {
            if new_name != name {
                let existing = existing.clone();
                if !statement.has_error {
                    self.report(
                        file.id,
                        statement.span,
                        Problem::AlreadyExists {
                            span: to.span,
                            name: new_name,
                            existing,
                            creating: "table",
                        },
                    );
                }
                return;
            }
        }
        // The table is changed in place when nothing else holds its definition (no recorded
        // version, LIKE child or persistent catalog): out of the catalog, it is the only
        // holder. Else it is copied.
        self.catalog.remove(&name, object.temporary);
        let mut object = Arc::unwrap_or_clone(object);
        let ObjectDef::Table(t) = &mut object.def else {
            return;
        };
        match &at.action {
            AlterTableAction::RenameTo(_) => {}
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
            AlterTableAction::Schema(change) => apply_schema_change(t, change, file.id),
            AlterTableAction::AddPartitions(_)
            | AlterTableAction::DropPartitions(_)
            | AlterTableAction::Compact => {}
        }
        let renamed = (new_name != name).then_some(name);
        let temporary = object.temporary;
        self.register(CatalogObject {
            name: new_name,
            statement: origin(statement.span),
            incomplete: object.incomplete || statement.has_error,
            ..object
        });
        if let Some(old) = renamed {
            self.note_dropped(old, temporary);
        }
    }
}

impl Session<'_> {
    /// The first problem of the schema `change` makes to `t` that Flink finds when it resolves
    /// the altered table: a computed column or watermark strategy the change declares
    /// ([`Session::element_expression_problem`]), or its distribution
    /// ([`table::distribution_problem`]).
    fn altered_schema_problem(
        &self,
        t: &TableDef,
        name: &QualifiedName,
        change: &SchemaChange,
        file: FileId,
    ) -> Option<Problem> {
        let mut altered = t.clone();
        apply_schema_change(&mut altered, change, file);
        match change {
            SchemaChange::Add(items) | SchemaChange::Modify(items) => self
                .element_expression_problem(items, &altered)
                .or_else(|| key_problem(items, &altered, name)),
            SchemaChange::AddDistribution(d) | SchemaChange::ModifyDistribution(d) => {
                let columns = &altered.columns;
                table::distribution_problem(d, columns, |k| {
                    columns.iter().position(|c| c.name == k)
                })
            }
            _ => None,
        }
    }
}

/// The primary key an ALTER TABLE ADD / MODIFY declares (a table constraint or a column's),
/// checked on the altered table: each column listed once, existing and physical (Flink's
/// "Invalid primary key 'PK_c'. Column 'c' is not a physical column.").
fn key_problem(
    items: &[TableElement],
    altered: &TableDef,
    table: &QualifiedName,
) -> Option<Problem> {
    let (span, given, columns): (Span, Option<&Ident>, Vec<&Ident>) =
        items.iter().find_map(|item| match item {
            TableElement::Constraint(k) if k.kind == ConstraintKind::PrimaryKey => {
                Some((k.span, k.name.as_ref(), k.columns.names.iter().collect()))
            }
            TableElement::Column(c) if c.parents.is_empty() => c
                .constraint
                .as_ref()
                .filter(|k| k.kind == ConstraintKind::PrimaryKey)
                .map(|k| (k.span, k.name.as_ref(), vec![&c.name])),
            _ => None,
        })?;
    let names: Vec<CompactString> = columns.iter().map(|c| c.text.clone()).collect();
    let constraint = given.map_or_else(|| table::generated_pk_name(&names), |n| n.text.clone());
    let problem = |column: &Ident, reason: KeyReason| Problem::TableSchemaChange {
        span: if reason == KeyReason::Duplicate {
            span
        } else {
            column.span
        },
        issue: SchemaIssue::InvalidKey {
            constraint: constraint.to_string(),
            column: column.text.to_string(),
            reason,
        },
        table: table.clone(),
    };
    if let Some(twice) = columns
        .iter()
        .enumerate()
        .find(|(i, c)| columns[..*i].iter().any(|d| d.text == c.text))
        .map(|(_, c)| *c)
    {
        return Some(problem(twice, KeyReason::Duplicate));
    }
    for c in &columns {
        match altered.columns.iter().find(|k| k.name == c.text) {
            None => return Some(problem(c, KeyReason::Missing)),
            Some(k) if !k.kind.is_physical() => return Some(problem(c, KeyReason::NotPhysical)),
            Some(_) => {}
        }
    }
    None
}

/// Applies ALTER ... ADD / MODIFY / DROP to a table definition (no checks: rules report the
/// problems from the definition before the change).
pub fn apply_schema_change(t: &mut TableDef, change: &SchemaChange, file: FileId) {
    let origin = |span: Span| Origin { file, span };
    match change {
        SchemaChange::Add(items) | SchemaChange::Modify(items) => {
            let modify = matches!(change, SchemaChange::Modify(_));
            // Each column's position, by name (the first of a name), rebuilt only after a
            // column moves: an ALTER of many columns stays linear.
            let index_of = |columns: &[Column]| {
                let mut index: HashMap<CompactString, usize> =
                    HashMap::with_capacity(columns.len());
                for (i, k) in columns.iter().enumerate() {
                    index.entry(k.name.clone()).or_insert(i);
                }
                index
            };
            let mut index = index_of(&t.columns);
            for item in items {
                match item {
                    TableElement::Column(c) if c.parents.is_empty() => {
                        let column = crate::semantic::table::column_from_ast(c, file);
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
                        let existing = index.get(&column.name).copied();
                        if existing.is_some() && !modify {
                            continue;
                        }
                        if let (Some(i), None) = (existing, c.position.as_deref()) {
                            // Modified in place.
                            t.columns[i] = column;
                            continue;
                        }
                        if let Some(i) = existing {
                            t.columns.remove(i);
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
                        if at == t.columns.len() && existing.is_none() {
                            index.entry(column.name.clone()).or_insert(at);
                            t.columns.push(column);
                        } else {
                            t.columns.insert(at, column);
                            index = index_of(&t.columns);
                        }
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

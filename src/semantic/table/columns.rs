//! Steps A-C of the merge (flink-spec §3.5): the parent's columns, watermark and primary key
//! seed the table, then the derived physical columns join it, then the derived computed and
//! metadata columns. Flink's `MergeTableLikeUtil.SchemaBuilder` does this in its constructor
//! (`populateColumnsFromSourceTable`, `populateWatermarksFromSourceTable`,
//! `populatePrimaryKeyFromSourceTable`) and in `appendDerivedColumns`; it runs for a plain
//! CREATE TABLE too, with an empty parent.

use super::{column_from_ast, derived_columns, kind_of, Merge};
use crate::semantic::catalog::{Column, ColumnKind};
use crate::semantic::exprs;
use crate::semantic::problems::{Kind, Problem, Unresolvable};
use crate::syntax::ast::{self, ColumnDef, FeatureOption, MergingStrategy};
use compact_str::CompactString;
use std::collections::HashSet;

impl Merge<'_> {
    /// Step A: the parent's columns, watermark and primary key, as the strategies keep them
    /// (Flink's `populateColumnsFromSourceTable`, `populateWatermarksFromSourceTable` and
    /// `populatePrimaryKeyFromSourceTable`). Physical columns are always kept; computed ones
    /// unless EXCLUDING GENERATED, metadata ones unless EXCLUDING METADATA, the watermark
    /// unless EXCLUDING WATERMARKS; the primary key only under INCLUDING CONSTRAINTS.
    pub(super) fn seed_from_parent(&mut self) {
        let s = &self.strategies;
        let p = self.parent;
        let mut columns: Vec<Column> =
            Vec::with_capacity(p.columns.len() + derived_columns(self.declared).count());
        for c in &p.columns {
            let keep = match c.kind {
                ColumnKind::Physical => true,
                ColumnKind::Computed(_) => {
                    s.get(FeatureOption::Generated) != MergingStrategy::Excluding
                }
                ColumnKind::Metadata { .. } => {
                    s.get(FeatureOption::Metadata) != MergingStrategy::Excluding
                }
            };
            if keep {
                let mut c = c.clone();
                c.inherited_from = c.inherited_from.or_else(|| self.inherited_name.clone());
                columns.push(c);
            }
        }
        self.inherited_count = columns.len();
        self.positions = super::Positions::of(&columns);
        self.columns = columns;
        self.watermark = if s.get(FeatureOption::Watermarks) != MergingStrategy::Excluding {
            p.watermark.clone().map(|mut w| {
                w.inherited_from = w.inherited_from.or_else(|| self.inherited_name.clone());
                w
            })
        } else {
            None
        };
        self.primary_key = if s.get(FeatureOption::Constraints) == MergingStrategy::Including {
            p.primary_key.clone()
        } else {
            None
        };
        self.inherited_pk = self.primary_key.is_some();
    }

    /// Step B: the derived physical columns, before the others (Flink's
    /// `collectPhysicalFieldsTypes`, the first pass of `appendDerivedColumns`). A name already
    /// taken is a clash with the parent's column ([`Problem::LikeColumnClash`], whatever the
    /// strategies) or a duplicate ([`Problem::DuplicateColumn`]); the column is not added.
    pub(super) fn derived_physical_columns(&mut self) {
        let declared = self.declared;
        for d in derived_columns(declared).filter(|c| {
            matches!(
                c.kind,
                ast::ColumnKind::Physical { .. } | ast::ColumnKind::NameOnly
            )
        }) {
            let name = d.name.as_str();
            if let Some(i) = self.position(name) {
                self.clash(d, i, Kind::Physical);
                continue;
            }
            self.push(column_from_ast(d, declared.file));
        }
    }

    /// Step C: the derived computed and metadata columns, in declaration order (the second
    /// pass of Flink's `appendDerivedColumns`). A computed column replaces a computed column of
    /// the same name only under OVERWRITING GENERATED, a metadata column a metadata one only
    /// under OVERWRITING METADATA, keeping its slot; any other name already taken is a clash
    /// with the parent's column ([`Problem::LikeColumnClash`]) or a duplicate
    /// ([`Problem::DuplicateColumn`]). A derived computed column must not read an inherited
    /// computed or metadata column ([`Problem::InheritedNotResolvable`]).
    pub(super) fn derived_computed_and_metadata_columns(&mut self) {
        let declared = self.declared;
        let mut declared_metadata: Vec<CompactString> = Vec::new();
        for d in derived_columns(declared) {
            let derived_kind = match d.kind {
                ast::ColumnKind::Computed { .. } => Kind::Computed,
                ast::ColumnKind::Metadata { .. } => Kind::Metadata,
                _ => continue,
            };
            let name = d.name.as_str();
            let strategy = self.strategies.get(if derived_kind == Kind::Computed {
                FeatureOption::Generated
            } else {
                FeatureOption::Metadata
            });
            if let ast::ColumnKind::Computed { expr } = &d.kind {
                check_computed_references(
                    expr,
                    name,
                    &self.columns,
                    &self.positions,
                    self.inherited_count,
                    &declared_metadata,
                    &mut self.problems,
                );
            }
            let position = self.position(name);
            match position {
                // A physical column (inherited or declared) is never overwritten; step C adds no
                // physical column, so the kind at `i` is the one step B left.
                Some(i) if self.columns[i].kind.is_physical() => self.clash(d, i, derived_kind),
                Some(i) if kind_of(&self.columns[i].kind) != derived_kind => {
                    self.clash(d, i, derived_kind)
                }
                Some(i) if strategy != MergingStrategy::Overwriting => {
                    self.clash(d, i, derived_kind)
                }
                Some(i) => self.columns[i] = column_from_ast(d, declared.file),
                None => self.push(column_from_ast(d, declared.file)),
            }
            if derived_kind == Kind::Metadata {
                declared_metadata.push(d.name.text.clone());
            }
        }
    }

    /// The end of step C: the derived columns in declaration order, and the inherited computed
    /// columns that no longer resolve once the like options removed columns
    /// ([`Problem::InheritedNotResolvable`]).
    pub(super) fn order_columns_and_check_inherited(&mut self) {
        let inherited_count = self.inherited_count;
        // Flink validates physical columns first but keeps declaration order: the derived
        // columns follow the inherited ones in the order they were written.
        self.columns[inherited_count..].sort_by_key(|c| c.origin.span.start);
        self.reindex();
        // Inherited computed columns must still resolve once the like options removed columns.
        let mut parent_names: Option<HashSet<&str>> = None;
        for c in self.columns[..inherited_count].iter() {
            if let ColumnKind::Computed(expr) = &c.kind {
                for (name, _) in exprs::column_references(expr) {
                    if self.positions.get(&self.columns, name).is_none()
                        && parent_names
                            .get_or_insert_with(|| {
                                self.parent
                                    .columns
                                    .iter()
                                    .map(|c| c.name.as_str())
                                    .collect()
                            })
                            .contains(name)
                    {
                        self.problems.push(Problem::InheritedNotResolvable {
                            span: self.declared.like.map_or(c.origin.span, |l| l.span),
                            name: name.to_string(),
                            what: Unresolvable::ExcludedReference {
                                column: c.name.to_string(),
                            },
                            inherited: Some(c.origin),
                        });
                    }
                }
            }
        }
    }

    /// Whether the column at `i` came from the parent.
    fn is_inherited(&self, i: usize) -> bool {
        i < self.inherited_count && self.columns[i].inherited_from.is_some()
    }

    /// The derived column `d` (of `derived_kind`) names the column at `i`: a clash with the
    /// parent's column ([`Problem::LikeColumnClash`], with the derived column's kind) or a
    /// duplicate ([`Problem::DuplicateColumn`]).
    fn clash(&mut self, d: &ColumnDef, i: usize, derived_kind: Kind) {
        let name = d.name.as_str();
        let existing = &self.columns[i];
        let problem = if self.is_inherited(i) {
            Problem::LikeColumnClash {
                span: d.name.span,
                name: name.to_string(),
                derived_kind,
                inherited_kind: kind_of(&existing.kind),
                inherited: existing.origin,
                parent_name: self.parent_name_or_empty(),
            }
        } else {
            Problem::DuplicateColumn {
                span: d.name.span,
                name: name.to_string(),
                first: existing.origin,
                first_kind: kind_of(&existing.kind),
                second_kind: derived_kind,
            }
        };
        self.problems.push(problem);
    }
}

/// A derived computed column referring to an inherited computed or metadata column
/// ([`Problem::InheritedNotResolvable`]).
fn check_computed_references(
    expr: &ast::Expr,
    column: &str,
    columns: &[Column],
    positions: &super::Positions,
    inherited_count: usize,
    _declared_metadata: &[CompactString],
    problems: &mut Vec<Problem>,
) {
    for (name, span) in exprs::column_references(expr) {
        let inherited = positions
            .get(columns, name)
            .filter(|&i| i < inherited_count)
            .map(|i| &columns[i]);
        if let Some(c) = inherited {
            if !c.kind.is_physical() && c.inherited_from.is_some() {
                problems.push(Problem::InheritedNotResolvable {
                    span,
                    name: name.to_string(),
                    what: Unresolvable::ComputedReference {
                        column: column.to_string(),
                    },
                    inherited: Some(c.origin),
                });
            }
        }
    }
}

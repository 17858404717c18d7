//! Steps D-E of the merge (flink-spec §3.5): the derived watermark and the derived primary key,
//! checked against the merged columns. Flink's `MergeTableLikeUtil.SchemaBuilder` does this in
//! `appendDerivedWatermarks` and `appendDerivedPrimaryKey`, after `appendDerivedColumns`.

use super::statement::primary_key_of;
use super::Merge;
use crate::semantic::catalog::{Column, Origin, PrimaryKeyDef, WatermarkDef};
use crate::semantic::exprs;
use crate::semantic::problems::{PrimaryKeyIssue, Problem, Unresolvable, WatermarkIssue};
use crate::syntax::ast::{FeatureOption, MergingStrategy};
use compact_str::CompactString;
use std::collections::HashSet;

impl Merge<'_> {
    /// Step D: the derived watermark (Flink's `appendDerivedWatermarks`). One on the inherited
    /// watermark's column is a conflict unless OVERWRITING WATERMARKS
    /// ([`Problem::WatermarkConflict`]), one on another column a second watermark
    /// ([`Problem::MultipleWatermarks`]); its column must be one a derived expression may read
    /// (else an invalid watermark, or an inherited column that does not resolve for an
    /// inherited computed or metadata column). The derived watermark replaces the inherited
    /// one.
    pub(super) fn derived_watermark(&mut self) {
        let declared = self.declared;
        let Some(w) = declared.elements.and_then(|e| e.watermarks().next()) else {
            return;
        };
        let file = declared.file;
        let inherited_count = self.inherited_count;
        let column: Vec<CompactString> = w.column.parts.iter().map(|i| i.text.clone()).collect();
        let origin = Origin { file, span: w.span };
        if let Some(pw) = &self.watermark {
            if pw.column == column
                && self.strategies.get(FeatureOption::Watermarks) != MergingStrategy::Overwriting
            {
                self.problems.push(Problem::WatermarkConflict {
                    span: w.span,
                    column: column.join("."),
                    parent: pw.origin,
                });
            }
        }
        let columns = &self.columns;
        let rowtime = column[0].as_str();
        let resolvable = columns.iter().enumerate().any(|(i, c)| {
            c.name == rowtime
                && (i >= inherited_count || c.inherited_from.is_none() || c.kind.is_physical())
        }) || (columns.iter().all(|c| c.name != rowtime)
            && declared.system.iter().any(|s| s.name == rowtime));
        if !resolvable && !self.query_unknown {
            match columns.iter().find(|c| c.name == rowtime) {
                Some(inherited) => self.problems.push(Problem::InheritedNotResolvable {
                    span: w.column.span,
                    name: rowtime.to_string(),
                    what: Unresolvable::WatermarkColumn {
                        available: resolvable_fields(columns, inherited_count),
                    },
                    inherited: Some(inherited.origin),
                }),
                None => self.problems.push(Problem::InvalidWatermark {
                    span: w.column.span,
                    column: column.join("."),
                    issue: WatermarkIssue::UnknownColumn {
                        available: resolvable_fields(columns, inherited_count),
                        inherited: false,
                    },
                    inherited: None,
                }),
            }
        }
        // The strategy reads what a derived computed column reads, and the derived table's
        // own computed columns ("Unknown identifier 'm'" for an inherited metadata column).
        if resolvable && !self.query_unknown {
            let inherited =
                exprs::column_references(&w.expr)
                    .into_iter()
                    .find_map(|(name, span)| {
                        let i = self.positions.get(columns, name)?;
                        let c = &columns[i];
                        (i < inherited_count && !c.kind.is_physical() && c.inherited_from.is_some())
                            .then(|| (name.to_string(), span, c.origin))
                    });
            if let Some((name, span, origin)) = inherited {
                self.problems.push(Problem::InheritedNotResolvable {
                    span,
                    name,
                    what: Unresolvable::WatermarkReference {
                        column: column.join("."),
                    },
                    inherited: Some(origin),
                });
            }
        }
        let new = WatermarkDef {
            column,
            expr: w.expr.clone(),
            origin,
            inherited_from: None,
        };
        match &self.watermark {
            Some(pw) if pw.column != new.column => {
                self.problems.push(Problem::MultipleWatermarks {
                    span: w.span,
                    parent: pw.origin,
                });
            }
            _ => {}
        }
        self.watermark = Some(new);
    }

    /// Step E: the derived primary key (Flink's `appendDerivedPrimaryKey`). One beside an
    /// inherited key (INCLUDING CONSTRAINTS) is a conflict ([`Problem::PrimaryKeyConflict`]);
    /// its columns must exist and be physical (else [`Problem::InvalidPrimaryKey`]), and be
    /// NOT NULL where Flink does not patch them: a column only the CTAS query types (an invalid
    /// primary key) or an inherited one (an inherited column that does not resolve). Flink
    /// patches NOT NULL onto the key's columns declared in this statement.
    pub(super) fn derived_primary_key(&mut self) {
        let Some((pk, pk_span)) = primary_key_of(self.declared.elements) else {
            return;
        };
        if self.inherited_pk {
            if let Some(ppk) = &self.parent.primary_key {
                self.problems.push(Problem::PrimaryKeyConflict {
                    span: pk_span,
                    parent: ppk.origin,
                });
            }
        }
        let from_query: HashSet<&str> = self.from_query.iter().map(|c| c.as_str()).collect();
        for ident in pk.columns {
            let (col, col_span) = (&ident.text, &ident.span);
            match self.column(col) {
                None if self.query_unknown => {}
                None => self.problems.push(Problem::InvalidPrimaryKey {
                    span: *col_span,
                    column: col.to_string(),
                    issue: PrimaryKeyIssue::UnknownColumn,
                }),
                Some(c) if !c.kind.is_physical() => {
                    self.problems.push(Problem::InvalidPrimaryKey {
                        span: *col_span,
                        column: col.to_string(),
                        issue: PrimaryKeyIssue::NotPhysical,
                    })
                }
                Some(c) => {
                    // Flink patches NOT NULL only on columns declared in this statement; a
                    // column only the CTAS query produces keeps the query's nullability.
                    let nullable = c.data_type.as_ref().is_some_and(|t| t.nullable);
                    if from_query.contains(col.as_str()) && nullable {
                        self.problems.push(Problem::InvalidPrimaryKey {
                            span: *col_span,
                            column: col.to_string(),
                            issue: PrimaryKeyIssue::NullableQueryColumn {
                                constraint: pk.name.to_string(),
                            },
                        });
                    } else if c.inherited_from.is_some() && nullable {
                        self.problems.push(Problem::InheritedNotResolvable {
                            span: *col_span,
                            name: col.to_string(),
                            what: Unresolvable::NullablePrimaryKey {
                                constraint: pk.name.to_string(),
                            },
                            inherited: Some(c.origin),
                        });
                    }
                }
            }
        }
        let names: Vec<CompactString> = pk.columns.iter().map(|c| c.text.clone()).collect();
        let keys: HashSet<&str> = names.iter().map(|n| n.as_str()).collect();
        for c in self.columns.iter_mut() {
            if c.inherited_from.is_none()
                && keys.contains(c.name.as_str())
                && !from_query.contains(c.name.as_str())
            {
                if let Some(t) = &mut c.data_type {
                    t.nullable = false;
                }
            }
        }
        self.primary_key = Some(PrimaryKeyDef {
            name: pk.name.clone(),
            columns: names,
            origin: Origin {
                file: self.declared.file,
                span: pk_span,
            },
        });
    }
}

/// Fields a derived watermark or computed column may refer to, as Flink lists them:
/// parent physical columns and the derived columns.
fn resolvable_fields(columns: &[Column], inherited_count: usize) -> Vec<String> {
    columns
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            *i >= inherited_count || c.inherited_from.is_none() || c.kind.is_physical()
        })
        .map(|(_, c)| c.name.to_string())
        .collect()
}

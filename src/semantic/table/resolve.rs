//! Step I of the merge (flink-spec §3.5): the resolution of the merged watermark, inherited or
//! derived. Flink resolves the merged schema when it creates the table (`DefaultSchemaResolver`,
//! called by `CatalogManager.resolveCatalogTable`): the watermark's column must exist, a nested
//! path must lead through ROW fields, and the column must be a rowtime-capable timestamp.

use super::{system_fallback, Merge};
use crate::semantic::catalog::{Column, ColumnKind, Origin, WatermarkDef};
use crate::semantic::exprs;
use crate::semantic::problems::{Problem, WatermarkIssue};
use crate::semantic::system::SystemColumn;
use crate::semantic::types;
use crate::source::Span;
use crate::syntax::ast;

impl Merge<'_> {
    /// Step I: the merged watermark resolves (else [`Problem::InvalidWatermark`]; see
    /// [`check_rowtime`]).
    pub(super) fn resolve_watermark(&mut self) {
        let declared = self.declared;
        let derived_watermark = declared.elements.and_then(|e| e.watermarks().next());
        if let Some(w) = &self.watermark {
            check_rowtime(
                w,
                &self.columns,
                &self.positions,
                declared.system,
                derived_watermark.map(|d| &d.column),
                declared.like.map(|l| l.span),
                &mut self.problems,
            );
        }
    }
}

/// Step I for the watermark: its column exists and is a rowtime-capable timestamp.
fn check_rowtime(
    w: &WatermarkDef,
    columns: &[Column],
    positions: &super::Positions,
    system: &[SystemColumn],
    derived: Option<&ast::ObjectName>,
    like_span: Option<Span>,
    problems: &mut Vec<Problem>,
) {
    let name = w.column.join(".");
    // A derived watermark is reported at its column; an inherited one at the LIKE clause.
    let derived = derived.filter(|_| w.inherited_from.is_none());
    let span = derived
        .map(|d| d.span)
        .or(like_span)
        .unwrap_or(w.origin.span);
    let inherited = w.inherited_from.as_ref().map(|_| w.origin);
    let implicit = system_column(columns, system, &w.column[0], w.origin);
    let Some(c) = columns
        .iter()
        .find(|c| c.name == w.column[0])
        .or(implicit.as_ref())
    else {
        if w.inherited_from.is_some() {
            problems.push(Problem::InvalidWatermark {
                span,
                column: name,
                issue: WatermarkIssue::UnknownColumn {
                    available: columns.iter().map(|c| c.name.to_string()).collect(),
                    inherited: true,
                },
                inherited,
            });
        }
        return;
    };
    if w.column.len() > 1 {
        // Nested rowtime: follow the path through ROW types.
        let mut current = c.data_type.clone();
        let mut missing = None;
        let mut span = span;
        for (i, field) in w.column.iter().enumerate().skip(1) {
            match current.as_ref().map(|t| &t.kind) {
                Some(types::Kind::Row(fields)) => {
                    match fields.iter().find(|(n, _)| n == field.as_str()) {
                        Some((_, t)) => current = Some(t.clone()),
                        None => {
                            missing = Some((
                                field.to_string(),
                                current.as_ref().map(|t| t.summary()).unwrap_or_default(),
                            ));
                            // Flink points at the missing field.
                            if let Some(part) = derived.and_then(|d| d.parts.get(i)) {
                                span = part.span;
                            }
                            break;
                        }
                    }
                }
                _ => return,
            }
        }
        problems.push(Problem::InvalidWatermark {
            span,
            column: name,
            issue: WatermarkIssue::Nested {
                missing,
                available: columns.iter().map(|c| c.name.to_string()).collect(),
            },
            inherited,
        });
        return;
    }
    let t = match &c.kind {
        ColumnKind::Computed(expr) => {
            if exprs::is_proctime(expr) {
                problems.push(Problem::InvalidWatermark {
                    span,
                    column: name,
                    issue: WatermarkIssue::ProcessingTime,
                    inherited,
                });
                return;
            }
            exprs::infer_type(expr, &|n| {
                system_fallback(positions.get(columns, n).map(|i| &columns[i]), system, n)
            })
        }
        _ => c.data_type.clone(),
    };
    if let Some(t) = t {
        if !t.is_rowtime_capable() {
            problems.push(Problem::InvalidWatermark {
                span,
                column: name,
                issue: WatermarkIssue::WrongType { found: t.summary() },
                inherited,
            });
        }
    }
}

/// The implicit system column `name` as a column of a table with `columns` (read-only
/// `METADATA VIRTUAL`), unless a column of that name shadows it.
fn system_column(
    columns: &[Column],
    system: &[SystemColumn],
    name: &str,
    origin: Origin,
) -> Option<Column> {
    if columns.iter().any(|c| c.name == name) {
        return None;
    }
    let s = system.iter().find(|s| s.name == name)?;
    Some(Column {
        name: s.name.as_str().into(),
        kind: ColumnKind::Metadata {
            key: None,
            is_virtual: true,
        },
        data_type: s.data_type.clone(),
        comment: None,
        origin,
        inherited_from: None,
    })
}

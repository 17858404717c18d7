//! The relations of FROM clauses: tables, views and WITH queries read by name, subqueries,
//! joins (`USING`), `UNNEST`, window TVFs and other table functions, as Calcite registers them
//! in a SELECT's scope.

use super::{rename, similar, Col, Cols, Rel, SelectScope, Walker};
use crate::semantic::query;
use crate::semantic::types::{Kind, Type};
use crate::semantic::validate::NameProblem;
use crate::syntax::ast::*;
use std::rc::Rc;

impl Walker<'_> {
    /// The columns of a table, view or WITH query read by name.
    pub(super) fn named(&self, name: &ObjectName) -> Option<Cols> {
        if name.parts.len() == 1 {
            if let Some((_, cols)) = self
                .ctes
                .iter()
                .rev()
                .find(|(n, _)| n == name.parts[0].as_str())
            {
                return cols.clone();
            }
        }
        let (_, object) = self.catalog.lookup(name)?;
        self.object_columns(object)
    }

    /// The columns of a table or view of the catalog.
    fn object_columns(&self, object: &crate::semantic::catalog::CatalogObject) -> Option<Cols> {
        let cols = query::relation_of(object, self.catalog, true)?;
        Some(Rc::new(
            cols.into_iter()
                .map(|c| Col {
                    name: c.name,
                    ty: c.data_type,
                    hidden: c.hidden,
                })
                .collect(),
        ))
    }

    /// Adds the relations of a FROM item to `scope`, validating subqueries and conditions.
    pub(super) fn from(&mut self, t: &TableRef, scope: &mut SelectScope, outer: &[&SelectScope]) {
        if self.failed() {
            return;
        }
        match t {
            TableRef::Named {
                name, alias, hints, ..
            } => {
                // A WITH query of that name (its columns), else the catalog's object (looked
                // up once).
                let cte: Option<Option<Cols>> = if name.parts.len() == 1 {
                    self.ctes
                        .iter()
                        .rev()
                        .find(|(n, _)| n == name.parts[0].as_str())
                        .map(|(_, cols)| cols.clone())
                } else {
                    None
                };
                let catalog = self.catalog;
                let object = match cte {
                    Some(_) => None,
                    None => catalog.lookup(name),
                };
                if let Some((_, object)) = &object {
                    if let crate::semantic::catalog::ObjectDef::View(v) = &object.def {
                        if let Some((keyword, first)) = v.query.as_deref().and_then(keyword_item) {
                            self.fail(NameProblem::ViewKeywordColumn {
                                span: name.span,
                                view: name.last().as_str().to_string(),
                                keyword,
                                first,
                            });
                            return;
                        }
                    }
                }
                if let Some(hint) = hints.iter().find(|h| h.has("OPTIONS")) {
                    if let Some((q, object)) = &object {
                        if matches!(object.def, crate::semantic::catalog::ObjectDef::View(_))
                            && self.late.is_none()
                        {
                            self.late = Some(NameProblem::ViewOptionsHint {
                                span: hint.span,
                                name: name.last().as_str().to_string(),
                                qualified: q.to_string(),
                            });
                        }
                    }
                }
                if cte.is_none() && self.catalog.dropped(name) {
                    let within = match name.parts.as_slice() {
                        [_] => None,
                        [db, _] => Some(format!(
                            "{}.{}",
                            self.catalog.current_catalog(),
                            db.as_str()
                        )),
                        parts => Some(
                            parts[..parts.len() - 1]
                                .iter()
                                .map(|p| p.as_str())
                                .collect::<Vec<_>>()
                                .join("."),
                        ),
                    };
                    self.fail(NameProblem::DroppedTable {
                        span: name.span,
                        name: name.last().as_str().to_string(),
                        within,
                    });
                    return;
                }
                let cols = match (cte, &object) {
                    (Some(cols), _) => cols,
                    (None, Some((_, object))) => self.object_columns(object),
                    (None, None) => None,
                };
                let cols = match (cols, alias.as_ref().filter(|a| !a.columns.is_empty())) {
                    (Some(c), Some(a)) => Some(rename(&c, &a.columns)),
                    (c, _) => c,
                };
                let span = alias.as_ref().map_or(name.last().span, |a| a.name.span);
                let alias = alias
                    .as_ref()
                    .map(|a| a.name.text.clone())
                    .unwrap_or_else(|| name.last().text.clone());
                let mut rel = Rel::new(Some(alias), cols, span);
                rel.table = object.map(|(q, _)| q);
                scope.rels.push(rel);
            }
            TableRef::Subquery {
                lateral,
                query,
                alias,
                ..
            } => {
                let cols = if *lateral {
                    let mut chain: Vec<&SelectScope> = outer.to_vec();
                    chain.push(scope);
                    self.query(query, &chain)
                } else {
                    self.query(query, outer)
                };
                let cols = match (cols, alias.as_ref().filter(|a| !a.columns.is_empty())) {
                    (Some(c), Some(a)) if c.len() != a.columns.len() => {
                        self.fail(NameProblem::AliasListDegree {
                            span: a.span,
                            columns: c.iter().map(|c| c.name.to_string()).collect(),
                            aliases: a.columns.len(),
                        });
                        None
                    }
                    (Some(c), Some(a)) => Some(rename(&c, &a.columns)),
                    (c, _) => c,
                };
                scope.rels.push(Rel::new(
                    alias.as_ref().map(|a| a.name.text.clone()),
                    cols,
                    alias.as_ref().map_or(t.span(), |a| a.name.span),
                ));
            }
            TableRef::Function { call, alias, .. } => {
                if let Some(p) = partitioned_row_table(call) {
                    self.fail(p);
                    return;
                }
                let cols = self.window_tvf(call);
                let cols = match (cols, alias.as_ref().filter(|a| !a.columns.is_empty())) {
                    (Some(c), Some(a)) => Some(rename(&c, &a.columns)),
                    (c, _) => c,
                };
                scope.rels.push(Rel::new(
                    alias.as_ref().map(|a| a.name.text.clone()),
                    cols,
                    alias.as_ref().map_or(t.span(), |a| a.name.span),
                ));
            }
            TableRef::Unnest { exprs, alias, .. } => {
                // The collections read the relations to the left.
                let mut chain: Vec<&SelectScope> = outer.to_vec();
                let here = std::mem::take(scope);
                chain.push(&here);
                let empty = SelectScope::default();
                for e in exprs {
                    self.expr(e, &empty, &chain);
                }
                *scope = here;
                // Named by the alias: the names are known, the types are not.
                let cols = alias.as_ref().filter(|a| !a.columns.is_empty()).map(|a| {
                    Rc::new(
                        a.columns
                            .iter()
                            .map(|n| Col {
                                name: n.text.clone(),
                                ty: None,
                                hidden: false,
                            })
                            .collect(),
                    )
                });
                scope.rels.push(Rel::new(
                    alias.as_ref().map(|a| a.name.text.clone()),
                    cols,
                    alias.as_ref().map_or(t.span(), |a| a.name.span),
                ));
            }
            TableRef::Join {
                left,
                right,
                on,
                using,
                ..
            } => {
                let start = scope.rels.len();
                self.from(left, scope, outer);
                let middle = scope.rels.len();
                self.from(right, scope, outer);
                if let Some(list) = using {
                    // Each USING column on both sides (a side of unknown columns may have it).
                    let lacks =
                        |rels: &[Rel], name: &str| rels.iter().all(|r| r.find(name) == Some(None));
                    if let Some(n) = list.names.iter().find(|n| {
                        lacks(&scope.rels[start..middle], n.as_str())
                            || lacks(&scope.rels[middle..], n.as_str())
                    }) {
                        self.fail(NameProblem::UnknownUsingColumn {
                            span: n.span,
                            name: n.text.to_string(),
                        });
                        return;
                    }
                    scope
                        .using
                        .extend(list.names.iter().map(|n| n.text.clone()));
                }
                if let Some(on) = on {
                    if !self.failed() {
                        self.no_aggregates(on, "ON");
                        self.expr(on, scope, outer);
                    }
                }
            }
            TableRef::Nested { inner, alias, .. } => match alias {
                // `(a JOIN b) AS j`: one relation; its columns are not modelled.
                Some(a) => {
                    let mut inner_scope = SelectScope::default();
                    self.from(inner, &mut inner_scope, outer);
                    scope
                        .rels
                        .push(Rel::new(Some(a.name.text.clone()), None, a.name.span));
                }
                None => self.from(inner, scope, outer),
            },
            TableRef::MatchRecognize { alias, .. } => {
                scope.rels.push(Rel::new(
                    alias.as_ref().map(|a| a.name.text.clone()),
                    None,
                    alias.as_ref().map_or(t.span(), |a| a.name.span),
                ));
            }
        }
    }

    /// The columns of a window TVF over a table read by name: the table's and the window's.
    fn window_tvf(&mut self, call: &Expr) -> Option<Cols> {
        let ExprKind::Function(f) = &call.kind else {
            return None;
        };
        if f.name.parts.len() != 1 {
            return None;
        }
        let name = f.name.parts[0].as_str().to_ascii_uppercase();
        if !matches!(name.as_str(), "TUMBLE" | "HOP" | "CUMULATE" | "SESSION") {
            return None;
        }
        let ExprKind::TableArg(table, ..) = &f.args.first()?.value.kind else {
            return None;
        };
        let input = self.named(table)?;
        // The time attribute: window_time has its type (TIMESTAMP(3) or TIMESTAMP_LTZ(3)).
        let time = f.args.iter().find_map(|a| match &a.value.kind {
            ExprKind::Descriptor(cols) if cols.len() == 1 => Some(&cols[0]),
            _ => None,
        });
        if let Some(t) = time {
            if !input.iter().any(|c| c.name == t.as_str()) {
                self.fail(NameProblem::UnknownDescriptorColumn {
                    span: t.span,
                    name: t.text.to_string(),
                    similar: similar(t.as_str(), input.iter().map(|c| c.name.as_str())),
                });
                return None;
            }
        }
        let time_type = time
            .and_then(|t| {
                input
                    .iter()
                    .find(|c| c.name == t.as_str())
                    .and_then(|c| c.ty.clone())
            })
            .map(|t| t.with_nullable(false));
        let mut cols: Vec<Col> = input.iter().filter(|c| !c.hidden).cloned().collect();
        let ts = Type::not_null(Kind::Timestamp(3));
        for (n, ty) in [
            ("window_start", Some(ts.clone())),
            ("window_end", Some(ts)),
            ("window_time", time_type),
        ] {
            cols.push(Col {
                name: n.into(),
                ty,
                hidden: false,
            });
        }
        Some(Rc::new(cols))
    }
}

/// `FROM_CHANGELOG` / `TO_CHANGELOG` with `TABLE t PARTITION BY ...`: their table argument has
/// row semantics in Flink 2.3 (`BuiltInFunctionDefinitions`), and Calcite rejects the
/// partitioning before it looks the table up.
fn partitioned_row_table(call: &Expr) -> Option<NameProblem> {
    let ExprKind::Function(f) = &call.kind else {
        return None;
    };
    let [name] = f.name.parts.as_slice() else {
        return None;
    };
    if !["FROM_CHANGELOG", "TO_CHANGELOG"]
        .iter()
        .any(|n| name.as_str().eq_ignore_ascii_case(n))
    {
        return None;
    }
    f.args
        .iter()
        .enumerate()
        .find_map(|(i, a)| match &a.value.kind {
            ExprKind::TableArg(_, Some(span), _) => Some(NameProblem::PartitionedRowTable {
                span: *span,
                function: name.as_str().to_string(),
                // A named argument is placed at its parameter's position: `input` is the first.
                operand: if a.name.is_some() { 0 } else { i },
            }),
            _ => None,
        })
}

/// The first select item of a view's query that is a niladic date-time keyword without an
/// alias (`SELECT LOCALTIME`), and whether it is the first item: Flink's expanded view text
/// aliases it with the keyword itself, which its parser rejects (verified for these four).
fn keyword_item(q: &Query) -> Option<(String, bool)> {
    let mut body = &q.body;
    for _ in 0..16 {
        match body {
            SetExpr::Query(inner) => body = &inner.body,
            SetExpr::Select(select) => {
                return select
                    .items
                    .iter()
                    .enumerate()
                    .find_map(|(i, item)| match item {
                        SelectItem::Expr {
                            expr, alias: None, ..
                        } => match &expr.kind {
                            ExprKind::NiladicFunction(k)
                                if [
                                    "LOCALTIME",
                                    "LOCALTIMESTAMP",
                                    "CURRENT_TIMESTAMP",
                                    "CURRENT_DATE",
                                    "CURRENT_TIME",
                                ]
                                .iter()
                                .any(|w| k.eq_ignore_ascii_case(w)) =>
                            {
                                Some((k.as_str().to_ascii_uppercase(), i == 0))
                            }
                            _ => None,
                        },
                        _ => None,
                    });
            }
            _ => return None,
        }
    }
    None
}

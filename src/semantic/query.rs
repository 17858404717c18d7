//! Output columns of a query, as Flink's validator derives them: names from aliases and
//! identifiers, `EXPR$n` for other expressions, `*` and `t.*` expanded from the catalog,
//! repeated names made unique (`x`, `x0`, `x1`, Calcite's `SqlValidatorUtil.uniquify`), and
//! types where they are knowable.

use super::catalog::{CatalogObject, ColumnKind, ObjectDef};
use super::exprs;
use super::names::QualifiedName;
use super::types::Type;
use crate::source::{FileId, Span};
use crate::syntax::ast::*;
use compact_str::CompactString;
use std::collections::HashMap;

/// One output column of a query.
#[derive(Debug, Clone)]
pub struct OutputColumn {
    /// The name after Calcite's uniquification.
    pub name: CompactString,
    /// The name before uniquification (differs when a repeat was renamed).
    pub written_name: CompactString,
    /// The type, when knowable.
    pub data_type: Option<Type>,
    /// The select item that produced it (for `*`, the `*`).
    pub span: Span,
}

/// What the query can see: catalog objects by name, and how names resolve.
pub trait Scope {
    /// The object a table name refers to.
    fn lookup(&self, name: &ObjectName) -> Option<(QualifiedName, &CatalogObject)>;
    /// Whether `SELECT *` leaves out a declared column (column-expansion strategy, declared
    /// system columns).
    fn hidden_from_star(&self, column: &super::catalog::Column) -> bool;
    /// The implicit system columns of a table (hidden from `SELECT *`, selectable by name).
    fn system_columns(
        &self,
        table: &super::catalog::TableDef,
    ) -> Vec<(CompactString, Option<Type>)>;
    /// Whether `name` resolves to an object this session dropped (or renamed) and nothing
    /// created again since: a name that certainly names nothing.
    fn dropped(&self, _name: &ObjectName) -> bool {
        false
    }
    /// The current catalog (`USE CATALOG`), as Flink prints it in messages.
    fn current_catalog(&self) -> String {
        super::names::DEFAULT_CATALOG.to_string()
    }
}

/// A relation in the FROM clause: its alias and columns (`None` when not knowable).
struct Relation {
    alias: Option<CompactString>,
    columns: Option<Vec<RelColumn>>,
}

/// A column of a relation in a FROM clause.
#[derive(Clone)]
pub(crate) struct RelColumn {
    /// Its name.
    pub(crate) name: CompactString,
    /// Its type, when knowable (and asked for).
    pub(crate) data_type: Option<Type>,
    /// Hidden from `SELECT *` (system columns, some metadata columns).
    pub(crate) hidden: bool,
}

/// The output columns of `query`, or `None` when they are not knowable (unknown tables,
/// table functions, views whose columns are unknown, ...).
pub fn output_columns(query: &Query, scope: &dyn Scope, file: FileId) -> Option<Vec<OutputColumn>> {
    let _ = file;
    let mut columns = query_columns(query, scope, true, &[])?;
    uniquify(&mut columns);
    Some(columns)
}

/// [`output_columns`] without their types (every `data_type` is `None`): names and count,
/// for the checks that need only those.
pub fn output_names(query: &Query, scope: &dyn Scope) -> Option<Vec<OutputColumn>> {
    let mut columns = query_columns(query, scope, false, &[])?;
    uniquify(&mut columns);
    Some(columns)
}

fn query_columns(
    query: &Query,
    scope: &dyn Scope,
    typed: bool,
    outer: &[(CompactString, Option<Vec<RelColumn>>)],
) -> Option<Vec<OutputColumn>> {
    let mut ctes: Vec<(CompactString, Option<Vec<RelColumn>>)> = outer.to_vec();
    for cte in &query.with {
        let cols = query_columns(&cte.query, scope, typed, &ctes).map(|cols| {
            cols.into_iter()
                .enumerate()
                .map(|(i, c)| RelColumn {
                    name: cte
                        .columns
                        .as_ref()
                        .and_then(|l| l.names.get(i))
                        .map_or(c.name.clone(), |n| n.text.clone()),
                    data_type: c.data_type,
                    hidden: false,
                })
                .collect()
        });
        ctes.push((cte.name.text.clone(), cols));
    }
    set_columns(&query.body, scope, typed, &ctes)
}

fn set_columns(
    body: &SetExpr,
    scope: &dyn Scope,
    typed: bool,
    ctes: &[(CompactString, Option<Vec<RelColumn>>)],
) -> Option<Vec<OutputColumn>> {
    match body {
        SetExpr::Select(select) => select_columns(select, scope, typed, ctes),
        SetExpr::Query(q) => query_columns(q, scope, typed, ctes),
        // Named by the left input; typed by the common type of both inputs' columns (unknown
        // where either is).
        SetExpr::SetOperation { left, right, .. } => {
            let mut columns = set_columns(left, scope, typed, ctes)?;
            if typed {
                let right = set_columns(right, scope, typed, ctes);
                for (i, c) in columns.iter_mut().enumerate() {
                    let r = right
                        .as_ref()
                        .and_then(|r| r.get(i))
                        .and_then(|r| r.data_type.clone());
                    c.data_type = match (c.data_type.take(), r) {
                        (Some(l), Some(r)) => exprs::common_type(&[l, r]),
                        _ => None,
                    };
                }
            }
            Some(columns)
        }
        SetExpr::Values(values) => {
            let row = values.rows.first()?;
            Some(
                row.iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let name = expr_name(i);
                        OutputColumn {
                            written_name: name.clone(),
                            name,
                            data_type: typed.then(|| exprs::infer_type(e, &|_| None)).flatten(),
                            span: e.span,
                        }
                    })
                    .collect(),
            )
        }
        SetExpr::Table(name) => {
            let (_, object) = scope.lookup(name)?;
            let rel = relation_of(object, scope, typed)?;
            Some(
                rel.into_iter()
                    .filter(|c| !c.hidden)
                    .map(|c| OutputColumn {
                        written_name: c.name.clone(),
                        name: c.name,
                        data_type: c.data_type,
                        span: name.span,
                    })
                    .collect(),
            )
        }
    }
}

/// The columns of a catalog object read in a FROM clause (with its hidden and system
/// columns), or `None` when they are not knowable.
pub(crate) fn relation_of(
    object: &CatalogObject,
    scope: &dyn Scope,
    typed: bool,
) -> Option<Vec<RelColumn>> {
    // A definition Flink rejected, or whose columns flinklint could not complete (a LIKE
    // parent or CTAS query it cannot see): its columns are not knowable.
    if object.incomplete {
        return None;
    }
    match &object.def {
        ObjectDef::Table(t) | ObjectDef::Materialized(t) => Some(
            t.columns
                .iter()
                .map(|c| RelColumn {
                    name: c.name.clone(),
                    data_type: if !typed {
                        None
                    } else {
                        c.data_type.clone().or_else(|| match &c.kind {
                            ColumnKind::Computed(e) => exprs::infer_type(e, &|n| {
                                t.column(n).and_then(|k| k.data_type.clone())
                            }),
                            _ => None,
                        })
                    },
                    hidden: scope.hidden_from_star(c),
                })
                .chain(
                    scope
                        .system_columns(t)
                        .into_iter()
                        .map(|(column, data_type)| RelColumn {
                            name: column,
                            data_type,
                            hidden: true,
                        }),
                )
                .collect(),
        ),
        ObjectDef::View(v) => v.columns.as_ref().map(|cols| {
            cols.iter()
                .enumerate()
                .map(|(i, n)| RelColumn {
                    name: n.clone(),
                    data_type: v.types.get(i).filter(|_| typed).cloned().flatten(),
                    hidden: false,
                })
                .collect()
        }),
    }
}

fn from_relations(
    t: &TableRef,
    scope: &dyn Scope,
    typed: bool,
    ctes: &[(CompactString, Option<Vec<RelColumn>>)],
    out: &mut Vec<Relation>,
) {
    match t {
        TableRef::Named { name, alias, .. } => {
            let alias_name = alias.as_ref().map(|a| a.name.text.clone());
            if name.parts.len() == 1 {
                if let Some((_, cols)) =
                    ctes.iter().rev().find(|(n, _)| n == name.parts[0].as_str())
                {
                    out.push(Relation {
                        alias: alias_name.or_else(|| Some(name.parts[0].text.clone())),
                        columns: cols.clone(),
                    });
                    return;
                }
            }
            let found = scope.lookup(name);
            let columns = found
                .as_ref()
                .and_then(|(_, o)| relation_of(o, scope, typed));
            let columns = match (columns, alias.as_ref().filter(|a| !a.columns.is_empty())) {
                (Some(cols), Some(a)) => Some(
                    cols.into_iter()
                        .zip(a.columns.iter())
                        .map(|(c, n)| RelColumn {
                            name: n.text.clone(),
                            ..c
                        })
                        .collect(),
                ),
                (cols, _) => cols,
            };
            out.push(Relation {
                alias: alias_name.or_else(|| Some(name.last().text.clone())),
                columns,
            });
        }
        TableRef::Subquery { query, alias, .. } => {
            let cols = query_columns(query, scope, typed, ctes).map(|cols| {
                cols.into_iter()
                    .enumerate()
                    .map(|(i, c)| RelColumn {
                        name: alias
                            .as_ref()
                            .and_then(|a| a.columns.get(i))
                            .map_or(c.name.clone(), |n| n.text.clone()),
                        data_type: c.data_type,
                        hidden: false,
                    })
                    .collect()
            });
            out.push(Relation {
                alias: alias.as_ref().map(|a| a.name.text.clone()),
                columns: cols,
            });
        }
        TableRef::Join { left, right, .. } => {
            from_relations(left, scope, typed, ctes, out);
            from_relations(right, scope, typed, ctes, out);
        }
        TableRef::Nested { inner, .. } => from_relations(inner, scope, typed, ctes, out),
        TableRef::Function { alias, .. }
        | TableRef::Unnest { alias, .. }
        | TableRef::MatchRecognize { alias, .. } => {
            out.push(Relation {
                alias: alias.as_ref().map(|a| a.name.text.clone()),
                columns: None,
            });
        }
    }
}

/// How a select list aggregates: a plain `GROUP BY`, globally (no `GROUP BY`: aggregate
/// calls run over the whole input), or not known (grouping sets, ROLLUP, CUBE, which make
/// grouped columns nullable).
fn aggregation_of(select: &Select) -> exprs::Aggregation {
    let grouping_sets = select.group_by.iter().any(|e| {
        matches!(
            exprs::call_name(e).as_deref(),
            Some("ROLLUP" | "CUBE" | "GROUPING SETS" | "GROUPING_SETS" | "GROUPING")
        ) || matches!(e.kind, ExprKind::Row(_))
    });
    if grouping_sets {
        exprs::Aggregation::None
    } else if !select.group_by.is_empty() {
        exprs::Aggregation::Grouped
    } else {
        exprs::Aggregation::Global
    }
}

fn select_columns(
    select: &Select,
    scope: &dyn Scope,
    typed: bool,
    ctes: &[(CompactString, Option<Vec<RelColumn>>)],
) -> Option<Vec<OutputColumn>> {
    let mut relations = Vec::new();
    if let Some(from) = &select.from {
        // `*` over a USING join lists the common columns once (Calcite): not modelled.
        let wildcard = select
            .items
            .iter()
            .any(|i| matches!(i, SelectItem::Wildcard { .. }));
        if wildcard && has_using(from) {
            return None;
        }
        from_relations(from, scope, typed, ctes, &mut relations);
    }
    // A SELECT of many items looks its columns up by hash (the first relation's column of
    // each name, and of each `alias.name`); a short one scans, which costs less than hashing.
    let indexed = select.items.len() > 8;
    let mut by_name: HashMap<&str, &RelColumn> = HashMap::new();
    let mut by_alias: HashMap<(&str, &str), &RelColumn> = HashMap::new();
    if indexed {
        for r in &relations {
            for c in r.columns.iter().flatten() {
                by_name.entry(c.name.as_str()).or_insert(c);
            }
        }
        // Only the first relation of each alias counts (its columns may be unknown).
        let mut aliases = std::collections::HashSet::new();
        for r in &relations {
            let Some(alias) = r.alias.as_deref() else {
                continue;
            };
            if aliases.insert(alias) {
                for c in r.columns.iter().flatten() {
                    by_alias.entry((alias, c.name.as_str())).or_insert(c);
                }
            }
        }
    }
    let lookup_column = |name: &str| -> Option<&RelColumn> {
        if indexed {
            return by_name.get(name).copied();
        }
        relations
            .iter()
            .filter_map(|r| r.columns.as_ref())
            .flatten()
            .find(|c| c.name == name)
    };
    // The column `name` of the relation called `alias`.
    let qualified_column = |alias: &str, name: &str| -> Option<&RelColumn> {
        if indexed {
            return by_alias.get(&(alias, name)).copied();
        }
        relations
            .iter()
            .find(|r| r.alias.as_deref() == Some(alias))
            .and_then(|r| r.columns.as_ref())
            .and_then(|cols| cols.iter().find(|c| c.name == name))
    };
    // A column's type by name, or by `alias.name` for a qualified reference.
    let typed_column = |n: &str| -> Option<crate::semantic::types::Type> {
        if let Some(c) = lookup_column(n) {
            return c.data_type.clone();
        }
        let (q, name) = n.split_once('.')?;
        qualified_column(q, name).and_then(|c| c.data_type.clone())
    };
    let aggregation = aggregation_of(select);
    let mut out = Vec::with_capacity(select.items.len());
    for (i, item) in select.items.iter().enumerate() {
        match item {
            SelectItem::Wildcard { qualifier, span } => {
                let rels: Vec<&Relation> = match qualifier {
                    None => relations.iter().collect(),
                    Some(q) => relations
                        .iter()
                        .filter(|r| r.alias.as_deref() == Some(q.last().as_str()))
                        .collect(),
                };
                if rels.is_empty() {
                    return None;
                }
                for r in rels {
                    for c in r.columns.as_ref()?.iter().filter(|c| !c.hidden) {
                        out.push(OutputColumn {
                            name: c.name.clone(),
                            written_name: c.name.clone(),
                            data_type: c.data_type.clone(),
                            span: *span,
                        });
                    }
                }
            }
            SelectItem::Expr { expr, alias, span } => {
                // A column, and the fields of a ROW column the name goes on to (`t.info.city`).
                let (derived, column, fields) = match &expr.kind {
                    ExprKind::Identifier(name) => {
                        let last = name.last().text.clone();
                        let (col, fields) = if name.parts.len() == 1 {
                            (lookup_column(name.parts[0].as_str()), &[][..])
                        } else {
                            (
                                qualified_column(name.parts[0].as_str(), name.parts[1].as_str()),
                                &name.parts[2..],
                            )
                        };
                        (Some(last), col, fields)
                    }
                    _ => (None, None, &[][..]),
                };
                let name = alias
                    .as_ref()
                    .map(|a| a.text.clone())
                    .or(derived)
                    .unwrap_or_else(|| expr_name(i));
                let data_type = match &column {
                    Some(c) => field_type(c.data_type.as_ref(), fields),
                    None if typed => exprs::infer_type_in(expr, &typed_column, aggregation),
                    None => None,
                };
                out.push(OutputColumn {
                    written_name: name.clone(),
                    name,
                    data_type,
                    span: *span,
                });
            }
        }
    }
    Some(out)
}

/// The type of the field `fields` of a value of type `ty` (`ty` itself without fields): a
/// field of a nullable ROW is nullable. `None` when unknown, or when a field is missing or
/// not a ROW's (name resolution reports those).
fn field_type(
    ty: Option<&crate::semantic::types::Type>,
    fields: &[crate::syntax::ast::Ident],
) -> Option<crate::semantic::types::Type> {
    let mut ty = ty?.clone();
    for field in fields {
        let crate::semantic::types::Kind::Row(row) = &ty.kind else {
            return None;
        };
        let (_, field_ty) = row.iter().find(|(n, _)| n == field.as_str())?;
        let nullable = ty.nullable || field_ty.nullable;
        ty = field_ty.clone().with_nullable(nullable);
    }
    Some(ty)
}

/// Whether a FROM clause has a `JOIN ... USING`.
fn has_using(t: &TableRef) -> bool {
    match t {
        TableRef::Join {
            left, right, using, ..
        } => using.is_some() || has_using(left) || has_using(right),
        TableRef::Nested { inner, .. } => has_using(inner),
        _ => false,
    }
}

/// Calcite's name for the `i`-th (0-based) select item that has no alias and is not a column
/// reference: `EXPR$i`.
pub fn expr_name(i: usize) -> CompactString {
    use std::fmt::Write;
    let mut name = CompactString::const_new("EXPR$");
    let _ = write!(name, "{i}");
    name
}

/// Calcite's uniquification: a repeated name gets the first free suffix `0`, `1`, ...
/// (case-sensitive, as Flink configures the validator).
pub fn uniquify(columns: &mut [OutputColumn]) {
    use std::fmt::Write;
    if columns.len() < 32 {
        // A few columns: compared pairwise, which costs less than hashing.
        for i in 1..columns.len() {
            let (before, rest) = columns.split_at_mut(i);
            let c = &mut rest[0];
            // An empty name (`` AS `` ``, which Flink rejects as a lexical error) is left as is.
            if c.written_name.is_empty() || !before.iter().any(|b| b.name == c.name) {
                continue;
            }
            let mut n = 0;
            loop {
                let mut candidate = c.written_name.clone();
                let _ = write!(candidate, "{n}");
                if !before.iter().any(|b| b.name == candidate) {
                    c.name = candidate;
                    break;
                }
                n += 1;
            }
        }
        return;
    }
    // The names so far, and per written name the next suffix to try: every smaller suffix was
    // taken when it was tried, and names are never given back (Calcite's result, in linear
    // time).
    let mut taken: std::collections::HashSet<CompactString> =
        std::collections::HashSet::with_capacity(columns.len());
    let mut next: std::collections::HashMap<CompactString, usize> =
        std::collections::HashMap::new();
    for c in columns.iter_mut() {
        // An empty name (`` AS `` ``, which Flink rejects as a lexical error) is left as is.
        if !c.written_name.is_empty() && taken.contains(&c.name) {
            let n = next.entry(c.written_name.clone()).or_insert(0);
            loop {
                let mut candidate = c.written_name.clone();
                let _ = write!(candidate, "{n}");
                *n += 1;
                if !taken.contains(&candidate) {
                    c.name = candidate;
                    break;
                }
            }
        }
        taken.insert(c.name.clone());
    }
}

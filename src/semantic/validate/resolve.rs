//! The walk of [`super::validate`]: scopes per SELECT, name resolution, grouping checks.

use super::{ColumnTypes, HashMap, NameProblem, ResolvedColumn, Validation};
use crate::semantic::exprs::{self, Aggregation};
use crate::semantic::functions::{self, FunctionKind};
use crate::semantic::query::{self, Scope};
use crate::semantic::types::{Kind, Type};
use crate::source::Span;
use crate::syntax::ast::*;
use compact_str::CompactString;
use std::rc::Rc;

/// A column of a relation.
#[derive(Clone, Debug)]
pub(super) struct Col {
    name: CompactString,
    ty: Option<Type>,
    hidden: bool,
}

type Cols = Rc<Vec<Col>>;

/// A relation of a FROM clause.
struct Rel {
    /// The name it is qualified by.
    alias: Option<CompactString>,
    /// Its columns, `None` when not knowable.
    columns: Option<Cols>,
    /// Column index by name (first of each name), for wide relations.
    index: Option<HashMap<CompactString, usize>>,
    /// Where its name is written (its alias, or the table's name).
    span: Span,
    /// The table or view of the catalog it reads, when it is one (not a WITH query).
    table: Option<crate::semantic::names::QualifiedName>,
}

impl Rel {
    fn new(alias: Option<CompactString>, columns: Option<Cols>, span: Span) -> Rel {
        let index = columns.as_ref().filter(|c| c.len() > 16).map(|cols| {
            let mut m = HashMap::with_capacity_and_hasher(cols.len(), Default::default());
            for (i, c) in cols.iter().enumerate() {
                m.entry(c.name.clone()).or_insert(i);
            }
            m
        });
        Rel {
            alias,
            columns,
            index,
            span,
            table: None,
        }
    }
    /// `None`: columns unknown; `Some(None)`: no such column.
    fn find(&self, name: &str) -> Option<Option<usize>> {
        let cols = self.columns.as_ref()?;
        Some(match &self.index {
            Some(m) => m.get(name).copied(),
            None => cols.iter().position(|c| c.name == name),
        })
    }
}

/// The scope of one SELECT: its relations, USING columns and select aliases.
#[derive(Default)]
struct SelectScope {
    rels: Vec<Rel>,
    using: Vec<CompactString>,
}

enum Lookup {
    /// Relation and column index.
    Found(usize, usize),
    Ambiguous(Vec<usize>),
    Missing,
    Unknown,
}

impl SelectScope {
    fn lookup(&self, name: &str) -> Lookup {
        // The first relation that has the column, and whether another has it too: the list
        // of relations is built only for an ambiguous name.
        let mut first: Option<(usize, usize)> = None;
        let mut more = false;
        let mut unknown = false;
        for (r, rel) in self.rels.iter().enumerate() {
            match rel.find(name) {
                None => unknown = true,
                Some(Some(c)) if first.is_none() => first = Some((r, c)),
                Some(Some(_)) => more = true,
                Some(None) => {}
            }
        }
        match first {
            None if unknown => Lookup::Unknown,
            None => Lookup::Missing,
            Some((r, c)) if !more || self.using.iter().any(|u| u == name) => Lookup::Found(r, c),
            Some(_) => Lookup::Ambiguous(
                self.rels
                    .iter()
                    .enumerate()
                    .filter(|(_, rel)| matches!(rel.find(name), Some(Some(_))))
                    .map(|(r, _)| r)
                    .collect(),
            ),
        }
    }
    /// The relation called `alias` (the last one of that name).
    fn relation(&self, alias: &str) -> Option<usize> {
        self.rels
            .iter()
            .rposition(|r| r.alias.as_deref() == Some(alias))
    }
}

/// The validator's state over one query.
pub(super) struct Walker<'a> {
    catalog: &'a dyn Scope,
    foreign: &'a [String],
    ctes: Vec<(CompactString, Option<Cols>)>,
    problem: Option<NameProblem>,
    /// A problem Flink meets only after validating the names (an `OPTIONS` hint on a view,
    /// found while it converts the query): reported when no name problem comes first.
    late: Option<NameProblem>,
    columns: HashMap<Span, ResolvedColumn>,
    outputs: HashMap<Span, Vec<Option<Type>>>,
    lambda: Vec<CompactString>,
}

impl<'a> Walker<'a> {
    pub(super) fn new(catalog: &'a dyn Scope, foreign: &'a [String]) -> Walker<'a> {
        Walker {
            catalog,
            foreign,
            ctes: Vec::new(),
            problem: None,
            late: None,
            // A query resolves a dozen identifiers or more: room for them without regrowing.
            columns: HashMap::with_capacity_and_hasher(16, Default::default()),
            outputs: HashMap::default(),
            lambda: Vec::new(),
        }
    }

    pub(super) fn top(&mut self, query: &Query) {
        self.query(query, &[]);
    }

    pub(super) fn finish(self) -> Validation {
        Validation {
            problem: self.problem.or(self.late),
            columns: self.columns,
            outputs: self.outputs,
        }
    }

    fn failed(&self) -> bool {
        self.problem.is_some()
    }

    fn fail(&mut self, p: NameProblem) {
        if self.problem.is_none() {
            self.problem = Some(p);
        }
    }

    /// Validates `q` and returns its output columns, when knowable.
    fn query(&mut self, q: &Query, outer: &[&SelectScope]) -> Option<Cols> {
        let saved = self.ctes.len();
        for cte in &q.with {
            let cols = self.query(&cte.query, outer);
            let cols = match (cols, &cte.columns) {
                (Some(c), Some(list)) => Some(rename(&c, &list.names)),
                (c, _) => c,
            };
            self.ctes.push((cte.name.text.clone(), cols));
        }
        let out = self.body(&q.body, outer, &q.order_by);
        // The ORDER BY of a set operation: its ordinals count the operation's columns.
        if let (SetExpr::SetOperation { .. }, Some(cols)) = (&q.body, &out) {
            if let Some(p) = ordinal_out_of_range(&q.order_by, cols.len()) {
                self.fail(p);
            }
        }
        self.ctes.truncate(saved);
        out
    }

    fn body(&mut self, b: &SetExpr, outer: &[&SelectScope], order: &[OrderItem]) -> Option<Cols> {
        if self.failed() {
            return None;
        }
        match b {
            SetExpr::Select(s) => self.select(s, outer, order),
            SetExpr::Query(q) => self.query(q, outer),
            SetExpr::SetOperation { left, right, .. } => {
                let l = self.body(left, outer, &[]);
                let r = self.body(right, outer, &[]);
                // The left input's names; the common type of both inputs' columns.
                l.map(|l| {
                    let ty = |i: usize, c: &Col| {
                        let r = r.as_ref()?.get(i)?.ty.clone()?;
                        exprs::common_type(&[c.ty.clone()?, r])
                    };
                    Rc::new(
                        l.iter()
                            .enumerate()
                            .map(|(i, c)| Col {
                                ty: ty(i, c),
                                ..c.clone()
                            })
                            .collect(),
                    )
                })
            }
            SetExpr::Values(v) => {
                let empty = SelectScope::default();
                for row in &v.rows {
                    for e in row {
                        self.expr(e, &empty, outer);
                    }
                }
                let row = v.rows.first()?;
                Some(Rc::new(
                    row.iter()
                        .enumerate()
                        .map(|(i, e)| Col {
                            name: query::expr_name(i),
                            ty: exprs::infer_type(e, &|_| None),
                            hidden: false,
                        })
                        .collect(),
                ))
            }
            SetExpr::Table(name) => {
                let cols = self.named(name)?;
                Some(Rc::new(
                    cols.iter().filter(|c| !c.hidden).cloned().collect(),
                ))
            }
        }
    }

    /// The columns of a table, view or WITH query read by name.
    fn named(&self, name: &ObjectName) -> Option<Cols> {
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
    fn from(&mut self, t: &TableRef, scope: &mut SelectScope, outer: &[&SelectScope]) {
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
        let ExprKind::TableArg(table, _) = &f.args.first()?.value.kind else {
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

    fn select(&mut self, s: &Select, outer: &[&SelectScope], order: &[OrderItem]) -> Option<Cols> {
        // An aggregate in the ORDER BY of a SELECT that does not aggregate: Calcite finds it
        // while it registers the query's scopes (`registerQuery`), before it validates names.
        if !order.is_empty() && !aggregating(s) {
            let mut found = None;
            for o in order {
                exprs::walk(&o.expr, &mut |x| {
                    if found.is_none() && aggregate_call(x) == Some(false) {
                        found = Some(x.span);
                    }
                });
            }
            if let Some(span) = found {
                self.fail(NameProblem::IllegalAggregate {
                    span,
                    clause: "ORDER BY",
                    windowed: false,
                });
                return None;
            }
        }
        let mut scope = SelectScope::default();
        if let Some(from) = &s.from {
            self.from(from, &mut scope, outer);
        }
        if self.failed() {
            return None;
        }
        // One name per relation (Calcite's `validateFrom`).
        let mut names: HashMap<&str, Span> = HashMap::default();
        for r in &scope.rels {
            if let Some(a) = r.alias.as_deref() {
                if let Some(first) = names.insert(a, r.span) {
                    self.fail(NameProblem::DuplicateAlias {
                        span: r.span,
                        name: a.to_string(),
                        first,
                    });
                    return None;
                }
            }
        }
        let aliases: Vec<(&str, Span, &Expr)> = s
            .items
            .iter()
            .filter_map(|i| match i {
                SelectItem::Expr {
                    expr,
                    alias: Some(a),
                    span,
                } => Some((a.as_str(), *span, expr)),
                _ => None,
            })
            .collect();
        // WHERE: aggregates first, then names (Calcite's `validateWhereOrOn`).
        if let Some(w) = &s.selection {
            self.no_aggregates(w, "WHERE");
            self.expr(w, &scope, outer);
        }
        // GROUP BY.
        for g in &s.group_by {
            if self.failed() {
                return None;
            }
            self.no_aggregates(g, "GROUP BY");
            if let ExprKind::Identifier(n) = &g.kind {
                if n.parts.len() == 1 && !self.resolvable(n.parts[0].as_str(), &scope, outer) {
                    if let Some((_, item, _)) =
                        aliases.iter().find(|(a, _, _)| *a == n.parts[0].as_str())
                    {
                        self.fail(NameProblem::GroupByAlias {
                            span: g.span,
                            name: n.parts[0].text.to_string(),
                            item: *item,
                            in_having: false,
                        });
                        return None;
                    }
                }
            }
            self.expr(g, &scope, outer);
        }
        if self.failed() {
            return None;
        }
        let grouping = self.grouping(s);
        // HAVING.
        if let Some(h) = &s.having {
            // A name only a select alias gives: not found (no HAVING aliases in Flink).
            let mut alias_named: Option<(Span, String, Span)> = None;
            exprs::walk(h, &mut |e| {
                if let ExprKind::Identifier(n) = &e.kind {
                    if alias_named.is_none() && n.parts.len() == 1 {
                        if let Some((_, item, _)) =
                            aliases.iter().find(|(a, _, _)| *a == n.parts[0].as_str())
                        {
                            if !self.resolvable(n.parts[0].as_str(), &scope, outer) {
                                alias_named = Some((e.span, n.parts[0].text.to_string(), *item));
                            }
                        }
                    }
                }
            });
            if let Some((span, name, item)) = alias_named {
                self.fail(NameProblem::GroupByAlias {
                    span,
                    name,
                    item,
                    in_having: true,
                });
                return None;
            }
            self.expr(h, &scope, outer);
            self.nested_aggregates(h);
            if let Some(g) = &grouping {
                self.grouped(h, g, true);
            }
        }
        // The select list.
        let mut out: Option<Vec<Col>> = Some(Vec::with_capacity(s.items.len()));
        let agg = if s.group_by.is_empty() {
            Aggregation::Global
        } else {
            Aggregation::Grouped
        };
        for (i, item) in s.items.iter().enumerate() {
            if self.failed() {
                return None;
            }
            match item {
                SelectItem::Wildcard { qualifier, .. } => {
                    let rels: Vec<&Rel> = match qualifier {
                        None if !scope.using.is_empty() => {
                            out = None;
                            continue;
                        }
                        None => scope.rels.iter().collect(),
                        Some(q) => {
                            let found = scope.relation(q.last().as_str());
                            // `payload.*` over a ROW column `payload` (Flink expands its
                            // fields), or a relation whose columns are unknown: not judged.
                            let column_star = found.is_none()
                                && scope.rels.iter().any(|r| {
                                    r.columns.as_ref().is_none_or(|cols| {
                                        cols.iter().any(|c| c.name == q.last().as_str())
                                    })
                                });
                            if column_star {
                                out = None;
                                continue;
                            }
                            if found.is_none() && q.parts.len() == 1 {
                                let case_match = scope
                                    .rels
                                    .iter()
                                    .filter_map(|r| r.alias.as_deref())
                                    .find(|a| a.eq_ignore_ascii_case(q.last().as_str()))
                                    .map(str::to_string);
                                self.fail(NameProblem::UnknownQualifier {
                                    span: q.span,
                                    name: q.last().text.to_string(),
                                    case_match,
                                    star: true,
                                });
                                return None;
                            }
                            found.map(|r| &scope.rels[r]).into_iter().collect()
                        }
                    };
                    if rels.is_empty() {
                        out = None;
                    }
                    for r in rels {
                        match (&mut out, &r.columns) {
                            (Some(o), Some(cols)) => {
                                o.extend(cols.iter().filter(|c| !c.hidden).cloned())
                            }
                            _ => out = None,
                        }
                    }
                }
                SelectItem::Expr { expr, alias, .. } => {
                    self.expr(expr, &scope, outer);
                    self.nested_aggregates(expr);
                    if let Some(g) = &grouping {
                        self.grouped(expr, g, false);
                    }
                    if let Some(o) = &mut out {
                        let name = alias
                            .as_ref()
                            .map(|a| a.text.clone())
                            .or_else(|| match &expr.kind {
                                ExprKind::Identifier(n) => Some(n.last().text.clone()),
                                _ => None,
                            })
                            .unwrap_or_else(|| query::expr_name(i));
                        let ty = self.expr_type(
                            expr,
                            if grouping.is_some() {
                                agg
                            } else {
                                Aggregation::None
                            },
                        );
                        o.push(Col {
                            name,
                            ty,
                            hidden: false,
                        });
                    }
                }
            }
        }
        // QUALIFY and named windows: names of the FROM clause or select aliases.
        for e in s.qualify.iter() {
            self.expr_or_alias(e, &scope, outer, &aliases);
        }
        for (_, w) in &s.windows {
            for e in &w.partition_by {
                self.expr(e, &scope, outer);
            }
            for o in &w.order_by {
                self.expr(&o.expr, &scope, outer);
            }
        }
        // ORDER BY: ordinals first (Calcite expands every item before it validates them),
        // then select aliases and output names, else the FROM clause's columns.
        let count = if s
            .items
            .iter()
            .any(|i| matches!(i, SelectItem::Wildcard { .. }))
        {
            out.as_ref().map(Vec::len)
        } else {
            Some(s.items.len())
        };
        if let Some(p) = count.and_then(|n| ordinal_out_of_range(order, n)) {
            self.fail(p);
            return None;
        }
        for o in order {
            if self.failed() {
                return None;
            }
            self.expr_or_alias(&o.expr, &scope, outer, &aliases);
        }
        if self.failed() {
            return None;
        }
        out.map(|mut cols| {
            let mut oc: Vec<query::OutputColumn> = cols
                .iter()
                .map(|c| query::OutputColumn {
                    name: c.name.clone(),
                    written_name: c.name.clone(),
                    data_type: None,
                    span: s.span,
                })
                .collect();
            query::uniquify(&mut oc);
            for (c, o) in cols.iter_mut().zip(oc) {
                c.name = o.name;
            }
            self.outputs
                .insert(s.span, cols.iter().map(|c| c.ty.clone()).collect());
            Rc::new(cols)
        })
    }

    /// An expression of ORDER BY or QUALIFY: a name that a select alias gives is fine.
    fn expr_or_alias(
        &mut self,
        e: &Expr,
        scope: &SelectScope,
        outer: &[&SelectScope],
        aliases: &[(&str, Span, &Expr)],
    ) {
        let mut names_alias = false;
        exprs::walk(e, &mut |x| {
            if let ExprKind::Identifier(n) = &x.kind {
                if aliases.iter().any(|(a, _, _)| *a == n.parts[0].as_str()) {
                    names_alias = true;
                }
            }
        });
        if !names_alias {
            self.expr(e, scope, outer);
        }
    }

    /// Whether an unqualified name resolves (or may: unknown relations) in the scopes.
    fn resolvable(&self, name: &str, scope: &SelectScope, outer: &[&SelectScope]) -> bool {
        std::iter::once(scope)
            .chain(outer.iter().rev().copied())
            .any(|s| !matches!(s.lookup(name), Lookup::Missing))
    }

    /// The type of a select item from its resolved columns.
    fn expr_type(&self, e: &Expr, agg: Aggregation) -> Option<Type> {
        if let ExprKind::Identifier(_) = &e.kind {
            return self.columns.get(&e.span).and_then(|c| c.data_type.clone());
        }
        let names = ColumnTypes::of(&self.columns, e);
        exprs::infer_type_in(e, &|n| names.get(n), agg)
    }

    /// Resolves every identifier of `e` (and validates its subqueries).
    fn expr(&mut self, e: &Expr, scope: &SelectScope, outer: &[&SelectScope]) {
        if self.failed() {
            return;
        }
        match &e.kind {
            ExprKind::Identifier(name) => self.identifier(e, name, scope, outer),
            ExprKind::InSubquery { expr, query, .. } => {
                self.expr(expr, scope, outer);
                self.subquery(query, scope, outer);
            }
            ExprKind::Subquery(q)
            | ExprKind::Exists(q)
            | ExprKind::ArrayQuery(q)
            | ExprKind::MapQuery(q) => self.subquery(q, scope, outer),
            ExprKind::Lambda { params, body } => {
                let n = self.lambda.len();
                self.lambda.extend(params.iter().map(|p| p.text.clone()));
                self.expr(body, scope, outer);
                self.lambda.truncate(n);
            }
            ExprKind::Function(call) => {
                for a in &call.args {
                    self.expr(&a.value, scope, outer);
                }
                if let Some(f) = &call.filter {
                    self.expr(f, scope, outer);
                }
                if let Some(Over::Spec(w)) = &call.over {
                    for p in &w.partition_by {
                        self.expr(p, scope, outer);
                    }
                    for o in &w.order_by {
                        self.expr(&o.expr, scope, outer);
                    }
                }
            }
            _ => children(e, &mut |c| self.expr(c, scope, outer)),
        }
    }

    fn subquery(&mut self, q: &Query, scope: &SelectScope, outer: &[&SelectScope]) {
        let mut chain: Vec<&SelectScope> = outer.to_vec();
        chain.push(scope);
        self.query(q, &chain);
    }

    fn identifier(
        &mut self,
        e: &Expr,
        name: &ObjectName,
        scope: &SelectScope,
        outer: &[&SelectScope],
    ) {
        let parts = &name.parts;
        let first = parts[0].as_str();
        if parts.len() == 1 && self.lambda.iter().any(|p| p == first) {
            return;
        }
        // This SELECT's scope, then the enclosing ones, innermost first.
        let scopes = || std::iter::once(scope).chain(outer.iter().rev().copied());
        // A qualified name whose qualifier is a relation: its column, then fields.
        if parts.len() >= 2 {
            for (depth, s) in scopes().enumerate() {
                let Some(r) = s.relation(first) else {
                    continue;
                };
                let rel = &s.rels[r];
                let Some(cols) = &rel.columns else {
                    return;
                };
                let col_name = parts[1].as_str();
                match rel.find(col_name).flatten() {
                    Some(c) => {
                        self.column_path(e, rel, &cols[c], &parts[1..], depth > 0);
                    }
                    None => {
                        let case_match = cols
                            .iter()
                            .find(|c| c.name.eq_ignore_ascii_case(col_name))
                            .map(|c| c.name.to_string());
                        let similar = similar(col_name, cols.iter().map(|c| c.name.as_str()));
                        self.fail(NameProblem::UnknownColumn {
                            span: e.span,
                            name_span: parts[1].span,
                            name: col_name.to_string(),
                            table: Some(first.to_string()),
                            case_match,
                            similar,
                            foreign_system: self.foreign.iter().any(|f| f == col_name),
                        });
                    }
                }
                return;
            }
        }
        // An unqualified column (or a ROW column with fields).
        for (depth, s) in scopes().enumerate() {
            match s.lookup(first) {
                Lookup::Found(r, c) => {
                    let rel = &s.rels[r];
                    // Found only among known columns.
                    let Some(col) = rel.columns.as_ref().and_then(|cols| cols.get(c)) else {
                        return;
                    };
                    if parts.len() >= 2
                        && !matches!(col.ty.as_ref().map(|t| &t.kind), Some(Kind::Row(_)))
                    {
                        // `c.x` with a column `c` that is no ROW: Calcite takes `c` for a
                        // table. Only said when the column's type is known.
                        if col.ty.is_some() && parts.len() == 2 {
                            self.unknown_qualifier(parts[0].span, first, scope, outer);
                        }
                        return;
                    }
                    self.column_path(e, rel, col, parts, depth > 0);
                    return;
                }
                Lookup::Ambiguous(rels) => {
                    self.fail(NameProblem::AmbiguousColumn {
                        span: e.span,
                        name: first.to_string(),
                        tables: rels
                            .iter()
                            .filter_map(|r| s.rels[*r].alias.as_ref().map(|a| a.to_string()))
                            .collect(),
                    });
                    return;
                }
                Lookup::Unknown => return,
                Lookup::Missing => {}
            }
        }
        // Nowhere: a qualified name names an unknown table, a plain one an unknown column.
        if parts.len() >= 3 {
            // `db.t.c` and the like: catalog paths are not modelled.
            return;
        }
        if parts.len() == 2 {
            self.unknown_qualifier(parts[0].span, first, scope, outer);
            return;
        }
        // A function called without parentheses (`CURRENT_CATALOG`, `USER`): Calcite tries
        // such names after columns.
        if functions::lookup(first).is_some_and(|f| f.syntax == functions::Syntax::NoParens) {
            return;
        }
        let all = scopes()
            .flat_map(|s| s.rels.iter())
            .filter_map(|r| r.columns.as_ref())
            .flat_map(|c| c.iter().map(|c| c.name.as_str()));
        let case_match = all
            .clone()
            .find(|c| c.eq_ignore_ascii_case(first))
            .map(str::to_string);
        let similar = similar(first, all);
        self.fail(NameProblem::UnknownColumn {
            span: e.span,
            name_span: parts[0].span,
            name: first.to_string(),
            table: None,
            case_match,
            similar,
            foreign_system: self.foreign.iter().any(|f| f == first),
        });
    }

    fn unknown_qualifier(
        &mut self,
        span: Span,
        name: &str,
        scope: &SelectScope,
        outer: &[&SelectScope],
    ) {
        let case_match = std::iter::once(scope)
            .chain(outer.iter().rev().copied())
            .flat_map(|s| s.rels.iter())
            .filter_map(|r| r.alias.as_deref())
            .find(|a| a.eq_ignore_ascii_case(name))
            .map(str::to_string);
        self.fail(NameProblem::UnknownQualifier {
            span,
            name: name.to_string(),
            case_match,
            star: false,
        });
    }

    /// Records a column and follows the fields of `path` (the column's name first).
    fn column_path(&mut self, e: &Expr, rel: &Rel, col: &Col, path: &[Ident], outer: bool) {
        let mut ty = col.ty.clone();
        let mut written = CompactString::from(col.name.as_str());
        for field in &path[1..] {
            let Some(t) = &ty else {
                return;
            };
            let Kind::Row(fields) = &t.kind else {
                // A field of a non-ROW type: not modelled.
                return;
            };
            let nullable = t.nullable;
            match fields.iter().find(|(n, _)| n == field.as_str()) {
                Some((_, ft)) => {
                    ty = Some(ft.clone().with_nullable(ft.nullable || nullable));
                    written.push('.');
                    written.push_str(field.as_str());
                }
                None => {
                    self.fail(NameProblem::UnknownField {
                        span: e.span,
                        field_span: field.span,
                        path: format!("{written}.{}", field.as_str()),
                        field: field.text.to_string(),
                        table: rel.alias.as_deref().unwrap_or("").to_string(),
                        fields: fields.iter().map(|(n, _)| n.clone()).collect(),
                        case_match: fields
                            .iter()
                            .find(|(n, _)| n.eq_ignore_ascii_case(field.as_str()))
                            .map(|(n, _)| n.clone()),
                    });
                    return;
                }
            }
        }
        self.columns.insert(
            e.span,
            ResolvedColumn {
                relation: rel.alias.clone(),
                table: rel.table.clone(),
                column: written,
                data_type: ty,
                outer,
            },
        );
    }

    /// Reports an aggregate call in a clause that allows none.
    fn no_aggregates(&mut self, e: &Expr, clause: &'static str) {
        if self.failed() {
            return;
        }
        let mut found = None;
        exprs::walk(e, &mut |x| {
            if found.is_none() {
                if let Some(windowed) = aggregate_call(x) {
                    found = Some((x.span, windowed));
                }
            }
        });
        if let Some((span, windowed)) = found {
            self.fail(NameProblem::IllegalAggregate {
                span,
                clause,
                windowed,
            });
        }
    }

    /// Reports an aggregate call inside another.
    fn nested_aggregates(&mut self, e: &Expr) {
        if self.failed() {
            return;
        }
        let mut found = None;
        exprs::walk(e, &mut |x| {
            if found.is_some() || aggregate_call(x) != Some(false) {
                return;
            }
            let ExprKind::Function(call) = &x.kind else {
                return;
            };
            for a in &call.args {
                exprs::walk(&a.value, &mut |y| {
                    if found.is_none() && aggregate_call(y) == Some(false) {
                        found = Some((y.span, call.name.last().text.to_string()));
                    }
                });
            }
        });
        if let Some((span, outer)) = found {
            self.fail(NameProblem::NestedAggregate { span, outer });
        }
    }

    /// The GROUP BY expressions of an aggregate SELECT whose grouping can be checked, or `None`
    /// (not an aggregate query, or grouping forms not modelled).
    fn grouping<'s>(&self, s: &'s Select) -> Option<Groups<'s>> {
        let mut groups: Vec<&Expr> = Vec::new();
        for g in &s.group_by {
            if !flatten_group(g, &mut groups) {
                return None;
            }
        }
        if !aggregating(s) {
            return None;
        }
        // Every GROUP BY item of a form the comparison handles, and no literal (GROUP BY 1
        // groups by a constant in Flink; not modelled).
        let comparable = groups.iter().all(|g| {
            let mut ok = true;
            exprs::walk(g, &mut |x| {
                ok &= matches!(
                    x.kind,
                    ExprKind::Identifier(_)
                        | ExprKind::Function(_)
                        | ExprKind::Binary { .. }
                        | ExprKind::Unary { .. }
                        | ExprKind::Nested(_)
                        | ExprKind::Cast { .. }
                        | ExprKind::Literal(_)
                        | ExprKind::TimeUnit(_)
                ) && !matches!((&x.kind, std::ptr::eq(x, *g)), (ExprKind::Literal(_), true));
            });
            ok
        });
        // Legacy group windows (`GROUP BY TUMBLE(ts, ...)`) have their auxiliary functions.
        let group_window = groups.iter().any(|g| {
            matches!(
                exprs::call_name(g).as_deref(),
                Some("TUMBLE" | "HOP" | "SESSION" | "CUMULATE")
            )
        });
        if !comparable || group_window {
            return None;
        }
        // Columns by their resolution (a SELECT of many items grouped by as many columns
        // costs one look-up each), other expressions compared one by one.
        let mut out = Groups::default();
        for g in groups {
            match &g.kind {
                ExprKind::Identifier(n) => match self.columns.get(&g.span) {
                    Some(c) => {
                        out.columns.insert((c.relation.clone(), c.column.clone()));
                    }
                    None => {
                        out.written.insert(written(n));
                    }
                },
                _ => out.exprs.push(g),
            }
        }
        Some(out)
    }

    /// Reports the first column of `e` outside aggregate calls and `groups`.
    fn grouped(&mut self, e: &Expr, groups: &Groups<'_>, in_having: bool) {
        if self.failed() {
            return;
        }
        if let Some((span, expr)) = self.ungrouped(e, groups) {
            self.fail(NameProblem::NotGrouped {
                span,
                expr,
                in_having,
            });
        }
    }

    /// The first column reference of `e` outside aggregate calls and `groups`, with its text.
    fn ungrouped(&self, e: &Expr, groups: &Groups<'_>) -> Option<(Span, String)> {
        let mut inner = e;
        while let ExprKind::Nested(x) = &inner.kind {
            inner = x;
        }
        if let ExprKind::Identifier(n) = &inner.kind {
            let grouped = match self.columns.get(&inner.span) {
                Some(c) => groups
                    .columns
                    .contains(&(c.relation.clone(), c.column.clone())),
                None => groups.written.contains(&written(n)),
            };
            if grouped {
                return None;
            }
        } else if groups.exprs.iter().any(|g| self.same(e, g)) {
            return None;
        }
        match &e.kind {
            ExprKind::Identifier(n) => {
                // Only a column of this SELECT's relations (not a correlated one).
                let c = self.columns.get(&e.span)?;
                (!c.outer).then(|| (e.span, written(n)))
            }
            ExprKind::Function(call) => {
                if call.over.is_some() || aggregate_call(e).is_some() {
                    return None;
                }
                let name = call.name.last().as_str();
                // Not a built-in function (a UDF may aggregate), or GROUPING(...): not looked into.
                let f = functions::lookup(name)?;
                if call.name.parts.len() > 1
                    || f.kind != FunctionKind::Scalar && f.kind != FunctionKind::Other
                {
                    return None;
                }
                let mut hit = None;
                for a in &call.args {
                    if hit.is_none() {
                        hit = self.ungrouped(&a.value, groups);
                    }
                }
                hit
            }
            ExprKind::Subquery(_)
            | ExprKind::Exists(_)
            | ExprKind::InSubquery { .. }
            | ExprKind::ArrayQuery(_)
            | ExprKind::MapQuery(_)
            | ExprKind::Lambda { .. } => None,
            _ => {
                let mut hit = None;
                children(e, &mut |c| {
                    if hit.is_none() {
                        hit = self.ungrouped(c, groups);
                    }
                });
                hit
            }
        }
    }

    /// Structural equality of two expressions, columns compared after resolution.
    fn same(&self, a: &Expr, b: &Expr) -> bool {
        match (&a.kind, &b.kind) {
            (ExprKind::Nested(x), _) => self.same(x, b),
            (_, ExprKind::Nested(y)) => self.same(a, y),
            (ExprKind::Identifier(x), ExprKind::Identifier(y)) => {
                match (self.columns.get(&a.span), self.columns.get(&b.span)) {
                    (Some(c), Some(d)) => c.relation == d.relation && c.column == d.column,
                    _ => written(x) == written(y),
                }
            }
            (ExprKind::Literal(x), ExprKind::Literal(y)) => same_literal(x, y),
            (ExprKind::TimeUnit(x), ExprKind::TimeUnit(y)) => x == y,
            (ExprKind::Function(x), ExprKind::Function(y)) => {
                x.name.parts.len() == y.name.parts.len()
                    && x.name
                        .parts
                        .iter()
                        .zip(&y.name.parts)
                        .all(|(p, q)| p.as_str().eq_ignore_ascii_case(q.as_str()))
                    && x.distinct == y.distinct
                    && x.star == y.star
                    && x.filter.is_none()
                    && y.filter.is_none()
                    && x.over.is_none()
                    && y.over.is_none()
                    && x.args.len() == y.args.len()
                    && x.args
                        .iter()
                        .zip(&y.args)
                        .all(|(p, q)| p.keyword == q.keyword && self.same(&p.value, &q.value))
            }
            (
                ExprKind::Binary {
                    op: o1,
                    left: l1,
                    right: r1,
                },
                ExprKind::Binary {
                    op: o2,
                    left: l2,
                    right: r2,
                },
            ) => o1 == o2 && self.same(l1, l2) && self.same(r1, r2),
            (ExprKind::Unary { op: o1, expr: e1 }, ExprKind::Unary { op: o2, expr: e2 }) => {
                o1 == o2 && self.same(e1, e2)
            }
            (
                ExprKind::Cast {
                    expr: e1,
                    data_type: t1,
                    try_cast: c1,
                },
                ExprKind::Cast {
                    expr: e2,
                    data_type: t2,
                    try_cast: c2,
                },
            ) => c1 == c2 && Type::from_ast(t1) == Type::from_ast(t2) && self.same(e1, e2),
            _ => false,
        }
    }
}

/// The GROUP BY of a SELECT, for the grouping check.
#[derive(Default)]
struct Groups<'s> {
    /// Grouped columns by resolution: relation and column (field path).
    columns: foldhash::HashSet<(Option<CompactString>, CompactString)>,
    /// Grouped identifiers that did not resolve, as written.
    written: foldhash::HashSet<String>,
    /// Other grouped expressions.
    exprs: Vec<&'s Expr>,
}

/// Whether two literals are the same value as written (spans aside).
fn same_literal(a: &Literal, b: &Literal) -> bool {
    match (a, b) {
        (Literal::Number(x), Literal::Number(y)) => x == y,
        (Literal::String(x), Literal::String(y)) | (Literal::Binary(x), Literal::Binary(y)) => {
            x.value == y.value
        }
        (Literal::Boolean(x), Literal::Boolean(y)) => x == y,
        (Literal::Null, Literal::Null) | (Literal::Unknown, Literal::Unknown) => true,
        (
            Literal::Typed {
                type_name: t1,
                value: v1,
            },
            Literal::Typed {
                type_name: t2,
                value: v2,
            },
        ) => t1 == t2 && v1.value == v2.value,
        (
            Literal::Interval {
                negative: n1,
                value: v1,
                qualifier: q1,
            },
            Literal::Interval {
                negative: n2,
                value: v2,
                qualifier: q2,
            },
        ) => {
            n1 == n2
                && v1.value == v2.value
                && q1.start == q2.start
                && q1.end == q2.end
                && q1.start_precision == q2.start_precision
                && q1.start_fraction_precision == q2.start_fraction_precision
                && q1.end_precision == q2.end_precision
        }
        _ => false,
    }
}

/// Renames columns by an alias list (as many as the list names).
fn rename(cols: &Cols, names: &[Ident]) -> Cols {
    Rc::new(
        cols.iter()
            .enumerate()
            .map(|(i, c)| Col {
                name: names.get(i).map_or(c.name.clone(), |n| n.text.clone()),
                ..c.clone()
            })
            .collect(),
    )
}

/// The written text of a name (`t.c`).
fn written(n: &ObjectName) -> String {
    let mut s = String::new();
    for (i, p) in n.parts.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str(p.as_str());
    }
    s
}

/// Whether `e` is a call of a built-in aggregate function: `Some(windowed)`.
fn aggregate_call(e: &Expr) -> Option<bool> {
    let ExprKind::Function(call) = &e.kind else {
        return None;
    };
    if call.name.parts.len() != 1 {
        return None;
    }
    let f = functions::lookup(call.name.parts[0].as_str())?;
    (f.kind == FunctionKind::Aggregate).then_some(call.over.is_some())
}

/// Whether a SELECT aggregates (Calcite's `isAggregate`): GROUP BY, HAVING, or a built-in
/// aggregate call in its select list.
fn aggregating(s: &Select) -> bool {
    !s.group_by.is_empty()
        || s.having.is_some()
        || s.items.iter().any(|i| match i {
            SelectItem::Expr { expr, .. } => has_aggregate(expr),
            SelectItem::Wildcard { .. } => false,
        })
}

/// The first ORDER BY item that is an integer literal below 1 or above `columns` (Calcite's
/// `OrderExpressionExpander`, with Flink's conformance allowing ordinals: "Ordinal out of
/// range"). `-1` is a call, not a literal, and is not an ordinal.
fn ordinal_out_of_range(order: &[OrderItem], columns: usize) -> Option<NameProblem> {
    order.iter().find_map(|o| {
        let mut e = &o.expr;
        while let ExprKind::Nested(inner) = &e.kind {
            e = inner;
        }
        let ExprKind::Literal(Literal::Number(n)) = &e.kind else {
            return None;
        };
        if n.is_empty() || n.len() > 9 || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let value: usize = n.parse().ok()?;
        (value < 1 || value > columns).then(|| NameProblem::OrdinalOutOfRange {
            span: e.span,
            ordinal: n.to_string(),
            columns,
        })
    })
}

/// Whether `e` holds a built-in aggregate call without OVER (not in subqueries).
fn has_aggregate(e: &Expr) -> bool {
    let mut found = false;
    exprs::walk(e, &mut |x| found |= aggregate_call(x) == Some(false));
    found
}

/// The grouping expressions of a GROUP BY item (through ROLLUP, CUBE, GROUPING SETS and
/// rows); `false` when the item is of a form not modelled.
fn flatten_group<'s>(g: &'s Expr, out: &mut Vec<&'s Expr>) -> bool {
    match &g.kind {
        ExprKind::Row(items) => items.iter().all(|i| flatten_group(i, out)),
        ExprKind::Nested(inner) => flatten_group(inner, out),
        ExprKind::Function(call)
            if matches!(
                exprs::call_name(g).as_deref(),
                Some("ROLLUP" | "CUBE" | "GROUPING SETS" | "GROUPING_SETS")
            ) =>
        {
            call.args.iter().all(|a| flatten_group(&a.value, out))
        }
        _ => {
            out.push(g);
            true
        }
    }
}

/// Columns close to `name` (edit distance up to 2 for names longer than 3, or equal ignoring
/// case), best first, at most 3.
fn similar<'n>(name: &str, candidates: impl Iterator<Item = &'n str>) -> Vec<String> {
    let lower = name.to_lowercase();
    let mut out: Vec<(usize, &str)> = Vec::new();
    for c in candidates {
        if c == name || c.len().abs_diff(name.len()) > 2 {
            continue;
        }
        let d = strsim::levenshtein(&c.to_lowercase(), &lower);
        let d = if d == 0 { 0 } else { d + 1 };
        if (d == 0 || (name.chars().count() > 3 && d <= 3)) && !out.iter().any(|(_, o)| *o == c) {
            out.push((d, c));
        }
    }
    out.sort();
    out.into_iter()
        .take(3)
        .map(|(_, c)| c.to_string())
        .collect()
}

/// Calls `f` on each direct child expression of `e` (not subqueries).
fn children<'e>(e: &'e Expr, f: &mut impl FnMut(&'e Expr)) {
    match &e.kind {
        ExprKind::Unary { expr, .. }
        | ExprKind::Nested(expr)
        | ExprKind::Is { expr, .. }
        | ExprKind::Cast { expr, .. }
        | ExprKind::DoubleColonCast { expr, .. }
        | ExprKind::Field { expr, .. }
        | ExprKind::InSubquery { expr, .. } => f(expr),
        ExprKind::Binary { left, right, .. } | ExprKind::IsDistinctFrom { left, right, .. } => {
            f(left);
            f(right);
        }
        ExprKind::Between {
            expr, low, high, ..
        } => {
            f(expr);
            f(low);
            f(high);
        }
        ExprKind::InList { expr, list, .. } => {
            f(expr);
            list.iter().for_each(f);
        }
        ExprKind::Like {
            expr,
            pattern,
            escape,
            ..
        } => {
            f(expr);
            f(pattern);
            if let Some(x) = escape {
                f(x);
            }
        }
        ExprKind::Case {
            operand,
            whens,
            else_result,
        } => {
            if let Some(o) = operand {
                f(o);
            }
            for (c, r) in whens {
                f(c);
                f(r);
            }
            if let Some(x) = else_result {
                f(x);
            }
        }
        ExprKind::Function(call) => {
            call.args.iter().for_each(|a| f(&a.value));
            if let Some(x) = &call.filter {
                f(x);
            }
        }
        ExprKind::Row(items)
        | ExprKind::Array(items)
        | ExprKind::Map(items)
        | ExprKind::Multiset(items) => items.iter().for_each(f),
        ExprKind::Item { expr, index } => {
            f(expr);
            f(index);
        }
        ExprKind::Lambda { body, .. } => f(body),
        _ => {}
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
            ExprKind::TableArg(_, Some(span)) => Some(NameProblem::PartitionedRowTable {
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

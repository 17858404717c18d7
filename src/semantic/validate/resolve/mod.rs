//! The walk of [`super::validate`]: scopes per SELECT, queries and expressions; name
//! resolution is in [`names`], the relations of FROM clauses in [`relations`], the grouping
//! and aggregate checks in [`grouping`].

mod grouping;
pub(super) mod names;
mod relations;

use super::{ColumnTypes, HashMap, NameProblem, ResolvedColumn, Validation};
use crate::semantic::exprs::{self, Aggregation};
use crate::semantic::query::{self, Scope};
use crate::semantic::types::Type;
use crate::source::Span;
use crate::syntax::ast::*;
use compact_str::CompactString;
use grouping::{aggregate_call, aggregating};
use names::similar;
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
                self.grouped(h, g, "HAVING", false);
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
                        self.grouped(expr, g, "the select list", false);
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
        // In an aggregate SELECT, an ORDER BY item (not an alias, not an ordinal) is grouped
        // or aggregated; in a SELECT DISTINCT it is made of the select list.
        let distinct = self.distinct_grouping(s);
        for o in order {
            if self.failed() {
                return None;
            }
            let names_alias = self.expr_or_alias(&o.expr, &scope, outer, &aliases);
            let ordinal = matches!(o.expr.kind, ExprKind::Literal(_));
            if names_alias || ordinal {
                continue;
            }
            if let Some(g) = &grouping {
                self.grouped(&o.expr, g, "ORDER BY", false);
            } else if let Some(g) = &distinct {
                self.grouped(&o.expr, g, "ORDER BY", true);
            }
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
    /// Whether the expression names an alias (then it is not resolved here).
    fn expr_or_alias(
        &mut self,
        e: &Expr,
        scope: &SelectScope,
        outer: &[&SelectScope],
        aliases: &[(&str, Span, &Expr)],
    ) -> bool {
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
        names_alias
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
                if let Some(Over::Spec(w)) = call.over.as_deref() {
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

/// Calls `f` on each direct child expression of `e` (not subqueries).
fn children<'e>(e: &'e Expr, f: &mut impl FnMut(&'e Expr)) {
    e.for_each_child(f);
}

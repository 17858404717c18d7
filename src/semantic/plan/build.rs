//! Builds the plan of a query from its syntax tree and the session's catalog.

use super::keys::{self, Origin};
use super::{assign_before, producer, Kinds, Node, Op, PlanColumn, StreamProblem, TimeAttr};
use crate::semantic::catalog::{ColumnKind, ObjectDef, TableDef};
use crate::semantic::exprs::{self, call_name};
use crate::semantic::functions::{self, FunctionKind};
use crate::semantic::options::catalogs;
use crate::semantic::query::Scope;
use crate::semantic::types::{Kind, Type};
use crate::source::Span;
use crate::syntax::ast::{
    BinaryOp, Expr, ExprKind, FunctionCall, JoinKind, ObjectName, Over, Query, Select, SelectItem,
    SetExpr, SetOperator, TableAlias, TableRef,
};
use compact_str::{format_compact, CompactString};
use std::collections::HashMap;

/// Views nested deeper than this are not planned.
const MAX_DEPTH: usize = 24;

/// The sink a pipeline writes.
#[derive(Debug, Clone)]
pub struct SinkTarget {
    /// Its full name, as Flink prints it in messages (`cat.db.t`).
    pub name: String,
    /// The name as written.
    pub span: Span,
    /// Its `connector` option.
    pub connector: Option<String>,
    /// Its `format` (or `value.format`) option.
    pub format: Option<String>,
}

/// A planned pipeline: its plan (when its query could be planned) and the first streaming
/// problem Flink's planner would report.
#[derive(Debug, Clone, Default)]
pub struct Planned {
    /// The plan.
    pub root: Option<Node>,
    /// The first problem.
    pub problem: Option<StreamProblem>,
}

/// What a sink accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Accepts {
    InsertOnly,
    Changes { before: bool },
}

fn format_kinds(format: &str, decode: bool) -> Option<Kinds> {
    let caps = catalogs().format(format)?.changelog.as_ref()?;
    let mode = if decode { &caps.decode } else { &caps.encode };
    match mode.as_deref()? {
        "insert-only" => Some(Kinds::INSERT_ONLY),
        "all" => Some(Kinds::ALL),
        _ => None,
    }
}

fn sink_accepts(connector: &str, format: Option<&str>) -> Option<Accepts> {
    let caps = catalogs().connector(connector)?.changelog.as_ref()?;
    match caps.sink.as_deref()? {
        "insert-only" => Some(Accepts::InsertOnly),
        "all" => Some(Accepts::Changes { before: true }),
        "all-but-update-before" | "upsert" => Some(Accepts::Changes { before: false }),
        "format" => {
            let k = format_kinds(format?, false)?;
            Some(if k.insert_only() {
                Accepts::InsertOnly
            } else {
                Accepts::Changes { before: true }
            })
        }
        _ => None,
    }
}

fn source_kinds(t: &TableDef) -> Option<Kinds> {
    let connector = t.option("connector")?.value.trim().to_string();
    let caps = catalogs().connector(&connector)?.changelog.as_ref()?;
    match caps.source.as_deref()? {
        "insert-only" => Some(Kinds::INSERT_ONLY),
        // The CDC sources' `scan.read-changelog-as-append-only.enabled` (MySqlTableSource).
        "all"
            if t.option("scan.read-changelog-as-append-only.enabled")
                .is_some_and(|o| o.value.trim().eq_ignore_ascii_case("true")) =>
        {
            Some(Kinds::INSERT_ONLY)
        }
        "upsert" | "all" => Some(Kinds::ALL),
        "format" => {
            let f = t.option("value.format").or_else(|| t.option("format"))?;
            format_kinds(f.value.trim(), true)
        }
        _ => None,
    }
}

/// Plans `query` written into `sink` and checks it: Flink's first streaming problem, if any.
pub fn plan_sink(query: &Query, scope: &dyn Scope, sink: &SinkTarget) -> Planned {
    let mut b = Builder::new(scope);
    let input = b.query(query);
    let mut problem = b.problem.take();
    let accepts = sink
        .connector
        .as_deref()
        .and_then(|c| sink_accepts(c, sink.format.as_deref()));
    let mut root = Node {
        op: Op::Sink,
        detail: format!("table=[{}]", sink.name),
        exact: false,
        columns: input.columns.clone(),
        kinds: None,
        before: false,
        unique_keys: Vec::new(),
        inputs: vec![input],
        span: sink.span,
    };
    let before = match accepts {
        Some(Accepts::Changes { before }) => before,
        _ => false,
    };
    for input in &mut root.inputs {
        assign_before(input, before);
    }
    if problem.is_none() && accepts == Some(Accepts::InsertOnly) && !b.unknown_inputs {
        let input = &root.inputs[0];
        if input.fully_known() && input.kinds.is_some_and(|k| !k.insert_only()) {
            let p = producer(input);
            if let Some(k) = p.kinds {
                let changes = match (k.update, k.delete) {
                    (true, true) => "update and delete",
                    (true, false) => "update",
                    _ => "delete",
                };
                problem = Some(StreamProblem::UpdatesIntoInsertOnlySink {
                    span: p.span,
                    sink_span: sink.span,
                    sink: sink.name.clone(),
                    connector: sink.connector.clone().unwrap_or_default(),
                    changes: changes.to_string(),
                    node: p.op.name(),
                    description: p.description(),
                    exact: p.exact,
                });
            }
        }
    }
    Planned {
        root: Some(root),
        problem,
    }
}

/// Plans a query run on its own (a SELECT: its result is collected, which accepts every
/// change) and checks it.
pub fn plan_query(query: &Query, scope: &dyn Scope) -> Planned {
    let mut b = Builder::new(scope);
    let mut root = b.query(query);
    assign_before(&mut root, true);
    Planned {
        root: Some(root),
        problem: b.problem.take(),
    }
}

struct Builder<'s> {
    scope: &'s dyn Scope,
    ctes: Vec<(CompactString, Node)>,
    /// The span nodes get while a view's query is planned (the view's reference).
    anchor: Option<Span>,
    depth: usize,
    problem: Option<StreamProblem>,
    /// Something the pipeline reads is not modelled or not known (a table the session does
    /// not see, a connector without data, a UDF).
    unknown_inputs: bool,
}

fn unknown(span: Span) -> Node {
    Node {
        op: Op::Unknown,
        detail: String::new(),
        exact: false,
        columns: Vec::new(),
        kinds: None,
        before: false,
        unique_keys: Vec::new(),
        inputs: Vec::new(),
        span,
    }
}

fn column(name: &str, time: TimeAttr, data_type: Option<Type>) -> PlanColumn {
    PlanColumn {
        name: name.into(),
        relation: None,
        time,
        data_type,
        origin: Origin::Unknown,
    }
}

fn timestamp3() -> Option<Type> {
    Some(Type {
        kind: Kind::Timestamp(3),
        nullable: false,
    })
}

/// Columns by name: a select list of N items over M columns costs N + M, not N x M.
struct Columns<'c> {
    columns: &'c [PlanColumn],
    by_name: HashMap<&'c str, Vec<usize>>,
}

impl<'c> Columns<'c> {
    fn new(columns: &'c [PlanColumn]) -> Columns<'c> {
        let mut by_name: HashMap<&'c str, Vec<usize>> = HashMap::new();
        for (i, c) in columns.iter().enumerate() {
            by_name.entry(c.name.as_str()).or_default().push(i);
        }
        Columns { columns, by_name }
    }

    /// The one column a written name (`n` or `r.n`) refers to; `None` when none or several.
    fn lookup(&self, name: &ObjectName) -> Option<&'c PlanColumn> {
        let (relation, n) = match name.parts.as_slice() {
            [n] => (None, n.text.as_str()),
            [r, n] => (Some(r.text.as_str()), n.text.as_str()),
            _ => return None,
        };
        let mut found = None;
        for &i in self.by_name.get(n)? {
            let c = &self.columns[i];
            if relation.is_some_and(|r| c.relation.as_deref() != Some(r)) {
                continue;
            }
            if found.is_some() {
                return None;
            }
            found = Some(c);
        }
        found
    }
}

/// Whether `e` calls a function that is not built in (a UDF: its kind is unknown).
fn has_unknown_call(e: &Expr) -> bool {
    let mut found = false;
    exprs::walk(e, &mut |x| {
        if let ExprKind::Function(call) = &x.kind {
            if call.name.parts.len() != 1
                || functions::lookup(call.name.last().text.as_str()).is_none()
            {
                found = true;
            }
        }
        if matches!(
            x.kind,
            ExprKind::Subquery(_) | ExprKind::Exists(_) | ExprKind::InSubquery { .. }
        ) {
            found = true;
        }
    });
    found
}

fn builtin_kind(call: &FunctionCall) -> Option<FunctionKind> {
    if call.name.parts.len() != 1 {
        return None;
    }
    functions::lookup(call.name.last().text.as_str()).map(|f| f.kind)
}

/// A built-in aggregate call without OVER.
fn is_agg_call(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Function(call) => {
            call.over.is_none() && builtin_kind(call) == Some(FunctionKind::Aggregate)
        }
        _ => false,
    }
}

fn contains_agg(e: &Expr) -> bool {
    let mut found = false;
    exprs::walk(e, &mut |x| found |= is_agg_call(x));
    found
}

fn contains_over(e: &Expr) -> bool {
    let mut found = false;
    exprs::walk(e, &mut |x| {
        if let ExprKind::Function(call) = &x.kind {
            found |= call.over.is_some();
        }
    });
    found
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Nested(inner) => strip(inner),
        _ => e,
    }
}

/// A written name for an expression in Flink's descriptions: a column's name, else `$f<i>`.
fn ident_name(e: &Expr) -> Option<CompactString> {
    match &strip(e).kind {
        ExprKind::Identifier(n) => Some(n.last().text.clone()),
        _ => None,
    }
}

/// The time attribute of an expression over `columns`.
fn expr_time(e: &Expr, columns: &Columns<'_>) -> TimeAttr {
    let e = strip(e);
    match &e.kind {
        ExprKind::Identifier(n) => columns.lookup(n).map_or(TimeAttr::Unknown, |c| c.time),
        _ if exprs::is_proctime(e) => TimeAttr::Proctime,
        _ if has_unknown_call(e) => TimeAttr::Unknown,
        _ => TimeAttr::None,
    }
}

fn expr_type(e: &Expr, columns: &Columns<'_>) -> Option<Type> {
    match &strip(e).kind {
        ExprKind::Identifier(n) => columns.lookup(n).and_then(|c| c.data_type.clone()),
        _ => None,
    }
}

/// Time attributes do not survive a regular join, a group aggregate, a CAST or an
/// expression: Flink materializes them.
fn lose_time(columns: &mut [PlanColumn]) {
    for c in columns {
        if matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime) {
            c.time = TimeAttr::None;
        }
    }
}

fn kinds_of(nodes: &[&Node]) -> Option<Kinds> {
    let mut out = Kinds::default();
    for n in nodes {
        out = out.union(n.kinds?);
    }
    Some(out)
}

/// The kinds a group aggregate produces over an input producing `input`.
fn aggregate_kinds(input: Option<Kinds>) -> Option<Kinds> {
    input.map(|k| {
        let mut out = Kinds::INSERT_UPDATE;
        out.delete = !k.insert_only();
        out
    })
}

/// A ROW_NUMBER item of a select list: (partition keys, order keys with DESC, alias).
struct RowNumber<'q> {
    partition: &'q [Expr],
    order: Vec<(&'q Expr, bool)>,
    alias: CompactString,
}

fn row_number<'q>(select: &'q Select) -> Option<(usize, RowNumber<'q>)> {
    select.items.iter().enumerate().find_map(|(i, item)| {
        let SelectItem::Expr { expr, alias, .. } = item else {
            return None;
        };
        let ExprKind::Function(call) = &strip(expr).kind else {
            return None;
        };
        if call_name(strip(expr)).as_deref() != Some("ROW_NUMBER") {
            return None;
        }
        let Some(Over::Spec(spec)) = &call.over else {
            return None;
        };
        Some((
            i,
            RowNumber {
                partition: &spec.partition_by,
                order: spec
                    .order_by
                    .iter()
                    .map(|o| (&o.expr, o.descending))
                    .collect(),
                alias: alias.as_ref()?.text.clone(),
            },
        ))
    })
}

/// The rank range end of `WHERE rn = 1`, `rn <= n`, `rn < n` (and `AND`-ed conditions on
/// other columns are not modelled: `None`).
fn rank_end(filter: &Expr, alias: &str) -> Option<i64> {
    let ExprKind::Binary { op, left, right } = &strip(filter).kind else {
        return None;
    };
    let name = ident_name(left)?;
    if name != alias {
        return None;
    }
    let ExprKind::Literal(crate::syntax::ast::Literal::Number(text)) = &strip(right).kind else {
        return None;
    };
    let n: i64 = text.parse().ok()?;
    match op {
        BinaryOp::Eq if n == 1 => Some(1),
        BinaryOp::LtEq => Some(n),
        BinaryOp::Lt => Some(n - 1),
        _ => None,
    }
}

impl<'s> Builder<'s> {
    fn new(scope: &'s dyn Scope) -> Builder<'s> {
        Builder {
            scope,
            ctes: Vec::new(),
            anchor: None,
            depth: 0,
            problem: None,
            unknown_inputs: false,
        }
    }

    fn at(&self, span: Span) -> Span {
        self.anchor.unwrap_or(span)
    }

    fn unknown(&mut self, span: Span) -> Node {
        self.unknown_inputs = true;
        unknown(self.at(span))
    }

    fn query(&mut self, q: &Query) -> Node {
        if self.depth > MAX_DEPTH {
            return self.unknown(q.span);
        }
        self.depth += 1;
        let saved = self.ctes.len();
        for cte in &q.with {
            let mut node = self.query(&cte.query);
            if let Some(cols) = &cte.columns {
                rename(
                    &mut node,
                    cols.names.iter().map(|c| c.text.clone()).collect(),
                );
            }
            self.ctes.push((cte.name.text.clone(), node));
        }
        let node = if !q.order_by.is_empty() || q.limit.is_some() || q.offset.is_some() {
            // Sort, SortLimit, Limit: not modelled.
            self.unknown(q.span)
        } else {
            self.set_expr(&q.body)
        };
        self.ctes.truncate(saved);
        self.depth -= 1;
        node
    }

    fn set_expr(&mut self, body: &SetExpr) -> Node {
        match body {
            SetExpr::Select(s) => self.select(s),
            SetExpr::Query(q) => self.query(q),
            SetExpr::Values(v) => {
                let columns = v
                    .rows
                    .first()
                    .map(|row| {
                        (0..row.len())
                            .map(|i| column(&format!("EXPR${i}"), TimeAttr::None, None))
                            .collect()
                    })
                    .unwrap_or_default();
                Node {
                    op: Op::Values,
                    detail: String::new(),
                    exact: false,
                    columns,
                    kinds: Some(Kinds::INSERT_ONLY),
                    before: false,
                    unique_keys: Vec::new(),
                    inputs: Vec::new(),
                    span: self.at(v.span),
                }
            }
            SetExpr::Table(name) => self.named(name, None, name.span),
            SetExpr::SetOperation {
                op: SetOperator::Union,
                all,
                left,
                right,
                span,
            } => {
                let l = self.set_expr(left);
                let r = self.set_expr(right);
                let mut columns = l.columns.clone();
                for (c, other) in columns.iter_mut().zip(&r.columns) {
                    if c.time != other.time {
                        c.time = TimeAttr::Unknown;
                    }
                    c.relation = None;
                }
                let kinds = kinds_of(&[&l, &r]);
                let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
                let union = Node {
                    op: Op::Union,
                    detail: format!("all=[true], union=[{}]", names.join(", ")),
                    exact: false,
                    columns: columns.clone(),
                    kinds,
                    before: false,
                    unique_keys: Vec::new(),
                    inputs: vec![l, r],
                    span: self.at(*span),
                };
                if *all {
                    union
                } else {
                    // UNION (distinct): a group aggregate on every column.
                    let mut out = columns;
                    lose_time(&mut out);
                    keys::identity(&mut out);
                    let names: Vec<CompactString> = out.iter().map(|c| c.name.clone()).collect();
                    Node {
                        op: Op::GroupAggregate,
                        detail: format!(
                            "groupBy=[{}], select=[{}]",
                            names.join(", "),
                            names.join(", ")
                        ),
                        exact: true,
                        columns: out,
                        kinds: aggregate_kinds(union.kinds),
                        before: false,
                        unique_keys: vec![names],
                        inputs: vec![union],
                        span: self.at(*span),
                    }
                }
            }
            SetExpr::SetOperation { span, .. } => self.unknown(*span),
        }
    }

    /// A table, view or WITH query by name.
    fn named(&mut self, name: &ObjectName, alias: Option<&TableAlias>, span: Span) -> Node {
        let relation: CompactString =
            alias.map_or_else(|| name.last().text.clone(), |a| a.name.text.clone());
        if name.parts.len() == 1 {
            if let Some((_, node)) = self.ctes.iter().rev().find(|(n, _)| *n == name.last().text) {
                let mut node = node.clone();
                set_relation(&mut node, &relation, alias);
                return node;
            }
        }
        let Some((qname, object)) = self.scope.lookup(name) else {
            return self.unknown(span);
        };
        if object.incomplete {
            return self.unknown(span);
        }
        let mut node = match &object.def {
            ObjectDef::Table(t) => {
                let rowtime = t
                    .watermark
                    .as_ref()
                    .filter(|w| w.column.len() == 1)
                    .map(|w| w.column[0].clone());
                let columns = t
                    .columns
                    .iter()
                    .map(|c| {
                        let time = if rowtime.as_deref() == Some(c.name.as_str()) {
                            TimeAttr::Rowtime
                        } else if matches!(&c.kind, ColumnKind::Computed(e) if exprs::is_proctime(e))
                        {
                            TimeAttr::Proctime
                        } else {
                            TimeAttr::None
                        };
                        column(&c.name, time, c.data_type.clone())
                    })
                    .collect();
                let kinds = source_kinds(t);
                if kinds.is_none() {
                    self.unknown_inputs = true;
                }
                let unique_keys = t
                    .primary_key
                    .as_ref()
                    .map(|pk| vec![pk.columns.clone()])
                    .unwrap_or_default();
                Node {
                    op: Op::Scan,
                    detail: format!(
                        "table=[[{}, {}, {}]]",
                        qname.catalog, qname.database, qname.object
                    ),
                    exact: false,
                    columns,
                    kinds,
                    before: false,
                    unique_keys,
                    inputs: Vec::new(),
                    span: self.at(span),
                }
            }
            ObjectDef::View(v) => {
                let Some(query) = v.query.clone() else {
                    return self.unknown(span);
                };
                let saved_anchor = self.anchor;
                let saved_ctes = std::mem::take(&mut self.ctes);
                self.anchor = Some(self.at(span));
                let mut node = self.query(&query);
                self.anchor = saved_anchor;
                self.ctes = saved_ctes;
                if let Some(cols) = &v.columns {
                    rename(&mut node, cols.clone());
                }
                node
            }
            ObjectDef::Materialized(_) => return self.unknown(span),
        };
        set_relation(&mut node, &relation, alias);
        node
    }

    fn table_ref(&mut self, t: &TableRef) -> Node {
        match t {
            TableRef::Named {
                name,
                alias,
                span,
                system_time: None,
                ..
            } => self.named(name, alias.as_ref(), *span),
            TableRef::Subquery {
                lateral: false,
                query,
                alias,
                ..
            } => {
                let mut node = self.query(query);
                if let Some(a) = alias {
                    set_relation(&mut node, &a.name.text, Some(a));
                }
                node
            }
            TableRef::Nested { inner, alias, .. } => {
                let mut node = self.table_ref(inner);
                if let Some(a) = alias {
                    set_relation(&mut node, &a.name.text, Some(a));
                }
                node
            }
            TableRef::Function {
                lateral: false,
                call,
                alias,
                span,
            } => {
                let mut node = self.window_tvf(call, *span);
                if let Some(a) = alias {
                    set_relation(&mut node, &a.name.text, Some(a));
                }
                node
            }
            TableRef::Join {
                left,
                right,
                kind,
                on,
                span,
                ..
            } => self.join(left, right, *kind, on.as_deref(), *span),
            other => self.unknown(other.span()),
        }
    }

    /// TUMBLE / HOP / CUMULATE / SESSION over a table: the input's columns and
    /// `window_start`, `window_end`, `window_time`.
    fn window_tvf(&mut self, call: &Expr, span: Span) -> Node {
        let ExprKind::Function(f) = &call.kind else {
            return self.unknown(span);
        };
        let name = call_name(call).unwrap_or_default();
        if !matches!(name.as_str(), "TUMBLE" | "HOP" | "CUMULATE" | "SESSION") {
            return self.unknown(span);
        }
        let mut table = None;
        let mut descriptor = None;
        for arg in &f.args {
            match &arg.value.kind {
                ExprKind::TableArg(t) if table.is_none() => table = Some(t),
                ExprKind::Descriptor(cols) if descriptor.is_none() => descriptor = Some(cols),
                _ => {}
            }
        }
        let (Some(table), Some(descriptor)) = (table, descriptor) else {
            return self.unknown(span);
        };
        let [timecol] = descriptor.as_slice() else {
            return self.unknown(span);
        };
        let input = self.named(table, None, table.span);
        if input.op == Op::Unknown && input.columns.is_empty() {
            return input;
        }
        let Some(col) = input
            .columns
            .iter()
            .find(|c| c.name == timecol.text)
            .cloned()
        else {
            return self.unknown(span);
        };
        if col.time == TimeAttr::None && self.problem.is_none() && !self.unknown_inputs {
            if let Some(type_text) = col.data_type.as_ref().and_then(super::summary_type) {
                self.problem = Some(StreamProblem::WindowOnNonTimeAttribute {
                    span: self.at(timecol.span),
                    function: name.clone(),
                    column: timecol.text.to_string(),
                    type_text,
                    lost: None,
                });
            }
        }
        let mut columns = input.columns.clone();
        let wt = Type {
            kind: col
                .data_type
                .as_ref()
                .map_or(Kind::Timestamp(3), |t| t.kind.clone()),
            nullable: false,
        };
        columns.push(column("window_start", TimeAttr::None, timestamp3()));
        columns.push(column("window_end", TimeAttr::None, timestamp3()));
        columns.push(column("window_time", col.time, Some(wt)));
        Node {
            op: Op::WindowTableFunction,
            detail: format!("window=[{name}(time_col=[{}])]", col.name),
            exact: false,
            columns,
            kinds: input.kinds,
            before: false,
            unique_keys: Vec::new(),
            inputs: vec![input],
            span: self.at(span),
        }
    }

    fn join(
        &mut self,
        left: &TableRef,
        right: &TableRef,
        kind: JoinKind,
        on: Option<&Expr>,
        span: Span,
    ) -> Node {
        let l = self.table_ref(left);
        // `FOR SYSTEM_TIME AS OF`: a temporal or lookup join.
        if let TableRef::Named {
            name,
            alias,
            span: rspan,
            system_time: Some(_),
            ..
        } = right
        {
            let mut r = self.named(name, alias.as_ref(), *rspan);
            lose_time(&mut r.columns);
            let mut columns = l.columns.clone();
            columns.extend(r.columns.iter().cloned());
            return Node {
                op: Op::TemporalJoin,
                detail: String::new(),
                exact: false,
                columns,
                kinds: None,
                before: false,
                unique_keys: Vec::new(),
                inputs: vec![l, r],
                span: self.at(span),
            };
        }
        let r = self.table_ref(right);
        let mut columns = l.columns.clone();
        columns.extend(r.columns.iter().cloned());
        let inner = matches!(kind, JoinKind::Inner | JoinKind::Comma | JoinKind::Cross);
        // An interval join: an inner join whose condition bounds one side's time attribute by
        // the other's.
        let (left, right) = (Columns::new(&l.columns), Columns::new(&r.columns));
        let interval = inner
            && on.is_some_and(|e| {
                let mut sides = (false, false);
                exprs::walk(e, &mut |x| {
                    if let ExprKind::Identifier(n) = &x.kind {
                        let is_time = |cols: &Columns<'_>| {
                            cols.lookup(n).is_some_and(|c| {
                                matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime)
                            })
                        };
                        sides.0 |= is_time(&left);
                        sides.1 |= is_time(&right);
                    }
                });
                sides.0 && sides.1
            });
        let kinds = kinds_of(&[&l, &r]);
        let (op, kinds) = if interval {
            for c in &mut columns {
                c.time = TimeAttr::Unknown;
            }
            (Op::IntervalJoin, kinds.filter(|k| k.insert_only()))
        } else {
            lose_time(&mut columns);
            let out = if inner {
                kinds
            } else {
                kinds.map(|_| Kinds::ALL)
            };
            (Op::Join, out)
        };
        let join_type = match kind {
            JoinKind::Inner | JoinKind::Comma | JoinKind::Cross => "InnerJoin",
            JoinKind::Left => "LeftOuterJoin",
            JoinKind::Right => "RightOuterJoin",
            JoinKind::Full => "FullOuterJoin",
        };
        Node {
            op,
            detail: format!("joinType=[{join_type}]"),
            exact: false,
            columns,
            kinds,
            before: false,
            unique_keys: Vec::new(),
            inputs: vec![l, r],
            span: self.at(span),
        }
    }

    fn select(&mut self, s: &Select) -> Node {
        // Top-N and deduplication: a filter on a ROW_NUMBER of the subquery below.
        if let Some(node) = self.rank(s) {
            return node;
        }
        let input = match &s.from {
            Some(t) => self.table_ref(t),
            None => Node {
                op: Op::Values,
                detail: String::new(),
                exact: false,
                columns: Vec::new(),
                kinds: Some(Kinds::INSERT_ONLY),
                before: false,
                unique_keys: Vec::new(),
                inputs: Vec::new(),
                span: self.at(s.span),
            },
        };
        let exprs_of = || {
            s.items
                .iter()
                .filter_map(|i| match i {
                    SelectItem::Expr { expr, .. } => Some(expr),
                    _ => None,
                })
                .chain(s.selection.iter())
                .chain(s.having.iter())
                .chain(s.group_by.iter())
                .chain(s.qualify.iter())
        };
        if exprs_of().any(has_unknown_call) {
            self.unknown_inputs = true;
            let mut n = unknown(self.at(s.span));
            n.inputs = vec![input];
            return n;
        }
        if s.qualify.is_some() {
            return self.unknown(s.span);
        }
        let aggregating = !s.group_by.is_empty()
            || s.having.is_some()
            || s.items
                .iter()
                .any(|i| matches!(i, SelectItem::Expr { expr, .. } if contains_agg(expr)));
        let over = s
            .items
            .iter()
            .any(|i| matches!(i, SelectItem::Expr { expr, .. } if contains_over(expr)));
        let mut node = if aggregating {
            self.aggregate(s, input)
        } else if over {
            if s.items.iter().any(|i| {
                matches!(i, SelectItem::Expr { expr, .. } if call_name(strip(expr)).as_deref() == Some("ROW_NUMBER"))
            }) {
                // A ROW_NUMBER without a rank filter above it: not modelled.
                let mut n = unknown(self.at(s.span));
                n.inputs = vec![input];
                return n;
            }
            let columns = self.project(s, &input.columns);
            Node {
                op: Op::OverAggregate,
                detail: String::new(),
                exact: false,
                columns,
                kinds: input.kinds.filter(|k| k.insert_only()),
                before: false,
                unique_keys: Vec::new(),
                inputs: vec![input],
                span: self.at(s.span),
            }
        } else {
            let columns = self.project(s, &input.columns);
            let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
            Node {
                op: Op::Calc,
                detail: format!("select=[{}]", names.join(", ")),
                exact: false,
                kinds: input.kinds,
                columns,
                before: false,
                unique_keys: Vec::new(),
                inputs: vec![input],
                span: self.at(s.span),
            }
        };
        if s.distinct {
            let mut columns = node.columns.clone();
            lose_time(&mut columns);
            keys::identity(&mut columns);
            let names: Vec<CompactString> = columns.iter().map(|c| c.name.clone()).collect();
            node = Node {
                op: Op::GroupAggregate,
                detail: format!(
                    "groupBy=[{}], select=[{}]",
                    names.join(", "),
                    names.join(", ")
                ),
                exact: true,
                kinds: aggregate_kinds(node.kinds),
                columns,
                before: false,
                unique_keys: vec![names],
                inputs: vec![node],
                span: self.at(s.span),
            };
        }
        node
    }

    /// The columns of a non-aggregating select list over `input`.
    fn project(&self, s: &Select, input: &[PlanColumn]) -> Vec<PlanColumn> {
        let mut out = Vec::new();
        let by_name = Columns::new(input);
        for (i, item) in s.items.iter().enumerate() {
            match item {
                SelectItem::Expr { expr, alias, .. } => {
                    let name = alias
                        .as_ref()
                        .map(|a| a.text.clone())
                        .or_else(|| ident_name(expr))
                        .unwrap_or_else(|| format_compact!("EXPR${i}"));
                    let time = expr_time(expr, &by_name);
                    let origin = match &strip(expr).kind {
                        ExprKind::Identifier(n) => keys::reference(input, by_name.lookup(n)),
                        _ => Origin::Expr,
                    };
                    out.push(PlanColumn {
                        origin,
                        ..column(&name, time, expr_type(expr, &by_name))
                    });
                }
                SelectItem::Wildcard { qualifier, .. } => {
                    for (k, c) in input.iter().enumerate() {
                        let keep = match qualifier {
                            Some(q) => c.relation.as_deref() == Some(q.last().text.as_str()),
                            None => true,
                        };
                        if keep {
                            let mut c = c.clone();
                            c.relation = None;
                            c.origin = Origin::Ref(k);
                            out.push(c);
                        }
                    }
                }
            }
        }
        out
    }

    /// A select with GROUP BY or aggregates: a group aggregate, a window aggregate over a
    /// window table function, or a legacy group window aggregate.
    fn aggregate(&mut self, s: &Select, input: Node) -> Node {
        let legacy = s.group_by.iter().any(|g| {
            matches!(
                call_name(strip(g)).as_deref(),
                Some("TUMBLE" | "HOP" | "SESSION")
            )
        });
        let keys: Vec<&Expr> = s.group_by.iter().collect();
        let key_names: Vec<Option<CompactString>> = keys.iter().map(|k| ident_name(k)).collect();
        let windowed = input.op == Op::WindowTableFunction
            && key_names
                .iter()
                .any(|k| k.as_deref() == Some("window_start"))
            && key_names.iter().any(|k| k.as_deref() == Some("window_end"));
        if keys
            .iter()
            .any(|k| matches!(strip(k).kind, ExprKind::Row(_)))
            || keys.iter().any(|k| {
                matches!(
                    call_name(strip(k)).as_deref(),
                    Some("ROLLUP" | "CUBE" | "GROUPING SETS" | "GROUPING_SETS")
                )
            })
        {
            let mut n = unknown(self.at(s.span));
            n.inputs = vec![input];
            return n;
        }
        // The aggregate's input projection: grouping keys, then the aggregate calls'
        // arguments.
        let mut projected: Vec<String> = key_names
            .iter()
            .enumerate()
            .map(|(i, k)| {
                k.as_ref()
                    .map_or_else(|| format!("$f{i}"), |k| k.to_string())
            })
            .collect();
        let mut calls: Vec<String> = Vec::new();
        let mut exact = true;
        let mut columns = Vec::new();
        let by_name = Columns::new(&input.columns);
        let window_time = input
            .columns
            .iter()
            .find(|c| c.name == "window_time")
            .map(|c| c.time);
        for (i, item) in s.items.iter().enumerate() {
            let SelectItem::Expr { expr, alias, .. } = item else {
                exact = false;
                continue;
            };
            let bare = strip(expr);
            let name = alias
                .as_ref()
                .map(|a| a.text.clone())
                .or_else(|| ident_name(bare))
                .unwrap_or_else(|| format_compact!("EXPR${i}"));
            let time = match (windowed, ident_name(bare).as_deref()) {
                (true, Some("window_time")) => window_time.unwrap_or(TimeAttr::Unknown),
                _ => TimeAttr::None,
            };
            // MIN and MAX keep their argument's type (nullable).
            let data_type = match &bare.kind {
                ExprKind::Function(call)
                    if matches!(call_name(bare).as_deref(), Some("MIN" | "MAX"))
                        && call.args.len() == 1 =>
                {
                    expr_type(&call.args[0].value, &by_name).map(|t| Type {
                        nullable: true,
                        ..t
                    })
                }
                _ => expr_type(bare, &by_name),
            };
            let origin = match &bare.kind {
                _ if is_agg_call(bare) => Origin::Aggregate,
                ExprKind::Identifier(n) => keys::reference(&input.columns, by_name.lookup(n)),
                _ => Origin::Expr,
            };
            columns.push(PlanColumn {
                origin,
                ..column(&name, time, data_type)
            });
            if is_agg_call(bare) {
                let ExprKind::Function(call) = &bare.kind else {
                    continue;
                };
                let fname = call.name.last().text.to_ascii_uppercase();
                let args: Vec<String> = if call.star || call.args.is_empty() {
                    vec!["*".to_string()]
                } else {
                    call.args
                        .iter()
                        .map(|a| {
                            let text = ident_name(&a.value).map_or_else(
                                || {
                                    let p = format!("$f{}", projected.len());
                                    projected.push(p.clone());
                                    p
                                },
                                |n| n.to_string(),
                            );
                            if !projected.contains(&text) {
                                projected.push(text.clone());
                            }
                            text
                        })
                        .collect()
                };
                let distinct = if call.distinct { "DISTINCT " } else { "" };
                let text = format!("{fname}({distinct}{}) AS {name}", args.join(", "));
                if !calls.contains(&text) {
                    calls.push(text);
                }
                if call.filter.is_some() {
                    exact = false;
                }
            } else if contains_agg(bare) {
                exact = false;
            }
        }
        let group_keys: Vec<String> = projected[..key_names.len()].to_vec();
        let mut select = group_keys.clone();
        select.extend(calls);
        let detail = if group_keys.is_empty() {
            format!("select=[{}]", select.join(", "))
        } else {
            format!(
                "groupBy=[{}], select=[{}]",
                group_keys.join(", "),
                select.join(", ")
            )
        };
        let (op, kinds) = if legacy {
            (
                Op::GroupWindowAggregate,
                input.kinds.filter(|k| k.insert_only()),
            )
        } else if windowed {
            (Op::WindowAggregate, input.kinds.filter(|k| k.insert_only()))
        } else {
            (Op::GroupAggregate, aggregate_kinds(input.kinds))
        };
        let unique_keys: Vec<Vec<CompactString>> =
            if op == Op::GroupAggregate && !group_keys.is_empty() {
                vec![group_keys.iter().map(CompactString::from).collect()]
            } else {
                Vec::new()
            };
        // Calcite's AggregateRemoveRule: an aggregate grouping on a unique key of its input
        // (an aggregate below on the same keys) does nothing and is removed.
        if op == Op::GroupAggregate
            && !unique_keys.is_empty()
            && input
                .unique_keys
                .iter()
                .any(|k| k.iter().all(|c| unique_keys[0].contains(c)))
            && producer(&input).op == Op::GroupAggregate
        {
            let mut calc = input;
            keys::compose(&mut columns, &calc.columns);
            calc.columns = columns;
            return calc;
        }
        Node {
            op,
            detail,
            exact: exact && op == Op::GroupAggregate,
            columns,
            kinds,
            before: false,
            unique_keys,
            inputs: vec![input],
            span: self.at(s.span),
        }
    }

    /// `SELECT ... FROM (SELECT ..., ROW_NUMBER() OVER (...) AS rn FROM t) WHERE rn <= n`:
    /// a Rank (Flink's deduplication is a Rank with `rankEnd=1` ordered by a time attribute).
    fn rank(&mut self, s: &Select) -> Option<Node> {
        let Some(TableRef::Subquery {
            lateral: false,
            query,
            ..
        }) = &s.from
        else {
            return None;
        };
        let SetExpr::Select(inner) = &query.body else {
            return None;
        };
        if !query.with.is_empty() || !query.order_by.is_empty() || query.limit.is_some() {
            return None;
        }
        let (_, rn) = row_number(inner)?;
        let end = rank_end(s.selection.as_ref()?, &rn.alias)?;
        if inner.group_by.len() + usize::from(inner.having.is_some()) > 0 || inner.distinct {
            return None;
        }
        let from = inner.from.as_ref()?;
        let input = self.table_ref(from);
        if s.items
            .iter()
            .chain(inner.items.iter())
            .any(|i| matches!(i, SelectItem::Expr { expr, .. } if has_unknown_call(expr)))
        {
            return Some(self.unknown(s.span));
        }
        let [(order, desc)] = rn.order.as_slice() else {
            return Some(self.unknown(s.span));
        };
        let order_time = expr_time(order, &Columns::new(&input.columns));
        let append =
            end == 1 && !desc && matches!(order_time, TimeAttr::Rowtime | TimeAttr::Proctime);
        let kinds = if append {
            input.kinds.filter(|k| k.insert_only())
        } else {
            input.kinds.map(|_| Kinds::ALL)
        };
        let partition: Vec<String> = rn
            .partition
            .iter()
            .map(|p| ident_name(p).map_or_else(|| "?".to_string(), |n| n.to_string()))
            .collect();
        let order_name = ident_name(order).map_or_else(|| "?".to_string(), |n| n.to_string());
        // The Rank's input columns: the inner select's columns the outer query uses, then the
        // partition and order keys.
        let mut used: Vec<String> = Vec::new();
        let outer_refs: Vec<CompactString> = s
            .items
            .iter()
            .flat_map(|i| match i {
                SelectItem::Expr { expr, .. } => exprs::column_references(expr)
                    .into_iter()
                    .map(|(n, _)| CompactString::from(n))
                    .collect::<Vec<_>>(),
                SelectItem::Wildcard { .. } => vec![CompactString::from("*")],
            })
            .collect();
        let mut exact = true;
        for item in &inner.items {
            match item {
                SelectItem::Expr { expr, alias, .. } => {
                    if call_name(strip(expr)).as_deref() == Some("ROW_NUMBER") {
                        continue;
                    }
                    let Some(n) = alias
                        .as_ref()
                        .map(|a| a.text.clone())
                        .or_else(|| ident_name(expr))
                    else {
                        exact = false;
                        continue;
                    };
                    if outer_refs.iter().any(|r| *r == n || r == "*")
                        && !used.contains(&n.to_string())
                    {
                        used.push(n.to_string());
                    }
                }
                SelectItem::Wildcard { .. } => exact = false,
            }
        }
        for k in partition.iter().chain(std::iter::once(&order_name)) {
            if !used.contains(k) {
                used.push(k.clone());
            }
        }
        let strategy = if append {
            "AppendFastStrategy"
        } else {
            "UndefinedStrategy"
        };
        let order_text = match (order_time, append) {
            (TimeAttr::Rowtime, true) => format!("ROWTIME {order_name} ASC"),
            _ => format!("{order_name} {}", if *desc { "DESC" } else { "ASC" }),
        };
        let detail = format!(
            "strategy=[{strategy}], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd={end}], partitionBy=[{}], orderBy=[{order_text}], select=[{}]",
            partition.join(", "),
            used.join(", ")
        );
        // Output: the outer select over the inner select's columns.
        let inner_cols = self.project(inner, &input.columns);
        let mut inner_cols: Vec<PlanColumn> = inner_cols
            .into_iter()
            .filter(|c| c.name != rn.alias)
            .collect();
        if !append {
            lose_time(&mut inner_cols);
        }
        let columns = self.project(s, &inner_cols);
        let unique_keys = if end == 1 {
            vec![partition.iter().map(CompactString::from).collect()]
        } else {
            Vec::new()
        };
        let span = self.at(s.span);
        let rank = Node {
            op: Op::Rank,
            detail,
            exact,
            columns: columns.clone(),
            kinds,
            before: false,
            unique_keys,
            inputs: vec![input],
            span,
        };
        Some(rank)
    }
}

/// Renames a node's columns (`AS t (a, b)`, a view's or WITH query's column list).
fn rename(node: &mut Node, names: Vec<CompactString>) {
    if names.len() != node.columns.len() {
        return;
    }
    for (c, n) in node.columns.iter_mut().zip(names) {
        c.name = n;
    }
}

/// Sets the relation name of a node's columns (and renames them by the alias's column list).
fn set_relation(node: &mut Node, relation: &str, alias: Option<&TableAlias>) {
    if let Some(a) = alias {
        if !a.columns.is_empty() {
            rename(node, a.columns.iter().map(|c| c.text.clone()).collect());
        }
    }
    for c in &mut node.columns {
        c.relation = Some(relation.into());
    }
}

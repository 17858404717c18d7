//! Helpers shared by the builders: columns by name, expressions' time attributes and types,
//! aggregate and OVER calls.

use super::super::keys::Origin;
use super::super::{Kinds, Node, Op, PlanColumn, TimeAttr, WindowProp};
use crate::semantic::exprs::{self};
use crate::semantic::functions::{self, FunctionKind};
use crate::semantic::types::{Kind, Type};
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind, FunctionCall, ObjectName};
use compact_str::CompactString;

pub(super) fn unknown(span: Span) -> Node {
    Node {
        op: Op::Unknown,
        detail: String::new(),
        exact: false,
        columns: Vec::new(),
        kinds: None,
        before: false,
        unique_keys: Vec::new(),
        key_info: Default::default(),
        inputs: Vec::new(),
        span,
    }
}

pub(super) fn column(name: &str, time: TimeAttr, data_type: Option<Type>) -> PlanColumn {
    PlanColumn {
        name: name.into(),
        relation: None,
        time,
        data_type,
        origin: Origin::Unknown,
        window: WindowProp::None,
    }
}

/// The window columns of a node that Flink may or may not still see as a window's (through a
/// join, a UNION of two windows): [`WindowProp::Unknown`].
pub(super) fn forget_windows(columns: &mut [PlanColumn]) {
    for c in columns {
        if c.window != WindowProp::None {
            c.window = WindowProp::Unknown;
        }
    }
}

/// The window property of a column computed by `e` over `columns`: a column's own when `e`
/// names one; unknown when `e` is an expression over a window's column (Calcite may simplify
/// `CAST(window_start AS TIMESTAMP(3))` or `COALESCE(window_start, ...)` into the column);
/// none otherwise.
pub(super) fn expr_window(e: &Expr, columns: &Columns<'_>) -> WindowProp {
    let e = strip(e);
    if let ExprKind::Identifier(n) = &e.kind {
        return columns
            .lookup(n)
            .map_or(columns.missing_window(), |c| c.window);
    }
    if !columns.any_window {
        return WindowProp::None;
    }
    let mut found = false;
    exprs::walk(e, &mut |x| {
        if let ExprKind::Identifier(n) = &x.kind {
            found |= match columns.lookup(n) {
                Some(c) => c.window != WindowProp::None,
                None => n.parts.len() == 1,
            };
        }
    });
    if found {
        WindowProp::Unknown
    } else {
        WindowProp::None
    }
}

/// Flink's `WindowUtil.groupingContainsWindowStartEnd`: the window whose start and end are
/// both among `keys`; `Err(())` when that is not known (a key's window is unknown).
pub(super) fn window_of_keys(keys: &[WindowProp]) -> Result<Option<u32>, ()> {
    for k in keys {
        if let WindowProp::Start(n) = k {
            if keys.contains(&WindowProp::End(*n)) {
                return Ok(Some(*n));
            }
        }
    }
    if keys.contains(&WindowProp::Unknown) {
        return Err(());
    }
    Ok(None)
}

pub(super) fn timestamp3() -> Option<Type> {
    Some(Type {
        kind: Kind::Timestamp(3),
        nullable: false,
    })
}

/// Up to this many columns are searched in order; more are indexed by name.
const SCAN_LIMIT: usize = 16;

/// Columns by name: a select list of N items over M columns costs N + M, not N x M (a few
/// columns are searched in order, which costs less than building an index).
pub(super) struct Columns<'c> {
    columns: &'c [PlanColumn],
    by_name: Option<foldhash::HashMap<&'c str, Vec<usize>>>,
    /// Whether a column has a window property.
    pub(super) any_window: bool,
}

impl<'c> Columns<'c> {
    pub(super) fn new(columns: &'c [PlanColumn]) -> Columns<'c> {
        let by_name = (columns.len() > SCAN_LIMIT).then(|| {
            let mut by_name: foldhash::HashMap<&'c str, Vec<usize>> =
                foldhash::HashMap::with_capacity_and_hasher(columns.len(), Default::default());
            for (i, c) in columns.iter().enumerate() {
                by_name.entry(c.name.as_str()).or_default().push(i);
            }
            by_name
        });
        let any_window = columns.iter().any(|c| c.window != WindowProp::None);
        Columns {
            columns,
            by_name,
            any_window,
        }
    }

    /// The one column a written name (`n` or `r.n`) refers to; `None` when none or several.
    pub(super) fn lookup(&self, name: &ObjectName) -> Option<&'c PlanColumn> {
        self.index(name).map(|i| &self.columns[i])
    }

    /// The window property of a name that is ambiguous (a window over a window's columns) or
    /// not found: unknown when a column has one.
    pub(super) fn missing_window(&self) -> WindowProp {
        if self.any_window {
            WindowProp::Unknown
        } else {
            WindowProp::None
        }
    }

    /// The index of the one column a written name refers to ([`Columns::lookup`]).
    pub(super) fn index(&self, name: &ObjectName) -> Option<usize> {
        match name.parts.as_slice() {
            [n] => self.index_str(None, n.text.as_str()),
            [r, n] => self.index_str(Some(r.text.as_str()), n.text.as_str()),
            _ => None,
        }
    }

    /// The one column named `n` (of relation `relation`, when given).
    pub(super) fn lookup_str(&self, relation: Option<&str>, n: &str) -> Option<&'c PlanColumn> {
        self.index_str(relation, n).map(|i| &self.columns[i])
    }

    /// The index of the one column named `n` (of relation `relation`, when given).
    fn index_str(&self, relation: Option<&str>, n: &str) -> Option<usize> {
        let mut found = None;
        let mut consider = |i: usize| {
            let c = &self.columns[i];
            if relation.is_some_and(|r| c.relation.as_deref() != Some(r)) {
                return true;
            }
            if found.is_some() {
                return false;
            }
            found = Some(i);
            true
        };
        match &self.by_name {
            Some(map) => {
                for &i in map.get(n)? {
                    if !consider(i) {
                        return None;
                    }
                }
            }
            None => {
                // Lengths first: most names differ in length, which costs no byte compare.
                let bytes = n.as_bytes();
                for (i, c) in self.columns.iter().enumerate() {
                    let name = c.name.as_bytes();
                    if name.len() == bytes.len() && name == bytes && !consider(i) {
                        return None;
                    }
                }
            }
        }
        found
    }
}

/// Whether `e` calls a function that is not built in (a UDF: its kind is unknown).
pub(super) fn has_unknown_call(e: &Expr) -> bool {
    has_unknown_call_or(e, true)
}

/// [`has_unknown_call`], subqueries counted as unknown only when `subqueries` (else they are
/// modelled by the caller).
pub(super) fn has_unknown_call_or(e: &Expr, subqueries: bool) -> bool {
    let mut found = false;
    exprs::walk(e, &mut |x| {
        if let ExprKind::Function(call) = &x.kind {
            // ROLLUP, CUBE and GROUPING SETS group; their arguments are walked.
            let grouping = call.name.parts.len() == 1 && {
                let name = call.name.last().text.as_str();
                ["ROLLUP", "CUBE", "GROUPING SETS", "GROUPING_SETS"]
                    .iter()
                    .any(|g| g.eq_ignore_ascii_case(name))
            };
            if !grouping
                && (call.name.parts.len() != 1
                    || functions::lookup(call.name.last().text.as_str()).is_none())
            {
                found = true;
            }
        }
        if subqueries
            && matches!(
                x.kind,
                ExprKind::Subquery(_) | ExprKind::Exists(_) | ExprKind::InSubquery { .. }
            )
        {
            found = true;
        }
    });
    found
}

pub(super) fn builtin_kind(call: &FunctionCall) -> Option<FunctionKind> {
    if call.name.parts.len() != 1 {
        return None;
    }
    functions::lookup(call.name.last().text.as_str()).map(|f| f.kind)
}

/// A built-in aggregate call without OVER.
pub(super) fn is_agg_call(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Function(call) => {
            call.over.is_none() && builtin_kind(call) == Some(FunctionKind::Aggregate)
        }
        _ => false,
    }
}

pub(super) fn contains_agg(e: &Expr) -> bool {
    let mut found = false;
    exprs::walk(e, &mut |x| found |= is_agg_call(x));
    found
}

pub(super) fn contains_over(e: &Expr) -> bool {
    let mut found = false;
    exprs::walk(e, &mut |x| {
        if let ExprKind::Function(call) = &x.kind {
            found |= call.over.is_some();
        }
    });
    found
}

pub(super) fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Nested(inner) => strip(inner),
        _ => e,
    }
}

/// A written name for an expression in Flink's descriptions: a column's name, else `$f<i>`.
pub(super) fn ident_name(e: &Expr) -> Option<CompactString> {
    match &strip(e).kind {
        ExprKind::Identifier(n) => Some(n.last().text.clone()),
        _ => None,
    }
}

/// The time attribute of an expression over `columns`.
pub(super) fn expr_time(e: &Expr, columns: &Columns<'_>) -> TimeAttr {
    let e = strip(e);
    match &e.kind {
        ExprKind::Identifier(n) => columns.lookup(n).map_or(TimeAttr::Unknown, |c| c.time),
        _ if exprs::is_proctime(e) => TimeAttr::Proctime,
        // The legacy group window's auxiliary functions keep the window's time attribute.
        ExprKind::Function(call) if call.name.parts.len() == 1 => {
            let name = call.name.last().text.as_str();
            let is = |names: [&str; 3]| names.iter().any(|f| f.eq_ignore_ascii_case(name));
            if is(["TUMBLE_ROWTIME", "HOP_ROWTIME", "SESSION_ROWTIME"]) {
                TimeAttr::Rowtime
            } else if is(["TUMBLE_PROCTIME", "HOP_PROCTIME", "SESSION_PROCTIME"]) {
                TimeAttr::Proctime
            } else if has_unknown_call(e) {
                TimeAttr::Unknown
            } else {
                TimeAttr::None
            }
        }
        _ if has_unknown_call(e) => TimeAttr::Unknown,
        _ => TimeAttr::None,
    }
}

/// The type of an expression over `columns`: a column's type, else the type
/// [`exprs::infer_type`] derives (`CAST(ts AS TIMESTAMP(3))`, `ts + INTERVAL '1' SECOND`).
pub(super) fn expr_type(e: &Expr, columns: &Columns<'_>) -> Option<Type> {
    match &strip(e).kind {
        ExprKind::Identifier(n) => columns.lookup(n).and_then(|c| c.data_type.clone()),
        _ if has_unknown_call(e) => None,
        _ => exprs::infer_type(e, &|name| {
            let c = match name.split_once('.') {
                Some((r, n)) => columns.lookup_str(Some(r), n),
                None => columns.lookup_str(None, name),
            };
            c.and_then(|c| c.data_type.clone())
        }),
    }
}

/// Time attributes do not survive a regular join, a group aggregate, a CAST or an
/// expression: Flink materializes them.
pub(super) fn lose_time(columns: &mut [PlanColumn]) {
    for c in columns {
        if matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime) {
            c.time = TimeAttr::None;
        }
    }
}

pub(super) fn kinds_of(nodes: &[&Node]) -> Option<Kinds> {
    let mut out = Kinds::default();
    for n in nodes {
        out = out.union(n.kinds?);
    }
    Some(out)
}

/// The kinds a group aggregate produces over an input producing `input`.
pub(super) fn aggregate_kinds(input: Option<Kinds>) -> Option<Kinds> {
    input.map(|k| {
        let mut out = Kinds::INSERT_UPDATE;
        out.delete = !k.insert_only();
        out
    })
}

/// The changes Flink's message names (`update`, `delete`, `update and delete`).
pub(super) fn changes_text(k: Kinds) -> &'static str {
    match (k.update, k.delete) {
        (true, true) => "update and delete",
        (true, false) => "update",
        _ => "delete",
    }
}

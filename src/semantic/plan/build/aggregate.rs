//! Aggregates: group aggregates, window aggregates over window table functions, legacy
//! group window aggregates.

use super::super::keys::{self, KeyInfo, Origin};
use super::super::{
    producer, Node, Op, PlanColumn, StreamProblem, TimeAttr, WindowCheck, WindowProp,
};
use super::helpers::{
    aggregate_kinds, column, contains_agg, expr_type, expr_window, ident_name, is_agg_call, strip,
    unknown, window_of_keys, Columns,
};
use super::Builder;
use crate::semantic::exprs::call_name;
use crate::semantic::types::Type;
use crate::syntax::ast::{Expr, ExprKind, Select, SelectItem};
use compact_str::{format_compact, CompactString};
use std::collections::HashMap;

impl Builder<'_> {
    /// A select with GROUP BY or aggregates: a group aggregate, a window aggregate over a
    /// window table function, or a legacy group window aggregate.
    pub(super) fn aggregate(&mut self, s: &Select, input: Node) -> Node {
        // ROLLUP, CUBE, GROUPING SETS and parenthesized lists: the grouping columns and the
        // number of distinct grouping sets (more than one: an `Expand` below the aggregate,
        // which groups by an extra `$e` column too).
        let plain = s.group_by.iter().all(|g| !grouping_construct(g));
        let (keys, always, set_count): (Vec<&Expr>, Vec<bool>, usize) = if plain {
            (s.group_by.iter().collect(), vec![true; s.group_by.len()], 1)
        } else {
            match grouping_sets(&s.group_by) {
                Some(g) => g,
                None => {
                    let mut n = unknown(self.at(s.span));
                    n.inputs = vec![input];
                    return n;
                }
            }
        };
        let expanded = set_count > 1;
        let legacy = keys.iter().any(|g| {
            matches!(
                call_name(strip(g)).as_deref(),
                Some("TUMBLE" | "HOP" | "SESSION")
            )
        });
        let key_names: Vec<Option<CompactString>> = keys.iter().map(|k| ident_name(k)).collect();
        let by_name = Columns::new(&input.columns);
        // `StreamPhysicalWindowAggregateRule`: grouped by the start and end of one window
        // (passed on unchanged through projections, filters, views, CTEs and earlier window
        // aggregates), a window aggregate. When a key's window is not known, not modelled.
        let key_windows: Vec<WindowProp> = keys.iter().map(|k| expr_window(k, &by_name)).collect();
        let window = if legacy {
            None
        } else {
            match window_of_keys(&key_windows) {
                Ok(w) => w,
                Err(()) => {
                    let mut n = unknown(self.at(s.span));
                    n.inputs = vec![input];
                    return n;
                }
            }
        };
        let windowed = window.is_some();
        if legacy {
            self.check_group_window(s, &by_name);
        }
        // A SESSION window aggregate must group by exactly the window's PARTITION BY columns
        // (`WindowUtil.validGroupKeyPartitionKey`); otherwise Flink plans a group aggregate.
        let session_fallback = match (&input.key_info, window) {
            (KeyInfo::Session { partition }, Some(_)) if input.op == Op::WindowTableFunction => {
                let (Some(partition), true) = (partition, key_names.iter().all(Option::is_some))
                else {
                    let mut n = unknown(self.at(s.span));
                    n.inputs = vec![input];
                    return n;
                };
                let mut grouping: Vec<&str> = key_names
                    .iter()
                    .flatten()
                    .map(|k| k.as_str())
                    .filter(|k| !matches!(*k, "window_start" | "window_end" | "window_time"))
                    .collect();
                grouping.sort_unstable();
                grouping.dedup();
                let mut partition: Vec<&str> = partition.iter().map(|p| p.as_str()).collect();
                partition.sort_unstable();
                partition.dedup();
                grouping != partition
            }
            // A SESSION window reached through a projection: its partition keys are not
            // followed.
            (_, Some(id)) if self.session_windows.contains(&id) => {
                let mut n = unknown(self.at(s.span));
                n.inputs = vec![input];
                return n;
            }
            _ => false,
        };
        // Grouping sets of a window aggregate or a legacy group window: not modelled.
        if !plain && (windowed || legacy) {
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
        let mut exact = keys.iter().all(|k| ident_name(k).is_some()) || !expanded;
        let mut synthesized = false;
        let mut duplicated: Vec<String> = Vec::new();
        let mut filters = 0;
        let mut columns = Vec::new();
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
            // A window aggregate passes its window's columns on (`FlinkRelMdWindowProperties`
            // of an aggregate), `window_time` as a time attribute.
            let key_column = match &bare.kind {
                ExprKind::Identifier(n) if windowed && !session_fallback => by_name
                    .lookup(n)
                    .filter(|c| window.is_some_and(|w| c.window.window() == Some(w))),
                _ => None,
            };
            let window_prop = key_column.map_or(WindowProp::None, |c| c.window);
            let time = match (key_column, ident_name(bare).as_deref()) {
                (Some(c), _) if matches!(c.window, WindowProp::Time(_)) => c.time,
                // PROCTIME() after an aggregation is a new processing-time attribute.
                _ if crate::semantic::exprs::is_proctime(bare) => TimeAttr::Proctime,
                // The legacy group window's TUMBLE_ROWTIME / HOP_PROCTIME ... keep the
                // window's time attribute.
                _ => match call_name(bare).as_deref() {
                    Some("TUMBLE_ROWTIME" | "HOP_ROWTIME" | "SESSION_ROWTIME") => TimeAttr::Rowtime,
                    Some("TUMBLE_PROCTIME" | "HOP_PROCTIME" | "SESSION_PROCTIME") => {
                        TimeAttr::Proctime
                    }
                    _ => TimeAttr::None,
                },
            };
            // MIN and MAX keep their argument's type (nullable); a legacy group window's
            // start and end are a TIMESTAMP(3) (also over a TIMESTAMP_LTZ rowtime).
            let data_type = match &bare.kind {
                ExprKind::Function(_)
                    if legacy
                        && matches!(
                            call_name(bare).as_deref(),
                            Some(
                                "TUMBLE_START"
                                    | "TUMBLE_END"
                                    | "HOP_START"
                                    | "HOP_END"
                                    | "SESSION_START"
                                    | "SESSION_END"
                            )
                        ) =>
                {
                    super::helpers::timestamp3()
                }
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
                ExprKind::Identifier(n) => by_name.index(n).map_or(Origin::Unknown, Origin::Ref),
                _ => Origin::Expr,
            };
            columns.push(PlanColumn {
                origin,
                window: window_prop,
                ..column(&name, time, data_type)
            });
            if is_agg_call(bare)
                && matches!(
                    call_name(bare).as_deref(),
                    Some("GROUPING" | "GROUPING_ID" | "GROUP_ID")
                )
            {
                // Computed from the `$e` column above the aggregate.
                exact &= expanded;
            } else if is_agg_call(bare) {
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
                                    synthesized = true;
                                    p
                                },
                                |n| n.to_string(),
                            );
                            // `ExpandUtil`: an argument that is a grouping column some set
                            // nulls is read from a copy (`v_0`).
                            let nulled = expanded
                                && key_names
                                    .iter()
                                    .zip(&always)
                                    .any(|(k, all)| !*all && k.as_deref() == Some(text.as_str()));
                            if nulled {
                                duplicated.push(text.clone());
                                return format!("{text}_0");
                            }
                            if !projected.contains(&text) {
                                projected.push(text.clone());
                            }
                            text
                        })
                        .collect()
                };
                let distinct = if call.distinct { "DISTINCT " } else { "" };
                // `FILTER (WHERE ...)`: the condition is projected after the arguments.
                let filter = if call.filter.is_some() {
                    let p = format!("$f{}", projected.len());
                    projected.push(p.clone());
                    filters += 1;
                    format!(" FILTER {p}")
                } else {
                    String::new()
                };
                let text = cat!(
                    fname,
                    "(",
                    distinct,
                    args.join(", "),
                    ")",
                    filter,
                    " AS ",
                    name
                );
                if !calls.contains(&text) {
                    calls.push(text);
                }
            } else if contains_agg(bare) {
                exact = false;
            }
        }
        let mut group_keys: Vec<String> = projected[..key_names.len()].to_vec();
        if expanded {
            group_keys.push("$e".to_string());
            duplicated.sort_unstable();
            duplicated.dedup();
            // Not verified: the names of several copies, or of projected expressions.
            exact &= duplicated.len() <= 1 && !synthesized && filters == 0;
        }
        exact &= filters <= 1;
        let mut select = group_keys.clone();
        select.extend(calls);
        let detail = if group_keys.is_empty() {
            cat!("select=[", select.join(", "), "]")
        } else {
            cat!(
                "groupBy=[",
                group_keys.join(", "),
                "], select=[",
                select.join(", "),
                "]"
            )
        };
        if let Some(id) = window {
            if let Some(i) = self.hop_sizes.iter().position(|(at, _)| *at == id) {
                let (_, problem) = self.hop_sizes.swap_remove(i);
                self.found(problem);
            }
        }
        let (op, kinds) = if legacy {
            (
                Op::GroupWindowAggregate,
                input.kinds.filter(|k| k.insert_only()),
            )
        } else if windowed && !session_fallback {
            (Op::WindowAggregate, input.kinds.filter(|k| k.insert_only()))
        } else {
            (Op::GroupAggregate, aggregate_kinds(input.kinds))
        };
        // With an `Expand`, the key holds `$e`, which the projection above drops: not known.
        let unique_keys: Vec<Vec<CompactString>> =
            if op == Op::GroupAggregate && !group_keys.is_empty() && !expanded {
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
            key_info: Default::default(),
            inputs: vec![input],
            span: self.at(s.span),
        }
    }
}

/// Whether a GROUP BY item is a ROLLUP, a CUBE, GROUPING SETS or a parenthesized list.
fn grouping_construct(g: &Expr) -> bool {
    match &strip(g).kind {
        ExprKind::Row(_) => true,
        _ => matches!(
            call_name(strip(g)).as_deref(),
            Some("ROLLUP" | "CUBE" | "GROUPING SETS" | "GROUPING_SETS")
        ),
    }
}

/// At most this many grouping sets are expanded.
const MAX_SETS: usize = 4096;

/// The grouping sets of a GROUP BY (Calcite's `SqlValidatorUtil.analyzeGroupItem`): its
/// distinct grouping expressions in the order they are first written, whether each is in
/// every set, and the number of distinct sets; `None` past [`MAX_SETS`] or for a form not
/// followed.
fn grouping_sets(group_by: &[Expr]) -> Option<(Vec<&Expr>, Vec<bool>, usize)> {
    let mut columns: Vec<&Expr> = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
    for g in group_by {
        let item = item_sets(g, true, &mut columns, &mut ids, 0)?;
        let mut next = Vec::new();
        for a in &sets {
            for b in &item {
                if next.len() >= MAX_SETS {
                    return None;
                }
                let mut u = a.clone();
                u.extend(b.iter().copied());
                u.sort_unstable();
                u.dedup();
                next.push(u);
            }
        }
        sets = next;
    }
    sets.sort();
    sets.dedup();
    let always = (0..columns.len())
        .map(|i| sets.iter().all(|s| s.contains(&i)))
        .collect();
    Some((columns, always, sets.len()))
}

/// The sets of one grouping element (`top`: an item of the GROUP BY list itself, where a
/// parenthesized list is one set and `GROUPING SETS (...)`, which the parser keeps as a list
/// starting at the keyword, is a list of sets).
fn item_sets<'e>(
    g: &'e Expr,
    top: bool,
    columns: &mut Vec<&'e Expr>,
    ids: &mut HashMap<String, usize>,
    depth: usize,
) -> Option<Vec<Vec<usize>>> {
    if depth > 16 {
        return None;
    }
    match &g.kind {
        ExprKind::Nested(inner) if !matches!(inner.kind, ExprKind::Row(_)) => {
            Some(vec![vec![column_id(inner, columns, ids)?]])
        }
        ExprKind::Row(items) => {
            // `GROUPING SETS (` is 14 characters before its first element; a parenthesized
            // list starts at its parenthesis.
            let keyword = items
                .first()
                .is_some_and(|f| f.span.start >= g.span.start + 13);
            if top && keyword {
                let mut out = Vec::new();
                for i in items {
                    out.extend(item_sets(i, false, columns, ids, depth + 1)?);
                    if out.len() > MAX_SETS {
                        return None;
                    }
                }
                Some(out)
            } else {
                let set = unit(g, columns, ids)?;
                Some(vec![set])
            }
        }
        ExprKind::Function(call) => match call_name(g).as_deref() {
            Some("ROLLUP") => {
                let units: Vec<Vec<usize>> = call
                    .args
                    .iter()
                    .map(|a| unit(&a.value, columns, ids))
                    .collect::<Option<_>>()?;
                let mut out = Vec::new();
                for k in (0..=units.len()).rev() {
                    out.push(units[..k].concat());
                }
                Some(out)
            }
            Some("CUBE") => {
                let units: Vec<Vec<usize>> = call
                    .args
                    .iter()
                    .map(|a| unit(&a.value, columns, ids))
                    .collect::<Option<_>>()?;
                if units.len() > 12 {
                    return None;
                }
                let n = units.len();
                let mut out = Vec::new();
                for mask in (0..(1usize << n)).rev() {
                    let mut set = Vec::new();
                    for (i, u) in units.iter().enumerate() {
                        if mask & (1 << (n - 1 - i)) != 0 {
                            set.extend(u.iter().copied());
                        }
                    }
                    out.push(set);
                }
                Some(out)
            }
            Some("GROUPING SETS" | "GROUPING_SETS") => {
                let mut out = Vec::new();
                for a in &call.args {
                    out.extend(item_sets(&a.value, false, columns, ids, depth + 1)?);
                }
                Some(out)
            }
            _ => Some(vec![vec![column_id(g, columns, ids)?]]),
        },
        _ => Some(vec![vec![column_id(g, columns, ids)?]]),
    }
}

/// The columns of one element of a ROLLUP or CUBE, or of a parenthesized set.
fn unit<'e>(
    e: &'e Expr,
    columns: &mut Vec<&'e Expr>,
    ids: &mut HashMap<String, usize>,
) -> Option<Vec<usize>> {
    match &e.kind {
        ExprKind::Row(items) => items.iter().map(|i| column_id(i, columns, ids)).collect(),
        ExprKind::Nested(inner) => unit(inner, columns, ids),
        _ => Some(vec![column_id(e, columns, ids)?]),
    }
}

/// The index of a grouping expression among the distinct ones (a column by its name, any
/// other expression by where it is written), added when new.
fn column_id<'e>(
    e: &'e Expr,
    columns: &mut Vec<&'e Expr>,
    ids: &mut HashMap<String, usize>,
) -> Option<usize> {
    let e = strip(e);
    if matches!(e.kind, ExprKind::Row(_)) || grouping_construct(e) {
        return None;
    }
    let id = match &e.kind {
        ExprKind::Identifier(n) => n
            .parts
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("."),
        _ => format!("@{}:{}", e.span.start, e.span.end),
    };
    if let Some(i) = ids.get(&id) {
        return Some(*i);
    }
    ids.insert(id, columns.len());
    columns.push(e);
    Some(columns.len() - 1)
}

impl Builder<'_> {
    /// `StreamLogicalWindowAggregateRule`: a legacy group window (`GROUP BY TUMBLE(ts, ...)`,
    /// `HOP`, `SESSION`) over a TIMESTAMP column that is not a time attribute ("Window aggregate
    /// can only be defined over a time attribute column, but TIMESTAMP(3) encountered.").
    fn check_group_window(&mut self, s: &Select, columns: &Columns<'_>) {
        // `StreamLogicalWindowAggregateRule`: a legacy window's intervals are day-time
        // intervals (checked after its time attribute, which needs the input).
        for g in &s.group_by {
            let g = strip(g);
            let ExprKind::Function(call) = &g.kind else {
                continue;
            };
            if !matches!(call_name(g).as_deref(), Some("TUMBLE" | "HOP" | "SESSION")) {
                continue;
            }
            if let Some(arg) = call
                .args
                .iter()
                .skip(1)
                .find(|a| super::window::year_month(&a.value))
            {
                self.found(StreamProblem::WindowUnitUnsupported {
                    span: self.at(arg.value.span),
                });
            }
        }
        if self.unknown_inputs {
            return;
        }
        for g in &s.group_by {
            let g = strip(g);
            let Some(function) = call_name(g) else {
                continue;
            };
            if !matches!(function.as_str(), "TUMBLE" | "HOP" | "SESSION") {
                continue;
            }
            let ExprKind::Function(call) = &g.kind else {
                continue;
            };
            let Some(first) = call.args.first() else {
                continue;
            };
            let ExprKind::Identifier(n) = &strip(&first.value).kind else {
                continue;
            };
            let Some(c) = columns.lookup(n) else {
                continue;
            };
            // A rowtime moved by interval arithmetic below (`ts + INTERVAL '1' SECOND AS ts`):
            // Flink 2.3 still accepts the legacy group window; not modelled.
            if c.time != TimeAttr::None || c.origin == Origin::Shifted {
                continue;
            }
            let Some(type_text) = c.data_type.as_ref().and_then(super::super::summary_type) else {
                continue;
            };
            self.found(StreamProblem::WindowOnNonTimeAttribute {
                span: self.at(first.value.span),
                function: function.to_string(),
                column: n.last().text.to_string(),
                type_text,
                lost: None,
                stage: WindowCheck::GroupWindow,
            });
            return;
        }
    }
}

//! Aggregates: group aggregates, window aggregates over window table functions, legacy
//! group window aggregates.

use super::super::keys::{self, KeyInfo, Origin};
use super::super::{producer, Node, Op, PlanColumn, TimeAttr};
use super::helpers::{
    aggregate_kinds, column, contains_agg, expr_type, ident_name, is_agg_call, strip, unknown,
    Columns,
};
use super::Builder;
use crate::semantic::exprs::call_name;
use crate::semantic::types::Type;
use crate::syntax::ast::{Expr, ExprKind, Select, SelectItem};
use compact_str::{format_compact, CompactString};

impl Builder<'_> {
    /// A select with GROUP BY or aggregates: a group aggregate, a window aggregate over a
    /// window table function, or a legacy group window aggregate.
    pub(super) fn aggregate(&mut self, s: &Select, input: Node) -> Node {
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
        // Grouped by `window_start` and `window_end` of a window table function that reaches
        // the aggregate through a subquery, CTE, view or an earlier window aggregate: Flink
        // plans a window aggregate (insert-only) where flinklint would see a group aggregate.
        // Not modelled: nothing is said about it.
        let window_keys = key_names
            .iter()
            .any(|k| k.as_deref() == Some("window_start"))
            && key_names.iter().any(|k| k.as_deref() == Some("window_end"));
        // A SESSION window aggregate must group by exactly the window's PARTITION BY columns
        // (`WindowUtil.validGroupKeyPartitionKey`); otherwise Flink plans a group aggregate.
        let session_fallback = match (&input.key_info, windowed) {
            (KeyInfo::Session { partition }, true) => {
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
            _ => false,
        };
        if (window_keys && !windowed)
            || keys
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
            let time = match (windowed && !session_fallback, ident_name(bare).as_deref()) {
                (true, Some("window_time")) => window_time.unwrap_or(TimeAttr::Unknown),
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
        if windowed {
            if let Some(i) = self.hop_sizes.iter().position(|(at, _)| *at == input.span) {
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
            key_info: Default::default(),
            inputs: vec![input],
            span: self.at(s.span),
        }
    }
}

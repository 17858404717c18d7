//! ORDER BY: a Sort without LIMIT (Flink sorts a stream on an ascending time attribute only,
//! `StreamPhysicalTemporalSortRule`), a SortLimit (Top-N) and a Limit.

use super::super::{Kinds, Node, Op, StreamProblem, TimeAttr};
use super::{helpers, Builder};
use crate::syntax::ast::{ExprKind, Query, SetExpr};
use compact_str::CompactString;

impl Builder<'_> {
    /// ORDER BY with LIMIT (`SortLimit`, a Top-N over the whole input: it retracts the rows
    /// that leave the top, `[I,UB,UA,D]`) or LIMIT alone (`Limit`: inserts the first rows of an
    /// insert-only input). Described as Flink's changelog inference names them, before a
    /// strategy is chosen (`strategy=[UndefinedStrategy]`).
    pub(super) fn sort_limit(&mut self, q: &Query, body: Node) -> Node {
        let number = |e: &crate::syntax::ast::Expr| match &helpers::strip(e).kind {
            ExprKind::Literal(crate::syntax::ast::Literal::Number(n)) => n.parse::<u64>().ok(),
            _ => None,
        };
        let fetch = q.limit.as_deref().and_then(number);
        let offset = q.offset.as_deref().map_or(Some(0), number);
        let mut exact = fetch.is_some() && offset.is_some();
        let (op, kinds, detail) = if q.order_by.is_empty() {
            (
                Op::Limit,
                body.kinds.map(|k| {
                    if k.insert_only() {
                        Kinds::INSERT_ONLY
                    } else {
                        Kinds::ALL
                    }
                }),
                format!(
                    "offset=[{}], fetch=[{}]",
                    offset.unwrap_or(0),
                    fetch.unwrap_or(0)
                ),
            )
        } else {
            let keys: Vec<String> = q
                .order_by
                .iter()
                .map(|o| {
                    let name = sort_key_name(&o.expr, &q.body, &body);
                    exact &= name.is_some();
                    format!(
                        "{} {}",
                        name.unwrap_or_default(),
                        if o.descending { "DESC" } else { "ASC" }
                    )
                })
                .collect();
            (
                Op::SortLimit,
                body.kinds.map(|_| Kinds::ALL),
                format!(
                    "orderBy=[{}], offset=[{}], fetch=[{}], strategy=[UndefinedStrategy]",
                    keys.join(", "),
                    offset.unwrap_or(0),
                    fetch.unwrap_or(0)
                ),
            )
        };
        let mut columns = body.columns.clone();
        for c in &mut columns {
            // Not verified: whether the time attributes survive.
            if matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime) {
                c.time = TimeAttr::Unknown;
            }
            c.origin = super::super::keys::Origin::Unknown;
        }
        Node {
            op,
            detail,
            exact,
            columns,
            kinds,
            before: false,
            unique_keys: Vec::new(),
            key_info: Default::default(),
            inputs: vec![body],
            span: self.at(q.span),
        }
    }

    /// `StreamPhysicalTemporalSortRule`: a streaming ORDER BY without LIMIT whose first key is
    /// not a time attribute, or is one ordered descending ("Sort on a non-time-attribute field
    /// is not supported."). Keys are looked up in the query's output; an ordinal, a qualified
    /// name or a column not in the output is not checked.
    pub(super) fn check_sort(&mut self, q: &Query, body: &Node) {
        let Some(first) = q.order_by.first() else {
            return;
        };
        let e = helpers::strip(&first.expr);
        // The output column the key names: a select item of the same expression (`customer`
        // for `SELECT DISTINCT customer AS c ... ORDER BY customer`, `o.customer`, a nested
        // field `addr.city`), or an ordinal.
        let item = sort_item(e, &q.body, body);
        let mut column = helpers::ident_name(e)
            .map(|n| n.to_string())
            .unwrap_or_default();
        let time = match &e.kind {
            ExprKind::Identifier(n) if n.parts.len() == 1 => {
                let selected = body.columns.iter().any(|c| c.name == n.last().text);
                let column = if selected {
                    helpers::Columns::new(&body.columns).lookup(n)
                } else if let Some(k) = item {
                    body.columns.get(k)
                } else if body.op == Op::Calc && body.inputs.len() == 1 {
                    // A column not selected: the sort reads the projection's input.
                    helpers::Columns::new(&body.inputs[0].columns).lookup(n)
                } else {
                    None
                };
                match column {
                    // A column computed below and not selected (`CAST(ts AS ...) AS t2`):
                    // Flink may sort on the time attribute it was computed from; not known.
                    Some(c)
                        if !selected
                            && item.is_none()
                            && matches!(
                                c.origin,
                                super::super::keys::Origin::Expr
                                    | super::super::keys::Origin::Shifted
                            ) =>
                    {
                        TimeAttr::Unknown
                    }
                    Some(c) => c.time,
                    None => aggregate_key_time(body, n),
                }
            }
            ExprKind::Identifier(_) | ExprKind::Literal(_) => match item {
                Some(k) if body.columns[k].time != TimeAttr::Unknown => {
                    let c = &body.columns[k];
                    if matches!(e.kind, ExprKind::Literal(_)) {
                        column = c.name.to_string();
                    }
                    c.time
                }
                // A field of a ROW column (`addr.city`) is never a time attribute.
                _ if nested_field(e, &q.body, body) => TimeAttr::None,
                _ => TimeAttr::Unknown,
            },
            // A CAST of a time attribute, not selected, is sorted on the attribute itself
            // (Flink 2.3 plans `TemporalSort(orderBy=[ts ASC])`): not known.
            ExprKind::Cast { .. } | ExprKind::DoubleColonCast { .. } => TimeAttr::Unknown,
            _ if crate::semantic::exprs::is_proctime(e) => TimeAttr::Proctime,
            _ if helpers::has_unknown_call(e) => TimeAttr::Unknown,
            _ => TimeAttr::None,
        };
        let descending = match time {
            TimeAttr::None => false,
            TimeAttr::Rowtime | TimeAttr::Proctime if first.descending => true,
            _ => return,
        };
        self.found(StreamProblem::SortNotOnTime {
            span: self.at(first.span),
            column,
            descending,
            match_recognize: false,
        });
    }
}

/// The time attribute of a sort key the aggregate below groups by but does not select: none
/// (a group aggregate materializes time attributes; a window aggregate's `window_start` and
/// `window_end` are plain timestamps); unknown for anything else.
fn aggregate_key_time(body: &Node, n: &crate::syntax::ast::ObjectName) -> TimeAttr {
    let [input] = body.inputs.as_slice() else {
        return TimeAttr::Unknown;
    };
    let name = n.last().text.as_str();
    match body.op {
        Op::GroupAggregate
            if body
                .unique_keys
                .first()
                .is_some_and(|k| k.iter().any(|c| c == name)) =>
        {
            TimeAttr::None
        }
        Op::WindowAggregate
            if helpers::Columns::new(&input.columns)
                .lookup(n)
                .is_some_and(|c| {
                    matches!(
                        c.window,
                        super::super::WindowProp::Start(_) | super::super::WindowProp::End(_)
                    )
                }) =>
        {
            TimeAttr::None
        }
        _ => TimeAttr::Unknown,
    }
}

/// The index of the output column a sort key names when it is not an output column's name:
/// an ordinal (`ORDER BY 2`), or the expression of a select item (`customer` for `customer AS
/// c`, `o.customer` for `customer` over the one table `o`, a nested field `addr.city`).
/// `None` when the query's body is not one SELECT without `*`.
fn sort_item(e: &crate::syntax::ast::Expr, body: &SetExpr, node: &Node) -> Option<usize> {
    use crate::syntax::ast::{Literal, SelectItem, TableRef};
    let SetExpr::Select(s) = body else {
        return None;
    };
    if s.items.len() != node.columns.len()
        || s.items
            .iter()
            .any(|i| matches!(i, SelectItem::Wildcard { .. }))
    {
        return None;
    }
    match &e.kind {
        ExprKind::Literal(Literal::Number(text)) => {
            let k: usize = text.parse().ok()?;
            (1..=s.items.len()).contains(&k).then(|| k - 1)
        }
        ExprKind::Identifier(key) => {
            // The one table of the FROM clause, by its alias or name.
            let relation = match &s.from {
                Some(TableRef::Named { name, alias, .. }) => Some(
                    alias
                        .as_ref()
                        .map_or(name.last().text.as_str(), |a| a.name.text.as_str()),
                ),
                _ => None,
            };
            let unqualified = |parts: &[crate::syntax::ast::Ident]| -> Vec<CompactString> {
                let texts: Vec<CompactString> = parts.iter().map(|p| p.text.clone()).collect();
                match (relation, texts.split_first()) {
                    (Some(r), Some((first, rest))) if first == r && !rest.is_empty() => {
                        rest.to_vec()
                    }
                    _ => texts,
                }
            };
            let key = unqualified(&key.parts);
            let mut found = None;
            for (i, item) in s.items.iter().enumerate() {
                let SelectItem::Expr { expr, .. } = item else {
                    continue;
                };
                let ExprKind::Identifier(n) = &helpers::strip(expr).kind else {
                    continue;
                };
                if unqualified(&n.parts) == key {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(i);
                }
            }
            found
        }
        _ => None,
    }
}

/// Whether a sort key is a field of a column (`addr.city`, `o.addr.city` over the one table
/// `o`) of the projection's input, which no relation of it is named as.
fn nested_field(e: &crate::syntax::ast::Expr, body: &SetExpr, node: &Node) -> bool {
    use crate::syntax::ast::TableRef;
    let (ExprKind::Identifier(key), SetExpr::Select(s), Op::Calc, [input]) =
        (&e.kind, body, node.op, node.inputs.as_slice())
    else {
        return false;
    };
    let parts: Vec<&str> = key.parts.iter().map(|p| p.text.as_str()).collect();
    let parts = match (&s.from, parts.as_slice()) {
        (Some(TableRef::Named { name, alias, .. }), [first, rest @ ..])
            if *first
                == alias
                    .as_ref()
                    .map_or(name.last().text.as_str(), |a| a.name.text.as_str()) =>
        {
            rest
        }
        (_, parts) => parts,
    };
    let [column, _, ..] = parts else {
        return false;
    };
    input.columns.iter().any(|c| c.name == *column)
        && !input
            .columns
            .iter()
            .any(|c| c.relation.as_deref() == Some(*column))
}

/// A SortLimit's key as Flink's plan names it: a column of the input (the sort sits below the
/// projection, so a select item `v AS w` sorts on `v`), an aggregate's output by its alias;
/// `None` for an expression, an ordinal or a name not followed.
fn sort_key_name(e: &crate::syntax::ast::Expr, body: &SetExpr, node: &Node) -> Option<String> {
    let ExprKind::Identifier(n) = &helpers::strip(e).kind else {
        return None;
    };
    let [name] = n.parts.as_slice() else {
        return None;
    };
    if let SetExpr::Select(s) = body {
        let aggregating = !s.group_by.is_empty()
            || s.items.iter().any(|i| {
                matches!(i, crate::syntax::ast::SelectItem::Expr { expr, .. } if helpers::contains_agg(expr))
            });
        let aliased = s.items.iter().find_map(|i| match i {
            crate::syntax::ast::SelectItem::Expr {
                expr,
                alias: Some(a),
                ..
            } if a.text == name.text => Some(expr),
            _ => None,
        });
        return match aliased {
            Some(_) if aggregating => Some(name.text.to_string()),
            Some(expr) => helpers::ident_name(expr).map(|n| n.to_string()),
            None => Some(name.text.to_string()),
        };
    }
    node.columns
        .iter()
        .any(|c| c.name == name.text)
        .then(|| name.text.to_string())
}

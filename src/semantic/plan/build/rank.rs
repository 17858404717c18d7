//! Top-N and deduplication: a filter on a `ROW_NUMBER`, `RANK` or `DENSE_RANK` of the
//! subquery below (`Rank`).

use super::super::keys::{self, KeyInfo, Origin};
use super::super::{Kinds, Node, Op, TimeAttr, WindowProp};
use super::helpers::{
    expr_time, expr_window, forget_windows, has_unknown_call, ident_name, strip, window_of_keys,
    Columns,
};
use super::join::split_and;
use super::subquery::{conjunct_joins, subqueries};
use super::Builder;
use crate::semantic::exprs::{self, call_name};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, Over, Select, SelectItem, SetExpr, TableRef};
use compact_str::CompactString;

/// A ROW_NUMBER (RANK, DENSE_RANK) item of a select list: (partition keys, order keys with
/// DESC, alias, the function).
pub(super) struct RowNumber<'q> {
    partition: &'q [Expr],
    order: Vec<(&'q Expr, bool)>,
    alias: CompactString,
    function: &'static str,
}

pub(super) fn row_number<'q>(select: &'q Select) -> Option<(usize, RowNumber<'q>)> {
    select.items.iter().enumerate().find_map(|(i, item)| {
        let SelectItem::Expr { expr, alias, .. } = item else {
            return None;
        };
        let ExprKind::Function(call) = &strip(expr).kind else {
            return None;
        };
        let function = match call_name(strip(expr)).as_deref() {
            Some("ROW_NUMBER") => "ROW_NUMBER",
            Some("RANK") => "RANK",
            Some("DENSE_RANK") => "DENSE_RANK",
            _ => return None,
        };
        let Some(Over::Spec(spec)) = call.over.as_deref() else {
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
                function,
            },
        ))
    })
}

/// The rank range end of `WHERE rn = 1`, `rn <= n`, `rn < n` (and `AND`-ed conditions on
/// other columns are not modelled: `None`).
pub(super) fn rank_end(filter: &Expr, alias: &str) -> Option<i64> {
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

/// The rank range end of a filter with one rank conjunct ([`rank_end`]) and the other
/// conjuncts, each with a subquery (other conditions are not modelled: `None`).
fn rank_filter<'e>(filter: &'e Expr, alias: &str) -> Option<(i64, Vec<&'e Expr>)> {
    let mut conjuncts = Vec::new();
    split_and(filter, &mut conjuncts);
    let mut end = None;
    let mut rest = Vec::new();
    for c in conjuncts {
        match rank_end(c, alias) {
            Some(e) if end.is_none() => end = Some(e),
            Some(_) => return None,
            None if subqueries(c) > 0 => rest.push(c),
            None => return None,
        }
    }
    Some((end?, rest))
}

impl Builder<'_> {
    /// `SELECT ... FROM (SELECT ..., ROW_NUMBER() OVER (...) AS rn FROM t) WHERE rn <= n`:
    /// a Rank (Flink's deduplication is a Rank with `rankEnd=1` ordered by a time attribute).
    pub(super) fn rank(&mut self, s: &Select) -> Option<Node> {
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
        let (end, rest) = rank_filter(s.selection.as_ref()?, &rn.alias)?;
        // The other conjuncts' subqueries join the Rank's result.
        let joins = conjunct_joins(&rest)?;
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
        // Partitioned by a window's start and end: a window Top-N or window deduplication
        // (`StreamPhysicalWindowRankRule`, `StreamPhysicalWindowDeduplicateRule`), insert-only.
        let input_cols = Columns::new(&input.columns);
        let partition_windows: Vec<WindowProp> = rn
            .partition
            .iter()
            .map(|p| expr_window(p, &input_cols))
            .collect();
        match window_of_keys(&partition_windows) {
            Err(()) => return Some(self.unknown(s.span)),
            Ok(Some(_)) => {
                let inner_cols = self.project(inner, &input.columns);
                let mut columns = self.project(s, &inner_cols);
                keys::compose(&mut columns, &inner_cols);
                let partition: Vec<String> = rn
                    .partition
                    .iter()
                    .map(|p| ident_name(p).map_or_else(|| "?".to_string(), |n| n.to_string()))
                    .collect();
                let kinds = input.kinds.filter(|k| k.insert_only());
                let node = Node {
                    op: Op::WindowRank,
                    detail: format!(
                        "rankType=[{}], rankRange=[rankStart=1, rankEnd={end}], partitionBy=[{}]",
                        rn.function,
                        partition.join(", ")
                    ),
                    exact: false,
                    columns,
                    kinds,
                    before: false,
                    unique_keys: Vec::new(),
                    key_info: KeyInfo::None,
                    inputs: vec![input],
                    span: self.at(s.span),
                };
                return Some(self.subquery_join_nodes(&joins, node, s.span));
            }
            Ok(None) => {}
        }
        let order_time = expr_time(order, &Columns::new(&input.columns));
        let row_number = rn.function == "ROW_NUMBER";
        // Only ROW_NUMBER deduplicates (`RankUtil.canConvertToDeduplicate`).
        let append = row_number
            && end == 1
            && !desc
            && matches!(order_time, TimeAttr::Rowtime | TimeAttr::Proctime);
        // A ROW_NUMBER Top-1 ordered ascending by another column over an insert-only input:
        // Flink 2.3 plans it (AppendFastStrategy) insert-only where its consumer asks for
        // inserts only, and with updates elsewhere; not modelled (nothing reported).
        if row_number
            && end == 1
            && !desc
            && !append
            && input.kinds.is_some_and(|k| k.insert_only())
        {
            return Some(self.unknown(s.span));
        }
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
                    if alias.as_ref().is_some_and(|a| a.text == rn.alias)
                        && matches!(
                            call_name(strip(expr)).as_deref(),
                            Some("ROW_NUMBER" | "RANK" | "DENSE_RANK")
                        )
                    {
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
                SelectItem::Wildcard {
                    qualifier: None, ..
                } if inner.items.len() == 2 => {
                    // `SELECT *, ROW_NUMBER() ...`: the Rank reads, in the input's order,
                    // the columns the outer query uses and its keys.
                    used = input
                        .columns
                        .iter()
                        .map(|c| c.name.to_string())
                        .filter(|n| {
                            outer_refs.iter().any(|r| r == n.as_str() || r == "*")
                                || partition.contains(n)
                                || *n == order_name
                        })
                        .collect();
                }
                SelectItem::Wildcard { .. } => exact = false,
            }
        }
        for k in partition.iter().chain(std::iter::once(&order_name)) {
            if !used.contains(k) {
                used.push(k.clone());
            }
        }
        // The rank number is written when the outer query reads it and the range is wider
        // than one (a range of one makes it the constant 1): Flink names it `w0$o0`.
        let rank_written = end > 1 && outer_refs.iter().any(|r| *r == rn.alias || r == "*");
        if rank_written {
            used.push("w0$o0".to_string());
        }
        let strategy = if append {
            "AppendFastStrategy"
        } else {
            "UndefinedStrategy"
        };
        let direction = if *desc { "DESC" } else { "ASC" };
        let order_text = match order_time {
            TimeAttr::Rowtime => format!("ROWTIME {order_name} {direction}"),
            _ => format!("{order_name} {direction}"),
        };
        let rank_type = rn.function;
        let detail = format!(
            "strategy=[{strategy}], rankType=[{rank_type}], rankRange=[rankStart=1, rankEnd={end}], partitionBy=[{}], orderBy=[{order_text}], select=[{}]",
            partition.join(", "),
            used.join(", ")
        );
        // Output: the outer select over the inner select's columns.
        // The rank number keeps its place: a range of one makes it a constant.
        let mut inner_cols = self.project(inner, &input.columns);
        for c in &mut inner_cols {
            if c.name == rn.alias {
                c.origin = if end > 1 {
                    Origin::RankNumber
                } else {
                    Origin::Expr
                };
                c.time = TimeAttr::None;
            }
        }
        // Flink keeps the time attributes through a Top-N or a deduplication
        // (`RelTimeIndicatorConverter` materializes them only under joins and aggregates).
        forget_windows(&mut inner_cols);
        let mut columns = self.project(s, &inner_cols);
        keys::compose(&mut columns, &inner_cols);
        // The partition keys as the input's columns (`None`: an expression).
        let input_cols = Columns::new(&input.columns);
        let partition_index: Option<Vec<usize>> = rn
            .partition
            .iter()
            .map(|p| match &strip(p).kind {
                ExprKind::Identifier(n) => input_cols.index(n),
                _ => None,
            })
            .collect();
        let key_info = match partition_index {
            Some(partition) => KeyInfo::Rank {
                partition,
                row_number,
                top1: end == 1,
            },
            None => KeyInfo::None,
        };
        let unique_keys = if end == 1 && row_number {
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
            key_info,
            inputs: vec![input],
            span,
        };
        Some(self.subquery_join_nodes(&joins, rank, s.span))
    }
}

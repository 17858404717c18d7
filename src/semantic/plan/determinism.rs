//! Non-deterministic functions over update streams, as Flink's
//! `StreamNonDeterministicUpdatePlanVisitor` finds them under
//! `table.optimizer.non-deterministic-update.strategy = 'TRY_RESOLVE'`.
//!
//! Flink requires every column of an update stream that a sink without a primary key (or a
//! stateful operator) uses to be deterministic: a retraction must repeat the row it takes
//! back. A projection over an update stream that calls `NOW()`, `UUID()`, `RAND()`, ... makes
//! a column that differs between the UPDATE_BEFORE and the row it retracts, and Flink rejects
//! the pipeline with "The column(s): ... can not satisfy the determinism requirement for
//! correctly processing update message ...".
//!
//! flinklint reports the one case it follows exactly (verified with Flink 2.3.0): the
//! pipeline's outermost SELECT, over an update stream (a GROUP BY of that SELECT, or a FROM
//! that produces updates), computes exactly one column with a non-deterministic function
//! (outside an aggregate call), and the sink has no primary key. A sink whose primary key
//! matches the query's upsert key needs no such column to be deterministic. Also reported:
//! a GROUP BY key that a subquery computes with a non-deterministic function over an update
//! stream (the group aggregate must retract the row it saw). A GROUP BY expression that calls
//! one is computed below the aggregate, over its input (accepted over inserts); other shapes
//! (conditions, lookup joins, other uses by a later operator) are not reported.

use super::checks::PipelineProblem;
use super::{Node, Op};
use crate::semantic::exprs;
use crate::semantic::functions::{self, FunctionKind};
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind, Query, Select, SelectItem, SetExpr, TableRef};

/// Functions Flink marks non-deterministic (`isDeterministic() == false`) or evaluates per
/// record in streaming mode (the dynamic time functions), called with parentheses.
const CALLS: &[&str] = &[
    "NOW",
    "UUID",
    "RAND",
    "RAND_INTEGER",
    "CURRENT_ROW_TIMESTAMP",
    "CURRENT_TIMESTAMP",
    "LOCALTIMESTAMP",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "LOCALTIME",
];

/// The time functions written without parentheses (Calcite's niladic functions): the
/// column they compute is named after them.
const NILADIC: &[&str] = &[
    "CURRENT_TIMESTAMP",
    "LOCALTIMESTAMP",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "LOCALTIME",
];

/// The non-deterministic function `e` calls (outside aggregate calls), with its span.
fn non_deterministic(e: &Expr) -> Option<(String, Span)> {
    let mut aggregates: Vec<Span> = Vec::new();
    exprs::walk(e, &mut |x| {
        if let ExprKind::Function(call) = &x.kind {
            let aggregate = call.over.is_none()
                && call.name.parts.len() == 1
                && functions::lookup(call.name.last().text.as_str())
                    .is_some_and(|f| f.kind == FunctionKind::Aggregate);
            if aggregate {
                aggregates.push(x.span);
            }
        }
    });
    let mut found = None;
    exprs::walk(e, &mut |x| {
        if found.is_some() || aggregates.iter().any(|a| a.contains(x.span)) {
            return;
        }
        let name = match &x.kind {
            ExprKind::NiladicFunction(n) => {
                let n = n.to_ascii_uppercase();
                NILADIC.contains(&n.as_str()).then(|| n.to_string())
            }
            ExprKind::Function(call) if call.name.parts.len() == 1 => {
                let n = call.name.last().text.to_ascii_uppercase();
                // UNIX_TIMESTAMP() without arguments is the current time.
                let nd =
                    CALLS.contains(&n.as_str()) || (n == "UNIX_TIMESTAMP" && call.args.is_empty());
                nd.then(|| n.to_string())
            }
            _ => None,
        };
        if let Some(n) = name {
            found = Some((n, x.span));
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

/// The check on the pipeline feeding a sink (`input`: the node below the sink).
pub(crate) fn check(
    input: &Node,
    query: &Query,
    has_sink: bool,
    keyed_sink: bool,
) -> Option<PipelineProblem> {
    if !has_sink || keyed_sink || !input.fully_known() {
        return None;
    }
    if input.kinds.is_none_or(|k| k.insert_only()) {
        return None;
    }
    if !query.order_by.is_empty() || query.limit.is_some() {
        return None;
    }
    let SetExpr::Select(select) = &query.body else {
        return None;
    };
    // A non-deterministic GROUP BY expression is computed below the aggregate.
    if select
        .group_by
        .iter()
        .any(|g| non_deterministic(g).is_some())
    {
        return None;
    }
    if input.op == Op::GroupAggregate {
        if let Some(p) = grouping_key_below(input, select) {
            return Some(p);
        }
    }
    // The node of the outermost SELECT: a group aggregate (the non-deterministic column is
    // computed by the Calc above it), or a Calc over an update stream.
    let producer = match input.op {
        Op::GroupAggregate | Op::Rank => input,
        Op::Calc => {
            let [below] = input.inputs.as_slice() else {
                return None;
            };
            if below.kinds.is_none_or(|k| k.insert_only()) {
                return None;
            }
            below
        }
        _ => return None,
    };
    let mut found = Vec::new();
    for (i, item) in select.items.iter().enumerate() {
        match item {
            SelectItem::Expr { expr, alias, .. } => {
                if let Some((function, span)) = non_deterministic(expr) {
                    let column = match (alias, &strip(expr).kind) {
                        (Some(a), _) => a.text.to_string(),
                        (None, ExprKind::NiladicFunction(n)) => n.to_ascii_uppercase().to_string(),
                        _ => format!("EXPR${i}"),
                    };
                    found.push((column, function, span));
                }
            }
            SelectItem::Wildcard { .. } => {}
        }
    }
    // Flink lists every such column; flinklint has verified the message for one.
    let [(column, function, span)] = <[_; 1]>::try_from(found).ok()?;
    Some(PipelineProblem::NonDeterministicUpdate {
        span,
        column,
        function,
        producer: producer.op.name(),
    })
}

/// A group aggregate whose GROUP BY key is a column that the subquery of its FROM computes with
/// a non-deterministic function over an update stream
/// (`SELECT k, COUNT(*) FROM (SELECT CAST(RAND() * 10 AS INT) AS k FROM updating) GROUP BY k`).
fn grouping_key_below(aggregate: &Node, select: &Select) -> Option<PipelineProblem> {
    let Some(TableRef::Subquery {
        lateral: false,
        query,
        alias,
        ..
    }) = &select.from
    else {
        return None;
    };
    if alias.as_ref().is_some_and(|a| !a.columns.is_empty())
        || !query.with.is_empty()
        || !query.order_by.is_empty()
        || query.limit.is_some()
    {
        return None;
    }
    let SetExpr::Select(inner) = &query.body else {
        return None;
    };
    if !inner.group_by.is_empty() || inner.having.is_some() || inner.distinct {
        return None;
    }
    let [calc] = aggregate.inputs.as_slice() else {
        return None;
    };
    let [below] = calc.inputs.as_slice() else {
        return None;
    };
    if calc.op != Op::Calc || below.kinds.is_none_or(|k| k.insert_only()) {
        return None;
    }
    let mut found = Vec::new();
    for item in &inner.items {
        let SelectItem::Expr { expr, alias, .. } = item else {
            continue;
        };
        if let Some((function, span)) = non_deterministic(expr) {
            found.push((alias.as_ref().map(|a| a.text.to_string()), function, span));
        }
    }
    let [(Some(column), function, span)] = <[_; 1]>::try_from(found).ok()? else {
        return None;
    };
    let grouped = select.group_by.iter().any(|g| {
        matches!(&strip(g).kind, ExprKind::Identifier(n) if n.parts.len() == 1 && n.last().text == column.as_str())
    });
    grouped.then(|| PipelineProblem::NonDeterministicUpdate {
        span,
        column,
        function,
        producer: below.op.name(),
    })
}

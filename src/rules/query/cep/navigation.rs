//! `PREV` / `NEXT` in a DEFINE condition: the physical offsets Flink's CEP refuses, after
//! Calcite's rewriting of the navigation.

use super::Stop;
use crate::source::Span;
use crate::syntax::ast::*;
use std::collections::HashSet;

/// The first `PREV` / `NEXT` call of `condition`, the DEFINE of `alpha`, that keeps a physical
/// offset once Calcite's validator has rewritten the navigation (`SqlValidatorImpl`'s
/// `NavigationExpander` pushes `PREV(expr, n)` down to the columns of `expr`; its
/// `NavigationReplacer` turns `PREV(X.col, n)` of another variable, or of an unqualified
/// column, into `LAST(X.col, n)`): Flink's `MatchCodeGenerator` rejects every `PREV` and
/// `NEXT` left with an offset other than 0. `Err(Unknown)` where the validator rejects the
/// call first or the rewriting is not modelled.
pub(super) fn physical_offset(
    condition: &Expr,
    alpha: &str,
    variables: &HashSet<&str>,
) -> Result<Option<Span>, Stop> {
    let mut stack = vec![condition];
    while let Some(e) = stack.pop() {
        let Some((name, call)) = navigation(e) else {
            e.for_each_child(&mut |c| stack.push(c));
            continue;
        };
        if !matches!(name, Nav::Prev | Nav::Next) {
            // FIRST / LAST and aggregates: logical offsets, fine, unless a PREV or NEXT
            // inside them is rewritten in ways not modelled here.
            if call.args.iter().any(|a| contains_physical(&a.value)) {
                return Err(Stop::Unknown);
            }
            continue;
        }
        let offset = match call.args.get(1) {
            None => 1,
            Some(arg) => integer(&arg.value).ok_or(Stop::Unknown)?,
        };
        let Some(arg) = call.args.first() else {
            return Err(Stop::Unknown);
        };
        // Whether a physical navigation stays once it is pushed down to the columns: NEXT
        // on any column; PREV on a column of `alpha` or around a logical navigation.
        let mut keeps = false;
        let mut qualifiers = HashSet::new();
        let mut inner = vec![&arg.value];
        while let Some(x) = inner.pop() {
            match &x.kind {
                ExprKind::Identifier(n) => match n.parts.as_slice() {
                    [col] if col.text != alpha => keeps |= name == Nav::Next,
                    [var, _] => {
                        if !variables.contains(var.text.as_str()) {
                            // "Table 'X' not found".
                            return Err(Stop::Unknown);
                        }
                        qualifiers.insert(var.text.as_str());
                        keeps |= name == Nav::Next || var.text == alpha;
                    }
                    _ => return Err(Stop::Unknown),
                },
                _ => match navigation(x) {
                    // `PREV(LAST(B.x, 1))`: the PREV stays around the logical navigation.
                    Some((Nav::First | Nav::Last, c)) => {
                        if c.args.iter().any(|a| contains_physical(&a.value)) {
                            return Err(Stop::Unknown);
                        }
                        keeps = true;
                        x.for_each_child(&mut |c| inner.push(c));
                    }
                    // Nested PREV / NEXT, aggregates: not modelled.
                    Some(_) => return Err(Stop::Unknown),
                    None => x.for_each_child(&mut |c| inner.push(c)),
                },
            }
        }
        if qualifiers.len() > 1 {
            // "Multiple pattern variables in 'PREV(...)'".
            return Err(Stop::Unknown);
        }
        if keeps && offset != 0 {
            return Ok(Some(e.span));
        }
    }
    Ok(None)
}

/// The navigation and aggregate calls of MATCH_RECOGNIZE.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Nav {
    Prev,
    Next,
    First,
    Last,
    Aggregate,
}

/// `e` as a call of a navigation function or an aggregate.
fn navigation(e: &Expr) -> Option<(Nav, &FunctionCall)> {
    let ExprKind::Function(call) = &e.kind else {
        return None;
    };
    let [name] = call.name.parts.as_slice() else {
        return None;
    };
    let nav = match name.text.to_ascii_uppercase().as_str() {
        "PREV" => Nav::Prev,
        "NEXT" => Nav::Next,
        "FIRST" => Nav::First,
        "LAST" => Nav::Last,
        "COUNT" | "SUM" | "AVG" | "MIN" | "MAX" | "STDDEV_POP" | "STDDEV_SAMP" | "VAR_POP"
        | "VAR_SAMP" | "COLLECT" | "LISTAGG" => Nav::Aggregate,
        _ => return None,
    };
    Some((nav, call))
}

/// Whether `e` calls PREV or NEXT.
fn contains_physical(e: &Expr) -> bool {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        if matches!(navigation(x), Some((Nav::Prev | Nav::Next, _))) {
            return true;
        }
        x.for_each_child(&mut |c| stack.push(c));
    }
    false
}

/// An integer literal, signed or not.
fn integer(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Literal(Literal::Number(n)) => n.parse().ok(),
        ExprKind::Unary {
            op: UnaryOp::Minus,
            expr,
        } => integer(expr).map(|n| -n),
        ExprKind::Nested(inner) => integer(inner),
        _ => None,
    }
}

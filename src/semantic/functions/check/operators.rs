//! The checks of operators and CASE: arithmetic, `||` and comparisons between argument types
//! Calcite's operand checkers refuse, untyped `NULL` operands, CASE results without a common
//! type.

use super::*;

/// The supported forms Calcite lists for an arithmetic operator (`SqlStdOperatorTable`'s
/// operand type checkers), one per line, quoted as in its message.
fn arithmetic_forms(op: BinaryOp, s: &str) -> String {
    match op {
        // `+` also takes an interval first (`INTERVAL '1' DAY + d`); `-` does not.
        BinaryOp::Plus => format!(
            "<NUMERIC> {s} <NUMERIC>'\n'<DATETIME_INTERVAL> {s} <DATETIME_INTERVAL>'\n'<DATETIME> {s} <DATETIME_INTERVAL>'\n'<DATETIME_INTERVAL> {s} <DATETIME>"
        ),
        BinaryOp::Minus => format!(
            "<NUMERIC> {s} <NUMERIC>'\n'<DATETIME_INTERVAL> {s} <DATETIME_INTERVAL>'\n'<DATETIME> {s} <DATETIME_INTERVAL>"
        ),
        BinaryOp::Multiply => format!(
            "<NUMERIC> {s} <NUMERIC>'\n'<DATETIME_INTERVAL> {s} <NUMERIC>'\n'<NUMERIC> {s} <DATETIME_INTERVAL>"
        ),
        BinaryOp::Divide => format!("<NUMERIC> {s} <NUMERIC>'\n'<DATETIME_INTERVAL> {s} <NUMERIC>"),
        _ => format!("<EXACT_NUMERIC> {s} <EXACT_NUMERIC>"),
    }
}

impl Checker<'_> {
    /// The results of a CASE: Calcite's `leastRestrictive` finds no common type for two of
    /// these families ("Illegal mixing of types in CASE or COALESCE statement"). A number
    /// with a date, time or timestamp fails later, with other messages, and is not judged.
    pub(super) fn case_results<'x>(
        &mut self,
        e: &Expr,
        results: impl Iterator<Item = &'x Expr>,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        // The distinct result types, the first few of them (a message, not a listing).
        let mut types: Vec<String> = Vec::new();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut families = Vec::new();
        for r in results {
            if is_null_literal(r) {
                continue;
            }
            let Some(t) = infer_type_in(r, column, agg) else {
                return;
            };
            let Some(f) = Family::of(&t.kind) else {
                return;
            };
            let summary = t.summary();
            if types.len() < 4 && seen.insert(summary.clone()) {
                types.push(summary);
            }
            families.push(f);
        }
        // The distinct families (at most seven).
        let mut distinct: Vec<Family> = Vec::new();
        for f in families {
            if !distinct.contains(&f) {
                distinct.push(f);
            }
        }
        let illegal = without_common_type(&distinct);
        let numbers_with_datetimes =
            distinct.contains(&Family::Number) && distinct.iter().any(|f| f.datetime());
        if illegal && !numbers_with_datetimes {
            self.push(
                e.span,
                ExprIssue::MixedBranches { types },
                Some("Illegal mixing of types in CASE or COALESCE statement".into()),
                false,
            );
        }
    }

    pub(super) fn binary(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        left: &Expr,
        right: &Expr,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        if matches!(op, BinaryOp::And | BinaryOp::Or) {
            if is_null_literal(left) || is_null_literal(right) {
                self.illegal_null(e.span);
            } else {
                self.logical(e, op.as_str(), left, right, column, agg);
            }
            return;
        }
        // The comparison, arithmetic and `||` operators; the others are not judged here.
        if matches!(op, BinaryOp::And | BinaryOp::Or) {
            return;
        }
        let symbol = op.as_str();
        let arithmetic = matches!(
            op,
            BinaryOp::Plus | BinaryOp::Minus | BinaryOp::Multiply | BinaryOp::Divide
        );
        let concat = op == BinaryOp::Concat;
        let modulo = op == BinaryOp::Modulo;
        if (arithmetic || concat) && (is_null_literal(left) || is_null_literal(right)) {
            self.illegal_null(e.span);
            return;
        }
        let (Some(l), Some(r)) = (
            infer_type_in(left, column, agg),
            infer_type_in(right, column, agg),
        ) else {
            return;
        };
        let (lk, rk) = (&l.kind, &r.kind);
        let apply = |form: &str| -> Option<String> {
            let (a, b) = (casts::calcite_name(&l)?, casts::calcite_name(&r)?);
            Some(format!(
                "Cannot apply '{symbol}' to arguments of type '<{a}> {symbol} <{b}>'. Supported form(s): '{form}'"
            ))
        };
        if concat {
            // Calcite's `||` takes two strings (character or binary, not mixed) or two values of
            // one type (arrays); judged only between the scalar types flinklint names.
            let scalar = |k: &Kind| {
                numeric(k) || character(k) || binary_string(k) || datetime(k) || *k == Kind::Boolean
            };
            let same_family =
                (character(lk) && character(rk)) || (binary_string(lk) && binary_string(rk));
            let (flink, planning) = if scalar(lk) && scalar(rk) && !same_family {
                let form = "<STRING> || <STRING>'\n'<EQUIVALENT_TYPE> || <EQUIVALENT_TYPE>";
                (apply(form), false)
            } else if (binary_string(lk) && binary_string(rk))
                || (matches!(lk, Kind::Array(_)) && matches!(rk, Kind::Array(_)))
            {
                // The validator accepts two binary strings or two arrays; the code generator
                // takes character strings only.
                (Some("String expression type expected.".to_string()), true)
            } else {
                return;
            };
            self.push(
                e.span,
                ExprIssue::ArgumentTypes {
                    name: symbol.to_string(),
                    given: format!("{} || {}", l.summary(), r.summary()),
                    expected: "<STRING> || <STRING>".to_string(),
                },
                flink,
                planning,
            );
            return;
        }
        if arithmetic || modulo {
            // A date, time or timestamp takes an interval (`ts + INTERVAL '1' SECOND`), never
            // a number or another datetime (`ts + 1`, `ts - ts`: TIMESTAMPDIFF).
            let on_datetime = |x: &Kind, y: &Kind| datetime(x) && (numeric(y) || datetime(y));
            if on_datetime(lk, rk) || on_datetime(rk, lk) {
                self.push(
                    e.span,
                    ExprIssue::ArgumentTypes {
                        name: symbol.to_string(),
                        given: format!("{} {symbol} {}", l.summary(), r.summary()),
                        expected: match op {
                            BinaryOp::Plus | BinaryOp::Minus => {
                                format!("<NUMERIC> {symbol} <NUMERIC> or <DATETIME> {symbol} <INTERVAL>")
                            }
                            BinaryOp::Modulo => "<EXACT_NUMERIC> % <EXACT_NUMERIC>".to_string(),
                            _ => format!("<NUMERIC> {symbol} <NUMERIC> or <INTERVAL> {symbol} <NUMERIC>"),
                        },
                    },
                    apply(&arithmetic_forms(op, symbol)),
                    false,
                );
                return;
            }
        }
        if modulo {
            return;
        }
        if arithmetic {
            // Strings and booleans take no part in arithmetic (`'1' + 1`, `s + s`).
            let other = |k: &Kind| character(k) || *k == Kind::Boolean;
            let bad = |x: &Kind, y: &Kind| (numeric(x) || other(x)) && other(y);
            if bad(lk, rk) || bad(rk, lk) {
                let form = format!("<NUMERIC> {symbol} <NUMERIC>");
                self.push(
                    e.span,
                    ExprIssue::ArgumentTypes {
                        name: symbol.to_string(),
                        given: format!("{} {symbol} {}", l.summary(), r.summary()),
                        expected: form,
                    },
                    apply(&arithmetic_forms(op, symbol)),
                    false,
                );
            }
            return;
        }
        // `=` / `<>` and the orderings `<` `<=` `>` `>=`: Calcite compares within a family
        // (a date, a time and a timestamp are three).
        if super::predicates::incomparable(lk, rk) {
            let form = format!("<COMPARABLE_TYPE> {symbol} <COMPARABLE_TYPE>");
            self.push(
                e.span,
                ExprIssue::Comparison {
                    op: symbol,
                    left: l.summary(),
                    right: r.summary(),
                },
                apply(&form),
                false,
            );
            return;
        }
        // A typed NULL constant (`CAST(NULL AS STRING)`) is folded before the code generator
        // looks at the conversion: Flink accepts it.
        // (`=` and `<>` only: the planner casts for an ordering, `s > 1`.)
        let equality = matches!(op, BinaryOp::Eq | BinaryOp::NotEq);
        let converts =
            equality && ((numeric(lk) && character(rk)) || (character(lk) && numeric(rk)));
        if converts && !is_null_cast(left) && !is_null_cast(right) {
            let flink = match (casts::root_name(&l), casts::root_name(&r)) {
                (Some(a), Some(b)) => Some(format!(
                    "implicit type conversion between {a} and {b} is not supported now"
                )),
                _ => None,
            };
            self.push(
                e.span,
                ExprIssue::Comparison {
                    op: symbol,
                    left: l.summary(),
                    right: r.summary(),
                },
                flink,
                true,
            );
        }
    }
}

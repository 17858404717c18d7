//! The operand checks of the logical and pattern operators: `NOT`, `AND`, `OR`, `IS [NOT]
//! TRUE / FALSE / UNKNOWN`, unary `-` and `+`, `[NOT] LIKE` / `SIMILAR TO`, and `[NOT]
//! BETWEEN` of incomparable types (Calcite's operand type checkers in `SqlStdOperatorTable`:
//! "Cannot apply 'NOT' to arguments of type 'NOT<INTEGER>'. Supported form(s): 'NOT<BOOLEAN>'").

use super::*;

/// A value of a scalar type Calcite names, neither a boolean nor unknown: what a boolean
/// operand check refuses.
fn not_boolean(k: &Kind) -> bool {
    numeric(k) || character(k) || datetime(k) || binary_string(k)
}

/// Calcite's comparability of two scalar types for `BETWEEN` (as for `=` and `<`: a boolean
/// with a number or date-time, a date, a time and a timestamp, a number with a date-time).
pub(super) fn incomparable(x: &Kind, y: &Kind) -> bool {
    let one_way = |x: &Kind, y: &Kind| {
        (*x == Kind::Boolean && (numeric(y) || datetime(y)))
            || (*x == Kind::Date && matches!(y, Kind::Timestamp(_) | Kind::TimestampLtz(_)))
            || (matches!(x, Kind::Time(_))
                && matches!(y, Kind::Date | Kind::Timestamp(_) | Kind::TimestampLtz(_)))
            || (numeric(x) && datetime(y))
    };
    one_way(x, y) || one_way(y, x)
}

impl Checker<'_> {
    fn refuse(
        &mut self,
        e: &Expr,
        name: &str,
        given: String,
        expected: &str,
        flink: Option<String>,
    ) {
        self.push(
            e.span,
            ExprIssue::ArgumentTypes {
                name: name.to_string(),
                given,
                expected: expected.to_string(),
            },
            flink,
            false,
        );
    }

    /// `AND` / `OR` with an operand that is not a boolean.
    pub(super) fn logical(
        &mut self,
        e: &Expr,
        op: &str,
        left: &Expr,
        right: &Expr,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let (Some(l), Some(r)) = (
            infer_type_in(left, column, agg),
            infer_type_in(right, column, agg),
        ) else {
            return;
        };
        let known = |k: &Kind| *k == Kind::Boolean || not_boolean(k);
        if !(known(&l.kind) && known(&r.kind)) || !(not_boolean(&l.kind) || not_boolean(&r.kind)) {
            return;
        }
        let flink = match (casts::calcite_name(&l), casts::calcite_name(&r)) {
            (Some(a), Some(b)) => Some(format!(
                "Cannot apply '{op}' to arguments of type '<{a}> {op} <{b}>'. Supported form(s): '<BOOLEAN> {op} <BOOLEAN>'"
            )),
            _ => None,
        };
        let given = format!("{}, {}", l.summary(), r.summary());
        self.refuse(e, op, given, &format!("<BOOLEAN> {op} <BOOLEAN>"), flink);
    }

    /// `NOT x`, `-x` and `+x`.
    pub(super) fn unary(
        &mut self,
        e: &Expr,
        op: UnaryOp,
        operand: &Expr,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let Some(t) = infer_type_in(operand, column, agg) else {
            return;
        };
        let k = &t.kind;
        let (symbol, rejected, forms) = match op {
            UnaryOp::Not => ("NOT", not_boolean(k), "'NOT<BOOLEAN>'".to_string()),
            UnaryOp::Minus | UnaryOp::Plus => {
                let s = if op == UnaryOp::Minus { "-" } else { "+" };
                let rejected =
                    character(k) || *k == Kind::Boolean || datetime(k) || binary_string(k);
                (
                    s,
                    rejected,
                    format!("'{s}<NUMERIC>'\n'{s}<DATETIME_INTERVAL>'"),
                )
            }
        };
        if !rejected {
            return;
        }
        let flink = casts::calcite_name(&t).map(|n| {
            format!("Cannot apply '{symbol}' to arguments of type '{symbol}<{n}>'. Supported form(s): {forms}")
        });
        let expected = if op == UnaryOp::Not {
            "NOT <BOOLEAN>"
        } else {
            "a number or an interval"
        };
        self.refuse(e, symbol, t.summary(), expected, flink);
    }

    /// `x IS [NOT] TRUE / FALSE / UNKNOWN` of a value that is not a boolean.
    pub(super) fn is_test(
        &mut self,
        e: &Expr,
        operand: &Expr,
        negated: bool,
        test: &str,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        if !matches!(test, "TRUE" | "FALSE" | "UNKNOWN") {
            return;
        }
        let Some(t) = infer_type_in(operand, column, agg) else {
            return;
        };
        if !not_boolean(&t.kind) {
            return;
        }
        let name = if negated {
            format!("IS NOT {test}")
        } else {
            format!("IS {test}")
        };
        let flink = casts::calcite_name(&t).map(|n| {
            format!("Cannot apply '{name}' to arguments of type '<{n}> {name}'. Supported form(s): '<BOOLEAN> {name}'")
        });
        let expected = format!("<BOOLEAN> {name}");
        self.refuse(e, &name, t.summary(), &expected, flink);
    }

    /// `[NOT] LIKE` and `[NOT] SIMILAR TO` of a value, pattern or escape that is not a
    /// character string.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn like(
        &mut self,
        e: &Expr,
        operator: &str,
        negated: bool,
        operands: &[&Expr],
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let op = operator.to_ascii_uppercase();
        if !matches!(op.as_str(), "LIKE" | "SIMILAR TO") {
            return;
        }
        let mut types = Vec::with_capacity(operands.len());
        for x in operands {
            let Some(t) = infer_type_in(x, column, agg) else {
                return;
            };
            // Two binary strings fail otherwise ("Operands ... not comparable to each other").
            if !(character(&t.kind)
                || numeric(&t.kind)
                || datetime(&t.kind)
                || t.kind == Kind::Boolean)
            {
                return;
            }
            types.push(t);
        }
        if types.iter().all(|t| character(&t.kind)) {
            return;
        }
        let name = if negated { format!("NOT {op}") } else { op };
        let names: Option<Vec<String>> = types
            .iter()
            .map(|t| casts::calcite_name(t).map(|n| format!("<{n}>")))
            .collect();
        let flink = names.map(|n| {
            format!(
                "Cannot apply '{name}' to arguments of type '{name}({})'. Supported form(s): '{name}(<STRING>, <STRING>, <STRING>)'",
                n.join(", ")
            )
        });
        let given = types
            .iter()
            .map(|t| t.summary())
            .collect::<Vec<_>>()
            .join(", ");
        let expected = format!("{name}(<STRING>, <STRING>, <STRING>)");
        self.refuse(e, &name, given, &expected, flink);
    }

    /// `x [NOT] BETWEEN [SYMMETRIC] low AND high` of types Calcite does not compare.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn between(
        &mut self,
        e: &Expr,
        negated: bool,
        symmetric: bool,
        operands: [&Expr; 3],
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let mut types = Vec::with_capacity(3);
        for x in operands {
            let Some(t) = infer_type_in(x, column, agg) else {
                return;
            };
            types.push(t);
        }
        let k = |i: usize| &types[i].kind;
        if !(incomparable(k(0), k(1)) || incomparable(k(0), k(2)) || incomparable(k(1), k(2))) {
            return;
        }
        let not = if negated { "NOT " } else { "" };
        let kind = if symmetric { "SYMMETRIC" } else { "ASYMMETRIC" };
        let name = format!("{not}BETWEEN {kind}");
        let flink = match (
            casts::calcite_name(&types[0]),
            casts::calcite_name(&types[1]),
            casts::calcite_name(&types[2]),
        ) {
            (Some(a), Some(b), Some(c)) => Some(format!(
                "Cannot apply '{name}' to arguments of type '<{a}> {name} <{b}> AND <{c}>'. Supported form(s): '<COMPARABLE_TYPE> {not}BETWEEN <COMPARABLE_TYPE> AND <COMPARABLE_TYPE>'"
            )),
            _ => None,
        };
        let op = if negated { "NOT BETWEEN" } else { "BETWEEN" };
        self.push(
            e.span,
            ExprIssue::Comparison {
                op,
                left: types[0].summary(),
                right: format!("{} AND {}", types[1].summary(), types[2].summary()),
            },
            flink,
            false,
        );
    }
    /// `x [NOT] IN (a, b, ...)`: list values without a common type ("Values in expression list
    /// must have compatible types": two of number, character string, binary string, boolean,
    /// date, time, timestamp, a number beside a date-time excepted), else a list value Calcite
    /// does not compare with `x` ("Values passed to IN operator must have compatible types").
    pub(super) fn in_list(
        &mut self,
        e: &Expr,
        operand: &Expr,
        negated: bool,
        list: &[Expr],
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let Some(left) = infer_type_in(operand, column, agg) else {
            return;
        };
        if Family::of(&left.kind).is_none() {
            return;
        }
        // The distinct families of the list (at most seven), and one type of each.
        let mut families: Vec<Family> = Vec::new();
        let mut types: Vec<Type> = Vec::new();
        for x in list {
            let Some(t) = infer_type_in(x, column, agg) else {
                return;
            };
            let Some(f) = Family::of(&t.kind) else {
                return;
            };
            if !families.contains(&f) {
                families.push(f);
                types.push(t);
            }
        }
        let clash = without_common_type(&families);
        let flink = if clash {
            "Values in expression list must have compatible types"
        } else if types.iter().any(|t| incomparable(&left.kind, &t.kind)) {
            "Values passed to IN operator must have compatible types"
        } else {
            return;
        };
        let listed: Vec<String> = types.iter().map(Type::summary).collect();
        self.push(
            e.span,
            ExprIssue::Comparison {
                op: if negated { "NOT IN" } else { "IN" },
                left: left.summary(),
                right: format!("({})", listed.join(", ")),
            },
            Some(flink.to_string()),
            false,
        );
    }
}

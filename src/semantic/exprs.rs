//! Facts about expressions: which columns they refer to, and their type where it can be
//! known without Flink's full type inference.

use super::types::{Kind, Type};
use crate::source::Span;
use crate::syntax::ast::*;

/// Calls `f` on `expr` and every expression inside it (not inside subqueries).
pub fn walk<'a>(expr: &'a Expr, f: &mut impl FnMut(&'a Expr)) {
    f(expr);
    match &expr.kind {
        ExprKind::Unary { expr, .. }
        | ExprKind::Nested(expr)
        | ExprKind::Is { expr, .. }
        | ExprKind::Cast { expr, .. }
        | ExprKind::DoubleColonCast { expr, .. }
        | ExprKind::Field { expr, .. } => walk(expr, f),
        ExprKind::Binary { left, right, .. } | ExprKind::IsDistinctFrom { left, right, .. } => {
            walk(left, f);
            walk(right, f);
        }
        ExprKind::Between {
            expr, low, high, ..
        } => {
            walk(expr, f);
            walk(low, f);
            walk(high, f);
        }
        ExprKind::InList { expr, list, .. } => {
            walk(expr, f);
            list.iter().for_each(|e| walk(e, f));
        }
        ExprKind::InSubquery { expr, .. } => walk(expr, f),
        ExprKind::Like {
            expr,
            pattern,
            escape,
            ..
        } => {
            walk(expr, f);
            walk(pattern, f);
            if let Some(e) = escape {
                walk(e, f);
            }
        }
        ExprKind::Case {
            operand,
            whens,
            else_result,
        } => {
            if let Some(o) = operand {
                walk(o, f);
            }
            for (c, r) in whens {
                walk(c, f);
                walk(r, f);
            }
            if let Some(e) = else_result {
                walk(e, f);
            }
        }
        ExprKind::Function(call) => {
            call.args.iter().for_each(|a| walk(&a.value, f));
            if let Some(filter) = &call.filter {
                walk(filter, f);
            }
        }
        ExprKind::Row(items)
        | ExprKind::Array(items)
        | ExprKind::Map(items)
        | ExprKind::Multiset(items) => items.iter().for_each(|e| walk(e, f)),
        ExprKind::Item { expr, index } => {
            walk(expr, f);
            walk(index, f);
        }
        ExprKind::Lambda { body, .. } => walk(body, f),
        _ => {}
    }
}

/// The column names an expression refers to (the first part of each identifier), with spans.
pub fn column_references(expr: &Expr) -> Vec<(&str, Span)> {
    let mut out = Vec::new();
    walk(expr, &mut |e| {
        if let ExprKind::Identifier(name) = &e.kind {
            out.push((name.parts[0].as_str(), name.parts[0].span));
        }
    });
    out
}

/// The upper-case name of a call, if `expr` is a call of an unqualified function.
pub fn call_name(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Function(call) if call.name.parts.len() == 1 => {
            Some(call.name.last().text.to_ascii_uppercase().to_string())
        }
        _ => None,
    }
}

/// Whether the expression is `PROCTIME()`: a processing-time attribute.
pub fn is_proctime(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Nested(inner) => is_proctime(inner),
        _ => call_name(expr).as_deref() == Some("PROCTIME"),
    }
}

/// The type of an expression where it can be known from its form alone (casts, literals,
/// time functions) or from `column` (the type of a column by name). `None` when unknown.
pub fn infer_type(expr: &Expr, column: &dyn Fn(&str) -> Option<Type>) -> Option<Type> {
    match &expr.kind {
        ExprKind::Nested(inner) => infer_type(inner, column),
        ExprKind::Identifier(name) if name.parts.len() == 1 => column(name.parts[0].as_str()),
        // CAST keeps its operand's nullability (NULL when the operand is unknown).
        ExprKind::Cast {
            expr: operand,
            data_type,
            ..
        } => {
            let nullable = infer_type(operand, column).is_none_or(|t| t.nullable);
            Some(Type::from_ast(data_type).with_nullable(nullable))
        }
        ExprKind::Literal(lit) => Some(match lit {
            Literal::Number(n) if n.contains(['.', 'e', 'E']) => {
                if n.contains(['e', 'E']) {
                    Type::not_null(Kind::Double)
                } else {
                    let digits = n.chars().filter(|c| c.is_ascii_digit()).count() as u32;
                    let scale = n.split('.').nth(1).map_or(0, |f| f.len() as u32);
                    Type::not_null(Kind::Decimal(digits.max(1), scale))
                }
            }
            Literal::Number(n) => match n.parse::<i64>() {
                Ok(v) if i32::try_from(v).is_ok() => Type::not_null(Kind::Int),
                Ok(_) => Type::not_null(Kind::BigInt),
                Err(_) => Type::not_null(Kind::Decimal(19, 0)),
            },
            Literal::String(s) => Type::not_null(Kind::Char(s.value.chars().count().max(1) as u32)),
            Literal::Boolean(_) => Type::not_null(Kind::Boolean),
            Literal::Null => Type::nullable(Kind::Null),
            Literal::Unknown => Type::nullable(Kind::Boolean),
            Literal::Typed { type_name, .. } => match type_name.as_str() {
                "DATE" => Type::not_null(Kind::Date),
                "TIME" => Type::not_null(Kind::Time(0)),
                "TIMESTAMP_LTZ" | "TIMESTAMP WITH LOCAL TIME ZONE" => {
                    Type::not_null(Kind::TimestampLtz(0))
                }
                _ => Type::not_null(Kind::Timestamp(0)),
            },
            Literal::Interval { qualifier, .. } => {
                Type::not_null(Kind::Interval(qualifier.render()))
            }
        }),
        ExprKind::NiladicFunction(name) => match name.as_str() {
            "CURRENT_TIMESTAMP" => Some(Type::not_null(Kind::TimestampLtz(3))),
            "LOCALTIMESTAMP" => Some(Type::not_null(Kind::Timestamp(3))),
            "CURRENT_DATE" => Some(Type::not_null(Kind::Date)),
            "CURRENT_TIME" | "LOCALTIME" => Some(Type::not_null(Kind::Time(0))),
            _ => None,
        },
        ExprKind::Binary {
            op: BinaryOp::Plus | BinaryOp::Minus,
            left,
            right,
        } => {
            let l = infer_type(left, column)?;
            if l.is_timestamp()
                && matches!(
                    infer_type(right, column).map(|t| t.kind),
                    Some(Kind::Interval(_))
                )
            {
                Some(l)
            } else {
                None
            }
        }
        ExprKind::Function(call) if call.name.parts.len() == 1 => {
            let name = call.name.last().text.to_ascii_uppercase();
            match name.as_str() {
                "PROCTIME"
                | "NOW"
                | "CURRENT_ROW_TIMESTAMP"
                | "SOURCE_WATERMARK"
                | "CURRENT_WATERMARK" => Some(Type::not_null(Kind::TimestampLtz(3))),
                "TO_TIMESTAMP_LTZ" => {
                    let precision = call.args.get(1).and_then(|a| match &a.value.kind {
                        ExprKind::Literal(Literal::Number(n)) => n.parse::<u32>().ok(),
                        _ => None,
                    });
                    Some(Type::nullable(Kind::TimestampLtz(precision.unwrap_or(3))))
                }
                "TO_TIMESTAMP" => Some(Type::nullable(Kind::Timestamp(3))),
                "COALESCE" if !call.args.is_empty() => {
                    let types: Option<Vec<Type>> = call
                        .args
                        .iter()
                        .map(|a| infer_type(&a.value, column))
                        .collect();
                    coalesce(&types?)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// COALESCE's type (Calcite's least restrictive type, NOT NULL when any argument is): the
/// arguments' common kind, or for character strings VARCHAR of the longest length when any is
/// VARCHAR, else CHAR. `None` for other mixes.
fn coalesce(types: &[Type]) -> Option<Type> {
    let nullable = types.iter().all(|t| t.nullable);
    let first = types.first()?;
    let kind = if types.iter().all(|t| t.kind == first.kind) {
        first.kind.clone()
    } else {
        let mut longest = 0;
        let mut varying = false;
        for t in types {
            match t.kind {
                Kind::Char(n) => longest = longest.max(n),
                Kind::VarChar(n) => {
                    longest = longest.max(n);
                    varying = true;
                }
                _ => return None,
            }
        }
        if varying {
            Kind::VarChar(longest)
        } else {
            Kind::Char(longest)
        }
    };
    Some(Type { kind, nullable })
}

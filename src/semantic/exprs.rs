//! Facts about expressions: which columns they refer to, and their type where it can be
//! known without Flink's full type inference.

use super::types::{Kind, Type};
use crate::source::Span;
use crate::syntax::ast::*;

/// Calls `f` on `expr` and every expression inside it (not inside subqueries).
pub fn walk<'a>(expr: &'a Expr, f: &mut impl FnMut(&'a Expr)) {
    f(expr);
    expr.for_each_child(&mut |child| walk(child, f));
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
pub fn call_name(expr: &Expr) -> Option<compact_str::CompactString> {
    match &expr.kind {
        ExprKind::Function(call) if call.name.parts.len() == 1 => {
            Some(call.name.last().text.to_ascii_uppercase())
        }
        _ => None,
    }
}

/// Whether the expression is `PROCTIME()`: a processing-time attribute.
pub fn is_proctime(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Nested(inner) => is_proctime(inner),
        ExprKind::Function(call) => {
            call.name.parts.len() == 1 && call.name.last().text.eq_ignore_ascii_case("PROCTIME")
        }
        _ => false,
    }
}

/// Where an expression stands with respect to aggregation, which decides the type of an
/// aggregate call: a `GROUP BY` keeps `SUM(i)` of a NOT NULL `i` NOT NULL, a global aggregate
/// (no `GROUP BY`) makes it nullable (no rows, no sum).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// Not a select list of an aggregate query (computed columns, VALUES, ...): aggregate
    /// calls have no known type.
    None,
    /// A select list with a plain `GROUP BY`.
    Grouped,
    /// A select list without `GROUP BY` (aggregates over the whole input).
    Global,
}

/// The type of an expression where it can be known from its form and from `column` (the type
/// of a column by name; `t.c` is asked as `"t.c"`), following Flink 2.3's type inference (Calcite's operators with
/// Flink's `FlinkTypeSystem` and `LogicalTypeMerging` decimal rules); `None` when unknown.
/// Aggregate calls have no type here: see [`infer_type_in`].
pub fn infer_type(expr: &Expr, column: &dyn Fn(&str) -> Option<Type>) -> Option<Type> {
    infer_type_in(expr, column, Aggregation::None)
}

/// [`infer_type`] inside a select list with the given aggregation. Every rule was checked
/// against Flink 2.3's `SHOW CREATE MATERIALIZED TABLE` (`fixtures/oracle/types/`):
/// - literals: `1` INT, `3000000000` BIGINT, `1.5` DECIMAL(2, 1), `1e0` DOUBLE, `'ab'`
///   CHAR(2), all NOT NULL;
/// - `+ - * /` on integers: the wider integer type; `%` and `MOD`: the right operand's type;
///   with a DECIMAL: `LogicalTypeMerging`'s precision and scale (capped at 38); with FLOAT or
///   DOUBLE: the approximate type (DECIMAL with FLOAT gives DOUBLE; FLOAT with DOUBLE gives
///   the left operand's type);
/// - comparisons, AND/OR/NOT, BETWEEN, IN, LIKE: BOOLEAN; IS ...: BOOLEAN NOT NULL;
/// - `||`: CHAR(n + m) for two CHARs, else VARCHAR(n + m); CONCAT and DATE_FORMAT:
///   STRING; UPPER/LOWER keep the type; TRIM: VARCHAR(n); SUBSTRING: nullable VARCHAR(n);
///   CHAR_LENGTH: INT;
/// - CASE/IF/COALESCE/NULLIF: the common type (CHARs of different lengths give VARCHAR);
/// - CAST keeps the operand's nullability, TRY_CAST is nullable;
/// - COUNT: BIGINT NOT NULL; SUM/MIN/MAX/AVG keep the argument type (SUM of DECIMAL(p, s) is
///   DECIMAL(38, s), AVG of it DECIMAL(38, max(6, s))), nullable without GROUP BY.
///
/// The result is nullable when an operand is (NOT NULL only if all operands are NOT NULL),
/// except where listed.
pub fn infer_type_in(
    expr: &Expr,
    column: &dyn Fn(&str) -> Option<Type>,
    agg: Aggregation,
) -> Option<Type> {
    let infer = |e: &Expr| infer_type_in(e, column, agg);
    match &expr.kind {
        ExprKind::Nested(inner) => infer(inner),
        ExprKind::Identifier(name) if name.parts.len() == 1 => column(name.parts[0].as_str()),
        // `t.c`: asked as "t.c" (select lists resolve it through the FROM item's alias).
        ExprKind::Identifier(name) if name.parts.len() == 2 => column(&format!(
            "{}.{}",
            name.parts[0].as_str(),
            name.parts[1].as_str()
        )),
        // CAST keeps its operand's nullability (NULL when the operand is unknown); TRY_CAST
        // gives NULL when the conversion fails.
        ExprKind::Cast {
            expr: operand,
            data_type,
            try_cast,
        } => {
            let nullable = *try_cast || infer(operand).is_none_or(|t| t.nullable);
            Some(Type::from_ast(data_type).with_nullable(nullable))
        }
        ExprKind::Literal(lit) => Some(literal_type(lit)),
        ExprKind::NiladicFunction(name) => match name.as_str() {
            "CURRENT_TIMESTAMP" => Some(Type::not_null(Kind::TimestampLtz(3))),
            "LOCALTIMESTAMP" => Some(Type::not_null(Kind::Timestamp(3))),
            "CURRENT_DATE" => Some(Type::not_null(Kind::Date)),
            "CURRENT_TIME" | "LOCALTIME" => Some(Type::not_null(Kind::Time(0))),
            _ => None,
        },
        ExprKind::Unary { op, expr } => {
            let t = infer(expr)?;
            match op {
                UnaryOp::Not => (t.kind == Kind::Boolean).then_some(t),
                UnaryOp::Minus | UnaryOp::Plus => numeric(&t.kind).then_some(t),
            }
        }
        ExprKind::Binary { op, left, right } => {
            let (l, r) = (infer(left)?, infer(right)?);
            let nullable = l.nullable || r.nullable;
            let kind = match op {
                BinaryOp::Or | BinaryOp::And => {
                    if l.kind != Kind::Boolean || r.kind != Kind::Boolean {
                        return None;
                    }
                    Kind::Boolean
                }
                BinaryOp::Eq
                | BinaryOp::NotEq
                | BinaryOp::Lt
                | BinaryOp::LtEq
                | BinaryOp::Gt
                | BinaryOp::GtEq => Kind::Boolean,
                BinaryOp::Plus | BinaryOp::Minus
                    if l.is_timestamp() && matches!(r.kind, Kind::Interval(_)) =>
                {
                    l.kind
                }
                BinaryOp::Plus
                | BinaryOp::Minus
                | BinaryOp::Multiply
                | BinaryOp::Divide
                | BinaryOp::Modulo => arithmetic(*op, &l.kind, &r.kind)?,
                BinaryOp::Concat => concat_op(&l.kind, &r.kind)?,
                #[allow(unreachable_patterns)]
                _ => return None,
            };
            Some(Type { kind, nullable })
        }
        ExprKind::Is { .. } | ExprKind::IsDistinctFrom { .. } => {
            Some(Type::not_null(Kind::Boolean))
        }
        ExprKind::Between {
            expr, low, high, ..
        } => boolean_of(&[infer(expr)?, infer(low)?, infer(high)?]),
        ExprKind::InList { expr, list, .. } => {
            let mut types = vec![infer(expr)?];
            for e in list {
                types.push(infer(e)?);
            }
            boolean_of(&types)
        }
        ExprKind::Like {
            expr,
            pattern,
            escape,
            ..
        } => {
            let mut types = vec![infer(expr)?, infer(pattern)?];
            if let Some(e) = escape {
                types.push(infer(e)?);
            }
            boolean_of(&types)
        }
        ExprKind::Case {
            whens, else_result, ..
        } => {
            let mut types = Vec::new();
            for (_, result) in whens {
                types.push(infer(result)?);
            }
            match else_result {
                Some(e) => types.push(infer(e)?),
                None => types.push(Type::nullable(Kind::Null)),
            }
            let kind = common_kind(&types)?;
            Some(Type {
                kind,
                nullable: types.iter().any(|t| t.nullable),
            })
        }
        ExprKind::Function(call) if call.name.parts.len() == 1 => {
            let name = call.name.last().text.to_ascii_uppercase();
            function_type(&name, call, column, agg)
        }
        _ => None,
    }
}

fn literal_type(lit: &Literal) -> Type {
    match lit {
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
        // Two hexadecimal digits per byte: X'AB' is BINARY(1).
        Literal::Binary(s) => {
            let digits = s.value.chars().filter(|c| c.is_ascii_hexdigit()).count();
            Type::not_null(Kind::Binary(digits.div_ceil(2).max(1) as u32))
        }
        Literal::Boolean(_) => Type::not_null(Kind::Boolean),
        Literal::Null => Type::nullable(Kind::Null),
        Literal::Unknown => Type::nullable(Kind::Boolean),
        Literal::Typed { type_name, value } => {
            // The precision is the number of fraction digits written (Calcite's
            // `SqlParserUtil.parseTimestampLiteral`): TIMESTAMP '... 00:00:00.123' is (3).
            let precision = value
                .value
                .rsplit_once('.')
                .map_or(0, |(_, f)| {
                    f.chars().take_while(char::is_ascii_digit).count()
                })
                .min(9) as u32;
            match type_name.as_str() {
                "DATE" => Type::not_null(Kind::Date),
                "TIME" => Type::not_null(Kind::Time(precision)),
                "TIMESTAMP_LTZ" | "TIMESTAMP WITH LOCAL TIME ZONE" => {
                    Type::not_null(Kind::TimestampLtz(precision))
                }
                _ => Type::not_null(Kind::Timestamp(precision)),
            }
        }
        Literal::Interval { qualifier, .. } => {
            Type::not_null(Kind::Interval(qualifier.render_type()))
        }
    }
}

/// BOOLEAN, nullable when any operand is.
fn boolean_of(operands: &[Type]) -> Option<Type> {
    Some(Type {
        kind: Kind::Boolean,
        nullable: operands.iter().any(|t| t.nullable),
    })
}

/// TINYINT ... BIGINT: their rank and decimal precision.
fn integer(kind: &Kind) -> Option<(u8, u32)> {
    match kind {
        Kind::TinyInt => Some((1, 3)),
        Kind::SmallInt => Some((2, 5)),
        Kind::Int => Some((3, 10)),
        Kind::BigInt => Some((4, 19)),
        _ => None,
    }
}

/// Exact numeric types as DECIMAL(p, s) (an integer is DECIMAL(its digits, 0)).
fn as_decimal(kind: &Kind) -> Option<(u32, u32)> {
    match kind {
        Kind::Decimal(p, s) => Some((*p, *s)),
        k => integer(k).map(|(_, p)| (p, 0)),
    }
}

fn approximate(kind: &Kind) -> bool {
    matches!(kind, Kind::Float | Kind::Double)
}

fn numeric(kind: &Kind) -> bool {
    approximate(kind) || as_decimal(kind).is_some()
}

/// Flink's `LogicalTypeMerging.adjustPrecisionScale`: beyond 38 digits, integer digits are
/// kept and the scale shrinks, but not below 6 (or the scale itself when smaller).
fn adjust(precision: u32, scale: u32) -> Kind {
    if precision <= 38 {
        return Kind::Decimal(precision, scale);
    }
    let int_digits = precision.saturating_sub(scale);
    let min_scale = scale.min(6);
    let scale = 38u32.saturating_sub(int_digits).max(min_scale);
    Kind::Decimal(38, scale)
}

/// The kind of `l op r` for `+ - * / %` on numeric kinds.
fn arithmetic(op: BinaryOp, l: &Kind, r: &Kind) -> Option<Kind> {
    if !numeric(l) || !numeric(r) {
        return None;
    }
    if approximate(l) || approximate(r) {
        if op == BinaryOp::Modulo {
            return None; // Flink: '%' takes exact numerics only.
        }
        return Some(match (l, r) {
            (a, b) if approximate(a) && approximate(b) => a.clone(),
            (Kind::Decimal(..), _) | (_, Kind::Decimal(..)) => Kind::Double,
            (a, b) => {
                if approximate(a) {
                    a.clone()
                } else {
                    b.clone()
                }
            }
        });
    }
    if let (Some((lr, _)), Some((rr, _))) = (integer(l), integer(r)) {
        return Some(match op {
            BinaryOp::Modulo => r.clone(),
            _ if lr >= rr => l.clone(),
            _ => r.clone(),
        });
    }
    let ((p1, s1), (p2, s2)) = (as_decimal(l)?, as_decimal(r)?);
    Some(match op {
        BinaryOp::Plus | BinaryOp::Minus => {
            let scale = s1.max(s2);
            adjust(
                p1.saturating_sub(s1).max(p2.saturating_sub(s2)) + scale + 1,
                scale,
            )
        }
        BinaryOp::Multiply => adjust(p1 + p2 + 1, s1 + s2),
        BinaryOp::Divide => {
            let scale = 6u32.max(s1 + p2 + 1);
            adjust(p1.saturating_sub(s1) + s2 + scale, scale)
        }
        BinaryOp::Modulo => {
            let scale = s1.max(s2);
            adjust(
                p1.saturating_sub(s1).min(p2.saturating_sub(s2)) + scale,
                scale,
            )
        }
        _ => return None,
    })
}

/// Character-string length, CHAR or VARCHAR.
fn string_length(kind: &Kind) -> Option<(u32, bool)> {
    match kind {
        Kind::Char(n) => Some((*n, false)),
        Kind::VarChar(n) => Some((*n, true)),
        _ => None,
    }
}

/// `a || b`: Calcite's summed precision (CHAR only when both are CHAR).
fn concat_op(l: &Kind, r: &Kind) -> Option<Kind> {
    let ((n, lv), (m, rv)) = (string_length(l)?, string_length(r)?);
    let len = n.saturating_add(m).min(super::types::MAX_LENGTH);
    Some(if lv || rv {
        Kind::VarChar(len)
    } else {
        Kind::Char(len)
    })
}

/// The common kind of CASE / COALESCE / IF results (Calcite's least restrictive type with
/// Flink's "ragged" CHARs turned VARCHAR); untyped NULLs are ignored. `None` for other mixes.
/// The common type of several values (a set operation's column, the branches of CASE):
/// Calcite's `leastRestrictive` where [`common_kind`] knows it; nullable when any is.
pub fn common_type(types: &[Type]) -> Option<Type> {
    Some(Type {
        kind: common_kind(types)?,
        nullable: types.iter().any(|t| t.nullable),
    })
}

fn common_kind(types: &[Type]) -> Option<Kind> {
    let kinds: Vec<&Kind> = types
        .iter()
        .map(|t| &t.kind)
        .filter(|k| **k != Kind::Null)
        .collect();
    let first = *kinds.first()?;
    if kinds.iter().all(|k| *k == first) {
        return Some(first.clone());
    }
    if kinds.iter().all(|k| string_length(k).is_some()) {
        let longest = kinds
            .iter()
            .filter_map(|k| string_length(k))
            .map(|(n, _)| n)
            .max()?;
        return Some(Kind::VarChar(longest));
    }
    if !kinds.iter().all(|k| numeric(k)) {
        return None;
    }
    if kinds.iter().any(|k| approximate(k)) {
        // Only DOUBLE with exact numerics was checked against Flink.
        return (kinds.iter().all(|k| **k == Kind::Double || !approximate(k)))
            .then_some(Kind::Double);
    }
    if kinds.iter().all(|k| integer(k).is_some()) {
        return kinds
            .iter()
            .max_by_key(|k| integer(k).map(|(r, _)| r))
            .map(|k| (*k).clone());
    }
    let (mut int_digits, mut scale) = (0, 0);
    for k in &kinds {
        let (p, s) = as_decimal(k)?;
        int_digits = int_digits.max(p.saturating_sub(s));
        scale = scale.max(s);
    }
    Some(Kind::Decimal((int_digits + scale).min(38), scale))
}

/// The value argument of a call: the last one that is not a flag word (`TRIM(BOTH 'x' FROM s)`).
fn last_value(call: &FunctionCall) -> Option<&Expr> {
    call.args
        .iter()
        .rev()
        .map(|a| &a.value)
        .find(|v| !matches!(v.kind, ExprKind::Keyword(_)))
}

fn function_type(
    name: &str,
    call: &FunctionCall,
    column: &dyn Fn(&str) -> Option<Type>,
    agg: Aggregation,
) -> Option<Type> {
    let infer = |e: &Expr| infer_type_in(e, column, agg);
    let args: Vec<&Expr> = call.args.iter().map(|a| &a.value).collect();
    // The arguments' types, when all are known.
    let arg_types = || -> Option<Vec<Type>> { args.iter().map(|a| infer(a)).collect() };
    let any_nullable = |types: &[Type]| types.iter().any(|t| t.nullable);
    let first = || args.first().and_then(|a| infer(a));
    if call.over.is_some() {
        return None;
    }
    match name {
        "PROCTIME" | "NOW" | "CURRENT_ROW_TIMESTAMP" | "SOURCE_WATERMARK" | "CURRENT_WATERMARK" => {
            Some(Type::not_null(Kind::TimestampLtz(3)))
        }
        "TO_TIMESTAMP_LTZ" => {
            let precision = args.get(1).and_then(|a| match &a.kind {
                ExprKind::Literal(Literal::Number(n)) => n.parse::<u32>().ok(),
                _ => None,
            });
            Some(Type::nullable(Kind::TimestampLtz(precision.unwrap_or(3))))
        }
        "TO_TIMESTAMP" => Some(Type::nullable(Kind::Timestamp(3))),
        "TO_DATE" => Some(Type::nullable(Kind::Date)),
        "DATE_FORMAT" => Some(Type::nullable(Kind::VarChar(super::types::MAX_LENGTH))),
        // Functions of strings returning STRING (fixtures/oracle/qv-insert).
        "FROM_UNIXTIME" | "REGEXP_EXTRACT" | "REGEXP_REPLACE" | "LPAD" | "RPAD" | "CONCAT_WS"
        | "REPLACE" | "SPLIT_INDEX" | "INITCAP" | "REVERSE" | "LEFT" | "RIGHT" => {
            Some(Type::nullable(Kind::VarChar(super::types::MAX_LENGTH)))
        }
        "UNIX_TIMESTAMP" => Some(Type {
            kind: Kind::BigInt,
            nullable: !args.is_empty(),
        }),
        "TIMESTAMPDIFF" | "POSITION" | "LOCATE" | "HASH_CODE" => Some(Type::nullable(Kind::Int)),
        // STRING, or the type of its `RETURNING` clause.
        "JSON_QUERY" if call.returning.is_none() => {
            Some(Type::nullable(Kind::VarChar(super::types::MAX_LENGTH)))
        }
        "JSON_VALUE" => Some(Type::nullable(match &call.returning {
            Some(t) => Type::from_ast(t).kind,
            None => Kind::VarChar(super::types::MAX_LENGTH),
        })),
        "COALESCE" if !args.is_empty() => {
            let types = arg_types()?;
            Some(Type {
                kind: common_kind(&types)?,
                nullable: types.iter().all(|t| t.nullable),
            })
        }
        "IF" if args.len() == 3 => {
            let types = [infer(args[1])?, infer(args[2])?];
            Some(Type {
                kind: common_kind(&types)?,
                nullable: any_nullable(&types),
            })
        }
        "NULLIF" if args.len() == 2 => {
            let t = first()?;
            (t.kind != Kind::Null).then(|| t.with_nullable(true))
        }
        "CONCAT" if !args.is_empty() => {
            let types = arg_types()?;
            types
                .iter()
                .all(|t| string_length(&t.kind).is_some())
                .then(|| Type {
                    kind: Kind::VarChar(super::types::MAX_LENGTH),
                    nullable: any_nullable(&types),
                })
        }
        "UPPER" | "LOWER" if args.len() == 1 => {
            let t = first()?;
            string_length(&t.kind).map(|_| t)
        }
        "TRIM" => {
            let types = arg_types()?;
            let value = infer(last_value(call)?)?;
            let (n, _) = string_length(&value.kind)?;
            Some(Type {
                kind: Kind::VarChar(n),
                nullable: any_nullable(&types),
            })
        }
        "SUBSTRING" if args.len() >= 2 => {
            arg_types()?;
            let (n, _) = string_length(&first()?.kind)?;
            Some(Type::nullable(Kind::VarChar(n)))
        }
        "CHAR_LENGTH" | "CHARACTER_LENGTH" if args.len() == 1 => {
            let t = first()?;
            string_length(&t.kind).map(|_| Type {
                kind: Kind::Int,
                nullable: t.nullable,
            })
        }
        "EXTRACT" | "YEAR" | "QUARTER" | "MONTH" | "WEEK" | "DAYOFYEAR" | "DAYOFMONTH"
        | "DAYOFWEEK" | "HOUR" | "MINUTE" | "SECOND" => {
            let t = infer(last_value(call)?)?;
            matches!(
                t.kind,
                Kind::Date | Kind::Timestamp(_) | Kind::TimestampLtz(_)
            )
            .then_some(Type {
                kind: Kind::BigInt,
                nullable: t.nullable,
            })
        }
        "FLOOR" | "CEIL" | "CEILING" => {
            let t = first()?;
            match (&t.kind, args.len()) {
                // FLOOR(ts TO unit).
                (Kind::Timestamp(_) | Kind::TimestampLtz(_) | Kind::Date, 2) => Some(t),
                (Kind::Decimal(p, _), 1) => Some(Type {
                    kind: Kind::Decimal(*p, 0),
                    nullable: t.nullable,
                }),
                (k, 1) if numeric(k) => Some(t),
                _ => None,
            }
        }
        "ABS" if args.len() == 1 => first().filter(|t| numeric(&t.kind)),
        "MOD" if args.len() == 2 => {
            let types = arg_types()?;
            Some(Type {
                kind: arithmetic(BinaryOp::Modulo, &types[0].kind, &types[1].kind)?,
                nullable: any_nullable(&types),
            })
        }
        "ROUND" if args.len() == 2 => {
            let types = arg_types()?;
            let t = &types[0];
            let kind = match &t.kind {
                Kind::Decimal(p, s) => {
                    let r = match &args[1].kind {
                        ExprKind::Literal(Literal::Number(n)) => n.parse::<u32>().ok()?,
                        _ => return None,
                    };
                    if r >= *s {
                        t.kind.clone()
                    } else {
                        Kind::Decimal((p.saturating_sub(*s) + r + 1).min(38), r)
                    }
                }
                k if numeric(k) => k.clone(),
                _ => return None,
            };
            Some(Type {
                kind,
                nullable: any_nullable(&types),
            })
        }
        "POWER" | "SQRT" => {
            let types = arg_types()?;
            types.iter().all(|t| numeric(&t.kind)).then(|| Type {
                kind: Kind::Double,
                nullable: any_nullable(&types),
            })
        }
        "COUNT" if agg != Aggregation::None => Some(Type::not_null(Kind::BigInt)),
        "SUM" | "AVG" | "MIN" | "MAX" if agg != Aggregation::None && args.len() == 1 => {
            if call.filter.is_some() {
                return None;
            }
            // The argument is evaluated per row: aggregates inside it are not allowed.
            let t = infer_type_in(args[0], column, Aggregation::None)?;
            let kind = match (name, &t.kind) {
                ("MIN" | "MAX", k) if *k != Kind::Null => k.clone(),
                ("SUM", Kind::Decimal(_, s)) => Kind::Decimal(38, *s),
                ("AVG", Kind::Decimal(_, s)) => Kind::Decimal(38, (*s).max(6)),
                ("SUM" | "AVG", k) if numeric(k) => k.clone(),
                _ => return None,
            };
            Some(Type {
                kind,
                nullable: t.nullable || agg == Aggregation::Global,
            })
        }
        // Other scalar functions: the function catalog's return type
        // (`super::functions::infer_call`), when it classifies it.
        _ => {
            let types: Vec<Option<Type>> = args.iter().map(|a| infer(a)).collect();
            super::functions::infer_call(name, &types).0
        }
    }
}

//! Which query column types Flink writes into which sink column types: the implicit casts of
//! Flink's `LogicalTypeCasts.supportsImplicitCast` as `DynamicSinkUtils.
//! validateSchemaAndApplyImplicitCast` applies them to an INSERT (Flink 2.3,
//! `flink-table-common` and `flink-table-planner`).
//!
//! The table, by target type root (`LogicalTypeCasts`' static block, `implicitFrom`):
//!
//! | sink type | accepted query types |
//! |---|---|
//! | `CHAR` | `CHAR` |
//! | `VARCHAR` / `STRING` | `CHAR`, `VARCHAR` |
//! | `BOOLEAN` | `BOOLEAN` |
//! | `BINARY` | `BINARY` |
//! | `VARBINARY` / `BYTES` | `BINARY`, `VARBINARY` |
//! | `DECIMAL` | every numeric type |
//! | `TINYINT` | `TINYINT` |
//! | `SMALLINT` | `TINYINT`, `SMALLINT` |
//! | `INT` | `TINYINT` .. `INT` |
//! | `BIGINT` | `TINYINT` .. `BIGINT` |
//! | `FLOAT` | integers, `FLOAT`, `DECIMAL` |
//! | `DOUBLE` | every numeric type |
//! | `DATE` | `DATE`, `TIMESTAMP` |
//! | `TIME` | `TIME`, `TIMESTAMP` |
//! | `TIMESTAMP` | `TIMESTAMP`, `TIMESTAMP_LTZ` |
//! | `TIMESTAMP_LTZ` | `TIMESTAMP_LTZ`, `TIMESTAMP` |
//! | `ARRAY`, `MULTISET`, `MAP`, `ROW` | the same root with as many children, each accepted |
//!
//! Lengths, precisions and scales do not matter (`VARCHAR(20)` into `VARCHAR(10)`,
//! `DECIMAL(10, 2)` into `DECIMAL(5, 1)`, `TIMESTAMP(6)` into `TIMESTAMP(3)` are accepted;
//! Flink casts), nor do ROW field names. Nullability does not matter either, at any depth: a
//! nullable column goes into a `NOT NULL` one (Flink's sink NOT NULL enforcer checks the rows
//! at runtime, `table.exec.sink.not-null-enforcer`). The `NULL` type goes anywhere. Each of
//! these was checked against Flink 2.3.0 (`fixtures/oracle/qv-insert/`).

use super::types::{Kind, Type};

/// Whether Flink writes a query column of type `query` into a sink column of type `sink`
/// (`Some(true)`), rejects it (`Some(false)`), or this table cannot tell (`None`: RAW,
/// VARIANT, BITMAP, intervals, and types Flink does not know, such as user-defined ones).
pub fn supports_implicit_cast(query: &Type, sink: &Type) -> Option<bool> {
    cast(&query.kind, &sink.kind)
}

/// The families of `LogicalTypeCasts`' rules.
fn is_integer(k: &Kind) -> bool {
    matches!(k, Kind::TinyInt | Kind::SmallInt | Kind::Int | Kind::BigInt)
}

fn is_numeric(k: &Kind) -> bool {
    is_integer(k) || matches!(k, Kind::Float | Kind::Double | Kind::Decimal(..))
}

fn is_character(k: &Kind) -> bool {
    matches!(k, Kind::Char(_) | Kind::VarChar(_))
}

fn is_binary(k: &Kind) -> bool {
    matches!(k, Kind::Binary(_) | Kind::VarBinary(_))
}

/// Whether the table has nothing to say about `k` at the top level.
fn unknowable(k: &Kind) -> bool {
    matches!(
        k,
        Kind::Raw | Kind::Variant | Kind::Bitmap | Kind::Interval(_) | Kind::Unsupported(_)
    )
}

fn integer_rank(k: &Kind) -> u8 {
    match k {
        Kind::TinyInt => 1,
        Kind::SmallInt => 2,
        Kind::Int => 3,
        Kind::BigInt => 4,
        _ => u8::MAX,
    }
}

fn all(pairs: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut verdict = Some(true);
    for p in pairs {
        match p {
            Some(false) => return Some(false),
            None => verdict = None,
            Some(true) => {}
        }
    }
    verdict
}

fn cast(from: &Kind, to: &Kind) -> Option<bool> {
    if matches!(from, Kind::Null) {
        // "null can be cast to an arbitrary type"
        return Some(true);
    }
    if unknowable(from) || unknowable(to) {
        // Equal unknown types are accepted as equal types; nothing else is known.
        return (from == to && !matches!(from, Kind::Unsupported(_))).then_some(true);
    }
    let verdict = match (from, to) {
        // Constructed types: the same root, as many children, each accepted.
        (Kind::Array(a), Kind::Array(b)) | (Kind::Multiset(a), Kind::Multiset(b)) => {
            return cast(&a.kind, &b.kind);
        }
        (Kind::Map(k1, v1), Kind::Map(k2, v2)) => {
            return all([cast(&k1.kind, &k2.kind), cast(&v1.kind, &v2.kind)].into_iter());
        }
        (Kind::Row(f1), Kind::Row(f2)) => {
            if f1.len() != f2.len() {
                return Some(false);
            }
            return all(f1
                .iter()
                .zip(f2.iter())
                .map(|((_, a), (_, b))| cast(&a.kind, &b.kind)));
        }
        (Kind::Char(_), Kind::Char(_)) => true,
        (a, Kind::VarChar(_)) => is_character(a),
        (Kind::Boolean, Kind::Boolean) => true,
        (Kind::Binary(_), Kind::Binary(_)) => true,
        (a, Kind::VarBinary(_)) => is_binary(a),
        (a, Kind::Decimal(..) | Kind::Double) => is_numeric(a),
        (a, Kind::Float) => is_integer(a) || matches!(a, Kind::Float | Kind::Decimal(..)),
        (a, b) if is_integer(b) => is_integer(a) && integer_rank(a) <= integer_rank(b),
        (a, Kind::Date) => matches!(a, Kind::Date | Kind::Timestamp(_)),
        (a, Kind::Time(_)) => matches!(a, Kind::Time(_) | Kind::Timestamp(_)),
        (a, Kind::Timestamp(_) | Kind::TimestampLtz(_)) => {
            matches!(a, Kind::Timestamp(_) | Kind::TimestampLtz(_))
        }
        _ => false,
    };
    Some(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantic::types::MAX_LENGTH;

    fn t(kind: Kind) -> Type {
        Type::nullable(kind)
    }

    fn ok(a: Kind, b: Kind) -> Option<bool> {
        supports_implicit_cast(&t(a), &t(b))
    }

    #[test]
    fn accepted_as_flink_accepts() {
        assert_eq!(ok(Kind::Int, Kind::BigInt), Some(true));
        assert_eq!(ok(Kind::Double, Kind::Decimal(10, 2)), Some(true));
        assert_eq!(ok(Kind::Decimal(10, 2), Kind::Decimal(5, 1)), Some(true));
        assert_eq!(ok(Kind::Timestamp(6), Kind::Timestamp(3)), Some(true));
        assert_eq!(ok(Kind::TimestampLtz(3), Kind::Timestamp(3)), Some(true));
        assert_eq!(ok(Kind::Timestamp(3), Kind::Date), Some(true));
        assert_eq!(ok(Kind::Char(3), Kind::VarChar(MAX_LENGTH)), Some(true));
        assert_eq!(ok(Kind::Null, Kind::Int), Some(true));
        let nullable = Type::nullable(Kind::Int);
        let not_null = Type::not_null(Kind::Int);
        assert_eq!(supports_implicit_cast(&nullable, &not_null), Some(true));
        let arr = |e: Type| t(Kind::Array(Box::new(e)));
        assert_eq!(
            supports_implicit_cast(&arr(nullable.clone()), &arr(not_null)),
            Some(true)
        );
        let row = |names: [&str; 2], a: Kind| {
            t(Kind::Row(vec![
                (names[0].to_string(), t(a)),
                (names[1].to_string(), t(Kind::VarChar(MAX_LENGTH))),
            ]))
        };
        assert_eq!(
            supports_implicit_cast(&row(["x", "y"], Kind::Int), &row(["a", "b"], Kind::BigInt)),
            Some(true)
        );
    }

    #[test]
    fn rejected_as_flink_rejects() {
        assert_eq!(ok(Kind::BigInt, Kind::Int), Some(false));
        assert_eq!(ok(Kind::Int, Kind::VarChar(MAX_LENGTH)), Some(false));
        assert_eq!(ok(Kind::VarChar(MAX_LENGTH), Kind::Int), Some(false));
        assert_eq!(ok(Kind::Double, Kind::Float), Some(false));
        assert_eq!(ok(Kind::Decimal(10, 2), Kind::Int), Some(false));
        assert_eq!(ok(Kind::Date, Kind::Timestamp(3)), Some(false));
        assert_eq!(ok(Kind::TimestampLtz(3), Kind::Date), Some(false));
        assert_eq!(ok(Kind::Boolean, Kind::Int), Some(false));
        assert_eq!(
            ok(Kind::VarBinary(MAX_LENGTH), Kind::VarChar(MAX_LENGTH)),
            Some(false)
        );
        let arr = |e: Kind| t(Kind::Array(Box::new(t(e))));
        assert_eq!(
            supports_implicit_cast(&arr(Kind::Int), &arr(Kind::VarChar(MAX_LENGTH))),
            Some(false)
        );
    }

    #[test]
    fn unknown_types_are_not_judged() {
        assert_eq!(ok(Kind::Raw, Kind::Int), None);
        assert_eq!(ok(Kind::Int, Kind::Unsupported("my_type".into())), None);
        assert_eq!(ok(Kind::Variant, Kind::Variant), Some(true));
    }
}

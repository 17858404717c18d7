//! Which explicit `CAST`s Flink 2.3 accepts, and how Flink words a rejection.
//!
//! Flink decides an explicit cast in two places, and the verdict is the same whichever rejects
//! it (verified against Flink 2.3.0 in `fixtures/oracle/qv-types/`):
//! - while validating, Calcite's `SqlCastFunction.checkOperandTypes` (with Flink's type
//!   coercion rules, `SqlTypeCoercionRule`) rejects casts between families that have no
//!   conversion: "Cast function cannot convert value of type BOOLEAN to type DATE";
//! - while planning, Flink's `LogicalTypeCasts.supportsExplicitCast` (flink-table-common) and
//!   the planner's cast rules (`CastRuleProvider`) reject the rest, some with a hint of their
//!   own: "The cast from TIMESTAMP type to NUMERIC type is not allowed. It's recommended to use
//!   UNIX_TIMESTAMP(CAST(timestamp_col AS STRING)) instead."
//!
//! Casts this table does not classify are [`CastVerdict::Unknown`]: no finding.

use super::types::{Kind, Type};

/// Flink's verdict on an explicit `CAST(x AS to)` with `x` of a known type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CastVerdict {
    /// Flink accepts it.
    Allowed,
    /// Flink rejects it; with Flink's message when its words are known.
    Rejected {
        /// Flink's message.
        flink: Option<String>,
        /// Whether Flink rejects it only while planning (not in its validator).
        planning: bool,
    },
    /// Not classified: say nothing.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Numeric,
    Character,
    Boolean,
    Binary,
    Date,
    Time,
    Timestamp,
    TimestampLtz,
    Collection,
    Structured,
    Null,
    Other,
}

fn family(kind: &Kind) -> Family {
    match kind {
        Kind::TinyInt
        | Kind::SmallInt
        | Kind::Int
        | Kind::BigInt
        | Kind::Float
        | Kind::Double
        | Kind::Decimal(..) => Family::Numeric,
        Kind::Char(_) | Kind::VarChar(_) => Family::Character,
        Kind::Boolean => Family::Boolean,
        Kind::Binary(_) | Kind::VarBinary(_) => Family::Binary,
        Kind::Date => Family::Date,
        Kind::Time(_) => Family::Time,
        Kind::Timestamp(_) => Family::Timestamp,
        Kind::TimestampLtz(_) => Family::TimestampLtz,
        Kind::Array(_) | Kind::Multiset(_) | Kind::Map(..) => Family::Collection,
        Kind::Row(_) => Family::Structured,
        Kind::Null => Family::Null,
        _ => Family::Other,
    }
}

/// The name Calcite gives a type in its messages (`INTEGER`, `VARCHAR(2147483647)`,
/// `DECIMAL(10, 2)`, `TIME(0)`, `INTEGER ARRAY`), without nullability; `None` where its
/// spelling is not known.
pub fn calcite_name(t: &Type) -> Option<String> {
    Some(match &t.kind {
        Kind::TinyInt => "TINYINT".into(),
        Kind::SmallInt => "SMALLINT".into(),
        Kind::Int => "INTEGER".into(),
        Kind::BigInt => "BIGINT".into(),
        Kind::Float => "FLOAT".into(),
        Kind::Double => "DOUBLE".into(),
        Kind::Decimal(p, s) => format!("DECIMAL({p}, {s})"),
        Kind::Char(n) => format!("CHAR({n})"),
        Kind::VarChar(n) => format!("VARCHAR({n})"),
        Kind::Boolean => "BOOLEAN".into(),
        Kind::Binary(n) => format!("BINARY({n})"),
        Kind::VarBinary(n) => format!("VARBINARY({n})"),
        Kind::Date => "DATE".into(),
        Kind::Time(p) => format!("TIME({p})"),
        Kind::Timestamp(p) => format!("TIMESTAMP({p})"),
        Kind::TimestampLtz(p) => format!("TIMESTAMP_WITH_LOCAL_TIME_ZONE({p})"),
        Kind::Array(e) => format!("{} ARRAY", calcite_name(e)?),
        _ => return None,
    })
}

/// The name of a type's root in Flink's planner messages (`LogicalTypeRoot`: `INTEGER`,
/// `VARCHAR`, `CHAR`, `DECIMAL`, ...); `None` for the roots not spelled here.
pub fn root_name(t: &Type) -> Option<&'static str> {
    Some(match &t.kind {
        Kind::TinyInt => "TINYINT",
        Kind::SmallInt => "SMALLINT",
        Kind::Int => "INTEGER",
        Kind::BigInt => "BIGINT",
        Kind::Float => "FLOAT",
        Kind::Double => "DOUBLE",
        Kind::Decimal(..) => "DECIMAL",
        Kind::Char(_) => "CHAR",
        Kind::VarChar(_) => "VARCHAR",
        Kind::Boolean => "BOOLEAN",
        _ => return None,
    })
}

/// Flink 2.3's verdict on `CAST(x AS to)` where `x` has type `from`.
pub fn explicit_cast(from: &Type, to: &Type) -> CastVerdict {
    use Family as F;
    let (f, t) = (family(&from.kind), family(&to.kind));
    let calcite = || {
        let flink = match (calcite_name(from), calcite_name(to)) {
            (Some(a), Some(b)) => Some(format!(
                "Cast function cannot convert value of type {a} to type {b}"
            )),
            _ => None,
        };
        CastVerdict::Rejected {
            flink,
            planning: false,
        }
    };
    match (f, t) {
        (F::Null, _) | (_, F::Character) if f != F::Other => CastVerdict::Allowed,
        (F::Numeric, F::Numeric | F::Boolean) | (F::Boolean, F::Numeric | F::Boolean) => {
            CastVerdict::Allowed
        }
        (F::Character, F::Numeric | F::Boolean | F::Binary | F::Date | F::Time)
        | (F::Character, F::Timestamp | F::TimestampLtz) => CastVerdict::Allowed,
        (F::Binary, F::Binary) => CastVerdict::Allowed,
        (F::Date, F::Date | F::Timestamp | F::TimestampLtz) => CastVerdict::Allowed,
        (F::Time, F::Time | F::Timestamp) => CastVerdict::Allowed,
        (F::Timestamp | F::TimestampLtz, F::Date | F::Time | F::Timestamp | F::TimestampLtz) => {
            CastVerdict::Allowed
        }
        (F::Numeric, F::Binary | F::Date | F::Time) => calcite(),
        (F::Boolean, F::Binary | F::Date | F::Time | F::Timestamp) => calcite(),
        (F::Binary, F::Numeric | F::Boolean) => calcite(),
        (F::Date, F::Numeric | F::Boolean | F::Time) => calcite(),
        (F::Time, F::Numeric | F::Boolean | F::Date) => calcite(),
        (F::Timestamp | F::TimestampLtz, F::Boolean) | (F::Boolean, F::TimestampLtz) => calcite(),
        (F::Numeric, F::Collection) | (F::Collection, F::Numeric) => calcite(),
        (F::Numeric, F::Timestamp) => CastVerdict::Rejected {
            flink: Some(
                "The cast from NUMERIC type to TIMESTAMP type is not allowed. It's recommended to use TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, note the numeric is in seconds."
                    .to_string(),
            ),
            planning: true,
        },
        (F::Numeric, F::TimestampLtz) => CastVerdict::Rejected {
            flink: Some(
                "The cast from NUMERIC type to TIMESTAMP_LTZ type is not allowed. It's recommended to use TO_TIMESTAMP_LTZ(numeric_col, precision) instead."
                    .to_string(),
            ),
            planning: true,
        },
        (F::Timestamp, F::Numeric) => CastVerdict::Rejected {
            flink: Some(
                "The cast from TIMESTAMP type to NUMERIC type is not allowed. It's recommended to use UNIX_TIMESTAMP(CAST(timestamp_col AS STRING)) instead."
                    .to_string(),
            ),
            planning: true,
        },
        (F::TimestampLtz, F::Numeric) => CastVerdict::Rejected {
            flink: Some("The cast from TIMESTAMP_LTZ type to NUMERIC type is not allowed.".to_string()),
            planning: true,
        },
        _ => CastVerdict::Unknown,
    }
}

/// Flink's verdict on a metadata column of type `to` whose key the source offers as type
/// `from`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetadataCast {
    /// Flink reads the key into the column.
    Allowed,
    /// `DynamicSourceUtils#validateAndApplyMetadata` rejects the column: no explicit cast
    /// (`LogicalTypeCasts#supportsExplicitCast`) from the key's type to the column's.
    Invalid,
    /// The validation passes, but the planner's cast rules reject the cast it inserts, with
    /// this message.
    Planner(String),
    /// Not classified: say nothing.
    Unknown,
}

/// How Flink 2.3 reads a metadata key of type `from` into a column of type `to`: the
/// verdicts of [`explicit_cast`] (the families Flink's `LogicalTypeCasts` and Calcite agree on),
/// and constructed types (`ARRAY`, `MAP`, `MULTISET`, `ROW`), which no predefined type casts
/// to or from but `STRING`'s own. Verified with Flink 2.3.0 (`fixtures/oracle/options/`
/// 135-146: filesystem's `file.*` keys read as BOOLEAN, DATE, ARRAY, ROW, MAP, BYTES, BIGINT).
pub fn metadata_cast(from: &Type, to: &Type) -> MetadataCast {
    match explicit_cast(from, to) {
        CastVerdict::Allowed => return MetadataCast::Allowed,
        CastVerdict::Rejected {
            planning: false, ..
        } => return MetadataCast::Invalid,
        CastVerdict::Rejected {
            planning: true,
            flink: Some(m),
        } => return MetadataCast::Planner(m),
        CastVerdict::Rejected { .. } => return MetadataCast::Unknown,
        CastVerdict::Unknown => {}
    }
    use Family as F;
    let constructed = |f: Family| matches!(f, F::Collection | F::Structured);
    let scalar = |f: Family| {
        matches!(
            f,
            F::Numeric
                | F::Character
                | F::Boolean
                | F::Binary
                | F::Date
                | F::Time
                | F::Timestamp
                | F::TimestampLtz
        )
    };
    let (f, t) = (family(&from.kind), family(&to.kind));
    let shape = |k: &Kind| match k {
        Kind::Array(_) => 1,
        Kind::Map(..) => 2,
        Kind::Multiset(_) => 3,
        Kind::Row(_) => 4,
        _ => 0,
    };
    if (scalar(f) && constructed(t))
        || (constructed(f) && scalar(t) && t != F::Character)
        || (constructed(f) && constructed(t) && shape(&from.kind) != shape(&to.kind))
    {
        return MetadataCast::Invalid;
    }
    MetadataCast::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(kind: Kind) -> Type {
        Type::nullable(kind)
    }

    #[test]
    fn verdicts_of_flink() {
        assert_eq!(
            explicit_cast(&t(Kind::VarChar(5)), &t(Kind::Int)),
            CastVerdict::Allowed
        );
        assert_eq!(
            explicit_cast(&t(Kind::Int), &t(Kind::Boolean)),
            CastVerdict::Allowed
        );
        assert_eq!(
            explicit_cast(
                &t(Kind::Array(Box::new(t(Kind::Int)))),
                &t(Kind::VarChar(9))
            ),
            CastVerdict::Allowed
        );
        assert_eq!(
            explicit_cast(&t(Kind::Boolean), &t(Kind::Date)),
            CastVerdict::Rejected {
                flink: Some(
                    "Cast function cannot convert value of type BOOLEAN to type DATE".into()
                ),
                planning: false
            }
        );
        assert!(matches!(
            explicit_cast(&t(Kind::Timestamp(3)), &t(Kind::BigInt)),
            CastVerdict::Rejected { planning: true, .. }
        ));
        assert_eq!(
            explicit_cast(&t(Kind::Raw), &t(Kind::Int)),
            CastVerdict::Unknown
        );
        assert_eq!(
            explicit_cast(&t(Kind::Null), &t(Kind::Date)),
            CastVerdict::Allowed
        );
    }
}

//! Logical data types as Flink resolves them, and how `SHOW CREATE TABLE` prints them
//! (`flink-types.tsv`: `STRING` is `VARCHAR(2147483647)`, `TIMESTAMP_LTZ(3)` is
//! `TIMESTAMP(3) WITH LOCAL TIME ZONE`, ROW field names backticked, field comments dropped).

use crate::syntax::ast::{DataType, Nullability, TimeZoneKind, TypeKind};
use std::fmt::Write as _;

/// Largest VARCHAR / VARBINARY length: `STRING` and `BYTES`.
pub const MAX_LENGTH: u32 = 2_147_483_647;

/// A resolved type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Type {
    /// The type without nullability.
    pub kind: Kind,
    /// Whether NULL is allowed.
    pub nullable: bool,
}

/// The kinds of resolved types, with their defaults filled in (`DECIMAL` is `DECIMAL(10, 0)`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Kind {
    Char(u32),
    VarChar(u32),
    Boolean,
    Binary(u32),
    VarBinary(u32),
    Decimal(u32, u32),
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    Float,
    Double,
    Date,
    Time(u32),
    Timestamp(u32),
    TimestampLtz(u32),
    /// Day-time or year-month interval (only as expression types).
    Interval(String),
    Array(Box<Type>),
    Multiset(Box<Type>),
    Map(Box<Type>, Box<Type>),
    /// Fields: name and type (comments are dropped, as SHOW CREATE does).
    Row(Vec<(String, Type)>),
    Raw,
    Variant,
    Bitmap,
    Null,
    /// A type Flink does not know or rejects as a column type (`BOOL`, `REAL`, `INTERVAL ...`,
    /// user-defined names); the text is what was written.
    Unsupported(String),
}

impl Type {
    /// A nullable type of `kind`.
    pub fn nullable(kind: Kind) -> Type {
        Type {
            kind,
            nullable: true,
        }
    }
    /// A NOT NULL type of `kind`.
    pub fn not_null(kind: Kind) -> Type {
        Type {
            kind,
            nullable: false,
        }
    }
    /// The same type with another nullability.
    pub fn with_nullable(mut self, nullable: bool) -> Type {
        self.nullable = nullable;
        self
    }

    /// Resolves a declared type: defaults filled in, `NOT NULL` applied.
    pub fn from_ast(t: &DataType) -> Type {
        let kind = match &t.kind {
            TypeKind::Char(n) => Kind::Char(n.unwrap_or(1)),
            TypeKind::VarChar(n) => Kind::VarChar(n.unwrap_or(MAX_LENGTH)),
            TypeKind::String => Kind::VarChar(MAX_LENGTH),
            TypeKind::Boolean => Kind::Boolean,
            TypeKind::Binary(n) => Kind::Binary(n.unwrap_or(1)),
            TypeKind::VarBinary(n) => Kind::VarBinary(n.unwrap_or(MAX_LENGTH)),
            TypeKind::Bytes => Kind::VarBinary(MAX_LENGTH),
            // Flink rejects a precision outside 1..=38 or a scale above it; the type is clamped
            // so that the arithmetic on it stays in range.
            TypeKind::Decimal(p, s) => {
                let p = p.unwrap_or(10).clamp(1, 38);
                Kind::Decimal(p, s.unwrap_or(0).min(p))
            }
            TypeKind::TinyInt => Kind::TinyInt,
            TypeKind::SmallInt => Kind::SmallInt,
            TypeKind::Int => Kind::Int,
            TypeKind::BigInt => Kind::BigInt,
            TypeKind::Float => Kind::Float,
            TypeKind::Double => Kind::Double,
            TypeKind::Real => Kind::Unsupported("REAL".to_string()),
            TypeKind::Date => Kind::Date,
            TypeKind::Time(p) => Kind::Time(p.unwrap_or(0)),
            TypeKind::Timestamp(p, TimeZoneKind::Local) => Kind::TimestampLtz(p.unwrap_or(6)),
            TypeKind::Timestamp(p, TimeZoneKind::Without) => Kind::Timestamp(p.unwrap_or(6)),
            TypeKind::Timestamp(_, TimeZoneKind::With) => {
                Kind::Unsupported("TIMESTAMP WITH TIME ZONE".to_string())
            }
            TypeKind::Interval(q) => Kind::Unsupported(format!("INTERVAL {}", q.render())),
            TypeKind::Array(inner) => Kind::Array(Box::new(Type::from_ast(inner))),
            TypeKind::Multiset(inner) => Kind::Multiset(Box::new(Type::from_ast(inner))),
            TypeKind::Map(k, v) => {
                Kind::Map(Box::new(Type::from_ast(k)), Box::new(Type::from_ast(v)))
            }
            TypeKind::Row(fields) | TypeKind::Structured(fields) => Kind::Row(
                fields
                    .iter()
                    .map(|f| (f.name.text.to_string(), Type::from_ast(&f.data_type)))
                    .collect(),
            ),
            TypeKind::Raw(_) => Kind::Raw,
            TypeKind::Variant => Kind::Variant,
            TypeKind::Bitmap => Kind::Bitmap,
            TypeKind::Null => Kind::Null,
            TypeKind::Descriptor => Kind::Unsupported("DESCRIPTOR".to_string()),
            TypeKind::Named(name) => Kind::Unsupported(name.dotted()),
        };
        Type {
            kind,
            nullable: t.nullability != Nullability::NotNull,
        }
    }

    /// Whether this is `TIMESTAMP(p)` or `TIMESTAMP_LTZ(p)` with `p <= 3`, as a rowtime needs.
    pub fn is_rowtime_capable(&self) -> bool {
        matches!(self.kind, Kind::Timestamp(p) | Kind::TimestampLtz(p) if p <= 3)
    }

    /// Whether this is a timestamp of any precision.
    pub fn is_timestamp(&self) -> bool {
        matches!(self.kind, Kind::Timestamp(_) | Kind::TimestampLtz(_))
    }

    /// The serialized form `SHOW CREATE TABLE` prints, e.g. `VARCHAR(2147483647) NOT NULL`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write_to(&mut out);
        out
    }

    fn write_to(&self, out: &mut String) {
        match &self.kind {
            Kind::Char(n) => {
                let _ = write!(out, "CHAR({n})");
            }
            Kind::VarChar(n) => {
                let _ = write!(out, "VARCHAR({n})");
            }
            Kind::Boolean => out.push_str("BOOLEAN"),
            Kind::Binary(n) => {
                let _ = write!(out, "BINARY({n})");
            }
            Kind::VarBinary(n) => {
                let _ = write!(out, "VARBINARY({n})");
            }
            Kind::Decimal(p, s) => {
                let _ = write!(out, "DECIMAL({p}, {s})");
            }
            Kind::TinyInt => out.push_str("TINYINT"),
            Kind::SmallInt => out.push_str("SMALLINT"),
            Kind::Int => out.push_str("INT"),
            Kind::BigInt => out.push_str("BIGINT"),
            Kind::Float => out.push_str("FLOAT"),
            Kind::Double => out.push_str("DOUBLE"),
            Kind::Date => out.push_str("DATE"),
            Kind::Time(p) => {
                let _ = write!(out, "TIME({p})");
            }
            Kind::Timestamp(p) => {
                let _ = write!(out, "TIMESTAMP({p})");
            }
            Kind::TimestampLtz(p) => {
                let _ = write!(out, "TIMESTAMP({p}) WITH LOCAL TIME ZONE");
            }
            Kind::Interval(q) => {
                let _ = write!(out, "INTERVAL {q}");
            }
            Kind::Array(inner) => {
                out.push_str("ARRAY<");
                inner.write_to(out);
                out.push('>');
            }
            Kind::Multiset(inner) => {
                out.push_str("MULTISET<");
                inner.write_to(out);
                out.push('>');
            }
            Kind::Map(k, v) => {
                out.push_str("MAP<");
                k.write_to(out);
                out.push_str(", ");
                v.write_to(out);
                out.push('>');
            }
            Kind::Row(fields) => {
                out.push_str("ROW<");
                for (i, (name, t)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&crate::semantic::names::quote(name));
                    out.push(' ');
                    t.write_to(out);
                }
                out.push('>');
            }
            Kind::Raw => out.push_str("RAW"),
            Kind::Variant => out.push_str("VARIANT"),
            Kind::Bitmap => out.push_str("BITMAP"),
            Kind::Null => out.push_str("NULL"),
            Kind::Unsupported(text) => out.push_str(text),
        }
        if !self.nullable {
            out.push_str(" NOT NULL");
        }
    }

    /// Whether a value of this type converts to `to` without loss, as Flink's implicit casts
    /// allow when a materialized table's column type changes (flink-spec §4.6: INT to BIGINT is
    /// accepted; a narrowing, another family, or nullable to NOT NULL is not).
    pub fn widens_to(&self, to: &Type) -> bool {
        if self.nullable && !to.nullable {
            return false;
        }
        let rank = |k: &Kind| match k {
            Kind::TinyInt => Some(1),
            Kind::SmallInt => Some(2),
            Kind::Int => Some(3),
            Kind::BigInt => Some(4),
            _ => None,
        };
        match (&self.kind, &to.kind) {
            (a, b) if a == b => true,
            (a, b) if rank(a).is_some() && rank(b).is_some() => rank(a) <= rank(b),
            (a, Kind::Float | Kind::Double | Kind::Decimal(..)) if rank(a).is_some() => true,
            (Kind::Float, Kind::Double) => true,
            (Kind::Decimal(..), Kind::Double) => true,
            (Kind::Decimal(p, s), Kind::Decimal(p2, s2)) => {
                s2 >= s && p2.saturating_sub(*s2) >= p.saturating_sub(*s)
            }
            (Kind::Char(n) | Kind::VarChar(n), Kind::VarChar(m)) => m >= n,
            (Kind::Binary(n) | Kind::VarBinary(n), Kind::VarBinary(m)) => m >= n,
            (Kind::Timestamp(p), Kind::Timestamp(q)) => q >= p,
            (Kind::TimestampLtz(p), Kind::TimestampLtz(q)) => q >= p,
            (Kind::Time(p), Kind::Time(q)) => q >= p,
            _ => false,
        }
    }

    /// The short form Flink uses in messages (`asSummaryString`): `STRING` for
    /// `VARCHAR(2147483647)`, `BYTES` for `VARBINARY(2147483647)`, otherwise as rendered.
    pub fn summary(&self) -> String {
        let base = match &self.kind {
            Kind::VarChar(MAX_LENGTH) => "STRING".to_string(),
            Kind::VarBinary(MAX_LENGTH) => "BYTES".to_string(),
            Kind::TimestampLtz(p) => format!("TIMESTAMP_LTZ({p})"),
            Kind::Row(fields) => format!(
                "ROW<{}>",
                fields
                    .iter()
                    .map(|(n, t)| format!("{} {}", crate::semantic::names::quote(n), t.summary()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Kind::Array(t) => format!("ARRAY<{}>", t.summary()),
            Kind::Multiset(t) => format!("MULTISET<{}>", t.summary()),
            Kind::Map(k, v) => format!("MAP<{}, {}>", k.summary(), v.summary()),
            _ => self.clone().with_nullable(true).render(),
        };
        if self.nullable {
            base
        } else {
            format!("{base} NOT NULL")
        }
    }
}

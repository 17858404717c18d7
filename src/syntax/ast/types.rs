//! Data types as written in DDL and CAST (Flink's `ExtendedDataType` grammar).

use super::{Ident, ObjectName, StringLit};
use crate::source::Span;
use serde::Serialize;

/// A data type with its nullability.
#[derive(Debug, Clone, Serialize)]
pub struct DataType {
    /// The type.
    pub kind: TypeKind,
    /// `NULL` / `NOT NULL` suffix.
    pub nullability: Nullability,
    /// The whole type, suffix included.
    pub span: Span,
}

impl DataType {
    /// Whether `NOT NULL` was written.
    pub fn is_not_null(&self) -> bool {
        self.nullability == Nullability::NotNull
    }
}

/// The `NULL` / `NOT NULL` suffix of a type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Nullability {
    /// Nothing written (nullable).
    Unspecified,
    /// `NULL` written (nullable).
    Null,
    /// `NOT NULL`.
    NotNull,
}

/// Time-zone suffix of TIMESTAMP / TIME.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TimeZoneKind {
    /// No suffix, or `WITHOUT TIME ZONE`.
    Without,
    /// `WITH LOCAL TIME ZONE` (or `TIMESTAMP_LTZ`).
    Local,
    /// `WITH TIME ZONE` (Flink rejects it in DDL).
    With,
}

/// A field of a ROW type.
#[derive(Debug, Clone, Serialize)]
pub struct RowField {
    /// Field name.
    pub name: Ident,
    /// Field type.
    pub data_type: DataType,
    /// Field comment (dropped by SHOW CREATE).
    pub comment: Option<StringLit>,
}

/// An interval qualifier such as `DAY`, `DAY(2) TO SECOND(3)`, `MINUTE TO SECOND`.
#[derive(Debug, Clone, Serialize)]
pub struct IntervalQualifier {
    /// The leading unit, upper-case (`YEAR`, `MONTH`, `WEEK`, `DAY`, `HOUR`, `MINUTE`,
    /// `SECOND`, `MILLISECOND`, ... as written, plural folded to singular).
    pub start: String,
    /// Precision of the leading unit.
    pub start_precision: Option<u32>,
    /// Fractional-second precision of a leading SECOND: the `3` of `SECOND(1, 3)`.
    pub start_fraction_precision: Option<u32>,
    /// The trailing unit of a `TO` range.
    pub end: Option<String>,
    /// Fractional precision of a trailing SECOND.
    pub end_precision: Option<u32>,
    /// The qualifier.
    pub span: Span,
    /// The leading unit's word.
    pub start_span: Span,
    /// The `TO` of a range.
    pub to_span: Option<Span>,
    /// The trailing unit's word.
    pub end_span: Option<Span>,
}

impl IntervalQualifier {
    /// Where Flink's parser stops at `unit`, the leading or the trailing unit, when its
    /// interval grammar lacks the unit: at the leading unit itself; at a trailing one, on
    /// `TO unit` (JavaCC looks two tokens ahead), or on `TO` alone after SECOND, which takes
    /// no range.
    pub fn unknown_unit_span(&self, unit: &str) -> Span {
        if unit == self.start {
            return self.start_span;
        }
        match (self.to_span, self.end_span) {
            (Some(to), _) if self.start == "SECOND" => to,
            (Some(to), Some(end)) => to.cover(end),
            _ => self.span,
        }
    }

    /// Rendering as Flink prints it (`DAY`, `MINUTE TO SECOND`).
    pub fn render(&self) -> String {
        let mut out = self.start.clone();
        match (self.start_precision, self.start_fraction_precision) {
            (Some(p), Some(f)) => out.push_str(&format!("({p}, {f})")),
            (Some(p), None) => out.push_str(&format!("({p})")),
            _ => {}
        }
        if let Some(end) = &self.end {
            out.push_str(" TO ");
            out.push_str(end);
            if let Some(p) = self.end_precision {
                out.push_str(&format!("({p})"));
            }
        }
        out
    }

    /// The qualifier in the type of an interval literal, as Flink prints it: Flink's planner
    /// (`FlinkTypeFactory`) turns every day-time interval into `INTERVAL SECOND(3)` and every
    /// year-month interval into `INTERVAL MONTH` (checked on Flink 2.3 for `SECOND`,
    /// `SECOND(2)`, `SECOND(1, 3)` and `DAY TO SECOND(2)`).
    pub fn render_type(&self) -> String {
        let last = self.end.as_deref().unwrap_or(&self.start);
        match last {
            "YEAR" | "MONTH" | "QUARTER" | "MILLENNIUM" | "CENTURY" | "DECADE" => {
                "MONTH".to_string()
            }
            "DAY" | "HOUR" | "MINUTE" | "SECOND" | "WEEK" => "SECOND(3)".to_string(),
            _ => self.render(),
        }
    }
}

/// The data types of Flink SQL (flink-types.tsv lists how Flink prints each).
#[derive(Debug, Clone, Serialize)]
pub enum TypeKind {
    /// `CHAR[(n)]` / `CHARACTER[(n)]`.
    Char(Option<u32>),
    /// `VARCHAR[(n)]` / `CHARACTER VARYING[(n)]`.
    VarChar(Option<u32>),
    /// `STRING` (= `VARCHAR(2147483647)`).
    String,
    /// `BOOLEAN`.
    Boolean,
    /// `BINARY[(n)]`.
    Binary(Option<u32>),
    /// `VARBINARY[(n)]` / `BINARY VARYING[(n)]`.
    VarBinary(Option<u32>),
    /// `BYTES` (= `VARBINARY(2147483647)`).
    Bytes,
    /// `DECIMAL | DEC | NUMERIC [(p [, s])]`.
    Decimal(Option<u32>, Option<u32>),
    /// `TINYINT`.
    TinyInt,
    /// `SMALLINT`.
    SmallInt,
    /// `INT` / `INTEGER`.
    Int,
    /// `BIGINT`.
    BigInt,
    /// `FLOAT`.
    Float,
    /// `DOUBLE [PRECISION]`.
    Double,
    /// `REAL` (Flink rejects it as a column type).
    Real,
    /// `DATE`.
    Date,
    /// `TIME[(p)]`.
    Time(Option<u32>),
    /// `TIMESTAMP[(p)] [WITH[OUT] [LOCAL] TIME ZONE]`, `TIMESTAMP_LTZ[(p)]`.
    Timestamp(Option<u32>, TimeZoneKind),
    /// `INTERVAL qualifier` (Flink rejects it as a column type).
    Interval(Box<IntervalQualifier>),
    /// `ARRAY<t>` / `t ARRAY`.
    Array(Box<DataType>),
    /// `MULTISET<t>` / `t MULTISET`.
    Multiset(Box<DataType>),
    /// `MAP<k, v>`.
    Map(Box<DataType>, Box<DataType>),
    /// `ROW<...>` / `ROW(...)`.
    Row(Vec<RowField>),
    /// `RAW('class', 'snapshot')`.
    Raw(Vec<StringLit>),
    /// `STRUCTURED<'class', fields...>`.
    Structured(Vec<RowField>),
    /// `VARIANT` (Flink 2.1+).
    Variant,
    /// `BITMAP` (Flink 2.3+).
    Bitmap,
    /// `NULL` type.
    Null,
    /// `DESCRIPTOR` (in PTF signatures).
    Descriptor,
    /// A user-defined or unknown type name (boxed: rare, and a data type is part of many
    /// nodes).
    Named(Box<ObjectName>),
}

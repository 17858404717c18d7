//! Data types (Flink's `ExtendedDataType`) and interval qualifiers.

use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};
use crate::syntax::{FlinkSyntax, SyntaxErrorKind};

impl Parser<'_> {
    /// A data type with optional `ARRAY` / `MULTISET` suffixes and `NULL` / `NOT NULL`.
    pub(crate) fn data_type(&mut self) -> PResult<DataType> {
        self.enter()?;
        let result = self.data_type_inner();
        self.exit();
        result
    }

    fn data_type_inner(&mut self) -> PResult<DataType> {
        let start = self.start();
        let mut data_type = self.base_type()?;
        loop {
            // What follows the type, read once: most types end here.
            let mut kw = self.kw();
            if matches!(kw, Kw::NOT | Kw::NULL) {
                data_type.nullability = self.nullability();
                kw = self.kw();
            } else {
                data_type.nullability = Nullability::Unspecified;
            }
            data_type.span = self.finish(start);
            if kw == Kw::ARRAY {
                self.bump();
                let inner = Box::new(data_type);
                data_type = DataType {
                    kind: TypeKind::Array(inner),
                    nullability: Nullability::Unspecified,
                    span: self.finish(start),
                };
            } else if kw == Kw::MULTISET {
                self.bump();
                let inner = Box::new(data_type);
                data_type = DataType {
                    kind: TypeKind::Multiset(inner),
                    nullability: Nullability::Unspecified,
                    span: self.finish(start),
                };
            } else {
                return Ok(data_type);
            }
        }
    }

    fn nullability(&mut self) -> Nullability {
        if self.at(Kw::NOT) && self.nth_at(1, Kw::NULL) {
            self.bump();
            self.bump();
            Nullability::NotNull
        } else if self.at(Kw::NULL) && !self.nth_at(1, Kw::ON) {
            self.bump();
            Nullability::Null
        } else {
            Nullability::Unspecified
        }
    }

    fn base_type(&mut self) -> PResult<DataType> {
        let tok = self.current();
        let start = tok.span.start;
        let kind = match tok.kw {
            Kw::CHAR | Kw::CHARACTER => {
                self.bump();
                if self.eat(Kw::VARYING).is_some() {
                    TypeKind::VarChar(self.opt_length()?)
                } else {
                    TypeKind::Char(self.opt_length()?)
                }
            }
            Kw::VARCHAR => {
                self.bump();
                TypeKind::VarChar(self.opt_length()?)
            }
            Kw::STRING => {
                self.bump();
                TypeKind::String
            }
            Kw::BOOLEAN => {
                self.bump();
                TypeKind::Boolean
            }
            Kw::BINARY => {
                self.bump();
                if self.eat(Kw::VARYING).is_some() {
                    TypeKind::VarBinary(self.opt_length()?)
                } else {
                    TypeKind::Binary(self.opt_length()?)
                }
            }
            Kw::VARBINARY => {
                self.bump();
                TypeKind::VarBinary(self.opt_length()?)
            }
            Kw::BYTES => {
                self.bump();
                TypeKind::Bytes
            }
            Kw::DECIMAL | Kw::DEC | Kw::NUMERIC => {
                self.bump();
                let (p, s) = self.opt_precision_scale()?;
                self.check_decimal(start, p, s);
                TypeKind::Decimal(p, s)
            }
            Kw::TINYINT => {
                self.bump();
                TypeKind::TinyInt
            }
            Kw::SMALLINT => {
                self.bump();
                TypeKind::SmallInt
            }
            Kw::INT | Kw::INTEGER => {
                self.bump();
                TypeKind::Int
            }
            Kw::BIGINT => {
                self.bump();
                TypeKind::BigInt
            }
            Kw::FLOAT => {
                self.bump();
                TypeKind::Float
            }
            Kw::DOUBLE => {
                self.bump();
                self.eat(Kw::PRECISION);
                TypeKind::Double
            }
            Kw::REAL => {
                self.bump();
                TypeKind::Real
            }
            Kw::DATE => {
                self.bump();
                TypeKind::Date
            }
            Kw::TIME => {
                self.bump();
                let p = self.opt_length()?;
                let _ = self.time_zone()?;
                TypeKind::Time(p)
            }
            Kw::TIMESTAMP => {
                self.bump();
                let p = self.opt_length()?;
                let tz = self.time_zone()?;
                TypeKind::Timestamp(p, tz)
            }
            Kw::TIMESTAMP_LTZ => {
                self.bump();
                TypeKind::Timestamp(self.opt_length()?, TimeZoneKind::Local)
            }
            Kw::INTERVAL => {
                self.bump();
                TypeKind::Interval(Box::new(self.interval_qualifier()?))
            }
            Kw::ARRAY | Kw::MULTISET if self.nth(1).kind == TokenKind::Lt => {
                let multiset = self.bump().kw == Kw::MULTISET;
                self.bump();
                let inner = Box::new(self.data_type()?);
                self.expect_kind(TokenKind::Gt, "`>`")?;
                if multiset {
                    TypeKind::Multiset(inner)
                } else {
                    TypeKind::Array(inner)
                }
            }
            Kw::MAP if self.nth(1).kind == TokenKind::Lt => {
                self.bump();
                self.bump();
                let key = Box::new(self.data_type()?);
                self.expect_kind(TokenKind::Comma, "`,`")?;
                let value = Box::new(self.data_type()?);
                self.expect_kind(TokenKind::Gt, "`>`")?;
                TypeKind::Map(key, value)
            }
            Kw::ROW => {
                self.bump();
                let fields = self.row_fields()?;
                self.check_row_fields(start, &fields);
                TypeKind::Row(fields)
            }
            Kw::RAW => {
                self.bump();
                self.expect_kind(TokenKind::LParen, "`(`")?;
                let mut args = vec![self.string_lit("a class name in quotes")?];
                while self.eat_kind(TokenKind::Comma).is_some() {
                    args.push(self.string_lit("a serializer snapshot in quotes")?);
                }
                self.expect_kind(TokenKind::RParen, "`)`")?;
                TypeKind::Raw(args)
            }
            Kw::STRUCTURED => {
                self.bump();
                self.expect_kind(TokenKind::Lt, "`<`")?;
                self.string_lit("a class name in quotes")?;
                let mut fields = Vec::new();
                while self.eat_kind(TokenKind::Comma).is_some() {
                    fields.push(self.row_field()?);
                }
                self.expect_kind(TokenKind::Gt, "`>`")?;
                TypeKind::Structured(fields)
            }
            Kw::VARIANT => {
                self.bump();
                TypeKind::Variant
            }
            Kw::BITMAP => {
                self.bump();
                TypeKind::Bitmap
            }
            Kw::NULL => {
                self.bump();
                TypeKind::Null
            }
            Kw::DESCRIPTOR => {
                self.bump();
                TypeKind::Descriptor
            }
            _ => {
                if !self.at_name() {
                    return Err(self.expected("a data type"));
                }
                // Flink's parser accepts any name as a (user-defined) type; the conversion
                // rejects unknown ones, which the table checks report.
                TypeKind::Named(Box::new(self.object_name("a data type")?))
            }
        };
        Ok(DataType {
            kind,
            nullability: Nullability::Unspecified,
            span: self.finish(start),
        })
    }

    /// `<field type ['comment'], ...>` or `(field type, ...)` of a ROW type.
    fn row_fields(&mut self) -> PResult<Vec<RowField>> {
        if self.eat_kind(TokenKind::NotEq).is_some() {
            // `ROW<>`: the lexer reads `<>` as one token.
            return Ok(Vec::new());
        }
        let close = if self.eat_kind(TokenKind::Lt).is_some() {
            TokenKind::Gt
        } else if self.eat_kind(TokenKind::LParen).is_some() {
            TokenKind::RParen
        } else {
            return Err(self.expected("`<` or `(` after ROW"));
        };
        let mut fields = Vec::new();
        if self.eat_kind(close).is_some() {
            return Ok(fields);
        }
        loop {
            fields.push(self.row_field()?);
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        let what = if close == TokenKind::Gt {
            "`,` or `>`"
        } else {
            "`,` or `)`"
        };
        self.expect_kind(close, what)?;
        Ok(fields)
    }

    fn row_field(&mut self) -> PResult<RowField> {
        let name = self.ident("a field name")?;
        let data_type = self.data_type()?;
        let comment = if self.at_string() {
            Some(self.string_lit("a field comment")?)
        } else {
            None
        };
        Ok(RowField {
            name,
            data_type,
            comment,
        })
    }

    fn time_zone(&mut self) -> PResult<TimeZoneKind> {
        if self.eat(Kw::WITHOUT).is_some() {
            self.expect(Kw::TIME)?;
            self.expect(Kw::ZONE)?;
            return Ok(TimeZoneKind::Without);
        }
        if self.at(Kw::WITH) && matches!(self.nth(1).kw, Kw::LOCAL | Kw::TIME) {
            self.bump();
            let local = self.eat(Kw::LOCAL).is_some();
            if !local {
                // Flink's grammar has WITH LOCAL TIME ZONE only; the tree keeps the type
                // (parsing goes on as if it were right).
                let flink = self.encountered_here(&["\"LOCAL\""]);
                let before = self.error_count();
                let span = self.current().span;
                self.note_error_in_step(
                    SyntaxErrorKind::Unexpected,
                    "Flink has no time zone in a TIME or TIMESTAMP type, only WITH LOCAL TIME ZONE".to_string(),
                    span,
                    Some("TIMESTAMP_LTZ(p) (TIMESTAMP(p) WITH LOCAL TIME ZONE) is an instant; TIMESTAMP(p) keeps the written date and time".to_string()),
                    None,
                );
                self.set_flink(before, flink);
            }
            self.expect(Kw::TIME)?;
            self.expect(Kw::ZONE)?;
            return Ok(if local {
                TimeZoneKind::Local
            } else {
                TimeZoneKind::With
            });
        }
        Ok(TimeZoneKind::Without)
    }

    /// `[(n)]`.
    fn opt_length(&mut self) -> PResult<Option<u32>> {
        if !self.at_kind(TokenKind::LParen) {
            return Ok(None);
        }
        self.bump();
        let n = self.unsigned("a length or precision")?;
        self.expect_kind(TokenKind::RParen, "`)`")?;
        Ok(Some(n))
    }

    /// Flink's `DecimalType` takes a precision of 1 to 38 (a larger one is read as 38) and a
    /// scale of 0 to the precision; its validator refuses the statement otherwise.
    fn check_decimal(&mut self, start: u32, precision: Option<u32>, scale: Option<u32>) {
        // u32::MAX: a number beyond a Java int, already a syntax error (`unsigned`).
        let Some(precision) = precision.filter(|&p| p != u32::MAX) else {
            return;
        };
        if scale == Some(u32::MAX) {
            return;
        }
        let effective = precision.min(38);
        let scale = scale.unwrap_or(0);
        let (message, flink) = if precision == 0 {
            (
                "DECIMAL precision 0: a DECIMAL has 1 to 38 digits".to_string(),
                "Decimal precision must be between 1 and 38 (both inclusive).".to_string(),
            )
        } else if scale > effective {
            (
                format!("DECIMAL scale {scale} above its precision {effective}: the scale counts digits of the precision"),
                format!("Decimal scale must be between 0 and the precision {effective} (both inclusive)."),
            )
        } else {
            return;
        };
        let before = self.error_count();
        self.note_error(
            SyntaxErrorKind::InvalidType,
            message,
            self.finish(start),
            Some(
                "DECIMAL(p, s): p counts all digits (1 to 38), s those after the point (0 to p)"
                    .to_string(),
            ),
        );
        self.set_flink(before, FlinkSyntax::Verbatim(flink));
    }

    /// Flink's `RowType` takes each field name once (case-sensitively); its validator refuses
    /// the statement otherwise, listing the names as a Java `HashSet` prints them.
    fn check_row_fields(&mut self, start: u32, fields: &[RowField]) {
        // Each name's first position, and whether it was seen again (linear in the fields).
        let mut first: std::collections::HashMap<&str, (usize, bool)> =
            std::collections::HashMap::with_capacity(fields.len());
        for (i, f) in fields.iter().enumerate() {
            first
                .entry(f.name.as_str())
                .and_modify(|e| e.1 = true)
                .or_insert((i, false));
        }
        let mut repeated: Vec<(usize, &str)> = first
            .into_iter()
            .filter(|(_, (_, again))| *again)
            .map(|(name, (at, _))| (at, name))
            .collect();
        if repeated.is_empty() {
            return;
        }
        // The order of Flink's set: first occurrences, in Java's `HashSet` iteration order.
        repeated.sort_unstable();
        let duplicates = java_hash_set_order(repeated.into_iter().map(|(_, n)| n).collect());
        let listed = duplicates.join(", ");
        let before = self.error_count();
        self.note_error(
            SyntaxErrorKind::InvalidType,
            if let [one] = duplicates.as_slice() {
                format!("a ROW type with two fields named `{one}`")
            } else {
                let names: Vec<String> = duplicates.iter().map(|d| format!("`{d}`")).collect();
                format!("a ROW type repeating the field names {}", names.join(", "))
            },
            self.finish(start),
            Some("give each field of the ROW its own name (names are case-sensitive)".to_string()),
        );
        self.set_flink(
            before,
            FlinkSyntax::Verbatim(format!(
                "Field names must be unique. Found duplicates: [{listed}]"
            )),
        );
    }

    fn opt_precision_scale(&mut self) -> PResult<(Option<u32>, Option<u32>)> {
        if !self.at_kind(TokenKind::LParen) {
            return Ok((None, None));
        }
        self.bump();
        let p = self.unsigned("a precision")?;
        let s = if self.eat_kind(TokenKind::Comma).is_some() {
            Some(self.unsigned("a scale")?)
        } else {
            None
        };
        self.expect_kind(TokenKind::RParen, "`)`")?;
        Ok((Some(p), s))
    }

    /// An unsigned integer literal.
    pub(crate) fn unsigned(&mut self, what: &str) -> PResult<u32> {
        let tok = self.current();
        if tok.kind != TokenKind::Integer {
            return Err(self.expected(what));
        }
        self.bump();
        let text = self.text_of(tok);
        match text.parse::<i32>() {
            Ok(n) => Ok(n.unsigned_abs()),
            Err(_) => {
                // Flink's parser reads these numbers as a Java `int`.
                let flink =
                    format!("Literal '{text}' can not be parsed to type 'java.lang.Integer'");
                let before = self.error_count();
                self.note_error(
                    SyntaxErrorKind::Unexpected,
                    format!("{text} is too large for {what}: Flink's parser reads it as an `int` (at most 2147483647)"),
                    tok.span,
                    None,
                );
                self.set_flink(before, FlinkSyntax::Verbatim(flink));
                Ok(u32::MAX)
            }
        }
    }

    /// Whether the current token is a time unit (`SECOND`, `MINUTES`, `WEEK`, ...).
    pub(crate) fn at_time_unit(&mut self) -> bool {
        time_unit(self.kw()).is_some() || self.at_word("WEEKS")
    }

    /// An interval qualifier: `unit [(p)] [TO unit [(p)]]`.
    pub(crate) fn interval_qualifier(&mut self) -> PResult<IntervalQualifier> {
        let start = self.start();
        let (unit, start_span) = self.time_unit_word()?;
        let (start_precision, start_fraction_precision) = self.opt_interval_precision()?;
        let mut end = None;
        let mut end_precision = None;
        let mut to_span = None;
        let mut end_span = None;
        if self.at(Kw::TO) && {
            let next = self.nth(1).kw;
            time_unit(next).is_some()
        } {
            to_span = Some(self.bump().span);
            let (unit, span) = self.time_unit_word()?;
            end = Some(unit);
            end_span = Some(span);
            end_precision = self.opt_interval_precision()?.0;
        }
        Ok(IntervalQualifier {
            start: unit,
            start_precision,
            start_fraction_precision,
            end,
            end_precision,
            span: self.finish(start),
            start_span,
            to_span,
            end_span,
        })
    }

    /// `(p)` or `(p, f)` after a time unit: the precision and the fractional precision.
    fn opt_interval_precision(&mut self) -> PResult<(Option<u32>, Option<u32>)> {
        if !self.at_kind(TokenKind::LParen) {
            return Ok((None, None));
        }
        self.bump();
        let p = self.unsigned("a precision")?;
        let mut fraction = None;
        if self.eat_kind(TokenKind::Comma).is_some() {
            fraction = Some(self.unsigned("a fractional precision")?);
        }
        self.expect_kind(TokenKind::RParen, "`)`")?;
        Ok((Some(p), fraction))
    }

    fn time_unit_word(&mut self) -> PResult<(String, Span)> {
        if self.at_word("WEEKS") {
            let span = self.bump().span;
            return Ok(("WEEK".to_string(), span));
        }
        match time_unit(self.kw()) {
            Some(unit) => {
                let span = self.bump().span;
                Ok((unit.to_string(), span))
            }
            None => Err(self.expected("a time unit (SECOND, MINUTE, HOUR, DAY, MONTH, YEAR, ...)")),
        }
    }
}

/// The singular name of a time-unit keyword (plural spellings fold to singular).
pub(crate) fn time_unit(kw: Kw) -> Option<&'static str> {
    Some(match kw {
        Kw::YEAR | Kw::YEARS => "YEAR",
        Kw::QUARTER => "QUARTER",
        Kw::MONTH | Kw::MONTHS => "MONTH",
        Kw::WEEK => "WEEK",
        Kw::DAY | Kw::DAYS => "DAY",
        Kw::HOUR | Kw::HOURS => "HOUR",
        Kw::MINUTE | Kw::MINUTES => "MINUTE",
        Kw::SECOND | Kw::SECONDS => "SECOND",
        Kw::MILLISECOND => "MILLISECOND",
        Kw::MICROSECOND => "MICROSECOND",
        Kw::NANOSECOND => "NANOSECOND",
        Kw::DOW => "DOW",
        Kw::DOY => "DOY",
        Kw::EPOCH => "EPOCH",
        Kw::ISODOW => "ISODOW",
        Kw::ISOYEAR => "ISOYEAR",
        Kw::DECADE => "DECADE",
        Kw::CENTURY => "CENTURY",
        Kw::MILLENNIUM => "MILLENNIUM",
        _ => return None,
    })
}

/// `names` (distinct, in insertion order) in the iteration order of a Java `HashSet` built
/// from them with the default capacity: by bucket (`String.hashCode`, spread as `HashMap`
/// spreads it, over a table of 16 slots doubled past three quarters full), insertion order
/// within a bucket.
fn java_hash_set_order(names: Vec<&str>) -> Vec<&str> {
    let mut slots: usize = 16;
    while names.len() * 4 > slots * 3 {
        slots *= 2;
    }
    let bucket = |name: &str| {
        let h = name
            .encode_utf16()
            .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)));
        let h = h as u32;
        ((h ^ (h >> 16)) as usize) & (slots - 1)
    };
    let mut ordered: Vec<(usize, usize, &str)> = names
        .into_iter()
        .enumerate()
        .map(|(i, n)| (bucket(n), i, n))
        .collect();
    ordered.sort_unstable();
    ordered.into_iter().map(|(_, _, n)| n).collect()
}

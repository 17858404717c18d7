//! What Flink (Calcite 1.36) makes of the literals in START_MODE and FRESHNESS: interval
//! values (`SqlIntervalQualifier.evaluateIntervalLiteral`) and TIMESTAMP literals
//! (`SqlParserUtil.parseTimestampLiteral`, a non-lenient `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd`
//! `SimpleDateFormat` with an optional fraction). Pure functions over the written text;
//! verified against Flink 2.3.0 (`fixtures/oracle/mt`).

use crate::syntax::ast::{Expr, ExprKind, IntervalQualifier, Literal, StringLit};

/// An interval literal written in quotes: `INTERVAL [-]'value' qualifier`.
pub(crate) struct IntervalLit<'a> {
    /// The literal, from `INTERVAL` to the qualifier (parentheses around it excluded).
    pub span: crate::source::Span,
    /// `INTERVAL -'5' ...`: a sign outside the quotes.
    pub negative: bool,
    /// The quoted value.
    pub value: &'a StringLit,
    /// The unit(s).
    pub qualifier: &'a IntervalQualifier,
}

/// The interval literal an expression is, parentheses removed; `None` for anything else,
/// including a value without quotes (`INTERVAL 5 MINUTE`), which Flink does not take as an
/// interval literal in START_MODE and FRESHNESS.
pub(crate) fn interval_literal<'a>(text: &str, expr: &'a Expr) -> Option<IntervalLit<'a>> {
    let mut e = expr;
    while let ExprKind::Nested(inner) = &e.kind {
        e = inner;
    }
    match &e.kind {
        ExprKind::Literal(Literal::Interval {
            negative,
            value,
            qualifier,
        }) if text
            .get(value.span.range())
            .is_some_and(|t| t.starts_with('\'')) =>
        {
            Some(IntervalLit {
                span: e.span,
                negative: *negative,
                value,
                qualifier,
            })
        }
        _ => None,
    }
}

/// An interval value as Calcite reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IntervalValue {
    /// The quotes hold nothing: Flink's parser rejects it ("Illegal INTERVAL literal").
    Empty,
    /// Not in the format of the qualifier ("Illegal interval literal format ...").
    BadFormat,
    /// A value.
    Value {
        /// The sign written inside the quotes (`'-5'`).
        inner_negative: bool,
        /// The sign of the whole literal (inside and outside the quotes).
        negative: bool,
        /// The leading field's digits, without leading zeros (`"0"` for zero).
        leading: String,
        /// Whether every field (and any fraction of a second) is zero.
        zero: bool,
    },
}

impl IntervalValue {
    /// The leading field as a number (saturating).
    pub(crate) fn leading_number(leading: &str) -> u64 {
        leading.parse::<u64>().unwrap_or(u64::MAX)
    }
}

/// The regular shape of a value for a qualifier: fields separated as Calcite expects them.
fn shape(start: &str, end: Option<&str>) -> Option<(&'static [char], bool)> {
    // (separators between fields in order, whether the last field may have a fraction)
    Some(match (start, end) {
        ("YEAR", None)
        | ("QUARTER", None)
        | ("MONTH", None)
        | ("WEEK", None)
        | ("DAY", None)
        | ("HOUR", None)
        | ("MINUTE", None) => (&[], false),
        ("SECOND", None) => (&[], true),
        ("YEAR", Some("MONTH")) => (&['-'], false),
        ("DAY", Some("HOUR")) => (&[' '], false),
        ("DAY", Some("MINUTE")) => (&[' ', ':'], false),
        ("DAY", Some("SECOND")) => (&[' ', ':', ':'], true),
        ("HOUR", Some("MINUTE")) => (&[':'], false),
        ("HOUR", Some("SECOND")) => (&[':', ':'], true),
        ("MINUTE", Some("SECOND")) => (&[':'], true),
        _ => return None,
    })
}

/// Reads an interval literal's value for its qualifier.
pub(crate) fn interval_value(lit: &IntervalLit<'_>) -> IntervalValue {
    let raw = lit.value.value.as_str();
    if raw.is_empty() {
        return IntervalValue::Empty;
    }
    let mut s = raw.trim();
    let mut inner_negative = false;
    if let Some(rest) = s.strip_prefix('-') {
        inner_negative = true;
        s = rest;
    } else if let Some(rest) = s.strip_prefix('+') {
        s = rest;
    }
    let Some((separators, fraction_allowed)) =
        shape(&lit.qualifier.start, lit.qualifier.end.as_deref())
    else {
        return IntervalValue::BadFormat;
    };
    let mut fields = Vec::new();
    let mut rest = s;
    for sep in separators {
        let Some((field, tail)) = rest.split_once(*sep) else {
            return IntervalValue::BadFormat;
        };
        fields.push(field);
        rest = tail;
    }
    let (last, fraction) = match rest.split_once('.') {
        Some((l, f)) if fraction_allowed => (l, Some(f)),
        Some(_) => return IntervalValue::BadFormat,
        None => (rest, None),
    };
    fields.push(last);
    let digits = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
    if !fields.iter().all(|f| digits(f)) || fraction.is_some_and(|f| !digits(f)) {
        return IntervalValue::BadFormat;
    }
    let zero = fields.iter().all(|f| f.bytes().all(|b| b == b'0'))
        && fraction.is_none_or(|f| f.bytes().all(|b| b == b'0'));
    let leading = fields[0].trim_start_matches('0');
    IntervalValue::Value {
        inner_negative,
        negative: inner_negative != lit.negative,
        leading: if leading.is_empty() { "0" } else { leading }.to_string(),
        zero,
    }
}

/// A fractional value of a unit as a whole number of the next smaller unit, when that is
/// exact: `'1.5'` HOUR is `INTERVAL '90' MINUTE`.
pub(crate) fn in_smaller_unit(value: &str, unit: &str) -> Option<String> {
    let (factor, smaller): (u128, &str) = match unit {
        "WEEK" => (7, "DAY"),
        "DAY" => (24, "HOUR"),
        "HOUR" => (60, "MINUTE"),
        "MINUTE" => (60, "SECOND"),
        "YEAR" => (12, "MONTH"),
        "QUARTER" => (3, "MONTH"),
        _ => return None,
    };
    let v = value.trim();
    let v = v.strip_prefix('+').unwrap_or(v);
    let (int, frac) = v.split_once('.')?;
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || int.len() > 18 || frac.len() > 9 || !all_digits(int) || !all_digits(frac) {
        return None;
    }
    let scale = 10u128.pow(frac.len() as u32);
    let scaled = int.parse::<u128>().ok()? * scale + frac.parse::<u128>().unwrap_or(0);
    let total = scaled * factor;
    (total % scale == 0).then(|| format!("INTERVAL '{}' {smaller}", total / scale))
}

/// A number with thousands separators, as Java's default `NumberFormat` prints it.
pub(crate) fn grouped(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A date and time read from a TIMESTAMP literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct DateTime {
    /// Year (1 or later).
    pub year: u32,
    /// Month, 1-12.
    pub month: u32,
    /// Day of month.
    pub day: u32,
    /// Hour, 0-23.
    pub hour: u32,
    /// Minute.
    pub minute: u32,
    /// Second.
    pub second: u32,
}

/// Reads a TIMESTAMP literal's text the way Flink's parser does; `None` when Flink rejects it
/// ("Illegal TIMESTAMP literal '...': not in format 'yyyy-MM-dd HH:mm:ss'"). Accepted: a date
/// alone, one-digit fields, spaces before a field, a fraction of a second (also `.`).
pub(crate) fn parse_timestamp(text: &str) -> Option<DateTime> {
    let b = text.as_bytes();
    let mut pos = 0usize;
    // A numeric field: spaces and tabs skipped first (SimpleDateFormat), then digits.
    let field = |pos: &mut usize| -> Option<u64> {
        while *pos < b.len() && (b[*pos] == b' ' || b[*pos] == b'\t') {
            *pos += 1;
        }
        let start = *pos;
        while *pos < b.len() && b[*pos].is_ascii_digit() {
            *pos += 1;
        }
        if start == *pos {
            return None;
        }
        text[start..*pos].parse::<u64>().ok()
    };
    let literal = |pos: &mut usize, c: u8| -> bool {
        if *pos < b.len() && b[*pos] == c {
            *pos += 1;
            true
        } else {
            false
        }
    };
    let year = field(&mut pos)?;
    if !literal(&mut pos, b'-') {
        return None;
    }
    let month = field(&mut pos)?;
    if !literal(&mut pos, b'-') {
        return None;
    }
    let day = field(&mut pos)?;
    let date_end = pos;
    let mut time = (0, 0, 0);
    // Try the time part; without it, the date format applies (`yyyy-MM-dd`).
    let mut p = pos;
    let with_time = (|| {
        if !literal(&mut p, b' ') {
            return None;
        }
        let h = field(&mut p)?;
        if !literal(&mut p, b':') {
            return None;
        }
        let m = field(&mut p)?;
        if !literal(&mut p, b':') {
            return None;
        }
        let s = field(&mut p)?;
        Some((h, m, s))
    })();
    match with_time {
        Some(t) => {
            time = t;
            pos = p;
        }
        None => pos = date_end,
    }
    // The rest: nothing, or `.` and digits (Avatica's fraction of a second).
    if pos < b.len() && (b[pos] != b'.' || !b[pos + 1..].iter().all(u8::is_ascii_digit)) {
        return None;
    }
    let (hour, minute, second) = time;
    if year == 0 || year > 99_999_999 || !(1..=12).contains(&month) || hour > 23 {
        return None;
    }
    if minute > 59 || second > 59 {
        return None;
    }
    let (year, month, day) = (year as u32, month as u32, day as u32);
    if day == 0 || (day as u64) > days_in_month(year, month) as u64 {
        return None;
    }
    // The Gregorian cut-over of java.util.GregorianCalendar: 1582-10-05..14 do not exist.
    if year == 1582 && month == 10 && (5..=14).contains(&day) {
        return None;
    }
    Some(DateTime {
        year,
        month,
        day,
        hour: hour as u32,
        minute: minute as u32,
        second: second as u32,
    })
}

/// Days in a month of java.util.GregorianCalendar (Julian leap years before 1583).
fn days_in_month(year: u32, month: u32) -> u32 {
    let leap = if year < 1583 {
        year % 4 == 0
    } else {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    };
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if leap => 29,
        _ => 28,
    }
}

/// Today's date (UTC) from the system clock, as (year, month, day).
pub(crate) fn today() -> (u32, u32, u32) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_from_days((secs / 86_400) as i64)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (u32, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    (y as u32, m as u32, d as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_flink_accepts() {
        for ok in [
            "2024-01-01 00:00:00",
            "2024-01-01",
            "2024-1-1",
            " 2024-01-01 00:00:00",
            "2024-01-01 1:2:3",
            "2024-01-01 00:00:00.123",
            "2024-01-01 00:00:00.1234567891",
            "99999-01-01 00:00:00",
            "2024-02-29 00:00:00",
            "1500-02-29 00:00:00",
        ] {
            assert!(parse_timestamp(ok).is_some(), "{ok}");
        }
    }

    #[test]
    fn timestamps_flink_rejects() {
        for bad in [
            "garbage",
            "2024-13-45 00:00:00",
            "2024-01-01T00:00:00",
            "2024-02-30 00:00:00",
            "2024-01-01 25:00:00",
            "2024-01-01 24:00:00",
            "2024-01-01 00:00:60",
            "2024-01-01 00:00",
            "",
            "2024-01-01 00:00:00 +02:00",
            "0000-01-01 00:00:00",
            "20240101",
            "2024-01-01 ",
            "2023-02-29",
            "1582-10-10",
        ] {
            assert!(parse_timestamp(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
    }

    #[test]
    fn smaller_units() {
        assert_eq!(
            in_smaller_unit("1.5", "HOUR").as_deref(),
            Some("INTERVAL '90' MINUTE")
        );
        assert_eq!(
            in_smaller_unit("0.5", "DAY").as_deref(),
            Some("INTERVAL '12' HOUR")
        );
        assert_eq!(in_smaller_unit("1.01", "HOUR"), None);
        assert_eq!(in_smaller_unit("abc", "HOUR"), None);
        assert_eq!(in_smaller_unit("1.5", "SECOND"), None);
    }

    #[test]
    fn grouping() {
        assert_eq!(grouped("1800"), "1,800");
        assert_eq!(grouped("99999999999"), "99,999,999,999");
        assert_eq!(grouped("100"), "100");
    }
}

//! Option values parsed as Flink's `ConfigurationUtils`, `TimeUtils` and `MemorySize` parse
//! them.

use super::OptionSpec;

/// Flink's message when `value` does not parse for `spec`'s type (the cause Flink reports),
/// or `None` when it parses or flinklint cannot be sure it does not.
pub fn invalid_value(spec: &OptionSpec, value: &str) -> Option<String> {
    match spec.value_type.as_str() {
        "int" => (!java_integer(value, i32::MIN.into(), i32::MAX.into()))
            .then(|| format!("For input string: \"{value}\"")),
        "long" => (!java_integer(value, i64::MIN.into(), i64::MAX.into()))
            .then(|| format!("For input string: \"{value}\"")),
        "boolean" => {
            let upper = value.to_uppercase();
            (upper != "TRUE" && upper != "FALSE").then(|| {
                format!(
                    "Unrecognized option for boolean: {value}. Expected either true or false(case insensitive)"
                )
            })
        }
        "float" | "double" => java_float_error(value),
        "duration" => duration_error(value),
        "memory" => memory_error(value),
        "enum" => {
            let upper = value.to_uppercase();
            if spec.values.iter().any(|v| v.to_uppercase() == upper) {
                return None;
            }
            // A project's own enum option (`connectors:` in the configuration) names no class.
            let Some(class) = spec.enum_class.as_deref() else {
                return Some(format!("Expected one of: [{}]", spec.values.join(", ")));
            };
            Some(format!(
                "Could not parse value for enum class {class}. Expected one of: [[{}]]",
                spec.values.join(", ")
            ))
        }
        _ => None,
    }
}

/// Whether Java's `Integer.parseInt` / `Long.parseLong` accepts `value` within `[min, max]`.
/// Non-ASCII text counts as accepted (Java reads other scripts' digits too).
fn java_integer(value: &str, min: i128, max: i128) -> bool {
    if !value.is_ascii() {
        return true;
    }
    let digits = value.strip_prefix(['+', '-']).unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    match value.parse::<i128>() {
        Ok(n) => n >= min && n <= max,
        // More digits than i128 holds: out of range.
        Err(_) => false,
    }
}

/// Java's `Float.parseFloat` message for `value`, when it rejects it. Hexadecimal and
/// non-ASCII text are left alone.
fn java_float_error(value: &str) -> Option<String> {
    let trimmed = value.trim_matches(|c: char| c <= ' ');
    if !value.is_ascii() || trimmed.contains(['x', 'X']) {
        return None;
    }
    if trimmed.is_empty() {
        return Some("empty String".to_string());
    }
    let body = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
    if body == "NaN" || body == "Infinity" {
        return None;
    }
    let body = body.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(body);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, f),
        None => (mantissa, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok =
        digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    (!(mantissa_ok && exponent_ok)).then(|| format!("For input string: \"{value}\""))
}

/// How `TimeUtils#parseDuration` lists its units.
const DURATION_LIST: &str = "DAYS: (d | day | days), HOURS: (h | hour | hours), MINUTES: (min | m | minute | minutes), SECONDS: (s | sec | secs | second | seconds), MILLISECONDS: (ms | milli | millis | millisecond | milliseconds), MICROSECONDS: (µs | micro | micros | microsecond | microseconds), NANOSECONDS: (ns | nano | nanos | nanosecond | nanoseconds)";

/// How `MemorySize#parse` lists its units.
const MEMORY_LIST: &str = "(b | bytes) / (k | kb | kibibytes) / (m | mb | mebibytes) / (g | gb | gibibytes) / (t | tb | tebibytes)";

/// Java's `String#trim`: characters up to U+0020 off both ends.
fn java_trim(value: &str) -> &str {
    value.trim_matches(|c: char| c <= ' ')
}

/// Splits a trimmed value as `TimeUtils#parseDuration` and `MemorySize#parseBytes` do: the
/// leading ASCII digits, and the rest trimmed and lower-cased (`None` when the rest is not
/// ASCII: Java's lower-casing of other scripts is left alone).
fn number_and_unit(trimmed: &str) -> Option<(&str, String)> {
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    let rest = java_trim(&trimmed[digits..]);
    rest.is_ascii()
        .then(|| (&trimmed[..digits], rest.to_ascii_lowercase()))
}

/// The message of `TimeUtils#parseDuration` (Flink 2.3) on `value`, when it rejects it.
/// ISO-8601 values (`PT1M`) are left alone.
fn duration_error(value: &str) -> Option<String> {
    let trimmed = java_trim(value);
    if trimmed.is_empty() {
        return Some("argument is an empty- or whitespace-only string".to_string());
    }
    let (number, unit) = number_and_unit(trimmed)?;
    if number.is_empty() {
        // `Duration#parse` decides; flinklint says nothing on what may be ISO-8601.
        if iso_duration_like(trimmed) {
            return None;
        }
        return Some(format!(
            "text does not start with a number, and is not a valid ISO-8601 duration format: {trimmed}"
        ));
    }
    let nanos: u128 = match unit.as_str() {
        "" => 1_000_000,
        "d" | "day" | "days" => 86_400_000_000_000,
        "h" | "hour" | "hours" => 3_600_000_000_000,
        "min" | "m" | "minute" | "minutes" => 60_000_000_000,
        "s" | "sec" | "secs" | "second" | "seconds" => 1_000_000_000,
        "ms" | "milli" | "millis" | "millisecond" | "milliseconds" => 1_000_000,
        "µs" | "micro" | "micros" | "microsecond" | "microseconds" => 1_000,
        "ns" | "nano" | "nanos" | "nanosecond" | "nanoseconds" => 1,
        _ if unit.is_ascii() && !unit.is_empty() => {
            return Some(format!(
                "Time interval unit label '{unit}' does not match any of the recognized units: {DURATION_LIST}"
            ))
        }
        _ => return None,
    };
    // The value in nanoseconds, as a BigInteger, whose seconds must fit a long
    // (`BigInteger#longValueExact`).
    let seconds = number
        .parse::<u128>()
        .ok()
        .and_then(|n| n.checked_mul(nanos))
        .map(|n| n / 1_000_000_000);
    match seconds {
        Some(s) if s <= i64::MAX as u128 => None,
        _ => Some("BigInteger out of long range".to_string()),
    }
}

/// Whether `text` has the form of a `java.time.Duration` (`PnDTnHnMn.nS`, any case, signs
/// allowed): such a value is left to Flink.
fn iso_duration_like(text: &str) -> bool {
    let t = text.to_ascii_uppercase();
    let t = t.strip_prefix(['+', '-']).unwrap_or(&t);
    let Some(body) = t.strip_prefix('P') else {
        return false;
    };
    let (days, time) = match body.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (body, None),
    };
    let number = |s: &str, fraction: bool| {
        let s = s.strip_prefix(['+', '-']).unwrap_or(s);
        let (whole, frac) = match s.split_once(['.', ',']) {
            Some((w, f)) if fraction => (w, f),
            Some(_) => return false,
            None => (s, ""),
        };
        !whole.is_empty()
            && whole.bytes().all(|b| b.is_ascii_digit())
            && frac.len() <= 9
            && frac.bytes().all(|b| b.is_ascii_digit())
    };
    let days_ok = days.is_empty() || days.strip_suffix('D').is_some_and(|n| number(n, false));
    let time_ok = time.is_none_or(|mut rest| {
        if rest.is_empty() {
            return false;
        }
        for (unit, fraction) in [('H', false), ('M', false), ('S', true)] {
            if let Some(i) = rest.find(unit) {
                if !number(&rest[..i], fraction) {
                    return false;
                }
                rest = &rest[i + 1..];
            }
        }
        rest.is_empty()
    });
    days_ok && time_ok && (!days.is_empty() || time.is_some())
}

/// The message of `MemorySize#parseBytes` on `value`, when it rejects it.
fn memory_error(value: &str) -> Option<String> {
    let trimmed = java_trim(value);
    if trimmed.is_empty() {
        return Some("argument is an empty- or whitespace-only string".to_string());
    }
    let (number, unit) = number_and_unit(trimmed)?;
    if number.is_empty() {
        return Some("text does not start with a number".to_string());
    }
    let Ok(n) = number.parse::<i64>() else {
        return Some(format!(
            "The value '{number}' cannot be re represented as 64bit number (numeric overflow)."
        ));
    };
    let multiplier: i64 = match unit.as_str() {
        "" | "b" | "bytes" => 1,
        "k" | "kb" | "kibibytes" => 1 << 10,
        "m" | "mb" | "mebibytes" => 1 << 20,
        "g" | "gb" | "gibibytes" => 1 << 30,
        "t" | "tb" | "tebibytes" => 1 << 40,
        _ => {
            return Some(format!(
            "Memory size unit '{unit}' does not match any of the recognized units: {MEMORY_LIST}"
        ))
        }
    };
    n.checked_mul(multiplier).is_none().then(|| {
        format!("The value '{value}' cannot be re represented as 64bit number of bytes (numeric overflow).")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(value_type: &str) -> OptionSpec {
        OptionSpec {
            key: "k".into(),
            value_type: value_type.into(),
            element: None,
            values: vec!["process-time".into(), "partition-time".into()],
            enum_class: Some("class X".into()),
            required: false,
            default: None,
            fallback_keys: Vec::new(),
            forwarded: false,
            accepted: Vec::new(),
            accepted_message: None,
            accepted_on: None,
            accepted_exact: false,
            single_character: None,
            unescaped: false,
        }
    }

    #[test]
    fn values_parse_as_java_and_flink_parse_them() {
        let int = spec("int");
        assert!(invalid_value(&int, "12").is_none());
        assert!(invalid_value(&int, "+12").is_none());
        assert!(invalid_value(&int, " 2 ").is_some());
        assert!(invalid_value(&int, "2147483648").is_some());
        assert!(invalid_value(&spec("long"), "2147483648").is_none());
        assert!(invalid_value(&spec("boolean"), "TRUE").is_none());
        assert!(invalid_value(&spec("boolean"), "yes").is_some());
        assert!(invalid_value(&spec("float"), "1e-1").is_none());
        assert!(invalid_value(&spec("float"), " .5f").is_none());
        assert!(invalid_value(&spec("float"), "half").is_some());
        assert!(invalid_value(&spec("duration"), "30 min").is_none());
        assert!(invalid_value(&spec("duration"), "1000").is_none());
        assert!(invalid_value(&spec("duration"), "1 fortnight").is_some());
        assert!(invalid_value(&spec("memory"), "128MB").is_none());
        assert!(invalid_value(&spec("memory"), "12 parsecs").is_some());
        assert!(invalid_value(&spec("enum"), "PARTITION-TIME").is_none());
        assert!(invalid_value(&spec("enum"), "partition_time").is_some());
        assert!(invalid_value(&spec("string"), "").is_none());
        // Flink 2.3's messages (verified with the oracle).
        let memory = spec("memory");
        let duration = spec("duration");
        let message = |s: &OptionSpec, v: &str| invalid_value(s, v).unwrap_or_default();
        assert_eq!(
            message(&memory, "lots"),
            "text does not start with a number"
        );
        assert_eq!(
            message(&memory, "+1 mb"),
            "text does not start with a number"
        );
        assert_eq!(
            message(&memory, ""),
            "argument is an empty- or whitespace-only string"
        );
        assert!(message(&memory, "1.5 mb").starts_with("Memory size unit '.5 mb'"));
        assert_eq!(
            message(&memory, "99999999999999999999"),
            "The value '99999999999999999999' cannot be re represented as 64bit number (numeric overflow)."
        );
        assert_eq!(
            message(&memory, "99999999999 tb"),
            "The value '99999999999 tb' cannot be re represented as 64bit number of bytes (numeric overflow)."
        );
        // 2^63 bytes is 2^23 TiB.
        assert!(invalid_value(&memory, "8388607 tb").is_none());
        assert!(invalid_value(&memory, "8388608 tb").is_some());
        assert_eq!(
            message(&duration, "forever"),
            "text does not start with a number, and is not a valid ISO-8601 duration format: forever"
        );
        assert_eq!(
            message(&duration, " PT "),
            "text does not start with a number, and is not a valid ISO-8601 duration format: PT"
        );
        assert_eq!(
            message(&duration, "P1W"),
            "text does not start with a number, and is not a valid ISO-8601 duration format: P1W"
        );
        for iso in ["PT1M", "pt1m", "P1D", "P1DT2H3M4.5S", "-PT1M"] {
            assert!(invalid_value(&duration, iso).is_none(), "{iso}");
        }
        assert_eq!(
            message(&duration, "99999999999999999999 min"),
            "BigInteger out of long range"
        );
        assert_eq!(
            message(&duration, "9999999999999999 d"),
            "BigInteger out of long range"
        );
        assert!(invalid_value(&duration, " 5 min ").is_none());
        assert!(invalid_value(&duration, "106751 d").is_none());
    }
}

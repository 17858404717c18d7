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
        "duration" => unit_error(value, DURATION_UNITS).map(|unit| {
            format!("Time interval unit label '{unit}' does not match any of the recognized units: {DURATION_LIST}")
        }),
        "memory" => unit_error(value, MEMORY_UNITS).map(|unit| {
            format!("Memory size unit '{unit}' does not match any of the recognized units: {MEMORY_LIST}")
        }),
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

/// Flink's `TimeUtils` units (`TimeUtils.TimeUnit`), in its order.
const DURATION_UNITS: &[&str] = &[
    "d",
    "day",
    "days",
    "h",
    "hour",
    "hours",
    "min",
    "m",
    "minute",
    "minutes",
    "s",
    "sec",
    "secs",
    "second",
    "seconds",
    "ms",
    "milli",
    "millis",
    "millisecond",
    "milliseconds",
    "µs",
    "micro",
    "micros",
    "microsecond",
    "microseconds",
    "ns",
    "nano",
    "nanos",
    "nanosecond",
    "nanoseconds",
];

/// How `TimeUtils#parseDuration` lists its units.
const DURATION_LIST: &str = "DAYS: (d | day | days), HOURS: (h | hour | hours), MINUTES: (min | m | minute | minutes), SECONDS: (s | sec | secs | second | seconds), MILLISECONDS: (ms | milli | millis | millisecond | milliseconds), MICROSECONDS: (µs | micro | micros | microsecond | microseconds), NANOSECONDS: (ns | nano | nanos | nanosecond | nanoseconds)";

/// Flink's `MemorySize.MemoryUnit` labels.
const MEMORY_UNITS: &[&str] = &[
    "b",
    "bytes",
    "k",
    "kb",
    "kibibytes",
    "m",
    "mb",
    "mebibytes",
    "g",
    "gb",
    "gibibytes",
    "t",
    "tb",
    "tebibytes",
];

/// How `MemorySize#parse` lists its units.
const MEMORY_LIST: &str = "(b | bytes) / (k | kb | kibibytes) / (m | mb | mebibytes) / (g | gb | gibibytes) / (t | tb | tebibytes)";

/// The unit label Flink does not recognize in `<number> <unit>`, lower-cased as Flink prints
/// it. Values that are not a number and a unit (empty, ISO-8601 `PT1M`, no leading digits,
/// non-ASCII) are left alone: flinklint says nothing it cannot word as Flink does.
fn unit_error(value: &str, units: &[&str]) -> Option<String> {
    let trimmed = value.trim();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !trimmed.is_ascii() || digits > 18 {
        return None;
    }
    let unit = trimmed[digits..].trim().to_lowercase();
    if unit.is_empty() || units.contains(&unit.as_str()) {
        return None;
    }
    Some(unit)
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
    }
}

//! A FRESHNESS Flink rejects, in Flink's order of checks (verified with Flink 2.3.0): not an
//! interval literal (parser), a unit its interval grammar lacks (parser), an empty value (parser),
//! a unit freshness does not take, a value not in the unit's format or beyond its precision, zero
//! or negative, WEEK, and in FULL refresh mode (written, or derived from a freshness of 30 minutes
//! or more) a value no cron schedule expresses. `ALTER MATERIALIZED TABLE ... SET FRESHNESS` is
//! MT010's: Flink 2.3 rejects the whole form.

use super::literals::{self, IntervalLit, IntervalValue};
use crate::config::Target;
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, FileEntry, Reporter, Rule};
use crate::syntax::ast::*;
use crate::syntax::expected;

/// Reports FRESHNESS values Flink rejects, with Flink's message.
pub struct InvalidFreshness;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidFreshness;

/// Flink 2.x's parser message for a FRESHNESS that is not an interval literal.
pub(crate) const NOT_INTERVAL: &str = "MATERIALIZED TABLE only supports define interval type FRESHNESS, please refer to the materialized table document.";
/// Flink 1.20's wording of [`NOT_INTERVAL`].
const NOT_INTERVAL_1_20: &str = "MATERIALIZED table FRESHNESS only support Interval Type, please refer to the materialized table document.";
/// The freshness at or above which Flink derives FULL refresh mode, in seconds
/// (`materialized-table.refresh-mode.freshness-threshold`, default 30 min).
const FULL_THRESHOLD_SECONDS: u64 = 30 * 60;

/// One finding: our message, Flink's, help, and an optional rewrite of the literal.
struct Finding {
    message: String,
    flink: String,
    help: String,
    label: Option<String>,
    rewrite: Option<String>,
}

impl Rule for InvalidFreshness {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files {
            for statement in file.parsed.script.all_statements() {
                let StatementKind::CreateMaterializedTable(mt) = &statement.kind else {
                    continue;
                };
                let Some(freshness) = &mt.freshness else {
                    continue;
                };
                let value = &freshness.interval;
                let (span, finding) = match literals::interval_literal(&file.source.text, value) {
                    None => (value.span, not_interval(ctx, file, value)),
                    Some(lit) => {
                        let explicit = mt.refresh_mode.as_ref().map(|r| r.mode);
                        match check_literal(ctx, file, statement, &lit, explicit) {
                            Some(f) => (value.span, f),
                            None => continue,
                        }
                    }
                };
                let mut d = report
                    .diagnostic(file.id, span, finding.message)
                    .with_help(finding.help)
                    .with_flink_message(finding.flink);
                if let Some(label) = finding.label {
                    d = d.with_label(label);
                }
                if let Some(rewrite) = finding.rewrite {
                    d = d.with_fix(Fix {
                        title: format!("Write {rewrite}"),
                        applicability: Applicability::Safe,
                        edits: vec![Edit {
                            file: file.id,
                            span,
                            replacement: rewrite,
                        }],
                    });
                }
                report.report(d);
            }
        }
    }
}

/// FRESHNESS is not an interval literal (Flink's parser rejects it).
fn not_interval(ctx: &Context<'_>, file: &FileEntry, value: &Expr) -> Finding {
    let flink = if ctx.settings.target == Target::Flink120 {
        NOT_INTERVAL_1_20
    } else {
        NOT_INTERVAL
    };
    let written = file.source.slice(value.span);
    let (help, rewrite) = match &value.kind {
        ExprKind::Literal(Literal::Interval {
            value: v,
            qualifier,
            negative: false,
        }) => {
            let rewrite = format!("INTERVAL '{}' {}", v.value, qualifier.render());
            (
                format!("write the value in quotes: {rewrite}"),
                Some(rewrite),
            )
        }
        ExprKind::Unary {
            op: UnaryOp::Minus, ..
        } => (
            "a freshness is a positive interval: remove the minus sign".to_string(),
            None,
        ),
        ExprKind::Literal(Literal::String(s)) => match string_interval(&s.value) {
            Some(rewrite) => (
                format!("write an interval literal: {rewrite}"),
                Some(rewrite),
            ),
            None => (
                "write an interval literal, e.g. FRESHNESS = INTERVAL '1' MINUTE".to_string(),
                None,
            ),
        },
        ExprKind::Literal(Literal::Number(n)) => (
            match n.parse::<u32>() {
                Ok(v) if (1..100).contains(&v) => format!(
                    "give the number a unit: FRESHNESS = INTERVAL '{v}' SECOND (or MINUTE, HOUR, DAY)"
                ),
                _ => "give the value a unit, e.g. FRESHNESS = INTERVAL '5' MINUTE".to_string(),
            },
            None,
        ),
        _ => (
            "write one interval literal, e.g. FRESHNESS = INTERVAL '1' MINUTE".to_string(),
            None,
        ),
    };
    Finding {
        message: format!("FRESHNESS must be an interval literal, not {written}"),
        flink: flink.to_string(),
        help,
        label: None,
        rewrite,
    }
}

/// `'1 minute'`, `'5 MINUTES'`: the interval literal a string clearly means.
fn string_interval(s: &str) -> Option<String> {
    let mut words = s.split_whitespace();
    let n = words.next()?;
    let unit = words.next()?.to_ascii_uppercase();
    if words.next().is_some() || !n.bytes().all(|b| b.is_ascii_digit()) || n.is_empty() {
        return None;
    }
    let unit = unit.strip_suffix('S').unwrap_or(&unit).to_string();
    ["SECOND", "MINUTE", "HOUR", "DAY"]
        .contains(&unit.as_str())
        .then(|| format!("INTERVAL '{n}' {unit}"))
}

fn unit_seconds(unit: &str) -> u64 {
    match unit {
        "SECOND" => 1,
        "MINUTE" => 60,
        "HOUR" => 3600,
        "DAY" => 86_400,
        _ => 604_800,
    }
}

/// The checks on an interval literal, in Flink's order; `None` when Flink accepts it.
fn check_literal(
    ctx: &Context<'_>,
    file: &FileEntry,
    statement: &Statement,
    lit: &IntervalLit<'_>,
    explicit: Option<RefreshMode>,
) -> Option<Finding> {
    let q = lit.qualifier;
    // Units Flink's interval grammar does not have: a parse error.
    let bad_unit = [Some(&q.start), q.end.as_ref()]
        .into_iter()
        .flatten()
        .find(|u| !expected::INTERVAL_UNIT_NAMES.contains(&u.as_str()));
    if let Some(unit) = bad_unit {
        let at = q.unknown_unit_span(unit);
        let list: &[&str] = if *unit == q.start {
            expected::INTERVAL_UNITS
        } else {
            &[]
        };
        return Some(Finding {
            message: format!(
                "FRESHNESS cannot be in {unit}: Flink's interval literals have no such unit"
            ),
            flink: ctx.flink_encountered(file.id, statement.span, at, list),
            help: "the finest freshness is INTERVAL '1' SECOND".to_string(),
            label: None,
            rewrite: None,
        });
    }
    let unit = q.render();
    let value = literals::interval_value(lit);
    if value == IntervalValue::Empty {
        let at = ctx.flink_position(file.id, statement.span, lit.span.start);
        return Some(Finding {
            message: "the FRESHNESS interval has no value".to_string(),
            flink: format!("Illegal INTERVAL literal  {unit}; at {at}"),
            help: format!("write a number in the quotes, e.g. INTERVAL '1' {unit}"),
            label: None,
            rewrite: None,
        });
    }
    if q.end.is_some() || matches!(q.start.as_str(), "YEAR" | "QUARTER" | "MONTH") {
        return Some(Finding {
            message: format!("FRESHNESS cannot be in {unit}"),
            flink: "Materialized table freshness only supports SECOND, MINUTE, HOUR, DAY, WEEK as the time unit.".to_string(),
            help: "write the freshness in one unit of SECOND, MINUTE, HOUR or DAY, e.g. INTERVAL '26' HOUR for '1 2' DAY TO HOUR".to_string(),
            label: None,
            rewrite: None,
        });
    }
    let IntervalValue::Value {
        inner_negative,
        negative,
        leading,
        ..
    } = value
    else {
        let written = lit.value.value.as_str();
        let rewrite = literals::in_smaller_unit(written, &q.start).filter(|r| valid(r, explicit));
        let help = match &rewrite {
            Some(r) => format!("only SECOND takes a fraction: write {r}"),
            None => format!("write a whole number of {unit}, e.g. INTERVAL '5' {unit}"),
        };
        return Some(Finding {
            message: format!("'{written}' is not a whole number of {unit}"),
            flink: format!("Illegal interval literal format '{written}' for INTERVAL {unit}"),
            help,
            label: None,
            rewrite,
        });
    };
    let precision = q.start_precision.unwrap_or(2);
    let n = IntervalValue::leading_number(&leading);
    let limit = 10u64.checked_pow(precision).unwrap_or(u64::MAX);
    if leading.len() > 19 || n >= limit {
        let sign = if inner_negative { "-" } else { "" };
        let rewrite = larger_unit(n, &q.start).filter(|r| valid(r, explicit));
        let help = match &rewrite {
            Some(r) => format!("write it in a larger unit: {r}"),
            None => format!(
                "{} takes at most {precision} digits here; write it in a larger unit",
                q.start
            ),
        };
        return Some(Finding {
            message: format!(
                "{leading} {} has more digits than the {}({precision}) precision of the literal",
                q.start, q.start
            ),
            flink: format!(
                "Interval field value {sign}{} exceeds precision of {}({precision}) field",
                literals::grouped(&leading),
                q.start
            ),
            help,
            label: None,
            rewrite,
        });
    }
    let signed = if negative && n != 0 {
        format!("-{n}")
    } else {
        n.to_string()
    };
    if negative || n == 0 {
        return Some(Finding {
            message: format!("FRESHNESS must be positive, not {signed} {}", q.start),
            flink: format!("The freshness interval currently only supports positive integer type values. But was: {signed}"),
            help: format!("write how often the table is refreshed, e.g. INTERVAL '1' {}", q.start),
            label: None,
            rewrite: None,
        });
    }
    if q.start == "WEEK" {
        let rewrite = Some(format!("INTERVAL '{}' DAY", n * 7)).filter(|r| valid(r, explicit));
        return Some(Finding {
            message: "FRESHNESS cannot be in WEEK".to_string(),
            flink: "Unknown freshness time unit: WEEK.".to_string(),
            help: match &rewrite {
                Some(r) => format!("write it in days: {r}"),
                None => "write it in days, e.g. INTERVAL '7' DAY".to_string(),
            },
            label: None,
            rewrite,
        });
    }
    let derived =
        explicit.is_none() && n.saturating_mul(unit_seconds(&q.start)) >= FULL_THRESHOLD_SECONDS;
    if explicit == Some(RefreshMode::Full) || derived {
        return full_mode_finding(n, &q.start, derived, explicit);
    }
    None
}

/// Whether a rewritten literal passes every check (for fixes).
fn valid(rewrite: &str, explicit: Option<RefreshMode>) -> bool {
    let mut words = rewrite.split('\'');
    let (Some(_), Some(n), Some(unit)) = (words.next(), words.next(), words.next()) else {
        return false;
    };
    let Ok(n) = n.parse::<u64>() else {
        return false;
    };
    let unit = unit.trim();
    if n == 0 || n >= 100 {
        return false;
    }
    let derived = explicit.is_none() && n * unit_seconds(unit) >= FULL_THRESHOLD_SECONDS;
    !(explicit == Some(RefreshMode::Full) || derived)
        || full_mode_finding(n, unit, derived, explicit).is_none()
}

/// `n unit` as a whole number of a larger unit, if it is one.
fn larger_unit(n: u64, unit: &str) -> Option<String> {
    let (factor, next) = match unit {
        "SECOND" => (60, "MINUTE"),
        "MINUTE" => (60, "HOUR"),
        "HOUR" => (24, "DAY"),
        _ => return None,
    };
    if n % factor != 0 {
        return None;
    }
    let m = n / factor;
    if m >= 100 {
        return larger_unit(m, next);
    }
    Some(format!("INTERVAL '{m}' {next}"))
}

/// FULL refresh mode runs on a cron schedule: seconds and minutes must divide 60, hours 24,
/// and days must be 1.
fn full_mode_finding(
    n: u64,
    unit: &str,
    derived: bool,
    explicit: Option<RefreshMode>,
) -> Option<Finding> {
    let (flink, problem, choices) = match unit {
        "SECOND" | "MINUTE" if n >= 60 => (
            format!("In full refresh mode, freshness must be less than 60 when the time unit is {unit}."),
            format!("FULL refresh mode needs a FRESHNESS below 60 {unit}"),
            "1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30",
        ),
        "SECOND" | "MINUTE" if 60 % n != 0 => (
            format!("In full refresh mode, only freshness that are factors of 60 are currently supported when the time unit is {unit}."),
            format!("FULL refresh mode needs a FRESHNESS that divides 60 {unit}"),
            "1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30",
        ),
        "HOUR" if n >= 24 => (
            "In full refresh mode, freshness must be less than 24 when the time unit is HOUR.".to_string(),
            "FULL refresh mode needs a FRESHNESS below 24 HOUR".to_string(),
            "1, 2, 3, 4, 6, 8 or 12",
        ),
        "HOUR" if 24 % n != 0 => (
            "In full refresh mode, only freshness that are factors of 24 are currently supported when the time unit is HOUR.".to_string(),
            "FULL refresh mode needs a FRESHNESS that divides 24 HOUR".to_string(),
            "1, 2, 3, 4, 6, 8 or 12",
        ),
        "DAY" if n != 1 => (
            "In full refresh mode, freshness must be 1 when the time unit is DAY.".to_string(),
            "FULL refresh mode needs a FRESHNESS of at most 1 DAY".to_string(),
            "1",
        ),
        _ => return None,
    };
    let rewrite = larger_unit(n, unit).filter(|r| valid(r, explicit));
    let mut help = match &rewrite {
        Some(r) => format!("write it in a larger unit: {r}"),
        None => {
            format!("a FULL refresh is scheduled with cron: use {choices} {unit}, or another unit")
        }
    };
    let mut message = problem;
    if derived {
        message = format!(
            "INTERVAL '{n}' {unit} makes Flink choose FULL refresh mode, and {}",
            message.replacen("FULL refresh mode needs", "that mode needs", 1)
        );
        help.push_str("; or write REFRESH_MODE = CONTINUOUS to keep a continuous refresh (Flink chooses FULL for a freshness of 30 minutes or more)");
    }
    Some(Finding {
        message,
        flink,
        help,
        label: derived.then(|| "FULL refresh mode, derived from this freshness".to_string()),
        rewrite,
    })
}

//! A START_MODE clause Flink rejects, or accepts although it cannot mean what was written.
//!
//! Errors: every START_MODE parse error (wrong place, missing `=`, unknown mode, wrong or
//! missing argument, an interval unit Flink's grammar lacks), a TIMESTAMP literal Flink cannot
//! read, an empty interval. Warnings (Flink 2.3 accepts them): a zero interval (the same as no
//! interval), a negative one (a start in the future), an interval value that is not a number
//! of its unit, and a FROM_TIMESTAMP instant after today.

use super::literals::{self, IntervalLit, IntervalValue};
use crate::diagnostics::{Applicability, Edit, Fix, Severity};
use crate::rules::syntax::rule_for;
use crate::rules::{Context, FileEntry, Reporter, Rule};
use crate::source::Span;
use crate::syntax::ast::*;

/// Reports START_MODE clauses that Flink rejects (error) or accepts to no purpose (warning).
pub struct InvalidStartMode;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidStartMode;

impl Rule for InvalidStartMode {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        let code = report.meta().code;
        for file in ctx.files {
            for error in file
                .parsed
                .errors
                .iter()
                .filter(|e| rule_for(&e.kind) == code)
            {
                let mut d = report.diagnostic(file.id, error.span, error.message.clone());
                if let Some(help) = &error.help {
                    d = d.with_help(help.clone());
                }
                if let Some(flink) = ctx.flink_syntax_message(file, error) {
                    d = d.with_flink_message(flink);
                }
                if let Some(s) = &error.suggestion {
                    d = d.with_fix(Fix {
                        title: s.title.clone(),
                        applicability: Applicability::Safe,
                        edits: vec![Edit {
                            file: file.id,
                            span: s.span,
                            replacement: s.replacement.clone(),
                        }],
                    });
                }
                report.report(d);
            }
            for statement in file.parsed.script.all_statements() {
                for clause in start_modes(statement) {
                    check_clause(ctx, report, file, statement, clause);
                }
            }
        }
    }
}

/// The START_MODE clauses of a statement.
pub(crate) fn start_modes(statement: &Statement) -> Vec<&StartModeClause> {
    match &statement.kind {
        StatementKind::CreateMaterializedTable(mt) => mt.start_mode.iter().collect(),
        StatementKind::AlterMaterializedTable(alter) => match &alter.action {
            AlterMaterializedTableAction::AsQuery(q) => q.start_mode.iter().collect(),
            AlterMaterializedTableAction::SetStartMode(c) => vec![c],
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn check_clause(
    ctx: &Context<'_>,
    report: &mut Reporter<'_>,
    file: &FileEntry,
    statement: &Statement,
    clause: &StartModeClause,
) {
    match &clause.arg {
        Some(StartModeArg::Timestamp(expr)) => check_timestamp(report, file, clause, expr),
        Some(StartModeArg::Interval(expr)) => {
            let text = &file.source.text;
            if let Some(lit) = literals::interval_literal(text, expr) {
                check_interval(ctx, report, file, statement, clause, expr, &lit);
            }
        }
        _ => {}
    }
}

fn check_timestamp(
    report: &mut Reporter<'_>,
    file: &FileEntry,
    clause: &StartModeClause,
    expr: &Expr,
) {
    let ExprKind::Literal(Literal::Typed { type_name, value }) = &expr.kind else {
        return;
    };
    let written = value.value.as_str();
    let mode = clause.kind.as_str();
    match literals::parse_timestamp(written) {
        None => {
            let (help, fix) = timestamp_help(file, value);
            let mut d = report
                .diagnostic(
                    file.id,
                    expr.span,
                    format!("{type_name} '{written}' is not a timestamp Flink can read"),
                )
                .with_label("not in the format 'yyyy-MM-dd HH:mm:ss'")
                .with_help(help)
                .with_flink_message(format!(
                    "Illegal {type_name} literal '{written}': not in format 'yyyy-MM-dd HH:mm:ss'"
                ));
            if let Some(fix) = fix {
                d = d.with_fix(fix);
            }
            report.report(d);
        }
        Some(at) => {
            let (y, m, d) = literals::today();
            // A day of margin: the literal is in the session time zone, the clock in UTC.
            let tomorrow = next_day(y, m, d);
            if (at.year, at.month, at.day) > tomorrow {
                let diag = report
                    .diagnostic_with(
                        Severity::Warning,
                        file.id,
                        expr.span,
                        format!(
                            "{mode} starts at {:04}-{:02}-{:02}, a date in the future",
                            at.year, at.month, at.day
                        ),
                    )
                    .with_label("after today")
                    .with_help(format!(
                        "Flink accepts it, but the source then starts after all the data there is (most connectors start at the latest record, some read nothing until that date); check the year, or use {} to start at the latest record",
                        if clause.kind.is_resume() { "RESUME_OR_FROM_NOW" } else { "FROM_NOW" }
                    ));
                report.report(diag);
            }
        }
    }
}

/// The day after (y, m, d).
fn next_day(y: u32, m: u32, d: u32) -> (u32, u32, u32) {
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    };
    if d < days {
        (y, m, d + 1)
    } else if m < 12 {
        (y, m + 1, 1)
    } else {
        (y + 1, 1, 1)
    }
}

/// Help for an unreadable TIMESTAMP literal, and a fix when the intent is certain (`T`
/// between date and time, seconds left out).
fn timestamp_help(file: &FileEntry, value: &StringLit) -> (String, Option<Fix>) {
    let written = value.value.as_str();
    let format = "write it as 'yyyy-MM-dd HH:mm:ss' (a fraction of a second and a date alone are accepted), e.g. '2024-01-01 00:00:00'";
    let fixed = if written.contains('T') {
        Some((
            written.replacen('T', " ", 1),
            "Flink wants a space between date and time, not `T`",
        ))
    } else if written.matches(':').count() == 1 {
        Some((format!("{written}:00"), "Flink wants the seconds too"))
    } else {
        None
    };
    if let Some((new, why)) = fixed {
        if literals::parse_timestamp(&new).is_some() && !written.contains('\'') {
            let raw = file.source.slice(value.span);
            if raw.starts_with('\'') && raw.ends_with('\'') && raw.len() == written.len() + 2 {
                let fix = Fix {
                    title: format!("Write '{new}'"),
                    applicability: Applicability::Safe,
                    edits: vec![Edit {
                        file: file.id,
                        span: value.span,
                        replacement: format!("'{new}'"),
                    }],
                };
                return (format!("{why}: '{new}'"), Some(fix));
            }
        }
    }
    (format.to_string(), None)
}

fn check_interval(
    ctx: &Context<'_>,
    report: &mut Reporter<'_>,
    file: &FileEntry,
    statement: &Statement,
    clause: &StartModeClause,
    expr: &Expr,
    lit: &IntervalLit<'_>,
) {
    let mode = clause.kind.as_str();
    let unit = lit.qualifier.render();
    let written = file.source.slice(expr.span);
    match literals::interval_value(lit) {
        IntervalValue::Empty => {
            let at = ctx.flink_position(file.id, statement.span, lit.span.start);
            let d = report
                .diagnostic(
                    file.id,
                    expr.span,
                    format!("the interval of {mode} has no value"),
                )
                .with_help(format!(
                    "write a number in the quotes, e.g. {mode}(INTERVAL '1' {unit})"
                ))
                .with_flink_message(format!("Illegal INTERVAL literal  {unit}; at {at}"));
            report.report(d);
        }
        IntervalValue::BadFormat => {
            let smaller = lit
                .qualifier
                .end
                .is_none()
                .then(|| literals::in_smaller_unit(&lit.value.value, &lit.qualifier.start))
                .flatten();
            let help = match smaller {
                Some(r) => format!("only SECOND takes a fraction: write {r}"),
                None => format!("write a whole number of {unit}, e.g. INTERVAL '1' {unit}"),
            };
            let d = report
                .diagnostic_with(
                    Severity::Warning,
                    file.id,
                    expr.span,
                    format!("{written} is not a valid {unit} interval"),
                )
                .with_label("Flink 2.3 accepts it without reading it")
                .with_help(help);
            report.report(d);
        }
        IntervalValue::Value { zero: true, .. } => {
            let d = report
                .diagnostic_with(
                    Severity::Warning,
                    file.id,
                    expr.span,
                    format!("{mode}({written}) starts at the latest record, the same as {mode} without an interval"),
                )
                .with_label("a zero interval")
                .with_help(format!(
                    "write {mode}, or give the interval to go back from now, e.g. {mode}(INTERVAL '1' HOUR)"
                ))
                .with_fix(Fix {
                    title: format!("Write {mode}"),
                    applicability: Applicability::Safe,
                    edits: vec![Edit {
                        file: file.id,
                        span: Span::new(clause.kind_span.end as usize, clause.span.end as usize),
                        replacement: String::new(),
                    }],
                });
            report.report(d);
        }
        IntervalValue::Value {
            negative: true,
            inner_negative,
            ..
        } => {
            let mut d = report
                .diagnostic_with(
                    Severity::Warning,
                    file.id,
                    expr.span,
                    format!("{mode}({written}) starts in the future"),
                )
                .with_label("a negative interval")
                .with_help(format!(
                    "{mode} subtracts the interval from now, so a negative one points after now: write a positive interval to start that far back"
                ));
            if let Some(fix) = positive_fix(file, lit, inner_negative) {
                d = d.with_fix(fix);
            }
            report.report(d);
        }
        IntervalValue::Value { .. } => {}
    }
}

/// An unsafe fix that drops the minus sign of a negative interval.
fn positive_fix(file: &FileEntry, lit: &IntervalLit<'_>, inner_negative: bool) -> Option<Fix> {
    let edit = if inner_negative {
        let raw = file.source.slice(lit.value.span);
        let unsigned = raw.strip_prefix("'-")?;
        Edit {
            file: file.id,
            span: lit.value.span,
            replacement: format!("'{unsigned}"),
        }
    } else {
        // `INTERVAL -'1' HOUR`: rewrite `INTERVAL -` as `INTERVAL `.
        Edit {
            file: file.id,
            span: Span::new(lit.span.start as usize, lit.value.span.start as usize),
            replacement: "INTERVAL ".to_string(),
        }
    };
    Some(Fix {
        title: "Make the interval positive".to_string(),
        applicability: Applicability::Unsafe,
        edits: vec![edit],
    })
}

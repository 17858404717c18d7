//! Running the rules: the rules whose `check` reads only the syntax trees while the catalog
//! pass runs ([`run_early`]), then, once the model is built, the other checks and one pass
//! over the model's problems, each handed to the rule that consumes it ([`run_after`]); then
//! the steps every finding goes through (reported files only, none in text that is not Flink
//! SQL, none inside a statement that does not parse, configured levels, suppressions) and the rules that read the suppressions.

use super::registry::{RegisteredRule, RULES};
use super::{suppression, syntax, Context, Reporter};
use crate::config::Level;
use crate::diagnostics::{Diagnostic, Severity};
use crate::registry::RuleMeta;
use crate::source::{FileId, Span};
use std::collections::HashSet;

/// Runs every rule and returns the diagnostics for reported files, sorted. In order: the
/// rules (each skipped when it is off for every file), the findings in text that is not Flink
/// SQL dropped (but its notes), the findings inside statements that do not parse dropped, the configured levels applied per file, the suppression comments
/// applied, then the rules that read what the suppressions matched (SU001).
pub fn run(ctx: &Context<'_>) -> Vec<Diagnostic> {
    run_after(ctx, run_early(ctx))
}

/// What does not need the semantic model: the findings of the rules that read only the
/// syntax trees, and the suppression comments. Computed while the catalog pass runs.
pub struct Early {
    /// Per rule of [`RULES`] that does not read the model: its index and its findings.
    findings: Vec<(usize, Vec<Diagnostic>)>,
    /// The suppression comments of the reported files.
    directives: Vec<suppression::Directive>,
}

/// The part of [`run`] that does not read `ctx.model` (which may still be empty).
pub fn run_early(ctx: &Context<'_>) -> Early {
    let findings = RULES
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.rule.after_suppressions() && !r.rule.reads_model())
        .map(|(i, rule)| {
            let mut out = Vec::new();
            if enabled(ctx, rule.meta) {
                check(ctx, rule, &mut out, &mut HashSet::new());
            }
            (i, out)
        })
        .collect();
    Early {
        findings,
        directives: suppression::collect(ctx),
    }
}

/// The rest of [`run`], once the model is built: the checks that read it, the model's
/// problems, then the findings of all rules through the same steps.
pub fn run_after(ctx: &Context<'_>, early: Early) -> Vec<Diagnostic> {
    // Most findings of the rules that read the model are its problems, one each.
    let mut out = Vec::with_capacity(
        ctx.model.found.len() + early.findings.iter().map(|(_, f)| f.len()).sum::<usize>(),
    );
    let enabled: Vec<bool> = RULES.iter().map(|r| enabled(ctx, r.meta)).collect();
    let mut reported_at = HashSet::new();
    let mut findings = early.findings.into_iter().peekable();
    for (i, rule) in RULES.iter().enumerate() {
        if rule.rule.after_suppressions() {
            continue;
        }
        match findings.next_if(|(at, _)| *at == i) {
            Some((_, found)) => out.extend(found),
            None if enabled[i] => check(ctx, rule, &mut out, &mut reported_at),
            None => {}
        }
    }
    report_problems(ctx, &enabled, &mut out, &mut reported_at);
    out.retain(|d| ctx.file(d.file).report);
    drop_in_other_dialects(ctx, &mut out);
    drop_after_syntax_errors(ctx, &mut out);
    apply_levels(ctx, &mut out);
    let suppressions = suppression::apply(early.directives, &mut out);
    let late_ctx = Context {
        suppressions: Some(&suppressions),
        ..*ctx
    };
    let mut late = Vec::new();
    for (i, rule) in RULES.iter().enumerate() {
        if rule.rule.after_suppressions() && enabled[i] {
            check(&late_ctx, rule, &mut late, &mut reported_at);
        }
    }
    late.retain(|d| ctx.file(d.file).report);
    drop_in_other_dialects(ctx, &mut late);
    apply_levels(ctx, &mut late);
    suppression::apply_file_wide(&suppressions, &mut late);
    out.extend(late);
    let ranks = crate::semantic::history::report_ranks(ctx.files, &ctx.model.plan);
    crate::diagnostics::sort_ranked(&mut out, &ranks);
    out
}

/// Whether the rule is on for some file (a rule that is off everywhere does not run).
fn enabled(ctx: &Context<'_>, meta: &RuleMeta) -> bool {
    ctx.by_file
        .distinct()
        .any(|s| s.level(meta.code) != Some(Level::Off))
}

/// Runs one rule's [`super::Rule::check`].
fn check(
    ctx: &Context<'_>,
    rule: &RegisteredRule,
    out: &mut Vec<Diagnostic>,
    reported_at: &mut HashSet<(&'static str, FileId, Span)>,
) {
    rule.rule
        .check(ctx, &mut Reporter::new(rule.meta, out, reported_at));
}

/// One pass over the model's problems: each goes to the rule that consumes it (the first in
/// [`RULES`] order; a test checks that there is exactly one), unless that rule is off.
fn report_problems(
    ctx: &Context<'_>,
    enabled: &[bool],
    out: &mut Vec<Diagnostic>,
    reported_at: &mut HashSet<(&'static str, FileId, Span)>,
) {
    for found in &ctx.model.found {
        let Some(i) = super::registry::consumer(&found.problem) else {
            continue;
        };
        if enabled[i] {
            let rule = &RULES[i];
            rule.rule
                .report(ctx, found, &mut Reporter::new(rule.meta, out, reported_at));
        }
    }
}

/// Applies each file's configured level: a configured severity replaces the rule's, `off`
/// drops the finding.
fn apply_levels(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    out.retain_mut(
        |d| match ctx.settings_for(d.file).severity(d.code, d.severity) {
            Some(severity) => {
                d.severity = severity;
                true
            }
            None => false,
        },
    );
}

/// Nothing is reported in text that is not Flink SQL (a MySQL script, a Hive stretch, a
/// template) but the note of the rule that reports it ([`super::Rule::reports_other_dialects`]):
/// its syntax errors and findings would be Flink's view of another language, and their fixes
/// would damage it. A finding is in such text when its primary span starts there.
fn drop_in_other_dialects(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.files.iter().all(|f| f.dialect.stretches.is_empty()) {
        return;
    }
    let keeps: HashSet<&str> = RULES
        .iter()
        .filter(|r| r.rule.reports_other_dialects())
        .map(|r| r.meta.code)
        .collect();
    out.retain(|d| keeps.contains(d.code) || !ctx.file(d.file).dialect.covers(d.span.start));
}

/// One problem, one finding: Flink stops at a syntax error, so semantic findings inside a
/// statement that does not parse on the target are not reported beside the syntax error. A
/// syntax error is an error of an SY rule, or the report of a parse error by the rule its kind
/// belongs to (e.g. MT004 for START_MODE).
fn drop_after_syntax_errors(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Every parse error, by file, span and the rule it belongs to (one look-up per finding).
    let mut parse_errors: HashSet<(FileId, Span, &'static str)> = HashSet::new();
    let mut files_with_findings: Vec<FileId> = out.iter().map(|d| d.file).collect();
    files_with_findings.sort_unstable();
    files_with_findings.dedup();
    for &file in &files_with_findings {
        for e in &ctx.file(file).parsed.errors {
            parse_errors.insert((file, e.span, syntax::rule_for(&e.kind)));
        }
    }
    let from_parser = |d: &Diagnostic| {
        d.code.starts_with("SY") || parse_errors.contains(&(d.file, d.span, d.code))
    };
    // The statements (top-level, in order, disjoint) that do not parse, by file.
    let mut rejected: Vec<(FileId, Span)> = out
        .iter()
        .filter(|d| d.severity == Severity::Error && from_parser(d))
        .filter_map(|d| {
            let statements = &ctx.file(d.file).parsed.script.statements;
            let at = statements.partition_point(|s| s.span.start <= d.span.start);
            let s = &statements[at.checked_sub(1)?];
            s.span.contains(d.span).then_some((d.file, s.span))
        })
        .collect();
    if rejected.is_empty() {
        return;
    }
    rejected.sort_unstable();
    rejected.dedup();
    out.retain(|d| {
        if from_parser(d) {
            return true;
        }
        let at = rejected.partition_point(|&(f, s)| (f, s.start) <= (d.file, d.span.start));
        !at.checked_sub(1)
            .is_some_and(|i| rejected[i].0 == d.file && rejected[i].1.contains(d.span))
    });
}

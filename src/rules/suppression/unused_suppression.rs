//! A `-- flinklint: ignore ...` comment that silenced nothing, names a rule that does not exist, is
//! malformed, or (with `require-suppression-reason: true`) gives no reason.

use super::{Directive, Malformed, Scope, Suppressions};
use crate::config::Level;
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::source::{SourceFile, Span};

/// Reports suppressions that matched nothing (safe fix: remove the comment, or the unused code
/// from its list), unknown codes in them (safe fix: remove the code), malformed ones, and
/// missing reasons when reasons are required.
pub struct UnusedSuppression;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnusedSuppression;

impl Rule for UnusedSuppression {
    fn after_suppressions(&self) -> bool {
        true
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        let Some(Suppressions { directives, used }) = ctx.suppressions else {
            return;
        };
        // Files whose syntax errors were cut short, looked up once each.
        let capped: Vec<bool> = ctx
            .files
            .iter()
            .map(crate::rules::syntax::errors_capped)
            .collect();
        for (directive, used) in directives.iter().zip(used) {
            let capped = capped[directive.file.0 as usize];
            check_directive(ctx, report, directive, used, capped);
        }
    }
}

fn check_directive(
    ctx: &Context<'_>,
    report: &mut Reporter<'_>,
    directive: &Directive,
    used: &[bool],
    capped: bool,
) {
    // Suppressions of this rule itself are never reported as unused.
    let own = report.meta().code;
    let file = directive.file;
    let source = &ctx.file(file).source;
    let settings = ctx.settings_for(file);
    match &directive.malformed {
        Some(Malformed::UnknownAction(word)) => {
            let mut d = report.diagnostic(
                file,
                directive.comment,
                if word.is_empty() {
                    "suppression comment without an action".to_string()
                } else {
                    format!("unknown suppression action `{word}`")
                },
            );
            d = d.with_help(match crate::config::did_you_mean(word, ["ignore", "ignore-file"]) {
                Some(best) if !word.is_empty() => format!(
                    "did you mean `{best}`? Write `-- flinklint: ignore CODE -- reason` (next statement) or `-- flinklint: ignore-file CODE` (whole file)"
                ),
                _ => "write `-- flinklint: ignore CODE -- reason` (next statement) or `-- flinklint: ignore-file CODE` (whole file)".to_string(),
            });
            report.report(d);
            return;
        }
        Some(Malformed::NoCodes) => {
            let d = report
                .diagnostic(
                    file,
                    directive.comment,
                    "suppression without codes: it silences nothing",
                )
                .with_help(
                    "name the rules it silences, e.g. `-- flinklint: ignore SY003 -- reason`; every finding shows its code",
                );
            report.report(d);
            return;
        }
        None => {}
    }
    let place = match directive.scope {
        Some(Scope::File) => "in this file",
        _ if directive.block => "in the block it applies to",
        _ => "in the statement it applies to",
    };
    // Codes that are unknown, or known but silenced nothing while their rule ran here.
    let mut dead: Vec<usize> = Vec::new();
    for (i, code) in directive.codes.iter().enumerate() {
        match code.code {
            None => {
                let mut d = report.diagnostic(
                    file,
                    code.span,
                    format!("unknown rule `{}` in suppression", code.text),
                );
                d = d.with_help(match crate::rules::meta::suggestion(&code.text) {
                    Some(best) => format!("did you mean `{best}`?"),
                    None => "`flinklint rules` lists every code and name".to_string(),
                });
                report.report(d.with_fix(removal(
                    source,
                    directive,
                    &[i],
                    "remove the unknown code",
                )));
                dead.push(i);
            }
            Some(c) if c == own || used[i] => {}
            // A rule that does not run for this file cannot tell whether it is needed.
            Some(c) if settings.level(c) == Some(Level::Off) => {}
            // Past the limit of syntax errors per file, those findings are not known.
            Some(c) if capped && crate::rules::syntax::PARSE_ERROR_CODES.contains(&c) => {}
            Some(_) => dead.push(i),
        }
    }
    let unused: Vec<usize> = dead
        .iter()
        .copied()
        .filter(|&i| directive.codes[i].code.is_some())
        .collect();
    let all_dead = dead.len() == directive.codes.len();
    if all_dead && !unused.is_empty() {
        let names: Vec<String> = unused
            .iter()
            .map(|&i| format!("`{}`", directive.codes[i].text))
            .collect();
        let d = report
            .diagnostic(
                file,
                directive.comment,
                format!(
                    "unused suppression: no {} finding {place}",
                    names.join(" or ")
                ),
            )
            .with_help("remove the comment; the finding it was written for is gone")
            .with_fix(removal(
                source,
                directive,
                &dead,
                "remove the unused suppression",
            ));
        report.report(d);
    } else {
        for &i in &unused {
            let d = report
                .diagnostic(
                    file,
                    directive.codes[i].span,
                    format!(
                        "unused suppression of `{}`: no such finding {place}",
                        directive.codes[i].text
                    ),
                )
                .with_help("remove the code from the list")
                .with_fix(removal(source, directive, &[i], "remove the unused code"));
            report.report(d);
        }
    }
    if settings.require_suppression_reason && directive.reason.is_none() && !all_dead {
        let d = report
            .diagnostic(
                file,
                directive.comment,
                "suppression without a reason (`require-suppression-reason: true`)",
            )
            .with_help("say why after the codes: `-- flinklint: ignore CODE -- why this is fine`");
        report.report(d);
    }
}

/// The fix that removes the codes at `indices` from the directive, or the whole comment when
/// no code would remain (with its line when the comment stands alone on it).
fn removal(source: &SourceFile, directive: &Directive, indices: &[usize], title: &str) -> Fix {
    let edits = if indices.len() == directive.codes.len() {
        vec![Edit {
            file: directive.file,
            span: comment_removal(source, directive.comment),
            replacement: String::new(),
        }]
    } else {
        indices
            .iter()
            .map(|&i| Edit {
                file: directive.file,
                span: code_removal(directive, i),
                replacement: String::new(),
            })
            .collect()
    };
    Fix {
        title: title.to_string(),
        applicability: Applicability::Safe,
        edits,
    }
}

/// The comment's line, line break included, when only spaces precede it; else the comment
/// and the spaces before it.
fn comment_removal(source: &SourceFile, comment: Span) -> Span {
    let text = &*source.text;
    let start = comment.start as usize;
    let line = source.line_col(comment.start).line;
    let line_start = source.lines.line_start(line).unwrap_or(0) as usize;
    let before = &text[line_start..start];
    if before.chars().all(|c| c == ' ' || c == '\t') {
        let mut end = comment.end as usize;
        if text[end..].starts_with("\r\n") {
            end += 2;
        } else if text[end..].starts_with(['\n', '\r']) {
            end += 1;
        }
        Span::new(line_start, end)
    } else {
        Span::new(
            start - (before.len() - before.trim_end().len()),
            comment.end as usize,
        )
    }
}

/// One code and the separator that joins it to its neighbour (the following one when there
/// is a following code, else the preceding one).
fn code_removal(directive: &Directive, i: usize) -> Span {
    let span = directive.codes[i].span;
    match (directive.codes.get(i + 1), i.checked_sub(1)) {
        (Some(next), _) => Span {
            start: span.start,
            end: next.span.start,
        },
        (None, Some(prev)) => {
            let prev = directive.codes[prev].span;
            Span {
                start: prev.end,
                end: span.end,
            }
        }
        (None, None) => span,
    }
}

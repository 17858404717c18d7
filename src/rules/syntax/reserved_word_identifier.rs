//! An unquoted reserved keyword used as a name.

use super::errors_of;
use crate::config::Target;
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::syntax::keywords::Kw;
use crate::syntax::SyntaxErrorKind;

/// Reports reserved words used as names on the target, with a fix that backticks them.
pub struct ReservedWordIdentifier;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ReservedWordIdentifier;

/// Whether `kw` is reserved on `target`. Flink 2.3.0's list is measured
/// (`flink-keywords.tsv`); words reserved only by newer grammars are free on older targets.
pub fn reserved_on(kw: Kw, target: Target) -> bool {
    if !kw.is_reserved() {
        return false;
    }
    match kw {
        Kw::VARIANT => target.at_least(2, 1),
        Kw::BITMAP => target.at_least(2, 3),
        _ => true,
    }
}

impl Rule for ReservedWordIdentifier {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for (file, error) in errors_of(ctx, report.meta().code) {
            let SyntaxErrorKind::ReservedWord { keyword } = error.kind else {
                continue;
            };
            if !reserved_on(keyword, ctx.target(file.id)) {
                continue;
            }
            let word = file.source.slice(error.span);
            let quoted = format!("`{word}`");
            let d = report
                .diagnostic(
                    file.id,
                    error.span,
                    format!(
                        "`{word}` is a reserved keyword in {} and cannot be an unquoted name",
                        ctx.target(file.id)
                    ),
                )
                .with_help(format!("quote it in backticks: {quoted}"))
                .with_fix(Fix {
                    title: format!("Quote `{word}` in backticks"),
                    applicability: Applicability::Safe,
                    edits: vec![Edit {
                        file: file.id,
                        span: error.span,
                        replacement: quoted,
                    }],
                });
            report.report(d);
        }
    }
}

//! Flink's SQL parser rejects the statement.

use super::errors_of;
use crate::diagnostics::{Applicability, Edit, Fix, Severity};
use crate::rules::{Context, Reporter, Rule};
use crate::syntax::SyntaxErrorKind;

/// Reports parse errors that no more specific rule explains.
pub struct SyntaxErrorRule;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &SyntaxErrorRule;

impl Rule for SyntaxErrorRule {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for (file, error) in errors_of(ctx, report.meta().code) {
            // Past the parser's own nesting or operator limit, Flink may well accept the
            // text: flinklint only says it did not analyse the rest (info).
            let mut d = if error.kind == SyntaxErrorKind::TooDeep {
                report.diagnostic_with(
                    Severity::Info,
                    file.id,
                    error.span,
                    format!(
                        "{}: flinklint does not analyse it (Flink may accept it)",
                        error.message
                    ),
                )
            } else {
                report.diagnostic(file.id, error.span, error.message.clone())
            };
            if let Some(help) = &error.help {
                d = d.with_help(help.clone());
            }
            if let Some(flink) = ctx.flink_syntax_message(file, error) {
                d = d.with_flink_message(flink);
            }
            if let Some(suggestion) = &error.suggestion {
                d = d.with_fix(Fix {
                    title: suggestion.title.clone(),
                    applicability: Applicability::Safe,
                    edits: vec![Edit {
                        file: file.id,
                        span: suggestion.span,
                        replacement: suggestion.replacement.clone(),
                    }],
                });
            }
            report.report(d);
        }
    }
}

//! SY001 syntax-error: Flink's SQL parser rejects the statement.

use super::rule_for;
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::source::Span;
use crate::syntax::SyntaxErrorKind;

/// Reports parse errors that no more specific rule explains.
pub struct SyntaxErrorRule;

impl Rule for SyntaxErrorRule {
    fn code(&self) -> &'static str {
        "SY001"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files {
            for error in file
                .parsed
                .errors
                .iter()
                .filter(|e| rule_for(&e.kind) == self.code())
            {
                let mut d = report.diagnostic(file.id, error.span, error.message.clone());
                if let Some(help) = &error.help {
                    d = d.with_help(help.clone());
                }
                if let SyntaxErrorKind::MissingSemicolon { insert_at } = error.kind {
                    d = d.with_fix(Fix {
                        title: "End the previous statement with `;`".to_string(),
                        applicability: Applicability::Safe,
                        edits: vec![Edit {
                            file: file.id,
                            span: Span::empty(insert_at),
                            replacement: ";".to_string(),
                        }],
                    });
                }
                if error.kind == SyntaxErrorKind::HashComment {
                    d = d.with_fix(Fix {
                        title: "Start the comment with `--`".to_string(),
                        applicability: Applicability::Safe,
                        edits: vec![Edit {
                            file: file.id,
                            span: Span {
                                start: error.span.start,
                                end: error.span.start + 1,
                            },
                            replacement: "--".to_string(),
                        }],
                    });
                }
                report.report(d);
            }
        }
    }
}

//! ‘ ’ “ ” quotes and – — dashes where Flink needs ASCII.

use super::{errors_of, requote};
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::syntax::{QuoteUsage, SyntaxErrorKind};

/// Reports typographic quotes and dashes, with a fix to the ASCII character that belongs.
pub struct TypographicQuote;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &TypographicQuote;

impl Rule for TypographicQuote {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for (file, error) in errors_of(ctx, report.meta().code) {
            let mut d = report.diagnostic(file.id, error.span, error.message.clone());
            if let Some(help) = &error.help {
                d = d.with_help(help.clone());
            }
            let fix = match &error.kind {
                SyntaxErrorKind::TypographicQuote {
                    content: Some(content),
                    usage,
                } if !(content.is_empty() && *usage == QuoteUsage::Name) => {
                    // Empty quotes: no name is empty (no fix where a name is needed; in an
                    // expression, the empty string).
                    let as_name = matches!(usage, QuoteUsage::Name | QuoteUsage::Expression)
                        && !content.is_empty();
                    let title = if as_name {
                        "Quote the name in backticks"
                    } else {
                        "Use straight single quotes"
                    };
                    let applicability = if matches!(
                        usage,
                        QuoteUsage::Unknown | QuoteUsage::Expression | QuoteUsage::ComparedValue
                    ) {
                        Applicability::Unsafe
                    } else {
                        Applicability::Safe
                    };
                    Some((title, requote(content, as_name), applicability))
                }
                SyntaxErrorKind::TypographicDash => {
                    let text = file.source.slice(error.span);
                    let fixed: String = text
                        .chars()
                        .map(|c| {
                            if matches!(c, '\u{2013}' | '\u{2014}' | '\u{2212}') {
                                '-'
                            } else {
                                c
                            }
                        })
                        .collect();
                    Some(("Use ASCII `-`", fixed, Applicability::Safe))
                }
                _ => None,
            };
            if let Some((title, replacement, applicability)) = fix {
                d = d.with_fix(Fix {
                    title: title.to_string(),
                    applicability,
                    edits: vec![Edit {
                        file: file.id,
                        span: error.span,
                        replacement,
                    }],
                });
            }
            report.report(d);
        }
    }
}

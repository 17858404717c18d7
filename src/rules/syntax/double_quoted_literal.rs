//! `"..."`, which Flink SQL has neither for strings nor names.

use super::{errors_of, requote};
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::syntax::{QuoteUsage, SyntaxErrorKind};

/// Reports double-quoted text, with a fix to `'...'` (string) or backticks (name).
pub struct DoubleQuotedLiteral;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &DoubleQuotedLiteral;

impl Rule for DoubleQuotedLiteral {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for (file, error) in errors_of(ctx, report.meta().code) {
            let mut d = report.diagnostic(file.id, error.span, error.message.clone());
            if let Some(help) = &error.help {
                d = d.with_help(help.clone());
            }
            if let SyntaxErrorKind::DoubleQuoted {
                content: Some(content),
                usage,
            } = &error.kind
            {
                // `""` quotes nothing: no name is empty, so in an expression it can only be
                // the empty string, and where a name is needed there is no fix.
                let as_name = matches!(usage, QuoteUsage::Name | QuoteUsage::Expression)
                    && !content.is_empty();
                let fixable = !(content.is_empty() && *usage == QuoteUsage::Name);
                let fix = Fix {
                    title: if as_name {
                        "Quote the name in backticks"
                    } else {
                        "Use single quotes for the string"
                    }
                    .to_string(),
                    applicability: if matches!(
                        usage,
                        QuoteUsage::Unknown | QuoteUsage::Expression | QuoteUsage::ComparedValue
                    ) {
                        Applicability::Unsafe
                    } else {
                        Applicability::Safe
                    },
                    edits: vec![Edit {
                        file: file.id,
                        span: error.span,
                        replacement: requote(content, as_name),
                    }],
                };
                if fixable {
                    d = d.with_fix(fix);
                }
            }
            report.report(d);
        }
    }
}

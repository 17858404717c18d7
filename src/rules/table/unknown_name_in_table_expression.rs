//! A computed column or watermark expression naming a column it cannot read.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports names Flink's schema resolution does not find in a computed column or watermark.
pub struct UnknownNameInTableExpression;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnknownNameInTableExpression;

impl Rule for UnknownNameInTableExpression {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::UnknownTableExpressionName { .. } | Problem::UnknownTableExpressionField { .. }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        if let Problem::UnknownTableExpressionField {
            span,
            field,
            within,
            fields,
            scalar,
        } = &found.problem
        {
            let d = match scalar {
                Some(t) => out
                    .diagnostic(found.file, *span, format!("{within} reads field `{field}` of a value of type {t}, which has no fields"))
                    .with_label("no fields")
                    .with_help("only a ROW column has fields")
                    .with_flink_message(format!("Trying to access field {field} in a type with no fields: {t}")),
                None => out
                    .diagnostic(found.file, *span, format!("{within} reads field `{field}`, which the ROW does not have"))
                    .with_label("no such field")
                    .with_help(format!(
                        "the ROW type has the fields {}",
                        fields.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
                    ))
                    .with_flink_message(format!("Unknown field '{field}'")),
            };
            out.report(d);
            return;
        }
        let Problem::UnknownTableExpressionName {
            span,
            name,
            within,
            computed,
            similar,
        } = &found.problem
        else {
            return;
        };
        let (message, label, help) = if *computed {
            (
                format!("{within} reads the computed column `{name}`, which a computed column cannot read"),
                "a computed column",
                format!("repeat `{name}`'s expression here instead; a computed column reads only the table's physical and metadata columns"),
            )
        } else {
            (
                format!("{within} reads `{name}`, which is not a column of the table"),
                "no such column",
                crate::rules::query::did_you_mean(similar).unwrap_or_else(|| {
                    "check the spelling (Flink compares names exactly, case included)".to_string()
                }),
            )
        };
        let d = out
            .diagnostic(found.file, *span, message)
            .with_label(label)
            .with_help(help)
            .with_flink_message(format!("Unknown identifier '{name}'"));
        out.report(d);
    }
}

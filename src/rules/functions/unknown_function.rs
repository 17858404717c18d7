//! A call of a function no module or catalog knows (Calcite's `SqlValidatorImpl`
//! `handleUnresolvedFunction`: "No match found for function signature f(<NUMERIC>)").

use super::issue_of;
use crate::config::Target;
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports calls of unknown functions, with the built-in names close to them.
pub struct UnknownFunction;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnknownFunction;

impl Rule for UnknownFunction {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::UnknownFunction { .. },
                ..
            }
        )
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, ExprIssue::UnknownFunction { name, similar }, flink)) = issue_of(found)
        else {
            return;
        };
        // Confluent Cloud has built-in functions of its own.
        if ctx.target(found.file) == Target::Confluent {
            return;
        }
        // `VALUES (DEFAULT, ...)`: Flink's tables have no column defaults.
        if name == "DEFAULT" {
            let mut d = out
                .diagnostic(
                    found.file,
                    span,
                    "DEFAULT is not a value in Flink SQL: Flink's tables have no column defaults",
                )
                .with_label("read as a call of an unknown function DEFAULT")
                .with_help("write the value, or NULL for a nullable column; or leave the column out of the INSERT's column list");
            if let Some(f) = flink {
                d = d.with_flink_message(f);
            }
            out.report(d);
            return;
        }
        let help = match similar.as_slice() {
            [] => "define it first (CREATE [TEMPORARY] FUNCTION ... AS 'class'), or declare it under `functions:` in .flinklint.yaml when it comes from a catalog".to_string(),
            [one] => format!("did you mean `{one}`?"),
            many => format!(
                "did you mean one of {}?",
                many.iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let mut d = out
            .diagnostic(found.file, span, format!("unknown function `{name}`"))
            .with_label("no built-in or created function of this name")
            .with_help(help);
        if let Some(f) = flink {
            d = d.with_flink_message(f);
        }
        if let [one] = similar.as_slice() {
            let replacement = if name.chars().any(|c| c.is_ascii_uppercase()) {
                one.to_string()
            } else {
                one.to_ascii_lowercase()
            };
            d = d.with_fix(Fix {
                title: format!("Call `{replacement}`"),
                applicability: Applicability::Unsafe,
                edits: vec![Edit {
                    file: found.file,
                    span,
                    replacement,
                }],
            });
        }
        out.report(d);
    }
}

//! A MATCH_RECOGNIZE pattern whose last element has a greedy quantifier.

use super::cep::{clause_diagnostic, first_problem, match_clauses, CepProblem, Planning};
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::source::Span;

/// Reports `PATTERN (A B+)` and the like: Flink's CEP translation (`StreamExecMatch`) cannot
/// end a match on a greedy quantifier. On a view or a materialized table, whose query Flink
/// stores without planning it, a warning.
pub struct GreedyLastQuantifier;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &GreedyLastQuantifier;

/// Flink's message (`StreamExecMatch`).
pub const FLINK_MESSAGE: &str = "Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a simple variable or reluctant quantifier.";

impl Rule for GreedyLastQuantifier {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, out: &mut Reporter<'_>) {
        for file in ctx.files {
            for clause in match_clauses(&file.parsed.script) {
                if clause.planning == Planning::Unread {
                    continue;
                }
                let Some(CepProblem::GreedyLast { span, quantifier }) = first_problem(&clause)
                else {
                    continue;
                };
                let element = file.source.slice(span);
                let message = format!(
                    "the pattern ends with `{element}`, a greedy quantifier, which Flink's CEP does not support on the last pattern variable"
                );
                let d = clause_diagnostic(out, &clause, file.id, span, message);
                let d = d
                    .with_label("greedy, last")
                    .with_help(format!(
                        "make it reluctant (`{element}?`: the match then ends at the fewest rows), or end the pattern with a variable without a quantifier"
                    ))
                    .with_flink_message(FLINK_MESSAGE)
                    .with_fix(Fix {
                        title: "Make the quantifier reluctant".to_string(),
                        applicability: Applicability::Unsafe,
                        edits: vec![Edit {
                            file: file.id,
                            span: Span::empty(quantifier.span.end),
                            replacement: "?".to_string(),
                        }],
                    });
                out.report(d);
            }
        }
    }
}

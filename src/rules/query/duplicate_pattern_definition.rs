//! A pattern variable that DEFINE defines twice.

use super::cep::{duplicate_definition, match_clauses};
use crate::rules::{Context, Reporter, Rule};

/// Reports the second definition of a pattern variable in a MATCH_RECOGNIZE's DEFINE, which
/// Calcite's validator rejects (`SqlValidatorImpl.validateDefinitions`) on every statement,
/// views included.
pub struct DuplicatePatternDefinition;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &DuplicatePatternDefinition;

impl Rule for DuplicatePatternDefinition {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, out: &mut Reporter<'_>) {
        for file in ctx.files {
            for clause in match_clauses(&file.parsed.script) {
                let Some((first, second)) = duplicate_definition(clause.spec) else {
                    continue;
                };
                let name = &second.variable.text;
                let d = out
                    .diagnostic(
                        file.id,
                        second.variable.span,
                        format!("pattern variable `{name}` is defined twice in DEFINE"),
                    )
                    .with_label("defined again")
                    .with_related(file.id, first.variable.span, "first defined here")
                    .with_help("keep one definition: combine the two conditions with AND or OR")
                    .with_flink_message(format!(
                        "Pattern variable '{name}' has already been defined"
                    ));
                out.report(d);
            }
        }
    }
}

//! Two relations of one FROM clause with the same name.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// Two relations of one FROM clause with the same name.
pub struct DuplicateRelationName;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &DuplicateRelationName;

impl Rule for DuplicateRelationName {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::DuplicateAlias { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::DuplicateAlias { span, name, first }) = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, format!("`{name}` names two relations of the FROM clause"))
            .with_label("second relation of this name")
            .with_related(found.file, *first, "the first one")
            .with_help("give each table of the FROM clause its own alias (a self-join needs two)")
            .with_flink_message(format!("Duplicate relation name '{name}' in FROM clause"));
        out.report(d);
    }
}

//! A USING column that a side of the join does not have.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// A USING column that a side of the join does not have.
pub struct UnknownUsingColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnknownUsingColumn;

impl Rule for UnknownUsingColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::UnknownUsingColumn { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::UnknownUsingColumn { span, name }) = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, format!("USING column `{name}` is not a column of both sides of the join"))
            .with_label("not on both sides")
            .with_help("USING joins on columns both sides have under the same name; use ON for others")
            .with_flink_message(format!("Column '{name}' not found in any table"));
        out.report(d);
    }
}

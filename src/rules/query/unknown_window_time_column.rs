//! A window TVF's DESCRIPTOR naming a column its input does not have.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// A window TVF's DESCRIPTOR naming a column its input does not have.
pub struct UnknownWindowTimeColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnknownWindowTimeColumn;

impl Rule for UnknownWindowTimeColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::UnknownDescriptorColumn { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::UnknownDescriptorColumn { span, name, similar }) = &found.problem
        else {
            return;
        };
        let help = super::did_you_mean(similar).unwrap_or_else(|| {
            "name the input's time attribute (a column with a watermark, or PROCTIME())".to_string()
        });
        let d = out
            .diagnostic(found.file, *span, format!("the window's time column `{name}` is not a column of its input"))
            .with_label("no such column")
            .with_help(help)
            .with_flink_message(format!("Unknown identifier '{name}'"));
        out.report(d);
    }
}

//! An `OPTIONS` hint on a view.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// Reports dynamic table options written on a view.
pub struct ViewOptionsHint;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ViewOptionsHint;

impl Rule for ViewOptionsHint {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::ViewOptionsHint { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::ViewOptionsHint {
            span,
            name,
            qualified,
        }) = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("`{name}` is a view: OPTIONS hints apply to tables only"),
            )
            .with_label("options on a view")
            .with_help("put the hint on the table the view reads (inside the view's query), or read the table directly")
            .with_flink_message(format!(
                "View '{qualified}' cannot be enriched with new options. Hints can only be applied to tables."
            ));
        out.report(d);
    }
}

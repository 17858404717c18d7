//! OVERWRITING changes a parent option's value.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports (as info) options the derived table overrides, old and new value.
pub struct LikeOverridesOption;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &LikeOverridesOption;

impl Rule for LikeOverridesOption {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::OverridesOption { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::OverridesOption {
            span,
            key,
            old,
            new,
            parent,
        } = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, format!("option '{key}' overrides the parent's value: '{old}' becomes '{new}'"))
            .with_related(parent.file, parent.span, format!("the parent sets '{key}' = '{old}'"))
            .with_help("intended when deriving a table for another topic or path; check that the other inherited options still fit");
        out.report(d.with_notes(&found.diff));
    }
}

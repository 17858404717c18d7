//! A derived physical column over an inherited column in a LIKE merge.

use super::{clash_help, flink_clash_message};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Kind, Found, Problem};

/// Reports a derived physical column whose name the LIKE parent already has.
pub struct LikeColumnClash;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &LikeColumnClash;

impl Rule for LikeColumnClash {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::LikeColumnClash { derived_kind: Kind::Physical, .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::LikeColumnClash {
            span,
            name,
            derived_kind: Kind::Physical,
            inherited_kind,
            inherited,
            parent_name,
        } = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "physical column `{name}` clashes with the {} column `{name}` inherited from `{}`",
                    inherited_kind.as_str(),
                    parent_name.object
                ),
            )
            .with_label("clashes with an inherited column")
            .with_related(inherited.file, inherited.span, format!("`{name}` in the parent"))
            .with_help(clash_help(Kind::Physical, *inherited_kind, name, crate::rules::like::like_options(ctx, found)))
            .with_flink_message(flink_clash_message(name, *inherited_kind, Kind::Physical, true));
        out.report(d.with_notes(&found.diff));
    }
}

//! A derived column named like an inherited column in a LIKE merge: one implementation for the
//! three rules that report it, one per kind of derived column (physical, computed, metadata).

use super::{clash_help, flink_clash_message};
use crate::rules::like::like_options;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Kind, Problem};

/// Reports a derived column of one kind whose name the LIKE parent already has.
pub(crate) struct InheritedColumnClash {
    /// The kind of the derived columns this rule reports.
    pub(crate) derived: Kind,
}

impl Rule for InheritedColumnClash {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::LikeColumnClash { derived_kind, .. } if *derived_kind == self.derived)
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::LikeColumnClash {
            span,
            name,
            derived_kind: _,
            inherited_kind,
            inherited,
            parent_name,
        } = &found.problem
        else {
            return;
        };
        let derived = self.derived;
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "{} column `{name}` clashes with the {} column `{name}` inherited from `{}`",
                    derived.as_str(),
                    inherited_kind.as_str(),
                    parent_name.object
                ),
            )
            .with_label("clashes with an inherited column")
            .with_related(
                inherited.file,
                inherited.span,
                format!("`{name}` in the parent"),
            )
            .with_help(clash_help(
                derived,
                *inherited_kind,
                name,
                like_options(ctx, found),
            ))
            .with_flink_message(flink_clash_message(name, *inherited_kind, derived, true));
        out.report(d.with_notes(&found.diff));
    }
}

//! A derived metadata column over an inherited column in a LIKE merge.

use super::{clash_help, flink_clash_message};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Kind, Found, Problem};

/// Reports a derived metadata column whose name the LIKE parent already has.
pub struct MetadataColumnClash;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &MetadataColumnClash;

impl Rule for MetadataColumnClash {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::LikeColumnClash { derived_kind: Kind::Metadata, .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::LikeColumnClash {
            span,
            name,
            derived_kind: Kind::Metadata,
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
                    "metadata column `{name}` clashes with the {} column `{name}` inherited from `{}`",
                    inherited_kind.as_str(),
                    parent_name.object
                ),
            )
            .with_label("clashes with an inherited column")
            .with_related(inherited.file, inherited.span, format!("`{name}` in the parent"))
            .with_help(clash_help(Kind::Metadata, *inherited_kind, name, crate::rules::like::like_options(ctx, found)))
            .with_flink_message(flink_clash_message(name, *inherited_kind, Kind::Metadata, true));
        out.report(d.with_notes(&found.diff));
    }
}

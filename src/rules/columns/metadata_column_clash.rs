//! CL004: a derived metadata column over an inherited column in a LIKE merge.

use super::{clash_help, flink_clash_message};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Kind, Problem};

/// Reports a derived metadata column whose name the LIKE parent already has.
pub struct MetadataColumnClash;

impl Rule for MetadataColumnClash {
    fn code(&self) -> &'static str {
        "CL004"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::LikeColumnClash {
                span,
                name,
                derived_kind: Kind::Metadata,
                inherited_kind,
                inherited,
                parent_name,
            } = &found.problem
            else {
                continue;
            };
            let d = report
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
            report.report(d.with_notes(&found.diff));
        }
    }
}

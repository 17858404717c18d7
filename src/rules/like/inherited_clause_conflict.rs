//! A derived clause while the LIKE parent's is included: one implementation for the three
//! rules that report it, one per clause (primary key, partitions, distribution). Flink's
//! `MergeTableLikeUtil` rejects each with its own message.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::catalog::Origin;
use crate::semantic::problems::{Found, Problem};
use crate::source::Span;
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports the derived clause that clashes with the inherited one, for the clause that the
/// like feature `feature` (CONSTRAINTS, PARTITIONS or DISTRIBUTION) includes.
pub(crate) struct InheritedClauseConflict {
    /// The like feature that includes the parent's clause.
    pub(crate) feature: FeatureOption,
}

/// The wording of one clause's conflict.
struct Wording {
    message: &'static str,
    related: &'static str,
    purpose: &'static str,
    flink: &'static str,
}

impl InheritedClauseConflict {
    /// The derived clause and the parent's, when `problem` is this rule's.
    fn conflict(&self, problem: &Problem) -> Option<(Span, Origin)> {
        match (self.feature, problem) {
            (FeatureOption::Constraints, Problem::PrimaryKeyConflict { span, parent })
            | (FeatureOption::Partitions, Problem::PartitionConflict { span, parent })
            | (FeatureOption::Distribution, Problem::DistributionConflict { span, parent }) => {
                Some((*span, *parent))
            }
            _ => None,
        }
    }

    fn wording(&self) -> Wording {
        match self.feature {
            FeatureOption::Constraints => Wording {
                message: "a primary key is inherited from the parent (CONSTRAINTS is INCLUDING)",
                related: "the parent's primary key",
                purpose: "to replace the parent's primary key",
                flink: "The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS.",
            },
            FeatureOption::Partitions => Wording {
                message: "partitions are inherited from the parent (PARTITIONS is INCLUDING)",
                related: "the parent's partitions",
                purpose: "to use this table's partitions",
                flink: "The base table already has partitions defined. You might want to specify EXCLUDING PARTITIONS.",
            },
            _ => Wording {
                message: "a distribution is inherited from the parent (DISTRIBUTION is INCLUDING)",
                related: "the parent's distribution",
                purpose: "to use this table's distribution",
                flink: "The base table already has a distribution defined. You might want to specify EXCLUDING DISTRIBUTION.",
            },
        }
    }
}

impl Rule for InheritedClauseConflict {
    fn consumes(&self, problem: &Problem) -> bool {
        self.conflict(problem).is_some()
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, parent)) = self.conflict(&found.problem) else {
            return;
        };
        let wording = self.wording();
        let how = super::strategy_help(
            super::like_options(ctx, found),
            self.feature,
            MergingStrategy::Excluding,
        );
        let d = out
            .diagnostic(found.file, span, wording.message)
            .with_related(parent.file, parent.span, wording.related)
            .with_help(format!("{how} {}", wording.purpose))
            .with_flink_message(wording.flink);
        out.report(d.with_notes(&found.diff));
    }
}

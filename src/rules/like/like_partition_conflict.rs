//! Derived partitions while the parent's are included (PARTITIONS is INCLUDING).

use super::inherited_clause_conflict::InheritedClauseConflict;
use crate::rules::Rule;
use crate::syntax::ast::FeatureOption;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InheritedClauseConflict {
    feature: FeatureOption::Partitions,
};

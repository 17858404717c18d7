//! A derived distribution while the parent's is included (DISTRIBUTION is INCLUDING).

use super::inherited_clause_conflict::InheritedClauseConflict;
use crate::rules::Rule;
use crate::syntax::ast::FeatureOption;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InheritedClauseConflict {
    feature: FeatureOption::Distribution,
};

//! A derived primary key while the parent's is included (CONSTRAINTS is INCLUDING).

use super::inherited_clause_conflict::InheritedClauseConflict;
use crate::rules::Rule;
use crate::syntax::ast::FeatureOption;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InheritedClauseConflict {
    feature: FeatureOption::Constraints,
};

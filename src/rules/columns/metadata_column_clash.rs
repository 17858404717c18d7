//! A derived metadata column named like an inherited column in a LIKE merge.

use super::inherited_column_clash::InheritedColumnClash;
use crate::rules::Rule;
use crate::semantic::problems::Kind;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InheritedColumnClash {
    derived: Kind::Metadata,
};

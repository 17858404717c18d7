//! Catalog rules (CT): what the session can see.

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_catalog.rs"));

use crate::semantic::names::QualifiedName;

/// " (did you mean `a`, `b`?)" for similar names, or "".
pub(crate) fn did_you_mean(similar: &[QualifiedName]) -> Option<String> {
    if similar.is_empty() {
        return None;
    }
    let names: Vec<String> = similar
        .iter()
        .map(|n| format!("`{}`", n.dotted()))
        .collect();
    Some(format!("did you mean {}?", names.join(" or ")))
}

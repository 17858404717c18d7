//! Catalog rules (CT): what the session can see.

pub mod table_already_exists;
pub mod unknown_table;

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

//! Query validation rules (QV), names and grouping: what Flink's validator rejects in a query
//! (unknown, ambiguous and misplaced names; columns not grouped; misplaced aggregates), found
//! by [`crate::semantic::validate`].

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_query.rs"));

// MATCH_RECOGNIZE as Flink's planner translates it to a CEP pattern.
mod cep;

/// A column name as it must be written in Flink SQL: plain when it is a regular identifier
/// and no reserved word, else in backticks.
pub(crate) fn written_name(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !crate::syntax::keywords::classify(name).is_reserved();
    if plain {
        name.to_string()
    } else {
        format!("`{}`", name.replace('`', "``"))
    }
}

/// "did you mean `a` or `b`?" for close names.
pub(crate) fn did_you_mean(similar: &[String]) -> Option<String> {
    if similar.is_empty() {
        return None;
    }
    let names: Vec<String> = similar.iter().map(|n| format!("`{n}`")).collect();
    Some(format!("did you mean {}?", names.join(" or ")))
}

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

/// What to do about a name that nothing the run reads creates (`what`: "it", "the parent"):
/// declare an external catalog's tables with `external-tables`, or create it first. Under
/// `catalog: session` it says that the script sees only its own objects.
pub(crate) fn not_created_help(ctx: &crate::rules::Context<'_>, what: &str) -> String {
    let external = format!(
        "if {what} lives in an external catalog or another repository, give flinklint its DDL: list the file under `external-tables` in .flinklint.yaml (or pass --external-tables FILE)"
    );
    match ctx.settings.catalog {
        crate::config::CatalogMode::Session => format!(
            "with `catalog: session` a script sees only what it creates and what the histories create (`catalog: auto` lets it see what other scripts create); {external}"
        ),
        _ => format!(
            "no script or history of the project creates {what} before this statement; {external}"
        ),
    }
}

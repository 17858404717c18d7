//! Column rules (CL): duplicates and clashes of column names.

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_columns.rs"));
mod inherited_column_clash;

use crate::semantic::problems::Kind;
use crate::syntax::ast::{FeatureOption, LikeOption, MergingStrategy};

/// Flink's message for a column named `name` of kind `second` meeting an existing column of
/// kind `first` in one column list or a LIKE merge (`MergeTableLikeUtil`). `inherited` says
/// whether the existing column comes from the LIKE parent.
pub(crate) fn flink_clash_message(
    name: &str,
    first: Kind,
    second: Kind,
    inherited: bool,
) -> String {
    match (first, second) {
        (Kind::Physical, Kind::Physical) if inherited => format!("A column named '{name}' already exists in the base table."),
        (Kind::Physical, Kind::Physical) => format!("A regular Column named '{name}' already exists in the table."),
        (_, Kind::Physical) => format!("A column named '{name}' already exists in the base table."),
        (Kind::Physical, Kind::Computed) => format!(
            "A column named '{name}' already exists in the table. Duplicate columns exist in the compute column and regular column."
        ),
        (Kind::Physical, Kind::Metadata) => format!(
            "A column named '{name}' already exists in the table. Duplicate columns exist in the metadata column and regular column."
        ),
        (Kind::Metadata, Kind::Computed) => format!(
            "A column named '{name}' already exists in the base table. Computed columns can only overwrite other computed columns."
        ),
        (Kind::Computed, Kind::Metadata) => format!(
            "A column named '{name}' already exists in the base table. Metadata columns can only overwrite other metadata columns."
        ),
        (Kind::Computed, Kind::Computed) => format!(
            "A generated column named '{name}' already exists in the base table. You might want to specify EXCLUDING GENERATED or OVERWRITING GENERATED."
        ),
        (Kind::Metadata, Kind::Metadata) => format!(
            "A metadata column named '{name}' already exists in the base table. You might want to specify EXCLUDING METADATA or OVERWRITING METADATA."
        ),
    }
}

/// What resolves a derived column clashing with an inherited one, naming the like options
/// (replacing an explicit option for the feature rather than adding a second one).
pub(crate) fn clash_help(
    derived: Kind,
    inherited: Kind,
    name: &str,
    options: &[LikeOption],
) -> String {
    use crate::rules::like::strategy_help;
    match (derived, inherited) {
        (Kind::Computed, Kind::Computed) => format!(
            "{} to replace the parent's `{name}` in place (or EXCLUDING GENERATED to drop the parent's computed columns)",
            strategy_help(options, FeatureOption::Generated, MergingStrategy::Overwriting)
        ),
        (Kind::Metadata, Kind::Metadata) => format!(
            "{} to replace the parent's `{name}` in place (or EXCLUDING METADATA to drop the parent's metadata columns)",
            strategy_help(options, FeatureOption::Metadata, MergingStrategy::Overwriting)
        ),
        (_, Kind::Physical) => format!("rename the column: a LIKE never redefines an inherited physical column such as `{name}`"),
        (_, Kind::Computed) => format!("rename the column, or add EXCLUDING GENERATED to drop the parent's computed `{name}`"),
        (_, Kind::Metadata) => format!("rename the column, or add EXCLUDING METADATA to drop the parent's metadata column `{name}`"),
    }
}

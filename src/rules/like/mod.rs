//! LIKE rules (LK): `CREATE TABLE ... LIKE` as Flink 2.3 merges it (FLIP-110; flink-spec §3).
//! Every rule reports from the one merge function, [`crate::semantic::table::build_table`].

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_like.rs"));
mod inherited_clause_conflict;

use crate::rules::Context;
use crate::semantic::problems::Found;
use crate::syntax::ast::{FeatureOption, LikeOption, MergingStrategy, StatementKind};

/// The like options of the statement a problem was found in.
pub(crate) fn like_options<'a>(ctx: &'a Context<'_>, found: &Found) -> &'a [LikeOption] {
    ctx.file(found.file)
        .parsed
        .script
        .all_statements()
        .into_iter()
        .find(|s| s.span == found.statement)
        .and_then(|s| match &s.kind {
            StatementKind::CreateTable(ct) => ct.like.as_ref().map(|l| l.options.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
}

/// How to set `feature` to `wanted`: replace an explicit option for the feature, or add one
/// (an explicit feature option overrides `ALL` whatever the order).
pub(crate) fn strategy_help(
    options: &[LikeOption],
    feature: FeatureOption,
    wanted: MergingStrategy,
) -> String {
    let f = feature.as_str();
    match options.iter().find(|o| o.feature == feature) {
        Some(o) => format!(
            "replace `{} {f}` with `{} {f}`",
            o.strategy.as_str(),
            wanted.as_str()
        ),
        None => format!("add `{} {f}` to the like options", wanted.as_str()),
    }
}

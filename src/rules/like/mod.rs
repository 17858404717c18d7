//! LIKE rules (LK): `CREATE TABLE ... LIKE` as Flink 2.3 merges it (FLIP-110; flink-spec §3).
//! Every rule reports from the one merge function, [`crate::semantic::table::build_table`].

pub mod distribution_conflict;
pub mod duplicate_like_option;
pub mod illegal_merging_strategy;
pub mod ineffective_excluding;
pub mod inherited_not_resolvable;
pub mod like_overrides_option;
pub mod option_key_conflict;
pub mod partition_conflict;
pub mod primary_key_conflict;
pub mod source_is_view;
pub mod source_not_found;
pub mod watermark_conflict;

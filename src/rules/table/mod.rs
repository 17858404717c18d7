//! Table rules (TB): checks Flink applies to every table definition (flink-spec §2.1 and
//! §3.5 step I): constraints, watermark, partition keys.

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_table.rs"));

//! Table rules (TB): checks Flink applies to every table definition (flink-spec §2.1 and
//! §3.5 step I): constraints, watermark, partition keys.

pub mod duplicate_constraint;
pub mod invalid_partition_column;
pub mod invalid_watermark_column;
pub mod primary_key_enforced;
pub mod primary_key_on_non_physical_column;
pub mod unique_constraint_unsupported;

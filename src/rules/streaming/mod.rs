//! Streaming rules (ST): what Flink's planner rejects in a pipeline's plan, found on the
//! logical plan flinklint builds (`semantic::plan`): changelog modes against sinks, time
//! attributes of window table functions.

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_streaming.rs"));

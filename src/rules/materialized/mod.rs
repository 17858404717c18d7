//! Materialized-table rules (MT): START_MODE, evolution, freshness, ALTER forms
//! (FLIP-435, FLIP-492, FLIP-546, FLIP-550, FLIP-557).

pub mod invalid_freshness;
pub mod invalid_start_mode;
mod literals;
pub mod relative_start_mode;
pub mod resume_mode_on_plain_create;
pub mod unsupported_alter_form;

//! Materialized-table rules (MT): START_MODE, evolution, freshness, ALTER forms
//! (FLIP-435, FLIP-492, FLIP-546, FLIP-550, FLIP-557).

pub mod unsupported_alter_form;

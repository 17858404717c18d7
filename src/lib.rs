//! flinklint: a fast linter and migration checker for repositories of Apache Flink SQL.
//!
//! The pipeline, stage by stage (each stage uses only the ones before it):
//!
//! ```text
//! discover -> source -> syntax (lex -> parse -> typed AST) -> semantic (catalog, LIKE merge)
//!   -> rules -> diagnostics -> render -> fix
//! ```
#![warn(missing_docs)]

pub mod source;
pub mod syntax;

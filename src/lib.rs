//! flinklint: a fast linter and migration checker for repositories of Apache Flink SQL.
//!
//! The stages, from the bottom up; each module uses only the ones below it (a test,
//! `tests/layers.rs`, fails on an import that points up):
//!
//! ```text
//! registry            rule metadata, severities (generated from rules/*.yaml)
//! source              texts, spans, line index, the SQL blocks of documents
//! syntax              lexer -> parser -> typed AST
//! dialect             which statements are Flink SQL (and which are MySQL, Hive, templates, ...)
//! files               the files of a run, read and parsed
//! config              settings (.flinklint.yaml, overrides)
//! semantic            catalog sessions, histories, LIKE merges: problems in Flink's terms
//! diagnostics         findings as data
//! rules               one module per rule: problems and syntax trees -> findings
//! project             the library's entry: a project in memory, the pipeline, lookups
//! fix                 the fix loop, atomic writes
//! baseline, render    recorded findings, output formats
//! docs                rule documentation
//! discover            the command line's I/O: which files a run reads, and reading them
//! server              the language server (LSP over stdio): projects per configuration root
//! ```
//!
//! The command line (`src/cli/`: arguments, output, exit codes) is the binary's, on top of
//! all of them.
//!
//! [`project::Project`] holds a project in memory and checks it; [`check`] reads a list of
//! inputs from disk and runs the whole pipeline.

// Safe Rust only (the binary's allocator, src/alloc.rs, is outside the library).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod baseline;
pub mod config;
pub mod diagnostics;
pub mod dialect;
pub mod discover;
pub mod docs;
pub mod files;
pub mod fix;
pub mod project;
pub mod registry;
pub mod render;
pub mod rules;
pub mod semantic;
pub mod server;
pub mod source;
pub mod syntax;

pub use discover::read::{check, check_with_bases, check_with_context, BaseVersion};
pub use project::{check_loaded, check_texts, Loaded, Outcome, Project, STACK_SIZE};

//! Rules: one module per rule, grouped by family; the registry is generated.
//!
//! A rule reads the typed AST and the semantic model through a read-only [`Context`] and
//! reports [`Diagnostic`](crate::diagnostics::Diagnostic)s through a [`Reporter`]. It consumes
//! the semantic problems it reports ([`Rule::consumes`], one finding each, in one shared pass
//! over the model) and may check the whole run ([`Rule::check`]). Each rule's code, name,
//! default severity, fix availability and docs live in `rules/<CODE>.yaml` ([`meta`]); its
//! module is `src/rules/<family>/<name>.rs`, named after the YAML's `name`, and exports
//! `pub(crate) const RULE: &dyn Rule`. `build.rs` declares the modules and generates
//! [`RULES`]; a rule without a module fails the build, and a test fails when a rule has no
//! fixtures. Adding a rule is described in `CONTRIBUTING.md`.
//!
//! - `registry`: the [`Rule`] trait and [`RULES`];
//! - `context`: what rules read ([`Context`]);
//! - `reporter`: how they report ([`Reporter`]);
//! - `runner`: running them ([`run`], [`run_early`], [`run_after`]).

pub mod catalog;
pub mod columns;
pub mod functions;
pub mod insert;
pub mod like;
pub mod materialized;
pub mod options;
pub mod query;
pub mod streaming;
pub mod suppression;
pub mod syntax;
pub mod table;

mod context;
mod registry;
mod reporter;
mod runner;

pub use context::Context;
pub use registry::{consumer, RegisteredRule, Rule, RULES};
pub use reporter::Reporter;
pub use runner::{run, run_after, run_early, Early};

pub use crate::registry as meta;
pub use crate::registry::{FixAvailability, RuleExample, RuleMeta};

pub use crate::files::FileEntry;

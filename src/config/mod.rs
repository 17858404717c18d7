//! Configuration: the settings a run uses (target, severities, failure threshold, ...).
//!
//! CLI flags and, later, `.flinklint.yaml` resolve into one [`Settings`] value; every later
//! stage reads settings from here. All YAML handling lives in [`yaml`] so the YAML library can
//! be swapped in one place.

mod target;
pub mod yaml;

pub use target::Target;

use crate::diagnostics::Severity;

/// The severity threshold at which a run fails (exit code 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FailOn {
    /// Fail on errors only.
    Error,
    /// Fail on warnings and errors (the default).
    #[default]
    Warning,
    /// Fail on any finding.
    Info,
    /// Never fail because of findings.
    Never,
}

impl FailOn {
    /// Parses `error | warning | info | never`.
    pub fn parse(s: &str) -> Option<FailOn> {
        Some(match s {
            "error" => FailOn::Error,
            "warning" => FailOn::Warning,
            "info" => FailOn::Info,
            "never" => FailOn::Never,
            _ => return None,
        })
    }
    /// Whether a finding of `severity` fails the run.
    pub fn fails(self, severity: Severity) -> bool {
        match self {
            FailOn::Error => severity >= Severity::Error,
            FailOn::Warning => severity >= Severity::Warning,
            FailOn::Info => true,
            FailOn::Never => false,
        }
    }
}

/// Resolved settings of one run.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The Flink version or platform checked for.
    pub target: Target,
    /// When the run fails.
    pub fail_on: FailOn,
    /// Folders applied as histories (migrations) beside the ones detected by file names.
    pub histories: Vec<std::path::PathBuf>,
    /// The cluster's `materialized-table.default-start-mode` (config `default-start-mode`);
    /// `None`: Flink's default, FROM_BEGINNING.
    pub default_start_mode: Option<crate::syntax::ast::StartModeKind>,
    /// The start mode MT001 / MT002 fixes write (config `start-mode-fix`); `None`:
    /// FROM_BEGINNING, which keeps today's behaviour and makes it explicit.
    pub start_mode_fix: Option<crate::syntax::ast::StartModeKind>,
}

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
    /// The project's own system columns (config `system-columns`): `(name, SQL type)` pairs
    /// every table has besides its declared columns, read-only and hidden from `SELECT *`. The
    /// target's own (Confluent's `$rowtime`) come on top: see [`Settings::effective_system_columns`].
    pub system_columns: Vec<(String, String)>,
    /// The project's reserved system-column prefix (config `system-column-prefix`): a
    /// `METADATA VIRTUAL` column without `FROM` whose name starts with it is a system column
    /// (FLIP-348 draft). `None`: the target's ([`Settings::effective_system_prefix`]).
    pub system_column_prefix: Option<String>,
}

/// The system column Confluent Cloud adds to every table: the record timestamp, read-only and
/// hidden from `SELECT *` (Confluent Cloud docs, "Flink SQL: system columns" / `$rowtime`).
pub const CONFLUENT_ROWTIME: (&str, &str) = ("$rowtime", "TIMESTAMP_LTZ(3)");

impl Settings {
    /// The system columns every table has on this target: Confluent's `$rowtime` on
    /// `confluent`, then the project's (a project column of the same name replaces the
    /// target's). Apache Flink targets reserve nothing.
    pub fn effective_system_columns(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        if self.target == Target::Confluent {
            out.push((CONFLUENT_ROWTIME.0.into(), CONFLUENT_ROWTIME.1.into()));
        }
        for (name, ty) in &self.system_columns {
            out.retain(|(n, _)| n != name);
            out.push((name.clone(), ty.clone()));
        }
        out
    }
    /// The reserved system-column prefix on this target: the project's, else `$` on
    /// `flink-next` (the seed FLIP-348 draft); Apache Flink and Confluent reserve no prefix.
    pub fn effective_system_prefix(&self) -> Option<String> {
        self.system_column_prefix
            .clone()
            .filter(|p| !p.is_empty())
            .or_else(|| (self.target == Target::FlinkNext).then(|| "$".to_string()))
    }
}

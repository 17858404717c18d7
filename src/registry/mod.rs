//! The rule registry, the bottom of the stack: what every stage may know of rules without
//! depending on them. Severities, fix availability and each rule's metadata (code, name,
//! severity, docs and examples), generated at build time from `rules/<CODE>.yaml`.

use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Flink accepts it but it silently does what users rarely intend.
    Warning,
    /// Flink (at the chosen target) rejects it.
    Error,
}

impl Severity {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
    /// Parses `error`, `warning` or `info`.
    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "info" => Some(Severity::Info),
            _ => None,
        }
    }
}

/// Whether a rule offers fixes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixAvailability {
    /// No fix.
    None,
    /// Always a safe fix.
    Safe,
    /// Always an unsafe fix (applied with `--unsafe-fixes`).
    Unsafe,
    /// A fix for some cases.
    Sometimes,
}

impl FixAvailability {
    /// Lower-case name as in the YAML.
    pub fn as_str(self) -> &'static str {
        match self {
            FixAvailability::None => "none",
            FixAvailability::Safe => "safe",
            FixAvailability::Unsafe => "unsafe",
            FixAvailability::Sometimes => "sometimes",
        }
    }
}

/// One example of a rule: a script that triggers exactly this rule, and its correction that
/// triggers nothing. Both run as tests.
#[derive(Debug, Clone, Copy)]
pub struct RuleExample {
    /// Short name of the case.
    pub name: &'static str,
    /// The target it applies to (`None`: the default target).
    pub target: Option<&'static str>,
    /// Whether the example is a migration of a history (the file's folder is configured as
    /// one) rather than a script.
    pub history: bool,
    /// SQL that triggers the rule.
    pub bad: &'static str,
    /// The corrected SQL.
    pub good: &'static str,
}

/// What users read about a rule (`flinklint rule CODE`, `docs/rules/`).
#[derive(Debug, Clone, Copy)]
pub struct RuleMeta {
    /// Stable code, e.g. `LK005`.
    pub code: &'static str,
    /// Kebab-case name, e.g. `like-option-key-conflict`.
    pub name: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// Severities of documented sub-cases.
    pub other_severities: &'static [Severity],
    /// Whether fixes are offered.
    pub fix: FixAvailability,
    /// flinklint version that introduced the rule.
    pub since: &'static str,
    /// The Flink source, FLIP or documentation the rule follows.
    pub source: &'static str,
    /// "What it does".
    pub what: &'static str,
    /// "Why it matters".
    pub why: &'static str,
    /// Examples (bad and good), executed as tests.
    pub examples: &'static [RuleExample],
}

include!(concat!(env!("OUT_DIR"), "/rules_meta.rs"));

/// The metadata of the rule with this code or name.
pub fn lookup(code_or_name: &str) -> Option<&'static RuleMeta> {
    RULE_DOCS
        .iter()
        .find(|m| m.code.eq_ignore_ascii_case(code_or_name) || m.name == code_or_name)
}

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
    /// The deployment model it runs in (config `catalog`; `None`: the default, `auto`).
    pub catalog: Option<&'static str>,
    /// SQL that triggers the rule.
    pub bad: &'static str,
    /// The corrected SQL.
    pub good: &'static str,
}

impl RuleExample {
    /// The files of an example's SQL (`bad` or `good`): a line `-- file: PATH` starts a file
    /// of that path; the text before the first such line (all of it, without one) is the file
    /// `default`.
    pub fn files(sql: &'static str, default: &str) -> Vec<(String, &'static str)> {
        let mut out: Vec<(String, &'static str)> = Vec::new();
        let mut path = default.to_string();
        let mut start = 0;
        let mut at = 0;
        for line in sql.split_inclusive('\n') {
            if let Some(next) = line.trim_end().strip_prefix("-- file: ") {
                if !sql[start..at].trim().is_empty() {
                    out.push((path, &sql[start..at]));
                }
                path = next.trim().to_string();
                start = at + line.len();
            }
            at += line.len();
        }
        if !sql[start..].trim().is_empty() || out.is_empty() {
            out.push((path, &sql[start..]));
        }
        out
    }
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

/// The rule with this code or name (any case, surrounding blanks ignored): the one look-up of
/// the command line (`flinklint rule`), the configuration (`rules:`, `--select`, `--ignore`)
/// and suppression comments.
pub fn find(query: &str) -> Option<&'static RuleMeta> {
    let query = query.trim();
    RULE_DOCS
        .iter()
        .find(|m| m.code.eq_ignore_ascii_case(query) || m.name.eq_ignore_ascii_case(query))
}

/// The code or name to suggest for the unknown rule `query`, as written: the name when the
/// name is what it resembles, else the code (see [`closest`]).
pub fn suggestion(query: &str) -> Option<&'static str> {
    closest(query).map(|(meta, by_name)| if by_name { meta.name } else { meta.code })
}

/// The code or name closest to `query` (by edit distance, ignoring case), when it is close
/// enough to be a likely typo: `(rule, matched its name)`. Ties go to the first rule in code
/// order. The one did-you-mean for rules, wherever a rule is named.
pub fn closest(query: &str) -> Option<(&'static RuleMeta, bool)> {
    let query = query.trim().to_ascii_lowercase();
    let mut best: Option<(usize, &'static RuleMeta, bool)> = None;
    for meta in RULE_DOCS {
        for (candidate, by_name) in [(meta.code, false), (meta.name, true)] {
            let candidate = candidate.to_ascii_lowercase();
            let mut distance = strsim::levenshtein(&query, &candidate);
            // A prefix of a name (`syntax` for `syntax-error`) is as good as a small typo.
            if by_name && query.len() >= 4 && candidate.starts_with(&query) {
                distance = distance.min(1);
            }
            let limit = (query.chars().count().max(candidate.chars().count()) / 2).max(2);
            if distance <= limit && best.is_none_or(|(d, _, _)| distance < d) {
                best = Some((distance, meta, by_name));
            }
        }
    }
    best.map(|(_, meta, by_name)| (meta, by_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_by_code_and_name_in_any_case() {
        let meta = &RULE_DOCS[0];
        assert_eq!(
            find(&meta.code.to_ascii_lowercase()).map(|m| m.code),
            Some(meta.code)
        );
        assert_eq!(
            find(&meta.name.to_ascii_uppercase()).map(|m| m.code),
            Some(meta.code)
        );
    }

    #[test]
    fn suggests_close_codes_and_names() {
        let meta = &RULE_DOCS[0];
        let typo = format!("{}x", meta.name);
        assert_eq!(
            closest(&typo).map(|(m, by_name)| (m.code, by_name)),
            Some((meta.code, true))
        );
        assert!(closest("completely-unrelated-words-here").is_none());
        assert_eq!(strsim::levenshtein("kitten", "sitting"), 3);
    }
}

//! How a rule reports: a [`Reporter`] makes diagnostics at the rule's severities and collects
//! them, and holds the rule to what its YAML declares (sub-case severities, fix availability).

use crate::diagnostics::{Applicability, Diagnostic, Severity};
use crate::registry::{FixAvailability, RuleMeta};
use crate::source::{FileId, Span};
use std::collections::HashSet;

/// Collects one rule's diagnostics at the rule's own severities; the runner then applies the
/// configured level of each file (`rules:` and `overrides`, `--select`, `--ignore`), which
/// replaces the default and sub-case severities or drops the finding (`off`).
pub struct Reporter<'a> {
    meta: &'static RuleMeta,
    out: &'a mut Vec<Diagnostic>,
    /// Where each rule of the run reported with [`Reporter::first_at`].
    reported_at: &'a mut HashSet<(&'static str, FileId, Span)>,
}

impl<'a> Reporter<'a> {
    /// A reporter for the rule `meta` that appends to `out`; `reported_at` is shared by the
    /// reporters of one run.
    pub(super) fn new(
        meta: &'static RuleMeta,
        out: &'a mut Vec<Diagnostic>,
        reported_at: &'a mut HashSet<(&'static str, FileId, Span)>,
    ) -> Reporter<'a> {
        Reporter {
            meta,
            out,
            reported_at,
        }
    }
    /// The rule's metadata (from `rules/<CODE>.yaml`).
    pub fn meta(&self) -> &'static RuleMeta {
        self.meta
    }
    /// A diagnostic at the rule's default severity.
    pub fn diagnostic(&self, file: FileId, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.meta, self.meta.severity, file, span, message)
    }
    /// A diagnostic of a documented sub-case with another severity.
    ///
    /// # Panics
    ///
    /// When `severity` is neither the rule's default nor one of the `other_severities` its
    /// YAML declares.
    pub fn diagnostic_with(
        &self,
        severity: Severity,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        assert!(
            severity == self.meta.severity || self.meta.other_severities.contains(&severity),
            "rule {} reports a finding of severity {} but rules/{}.yaml declares `severity: {}` and `other_severities: {:?}`",
            self.meta.code,
            severity.as_str(),
            self.meta.code,
            self.meta.severity.as_str(),
            self.meta.other_severities.iter().map(|s| s.as_str()).collect::<Vec<_>>()
        );
        Diagnostic::new(self.meta, severity, file, span, message)
    }
    /// Whether the rule reports at `span` for the first time in this run: for a problem the
    /// semantic stage finds once per version of a table, which is reported once.
    pub fn first_at(&mut self, file: FileId, span: Span) -> bool {
        self.reported_at.insert((self.meta.code, file, span))
    }
    /// Reports a diagnostic.
    ///
    /// # Panics
    ///
    /// When the diagnostic carries a fix that the rule's YAML does not declare (`fix: none`,
    /// or an unsafe fix under `fix: safe`; see `fix_allowed`): the YAML is what
    /// `flinklint rule` and the docs promise, so a rule that breaks it is a bug. It fails
    /// loudly in every build (tests run in release mode), so the rule's fixtures show it.
    pub fn report(&mut self, diagnostic: Diagnostic) {
        if let Some(fix) = &diagnostic.fix {
            if !fix_allowed(self.meta.fix, fix.applicability) {
                panic!(
                    "rule {} offers a{} fix ({:?}) but rules/{}.yaml declares `fix: {}`",
                    self.meta.code,
                    if fix.applicability == Applicability::Unsafe {
                        "n unsafe"
                    } else {
                        " safe"
                    },
                    fix.title,
                    self.meta.code,
                    self.meta.fix.as_str()
                );
            }
        }
        self.out.push(diagnostic);
    }
}

/// Whether a rule whose YAML declares `declared` may offer a fix of `applicability`: none
/// under `none`, safe ones under `safe`, any under `unsafe` (a rule that rewrites unsafely on
/// some targets may be exact on others) and `sometimes`.
pub fn fix_allowed(declared: FixAvailability, applicability: Applicability) -> bool {
    match declared {
        FixAvailability::None => false,
        FixAvailability::Safe => applicability == Applicability::Safe,
        FixAvailability::Unsafe | FixAvailability::Sometimes => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{Edit, Fix};

    fn fix(applicability: Applicability) -> Fix {
        Fix {
            title: "a fix".to_string(),
            applicability,
            edits: vec![Edit {
                file: FileId(0),
                span: Span::empty(0),
                replacement: String::new(),
            }],
        }
    }

    fn report_with_fix(code: &str, applicability: Applicability) -> usize {
        let meta = crate::registry::lookup(code).expect("a rule");
        let mut out = Vec::new();
        let mut reported_at = HashSet::new();
        let mut reporter = Reporter::new(meta, &mut out, &mut reported_at);
        let d = reporter
            .diagnostic(FileId(0), Span::empty(0), "a finding")
            .with_fix(fix(applicability));
        reporter.report(d);
        out.len()
    }

    #[test]
    fn fix_availability_is_what_the_yaml_declares() {
        use Applicability::{Safe, Unsafe};
        assert!(!fix_allowed(FixAvailability::None, Safe));
        assert!(fix_allowed(FixAvailability::Safe, Safe));
        assert!(!fix_allowed(FixAvailability::Safe, Unsafe));
        assert!(fix_allowed(FixAvailability::Unsafe, Unsafe));
        assert!(fix_allowed(FixAvailability::Sometimes, Unsafe));
        // TB001 declares `fix: safe`.
        assert_eq!(report_with_fix("TB001", Safe), 1);
    }

    #[test]
    #[should_panic(expected = "declares `fix: none`")]
    fn a_fix_the_yaml_does_not_declare_panics() {
        // CL001 declares `fix: none`.
        report_with_fix("CL001", Applicability::Safe);
    }

    #[test]
    #[should_panic(expected = "declares `fix: safe`")]
    fn an_unsafe_fix_of_a_safe_rule_panics() {
        report_with_fix("TB001", Applicability::Unsafe);
    }
}

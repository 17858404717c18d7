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
    /// A diagnostic of a documented sub-case with another severity. A severity the rule's YAML
    /// does not declare (neither `severity` nor `other_severities`) is a bug of the rule: the
    /// diagnostic keeps the declared default and says so in a note (see [`Reporter::report`]).
    pub fn diagnostic_with(
        &self,
        severity: Severity,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        if severity == self.meta.severity || self.meta.other_severities.contains(&severity) {
            return Diagnostic::new(self.meta, severity, file, span, message);
        }
        let note = format!(
            "internal error: rule {} reports this at severity {}, which rules/{}.yaml does not declare; please report it",
            self.meta.code,
            severity.as_str(),
            self.meta.code
        );
        Diagnostic::new(self.meta, self.meta.severity, file, span, message).with_notes(&[note])
    }
    /// Whether the rule reports at `span` for the first time in this run: for a problem the
    /// semantic stage finds once per version of a table, which is reported once.
    pub fn first_at(&mut self, file: FileId, span: Span) -> bool {
        self.reported_at.insert((self.meta.code, file, span))
    }
    /// Reports a diagnostic, its texts made safe to print ([`Diagnostic::escape_texts`]).
    ///
    /// A fix that the rule's YAML does not declare (`fix: none`, or an unsafe fix under
    /// `fix: safe`; see [`fix_allowed`]) is a bug of the rule: the YAML is what
    /// `flinklint rule` and the docs promise. The fix is dropped and a note says so: the run
    /// goes on (a user never sees a crash), and the rule's fixture snapshots, which show every
    /// fix and note, fail.
    pub fn report(&mut self, mut diagnostic: Diagnostic) {
        if let Some(fix) = &diagnostic.fix {
            if !fix_allowed(self.meta.fix, fix.applicability) {
                let note = format!(
                    "internal error: rule {} offers a{} fix ({:?}) but rules/{}.yaml declares `fix: {}`; the fix is not offered; please report it",
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
                diagnostic.fix = None;
                diagnostic.notes.push(note);
            }
        }
        diagnostic.escape_texts();
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

    fn report_with_fix(code: &str, applicability: Applicability) -> Diagnostic {
        let meta = crate::registry::find(code).expect("a rule");
        let mut out = Vec::new();
        let mut reported_at = HashSet::new();
        let mut reporter = Reporter::new(meta, &mut out, &mut reported_at);
        let d = reporter
            .diagnostic(FileId(0), Span::empty(0), "a finding")
            .with_fix(fix(applicability));
        reporter.report(d);
        out.pop().expect("the finding is reported")
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
        let d = report_with_fix("TB001", Safe);
        assert!(d.fix.is_some() && d.notes.is_empty());
    }

    #[test]
    fn a_fix_the_yaml_does_not_declare_is_dropped_with_a_note() {
        // CL001 declares `fix: none`.
        let d = report_with_fix("CL001", Applicability::Safe);
        assert!(d.fix.is_none());
        assert!(d.notes[0].contains("declares `fix: none`"), "{:?}", d.notes);
        // TB001 declares `fix: safe`.
        let d = report_with_fix("TB001", Applicability::Unsafe);
        assert!(d.fix.is_none());
        assert!(d.notes[0].contains("declares `fix: safe`"), "{:?}", d.notes);
    }

    #[test]
    fn a_severity_the_yaml_does_not_declare_keeps_the_default_with_a_note() {
        // TB001 declares only `severity: error`.
        let meta = crate::registry::find("TB001").expect("a rule");
        let (mut out, mut reported_at) = (Vec::new(), HashSet::new());
        let reporter = Reporter::new(meta, &mut out, &mut reported_at);
        let d = reporter.diagnostic_with(Severity::Info, FileId(0), Span::empty(0), "x");
        assert_eq!(d.severity, Severity::Error);
        assert!(d.notes[0].contains("does not declare"), "{:?}", d.notes);
    }
}

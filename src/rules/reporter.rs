//! How a rule reports: a [`Reporter`] makes diagnostics at the rule's severities and collects
//! them.

use crate::diagnostics::{Diagnostic, Severity};
use crate::registry::RuleMeta;
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
    pub fn diagnostic_with(
        &self,
        severity: Severity,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        debug_assert!(
            severity == self.meta.severity || self.meta.other_severities.contains(&severity)
        );
        Diagnostic::new(self.meta, severity, file, span, message)
    }
    /// Whether the rule reports at `span` for the first time in this run: for a problem the
    /// semantic stage finds once per version of a table, which is reported once.
    pub fn first_at(&mut self, file: FileId, span: Span) -> bool {
        self.reported_at.insert((self.meta.code, file, span))
    }
    /// Reports a diagnostic.
    pub fn report(&mut self, diagnostic: Diagnostic) {
        self.out.push(diagnostic);
    }
}

//! Diagnostics: what rules report, as data. Renderers read these and nothing else.
//!
//! A [`Diagnostic`] points at a byte [`Span`] in one file (a [`FileId`] into the run's file
//! list); line and column are computed only when rendering. Severity has one meaning
//! everywhere: `error` = Flink at the chosen target rejects the statement; `warning` = Flink
//! accepts it but it silently does what users rarely intend; `info` = worth knowing.

use crate::registry::RuleMeta;
pub use crate::registry::Severity;
use crate::source::{FileId, Span};
use serde::Serialize;

/// Whether a fix may be applied without review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps the statement's meaning; applied by `--fix`.
    Safe,
    /// Changes the statement's form or meaning; applied by `--unsafe-fixes`, after review.
    Unsafe,
}

/// One text replacement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    /// The file to edit.
    pub file: FileId,
    /// The bytes to replace (empty for an insertion).
    pub span: Span,
    /// The new text.
    pub replacement: String,
}

/// A fix: edits that resolve the finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// What the fix does, e.g. "Quote `timestamp` in backticks".
    pub title: String,
    /// Safe or unsafe.
    pub applicability: Applicability,
    /// Non-overlapping edits.
    pub edits: Vec<Edit>,
}

/// A secondary location: what the finding clashes with, possibly in another file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    /// The file.
    pub file: FileId,
    /// Where.
    pub span: Span,
    /// What is there, e.g. "`name` is first defined here".
    pub message: String,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Rule code, e.g. `SY001`.
    pub code: &'static str,
    /// Rule name, e.g. `syntax-error`.
    pub name: &'static str,
    /// Severity after configuration.
    pub severity: Severity,
    /// The file.
    pub file: FileId,
    /// The offending clause.
    pub span: Span,
    /// What is wrong, naming the elements involved.
    pub message: String,
    /// Text of the primary label, if other than the message.
    pub label: Option<String>,
    /// What to do.
    pub help: Option<String>,
    /// What Flink itself prints for this problem, verbatim.
    pub flink_message: Option<String>,
    /// Secondary locations.
    pub related: Vec<Related>,
    /// A fix, if one is known.
    pub fix: Option<Fix>,
    /// Extra lines shown after the report (e.g. a few lines of an expanded-definition diff).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic with the rule's code, name and severity, and nothing optional set.
    pub fn new(
        rule: &RuleMeta,
        severity: Severity,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            code: rule.code,
            name: rule.name,
            severity,
            file,
            span,
            message: message.into(),
            label: None,
            help: None,
            flink_message: None,
            related: Vec::new(),
            fix: None,
            notes: Vec::new(),
        }
    }
    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    /// Sets Flink's own message.
    pub fn with_flink_message(mut self, message: impl Into<String>) -> Diagnostic {
        self.flink_message = Some(message.into());
        self
    }
    /// Sets the primary label.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }
    /// Adds a related location.
    pub fn with_related(
        mut self,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.related.push(Related {
            file,
            span,
            message: message.into(),
        });
        self
    }
    /// Sets the fix.
    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fix = Some(fix);
        self
    }
    /// Adds note lines.
    pub fn with_notes(mut self, notes: &[String]) -> Diagnostic {
        self.notes.extend(notes.iter().cloned());
        self
    }
    /// Adds a note line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    /// Escapes the characters a terminal would act on in every text of the finding (see
    /// [`crate::source::escape`]): the message, label, help, related labels and fix title stay
    /// one line each; Flink's message and the notes keep their line breaks. Rules quote the
    /// input (string literals, names, comments), which may hold any character; every finding
    /// a rule reports passes through this.
    pub fn escape_texts(&mut self) {
        use crate::source::escape;
        fn apply(s: &mut String, f: fn(&str) -> std::borrow::Cow<'_, str>) {
            if let std::borrow::Cow::Owned(escaped) = f(s) {
                *s = escaped;
            }
        }
        apply(&mut self.message, escape::text);
        for s in self.label.iter_mut().chain(self.help.iter_mut()) {
            apply(s, escape::text);
        }
        for r in &mut self.related {
            apply(&mut r.message, escape::text);
        }
        if let Some(fix) = &mut self.fix {
            apply(&mut fix.title, escape::text);
        }
        for s in self.flink_message.iter_mut().chain(self.notes.iter_mut()) {
            apply(s, escape::lines);
        }
    }
}

/// 64-bit FNV-1a (Fowler–Noll–Vo, <http://www.isthe.com/chongo/tech/comp/fnv/>): a fixed,
/// platform-independent hash, so fingerprints are identical across runs and machines.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Sorts diagnostics deterministically: by file, then position, then code.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    sort_ranked(diagnostics, &[]);
}

/// Sorts diagnostics deterministically: by the rank of their file (`ranks[id]`, the order in
/// which files are reported; files without a rank come last, by id), then position, then
/// code and message.
pub fn sort_ranked(diagnostics: &mut [Diagnostic], ranks: &[u32]) {
    let rank = |d: &Diagnostic| ranks.get(d.file.0 as usize).copied().unwrap_or(u32::MAX);
    diagnostics.sort_by(|a, b| {
        (
            rank(a),
            a.file,
            a.span.start,
            a.span.end,
            a.code,
            &a.message,
        )
            .cmp(&(
                rank(b),
                b.file,
                b.span.start,
                b.span.end,
                b.code,
                &b.message,
            ))
    });
}

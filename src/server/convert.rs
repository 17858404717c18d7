//! Findings as LSP diagnostics: ranges in UTF-16, severities as configured, the rule's code
//! with a link to its documentation, related locations in other files.

use super::text;
use crate::diagnostics::{Diagnostic, Severity};
use crate::project::Outcome;
use lsp_types as lsp;
use std::path::PathBuf;
use std::str::FromStr;

/// Where the documentation of rule `code` is: `template` with `{code}` replaced, else a
/// Markdown file written (once per version) from the rule's metadata into the temporary folder.
pub fn docs_uri(code: &str, template: Option<&str>) -> Option<lsp::Uri> {
    if let Some(t) = template {
        return lsp::Uri::from_str(&t.replace("{code}", code)).ok();
    }
    let meta = crate::registry::find(code)?;
    let dir = std::env::temp_dir().join(format!("flinklint-{}-rules", env!("CARGO_PKG_VERSION")));
    let path = dir.join(format!("{}.md", meta.code));
    if !path.exists() {
        std::fs::create_dir_all(&dir).ok()?;
        crate::fix::write_atomically(&path, &crate::docs::rule_markdown(meta)).ok()?;
    }
    text::path_to_uri(&path)
}

/// The LSP severity of a finding.
pub fn severity(s: Severity) -> lsp::DiagnosticSeverity {
    match s {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
    }
}

/// The message shown: the finding's message, then its help, Flink's own message and notes.
pub fn message(d: &Diagnostic) -> String {
    let mut out = d.message.clone();
    if let Some(label) = &d.label {
        if !label.is_empty() && *label != d.message {
            out.push_str(&format!(" ({label})"));
        }
    }
    if let Some(help) = &d.help {
        out.push_str(&format!("\nhelp: {help}"));
    }
    if let Some(flink) = &d.flink_message {
        out.push_str(&format!("\nFlink says: {flink}"));
    }
    for note in &d.notes {
        out.push_str(&format!("\nnote: {note}"));
    }
    out
}

/// One finding of `outcome` as an LSP diagnostic.
pub fn diagnostic(outcome: &Outcome, d: &Diagnostic, docs: Option<&str>) -> lsp::Diagnostic {
    let file = &outcome.files[d.file.0 as usize].source;
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            let source = &outcome.files.get(r.file.0 as usize)?.source;
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location {
                    uri: text::path_to_uri(&source.path)?,
                    range: text::range(source, r.span),
                },
                message: r.message.clone(),
            })
        })
        .collect();
    lsp::Diagnostic {
        range: text::range(file, d.span),
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        code_description: docs_uri(d.code, docs).map(|href| lsp::CodeDescription { href }),
        source: Some("flinklint".to_string()),
        message: message(d),
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// The most diagnostics published for one document: a file that is not SQL (binary bytes, a
/// minified line of another language) would otherwise list hundreds of syntax errors.
pub const MAX_PER_DOCUMENT: usize = 100;

/// The diagnostics of the file at index `file` of `outcome`: at most [`MAX_PER_DOCUMENT`],
/// errors first, then warnings, then notes (each in the order of the file), the last of them
/// saying how many more there are.
pub fn diagnostics_of(outcome: &Outcome, file: usize, docs: Option<&str>) -> Vec<lsp::Diagnostic> {
    let all: Vec<&Diagnostic> = outcome
        .diagnostics_of(crate::source::FileId(file as u32))
        .collect();
    if all.len() <= MAX_PER_DOCUMENT {
        return all.iter().map(|d| diagnostic(outcome, d, docs)).collect();
    }
    let mut shown = all.clone();
    // Stable: the file's order within each severity.
    shown.sort_by_key(|d| match d.severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    });
    shown.truncate(MAX_PER_DOCUMENT - 1);
    let more = all.len() - shown.len();
    let mut out: Vec<lsp::Diagnostic> =
        shown.iter().map(|d| diagnostic(outcome, d, docs)).collect();
    out.push(lsp::Diagnostic {
        range: lsp::Range::default(),
        severity: Some(lsp::DiagnosticSeverity::INFORMATION),
        source: Some("flinklint".to_string()),
        message: format!(
            "{more} more findings in this file are not shown (an editor shows at most \
             {MAX_PER_DOCUMENT} per file; `flinklint check` lists them all): is this file SQL?"
        ),
        ..lsp::Diagnostic::default()
    });
    out
}

/// The index in `outcome` of the file at `path`.
pub fn file_index(outcome: &Outcome, path: &std::path::Path) -> Option<usize> {
    outcome.files.iter().position(|f| f.source.path == path)
}

/// The paths of the reported files of `outcome` that have findings.
pub fn with_findings(outcome: &Outcome) -> Vec<PathBuf> {
    let mut seen = vec![false; outcome.files.len()];
    let mut out = Vec::new();
    for d in &outcome.diagnostics {
        let i = d.file.0 as usize;
        if i < seen.len() && !seen[i] {
            seen[i] = true;
            out.push(outcome.files[i].source.path.clone());
        }
    }
    out
}

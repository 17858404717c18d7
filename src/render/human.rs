//! `--format human`: miette's graphical report, one per diagnostic, then a summary line.

use super::line_cols;
use crate::diagnostics::{Diagnostic, Severity};
use crate::files::FileEntry;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};
use std::fmt;

/// Rendering options.
#[derive(Debug, Clone, Copy)]
pub struct HumanOptions {
    /// ANSI colours (only on a terminal and never with `NO_COLOR`).
    pub color: bool,
    /// Line width for wrapping.
    pub width: usize,
}

struct Report<'a> {
    d: &'a Diagnostic,
    source: NamedSource<std::sync::Arc<str>>,
    help: Option<String>,
    related: Vec<RelatedReport>,
}

struct RelatedReport {
    message: String,
    source: NamedSource<std::sync::Arc<str>>,
    span: SourceSpan,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.d.message)
    }
}
impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.d.message)
    }
}
impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(format!("{} {}", self.d.code, self.d.name)))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = SourceSpan::new((self.d.span.start as usize).into(), self.d.span.len());
        let label = self
            .d
            .label
            .clone()
            .unwrap_or_else(|| short_label(&self.d.message));
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(label), span),
        )))
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn miette::Diagnostic> + 'b>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

impl fmt::Debug for RelatedReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl fmt::Display for RelatedReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for RelatedReport {}
impl miette::Diagnostic for RelatedReport {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some("here".to_string()),
            self.span,
        ))))
    }
}

/// A label short enough to sit under the code: the message up to its first colon.
fn short_label(message: &str) -> String {
    let first = message.split(": ").next().unwrap_or(message);
    if first.chars().count() > 60 {
        "here".to_string()
    } else {
        first.to_string()
    }
}

/// The file for miette's excerpts: its path and text with control characters made visible
/// (offsets kept; see [`crate::source::escape::keeping_offsets`]).
fn named_source(file: &FileEntry) -> NamedSource<std::sync::Arc<str>> {
    let text = match crate::source::escape::keeping_offsets(&file.source.text) {
        std::borrow::Cow::Borrowed(_) => file.source.text.clone(),
        std::borrow::Cow::Owned(shown) => shown.into(),
    };
    NamedSource::new(crate::source::escape::path(&file.source.path), text).with_language("sql")
}

/// Renders every diagnostic and a summary line.
pub fn render(
    files: &[FileEntry],
    files_checked: usize,
    diagnostics: &[Diagnostic],
    options: HumanOptions,
) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_links(false);
    let mut out = String::new();
    for d in diagnostics {
        let file = &files[d.file.0 as usize];
        let mut help_lines = Vec::new();
        if let Some(help) = &d.help {
            help_lines.push(help.clone());
        }
        if let Some(fix) = &d.fix {
            let how = match fix.applicability {
                crate::diagnostics::Applicability::Safe => "--fix",
                crate::diagnostics::Applicability::Unsafe => "--fix --unsafe-fixes",
            };
            help_lines.push(format!("fix available ({how}): {}", fix.title));
        }
        if let Some(flink) = &d.flink_message {
            help_lines.push(format!("Flink says: {flink}"));
        }
        for note in &d.notes {
            help_lines.push(note.clone());
        }
        help_lines.push(format!("docs: flinklint rule {}", d.code));
        let related = d
            .related
            .iter()
            .map(|r| {
                let rfile = &files[r.file.0 as usize];
                let (at, _) = line_cols(files, r.file, r.span);
                RelatedReport {
                    message: format!(
                        "{} ({}:{}:{})",
                        r.message,
                        crate::source::escape::path(&rfile.source.path),
                        at.line,
                        at.column
                    ),
                    source: named_source(rfile),
                    span: SourceSpan::new((r.span.start as usize).into(), r.span.len()),
                }
            })
            .collect();
        let report = Report {
            d,
            source: named_source(file),
            help: Some(help_lines.join("\n")),
            related,
        };
        let _ = handler.render_report(&mut out, &report);
        out.push('\n');
    }
    out.push_str(&summary(files_checked, diagnostics));
    out
}

/// "Found 2 errors and 1 warning in 12 files." or "No problems found in 12 files."
pub fn summary(files_checked: usize, diagnostics: &[Diagnostic]) -> String {
    let count = |s| diagnostics.iter().filter(|d| d.severity == s).count();
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let files = plural(files_checked, "file");
    if diagnostics.is_empty() {
        return format!("No problems found in {files}.\n");
    }
    let mut parts = Vec::new();
    for (s, word) in [
        (Severity::Error, "error"),
        (Severity::Warning, "warning"),
        (Severity::Info, "info"),
    ] {
        let n = count(s);
        if n > 0 {
            parts.push(if s == Severity::Info {
                format!("{n} info")
            } else {
                plural(n, word)
            });
        }
    }
    format!("Found {} in {files}.\n", parts.join(", "))
}

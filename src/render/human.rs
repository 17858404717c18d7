//! `--format human`: miette's graphical report, one per diagnostic, then a summary line.
//!
//! miette draws each report from an excerpt of the file ([`Excerpt`]), never from the whole
//! text, so that one report costs time and space bounded by what it shows, whatever the size of
//! the file and the length of its lines:
//!
//! - the excerpt holds the lines of the span and one line on each side (all that miette shows);
//! - a span over more than [`MAX_SPAN_LINES`] lines is drawn on its first line, and its label
//!   says on which line it ends;
//! - a line longer than [`MAX_LINE_CHARS`] characters is shown as a window of
//!   [`WINDOW_CHARS`] characters that starts [`WINDOW_BEFORE`] characters before the span
//!   (the same columns on every long line of the excerpt), `…` marking what is cut; a span
//!   that leaves the window is drawn to its edge.
//!
//! The header's `[path:line:column]` is the finding's position as every format gives it
//! (the column in characters). miette cannot draw a label past visual column 65,535 (tabs and
//! wide characters count several columns): the window keeps lines far below that, and a
//! finding it still could not draw is written in the concise form.

use super::{concise, line_cols, Omitted};
use crate::diagnostics::{Diagnostic, Severity};
use crate::files::FileEntry;
use crate::source::{SourceFile, Span};
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};
use std::fmt;

/// Lines a span may cover and still be drawn whole.
pub const MAX_SPAN_LINES: u32 = 20;
/// Characters a line may have and still be shown whole.
pub const MAX_LINE_CHARS: usize = 160;
/// Characters of a long line shown around a span.
pub const WINDOW_CHARS: u32 = 120;
/// Characters of a long line shown before the span's start.
pub const WINDOW_BEFORE: u32 = 40;
/// The widest line miette can draw a label on (Rust's formatting width is a `u16`).
const MIETTE_MAX_COLUMNS: usize = u16::MAX as usize;
/// The most visual columns one character takes in miette (a tab, at its tab width 4).
const MAX_CHAR_COLUMNS: usize = 4;
/// What marks the text cut from a long line.
const ELLIPSIS: &str = "…";

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
    source: Excerpt,
    label: String,
    help: Option<String>,
    related: Vec<RelatedReport>,
}

struct RelatedReport {
    message: String,
    source: Excerpt,
    label: String,
}

/// One line of an [`Excerpt`]: where its text is in the file, and which part is shown.
#[derive(Debug, Clone, Copy)]
struct ExcerptLine {
    /// Byte offset of the line's start in the file.
    start: usize,
    /// End of the line's text, before its break.
    text_end: usize,
    /// The shown part of the text (file byte offsets).
    window: (usize, usize),
    /// Whether text before the window is cut (an ellipsis precedes the window).
    cut_before: bool,
    /// Where the line starts in the excerpt.
    at: usize,
}

/// The part of a file one report shows, with what miette needs to number its lines and to
/// place the header: miette reads it as the source of the report.
#[derive(Debug)]
struct Excerpt {
    /// The file's path as shown.
    name: String,
    /// The lines shown, each cut to its window, with their breaks.
    text: String,
    /// 0-based number of the first line in the file.
    first_line: usize,
    lines: Vec<ExcerptLine>,
    /// The label's span in the excerpt.
    label: SourceSpan,
    /// 0-based line and character column of the span's start in the file.
    position: (usize, usize),
    /// For a span drawn on its first line only, the 1-based line where it ends.
    ends_on: Option<u32>,
}

impl Excerpt {
    /// The excerpt that shows `span` of `source`.
    fn new(source: &SourceFile, span: Span) -> Excerpt {
        let text = &*source.text;
        let index = &source.lines;
        let clamp = |offset: u32| {
            let mut o = (offset as usize).min(text.len());
            while !text.is_char_boundary(o) {
                o -= 1;
            }
            o
        };
        let (start, end) = (clamp(span.start), clamp(span.end.max(span.start)));
        let at = source.line_col(start as u32);
        // The line of the span's last byte (miette's last line of the span).
        let last_line = source
            .line_col(if end > start {
                end as u32 - 1
            } else {
                end as u32
            })
            .line;
        let line_count = index.line_count() as u32;
        let (end, shown_last, ends_on) = if last_line - at.line + 1 > MAX_SPAN_LINES {
            let first_end = index.line_end(text, at.line) as usize;
            (
                first_end.max(start),
                at.line,
                Some(source.line_col(end as u32).line),
            )
        } else {
            (end, (last_line + 1).min(line_count), None)
        };
        let first = at.line.saturating_sub(1).max(1);
        let long = |line: u32| {
            let from = index.line_start(line).unwrap_or(0) as usize;
            let to = index.line_end(text, line) as usize;
            text[from..to].chars().nth(MAX_LINE_CHARS).is_some()
        };
        // The window's first column (0-based), the same on every long line of the excerpt (so
        // that they stay aligned); short lines are shown whole.
        let from_column = if long(at.line) {
            (at.column - 1).saturating_sub(WINDOW_BEFORE)
        } else {
            0
        };
        let mut out = String::new();
        let mut lines = Vec::new();
        for line in first..=shown_last.max(first) {
            let line_start = index.line_start(line).unwrap_or(text.len() as u32) as usize;
            let text_end = index.line_end(text, line) as usize;
            let next = index
                .line_start(line + 1)
                .map_or(text.len(), |s| s as usize);
            let window = if !long(line) {
                (line_start, text_end)
            } else {
                let column = |c: u32| index.offset_of(text, line, c + 1) as usize;
                (column(from_column), column(from_column + WINDOW_CHARS))
            };
            let cut_before = window.0 > line_start;
            let line_at = out.len();
            if cut_before {
                out.push_str(ELLIPSIS);
            }
            // Control characters made visible, byte for byte (offsets kept; see
            // [`crate::source::escape::keeping_offsets`]).
            out.push_str(&crate::source::escape::keeping_offsets(
                &text[window.0..window.1],
            ));
            if window.1 < text_end {
                out.push_str(ELLIPSIS);
            }
            // A lone carriage return ends a line for the line index; miette breaks lines only at
            // `\n`, so it is shown as one (same byte length: offsets are kept), never raw.
            match &text[text_end..next] {
                "\r" => out.push('\n'),
                terminator => out.push_str(terminator),
            }
            lines.push(ExcerptLine {
                start: line_start,
                text_end,
                window,
                cut_before,
                at: line_at,
            });
        }
        let mut excerpt = Excerpt {
            name: crate::source::escape::path(&source.path),
            text: out,
            first_line: first as usize - 1,
            lines,
            label: SourceSpan::new(0.into(), 0),
            position: (at.line as usize - 1, at.column as usize - 1),
            ends_on,
        };
        let (a, b) = (excerpt.map(start), excerpt.map(end));
        excerpt.label = SourceSpan::new(a.into(), b.max(a) - a);
        excerpt
    }

    /// Where the file's byte `offset` is shown in the excerpt: a position cut from a line is
    /// shown at the window's edge.
    fn map(&self, offset: usize) -> usize {
        let Some(first) = self.lines.first() else {
            return 0;
        };
        if offset < first.start {
            return 0;
        }
        let i = self.lines.partition_point(|l| l.start <= offset) - 1;
        let l = self.lines[i];
        let prefix = if l.cut_before { ELLIPSIS.len() } else { 0 };
        let shown = l.window.1 - l.window.0;
        let suffix = if l.window.1 < l.text_end {
            ELLIPSIS.len()
        } else {
            0
        };
        let in_line = if offset < l.window.0 {
            prefix
        } else if offset <= l.window.1 {
            prefix + offset - l.window.0
        } else if offset <= l.text_end {
            prefix + shown
        } else {
            prefix + shown + suffix + (offset - l.text_end)
        };
        (l.at + in_line).min(self.text.len())
    }

    /// Whether miette can draw every line (each character at most [`MAX_CHAR_COLUMNS`] wide).
    fn drawable(&self) -> bool {
        self.text
            .lines()
            .all(|line| line.chars().count() * MAX_CHAR_COLUMNS < MIETTE_MAX_COLUMNS)
    }

    /// The label's text: `label`, and where the span ends when it is drawn on its first line.
    fn label_text(&self, label: String) -> String {
        match self.ends_on {
            Some(line) => format!("{label} (to line {line})"),
            None => label,
        }
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let contents =
            self.text
                .as_str()
                .read_span(span, context_lines_before, context_lines_after)?;
        // miette reads the label's own span (no context) for the header's position.
        let (line, column) = if context_lines_before == 0 && span.offset() == self.label.offset() {
            self.position
        } else {
            (contents.line() + self.first_line, contents.column())
        };
        Ok(Box::new(
            MietteSpanContents::new_named(
                self.name.clone(),
                contents.data(),
                *contents.span(),
                line,
                column,
                contents.line_count(),
            )
            .with_language("sql"),
        ))
    }
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
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(self.label.clone()), self.source.label),
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
            Some(self.label.clone()),
            self.source.label,
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

/// Renders every diagnostic and a summary line.
pub fn render(
    files: &[FileEntry],
    files_checked: usize,
    diagnostics: &[Diagnostic],
    options: HumanOptions,
) -> String {
    render_limited(files, files_checked, diagnostics, options, usize::MAX)
}

/// Renders the first `limit` diagnostics, a line counting the others (see [`Omitted`]), and
/// the summary line of all of them.
pub fn render_limited(
    files: &[FileEntry],
    files_checked: usize,
    diagnostics: &[Diagnostic],
    options: HumanOptions,
    limit: usize,
) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_links(false);
    let (shown, omitted) = super::limit(diagnostics, limit);
    let mut out = String::new();
    for d in shown {
        out.push_str(&report(&handler, files, d));
        out.push('\n');
    }
    if let Some(omitted) = omitted {
        out.push_str(&omitted_line(&omitted));
    }
    out.push_str(&summary(files_checked, diagnostics));
    out
}

/// The line that counts the findings left out, for the text formats.
pub(crate) fn omitted_line(omitted: &Omitted) -> String {
    format!("{}\n", omitted.sentence())
}

/// One diagnostic as miette draws it, or in the concise form when miette cannot.
fn report(handler: &GraphicalReportHandler, files: &[FileEntry], d: &Diagnostic) -> String {
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
    let related: Vec<RelatedReport> = d
        .related
        .iter()
        .map(|r| {
            let rfile = &files[r.file.0 as usize];
            let (at, _) = line_cols(files, r.file, r.span);
            let source = Excerpt::new(&rfile.source, r.span);
            RelatedReport {
                message: format!(
                    "{} ({}:{}:{})",
                    r.message,
                    crate::source::escape::path(&rfile.source.path),
                    at.line,
                    at.column
                ),
                label: source.label_text("here".to_string()),
                source,
            }
        })
        .collect();
    let source = Excerpt::new(&file.source, d.span);
    let label = source.label_text(d.label.clone().unwrap_or_else(|| short_label(&d.message)));
    let fallback = || format!("{}\n", concise::line(files, d));
    if !source.drawable() || !related.iter().all(|r| r.source.drawable()) {
        return fallback();
    }
    let report = Report {
        d,
        source,
        label,
        help: Some(help_lines.join("\n")),
        related,
    };
    // A last guard: a report miette fails on (a panic inside it) is written concisely.
    let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut text = String::new();
        handler.render_report(&mut text, &report).map(|()| text)
    }));
    match drawn {
        Ok(Ok(text)) => text,
        _ => fallback(),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn render_one(text: &str, span: Span, related: Option<Span>) -> String {
        let settings = crate::config::Settings::default();
        let outcome = crate::check_texts(&[("a.sql".into(), text.into())], &settings);
        let meta = crate::rules::meta::find("SY001").expect("SY001");
        let mut d = Diagnostic::new(meta, Severity::Error, FileId(0), span, "bad: here");
        if let Some(r) = related {
            d = d.with_related(FileId(0), r, "first here");
        }
        let options = HumanOptions {
            color: false,
            width: 100,
        };
        render(&outcome.files, 1, &[d], options)
    }

    #[test]
    fn short_lines_are_shown_whole_and_long_ones_in_one_window() {
        let long = "x".repeat(1_000);
        let text = format!("SELECT 1;\nSELECT '{long}',\n  'é' AS \"{long}\";\n");
        let start = text.find("\"x").unwrap();
        let out = render_one(&text, Span::new(start, start + 3), None);
        assert!(out.contains("[a.sql:3:10]"), "{out}");
        // The line before is long too: both are cut at the same column; the first is short.
        let cut: Vec<&str> = out.lines().filter(|l| l.contains('…')).collect();
        assert_eq!(cut.len(), 2, "{out}");
        assert!(out.lines().all(|l| l.chars().count() < 200), "{out}");
        assert!(out.contains("  'é' AS \"xxx"), "{out}");
    }

    #[test]
    fn spans_over_long_lines_and_related_locations_stay_bounded() {
        let long = "y".repeat(5_000);
        let text = format!("SELECT\n{long}\n{long}\n{long} FROM t;\n");
        let first = text.find('y').unwrap();
        let last = text.rfind('y').unwrap();
        let out = render_one(
            &text,
            Span::new(first + 4_000, last),
            Some(Span::new(first + 10, first + 4_990)),
        );
        assert!(out.contains("[a.sql:2:4001]"), "{out}");
        assert!(out.contains("first here (a.sql:2:11)"), "{out}");
        assert!(out.len() < 5_000, "{} bytes:\n{out}", out.len());
    }

    #[test]
    fn a_finding_miette_cannot_draw_is_written_concisely() {
        let text = "SELECT 1;\n";
        let outcome = crate::check_texts(
            &[("a.sql".into(), text.into())],
            &crate::config::Settings::default(),
        );
        let mut excerpt = Excerpt::new(&outcome.files[0].source, Span::new(0, 6));
        assert!(excerpt.drawable());
        excerpt.text = "\t".repeat(20_000);
        assert!(!excerpt.drawable());
    }
}

//! Render stage: diagnostics to text, one module per output format. Renderers read the
//! diagnostics and the files' text (for line and column) and nothing else.

pub mod human;
pub mod json;

use crate::rules::FileEntry;
use crate::source::{FileId, LineCol, Span};

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// miette's graphical report (colour on a terminal only, never with `NO_COLOR`).
    Human,
    /// One versioned JSON document.
    Json,
}

/// Start and exclusive end of a span as 1-based lines and character columns.
pub fn line_cols(files: &[FileEntry], file: FileId, span: Span) -> (LineCol, LineCol) {
    let source = &files[file.0 as usize].source;
    (source.line_col(span.start), source.line_col(span.end))
}

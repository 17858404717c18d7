//! The files of a run, read and parsed: what every stage after the parser reads.

use crate::source::embedded::{self, Format};
use crate::source::{FileId, SourceFile};
use crate::syntax::{self, Parsed};

/// Parses a file as its name says: a document's SQL blocks (Markdown, reStructuredText; see
/// [`embedded`]), or the whole text as SQL. Every run parses files with this function, so that
/// a fixed text is read again exactly as the original was.
pub fn parse(source: &SourceFile) -> Parsed {
    match embedded::extract(Format::of(&source.path), &source.text) {
        None => syntax::parse(&source.text),
        Some((sql, blocks)) => syntax::parse_embedded(&sql, blocks),
    }
}

/// One file of the run: its text, its parse, and whether findings in it are reported.
#[derive(Debug)]
pub struct FileEntry {
    /// Index in the run's file list.
    pub id: FileId,
    /// The text (empty when unreadable).
    pub source: SourceFile,
    /// The parse of the text.
    pub parsed: std::sync::Arc<Parsed>,
    /// Why the file could not be read, if it could not (reported as SY000).
    pub load_error: Option<String>,
    /// Whether findings in this file are reported (context files are loaded but not reported).
    pub report: bool,
    /// For the version of another file at a git revision (`--base`), that file: run just
    /// before it as the state it evolves, never reported, never a session of its own.
    pub base_of: Option<FileId>,
}

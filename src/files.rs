//! The files of a run, read and parsed: what every stage after the parser reads.

use crate::dialect::{self, FileDialect};
use crate::source::{FileId, SourceFile};
use crate::syntax::{self, Parsed};
use std::sync::Arc;

/// One file of the run: its text, its parse, which of its statements are Flink SQL, and
/// whether findings in it are reported.
#[derive(Debug)]
pub struct FileEntry {
    /// Index in the run's file list.
    pub id: FileId,
    /// The text (empty when unreadable).
    pub source: SourceFile,
    /// The parse of the text.
    pub parsed: Arc<Parsed>,
    /// Which statements are Flink SQL: detected from the text ([`dialect::detect`]), then
    /// overruled by the configuration for the whole run (`flink-files`, `other-files`,
    /// `dialect-detection`). Statements that are not are neither analysed nor reported on
    /// (but for one note per stretch).
    pub dialect: Arc<FileDialect>,
    /// Why the file could not be read, if it could not (reported as SY000).
    pub load_error: Option<String>,
    /// Whether findings in this file are reported (context files are loaded but not reported).
    pub report: bool,
    /// For the version of another file at a git revision (`--base`), that file: run just
    /// before it as the state it evolves, never reported, never a session of its own.
    pub base_of: Option<FileId>,
}

/// Parses a text and detects which of its statements are Flink SQL: what a [`FileEntry`]
/// holds of its text.
pub fn parse(text: &str) -> (Arc<Parsed>, Arc<FileDialect>) {
    let parsed = syntax::parse(text);
    let dialect = dialect::detect(text, &parsed);
    (Arc::new(parsed), Arc::new(dialect))
}

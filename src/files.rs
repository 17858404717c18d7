//! The files of a run, read and parsed: what every stage after the parser reads; and how any
//! input is read from disk ([`read_file`]: regular files only, within a size limit), whoever
//! reads it (the config, the walk's `.gitignore` files, the command line).

use crate::dialect::{self, FileDialect};
use crate::source::embedded::{self, Format};
use crate::source::{FileId, SourceFile};
use crate::syntax::{self, Parsed};
use std::sync::Arc;

/// Parses a file as its name says and detects which of its statements are Flink SQL: what a
/// [`FileEntry`] holds of its text. A document's SQL blocks (Markdown, reStructuredText; see
/// [`embedded`]) are parsed and judged on their own, as one script; any other file is SQL.
/// Every run parses files with this function, so that a fixed text is read again exactly as
/// the original was.
pub fn parse(source: &SourceFile) -> (Arc<Parsed>, Arc<FileDialect>) {
    let (parsed, dialect) = match embedded::extract(Format::of(&source.path), &source.text) {
        None => {
            let parsed = syntax::parse(&source.text);
            let dialect = dialect::detect(&source.text, &parsed);
            (parsed, dialect)
        }
        Some((sql, blocks)) => {
            let parsed = syntax::parse_embedded(&sql, blocks);
            let dialect = dialect::detect(&sql, &parsed);
            (parsed, dialect)
        }
    };
    (Arc::new(parsed), Arc::new(dialect))
}

/// The syntax of a file as [`parse`] reads it, without the dialect detection: what the fixer
/// compares before and after a fix.
pub fn parse_syntax(source: &SourceFile) -> Parsed {
    match embedded::extract(Format::of(&source.path), &source.text) {
        None => syntax::parse(&source.text),
        Some((sql, blocks)) => syntax::parse_embedded(&sql, blocks),
    }
}

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

/// The most a SQL file (or standard input) may hold: 100 MiB. A larger input is reported as
/// unreadable rather than read: no SQL script or migration is that large, and reading and
/// indexing it would take memory proportional to it.
pub const SQL_LIMIT: u64 = 100 << 20;

/// The most a small input may hold (`.flinklint.yaml`, a history's order file, a `.gitignore`):
/// 1 MiB. The YAML reader keeps every event of a document in memory (about 230 bytes per token,
/// so a 1 MiB file can take 120 MB), and none of these files comes near it.
pub const SMALL_LIMIT: u64 = 1 << 20;

/// The most a baseline file may hold: 64 MiB (about 300,000 recorded findings).
pub const BASELINE_LIMIT: u64 = 64 << 20;

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The operating system refused (not found, permission denied, a symbolic-link loop).
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The path names something other than a regular file (after following symbolic links).
    #[error("it is {0}, not a regular file")]
    NotAFile(&'static str),
    /// The input holds more than the limit allows.
    #[error("larger than {}, the most flinklint reads", size_name(*.0))]
    TooLarge(u64),
}

/// `limit` as people write it: `100 MiB`, `64 KiB`, `12 bytes`.
fn size_name(limit: u64) -> String {
    match limit {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// What a file type is, for [`ReadError::NotAFile`].
fn kind_of(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// The metadata of `path` (symbolic links followed) when it is a regular file.
///
/// Errors: [`ReadError::Io`] when it cannot be inspected (it does not exist, a symbolic-link
/// loop), [`ReadError::NotAFile`] for anything else than a regular file.
pub fn regular_file(path: &std::path::Path) -> Result<std::fs::Metadata, ReadError> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(meta.file_type())));
    }
    Ok(meta)
}

/// The bytes of the regular file at `path` (symbolic links followed), at most `limit` of them.
///
/// A named pipe, a device, a socket or a directory is refused without being opened (opening
/// a pipe releases a writer waiting on it, opening some devices acts on them; reading a pipe
/// would wait for a writer, `/dev/zero` never ends); the file is opened without blocking and
/// checked again once open, so a path swapped in between is refused too. A regular file is
/// read in as many bytes as it holds when opened: one read, no second one to see its end (a
/// file whose size says nothing, as in `/proc`, is read to its end).
///
/// Errors: [`ReadError::Io`] when the path cannot be opened or read (it does not exist, a
/// symbolic-link loop, no permission), [`ReadError::NotAFile`], [`ReadError::TooLarge`].
pub fn read_file(path: &std::path::Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let meta = regular_file(path)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge(limit));
    }
    let (file, meta) = open_regular(path)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge(limit));
    }
    match usize::try_from(meta.len()) {
        Ok(size) if size > 0 => read_sized(file, size),
        // Its size says nothing: read to its end, growing the buffer.
        _ => read_limited(file, limit),
    }
}

/// The file at `path` open for reading, and what it is once open: opened without blocking
/// (a named pipe swapped in after a check is not waited on), and refused when it is not a
/// regular file. Callers check the path with [`regular_file`] first: opening a pipe releases a
/// writer waiting on it, opening some devices acts on them.
///
/// Errors: [`ReadError::Io`], [`ReadError::NotAFile`].
pub fn open_regular(
    path: &std::path::Path,
) -> Result<(std::fs::File, std::fs::Metadata), ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // The flags' bits fit an `i32` (`O_NONBLOCK` is 0o4000 on Linux, 0x4 on macOS).
        options.custom_flags(
            (rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY).bits() as i32,
        );
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(meta.file_type())));
    }
    Ok((file, meta))
}

/// The `size` bytes a regular file held when opened: fewer when it has shrunk since, and not
/// what it has grown by since (as if it had been read when opened).
fn read_sized(mut file: std::fs::File, size: usize) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let mut bytes = vec![0; size];
    let mut filled = 0;
    while filled < size {
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

/// At most `limit` bytes of `reader` (standard input, a child process's output): reads up
/// to `limit + 1` bytes and refuses the input when it gets them.
///
/// Errors: [`ReadError::Io`], [`ReadError::TooLarge`].
pub fn read_limited(reader: impl std::io::Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    read_limited_into(reader, limit, &mut bytes)?;
    Ok(bytes)
}

/// [`read_limited`] into `bytes` (empty, with the capacity the caller expects to need).
fn read_limited_into(
    reader: impl std::io::Read,
    limit: u64,
    bytes: &mut Vec<u8>,
) -> Result<(), ReadError> {
    use std::io::Read;
    reader.take(limit.saturating_add(1)).read_to_end(bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(limit));
    }
    Ok(())
}

/// [`read_file`] as UTF-8 text.
///
/// Errors: those of [`read_file`], and [`ReadError::Io`] of kind `InvalidData` for text that
/// is not UTF-8 (naming the offset of the first bad byte).
pub fn read_text(path: &std::path::Path, limit: u64) -> Result<String, ReadError> {
    utf8(read_file(path, limit)?)
}

/// `bytes` as UTF-8 text.
///
/// Errors: [`ReadError::Io`] of kind `InvalidData` for bytes that are not UTF-8 (naming the
/// offset of the first bad byte), the error every reader of SQL gives.
pub fn utf8(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| {
        ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not valid UTF-8 (byte {})", e.utf8_error().valid_up_to()),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_named_in_units() {
        assert_eq!(size_name(SQL_LIMIT), "100 MiB");
        assert_eq!(size_name(64 << 10), "64 KiB");
        assert_eq!(size_name(5), "5 bytes");
    }

    #[test]
    fn a_reader_over_the_limit_is_refused_after_limit_plus_one_bytes() {
        let endless = std::io::repeat(b'x');
        assert!(matches!(
            read_limited(endless, 10),
            Err(ReadError::TooLarge(10))
        ));
        assert_eq!(read_limited(&b"0123456789"[..], 10).unwrap().len(), 10);
    }

    #[test]
    fn directories_are_refused() {
        let e = read_file(std::path::Path::new("."), SQL_LIMIT).unwrap_err();
        assert_eq!(e.to_string(), "it is a directory, not a regular file",);
    }
}

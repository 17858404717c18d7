//! The context cache's file: its format, read and written (see [`read_index`]).

use super::{content_hash, nanos, Entry, Index, FILE_NAME, FORMAT, MAGIC};
use crate::semantic::deploy::context::{Compact, Names};
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

/// The largest cache file read: about 180 bytes an entry, so some five million files.
const INDEX_LIMIT: u64 = 1 << 30;

fn version_line() -> String {
    format!("{MAGIC} {FORMAT} {}", env!("CARGO_PKG_VERSION"))
}

/// Reads the cache file at `path`; `None` when it is missing, of another version or format,
/// or not whole (truncated, garbled): such a cache is never trusted.
///
/// The format (text): the version line; a header `WRITTEN ENTRIES NAMES HASH` (the hash of
/// the rest); the names, one a line; then one line an entry, sorted by path:
/// `PATH \t SIZE \t MTIME \t HASH \t g|- \t DEFS \t USES \t FUNDEFS \t CALLS`, each list the
/// numbers of its names (their lines among the names) separated by spaces. Each name is
/// written and interned once, and an entry is read without building any string but its path.
///
/// Only a regular file is read (`files::regular_file`, `files::open_regular`: a named pipe or
/// a device in its place is refused unopened, a run never waits on it), at most
/// [`INDEX_LIMIT`] bytes of it, and only once its first line says it is a cache of this
/// version (a large file of anything else is refused after a few bytes).
pub(super) fn read_index(path: &Path) -> Option<Index> {
    use std::io::Read;
    let (mut file, size) = open_index(path)?;
    let mut bytes = vec![0; size.min(HEAD)];
    file.read_exact(&mut bytes).ok()?;
    let version = version_line();
    if !bytes.starts_with(version.as_bytes()) || bytes.get(version.len()) != Some(&b'\n') {
        return None;
    }
    // The rest, as large as the file was when opened (one that shrank since is not whole).
    let head = bytes.len();
    bytes.resize(size, 0);
    file.read_exact(&mut bytes[head..]).ok()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    // The version line was checked above.
    let (_, rest) = text.split_once('\n')?;
    let (header, body) = rest.split_once('\n')?;
    let mut h = header.split(' ');
    let written: u128 = h.next()?.parse().ok()?;
    let count: usize = h.next()?.parse().ok()?;
    let name_count: usize = h.next()?.parse().ok()?;
    let hash = u128::from_str_radix(h.next()?, 16).ok()?;
    if h.next().is_some() || content_hash(body.as_bytes()) != hash {
        return None;
    }
    // The names, one a line (as `split_terminator` splits: a last line may lack its break).
    let mut rest = body;
    let mut names = Names::default();
    for _ in 0..name_count {
        let line = match rest.find('\n') {
            Some(end) => {
                let line = &rest[..end];
                rest = &rest[end + 1..];
                line
            }
            None if !rest.is_empty() => std::mem::take(&mut rest),
            None => return None,
        };
        let name = match line.contains('\\') {
            true => std::borrow::Cow::Owned(unescape(line)?),
            false => std::borrow::Cow::Borrowed(line),
        };
        // Each name once: a repeated one is not a cache this wrote.
        if names.intern(&name) as usize != names.len() - 1 {
            return None;
        }
    }
    // The entries, decoded in parallel by pieces of whole lines, then gathered in order.
    let name_count = names.len();
    let decoded: Vec<Vec<(&str, Entry)>> = line_pieces(rest, ENTRY_PIECE)
        .par_iter()
        .map(|piece| {
            let mut ids: Vec<u32> = Vec::new();
            piece
                .split_terminator('\n')
                .map(|line| parse_entry(line, name_count, &mut ids))
                .collect::<Option<Vec<_>>>()
        })
        .collect::<Option<Vec<_>>>()?;
    let mut entries = foldhash::HashMap::with_capacity_and_hasher(
        count.min(body.len() / 8 + 1),
        Default::default(),
    );
    for (path, entry) in decoded.into_iter().flatten() {
        entries.insert(path.to_string(), entry);
    }
    (entries.len() == count).then_some(Index {
        written,
        entries,
        names,
    })
}

/// The bytes of an index read before the rest: its version line and header fit.
const HEAD: usize = 256;

/// The index file at `path` open for reading and its size, when it is a regular file of at
/// most [`INDEX_LIMIT`] bytes.
fn open_index(path: &Path) -> Option<(std::fs::File, usize)> {
    crate::files::regular_file(path).ok()?;
    let (file, meta) = crate::files::open_regular(path).ok()?;
    let size = usize::try_from(meta.len()).ok()?;
    (meta.len() <= INDEX_LIMIT).then_some((file, size))
}

/// How many entries the index at `path` says it holds (its header only is read); `None` when
/// it is missing, of another version, or not a cache's.
pub(super) fn index_entries(path: &Path) -> Option<usize> {
    use std::io::Read;
    let (file, size) = open_index(path)?;
    let mut head = Vec::with_capacity(HEAD);
    file.take(HEAD.min(size) as u64)
        .read_to_end(&mut head)
        .ok()?;
    let text = std::str::from_utf8(head.get(..head.iter().rposition(|&b| b == b'\n')?)?).ok()?;
    let (version, header) = text.split_once('\n')?;
    if version != version_line() {
        return None;
    }
    header.split(' ').nth(1)?.parse().ok()
}

/// About how many bytes of entries one task decodes.
const ENTRY_PIECE: usize = 64 << 10;

/// `text` cut into pieces of about `size` bytes, each ending just after a line break (or at
/// the end of `text`): split by lines, the pieces give the lines of `text`, in order.
fn line_pieces(text: &str, size: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut pieces = Vec::with_capacity(bytes.len() / size.max(1) + 1);
    let mut start = 0;
    while start < bytes.len() {
        let from = (start + size.max(1)).min(bytes.len());
        let end = bytes[from - 1..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |k| from + k);
        pieces.push(&text[start..end]);
        start = end;
    }
    pieces
}

fn parse_entry<'a>(line: &'a str, names: usize, ids: &mut Vec<u32>) -> Option<(&'a str, Entry)> {
    // Read byte by byte: `str::split` and `str::parse` cost more than the fields themselves.
    let path = &line[..line.find('\t')?];
    let rest = &line.as_bytes()[path.len()..];
    let mut at = Fields {
        bytes: rest,
        pos: 0,
    };
    let size = u64::try_from(at.decimal()?).ok()?;
    let mtime = at.decimal()?;
    let hash = at.hex()?;
    let global = match at.field()? {
        b"g" => true,
        b"-" => false,
        _ => return None,
    };
    ids.clear();
    let mut ends = [0u32; 3];
    // The four lists; after each of the first three, where it ends.
    for end in ends.iter_mut().map(Some).chain([None]) {
        // Numbers separated by single spaces, each below `names`.
        let list = at.field()?;
        if !list.is_empty() {
            let mut id = 0usize;
            let mut len = 0;
            for &b in list.iter().chain(std::iter::once(&b' ')) {
                if b == b' ' {
                    if len == 0 || id >= names {
                        return None;
                    }
                    ids.push(id as u32);
                    (id, len) = (0, 0);
                    continue;
                }
                let d = b.wrapping_sub(b'0');
                // At most 9 digits: no overflow.
                if d > 9 || len == 9 {
                    return None;
                }
                id = id * 10 + usize::from(d);
                len += 1;
            }
        }
        if let Some(end) = end {
            *end = ids.len() as u32;
        }
    }
    if at.pos != rest.len() {
        return None;
    }
    Some((
        path,
        Entry {
            size,
            mtime,
            hash,
            summary: Compact::from_ids(global, ends, ids),
        },
    ))
}

/// The fields of an entry after its path, each after a tab.
struct Fields<'b> {
    bytes: &'b [u8],
    pos: usize,
}

impl<'b> Fields<'b> {
    /// The next field (after its tab).
    fn field(&mut self) -> Option<&'b [u8]> {
        let rest = self.bytes.get(self.pos..)?.strip_prefix(b"\t")?;
        let len = rest.iter().position(|&b| b == b'\t').unwrap_or(rest.len());
        self.pos += 1 + len;
        Some(&rest[..len])
    }
    fn decimal(&mut self) -> Option<u128> {
        digits(self.field()?)
    }
    fn hex(&mut self) -> Option<u128> {
        let f = self.field()?;
        if f.is_empty() || f.len() > 32 {
            return None;
        }
        f.iter().try_fold(0u128, |n, &b| {
            let d = (b as char).to_digit(16)?;
            Some((n << 4) | u128::from(d))
        })
    }
}

/// A decimal number written by [`write_entry`]: digits only, at most 39 of them, no overflow.
fn digits(f: &[u8]) -> Option<u128> {
    if f.is_empty() || f.len() > 39 {
        return None;
    }
    if f.len() <= 19 {
        // Fits in 64 bits whatever the digits: no overflow check.
        let mut n = 0u64;
        for &b in f {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                return None;
            }
            n = n * 10 + u64::from(d);
        }
        return Some(u128::from(n));
    }
    f.iter().try_fold(0u128, |n, &b| {
        b.is_ascii_digit()
            .then(|| n.checked_mul(10)?.checked_add(u128::from(b - b'0')))
            .flatten()
    })
}

/// Writes a name on one line: `\\` and line breaks escaped (`\\\\`, `\\n`, `\\r`).
fn escape(name: &str, out: &mut String) {
    if !name.contains(['\\', '\n', '\r']) {
        out.push_str(name);
        return;
    }
    for c in name.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

/// The name [`escape`] wrote; `None` for an escape it does not write.
fn unescape(line: &str) -> Option<String> {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            '\\' => match chars.next()? {
                '\\' => '\\',
                'n' => '\n',
                'r' => '\r',
                _ => return None,
            },
            c => c,
        });
    }
    Some(out)
}

/// Writes one entry; `number` gives each name's line among the names written.
fn write_entry(out: &mut String, path: &str, e: &Entry, number: &[u32]) {
    use std::fmt::Write as _;
    let s = &e.summary;
    let _ = write!(
        out,
        "{path}\t{}\t{}\t{:032x}\t{}",
        e.size,
        e.mtime,
        e.hash,
        if s.global { "g" } else { "-" }
    );
    for list in [s.defs(), s.uses(), s.fundefs(), s.calls()] {
        out.push('\t');
        for (k, &n) in list.iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{}", number[n as usize]);
        }
    }
    out.push('\n');
}

/// Writes the cache atomically: a temporary file in the cache folder, renamed over the cache.
/// A failure is noted once on standard error (a read-only project is checked without a
/// cache).
pub(super) fn write_index(dir: &Path, index: &Index) {
    let mut paths: Vec<(&String, &Entry)> = index.entries.iter().collect();
    paths.sort_unstable_by(|a, b| a.0.cmp(b.0));
    // Only the names the entries use, numbered in the order first used.
    const UNUSED: u32 = u32::MAX;
    let mut number = vec![UNUSED; index.names.len()];
    let mut names = String::new();
    let mut used = 0u32;
    for (_, e) in &paths {
        let s = &e.summary;
        for &n in [s.defs(), s.uses(), s.fundefs(), s.calls()]
            .into_iter()
            .flatten()
        {
            if let Some(slot) = number.get_mut(n as usize).filter(|s| **s == UNUSED) {
                *slot = used;
                used += 1;
                escape(index.names.name(n), &mut names);
                names.push('\n');
            }
        }
    }
    let mut body = names;
    for (p, e) in paths {
        write_entry(&mut body, p, e, &number);
    }
    let head = format!(
        "{}\n{} {} {} {:032x}\n",
        version_line(),
        index.written,
        index.entries.len(),
        used,
        content_hash(body.as_bytes())
    );
    match own_folder(dir) {
        Some(true) => {}
        Some(false) => {
            static NOTED: std::sync::Once = std::sync::Once::new();
            NOTED.call_once(|| {
                eprintln!(
                    "flinklint: note: the context cache is not written to {}: the folder holds \
                     other files, and is not flinklint's (`cache-dir` must name a folder of \
                     its own)",
                    crate::source::escape::path(dir)
                );
            });
            return;
        }
        // Not a folder, or not readable: nothing can be written there.
        None => return not_written(dir, "it is not a readable folder"),
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        return not_written(dir, &e.to_string());
    }
    // Marks the folder as a cache (backup tools skip it) and keeps it out of git. The tag
    // first: it is what makes the folder flinklint's to a run that looks at it meanwhile.
    let tag = dir.join("CACHEDIR.TAG");
    if !tag.exists() {
        let _ = std::fs::write(&tag, TAG);
    }
    let gitignore = dir.join(".gitignore");
    if !gitignore.exists() {
        let _ = std::fs::write(&gitignore, "# Created by flinklint: its cache.\n*\n");
    }
    let tmp = dir.join(format!(
        "{FILE_NAME}.{}.{}.tmp",
        std::process::id(),
        nanos(SystemTime::now())
    ));
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(head.as_bytes())?;
        f.write_all(body.as_bytes())?;
        f.sync_data()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, dir.join(FILE_NAME))) {
        let _ = std::fs::remove_file(&tmp);
        not_written(dir, &e.to_string());
    }
    remove_abandoned(dir);
}

/// Says once a run that the cache could not be written (a read-only project, a `cache-dir`
/// that cannot be made): the run's findings are complete, but runs on a few files read the
/// whole project until it can be.
fn not_written(dir: &Path, why: &str) {
    static NOTED: std::sync::Once = std::sync::Once::new();
    NOTED.call_once(|| {
        eprintln!(
            "flinklint: note: the context cache is not written to {}: {}; runs on a few files \
             read every file of the project until it can be (`cache-dir` names another folder, \
             `--no-cache` skips it)",
            crate::source::escape::path(dir),
            crate::source::escape::text(why)
        );
    });
}

/// How old a temporary file of the cache must be to be another run's abandoned one (a run
/// killed between writing it and renaming it), not one being written now.
const ABANDONED: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the temporary files of the cache (`context-index.<pid>.<time>.tmp`) that runs
/// killed while writing left behind: those last modified over [`ABANDONED`] ago. A run that is
/// writing its own meanwhile has touched it within that time.
fn remove_abandoned(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        // Exactly the names `write_index` gives: `context-index.<digits>.<digits>.tmp`.
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let ours = name
            .strip_prefix(FILE_NAME)
            .and_then(|rest| rest.strip_prefix('.'))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|rest| rest.split_once('.'))
            .is_some_and(|(pid, time)| digits(pid) && digits(time));
        if !ours {
            continue;
        }
        let old = entry
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .and_then(|m| m.modified().ok())
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age > ABANDONED);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The cache folder's tag (<https://bford.info/cachedir/>): backup tools skip the folder, and
/// it marks the folder as flinklint's.
const TAG: &str =
    "Signature: 8a477f597d28d172789f06886806bc55\n# flinklint's cache (https://bford.info/cachedir/)\n";

/// Whether the cache may be written into `dir`: flinklint's own folder (its `CACHEDIR.TAG` is
/// flinklint's, whatever else lands there, a `.DS_Store` or an editor's file), a folder that
/// does not exist yet, or one that holds nothing but cache files. A `cache-dir` naming a
/// folder of other files (`.`, a folder of SQL, another project, another tool's cache) is left
/// alone: the cache's `.gitignore` would hide those files from git and from every later run's
/// walk. `None` when it cannot be told (`dir` is not a folder, or cannot be read).
fn own_folder(dir: &Path) -> Option<bool> {
    match std::fs::read_dir(dir) {
        Ok(entries) => {
            let tag = crate::files::read_file(&dir.join("CACHEDIR.TAG"), TAG.len() as u64);
            if tag.is_ok_and(|t| t == TAG.as_bytes()) {
                return Some(true);
            }
            Some(entries.into_iter().all(|e| {
                e.is_ok_and(|e| {
                    e.file_name()
                        .as_encoded_bytes()
                        .starts_with(FILE_NAME.as_bytes())
                })
            }))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(true),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Entry, Index, FILE_NAME};
    use super::{index_entries, parse_entry, read_index, unescape, write_index};
    use crate::semantic::deploy::context::Compact;

    #[test]
    fn names_with_line_breaks_and_backslashes_survive_a_round_trip() {
        let dir =
            std::env::temp_dir().join(format!("flinklint-cache-names-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut index = Index {
            written: 7,
            ..Index::default()
        };
        let summary = crate::semantic::deploy::context::Summary {
            global: true,
            defs: vec!["a\nb".into(), "c\\n".into()],
            uses: vec!["plain".into()],
            fundefs: vec![],
            calls: vec!["\\".into(), "plain".into()],
        };
        let compact = Compact::new(&summary, &mut index.names);
        index.entries.insert(
            "/p/x.sql".to_string(),
            Entry {
                size: 3,
                mtime: u128::from(u64::MAX) + 5,
                hash: u128::MAX,
                summary: compact,
            },
        );
        write_index(&dir, &index);
        let read = read_index(&dir.join(FILE_NAME)).expect("the cache just written is read");
        // Its header alone says how many files it holds.
        assert_eq!(index_entries(&dir.join(FILE_NAME)), Some(1));
        // A file of anything else is neither read nor counted.
        std::fs::write(dir.join("other"), "x".repeat(10_000)).unwrap();
        assert!(read_index(&dir.join("other")).is_none());
        assert_eq!(index_entries(&dir.join("other")), None);
        let _ = std::fs::remove_dir_all(&dir);
        let e = &read.entries["/p/x.sql"];
        assert_eq!(
            (e.size, e.mtime, e.hash),
            (3, u128::from(u64::MAX) + 5, u128::MAX)
        );
        assert!(e.summary.global);
        let names = |ids: &[u32]| -> Vec<String> {
            ids.iter()
                .map(|&n| read.names.name(n).to_string())
                .collect()
        };
        assert_eq!(names(e.summary.defs()), ["a\nb", "c\\n"]);
        assert_eq!(names(e.summary.uses()), ["plain"]);
        assert!(e.summary.fundefs().is_empty());
        assert_eq!(names(e.summary.calls()), ["\\", "plain"]);
    }

    #[test]
    fn pieces_of_whole_lines_give_the_lines_in_order() {
        let text = "a\nbb\n\nccc\ndddd";
        let whole: Vec<&str> = text.split_terminator('\n').collect();
        for size in 1..=text.len() + 1 {
            let pieces = super::line_pieces(text, size);
            assert_eq!(pieces.concat(), text);
            let lines: Vec<&str> = pieces
                .iter()
                .flat_map(|p| p.split_terminator('\n'))
                .collect();
            assert_eq!(lines, whole, "pieces of {size}");
        }
        assert!(super::line_pieces("", 4).is_empty());
    }

    #[test]
    fn entries_with_bad_numbers_are_not_read() {
        let ok = "/p\t1\t2\tff\t-\t0 1\t\t\t1";
        assert!(parse_entry(ok, 2, &mut Vec::new()).is_some());
        for bad in [
            "/p\t1\t2\tff\t-\t0 2\t\t\t1",
            "/p\t1\t2\tff\t-\t0  1\t\t\t1",
            "/p\t1\t2\tff\t-\t0 1 \t\t\t1",
            "/p\t-1\t2\tff\t-\t\t\t\t",
            "/p\t1\t2\tfg\t-\t\t\t\t",
            "/p\t1\t2\tff\tx\t\t\t\t",
            "/p\t1\t2\tff\t-\t\t\t\t\t",
            "/p\t1\t2\tff\t-\t\t\t",
            "/p\t99999999999999999999999999999999999999999\t2\tff\t-\t\t\t\t",
            "/p\t1\t2\tff\t-\t1234567890\t\t\t",
        ] {
            assert!(parse_entry(bad, 2, &mut Vec::new()).is_none(), "{bad:?}");
        }
        assert_eq!(unescape("a\\nb\\\\"), Some("a\nb\\".to_string()));
        assert_eq!(unescape("a\\x"), None);
        assert_eq!(unescape("a\\"), None);
    }
}

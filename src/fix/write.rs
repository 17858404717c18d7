//! Writing fixed texts back to their files without damaging them.
//!
//! A file is replaced atomically: the new text goes to a temporary file in the same directory,
//! which gets the original's owner, group and permissions, is flushed to disk, and is then
//! renamed over the original. A reader sees the old text or the new one, never a mix, and an
//! interruption leaves the original untouched. What makes the file the user's is kept:
//!
//! - A symbolic link is written through: its target gets the new text, the link stays a link.
//! - A file with several hard links keeps them: renaming a new file over one name would split
//!   it from the others, so the new text, fully prepared in memory, is written into the file
//!   itself (same inode). The trade-off: that write is not atomic, and an interruption during
//!   it (a crash, a full disk) can leave the file partly written.
//! - When the new file cannot be given the original's owner and group (changing the owner
//!   needs privileges a user running flinklint may lack), the file is written in place the
//!   same way, so that it keeps its owner, and the caller is told ([`Written::InPlace`] with
//!   [`InPlaceReason::Owner`]).
//!
//! Temporary files are named `.<start of the file's name>.flinklint-<pid>-<n>.tmp`: at most
//! 64 bytes of the name are kept, so that the temporary name stays within file-system limits
//! whatever the length of the original's. A run that was killed leaves its temporary file
//! behind; [`Writer`] removes such files in each directory it writes to, but only those whose
//! writing process is gone (on Unix: no process with that id exists, and no process holds the
//! lock a writer keeps on its temporary file while it writes).

use std::collections::HashSet;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes of the original file name kept in a temporary file's name.
const NAME_PREFIX_MAX: usize = 64;

/// How a file was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// A temporary file was renamed over the file (or created it when it did not exist).
    Replaced,
    /// The file's own contents were overwritten (the file itself kept), and why.
    InPlace(InPlaceReason),
}

/// Why a file was written in place rather than replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InPlaceReason {
    /// It has this many hard links, which a new file would split.
    HardLinks(u64),
    /// A new file could not be given its owner and group; the error says why.
    Owner(String),
}

/// Writes files, removing stale temporary files of earlier, killed runs once per directory.
#[derive(Debug, Default)]
pub struct Writer {
    cleaned: HashSet<PathBuf>,
    /// Stale temporary files removed so far.
    pub removed: Vec<PathBuf>,
}

impl Writer {
    /// A writer that has cleaned no directory yet.
    pub fn new() -> Writer {
        Writer::default()
    }

    /// Writes `text` to `path` as the [module documentation](self) describes: through a
    /// symbolic link to its target, atomically when the file allows it, keeping its owner,
    /// group, permissions and hard links.
    ///
    /// Errors: any I/O error (a file written atomically is then left untouched); a path that
    /// names something other than a regular file.
    pub fn write(&mut self, path: &Path, text: &str) -> io::Result<Written> {
        let target = resolve_links(path)?;
        let meta = match std::fs::metadata(&target) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        if meta.as_ref().is_some_and(|m| !m.is_file()) {
            return Err(io::Error::other("not a regular file"));
        }
        if let Some(links) = meta.as_ref().map(hard_links).filter(|&n| n > 1) {
            write_in_place(&target, text)?;
            return Ok(Written::InPlace(InPlaceReason::HardLinks(links)));
        }
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if self.cleaned.insert(dir.clone()) {
            self.removed.extend(remove_stale_temp_files(&dir));
        }
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (tmp, file) = create_temp(&dir, &name)?;
        match replace(file, &tmp, &target, meta.as_ref(), text) {
            Ok(()) => Ok(Written::Replaced),
            Err(Failure::Owner(e)) => {
                let _ = std::fs::remove_file(&tmp);
                write_in_place(&target, text)?;
                Ok(Written::InPlace(InPlaceReason::Owner(e.to_string())))
            }
            Err(Failure::Io(e)) => {
                let _ = std::fs::remove_file(&tmp);
                Err(e)
            }
        }
    }
}

/// Writes `text` to `path` with a [`Writer`] of its own (see [`Writer::write`]).
///
/// Errors: as [`Writer::write`].
pub fn write_atomically(path: &Path, text: &str) -> io::Result<Written> {
    Writer::new().write(path, text)
}

/// Why replacing failed: the owner could not be kept (the caller writes in place), or another
/// I/O error.
enum Failure {
    Owner(io::Error),
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

/// Gives the temporary file the original's owner, group and permissions, writes and flushes
/// the text, and renames it over `target`.
fn replace(
    mut file: File,
    tmp: &Path,
    target: &Path,
    meta: Option<&Metadata>,
    text: &str,
) -> Result<(), Failure> {
    if let Some(meta) = meta {
        keep_owner(&file, meta).map_err(Failure::Owner)?;
        // After the owner: changing the owner can clear the set-user-id and set-group-id bits.
        file.set_permissions(meta.permissions())?;
    }
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(tmp, target)?;
    // The rename is durable once the directory is flushed (not every system can flush one).
    if let Some(dir) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// The file a path names, through symbolic links (the path itself when it is none, or does
/// not exist yet).
///
/// Errors: a symbolic link whose target does not exist; an unreadable link.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("the symbolic link's target cannot be resolved: {e}"),
            )
        }),
        _ => Ok(path.to_path_buf()),
    }
}

/// Overwrites the file's contents with `text` (the file itself, its inode, is kept).
fn write_in_place(target: &Path, text: &str) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(target)?;
    file.write_all(text.as_bytes())?;
    file.set_len(text.len() as u64)?;
    file.sync_all()
}

/// Creates a new temporary file in `dir` for a file named `name`, locked while it is written.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut prefix_end = name.len().min(NAME_PREFIX_MAX);
    while !name.is_char_boundary(prefix_end) {
        prefix_end -= 1;
    }
    let prefix = &name[..prefix_end];
    let mut last = None;
    for _ in 0..64 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(
            ".{prefix}.flinklint-{}-{n}.tmp",
            std::process::id()
        ));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => {
                lock(&file);
                return Ok((tmp, file));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary file name")))
}

/// The process id in a temporary file name of flinklint's (`.<name>.flinklint-<pid>-<n>.tmp`,
/// or `.<name>.flinklint-<pid>.tmp` as earlier versions named them).
fn temp_file_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, ids) = rest.rsplit_once(".flinklint-")?;
    let (pid, n) = ids.split_once('-').unwrap_or((ids, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(pid) || !digits(n) {
        return None;
    }
    pid.parse().ok()
}

/// Removes the temporary files of flinklint's in `dir` whose writing process is gone; returns
/// their paths. Files of running processes, and anything that is not a regular file named as
/// flinklint names its temporary files, are left alone.
pub fn remove_stale_temp_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let own = std::process::id();
    let mut removed = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temp_file_pid) else {
            continue;
        };
        let path = entry.path();
        let regular = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
        if pid != own && regular && writer_gone(&path, pid) && std::fs::remove_file(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}

#[cfg(unix)]
fn hard_links(meta: &Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn hard_links(_meta: &Metadata) -> u64 {
    1
}

/// Gives `file` the owner and group of `meta` (nothing to do when it has them already).
#[cfg(unix)]
fn keep_owner(file: &File, meta: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let now = file.metadata()?;
    if (now.uid(), now.gid()) == (meta.uid(), meta.gid()) {
        return Ok(());
    }
    std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid()))
}

#[cfg(not(unix))]
fn keep_owner(_file: &File, _meta: &Metadata) -> io::Result<()> {
    Ok(())
}

/// Takes the lock a writer holds on its temporary file (best effort: a file system without
/// locks leaves only the process-id check).
#[cfg(unix)]
fn lock(file: &File) {
    let _ = rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive);
}

#[cfg(not(unix))]
fn lock(_file: &File) {}

/// Whether the process that wrote the temporary file `path` is gone: no process has its id,
/// and nobody holds the writer's lock on the file.
#[cfg(unix)]
fn writer_gone(path: &Path, pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    if rustix::process::test_kill_process(pid) != Err(rustix::io::Errno::SRCH) {
        return false;
    }
    File::open(path).is_ok_and(|f| {
        rustix::fs::flock(&f, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_ok()
    })
}

/// Elsewhere, whether a process is running is not known: temporary files are kept.
#[cfg(not(unix))]
fn writer_gone(_path: &Path, _pid: u32) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_file_names_are_recognised() {
        assert_eq!(temp_file_pid(".a.sql.flinklint-123-4.tmp"), Some(123));
        assert_eq!(temp_file_pid(".a.sql.flinklint-123.tmp"), Some(123));
        assert_eq!(
            temp_file_pid(".x.flinklint-y.sql.flinklint-9-0.tmp"),
            Some(9)
        );
        assert_eq!(temp_file_pid("a.sql.flinklint-123-4.tmp"), None);
        assert_eq!(temp_file_pid(".a.sql.flinklint-12x-4.tmp"), None);
        assert_eq!(temp_file_pid(".a.sql.flinklint--4.tmp"), None);
        assert_eq!(temp_file_pid(".a.sql.flinklint-1-.tmp"), None);
        assert_eq!(temp_file_pid(".a.sql.tmp"), None);
    }
}

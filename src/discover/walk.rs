//! Walking a folder for input files, with `.gitignore` applied.
//!
//! The walk is `walkdir`'s (sorted by file name, following symbolic links, never into a loop).
//! It never descends into the kernel's pseudo file systems, `/proc`, `/sys` and `/dev`
//! ([`PSEUDO_FILE_SYSTEMS`], by canonical path): a link to one of them (`ln -s /proc p`) would
//! make a run read hundreds of thousands of files that hold no SQL. Links to other folders
//! are followed (a monorepo links shared folders).
//! The ignore files are read here, each one at most once per walk and only when it is a
//! regular file of at most [`SMALL_LIMIT`] bytes ([`crate::files::read_file`]): a `.gitignore`
//! that is a named pipe or a link to `/dev/zero` must not stall or exhaust a run. Their
//! patterns are matched as git matches them, by the `ignore` crate's [`Gitignore`].
//!
//! Which rules apply to a path follows git (and the `ignore` crate, which this replaces for
//! reading): the `.gitignore` files of the path's folders, from the nearest up to the root of
//! the git work tree that holds it (the first folder with a `.git`; without one, up to the
//! file system's root), the nearest file with a matching pattern deciding; then the work
//! tree's `.git/info/exclude`. A folder's `.gitignore` applies to the files below it only.
//!
//! What a walk skips for a reason the user may not expect (a symbolic-link loop, an unreadable
//! folder, a `.sql` entry that is not a regular file, an ignore file that cannot be read) is
//! printed once per run as a note on standard error; the rest of the walk goes on.

use super::Input;
use crate::config::glob::PathMatcher;
use crate::config::Settings;
use crate::files::{read_file, regular_file, ReadError, SMALL_LIMIT};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Directory names never descended into.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// Folders never walked, whatever link leads there: the pseudo file systems of Linux.
const PSEUDO_FILE_SYSTEMS: &[&str] = &["/proc", "/sys", "/dev"];

/// Whether the folder `path` (the walk's root, or a symbolic link) resolves into one of the
/// [`PSEUDO_FILE_SYSTEMS`]; a note on standard error says so.
fn into_pseudo_file_system(path: &Path) -> bool {
    if !cfg!(unix) {
        return false;
    }
    let Ok(real) = std::fs::canonicalize(path) else {
        return false;
    };
    match PSEUDO_FILE_SYSTEMS
        .iter()
        .find(|root| real.starts_with(Path::new(root)))
    {
        Some(root) => {
            note(
                path,
                &format!("it leads into {root}, a pseudo file system, which is never walked"),
            );
            true
        }
        None => false,
    }
}

/// Adds the files under the folder `dir` to `inputs`, sorted by path, skipping what `exclude`
/// matches (paths relative to the project root).
pub(super) fn walk(
    dir: &Path,
    settings: &Settings,
    exclude: &PathMatcher,
    inputs: &mut Vec<Input>,
) {
    walk_to(dir, settings, exclude, None, inputs);
}

/// [`walk`] down to `max_depth` levels (1: the folder's own files), or all.
pub(super) fn walk_to(
    dir: &Path,
    settings: &Settings,
    exclude: &PathMatcher,
    max_depth: Option<usize>,
    inputs: &mut Vec<Input>,
) {
    walk_each(dir, settings, exclude, max_depth, |path, _| {
        inputs.push(Input::File(path))
    });
}

/// [`walk_to`], giving each file's path and whether the entry itself is a symbolic link (as
/// the walk saw it: no further system call).
pub(super) fn walk_each(
    dir: &Path,
    settings: &Settings,
    exclude: &PathMatcher,
    max_depth: Option<usize>,
    mut found: impl FnMut(PathBuf, bool),
) {
    // The folder's path relative to the project root, computed once; entries add their part.
    let base = (!exclude.is_empty()).then(|| settings.relative_path(dir));
    let mut rules = settings.respect_gitignore.then(|| IgnoreRules::new(dir));
    // Sorted by file name: the entries of one folder share its path up to their names, so
    // their paths compare as their names do (`DirEntry::file_name` parses the path each time).
    let mut walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()));
    if let Some(depth) = max_depth {
        walker = walker.max_depth(depth);
    }
    let walker = walker.into_iter().filter_entry(|e| {
        let is_dir = e.file_type().is_dir();
        if is_dir && (e.depth() == 0 || e.path_is_symlink()) && into_pseudo_file_system(e.path()) {
            return false;
        }
        if e.depth() == 0 {
            return true;
        }
        if is_dir && is_skipped_dir(e.file_name()) {
            return false;
        }
        let rest = below(dir, e.path());
        if let Some(base) = &base {
            if exclude.matches(&base.join(rest), is_dir) {
                return false;
            }
        }
        rules
            .as_mut()
            .is_none_or(|rules| !rules.ignores(rest, is_dir))
    });
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                // A symbolic-link loop, a broken link, a folder that cannot be listed.
                if let Some(path) = e.path() {
                    let why = match e.loop_ancestor() {
                        Some(ancestor) => {
                            format!("a symbolic link to its own ancestor {}", ancestor.display())
                        }
                        None => e
                            .io_error()
                            .map_or_else(|| e.to_string(), ToString::to_string),
                    };
                    note(path, &why);
                }
                continue;
            }
        };
        if !has_extension(entry.path(), &settings.extensions) {
            continue;
        }
        let file_type = entry.file_type();
        if file_type.is_file() {
            let link = entry.path_is_symlink();
            found(entry.into_path(), link);
        } else if !file_type.is_dir() {
            // A named pipe or a device (or a link to one) with a SQL name.
            if let Err(e) = regular_file(entry.path()) {
                note(entry.path(), &e.to_string());
            }
        }
    }
}

/// `path` relative to `dir`, the folder it was walked from: the bytes after `dir/` when the
/// path is text (one comparison; `Path::strip_prefix` compares component by component), else
/// by components.
fn below<'p>(dir: &Path, path: &'p Path) -> &'p Path {
    if let (Some(d), Some(p)) = (dir.to_str(), path.to_str()) {
        if let Some(rest) = p.strip_prefix(d) {
            let rest = if d.ends_with('/') {
                Some(rest)
            } else {
                rest.strip_prefix('/')
            };
            if let Some(rest) = rest.filter(|r| !r.starts_with('/')) {
                return Path::new(rest);
            }
        }
    }
    path.strip_prefix(dir).unwrap_or(path)
}

fn is_skipped_dir(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') || SKIPPED_DIRS.contains(&name.as_ref())
}

pub(super) fn has_extension(path: &Path, extensions: &[String]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Prints `flinklint: note: skipped PATH: WHY` on standard error, once per path and process.
pub(super) fn note(path: &Path, why: &str) {
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<std::collections::HashSet<PathBuf>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    // Once a path as shown: two walks may reach a file as `./x.sql` and as `x.sql`.
    let cwd = std::env::current_dir().unwrap_or_default();
    let shown = super::display_path(&cwd, path);
    let first = seen
        .lock()
        .map_or(true, |mut seen| seen.insert(shown.clone()));
    if first {
        eprintln!(
            "flinklint: note: skipped {}: {}",
            crate::source::escape::path(&shown),
            crate::source::escape::text(why)
        );
    }
}

/// The ignore rules of one folder.
#[derive(Default)]
struct FolderRules {
    /// Its `.gitignore`, when it has one.
    gitignore: Option<Gitignore>,
    /// Its git work tree's `.git/info/exclude`, when the folder is a work tree's root.
    exclude: Option<Gitignore>,
    /// Whether it holds a `.git` (a work tree's root: rules above it do not apply).
    has_git: bool,
}

/// The ignore rules met by one walk, read lazily and kept per folder.
struct IgnoreRules {
    /// The walked folder, made absolute (lexically: symbolic links kept, as walked).
    root: PathBuf,
    /// The walked folder's real path, whose ancestors' rules also apply.
    canonical_root: Option<PathBuf>,
    /// The ancestors of `canonical_root`, nearest first.
    above: Vec<PathBuf>,
    folders: HashMap<PathBuf, Rc<FolderRules>>,
    /// The rules that apply in each folder of the walk, by its path relative to the walked
    /// folder ([`IgnoreRules::chain`]).
    chains: foldhash::HashMap<Vec<u8>, Rc<Chain>>,
    /// The folder asked last, and its rules.
    last: Option<(Vec<u8>, Rc<Chain>)>,
}

/// The rules that apply to a folder's entries, nearest first, each with whether its folder is
/// above the walked one.
type Chain = Vec<(Rc<FolderRules>, bool)>;

impl IgnoreRules {
    fn new(dir: &Path) -> IgnoreRules {
        let canonical_root = std::fs::canonicalize(dir).ok();
        let above = canonical_root
            .as_deref()
            .map(|c| c.ancestors().skip(1).map(Path::to_path_buf).collect())
            .unwrap_or_default();
        IgnoreRules {
            root: crate::config::glob::absolute(dir),
            canonical_root,
            above,
            folders: HashMap::new(),
            chains: Default::default(),
            last: None,
        }
    }

    /// Whether the entry at `rest` (relative to the walked folder) is ignored.
    fn ignores(&mut self, rest: &Path, is_dir: bool) -> bool {
        // The folder: the text before the last `/` (`Path::parent` parses components).
        let parent = match rest.to_str() {
            Some(text) if cfg!(unix) => Path::new(text.rfind('/').map_or("", |at| &text[..at])),
            _ => rest.parent().unwrap_or(Path::new("")),
        };
        let chain = self.chain(parent);
        if chain.is_empty() {
            return false;
        }
        let path = self.root.join(rest);
        let real_path = self.canonical_root.as_ref().map(|c| c.join(rest));
        let mut gitignore = None;
        let mut exclude = None;
        for (rules, is_above) in chain.iter() {
            let candidate = if *is_above {
                real_path.as_deref().unwrap_or(&path)
            } else {
                &path
            };
            if gitignore.is_none() {
                gitignore = decide(rules.gitignore.as_ref(), candidate, is_dir);
            }
            if exclude.is_none() {
                exclude = decide(rules.exclude.as_ref(), candidate, is_dir);
            }
        }
        gitignore.or(exclude).unwrap_or(false)
    }

    /// The rules that apply to the entries of the folder `parent` (relative to the walked
    /// folder): of the folders of the walk that hold them, nearest first, then of the real
    /// folders above the walked one, up to the first work tree's root; only folders that have
    /// rules, each with whether it is above the walked folder. Made once per folder (the last
    /// one kept at hand: a folder's entries come together).
    fn chain(&mut self, parent: &Path) -> Rc<Chain> {
        let key = parent.as_os_str().as_encoded_bytes();
        if let Some((last, chain)) = &self.last {
            if last.as_slice() == key {
                return chain.clone();
            }
        }
        let chain = match self.chains.get(key) {
            Some(chain) => chain.clone(),
            None => {
                let inside: Vec<PathBuf> = std::iter::once(parent)
                    .chain(parent.ancestors().skip(1))
                    .map(|a| {
                        if a.as_os_str().is_empty() {
                            self.root.clone()
                        } else {
                            self.root.join(a)
                        }
                    })
                    .collect();
                let above = std::mem::take(&mut self.above);
                let mut chain = Vec::new();
                for (folder, is_above) in inside
                    .into_iter()
                    .map(|f| (f, false))
                    .chain(above.iter().map(|f| (f.clone(), true)))
                {
                    let rules = self.folder(&folder);
                    let has_git = rules.has_git;
                    let has = |g: &Option<Gitignore>| g.as_ref().is_some_and(|g| !g.is_empty());
                    if has(&rules.gitignore) || has(&rules.exclude) {
                        chain.push((rules, is_above));
                    }
                    if has_git {
                        break;
                    }
                }
                self.above = above;
                let chain = Rc::new(chain);
                self.chains.insert(key.to_vec(), chain.clone());
                chain
            }
        };
        self.last = Some((key.to_vec(), chain.clone()));
        chain
    }

    /// The rules of `folder`, read on first use.
    fn folder(&mut self, folder: &Path) -> Rc<FolderRules> {
        if let Some(rules) = self.folders.get(folder) {
            return rules.clone();
        }
        let has_git = folder.join(".git").exists();
        let rules = Rc::new(FolderRules {
            gitignore: read_ignore_file(folder, &folder.join(".gitignore")),
            exclude: if has_git {
                git_common_dir(folder)
                    .and_then(|common| read_ignore_file(folder, &common.join("info/exclude")))
            } else {
                None
            },
            has_git,
        });
        self.folders.insert(folder.to_path_buf(), rules.clone());
        rules
    }
}

/// `Some(true)` when `rules` ignore `path`, `Some(false)` when a `!pattern` keeps it, `None`
/// when no pattern matches.
fn decide(rules: Option<&Gitignore>, path: &Path, is_dir: bool) -> Option<bool> {
    let m = rules?.matched(path, is_dir);
    (!m.is_none()).then(|| m.is_ignore())
}

/// The patterns of the ignore file `file`, relative to `folder`; `None` when it does not
/// exist, and (with a note) when it cannot be read.
fn read_ignore_file(folder: &Path, file: &Path) -> Option<Gitignore> {
    let bytes = match read_file(file, SMALL_LIMIT) {
        Ok(bytes) => bytes,
        Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            note(file, &format!("{e}; its patterns are not applied"));
            return None;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut builder = GitignoreBuilder::new(folder);
    for (i, line) in text.lines().enumerate() {
        // Git skips a byte-order mark at the start of the file.
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        // A pattern git would not accept is skipped, as git skips it.
        let _ = builder.add_line(Some(file.to_path_buf()), line);
    }
    builder.build().ok()
}

/// The git directory that holds `info/exclude` for the work tree rooted at `folder`: its
/// `.git` folder, or for a linked work tree (`.git` is a file `gitdir: PATH`) that git
/// directory's `commondir`.
fn git_common_dir(folder: &Path) -> Option<PathBuf> {
    let dot_git = folder.join(".git");
    if dot_git.is_dir() {
        return Some(dot_git);
    }
    let text = String::from_utf8(read_file(&dot_git, SMALL_LIMIT).ok()?).ok()?;
    let git_dir = folder.join(text.trim().strip_prefix("gitdir:")?.trim());
    match read_file(&git_dir.join("commondir"), SMALL_LIMIT) {
        Ok(common) => Some(git_dir.join(String::from_utf8(common).ok()?.trim())),
        Err(_) => Some(git_dir),
    }
}

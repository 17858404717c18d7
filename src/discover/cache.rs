//! The context cache: what each file of a project creates and uses
//! ([`crate::semantic::deploy::context::Summary`]), kept between runs, so that a run on a few
//! files (a pre-commit hook, an editor's save) parses only them, the files whose cached
//! entries are stale, and the context files the checked ones need — not the whole project.
//!
//! The cache is one file, `<cache-dir>/context-index`, by default under
//! `.flinklint_cache/` in the project root (config `cache-dir`; `--no-cache` leaves it
//! alone). An entry is keyed by the file's absolute path, size and time (the later of the
//! modification and status-change times, to the nanosecond: see [`stamp`]); when the size or
//! time changed, or the time is within [`RACY`] of when the
//! cache was written (a file written twice within the clock's tick), the file's content hash
//! decides. A header carries flinklint's version, the format, the number of entries and a hash
//! of the body: a cache of another version, or one that is truncated or garbled, is not read
//! (the run parses what it needs and writes a new one). Each writing drops the entries of
//! files that no longer exist. It is written to a temporary file and
//! renamed over the old one: two concurrent runs each leave a whole cache, the last one's.
//!
//! Which files a run must read is decided by
//! [`crate::semantic::deploy::context::needed`]; the findings are those of a run that reads
//! every file of the project.

use super::read::load_with;
use super::Input;
use crate::config::{CatalogMode, Settings};
use crate::files::FileEntry;
use crate::semantic::deploy::context::{summarize, Compact, Graph, Names};
use crate::source::FileId;
use rayon::prelude::*;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

mod format;
use format::{read_index, write_index};

/// The cache file's name in the cache folder.
pub const FILE_NAME: &str = "context-index";
/// The cache folder's name in the project root, by default.
pub const DEFAULT_DIR: &str = ".flinklint_cache";
/// The format of the cache file; with flinklint's version, in its header.
const FORMAT: u32 = 2;
/// A file modified this close to the cache's writing is checked by its content.
pub const RACY: Duration = Duration::from_secs(2);
const MAGIC: &str = "flinklint-context-index";
/// How many files are summed up before their summaries are made compact.
const SUMMARY_BATCH: usize = 4096;

/// One file's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    size: u64,
    mtime: u128,
    hash: u128,
    summary: Compact,
}

/// The cache as read: entries by absolute path, when it was written (ns since the epoch), and
/// the names of the entries' summaries.
#[derive(Debug, Default)]
struct Index {
    written: u128,
    entries: foldhash::HashMap<String, Entry>,
    names: Names,
}

/// The hash of a file's content (128 bits of two fixed-seed hashes).
fn content_hash(bytes: &[u8]) -> u128 {
    let a = foldhash::quality::FixedState::with_seed(0x5eed_f11c_0de1_0001).hash_one(bytes);
    let b = foldhash::quality::FixedState::with_seed(0x0bad_cafe_2026_0002).hash_one(bytes);
    (u128::from(a) << 64) | u128::from(b)
}

fn nanos(t: SystemTime) -> u128 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos())
}

/// A file's time as the cache keys it (ns since the epoch): the later of its modification
/// time and, on Unix, its status-change time. A program can set the modification time back
/// (`touch -d`, `cp -p`, `rsync -t`) so that a changed file of the same size looks unchanged;
/// the status-change time is set by the system whenever the file is written or its times
/// are, and cannot be set back. `0` when the system gives no time.
fn stamp(m: &std::fs::Metadata) -> u128 {
    let modified = m.modified().map_or(0, nanos);
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let changed = u128::try_from(m.ctime())
            .ok()
            .map(|s| s * 1_000_000_000 + u128::try_from(m.ctime_nsec()).unwrap_or(0));
        if modified != 0 {
            return modified.max(changed.unwrap_or(0));
        }
    }
    modified
}

/// Whether a run keeps the context cache: a `cache-dir` is configured, or the project root is
/// marked (a config file, a git work tree). A folder that is neither (a home directory, `/tmp`)
/// gets no `.flinklint_cache/` written into it, and its runs read no cache.
pub fn enabled(settings: &Settings) -> bool {
    if settings.cache_dir.is_some() || settings.config_file.is_some() {
        return true;
    }
    let root = match &settings.root {
        Some(root) => root.clone(),
        None => super::project_root(&super::current_dir()),
    };
    root.join(".git").exists()
}

/// The cache folder of a run: `cache-dir` from the configuration, else `.flinklint_cache` in
/// the project root (the config file's folder, or the git work tree's).
pub fn cache_dir(settings: &Settings) -> PathBuf {
    if let Some(dir) = &settings.cache_dir {
        return dir.clone();
    }
    let root = match &settings.root {
        Some(root) => root.clone(),
        None => super::project_root(&super::current_dir()),
    };
    crate::config::glob::absolute(&root.join(DEFAULT_DIR))
}

/// What the selection did (for `--verbose`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Selected {
    /// Files whose entry was missing or stale, parsed to sum them up.
    pub parsed: usize,
    /// Context files the run needs.
    pub needed: usize,
    /// Context files in all.
    pub context: usize,
}

/// The summaries of a project's files ([`Compact`], names in `names`), from the cache where
/// its entries are fresh, else from each file's parse.
#[derive(Debug, Default)]
pub struct Summed {
    /// One per file, in the order given.
    pub summaries: Vec<Compact>,
    /// Their names.
    pub names: Names,
    /// How many files were parsed (their entry missing or stale).
    pub parsed: usize,
}

/// The cache's index read ahead ([`read_ahead`]): a run reads it while it walks the project's
/// folders (a walk keeps one core busy), then hands it to the first step that sums files up
/// ([`select_context`], [`crate::discover::stream::check_chunked`]).
#[derive(Debug, Default)]
pub struct Ahead(Option<Index>);

/// Reads the index of the cache in `dir` as [`summarize_files`] would (a missing, foreign or
/// damaged one is empty), when its header says it holds more than `entries` files: `None`
/// (not read) for a smaller project, whose run may never need it and reads it in a moment
/// when it does.
pub fn read_ahead(dir: &Path, entries: usize) -> Option<Ahead> {
    let path = dir.join(FILE_NAME);
    (format::index_entries(&path)? > entries).then(|| Ahead(read_index(&path)))
}

/// Sums up `files`, using and refreshing the cache in `dir` (`None`: no cache, every file
/// parsed), whose index `ahead` holds when it was read already. Files are parsed in parallel,
/// each syntax tree dropped once summed up.
pub fn summarize_files(files: &[&Input], dir: Option<&Path>, ahead: Option<Ahead>) -> Summed {
    let cache_file = dir.map(|d| d.join(FILE_NAME));
    let now = SystemTime::now();
    let cwd = super::current_dir();
    let use_cache = dir.is_some();
    // The cache is read while the files' keys and times are taken (both in parallel).
    let (mut old, keyed) = rayon::join(
        || match (ahead, use_cache) {
            (Some(Ahead(index)), true) => index.unwrap_or_default(),
            _ => cache_file
                .as_deref()
                .and_then(read_index)
                .unwrap_or_default(),
        },
        || {
            // Without the cache, neither keys nor times are needed.
            if !use_cache {
                return vec![(None, None); files.len()];
            }
            files
                .par_iter()
                .map(|input| {
                    let key = key_in(&cwd, input.path());
                    let stat = std::fs::metadata(input.path())
                        .ok()
                        .map(|m| (m.len(), stamp(&m)));
                    (key, stat)
                })
                .collect::<Vec<_>>()
        },
    );
    // Each file's summary: from its entry when the entry is fresh, else from its parse. In
    // batches: the summaries of parsed files are made compact batch by batch (names interned
    // in the files' order, as one pass would), so a first run over a large project never
    // holds every file's full summary at once.
    let mut looked: Vec<(Option<String>, Looked)> = Vec::with_capacity(files.len());
    let mut keyed = keyed.into_iter();
    for batch in files.chunks(SUMMARY_BATCH) {
        let keys: Vec<_> = keyed.by_ref().take(batch.len()).collect();
        let part: Vec<(Option<String>, Looked)> = batch
            .par_iter()
            .zip(keys)
            .map(|(input, (key, stat))| {
                let cached = key.as_ref().and_then(|k| old.entries.get(k));
                if let (Some(e), Some((size, mtime))) = (cached, stat) {
                    let racy = mtime + RACY.as_nanos() >= old.written;
                    if e.size == size && e.mtime == mtime && mtime != 0 && !racy {
                        return (key, Looked::Fresh);
                    }
                }
                // Summed up and dropped: no line index.
                let (source, load_error) = load_with(input, None, false);
                let bytes = source.text.as_bytes();
                // The content hash checks an entry, or keys a new one: not needed without a key.
                let hash = match key {
                    Some(_) => content_hash(bytes),
                    None => 0,
                };
                if let Some(e) = cached {
                    if load_error.is_none() && e.hash == hash && e.size == bytes.len() as u64 {
                        return (key, Looked::Verified(stat.map_or(0, |s| s.1)));
                    }
                }
                let (parsed, dialect) = crate::files::parse(&source);
                let unreadable = load_error.is_some();
                let entry = FileEntry {
                    id: FileId(0),
                    source,
                    parsed,
                    dialect,
                    load_error,
                    report: false,
                    base_of: None,
                };
                let summary = summarize(&entry);
                let size = bytes_len(&entry);
                drop(entry);
                // A file that changed while it was read is summed up but not cached (a file
                // without a key is not cached at all).
                let cacheable = !unreadable
                    && key.is_some()
                    && stat.is_some()
                    && std::fs::metadata(input.path())
                        .ok()
                        .map(|m| (m.len(), stamp(&m)))
                        == stat;
                let fields = cacheable.then(|| (size, stat.map_or(0, |s| s.1), hash));
                (key, Looked::Parsed(Box::new((summary, fields))))
            })
            .collect();
        for (key, how) in part {
            let how = match how {
                Looked::Parsed(found) => {
                    let (summary, fields) = *found;
                    Looked::Compacted(Compact::new(&summary, &mut old.names), fields)
                }
                other => other,
            };
            looked.push((key, how));
        }
    }
    let parsed = looked
        .iter()
        .filter(|l| matches!(l.1, Looked::Compacted(..)))
        .count();
    let changed = looked
        .iter()
        .any(|l| !matches!(l.1, Looked::Fresh) && l.0.is_some());
    // The files this run read, when the index is written again (see below).
    let seen: foldhash::HashSet<String> = if changed && dir.is_some() {
        looked.iter().filter_map(|l| l.0.clone()).collect()
    } else {
        foldhash::HashSet::default()
    };
    let mut summaries = Vec::with_capacity(files.len());
    for (key, how) in looked {
        let entry = key.as_ref().and_then(|k| old.entries.get_mut(k));
        match (how, entry) {
            // Taken out of the cache when it is not written again.
            (Looked::Fresh, Some(e)) if !changed => summaries.push(std::mem::take(&mut e.summary)),
            (Looked::Fresh, Some(e)) => summaries.push(e.summary.clone()),
            (Looked::Verified(mtime), Some(e)) => {
                e.mtime = mtime;
                summaries.push(e.summary.clone());
            }
            (Looked::Compacted(compact, fields), _) => {
                if let (Some(k), Some((size, mtime, hash))) = (key, fields) {
                    if mtime != 0 {
                        old.entries.insert(
                            k,
                            Entry {
                                size,
                                mtime,
                                hash,
                                summary: compact.clone(),
                            },
                        );
                    }
                }
                summaries.push(compact);
            }
            // Not reached: a fresh or verified file has its entry, a parsed one is compact.
            (Looked::Parsed(_), _) | (_, None) => summaries.push(Compact::default()),
        }
    }
    if let (true, Some(dir)) = (changed, dir) {
        // Entries of files that are gone (deleted, renamed) go with this writing: the index
        // does not grow with a project's history. A file this run did not read (a run on a
        // part of the project) keeps its entry while it exists.
        old.entries
            .retain(|k, _| seen.contains(k.as_str()) || Path::new(k).exists());
        old.written = nanos(now);
        write_index(dir, &old);
    }
    let names = std::mem::take(&mut old.names);
    Summed {
        summaries,
        names,
        parsed,
    }
}

/// Which history each of `files` belongs to (a number per history), as the whole project
/// groups them ([`crate::semantic::history::plan_paths`]), and the plan itself.
pub fn histories_of(
    files: &[&Input],
    settings: &Settings,
) -> (crate::semantic::history::Plan, Vec<Option<u32>>) {
    let plan = crate::semantic::history::plan_paths(
        files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f.path())),
        settings,
    );
    let mut history = vec![None; files.len()];
    for (k, h) in plan.histories.iter().enumerate() {
        for id in &h.files {
            history[id.0 as usize] = Some(k as u32);
        }
    }
    (plan, history)
}

/// Whether the files `kept` picks out of `files` (their indices, in order) fall into the same
/// histories, in the same order, as in the whole project (`plan`, `history`: [`histories_of`]
/// of `files`). Linear in the files kept.
pub fn same_histories(
    files: &[&Input],
    kept: &[usize],
    plan: &crate::semantic::history::Plan,
    history: &[Option<u32>],
    settings: &Settings,
) -> bool {
    let sub = crate::semantic::history::plan_paths(
        kept.iter()
            .enumerate()
            .map(|(j, &i)| (FileId(j as u32), files[i].path())),
        settings,
    );
    // The histories whose first file is kept.
    let first_kept = kept
        .iter()
        .filter(|&&i| {
            history[i].is_some_and(|k| {
                plan.histories[k as usize]
                    .files
                    .first()
                    .is_some_and(|f| f.0 as usize == i)
            })
        })
        .count();
    sub.histories.len() == first_kept
        && sub.histories.iter().all(|h| {
            let Some(first) = h.files.first() else {
                return false;
            };
            let original = kept[first.0 as usize];
            history[original].is_some_and(|k| {
                let whole = &plan.histories[k as usize].files;
                whole.len() == h.files.len()
                    && whole
                        .iter()
                        .zip(&h.files)
                        .all(|(a, b)| a.0 as usize == kept[b.0 as usize])
            })
        })
}

/// The context files a run on `inputs` needs, in their order, using and refreshing the cache
/// in `dir` (its index `ahead` when it was read already). Every context file is needed when
/// an input is standard input or the deployment model is `catalog: persistent` (every script
/// sees every earlier one), and when the selection would group the files into histories
/// otherwise than the whole project does.
pub fn select_context(
    inputs: &[Input],
    context: &[Input],
    settings: &Settings,
    dir: &Path,
    ahead: Option<Ahead>,
) -> (Vec<Input>, Selected) {
    let all_needed = |parsed| {
        (
            context.to_vec(),
            Selected {
                parsed,
                needed: context.len(),
                context: context.len(),
            },
        )
    };
    if context.is_empty()
        || settings.catalog == CatalogMode::Persistent
        || !settings.external_tables.is_empty()
        || inputs.iter().any(|i| matches!(i, Input::Stdin(_)))
    {
        return all_needed(0);
    }
    let files: Vec<&Input> = inputs.iter().chain(context).collect();
    let summed = summarize_files(&files, Some(dir), ahead);
    let parsed = summed.parsed;
    let (plan, history) = histories_of(&files, settings);
    let graph = Graph::new(&summed.summaries, &history, summed.names.len());
    let mut seeds: Vec<usize> = (0..inputs.len()).map(|i| graph.unit_of[i]).collect();
    seeds.extend(&graph.global);
    let mut keep = vec![false; files.len()];
    for u in graph
        .walker()
        .closure(&seeds, usize::MAX)
        .unwrap_or_default()
    {
        for &i in &graph.units[u] {
            keep[i] = true;
        }
    }
    let chosen: Vec<Input> = context
        .iter()
        .enumerate()
        .filter(|(k, _)| keep[inputs.len() + k])
        .map(|(_, i)| i.clone())
        .collect();
    // The chosen files must fall into the same histories, in the same order, as in the whole
    // project: else every file is read.
    let kept: Vec<usize> = (0..files.len()).filter(|&i| keep[i]).collect();
    if !same_histories(&files, &kept, &plan, &history, settings) {
        return all_needed(parsed);
    }
    let needed = chosen.len();
    (
        chosen,
        Selected {
            parsed,
            needed,
            context: context.len(),
        },
    )
}

/// For an editor's first check of a project: the context files a check of `inputs` (the open
/// documents) needs, chosen as [`select_context`] chooses them, but only when the cache in
/// `dir` is warm: at most `max_stale` files have no fresh entry (each would have to be parsed,
/// and a cold cache costs as much as checking everything). `None` when the cache is missing or
/// cold, or when every context file is needed all the same. Entries are trusted as
/// [`select_context`] trusts them: size and time to the nanosecond, the content hash where the
/// time is too close to the cache's writing.
pub fn warm_context(
    inputs: &[Input],
    context: &[Input],
    settings: &Settings,
    dir: &Path,
    max_stale: usize,
) -> Option<(Vec<Input>, Selected)> {
    if context.is_empty()
        || settings.catalog == CatalogMode::Persistent
        || !settings.external_tables.is_empty()
    {
        return None;
    }
    let old = read_index(&dir.join(FILE_NAME))?;
    let stale = inputs
        .par_iter()
        .chain(context.par_iter())
        .filter(|input| {
            let path = input.path();
            let fresh = path
                .to_str()
                .and_then(|k| old.entries.get(k))
                .is_some_and(|e| {
                    std::fs::metadata(path)
                        .is_ok_and(|m| e.size == m.len() && e.mtime == stamp(&m) && e.mtime != 0)
                });
            !fresh
        })
        .count();
    if stale > max_stale {
        return None;
    }
    let (chosen, selected) = select_context(inputs, context, settings, dir, Some(Ahead(Some(old))));
    (selected.needed < selected.context).then_some((chosen, selected))
}

/// Records in the cache in `dir` the summaries of files an editor has parsed (`files`: their
/// absolute paths, texts and parses): each file whose entry is missing or stale and whose
/// content on disk is the text that was parsed (read again and compared, the file's size and
/// time unchanged around the read: an unsaved buffer, or a file changed since, is left out).
/// Returns how many entries were written.
pub fn record(dir: &Path, files: &[FileEntry]) -> usize {
    let old = read_index(&dir.join(FILE_NAME)).unwrap_or_default();
    // Taken before any file is read: a file changed after it is checked by its content.
    let now = SystemTime::now();
    let entries: Vec<(
        String,
        u64,
        u128,
        u128,
        crate::semantic::deploy::context::Summary,
    )> = files
        .par_iter()
        .filter_map(|f| {
            let path = f.source.path.as_path();
            let key = path
                .to_str()
                .filter(|p| path.is_absolute() && !p.contains(['\t', '\n', '\r']))?;
            if f.load_error.is_some() {
                return None;
            }
            let stat = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.len(), stamp(&m)));
            let (size, mtime) = stat(path)?;
            if let Some(e) = old.entries.get(key) {
                let racy = mtime + RACY.as_nanos() >= old.written;
                if e.size == size && e.mtime == mtime && mtime != 0 && !racy {
                    return None;
                }
            }
            let bytes = crate::files::read_file(path, crate::files::SQL_LIMIT).ok()?;
            if bytes != f.source.text.as_bytes() || stat(path) != Some((size, mtime)) || mtime == 0
            {
                return None;
            }
            Some((
                key.to_string(),
                size,
                mtime,
                content_hash(&bytes),
                summarize(f),
            ))
        })
        .collect();
    if entries.is_empty() {
        return 0;
    }
    let written = entries.len();
    let mut index = old;
    // An old entry written too close to its file's time was to be checked by its content;
    // with the later time of this writing it would be trusted: it goes (unless written anew).
    let old_written = index.written;
    index
        .entries
        .retain(|_, e| e.mtime + RACY.as_nanos() < old_written);
    index.written = nanos(now);
    for (key, size, mtime, hash, summary) in entries {
        let summary = Compact::new(&summary, &mut index.names);
        index.entries.insert(
            key,
            Entry {
                size,
                mtime,
                hash,
                summary,
            },
        );
    }
    write_index(dir, &index);
    written
}

/// A file's summary from its parse, and what keys its entry (size, time, content hash) when
/// it can be cached.
type FromParse = (
    crate::semantic::deploy::context::Summary,
    Option<(u64, u128, u128)>,
);

/// How a file's summary was had.
#[derive(Debug)]
enum Looked {
    /// From its entry: size and time unchanged.
    Fresh,
    /// From its entry: size or time changed (now this time), the content did not.
    Verified(u128),
    /// From its parse: the summary, and what keys its entry (size, time, content hash) when
    /// it can be cached.
    Parsed(Box<FromParse>),
    /// From its parse, made compact: the summary, and what keys its entry.
    Compacted(Compact, Option<(u64, u128, u128)>),
}

/// A file's key in the cache: its path made absolute against `cwd` (the text `cwd/path` for
/// a clean relative path, else [`absolute_in`]); `None` for a path that is not text or that
/// holds a tab or a line break (the cache could not write it).
fn key_in(cwd: &Path, path: &Path) -> Option<String> {
    let text = path.to_str()?;
    let clean = cfg!(unix) && super::clean_relative(text, false);
    let key = match (clean, cwd.to_str()) {
        (true, Some(dir)) if dir.starts_with('/') && !dir.ends_with('/') => {
            let mut key = String::with_capacity(dir.len() + 1 + text.len());
            key.push_str(dir);
            key.push('/');
            key.push_str(text);
            key
        }
        _ => absolute_in(cwd, path).to_str()?.to_string(),
    };
    (!key.contains(['\t', '\n', '\r'])).then_some(key)
}

/// `path` made absolute against `cwd` (without asking the system for the working directory
/// for each file), `.` and `..` resolved by name.
fn absolute_in(cwd: &Path, path: &Path) -> PathBuf {
    use std::path::Component;
    let joined = cwd.join(path);
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn bytes_len(entry: &FileEntry) -> u64 {
    entry.source.text.len() as u64
}

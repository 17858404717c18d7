//! The library's entry point: a project held in memory, and the pipeline that checks it.
//!
//! A [`Project`] holds the texts of a project's files (shared `Arc<str>`; an editor's unsaved
//! buffer replaces the file's text on disk by [`Project::set_file`]), the settings, and the
//! last analysis. It can add, replace and remove files, re-check, and answer what an editor
//! asks: a table's expanded definition (`SHOW CREATE`), its columns (`DESCRIBE`), and where it
//! is defined ([`lookup`]). Nothing here reads the disk, the environment or the working
//! directory: discovering and reading files ([`crate::discover`]), rendering and exit codes
//! are the command line's thin layer on this module.
//!
//! The pipeline ([`analyse_files`]) runs on a thread pool: every file is lexed and parsed (in
//! parallel), the semantic model is built (histories in order, then scripts in parallel), the
//! rules run (those that read only syntax trees beside the catalog pass).

pub mod lookup;

use crate::config::Settings;
use crate::diagnostics::Diagnostic;
use crate::dialect::{FileDialect, Reason};
use crate::files::FileEntry;
use crate::semantic;
use crate::source::{FileId, SourceFile};
use crate::syntax::Parsed;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The result of a run: every file read, and the findings in the reported ones.
#[derive(Debug)]
pub struct Outcome {
    /// Files in run order; `FileId(i)` is `files[i]`.
    pub files: Vec<FileEntry>,
    /// Findings, sorted by file (in the order of [`semantic::history::report_ranks`]: natural
    /// order of paths, a history's files in the order they apply), position and code.
    pub diagnostics: Vec<Diagnostic>,
    /// The semantic model (catalog sessions), for `expand`.
    pub model: semantic::Model,
    /// How long each stage took, in order (shown with `FLINKLINT_TIMINGS`).
    pub timings: Vec<(&'static str, Duration)>,
}

impl Outcome {
    /// Number of files reported on.
    pub fn files_checked(&self) -> usize {
        self.files.iter().filter(|f| f.report).count()
    }
    /// The findings in one file.
    pub fn diagnostics_of(&self, file: FileId) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(move |d| d.file == file)
    }
}

/// Stack size of the threads that parse and analyse (bytes of reserved address space).
pub const STACK_SIZE: usize = 256 * 1024 * 1024;

/// The worker pool: one thread per core, each with a [`STACK_SIZE`] stack.
pub fn pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .stack_size(STACK_SIZE)
            .thread_name(|i| format!("flinklint-{i}"))
            .build()
            .unwrap_or_else(|_| {
                rayon::ThreadPoolBuilder::new()
                    .build()
                    .expect("a thread pool")
            })
    })
}

/// Which passes a run makes. Every pass runs by default; the benchmark turns the catalog pass
/// off to measure what it adds to a run.
#[derive(Debug, Clone, Copy)]
pub struct Passes {
    /// Build the semantic model (catalog sessions). Off: the model is empty, and the rules
    /// that read it find nothing.
    pub catalog: bool,
}

impl Default for Passes {
    fn default() -> Passes {
        Passes { catalog: true }
    }
}

/// A file to check whose text is already loaded (or could not be).
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The file.
    pub source: SourceFile,
    /// Why it could not be read.
    pub load_error: Option<String>,
    /// Whether its findings are reported.
    pub report: bool,
    /// For the earlier version of another file (`--base`), that file.
    pub base_of: Option<FileId>,
}

/// Parses loaded files (in parallel) into the run's file list, ids in order.
pub fn parse_loaded(loaded: Vec<Loaded>) -> Vec<FileEntry> {
    loaded
        .into_par_iter()
        .enumerate()
        .map(|(i, l)| {
            let (parsed, dialect) = crate::files::parse(&l.source);
            FileEntry {
                id: FileId(i as u32),
                source: l.source,
                parsed,
                dialect,
                load_error: l.load_error,
                report: l.report,
                base_of: l.base_of,
            }
        })
        .collect()
}

/// Runs the pipeline over loaded files, in order.
pub fn check_loaded(loaded: Vec<Loaded>, settings: &Settings) -> Outcome {
    pool().install(|| {
        let start = std::time::Instant::now();
        let files = parse_loaded(loaded);
        let mut outcome = analyse_files(files, settings, None, Passes::default());
        outcome
            .timings
            .insert(0, ("read and parse", start.elapsed()));
        outcome
    })
}

/// Runs the pipeline over texts already in memory: `(path, text)` pairs, in run order, all
/// reported. Used by tests and rule examples.
pub fn check_texts(texts: &[(String, String)], settings: &Settings) -> Outcome {
    check_loaded(
        texts
            .iter()
            .map(|(path, text)| Loaded {
                source: SourceFile::new(path.as_str(), text.as_str()),
                load_error: None,
                report: true,
                base_of: None,
            })
            .collect(),
        settings,
    )
}

/// The stages after parsing: the semantic model and the rules (suppressions applied). `plan`
/// is the grouping of the files into histories and scripts when it is already made (`None`:
/// made here). Runs on the caller's thread pool: call it inside [`pool`]`().install`.
pub fn analyse_files(
    files: Vec<FileEntry>,
    settings: &Settings,
    plan: Option<semantic::history::Plan>,
    passes: Passes,
) -> Outcome {
    analyse_files_reusing(files, settings, plan, passes, None)
}

/// [`analyse_files`], reusing what the last check of the same project kept
/// ([`semantic::Reuse`]; an editor's project re-checks this way after each edit).
pub fn analyse_files_reusing(
    mut files: Vec<FileEntry>,
    settings: &Settings,
    plan: Option<semantic::history::Plan>,
    passes: Passes,
    reuse: Option<&mut semantic::Reuse>,
) -> Outcome {
    let start = std::time::Instant::now();
    configure_dialects(&mut files, settings);
    let system = semantic::system::SystemColumns::from_settings(settings);
    let by_file =
        crate::config::SettingsByFile::new(settings, files.iter().map(|f| f.source.path.as_path()));
    // The rules that read only the syntax trees run while the catalog pass builds the model.
    let no_model = semantic::Model::default();
    let (model, early) = rayon::join(
        || {
            if passes.catalog {
                semantic::analyse_reusing(&files, settings, &system, plan, reuse)
            } else {
                semantic::Model::default()
            }
        },
        || {
            crate::rules::run_early(&crate::rules::Context {
                settings,
                by_file: &by_file,
                files: &files,
                model: &no_model,
                suppressions: None,
            })
        },
    );
    let semantic_done = start.elapsed();
    let ctx = crate::rules::Context {
        settings,
        by_file: &by_file,
        files: &files,
        model: &model,
        suppressions: None,
    };
    let diagnostics = crate::rules::run_after(&ctx, early);
    let mut timings = vec![(
        "semantic (with the syntax-only rules beside it)",
        semantic_done,
    )];
    timings.extend(model.timings.iter().map(|(k, d)| (*k, *d)));
    timings.push(("rules", start.elapsed() - semantic_done));
    Outcome {
        files,
        diagnostics,
        model,
        timings,
    }
}

/// Decides the dialect of scripts by the names they use across files
/// ([`crate::dialect::across_files`]), then applies what the configuration says of files'
/// dialects (`flink-files`, `other-files`, `dialect-detection: off`) over what was detected.
fn configure_dialects(files: &mut [FileEntry], settings: &Settings) {
    if settings.dialect_detection == crate::config::DialectDetection::Auto {
        // Scripts whose tables only another dialect's scripts create (detected per project).
        let project: Vec<crate::dialect::ProjectFile<'_>> = files
            .iter()
            .map(|f| crate::dialect::ProjectFile {
                text: &f.source.text,
                parsed: &f.parsed,
                dialect: &f.dialect,
            })
            .collect();
        let decided = crate::dialect::across_files(&project);
        for (i, d) in decided {
            files[i].dialect = Arc::new(d);
        }
    }
    if settings.flink_files.is_empty()
        && settings.other_files.is_empty()
        && settings.dialect_detection == crate::config::DialectDetection::Auto
    {
        return;
    }
    for file in files {
        match settings.configured_dialect(&file.source.path) {
            None => {}
            Some(Reason::OtherFiles) => {
                file.dialect = Arc::new(FileDialect::configured_other(
                    file.source.text.len(),
                    &file.parsed,
                ));
            }
            Some(reason) => file.dialect = Arc::new(FileDialect::flink(reason)),
        }
    }
}

/// Whether a file's findings are reported, or it is read only as context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Checked and reported on.
    Reported,
    /// Read for the catalog (its tables, its history), not reported on.
    Context,
}

/// One file of a [`Project`].
#[derive(Debug, Clone)]
struct ProjectFile {
    source: SourceFile,
    role: Role,
    load_error: Option<String>,
    /// The parse of `source.text` and its dialects, once made; reused while the text is
    /// unchanged.
    parsed: Option<(Arc<Parsed>, Arc<FileDialect>)>,
}

/// A project held in memory: its files' texts, the settings, and the last analysis.
///
/// Files keep the order in which they were first added (the run order of scripts; the files of
/// a history run in the order of their versions); replacing a file's text keeps its place.
/// Paths are taken as given: `./a.sql` and `a.sql` are two files.
/// [`Project::check`] parses only the files whose text changed since the last check and runs
/// again only the sessions an edit can reach ([`semantic::Reuse`]: the edited scripts and
/// those that read what they create; a history from the edited migration on, and what
/// starts from the catalog it leaves); histories and
/// scripts see one another's tables, so an edit in one file can change the findings of any
/// other: [`Project::check`] returns the files whose findings changed.
#[derive(Debug)]
pub struct Project {
    settings: Settings,
    files: Vec<ProjectFile>,
    index: HashMap<PathBuf, usize>,
    last: Option<Outcome>,
    passes: Passes,
    /// What the last check keeps for the next ([`semantic::Reuse`]).
    reuse: semantic::Reuse,
    /// Whether checks reuse the last check's sessions (on by default).
    incremental: bool,
}

impl Project {
    /// An empty project with these settings.
    pub fn new(settings: Settings) -> Project {
        Project {
            settings,
            files: Vec::new(),
            index: HashMap::new(),
            last: None,
            passes: Passes::default(),
            reuse: semantic::Reuse::default(),
            incremental: true,
        }
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Replaces the settings; the next [`Project::check`] uses them.
    pub fn set_settings(&mut self, settings: Settings) {
        self.settings = settings;
        self.reuse = semantic::Reuse::default();
    }

    /// Which passes [`Project::check`] makes (all by default).
    pub fn set_passes(&mut self, passes: Passes) {
        self.passes = passes;
        self.reuse = semantic::Reuse::default();
    }

    /// Whether [`Project::check`] reuses the sessions of the last check that an edit cannot
    /// have changed (on by default; off, every check runs everything, which gives the same
    /// outcome).
    pub fn set_incremental(&mut self, incremental: bool) {
        self.incremental = incremental;
        self.reuse = semantic::Reuse::default();
    }

    /// Adds a reported file, or replaces the text of the file at `path` (an editor's unsaved
    /// buffer overrides the file on disk this way). Returns whether the text changed.
    pub fn set_file(&mut self, path: impl Into<PathBuf>, text: impl Into<Arc<str>>) -> bool {
        self.set_file_as(path, text, Role::Reported)
    }

    /// [`Project::set_file`] with the file's role.
    pub fn set_file_as(
        &mut self,
        path: impl Into<PathBuf>,
        text: impl Into<Arc<str>>,
        role: Role,
    ) -> bool {
        let path = path.into();
        let text: Arc<str> = text.into();
        if let Some(&i) = self.index.get(&path) {
            let file = &mut self.files[i];
            let changed = *file.source.text != *text || file.load_error.is_some();
            if changed {
                file.source = SourceFile::new(path, text);
                file.parsed = None;
                file.load_error = None;
            }
            file.role = role;
            return changed;
        }
        self.index.insert(path.clone(), self.files.len());
        self.files.push(ProjectFile {
            source: SourceFile::new(path, text),
            role,
            load_error: None,
            parsed: None,
        });
        true
    }

    /// Adds a file that could not be read: it is reported (SY000) with `error`.
    pub fn set_unreadable(&mut self, path: impl Into<PathBuf>, error: impl Into<String>) {
        let path = path.into();
        self.set_file(path.clone(), "");
        if let Some(&i) = self.index.get(&path) {
            self.files[i].load_error = Some(error.into());
        }
    }

    /// Removes the file at `path`. Returns whether it was there.
    pub fn remove_file(&mut self, path: &Path) -> bool {
        let Some(i) = self.index.remove(path) else {
            return false;
        };
        self.files.remove(i);
        for v in self.index.values_mut() {
            if *v > i {
                *v -= 1;
            }
        }
        true
    }

    /// The paths of the project's files, in run order.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(|f| f.source.path.as_path())
    }

    /// The text of the file at `path`.
    pub fn text(&self, path: &Path) -> Option<&Arc<str>> {
        self.index.get(path).map(|&i| &self.files[i].source.text)
    }

    /// The role of the file at `path`.
    pub fn role(&self, path: &Path) -> Option<Role> {
        self.index.get(path).map(|&i| self.files[i].role)
    }

    /// Checks the project: parses the files whose text changed since the last check (in
    /// parallel), builds the catalog and runs the rules. Returns the paths of the files whose
    /// findings differ from the last check's (all files with findings on the first check); the
    /// outcome is [`Project::outcome`].
    pub fn check(&mut self) -> Vec<PathBuf> {
        let settings = &self.settings;
        let passes = self.passes;
        let files = &mut self.files;
        let reuse = self.incremental.then_some(&mut self.reuse);
        let outcome = pool().install(|| {
            files.par_iter_mut().for_each(|f| {
                if f.parsed.is_none() {
                    f.parsed = Some(crate::files::parse(&f.source));
                }
            });
            let entries: Vec<FileEntry> = files
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let (parsed, dialect) = f
                        .parsed
                        .clone()
                        .unwrap_or_else(|| crate::files::parse(&f.source));
                    FileEntry {
                        id: FileId(i as u32),
                        source: f.source.clone(),
                        parsed,
                        dialect,
                        load_error: f.load_error.clone(),
                        report: f.role == Role::Reported,
                        base_of: None,
                    }
                })
                .collect();
            analyse_files_reusing(entries, settings, None, passes, reuse)
        });
        let changed = changed_files(self.last.as_ref(), &outcome);
        self.last = Some(outcome);
        changed
    }

    /// How many files of histories the last check ran (with incremental checks, an edit of a
    /// history's file runs that file and the ones after it; the state before it is reused).
    pub fn history_files_run(&self) -> Option<usize> {
        (self.incremental && self.last.is_some()).then(|| self.reuse.history_files_run())
    }

    /// The project's files as last parsed, each parsed alone (the dialects as the file's own
    /// text shows them, before the project's files are weighed together): what the context
    /// cache records ([`crate::discover::cache::record`]). Files not parsed yet are left out.
    pub fn parsed_files(&self) -> Vec<FileEntry> {
        self.files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let (parsed, dialect) = f.parsed.clone()?;
                Some(FileEntry {
                    id: FileId(i as u32),
                    source: f.source.clone(),
                    parsed,
                    dialect,
                    load_error: f.load_error.clone(),
                    report: f.role == Role::Reported,
                    base_of: None,
                })
            })
            .collect()
    }

    /// The last check's outcome (`None` before the first [`Project::check`]).
    pub fn outcome(&self) -> Option<&Outcome> {
        self.last.as_ref()
    }

    /// The last check's findings in the file at `path`.
    /// (Looked up by path in the last check: files added or removed since then do not shift it.)
    pub fn diagnostics(&self, path: &Path) -> Vec<&Diagnostic> {
        let Some(outcome) = &self.last else {
            return Vec::new();
        };
        match outcome.files.iter().position(|f| f.source.path == path) {
            Some(i) => outcome.diagnostics_of(FileId(i as u32)).collect(),
            None => Vec::new(),
        }
    }

    /// Where the table, view or materialized table `name` (1 to 3 parts, backticks allowed) is
    /// defined, as of the last check: one entry per session that defines it.
    pub fn definitions(&self, name: &str) -> Vec<lookup::Definition> {
        match &self.last {
            Some(outcome) => lookup::definitions(outcome, name, None).unwrap_or_default(),
            None => Vec::new(),
        }
    }

    /// The expanded definition of `name`, as Flink's `SHOW CREATE TABLE` prints it, when
    /// exactly one session defines it.
    pub fn expand(&self, name: &str) -> Option<String> {
        let [definition] = self.definitions(name).try_into().ok()?;
        let system = semantic::system::SystemColumns::from_settings(&self.settings);
        Some(lookup::expanded(&definition.object, &system))
    }

    /// The columns of table or materialized table `name` as Flink's `DESCRIBE` lists them,
    /// with kind and origin, when exactly one session defines it.
    pub fn describe(&self, name: &str) -> Option<Vec<semantic::describe::DescribeRow>> {
        let [definition] = self.definitions(name).try_into().ok()?;
        let table = definition.object.def.table()?;
        let system = semantic::system::SystemColumns::from_settings(&self.settings);
        Some(semantic::describe::rows(table, &system))
    }
}

/// The paths of the files a diagnostic's related locations are in.
fn related_paths<'a>(outcome: Option<&'a Outcome>, d: &Diagnostic) -> Vec<&'a Path> {
    let Some(o) = outcome else {
        return Vec::new();
    };
    d.related
        .iter()
        .filter_map(|r| o.files.get(r.file.0 as usize))
        .map(|f| f.source.path.as_path())
        .collect()
}

/// The paths of the files whose findings differ between two outcomes.
fn changed_files(before: Option<&Outcome>, after: &Outcome) -> Vec<PathBuf> {
    type Findings<'a> = HashMap<&'a Path, Vec<&'a Diagnostic>>;
    fn group(o: &Outcome) -> Findings<'_> {
        let mut map: Findings<'_> = HashMap::new();
        for d in &o.diagnostics {
            map.entry(o.files[d.file.0 as usize].source.path.as_path())
                .or_default()
                .push(d);
        }
        map
    }
    let new = group(after);
    let old = before.map(group).unwrap_or_default();
    // Everything a client shows counts: message, severity, related locations, notes, fix
    // (file ids aside, which are the same within one outcome's numbering by path).
    let same = |a: &[&Diagnostic], b: &[&Diagnostic]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                let mut y = (*y).clone();
                y.file = x.file;
                for (r, s) in y.related.iter_mut().zip(&x.related) {
                    r.file = s.file;
                }
                if let (Some(f), Some(g)) = (&mut y.fix, &x.fix) {
                    for (e, h) in f.edits.iter_mut().zip(&g.edits) {
                        e.file = h.file;
                    }
                }
                **x == y && related_paths(before, x) == related_paths(Some(after), &y)
            })
    };
    let mut paths: Vec<PathBuf> = new
        .iter()
        .filter(|(p, d)| !old.get(*p).is_some_and(|o| same(o, d)))
        .map(|(p, _)| p.to_path_buf())
        .chain(
            old.keys()
                .filter(|p| !new.contains_key(*p))
                .map(|p| p.to_path_buf()),
        )
        .collect();
    paths.sort();
    paths
}

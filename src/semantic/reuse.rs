//! What a check keeps for the next check of the same project ([`Reuse`]): an editor's project
//! re-checks after every edit, and runs again only what the edit can reach.

use super::catalog::{self, Catalog, CatalogObject, Origin};
use super::names::QualifiedName;
use super::problems::Found;
use super::session::{RecordedPlan, Session, Version};
use super::{deploy, functions, history, SessionResult};
use crate::files::FileEntry;
use crate::source::FileId;
use compact_str::CompactString;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

/// What a check keeps to make the next check of the same project (same settings) cheaper:
/// each history's session with checkpoints of its state between files, and each script's run
/// ([`deploy::Runs`]). The next check runs again only what an edit can reach:
///
/// - a history whose file changed runs again from the last checkpoint before that file (the
///   state the earlier files left is restored, not recomputed); a history whose base (what
///   the histories before it left) is unchanged and whose files are unchanged is reused
///   whole, and one whose base changed runs again;
/// - the scripts all start from what the histories leave: when that changed, every script
///   runs again; else the edited scripts and the scripts that read an object one of them
///   creates (transitively) run again, and every other run is reused.
///
/// The model and the findings are those of a check from scratch. Anything else that changed
/// (the list of files, their grouping, the functions the project creates) makes the next check
/// run everything. An editor's project holds one ([`crate::project::Project`]).
#[derive(Debug, Default)]
pub struct Reuse {
    /// The inputs of the last check.
    inputs: Option<Inputs>,
    /// Each history's run, in plan order (empty when nothing can be reused).
    pub(super) histories: Vec<HistoryRun>,
    /// The files whose text, parse or dialect changed since the last check.
    pub(super) changed: HashSet<FileId>,
    /// The catalog the first history starts from (kept, so that it is the same `Arc` at every
    /// check and the histories' and scripts' runs can be compared with it).
    pub(super) empty: Arc<Catalog>,
    /// The persistent catalog the last check's scripts started from.
    pub(super) persistent: Option<Arc<Catalog>>,
    /// The scripts' runs.
    pub(super) runs: deploy::Runs,
    /// The last check's grouping of the files (it depends only on their paths).
    pub(super) plan: Option<history::Plan>,
    /// How many history files the last check ran (the others' state was reused).
    pub(super) history_files_run: usize,
}

/// One history's run, as a check left it.
#[derive(Debug)]
pub(super) struct HistoryRun {
    /// The catalog it started from.
    pub base: Arc<Catalog>,
    /// Its session.
    pub result: SessionResult,
    /// Its problems.
    pub found: Vec<Found>,
    /// The persistent catalog after it.
    pub after: Arc<Catalog>,
    /// The session's state before some of its files (by position in the history), in order.
    pub checkpoints: Vec<(usize, Checkpoint)>,
}

/// A history session's state between two files: everything [`Session`] holds that the
/// history's statements change, owned (no borrow of the check that made it).
#[derive(Debug)]
pub(super) struct Checkpoint {
    overlay: catalog::Overlay,
    current: (CompactString, CompactString),
    config: Vec<(CompactString, CompactString, Origin)>,
    found: Vec<Found>,
    versions: Vec<Version>,
    plans: Vec<RecordedPlan>,
    option_checked: HashSet<(usize, u8)>,
    option_held: Vec<Arc<CatalogObject>>,
    dropped: HashSet<QualifiedName>,
}

impl Checkpoint {
    /// The state of `session` (a history's: it sees no other script's objects).
    pub fn of(session: &Session<'_>) -> Checkpoint {
        Checkpoint {
            overlay: session.catalog.overlay(),
            current: (
                session.current_catalog.clone(),
                session.current_database.clone(),
            ),
            config: session.config.clone(),
            found: session.found.clone(),
            versions: session.versions.clone(),
            plans: session.plans.clone(),
            option_checked: session.option_checked.clone(),
            option_held: session.option_held.clone(),
            dropped: session.dropped.clone(),
        }
    }

    /// Puts the state back into `session`, a fresh session over the same base.
    pub fn restore(&self, session: &mut Session<'_>) {
        session.catalog.restore(self.overlay.clone());
        session.current_catalog = self.current.0.clone();
        session.current_database = self.current.1.clone();
        session.config = self.config.clone();
        session.found = self.found.clone();
        session.versions = self.versions.clone();
        session.plans = self.plans.clone();
        session.option_checked = self.option_checked.clone();
        session.option_held = self.option_held.clone();
        session.dropped = self.dropped.clone();
    }
}

/// The positions in a history of `n` files before which its session's state is kept: about
/// sixteen, evenly spaced, and the last file's (the migration being written), so that an edit
/// runs at most a sixteenth of the history again, and an edit of the last file only that file.
pub(super) fn is_checkpoint(position: usize, n: usize) -> bool {
    let step = (n / 16).max(1);
    position > 0 && (position % step == 0 || position + 1 == n)
}

/// What a check read, to compare with the next one's.
#[derive(Debug)]
struct Inputs {
    files: Vec<FileKey>,
    histories: Vec<(PathBuf, Vec<FileId>)>,
    scripts: Vec<FileId>,
    functions: Arc<functions::check::FunctionEnv>,
}

/// A file as a check read it.
#[derive(Debug)]
struct FileKey {
    path: PathBuf,
    text: Arc<str>,
    parsed: Arc<crate::syntax::Parsed>,
    dialect: Arc<crate::dialect::FileDialect>,
    load_error: bool,
}

impl FileKey {
    fn of(f: &FileEntry) -> FileKey {
        FileKey {
            path: f.source.path.clone(),
            text: f.source.text.clone(),
            parsed: f.parsed.clone(),
            dialect: f.dialect.clone(),
            load_error: f.load_error.is_some(),
        }
    }
    /// Whether `f` is the same file with the same text, parse and dialects.
    fn same(&self, f: &FileEntry) -> bool {
        self.path == f.source.path
            && self.load_error == f.load_error.is_some()
            && (Arc::ptr_eq(&self.text, &f.source.text) || *self.text == *f.source.text)
            && Arc::ptr_eq(&self.parsed, &f.parsed)
            && (Arc::ptr_eq(&self.dialect, &f.dialect)
                || serde_json::to_string(&*self.dialect).ok()
                    == serde_json::to_string(&*f.dialect).ok())
    }
}

impl Reuse {
    /// How many history files the last check ran; the state of the others was reused (a
    /// check from scratch runs them all).
    pub fn history_files_run(&self) -> usize {
        self.history_files_run
    }

    /// The last check's grouping, when the files' paths are the same.
    pub(super) fn plan_for(&self, files: &[FileEntry]) -> Option<history::Plan> {
        let last = self.inputs.as_ref()?;
        let same = last.files.len() == files.len()
            && files.iter().all(|f| f.base_of.is_none())
            && last
                .files
                .iter()
                .zip(files)
                .all(|(k, f)| k.path == f.source.path);
        if same {
            self.plan.clone()
        } else {
            None
        }
    }

    /// Compares this check's inputs with the last one's and drops what cannot be reused.
    pub(super) fn prepare(
        &mut self,
        files: &[FileEntry],
        plan: &history::Plan,
        functions: &Arc<functions::check::FunctionEnv>,
    ) {
        let inputs = Inputs {
            files: files.iter().map(FileKey::of).collect(),
            histories: plan
                .histories
                .iter()
                .map(|h| (h.dir.clone(), h.files.clone()))
                .collect(),
            scripts: plan.scripts.clone(),
            functions: functions.clone(),
        };
        let last = self.inputs.replace(inputs);
        self.changed.clear();
        let Some(last) = last.filter(|last| {
            last.files.len() == files.len()
                && last
                    .files
                    .iter()
                    .zip(files)
                    .all(|(k, f)| k.path == f.source.path)
                && last.histories
                    == plan
                        .histories
                        .iter()
                        .map(|h| (h.dir.clone(), h.files.clone()))
                        .collect::<Vec<_>>()
                && last.scripts == plan.scripts
                && *last.functions == **functions
                && files.iter().all(|f| f.base_of.is_none())
        }) else {
            self.histories.clear();
            self.persistent = None;
            self.runs = deploy::Runs::default();
            return;
        };
        self.changed = files
            .iter()
            .zip(&last.files)
            .filter(|(f, k)| !k.same(f))
            .map(|(f, _)| f.id)
            .collect();
        for id in &self.changed {
            self.runs.forget(*id);
        }
    }
}

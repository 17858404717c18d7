//! Semantic stage: the catalog across files, built once per run in migration order.
//!
//! Histories (folders of migration files) are applied first, in folder order, each in one
//! session; what they leave behind is the persistent catalog. Every other file is a script,
//! run in its own session that starts from the persistent catalog. Each session records the
//! problems it finds ([`problems::Found`]) and the versions of the objects it defines; rules
//! read both through the [`Model`].

pub mod catalog;
pub mod exprs;
pub mod history;
pub mod names;
pub mod problems;
pub mod query;
pub mod render_expr;
pub mod render_query;
pub mod session;
pub mod show_create;
pub mod table;
pub mod types;

use crate::rules::FileEntry;
use crate::source::FileId;
use catalog::{Catalog, CatalogObject};
use names::QualifiedName;
use problems::Found;
use session::{Session, Version};
use std::path::PathBuf;
use std::sync::Arc;

/// Whether a session ran one script or a history.
#[derive(Debug, Clone)]
pub enum SessionKind {
    /// One script file.
    Script(FileId),
    /// A history folder.
    History(PathBuf),
}

/// What one session left behind.
#[derive(Debug, Clone)]
pub struct SessionResult {
    /// Script or history.
    pub kind: SessionKind,
    /// Its files, in the order they ran.
    pub files: Vec<FileId>,
    /// The objects the session sees at its end (temporary ones included).
    pub objects: Vec<Arc<CatalogObject>>,
    /// Every version of every object the session created or changed, in order.
    pub versions: Vec<Version>,
    /// Current catalog and database at the end.
    pub current: (String, String),
}

impl SessionResult {
    /// The object named `name` at the end of the session.
    pub fn object(&self, name: &QualifiedName) -> Option<&Arc<CatalogObject>> {
        self.objects.iter().find(|o| &o.name == name)
    }
}

/// The semantic model of a run.
#[derive(Debug, Default)]
pub struct Model {
    /// Problems found, in processing order.
    pub found: Vec<Found>,
    /// Every session.
    pub sessions: Vec<SessionResult>,
    /// How files were grouped.
    pub plan: history::Plan,
}

impl Model {
    /// The session a file ran in.
    pub fn session_of(&self, file: FileId) -> Option<&SessionResult> {
        self.sessions.iter().find(|s| s.files.contains(&file))
    }
}

/// Builds the model: histories first (they build the persistent catalog), then each script.
/// `histories` are folders configured as histories beside the naming-based detection.
pub fn analyse(files: &[FileEntry], histories: &[PathBuf]) -> Model {
    let plan = history::plan(files, histories);
    let mut persistent = Catalog::default();
    let mut model = Model::default();
    for h in &plan.histories {
        let mut session = Session::new(&persistent);
        for id in &h.files {
            run_file(&mut session, &files[id.0 as usize]);
        }
        let result = finish(
            &session,
            SessionKind::History(h.dir.clone()),
            h.files.clone(),
        );
        let Session { catalog, found, .. } = session;
        model.found.extend(found);
        model.sessions.push(result);
        for (name, change) in catalog.into_changes() {
            match change {
                Some(object) => persistent.insert(object),
                None => persistent.remove(&name),
            }
        }
    }
    for id in &plan.scripts {
        let mut session = Session::new(&persistent);
        run_file(&mut session, &files[id.0 as usize]);
        let result = finish(&session, SessionKind::Script(*id), vec![*id]);
        model.found.extend(session.found);
        model.sessions.push(result);
    }
    model.plan = plan;
    model
}

fn run_file(session: &mut Session<'_>, file: &FileEntry) {
    if file.load_error.is_some() {
        return;
    }
    for statement in &file.parsed.script.statements {
        session.apply(file, statement);
    }
}

fn finish(session: &Session<'_>, kind: SessionKind, files: Vec<FileId>) -> SessionResult {
    SessionResult {
        kind,
        files,
        objects: session.catalog.objects().into_iter().cloned().collect(),
        versions: session.versions.clone(),
        current: (
            session.current_catalog.to_string(),
            session.current_database.to_string(),
        ),
    }
}

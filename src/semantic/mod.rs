//! Semantic stage: the catalog across files, built once per run in migration order.
//!
//! The `external-tables` files (DDL of tables that live outside the repository) are applied
//! first, as one history. Histories (folders of migration files) follow, in folder order, each
//! in one session; what they leave behind is the persistent catalog. Every other file is a
//! script, run in its own session that starts from the persistent catalog; what it sees of the
//! objects other scripts create is the deployment model ([`deploy`], config `catalog`). Each
//! session records the problems it finds ([`problems::Found`]) and the versions of the objects
//! it defines; rules read both through the [`Model`].

pub mod alter;
pub mod casts;
pub mod catalog;
pub mod connectors;
pub mod deploy;
pub mod describe;
pub mod elsewhere;
pub mod exprs;
pub mod functions;
pub mod history;
pub mod insert;
pub mod materialized;
pub mod names;
pub mod options;
pub mod plan;
pub mod problems;
pub mod query;
pub mod render_expr;
pub mod render_query;
mod reuse;
pub mod session;
pub mod show_create;
pub mod sink_cast;
pub mod system;
pub mod table;
pub mod types;
pub mod validate;

pub use reuse::Reuse;

use crate::config::CatalogMode;
use crate::files::FileEntry;
use crate::source::FileId;
use catalog::{Catalog, CatalogObject};
use compact_str::CompactString;
use names::QualifiedName;
use problems::Found;
use session::{Session, Version};
use std::collections::HashMap;
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
    /// The persistent catalog the session started from (shared, not copied); with
    /// `catalog: persistent`, the catalog every script left (the session's own changes are in
    /// its overlay).
    pub base: Arc<Catalog>,
    /// What the session changed on top of it.
    pub overlay: catalog::Overlay,
    /// Every version of every object the session created or changed, in order.
    pub versions: Vec<Version>,
    /// Current catalog and database at the end.
    pub current: (CompactString, CompactString),
    /// The plans of its pipelines (when versions are recorded).
    pub plans: Vec<session::RecordedPlan>,
}

impl SessionResult {
    /// The object named `name` at the end of the session.
    pub fn object(&self, name: &QualifiedName) -> Option<&Arc<CatalogObject>> {
        self.overlay.get(&self.base, name)
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
    /// How long each phase of the catalog pass took, in order (for `FLINKLINT_TIMINGS`).
    pub timings: Vec<(&'static str, std::time::Duration)>,
    /// With `catalog: auto` or `persistent`: how many names scripts share (one creates, another
    /// uses), and in how many levels (`auto`) or steps (`persistent`) the scripts ran.
    pub deployment: Option<(usize, usize)>,
}

impl Model {
    /// The session a file ran in.
    pub fn session_of(&self, file: FileId) -> Option<&SessionResult> {
        self.sessions.iter().find(|s| s.files.contains(&file))
    }
}

/// Builds the model: histories first (they build the persistent catalog; the
/// `external-tables` files before all others), then each script. `settings.histories` are
/// folders configured as histories beside the naming-based detection.
pub fn analyse(files: &[FileEntry], settings: &crate::config::Settings) -> Model {
    analyse_with(files, settings, &system::SystemColumns::default())
}

/// [`analyse`] with the run's system columns (the target's and the project's).
pub fn analyse_with(
    files: &[FileEntry],
    settings: &crate::config::Settings,
    system: &system::SystemColumns,
) -> Model {
    analyse_planned(files, settings, system, None)
}

/// [`analyse_with`] with the files' grouping already made (see [`history::plan_paths`]); `None`
/// makes it.
pub fn analyse_planned(
    files: &[FileEntry],
    settings: &crate::config::Settings,
    system: &system::SystemColumns,
    plan: Option<history::Plan>,
) -> Model {
    analyse_reusing(files, settings, system, plan, None)
}

/// [`analyse_planned`], reusing what the last check of the same project left (`reuse`, which
/// this check replaces): the model is the same as without.
pub fn analyse_reusing(
    files: &[FileEntry],
    settings: &crate::config::Settings,
    system: &system::SystemColumns,
    plan: Option<history::Plan>,
    mut reuse: Option<&mut Reuse>,
) -> Model {
    let start = std::time::Instant::now();
    // The grouping by paths is reused; which numbered folders are independent scripts
    // depends on the files' contents, so it is decided on every check.
    let mut plan = plan
        .or_else(|| reuse.as_deref().and_then(|r| r.plan_for(files)))
        .unwrap_or_else(|| history::plan(files, settings));
    if let Some(r) = reuse.as_deref_mut() {
        r.plan = Some(plan.clone());
    }
    history::separate_independent_scripts(&mut plan, files);
    let planned = start.elapsed();
    // The earlier version (`--base`) of each file that has one.
    let bases: HashMap<FileId, &FileEntry> = files
        .iter()
        .filter_map(|f| f.base_of.map(|of| (of, f)))
        .collect();
    let mut persistent = Arc::new(Catalog::default());
    let mut model = Model::default();
    // The functions the run's statements create or load, and the declared UDFs.
    let functions = Arc::new(functions::check::FunctionEnv::of_statements(
        files.iter().flat_map(|f| f.parsed.script.statements.iter()),
        functions::check::declared_functions(settings),
    ));
    // The catalogs options are checked against (none when a benchmark measures the checks).
    let connectors = settings
        .check_options
        .then(|| options::Known::of(&settings.connectors));
    // `check` reads no versions: sessions then keep only each object's current one.
    let record_versions = !settings.drop_script_sessions;
    if let Some(r) = reuse.as_deref_mut() {
        r.prepare(files, &plan, &functions);
    }
    let mut kept = reuse
        .as_deref_mut()
        .map(|r| std::mem::take(&mut r.histories))
        .unwrap_or_default()
        .into_iter()
        .map(Some)
        .collect::<Vec<_>>();
    if let Some(r) = reuse.as_deref() {
        persistent = r.empty.clone();
    }
    let mut runs = Vec::with_capacity(plan.histories.len());
    let mut history_files_run = 0;
    for (k, h) in plan.histories.iter().enumerate() {
        let base = persistent.clone();
        let kept = kept
            .get_mut(k)
            .and_then(Option::take)
            .filter(|run| Arc::ptr_eq(&run.base, &base));
        let changed = reuse.as_deref().map(|r| &r.changed);
        let first_changed = h
            .files
            .iter()
            .position(|id| changed.is_some_and(|c| c.contains(id)));
        let run = match (kept, first_changed) {
            // Neither its files nor what it starts from changed.
            (Some(run), None) => run,
            (kept, _) => {
                let history = HistoryCheck {
                    files,
                    bases: &bases,
                    system,
                    settings,
                    functions: &functions,
                    connectors,
                    record_versions,
                    checkpoints: reuse.is_some(),
                };
                let (run, ran) = history.run(h, base, kept, first_changed.unwrap_or(0));
                history_files_run += ran;
                run
            }
        };
        model.found.extend(run.found.iter().cloned());
        model.sessions.push(run.result.clone());
        persistent = run.after.clone();
        runs.push(run);
    }
    let histories = start.elapsed();
    if let Some(r) = reuse.as_deref_mut() {
        r.histories = runs;
        r.history_files_run = history_files_run;
        // The scripts start from what the histories leave: when that changed, none of their
        // runs can be reused.
        if !r
            .persistent
            .as_ref()
            .is_some_and(|p| Arc::ptr_eq(p, &persistent))
        {
            r.runs = deploy::Runs::default();
        }
        r.persistent = Some(persistent.clone());
    }
    let keep_runs = reuse
        .is_some()
        .then(|| std::sync::Mutex::new(deploy::Runs::default()));
    // Scripts: independent sessions over the same persistent catalog, which see what other
    // scripts create as the deployment model says; results in plan order.
    let runner = deploy::Runner {
        files,
        bases: &bases,
        system,
        persistent: &persistent,
        keep: !settings.drop_script_sessions,
        validate_queries: settings.validate_queries,
        plan_pipelines: settings.plan_pipelines,
        functions,
        connectors,
        reuse: reuse.as_deref().map(|r| &r.runs),
        keep_runs: keep_runs.as_ref(),
    };
    let deployed = match settings.catalog {
        CatalogMode::Auto => deploy::auto(&runner, &plan.scripts),
        CatalogMode::Session => deploy::independent(&runner, &plan.scripts),
        CatalogMode::Persistent => deploy::persistent(&runner, &plan.scripts),
    };
    let deploy::Deployed {
        results,
        found,
        across,
        order,
    } = deployed;
    let ran = start.elapsed();
    if let (Some(r), Some(kept)) = (reuse, keep_runs) {
        r.runs = kept.into_inner().unwrap_or_default();
    }
    model.sessions.extend(results.into_iter().flatten());
    model
        .found
        .reserve(found.iter().map(Vec::len).sum::<usize>());
    for f in found {
        model.found.extend(f);
    }
    model.found.extend(across);
    keep_unused_option_problems_once(&mut model.found);
    elsewhere::drop_created_elsewhere(&mut model.found, files, &settings.documented_names);
    model.plan = plan;
    let histories_done = histories - planned;
    model.timings = vec![
        ("plan", planned),
        ("histories", histories_done),
        ("scripts", ran - histories),
    ];
    if let Some((took, _, _)) = order {
        model
            .timings
            .push(("scripts: what each creates and uses, their order", took));
    }
    model.timings.push(("collect", start.elapsed() - ran));
    model.deployment = order.map(|(_, shared, levels)| (shared, levels));
    model
}

/// What running one history needs.
struct HistoryCheck<'a> {
    files: &'a [FileEntry],
    bases: &'a HashMap<FileId, &'a FileEntry>,
    system: &'a system::SystemColumns,
    settings: &'a crate::config::Settings,
    functions: &'a Arc<functions::check::FunctionEnv>,
    /// The catalogs options are checked against (see [`Session::connectors`]).
    connectors: Option<options::Known>,
    record_versions: bool,
    /// Whether the session's state is kept between files ([`Reuse`]).
    checkpoints: bool,
}

impl HistoryCheck<'_> {
    /// Runs history `h` over `base`: from the last checkpoint of `kept` (its last run, over the
    /// same base) before position `from` (its first changed file), else from its start.
    /// Returns the run and how many files ran.
    fn run(
        &self,
        h: &history::History,
        base: Arc<Catalog>,
        kept: Option<reuse::HistoryRun>,
        from: usize,
    ) -> (reuse::HistoryRun, usize) {
        let mut session = Session::new(&base, self.system);
        session.record_versions = self.record_versions;
        session.validate_queries = self.settings.validate_queries;
        session.plan_pipelines = self.settings.plan_pipelines;
        session.functions = self.functions.clone();
        session.connectors = self.connectors;
        let mut checkpoints = kept.map(|k| k.checkpoints).unwrap_or_default();
        checkpoints.retain(|(at, _)| *at <= from);
        let start = match checkpoints.last() {
            Some((at, checkpoint)) => {
                checkpoint.restore(&mut session);
                *at
            }
            None => 0,
        };
        let n = h.files.len();
        for (position, id) in h.files.iter().enumerate().skip(start) {
            if self.checkpoints && position > start && reuse::is_checkpoint(position, n) {
                checkpoints.push((position, reuse::Checkpoint::of(&session)));
            }
            run_file(&mut session, self.bases, &self.files[id.0 as usize]);
        }
        let (result, found, changes) = finish(
            session,
            &base,
            SessionKind::History(h.dir.clone()),
            h.files.clone(),
            true,
        );
        let mut next = (*base).clone();
        if h.dir.as_os_str() == history::EXTERNAL_TABLES {
            next.external_files = Arc::new(h.files.clone());
        }
        for (name, change) in changes
            .map(catalog::Overlay::into_changes)
            .unwrap_or_default()
        {
            match change {
                Some(object) => next.insert(object),
                None => next.remove(&name),
            }
        }
        let run = reuse::HistoryRun {
            base,
            result,
            found,
            after: Arc::new(next),
            checkpoints,
        };
        (run, n - start)
    }
}

/// The option problems of tables that nothing uses ([`Problem::ConnectorOption`] without
/// `used`): each is kept once, and not at all when a statement that uses the table (in any
/// session) reports the same problem.
pub(crate) fn keep_unused_option_problems_once(found: &mut Vec<Found>) {
    let subject = |p: &problems::Problem| match p {
        problems::Problem::ConnectorOption { issue, used, .. } => {
            let (origin, key) = issue.subject();
            Some((
                origin.file,
                origin.span,
                CompactString::from(key),
                used.is_some(),
            ))
        }
        _ => None,
    };
    let used: std::collections::HashSet<_> = found
        .iter()
        .filter_map(|f| subject(&f.problem))
        .filter(|s| s.3)
        .map(|s| (s.0, s.1, s.2))
        .collect();
    let mut seen = std::collections::HashSet::new();
    found.retain(|f| match subject(&f.problem) {
        Some((file, span, key, false)) => {
            !used.contains(&(file, span, key.clone())) && seen.insert((file, span, key))
        }
        _ => true,
    });
}

/// Runs a file's statements in `session`; when the file has an earlier version (`--base`), that
/// version runs first (see [`deploy_base`]).
fn run_file<'b>(
    session: &mut Session<'b>,
    bases: &HashMap<FileId, &'b FileEntry>,
    file: &'b FileEntry,
) {
    if let Some(base) = bases.get(&file.id) {
        deploy_base(session, base);
    }
    if file.load_error.is_none() {
        // Statements of other dialects do not run: they create nothing.
        for (i, statement) in file.parsed.script.statements.iter().enumerate() {
            if file.dialect.is_flink(i) {
                session.apply(file, statement);
            }
        }
    }
    session.deployed.clear();
}

/// Runs the earlier version of a file (its text at the `--base` revision) in a copy of
/// `session` and keeps what deploying it left behind that outlives a deployment: its permanent
/// materialized tables, each as one version, with the normalized text of the statement that
/// defined it (a statement the file still holds unchanged is not an evolution). Its tables,
/// views, SET and USE are not kept: the new version declares them again in its own run, and
/// keeping them would report every unchanged `CREATE TABLE` as already existing. Its problems
/// are dropped: they belong to a version that is not checked.
fn deploy_base<'b>(session: &mut Session<'b>, base: &'b FileEntry) {
    let mut pre = Session {
        catalog: session.catalog.clone(),
        current_catalog: session.current_catalog.clone(),
        current_database: session.current_database.clone(),
        config: session.config.clone(),
        found: Vec::new(),
        versions: Vec::new(),
        record_versions: true,
        deployed: Default::default(),
        system: session.system,
        option_checked: Default::default(),
        option_held: Vec::new(),
        option_unused: Default::default(),
        plans: Vec::new(),
        // Its problems are dropped: its queries need no validation.
        validate_queries: false,
        plan_pipelines: false,
        functions: session.functions.clone(),
        connectors: session.connectors,
        dropped: Default::default(),
    };
    for (i, statement) in base.parsed.script.statements.iter().enumerate() {
        if base.dialect.is_flink(i) {
            pre.apply(base, statement);
        }
    }
    let mut names: Vec<&QualifiedName> = Vec::new();
    for v in &pre.versions {
        if matches!(v.object.def, catalog::ObjectDef::Materialized(_))
            && !v.object.temporary
            && !names.contains(&&v.object.name)
        {
            names.push(&v.object.name);
        }
    }
    for name in names {
        let Some(object) = pre.catalog.permanent(name).cloned() else {
            continue;
        };
        if !matches!(object.def, catalog::ObjectDef::Materialized(_)) || object.incomplete {
            continue;
        }
        let text = base.source.slice(object.statement.span);
        session
            .deployed
            .insert(name.clone(), session::normalized_statement(text));
        session.catalog.insert(object.clone());
        if session.record_versions {
            session.versions.push(Version {
                statement: object.statement,
                object,
            });
        }
    }
}

/// Ends a session: what it leaves behind (sharing the base) and its problems. A history's
/// changes also go into the next persistent catalog: `keep_changes` returns them.
fn finish(
    session: Session<'_>,
    base: &Arc<Catalog>,
    kind: SessionKind,
    files: Vec<FileId>,
    keep_changes: bool,
) -> (SessionResult, Vec<Found>, Option<catalog::Overlay>) {
    let current = (
        session.current_catalog.clone(),
        session.current_database.clone(),
    );
    let (overlay, kept) = if keep_changes {
        (
            session.catalog.overlay(),
            Some(session.catalog.into_overlay()),
        )
    } else {
        (session.catalog.into_overlay(), None)
    };
    let result = SessionResult {
        kind,
        files,
        base: base.clone(),
        overlay,
        versions: session.versions,
        current,
        plans: session.plans,
    };
    (result, session.found, kept)
}

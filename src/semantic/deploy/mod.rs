//! The deployment model (config `catalog`): how the scripts of a project see the objects that
//! other scripts create.
//!
//! Repositories often keep a table's DDL and the jobs that use it in separate files
//! (`ddl/orders.sql` and `jobs/enrich.sql`, `sources/` and `jobs/`) and deploy them in separate
//! SQL client sessions against a catalog that outlives a session (Hive, JDBC, Paimon or Fluss
//! catalogs; the catalogs of Confluent Cloud and Ververica Platform): the job sees the table
//! the DDL file created. Histories and the `external-tables` files build the persistent
//! catalog first in every model ([`super::history`]); every script sees it, and a script
//! cannot hide what a history created (it gets "already exists", or its `IF NOT EXISTS` does
//! nothing). That is right for migrations, which a deployment applies before the jobs; so a
//! numbered folder whose files re-create the same objects from scratch, alternative demo
//! scripts rather than migrations, is not taken for a history but run as scripts here, where
//! each of its objects is one definition among the others' and the nearest creators decide
//! ([`super::history::separate_independent_scripts`]). Then:
//!
//! - `auto` (the default): every script runs in a session of its own. A name that a script
//!   uses but does not create resolves to the permanent object (table, view, materialized
//!   table; never a TEMPORARY one) that other scripts create, when every script that creates
//!   it leaves the same definition (as `SHOW CREATE` prints it). When they disagree, a using
//!   script considers the creators nearest to it: those of the deepest folder, among its own
//!   folder and its ancestors, that holds any (all of them when none is there); an exported
//!   name is then one node per such set of creators, so the graph stays as large as the uses
//!   and creations. When the creators considered disagree, that is found once per set
//!   ([`Problem::ConflictingDefinitions`]), and the using scripts check nothing that depends
//!   on the definition. Scripts that each
//!   create the same object stay independent sessions: they do not clash. Scripts run in
//!   dependency order (after the scripts whose objects they use; independent ones in
//!   parallel); scripts that use one another's objects in a cycle run twice, the second time
//!   seeing what the first run created.
//! - `session`: every script sees only what it creates itself.
//! - `persistent`: the scripts run one after another in dependency order (file order among
//!   independent ones), each in a session of its own, and each one's permanent statements
//!   change the catalog the later ones see, as a deployment against one catalog does: a
//!   script that creates an object another script created gets Flink's "already exists".
//!   Scripts that use one another's objects in a cycle are found
//!   ([`Problem::DeploymentCycle`]) and run in file order.
//!
//! What a script creates and uses is read from its syntax trees first ([`names`]); the order
//! follows from it (Tarjan's strongly connected components, without recursion).

pub mod context;
mod graph;
pub mod names;

use super::catalog::{Catalog, CatalogObject, ObjectDef, Origin, Shared};
use super::names::QualifiedName;
use super::problems::{Found, Problem};
use super::session::{normalized_statement, Session};
use super::system::SystemColumns;
use super::{finish, run_file, SessionKind, SessionResult};
use crate::files::FileEntry;
use crate::source::FileId;
use graph::{components, cycle, deployment_order, Exported, Graph};
use names::ScriptNames;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What the scripts' sessions left behind, in the plan's order of scripts, and the problems of
/// the deployment itself.
pub(super) struct Deployed {
    /// Each script's session, when kept.
    pub results: Vec<Option<SessionResult>>,
    /// Each script's problems.
    pub found: Vec<Vec<Found>>,
    /// Problems across scripts: conflicting definitions, cycles.
    pub across: Vec<Found>,
    /// How long reading what the scripts create and use took, and the number of names that
    /// scripts share and of levels they ran in (for `FLINKLINT_TIMINGS`).
    pub order: Option<(std::time::Duration, usize, usize)>,
}

/// What a script's session needs: the run's files, their earlier versions (`--base`), the
/// system columns and the persistent catalog the histories left.
pub(super) struct Runner<'a> {
    /// The run's files; `FileId(i)` is `files[i]`.
    pub files: &'a [FileEntry],
    /// The earlier version of each file that has one.
    pub bases: &'a HashMap<FileId, &'a FileEntry>,
    /// The run's system columns.
    pub system: &'a SystemColumns,
    /// The catalog the histories left.
    pub persistent: &'a Arc<Catalog>,
    /// Whether the sessions are kept (`expand`, the editor's project), or only their problems.
    pub keep: bool,
    /// Whether queries are validated ([`crate::config::Settings::validate_queries`]).
    pub validate_queries: bool,
    /// Whether pipelines are planned ([`crate::config::Settings::plan_pipelines`]).
    pub plan_pipelines: bool,
    /// The functions the run creates, loads or declares.
    pub functions: Arc<crate::semantic::functions::check::FunctionEnv>,
    /// The connector catalogs options are checked against (`None`: not checked).
    pub connectors: Option<crate::semantic::options::Known>,
    /// The runs of the previous check that may be reused (see [`Runs`]), when its inputs
    /// other than the scripts' own texts and what they read of other scripts are unchanged.
    pub reuse: Option<&'a Runs>,
    /// Where this check's runs are kept for the next check, when they are.
    pub keep_runs: Option<&'a std::sync::Mutex<Runs>>,
}

/// The sessions of scripts from one check, kept for the next (an editor's re-check after an
/// edit): a script whose text is unchanged and that reads the same objects of other scripts
/// (the same `Arc`s, so unchanged too) would leave the same session and find the same
/// problems, so its run is reused. A script's first run (no other script's objects) depends
/// only on the persistent catalog and its own text: [`super::Reuse`] drops every run when
/// anything else changed (a history, the functions, the list of files).
#[derive(Debug, Default)]
pub struct Runs {
    by_file: HashMap<FileId, Vec<Arc<KeptRun>>>,
}

/// One kept run: what it read of other scripts' objects (`None`: it saw none) and its result.
#[derive(Debug, Clone)]
struct KeptRun {
    reads: Option<super::catalog::SharedReads>,
    /// When it listed every object it saw: those of other scripts, sorted by name.
    listed: Vec<Arc<CatalogObject>>,
    ran: Ran,
}

impl Runs {
    /// Forgets the runs of the file `id` (its text changed).
    pub(super) fn forget(&mut self, id: FileId) {
        self.by_file.remove(&id);
    }

    /// The kept run of `id` that read what `shared` shows now.
    fn find(&self, id: FileId, shared: Option<Shared<'_>>) -> Option<&Arc<KeptRun>> {
        self.by_file
            .get(&id)?
            .iter()
            .find(|k| match (&k.reads, shared) {
                (None, None) => true,
                (Some(reads), Some(view)) => {
                    reads
                        .lookups
                        .iter()
                        .all(|(name, was)| match (view.get(name), was) {
                            (None, None) => true,
                            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                            _ => false,
                        })
                        && (!reads.listed || same_objects(&listed(view), &k.listed))
                }
                _ => false,
            })
    }

    fn add(&mut self, id: FileId, run: Arc<KeptRun>) {
        self.by_file.entry(id).or_default().push(run);
    }
}

/// The objects of other scripts a view shows, sorted by name.
fn listed(view: Shared<'_>) -> Vec<Arc<CatalogObject>> {
    let mut all: Vec<Arc<CatalogObject>> = view.visible().cloned().collect();
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all
}

fn same_objects(a: &[Arc<CatalogObject>], b: &[Arc<CatalogObject>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| Arc::ptr_eq(x, y))
}

/// The definitions a name received, each with the script that left it.
type Definitions = Vec<(u32, Arc<CatalogObject>)>;

/// One script's run.
#[derive(Debug, Clone)]
struct Ran {
    result: Option<SessionResult>,
    found: Vec<Found>,
    /// The permanent objects it created or replaced (`Some`) or dropped (`None`).
    left: Vec<(QualifiedName, Option<Arc<CatalogObject>>)>,
    /// The names it used but could not see, sorted ([`SessionCatalog::take_misses`]).
    ///
    /// [`SessionCatalog::take_misses`]: super::catalog::SessionCatalog::take_misses
    misses: Vec<QualifiedName>,
}

impl Ran {
    /// The object it left under `name`, if it created or replaced one.
    fn left(&self, name: &QualifiedName) -> Option<Arc<CatalogObject>> {
        self.left
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, o)| o.clone())
    }
}

impl Runner<'_> {
    /// Runs one script over the persistent catalog (and `shared`), or reuses the previous
    /// check's run when it read the same ([`Runs`]).
    fn run(&self, id: FileId, shared: Option<Shared<'_>>) -> Ran {
        if let Some(kept) = self.reuse.and_then(|r| r.find(id, shared)) {
            self.keep_run(id, Arc::clone(kept));
            return kept.ran.clone();
        }
        let (ran, reads) = self.run_anew(id, shared);
        if self.keep_runs.is_some() {
            let listed = match (&reads, shared) {
                (Some(r), Some(view)) if r.listed => listed(view),
                _ => Vec::new(),
            };
            self.keep_run(
                id,
                Arc::new(KeptRun {
                    reads,
                    listed,
                    ran: ran.clone(),
                }),
            );
        }
        ran
    }

    fn keep_run(&self, id: FileId, run: Arc<KeptRun>) {
        if let Some(runs) = self.keep_runs {
            if let Ok(mut runs) = runs.lock() {
                runs.add(id, run);
            }
        }
    }

    /// Runs one script; returns what it read of other scripts' objects when it saw any.
    fn run_anew(
        &self,
        id: FileId,
        shared: Option<Shared<'_>>,
    ) -> (Ran, Option<super::catalog::SharedReads>) {
        let with_shared = shared.is_some();
        let mut session = match shared {
            Some(shared) => Session::with_shared(self.persistent, shared, self.system),
            None => Session::new(self.persistent, self.system),
        };
        // `check` reads no versions: sessions then keep only each object's current one.
        session.record_versions = self.keep;
        session.validate_queries = self.validate_queries;
        session.plan_pipelines = self.plan_pipelines;
        session.functions = self.functions.clone();
        session.connectors = self.connectors;
        run_file(&mut session, self.bases, &self.files[id.0 as usize]);
        let misses = session.catalog.take_misses();
        let reads = with_shared.then(|| session.catalog.take_shared_reads());
        let left = session
            .catalog
            .changes()
            .map(|(n, o)| (n.clone(), o.cloned()))
            .collect();
        if !self.keep {
            let ran = Ran {
                result: None,
                found: session.found,
                left,
                misses,
            };
            return (ran, reads);
        }
        let (result, found, _) = finish(
            session,
            self.persistent,
            SessionKind::Script(id),
            vec![id],
            false,
        );
        let ran = Ran {
            result: Some(result),
            found,
            left,
            misses,
        };
        (ran, reads)
    }
}

/// `catalog: session`: every script in a session of its own, in parallel.
pub(super) fn independent(runner: &Runner<'_>, scripts: &[FileId]) -> Deployed {
    let (results, found) = scripts
        .par_iter()
        .map(|id| {
            let ran = runner.run(*id, None);
            (ran.result, ran.found)
        })
        .unzip();
    Deployed {
        results,
        found,
        across: Vec::new(),
        order: None,
    }
}

/// `catalog: auto`: scripts in dependency order, each seeing the objects other scripts create
/// where those agree.
///
/// Every script first runs on its own, as under `catalog: session`, noting the names it used
/// but could not see. When no other script creates any of them, nothing another script
/// creates can change what a script finds (every lookup ran and found the same), and that
/// first run is the result: what most runs cost. Otherwise the scripts' names are read
/// ([`names`]) and the scripts that need another's objects run again, in levels: a script
/// after the scripts whose objects it uses; the first run stands for the others.
pub(super) fn auto(runner: &Runner<'_>, scripts: &[FileId]) -> Deployed {
    let mut first: Vec<Option<Ran>> = scripts
        .par_iter()
        .map(|id| Some(runner.run(*id, None)))
        .collect();
    let start = std::time::Instant::now();
    if !needs_others(&first) {
        let (results, found) = first
            .into_iter()
            .flatten()
            .map(|r| (r.result, r.found))
            .unzip();
        return Deployed {
            results,
            found,
            across: Vec::new(),
            order: Some((start.elapsed(), 0, 1)),
        };
    }
    let names: Vec<ScriptNames> = scripts
        .par_iter()
        .map(|id| names::script_names(&runner.files[id.0 as usize]))
        .collect();
    // Folders compared as absolute paths: which creators are nearest must not depend on the
    // folder the run was started from (`jobs/x.sql` from the root, `x.sql` from `jobs/`, and
    // the context files `../ddl/y.sql` beside them).
    let mut absolute: HashMap<&Path, std::path::PathBuf> = HashMap::new();
    let folders: Vec<std::path::PathBuf> = scripts
        .iter()
        .map(|id| {
            let path = &runner.files[id.0 as usize].source.path;
            let parent = path.parent().unwrap_or(path);
            absolute
                .entry(parent)
                .or_insert_with(|| {
                    // A file of the working directory has the empty path as its parent.
                    let parent = match parent.as_os_str().is_empty() {
                        true => Path::new("."),
                        false => parent,
                    };
                    crate::config::glob::absolute(parent)
                })
                .clone()
        })
        .collect();
    let folders: Vec<&Path> = folders.iter().map(std::path::PathBuf::as_path).collect();
    let graph = Graph::new(&names, &folders, runner.persistent);
    let n = scripts.len();
    let components = components(&graph.deps);
    // The level of a component: one more than the highest level of the components it needs
    // (a name alone: the highest level of its creators). Only scripts are placed in levels.
    let mut component_of = vec![0usize; graph.deps.len()];
    let mut levels: Vec<Vec<u32>> = Vec::new();
    let mut cyclic = vec![false; n];
    let mut level_of_component = Vec::with_capacity(components.len());
    for (k, c) in components.iter().enumerate() {
        let lone_name = c.len() == 1 && c[0] as usize >= n;
        let step = usize::from(!lone_name);
        let mut level = 0;
        for &v in c {
            component_of[v as usize] = k;
            if (v as usize) < n {
                cyclic[v as usize] = c.len() > 1;
            }
        }
        for &v in c {
            for &w in &graph.deps[v as usize] {
                let other = component_of[w as usize];
                if other != k {
                    level = level.max(level_of_component[other] + step);
                }
            }
        }
        level_of_component.push(level);
        let members: Vec<u32> = c.iter().copied().filter(|&v| (v as usize) < n).collect();
        if members.is_empty() {
            continue;
        }
        if levels.len() <= level {
            levels.resize_with(level + 1, Vec::new);
        }
        levels[level].extend_from_slice(&members);
    }
    let order = Some((start.elapsed(), graph.exported.len(), levels.len()));
    let exports = graph.exports(n);
    // The definitions each exported name received so far, and how many creators are still
    // to run.
    let mut received: Vec<(usize, Definitions)> = graph
        .exported
        .iter()
        .map(|(_, e)| (e.creators.len(), Vec::new()))
        .collect();
    let mut shared = Catalog::default();
    // The settled definitions of the names whose users see their nearest creators only.
    let mut near: Vec<Option<Arc<CatalogObject>>> = vec![None; graph.exported.len()];
    let mut conflicts: Vec<(usize, Definitions)> = Vec::new();
    let mut ran: Vec<Option<Ran>> = (0..n).map(|_| None).collect();
    for (depth, mut level) in levels.into_iter().enumerate() {
        level.sort_unstable();
        if depth == 0 {
            // Nothing they use comes from another script: their first run stands.
            for &i in &level {
                ran[i as usize] = first[i as usize].take();
            }
        } else {
            let again: Vec<Ran> = {
                let shared = &shared;
                let (graph, near) = (&graph, &near);
                level
                    .par_iter()
                    .map(|&i| {
                        let nearer = graph.nearer(i, near);
                        let view = (!shared.is_empty() || !nearer.is_empty()).then(|| Shared {
                            objects: shared,
                            own: &names[i as usize].creates,
                            nearer: &nearer,
                        });
                        runner.run(scripts[i as usize], view)
                    })
                    .collect()
            };
            for (&i, r) in level.iter().zip(again) {
                ran[i as usize] = Some(r);
            }
        }
        // Scripts in a cycle run again, seeing what the first run of the others created.
        let cycle: Vec<u32> = level
            .iter()
            .copied()
            .filter(|&i| cyclic[i as usize])
            .collect();
        if !cycle.is_empty() {
            // What the cycle's scripts created in their first run, with the definitions of
            // the same names that earlier scripts left, settled as after the level.
            let mut tentative: std::collections::BTreeMap<usize, Definitions> = Default::default();
            for &i in &cycle {
                let Some(r) = &ran[i as usize] else {
                    continue;
                };
                for (k, name) in &exports[i as usize] {
                    if let Some(object) = r.left(name) {
                        tentative
                            .entry(*k)
                            .or_insert_with(|| received[*k].1.clone())
                            .push((i, object));
                    }
                }
            }
            let mut provisional = shared.clone();
            let mut provisional_near = near.clone();
            for (k, mut definitions) in tentative {
                definitions.sort_by_key(|d| d.0);
                match settle(&definitions, runner.files) {
                    Settled::Nothing => {}
                    Settled::Agreed(object) | Settled::Conflict(object) => {
                        if graph.exported[k].1.nearest {
                            provisional_near[k] = Some(object);
                        } else {
                            provisional.insert(object)
                        }
                    }
                }
            }
            let (graph, provisional_near) = (&graph, &provisional_near);
            let second: Vec<Ran> = cycle
                .par_iter()
                .map(|&i| {
                    let nearer = graph.nearer(i, provisional_near);
                    let view = Shared {
                        objects: &provisional,
                        own: &names[i as usize].creates,
                        nearer: &nearer,
                    };
                    runner.run(scripts[i as usize], Some(view))
                })
                .collect();
            for (&i, r) in cycle.iter().zip(second) {
                ran[i as usize] = Some(r);
            }
        }
        // Names whose creators have all run are settled: agreed, or in conflict.
        for &i in &level {
            let Some(r) = ran[i as usize].as_ref() else {
                continue;
            };
            for (k, name) in &exports[i as usize] {
                let (left, definitions) = &mut received[*k];
                *left -= 1;
                if let Some(object) = r.left(name) {
                    definitions.push((i, object));
                }
                if *left > 0 {
                    continue;
                }
                let mut definitions = std::mem::take(definitions);
                definitions.sort_by_key(|d| d.0);
                let nearest = graph.exported[*k].1.nearest;
                match settle(&definitions, runner.files) {
                    Settled::Nothing => {}
                    Settled::Agreed(object) if nearest => near[*k] = Some(object),
                    Settled::Agreed(object) => shared.insert(object),
                    Settled::Conflict(placeholder) => {
                        if nearest {
                            near[*k] = Some(placeholder);
                        } else {
                            shared.insert(placeholder);
                        }
                        conflicts.push((*k, definitions));
                    }
                }
            }
        }
    }
    let mut across = Vec::new();
    for (k, definitions) in conflicts {
        let (name, e) = &graph.exported[k];
        across.push(conflict(runner, scripts, &names, name, e, definitions));
    }
    let (results, found) = ran
        .into_iter()
        .map(|r| r.map_or((None, Vec::new()), |r| (r.result, r.found)))
        .unzip();
    Deployed {
        results,
        found,
        across,
        order,
    }
}

/// Whether a script used a name it could not see that another script creates (the misses
/// exclude what a script creates itself).
fn needs_others(first: &[Option<Ran>]) -> bool {
    let missed: foldhash::HashSet<&QualifiedName> =
        first.iter().flatten().flat_map(|r| &r.misses).collect();
    !missed.is_empty()
        && first.iter().flatten().any(|r| {
            r.left
                .iter()
                .any(|(name, object)| object.is_some() && missed.contains(name))
        })
}

/// What the creators of a name leave.
enum Settled {
    /// No creator left the object (each dropped it, or failed to create it).
    Nothing,
    /// One definition, or several equal ones: the first.
    Agreed(Arc<CatalogObject>),
    /// Different definitions: the first, marked ambiguous and incomplete (nothing that depends
    /// on it is checked).
    Conflict(Arc<CatalogObject>),
}

/// Compares the creators' definitions.
fn settle(definitions: &[(u32, Arc<CatalogObject>)], files: &[FileEntry]) -> Settled {
    let Some((_, first)) = definitions.first() else {
        return Settled::Nothing;
    };
    if definitions.len() > 1 {
        let key = definition_text(first, files);
        if definitions[1..]
            .iter()
            .any(|(_, o)| definition_text(o, files) != key)
        {
            let mut placeholder = CatalogObject::clone(first);
            placeholder.incomplete = true;
            placeholder.ambiguous = true;
            return Settled::Conflict(Arc::new(placeholder));
        }
    }
    Settled::Agreed(first.clone())
}

/// A definition as text, to compare: a table or materialized table as Flink's `SHOW CREATE`
/// prints it, a view as its column names and its query's tokens; an incomplete definition is
/// marked as such.
pub fn definition_text(object: &CatalogObject, files: &[FileEntry]) -> String {
    let mut key = match &object.def {
        ObjectDef::Table(t) => super::show_create::table(object, t),
        ObjectDef::Materialized(t) => super::show_create::materialized_table(object, t, false),
        ObjectDef::View(v) => {
            let query = v
                .query
                .as_ref()
                .and_then(|q| files.get(object.statement.file.0 as usize).map(|f| (q, f)))
                .map(|(q, f)| normalized_statement(f.source.slice(q.span)))
                .unwrap_or_default();
            format!("VIEW {:?} AS {query}", v.columns)
        }
    };
    if object.incomplete {
        key.push_str("\n-- incomplete");
    }
    key
}

/// The problem of a name defined differently by its creators, found at its first use in a
/// reported file (else its first use).
fn conflict(
    runner: &Runner<'_>,
    scripts: &[FileId],
    names: &[ScriptNames],
    name: &QualifiedName,
    e: &Exported,
    definitions: Definitions,
) -> Found {
    let use_of = |&(i, k): &(u32, usize)| (scripts[i as usize], &names[i as usize].uses[k]);
    let reported = e
        .users
        .iter()
        .position(|u| runner.files[use_of(u).0 .0 as usize].report)
        .unwrap_or(0);
    let mut order: Vec<usize> = (0..e.users.len()).collect();
    order.remove(reported);
    order.insert(0, reported);
    let uses: Vec<Origin> = order
        .iter()
        .map(|&u| {
            let (file, used) = use_of(&e.users[u]);
            Origin {
                file,
                span: used.span,
            }
        })
        .collect();
    let (file, first) = use_of(&e.users[reported]);
    Found {
        file,
        statement: first.statement,
        problem: Problem::ConflictingDefinitions {
            span: first.span,
            name: name.clone(),
            definitions: definitions.into_iter().map(|(_, o)| o).collect(),
            uses,
        },
        diff: Vec::new(),
    }
}

/// `catalog: persistent`: the scripts one after another in dependency order, each one's
/// permanent changes seen by the later ones.
pub(super) fn persistent(runner: &Runner<'_>, scripts: &[FileId]) -> Deployed {
    let start = std::time::Instant::now();
    let names: Vec<ScriptNames> = scripts
        .par_iter()
        .map(|id| names::script_names(&runner.files[id.0 as usize]))
        .collect();
    let graph = Graph::new(&names, &vec![Path::new(""); names.len()], runner.persistent);
    let n = scripts.len();
    let components = components(&graph.deps);
    let mut across = Vec::new();
    for c in components.iter().filter(|c| c.len() > 1) {
        across.push(cycle(scripts, &names, &graph, c));
    }
    let order = deployment_order(&graph.deps, &components, n);
    let ordered = Some((start.elapsed(), graph.exported.len(), order.len()));
    let mut current: Catalog = Catalog::clone(runner.persistent);
    let mut results: Vec<Option<SessionResult>> = (0..n).map(|_| None).collect();
    let mut found: Vec<Vec<Found>> = vec![Vec::new(); n];
    for i in order {
        let id = scripts[i as usize];
        let mut session = Session::new(&current, runner.system);
        session.record_versions = runner.keep;
        session.validate_queries = runner.validate_queries;
        session.plan_pipelines = runner.plan_pipelines;
        session.functions = runner.functions.clone();
        session.connectors = runner.connectors;
        run_file(&mut session, runner.bases, &runner.files[id.0 as usize]);
        let changes = if runner.keep {
            let (result, problems, changes) = finish(
                session,
                runner.persistent,
                SessionKind::Script(id),
                vec![id],
                true,
            );
            results[i as usize] = Some(result);
            found[i as usize] = problems;
            changes.map(super::catalog::Overlay::into_changes)
        } else {
            found[i as usize] = std::mem::take(&mut session.found);
            Some(session.catalog.into_overlay().into_changes())
        };
        for (name, change) in changes.unwrap_or_default() {
            match change {
                Some(object) => current.insert(object),
                None => current.remove(&name),
            }
        }
    }
    // The sessions keep the catalog every script left (each one's own changes are in its
    // overlay): a name a session did not change is looked up there.
    let last = Arc::new(current);
    for r in results.iter_mut().flatten() {
        r.base = last.clone();
    }
    Deployed {
        results,
        found,
        across,
        order: ordered,
    }
}

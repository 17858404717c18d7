//! Histories and scripts. A history is a folder of migration files applied one after another
//! to the persistent catalog in one session (SET and USE carry over); a script is any other
//! file, run in a session of its own that starts from the persistent catalog.
//!
//! A folder is a history when it holds a Flyway-style file (`V1__init.sql`, `V1.2__x.sql`) or
//! at least two numbered files (`001_x.sql`, `0001-x.sql`), or when it is configured as one
//! (`histories`); a folder configured under `scripts` (and not under `histories`) is never one.
//! Files are applied in natural version order (`V2` before `V10`), then by name, unless the
//! configuration gives the folder another order. The `external-tables` files form a history of
//! their own that runs before all others. A document (Markdown, reStructuredText) is always a
//! script.
//!
//! **Numbered demo scripts are not a history.** Numbers also order alternative, self-contained
//! scripts: `01_baseline.sql` and `02_mitigation.sql` of a demo each `DROP TABLE IF EXISTS
//! events` and `CREATE TABLE events ...` again, and a user runs one or the other. Taken as a
//! history, such a folder would be deployed to the persistent catalog that every script of the
//! project sees, and its last `events` would hide the `events` that another folder's
//! `ddl.events.sql` creates for its own jobs. So a folder that is a history by its numbered
//! names only (neither Flyway names nor configured) is a set of independent scripts when its
//! files re-create from scratch rather than build on one another
//! ([`separate_independent_scripts`]): no file uses (reads, writes, alters, drops) an object
//! that an earlier file of the folder creates without creating it again itself, and at least
//! one object is created by two of its files (which a migration never does: the second
//! `CREATE` would fail with "already exists"). A history whose later files `ALTER`, fill or
//! read what earlier ones created stays a history; a folder named like Flyway's migrations, or
//! configured under `histories`, is always one.

use crate::config::{HistoryOrder, Settings};
use crate::files::FileEntry;
use crate::source::{natural, FileId};
use std::path::{Path, PathBuf};

/// Why a folder is a history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryBy {
    /// The `external-tables` files of the configuration.
    ExternalTables,
    /// The folder is listed under `histories` (or given with `--history-dir`).
    Configured,
    /// It holds a Flyway-style file (`V1__init.sql`).
    FlywayNames,
    /// It holds at least two numbered files (`001_x.sql`).
    NumberedNames,
}

impl HistoryBy {
    /// How messages and `flinklint files` name it.
    pub fn describe(self) -> &'static str {
        match self {
            HistoryBy::ExternalTables => "the `external-tables` files",
            HistoryBy::Configured => "configured under `histories`",
            HistoryBy::FlywayNames => "Flyway-style file names",
            HistoryBy::NumberedNames => "numbered file names",
        }
    }
}

/// A history: its folder and its migration files in version order.
#[derive(Debug, Clone)]
pub struct History {
    /// The folder.
    pub dir: PathBuf,
    /// Migration files, in the order they apply.
    pub files: Vec<FileId>,
    /// Why the folder is a history.
    pub by: HistoryBy,
}

/// A folder of numbered files that are independent scripts, not a history
/// ([`separate_independent_scripts`]).
#[derive(Debug, Clone)]
pub struct IndependentScripts {
    /// The folder.
    pub dir: PathBuf,
    /// Its numbered files, in version order.
    pub files: Vec<FileId>,
}

/// How the files of a run are grouped into sessions.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Histories, by folder path.
    pub histories: Vec<History>,
    /// Every other file: one session each.
    pub scripts: Vec<FileId>,
    /// Folders of numbered files that are scripts all the same: each file re-creates what it
    /// uses (their files are among `scripts`).
    pub independent: Vec<IndependentScripts>,
}

impl Plan {
    /// The history a file is a migration of; `None` for a script.
    pub fn history_of(&self, file: FileId) -> Option<&History> {
        self.histories.iter().find(|h| h.files.contains(&file))
    }
}

/// The version of a migration file name, as numbers for natural ordering, and whether it is
/// Flyway-style (`V...__`). `None` for other names.
pub fn migration_version(file_name: &str) -> Option<(Vec<u64>, bool)> {
    let stem = file_name
        .strip_suffix(".sql")
        .or_else(|| file_name.strip_suffix(".SQL"))?;
    let (flyway, rest) = match stem.strip_prefix(['V', 'v']) {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => (true, rest),
        _ => (false, stem),
    };
    let digits_end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(rest.len());
    let (version_part, tail) = if flyway {
        let sep = rest.find("__")?;
        (&rest[..sep], &rest[sep + 2..])
    } else {
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (v, t) = rest.split_at(end);
        let t = t.strip_prefix(['_', '-'])?;
        (v, t)
    };
    let _ = digits_end;
    if version_part.is_empty() || tail.is_empty() {
        return None;
    }
    let numbers: Option<Vec<u64>> = version_part
        .split(['.', '_'])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u64>().ok())
        .collect();
    Some((numbers?, flyway))
}

/// A file of a folder: its id, its migration version (if named like one), and its name.
type Entry<'a> = (FileId, Option<(Vec<u64>, bool)>, std::borrow::Cow<'a, str>);

/// The pseudo-folder of the history made of the `external-tables` files.
pub const EXTERNAL_TABLES: &str = "<external-tables>";

/// Groups files into histories and scripts. The `external-tables` files come first, as one
/// history (in the configured order); then every folder that is a history by its file names
/// or by `settings.histories` (configured folders are histories whatever their file names,
/// and apply in their configured order); every other file is a script.
pub fn plan(files: &[FileEntry], settings: &Settings) -> Plan {
    plan_paths(
        files
            .iter()
            .filter(|f| f.base_of.is_none())
            .map(|f| (f.id, f.source.path.as_path())),
        settings,
    )
}

/// [`plan`] from the files' ids and paths alone (the earlier versions of files, `--base`, left
/// out), so that it can run while the files are read and parsed.
pub fn plan_paths<'a>(
    files: impl IntoIterator<Item = (FileId, &'a Path)>,
    settings: &Settings,
) -> Plan {
    let mut plan = Plan::default();
    let mut external: Vec<(usize, FileId)> = Vec::new();
    // Grouped by folder (hashing the path's bytes: hashing a `Path` walks its components),
    // then the folders sorted once (path comparisons are slow).
    let mut by_dir: foldhash::HashMap<&[u8], (&Path, Vec<Entry<'_>>)> = Default::default();
    // The earlier version of a file (`--base`) runs just before it, never on its own.
    for (id, path) in files {
        if !settings.external_tables.is_empty() {
            let abs = crate::config::glob::absolute(path);
            if let Some(at) = settings.external_tables.iter().position(|e| *e == abs) {
                external.push((at, id));
                continue;
            }
        }
        // A document (Markdown, reStructuredText) is a script of its own: its blocks are a
        // tutorial's steps, never migrations, even in a history's folder.
        if crate::source::embedded::Format::of(path).is_document() {
            plan.scripts.push(id);
            continue;
        }
        let dir = path.parent().unwrap_or(Path::new(""));
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        by_dir
            .entry(dir.as_os_str().as_encoded_bytes())
            .or_insert_with(|| (dir, Vec::new()))
            .1
            .push((id, migration_version(&name), name));
    }
    if !external.is_empty() {
        external.sort();
        plan.histories.push(History {
            dir: PathBuf::from(EXTERNAL_TABLES),
            files: external.into_iter().map(|(_, id)| id).collect(),
            by: HistoryBy::ExternalTables,
        });
    }
    let mut by_dir: Vec<(&Path, Vec<Entry<'_>>)> = by_dir.into_values().collect();
    by_dir.sort_by(|a, b| a.0.cmp(b.0));
    for (dir, mut entries) in by_dir {
        let versioned = entries.iter().filter(|e| e.1.is_some()).count();
        let flyway = entries.iter().any(|e| e.1.as_ref().is_some_and(|v| v.1));
        let configured = settings.history_order(dir);
        // A folder configured under `scripts` holds scripts whatever their names (numbered
        // tutorial steps, alternative demos); `histories` wins over it.
        let by_names = (flyway || versioned >= 2) && !settings.scripts_folder(dir);
        if !(configured.is_some() || by_names) {
            plan.scripts.extend(entries.iter().map(|e| e.0));
            continue;
        }
        sort_entries(&mut entries, configured.unwrap_or(&HistoryOrder::Natural));
        let mut history = History {
            dir: dir.to_path_buf(),
            files: Vec::new(),
            by: if configured.is_some() {
                HistoryBy::Configured
            } else if flyway {
                HistoryBy::FlywayNames
            } else {
                HistoryBy::NumberedNames
            },
        };
        for (id, version, _) in entries {
            if version.is_some() || configured.is_some() {
                history.files.push(id);
            } else {
                plan.scripts.push(id);
            }
        }
        plan.histories.push(history);
    }
    plan.scripts.sort();
    plan
}

/// Turns the folders that are histories by their numbered names only, and whose files are
/// independent scripts rather than migrations, into scripts (see the module documentation):
/// no file uses an object that an earlier file of the folder creates (and does not create
/// again itself), and some object is created by two of its files. Reads what each file
/// creates and uses from its syntax trees ([`super::deploy::names`]), in one pass over the
/// folder's files.
pub fn separate_independent_scripts(plan: &mut Plan, files: &[FileEntry]) {
    let mut at = 0;
    let mut moved = false;
    while at < plan.histories.len() {
        let history = &plan.histories[at];
        if history.by != HistoryBy::NumberedNames || !independent(&history.files, files) {
            at += 1;
            continue;
        }
        let history = plan.histories.remove(at);
        plan.scripts.extend_from_slice(&history.files);
        plan.independent.push(IndependentScripts {
            dir: history.dir,
            files: history.files,
        });
        moved = true;
    }
    if moved {
        plan.scripts.sort();
    }
}

/// Whether the files (in the order they would apply) re-create from scratch rather than build
/// on one another.
fn independent(ids: &[FileId], files: &[FileEntry]) -> bool {
    use super::names::QualifiedName;
    // The names the earlier files create.
    let mut created: foldhash::HashSet<QualifiedName> = Default::default();
    let mut recreated = false;
    for id in ids {
        let Some(file) = files.get(id.0 as usize) else {
            return false;
        };
        let names = super::deploy::names::script_names(file);
        // `uses` leaves out what the file creates itself: a use of an earlier file's object.
        if names.uses.iter().any(|u| created.contains(&u.name)) {
            return false;
        }
        for name in names.creates {
            if !created.insert(name) {
                recreated = true;
            }
        }
    }
    recreated
}

/// The order in which findings are reported, as a rank per file (indexed by [`FileId`]): by
/// folder, the folders' paths in natural order ([`natural::cmp_paths`]: `a2/` before `a10/`,
/// a folder's own files before those of its subfolders); within a folder, the files of a
/// history in the order they apply, then the others by name in natural order (`x2.sql` before
/// `x10.sql`). Files left out of `plan` (the earlier versions of `--base`) are ordered by name.
pub fn report_ranks(files: &[FileEntry], plan: &Plan) -> Vec<u32> {
    report_ranks_among(files, plan, None)
}

/// [`report_ranks`] of the files `among` marks (all with `None`): they are ranked among
/// themselves, in the same order as among all files; the others rank last (`u32::MAX`).
/// Findings that point into few files of a large run are sorted without sorting every path.
pub fn report_ranks_among(files: &[FileEntry], plan: &Plan, among: Option<&[bool]>) -> Vec<u32> {
    let ranked = |i: usize| among.is_none_or(|a| a.get(i).copied().unwrap_or(false));
    // (history, position in it) of each migration file.
    let mut applies: Vec<Option<(usize, usize)>> = vec![None; files.len()];
    for (h, history) in plan.histories.iter().enumerate() {
        for (at, id) in history.files.iter().enumerate() {
            if let Some(slot) = applies.get_mut(id.0 as usize) {
                *slot = Some((h, at));
            }
        }
    }
    let dirs: Vec<Vec<std::borrow::Cow<'_, str>>> = files
        .iter()
        .enumerate()
        .map(|(i, f)| match ranked(i) {
            true => natural::components(f.source.path.parent().unwrap_or(Path::new(""))),
            false => Vec::new(),
        })
        .collect();
    let names: Vec<std::borrow::Cow<'_, str>> = files
        .iter()
        .enumerate()
        .map(|(i, f)| match ranked(i) {
            true => f
                .source
                .path
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default(),
            false => std::borrow::Cow::Borrowed(""),
        })
        .collect();
    let mut order: Vec<usize> = (0..files.len()).filter(|&i| ranked(i)).collect();
    order.sort_by(|&a, &b| {
        natural::cmp_components(&dirs[a], &dirs[b])
            .then_with(|| match (applies[a], applies[b]) {
                (Some(x), Some(y)) => x.cmp(&y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
            .then_with(|| natural::cmp(&names[a], &names[b]))
            .then_with(|| files[a].source.path.cmp(&files[b].source.path))
            .then_with(|| a.cmp(&b))
    });
    let mut ranks = vec![u32::MAX; files.len()];
    for (rank, i) in order.into_iter().enumerate() {
        ranks[i] = rank as u32;
    }
    ranks
}

/// Sorts a history's files: natural (versions as numbers, unversioned files last, by name),
/// lexicographic (by name), or listed (the list's order, then the others in natural order).
fn sort_entries(entries: &mut [Entry], order: &HistoryOrder) {
    let natural = |a: &Entry, b: &Entry| match (&a.1, &b.1) {
        (Some(va), Some(vb)) => va.0.cmp(&vb.0).then_with(|| a.2.cmp(&b.2)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.2.cmp(&b.2),
    };
    match order {
        HistoryOrder::Natural => entries.sort_by(natural),
        HistoryOrder::Lexicographic => entries.sort_by(|a, b| a.2.cmp(&b.2)),
        HistoryOrder::Listed(list) => {
            let rank = |e: &Entry| {
                list.iter()
                    .position(|l| l.rsplit(['/', '\\']).next() == Some(&*e.2))
                    .unwrap_or(usize::MAX)
            };
            entries.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| natural(a, b)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The histories (folder, files) and independent folders of a run over `files`.
    fn grouped(files: &[(&str, &str)]) -> (Vec<(String, Vec<String>)>, Vec<String>) {
        let texts: Vec<(String, String)> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let outcome = crate::check_texts(&texts, &Settings::default());
        let name = |id: &FileId| {
            outcome.files[id.0 as usize]
                .source
                .path
                .to_string_lossy()
                .into_owned()
        };
        let plan = &outcome.model.plan;
        (
            plan.histories
                .iter()
                .map(|h| {
                    (
                        h.dir.to_string_lossy().into_owned(),
                        h.files.iter().map(name).collect(),
                    )
                })
                .collect(),
            plan.independent
                .iter()
                .map(|f| f.dir.to_string_lossy().into_owned())
                .collect(),
        )
    }

    const EVENTS: &str = "DROP TABLE IF EXISTS events;\n\
        CREATE TABLE events (id INT) WITH ('connector' = 'datagen');\n\
        CREATE TABLE sink (id INT) WITH ('connector' = 'blackhole');\n\
        INSERT INTO sink SELECT id FROM events;\n";

    #[test]
    fn numbered_scripts_that_recreate_their_tables_are_not_a_history() {
        let (histories, independent) = grouped(&[
            ("demo/01_baseline.sql", EVENTS),
            ("demo/02_mitigation.sql", EVENTS),
        ]);
        assert!(histories.is_empty(), "{histories:?}");
        assert_eq!(independent, vec!["demo".to_string()]);
    }

    #[test]
    fn numbered_migrations_that_build_on_each_other_stay_a_history() {
        let create = "CREATE TABLE orders (id INT) WITH ('connector' = 'datagen');\n";
        // Alters the first file's table.
        let (histories, _) = grouped(&[
            ("db/001_orders.sql", create),
            (
                "db/002_region.sql",
                "ALTER TABLE orders ADD region STRING;\n",
            ),
        ]);
        assert_eq!(histories.len(), 1);
        assert_eq!(
            histories[0].1,
            vec!["db/001_orders.sql", "db/002_region.sql"]
        );
        // Creates other tables only: a history (nothing re-created).
        let (histories, _) = grouped(&[
            ("db/001_orders.sql", create),
            (
                "db/002_customers.sql",
                "CREATE TABLE customers (id INT) WITH ('connector' = 'datagen');\n",
            ),
        ]);
        assert_eq!(histories.len(), 1);
        // Flyway names are a history whatever the files do.
        let (histories, _) = grouped(&[("db/V1__a.sql", EVENTS), ("db/V2__b.sql", EVENTS)]);
        assert_eq!(histories.len(), 1);
    }

    #[test]
    fn migration_names() {
        assert_eq!(migration_version("V1__init.sql"), Some((vec![1], true)));
        assert_eq!(migration_version("V1.2__x.sql"), Some((vec![1, 2], true)));
        assert_eq!(migration_version("v10__x.sql"), Some((vec![10], true)));
        assert_eq!(migration_version("001_orders.sql"), Some((vec![1], false)));
        assert_eq!(migration_version("0001-orders.sql"), Some((vec![1], false)));
        assert_eq!(migration_version("orders.sql"), None);
        assert_eq!(migration_version("V1.sql"), None);
        assert_eq!(migration_version("2024.sql"), None);
        assert_eq!(migration_version("Vendors.sql"), None);
        assert!(
            migration_version("V2__a.sql").unwrap().0 < migration_version("V10__a.sql").unwrap().0
        );
    }

    #[test]
    fn ranks_among_some_files_keep_their_order_among_all() {
        let files: Vec<(String, String)> = [
            "jobs/b10.sql",
            "catalog/V2__b.sql",
            "jobs/b2.sql",
            "catalog/V10__c.sql",
            "catalog/V1__a.sql",
            "jobs/sub/a.sql",
            "a.sql",
        ]
        .iter()
        .map(|p| (p.to_string(), "CREATE TABLE t (a INT);\n".to_string()))
        .collect();
        let outcome = crate::check_texts(&files, &Settings::default());
        let plan = &outcome.model.plan;
        let all = report_ranks(&outcome.files, plan);
        for mask in 0u32..(1 << files.len()) {
            let among: Vec<bool> = (0..files.len()).map(|i| mask & (1 << i) != 0).collect();
            let some = report_ranks_among(&outcome.files, plan, Some(&among));
            for i in 0..files.len() {
                assert_eq!(some[i] == u32::MAX, !among[i]);
                for j in 0..files.len() {
                    if among[i] && among[j] {
                        assert_eq!(some[i].cmp(&some[j]), all[i].cmp(&all[j]), "{mask:b}");
                    }
                }
            }
        }
    }
}

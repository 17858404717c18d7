//! The context of a run over some files: the project they belong to (its root, its
//! context roots, its files) and the files changed since a git revision.

use super::walk::walk_each;
use super::*;

/// The project root: the folder of the nearest `.flinklint.yaml` above `start`, else the
/// nearest git work tree root, else `start` itself (see [`crate::config::project_root`]).
pub fn project_root(start: &Path) -> PathBuf {
    crate::config::project_root(start)
}

/// Context for a run over individual files (as pre-commit passes them): every file under the
/// [`context_roots`] (the project root marked by a config file or a git work tree, else only
/// the given files' own folders) that the run does not already read, found as [`discover_with`] finds files in a folder (so `exclude` and
/// `.gitignore` apply), so that histories and the persistent catalog they build are complete.
/// Findings in context files are not reported. Empty when every argument is a directory or
/// standard input (the directories are the context).
///
/// Standard input named with `--stdin-filename` counts as that file: it gets the same context
/// as the file named on the command line would (and the file of that name on disk, if any, is
/// not read beside it).
pub fn context(args: &[PathBuf], inputs: &[Input], settings: &Settings) -> Vec<Input> {
    context_walked(args, inputs, settings, &mut Vec::new())
}

/// [`context`], taking the files of a context root from `walked` when that walk was made as
/// this one would make it (see [`discover_walked`]).
pub fn context_walked(
    args: &[PathBuf],
    inputs: &[Input],
    settings: &Settings,
    walked: &mut Vec<Walked>,
) -> Vec<Input> {
    let stdin_named = inputs.iter().find_map(|i| match i {
        Input::Stdin(p) if p.as_os_str() != STDIN_NAME => Some(p.clone()),
        _ => None,
    });
    let explicit_files = args
        .iter()
        .any(|a| a.as_os_str() != "-" && a.is_file() && !unlisted_document(a, settings));
    let folders: Vec<PathBuf> = args
        .iter()
        .filter(|a| a.as_os_str() != "-" && a.is_dir())
        .filter_map(|a| std::fs::canonicalize(a).ok())
        .collect();
    if !explicit_files && stdin_named.is_none() && folders.is_empty() {
        return Vec::new();
    }
    // Standard input alone takes context only from a marked project (a config file or a git
    // work tree): an editor started in a home folder must not read everything below it.
    if !explicit_files && folders.is_empty() && !marked_project(settings) {
        return Vec::new();
    }
    // Folders alone: the rest of their project (a config file's folder or a git work tree
    // above them) is context, so that `check jobs/` sees the tables `ddl/` creates, as
    // `check jobs/x.sql` does; a folder outside any marked project is its own context, and a
    // folder that is its project's root has no more to read.
    if !explicit_files && stdin_named.is_none() {
        let roots = context_roots(settings, args);
        let more = roots.iter().any(|r| {
            r.recursive
                && r.why != FOLDER_GIVEN
                && std::fs::canonicalize(&r.dir).is_ok_and(|dir| !folders.contains(&dir))
        });
        if !more {
            return Vec::new();
        }
    }
    let cwd = current_dir();
    // Canonical paths, compared as bytes (hashing a `Path` walks its components).
    let given: foldhash::HashSet<Vec<u8>> = inputs
        .iter()
        .filter_map(|i| match i {
            Input::File(p) => std::fs::canonicalize(p).ok(),
            Input::Stdin(_) => None,
        })
        .map(|p| p.into_os_string().into_encoded_bytes())
        .collect();
    let stdin_shown = stdin_named.as_deref().map(|p| display_path(&cwd, p));
    let stdin_canonical = stdin_named
        .as_deref()
        .and_then(|p| std::fs::canonicalize(p).ok());
    // The root is found from the named files, and from the folder standard input claims.
    let mut roots_from: Vec<PathBuf> = args
        .iter()
        .filter(|a| a.as_os_str() != "-")
        .cloned()
        .collect();
    if let Some(named) = &stdin_named {
        roots_from.push(named.clone());
    }
    project_files(settings, &roots_from, walked)
        .into_iter()
        .filter(|(shown, canonical)| {
            !given.contains(canonical.as_os_str().as_encoded_bytes())
                && Some(canonical) != stdin_canonical.as_ref()
                && Some(shown) != stdin_shown.as_ref()
        })
        .map(|(shown, _)| Input::File(shown))
        .collect()
}

/// Whether the project root is marked: by the config file, or by a git work tree (the
/// settings' root, else the one found from the working directory).
fn marked_project(settings: &Settings) -> bool {
    let marked = |root: &Path| root.join(".git").exists() || root.join(".flinklint.yaml").is_file();
    match &settings.root {
        Some(root) => settings.config_file.is_some() || marked(root),
        None => marked(&project_root(&current_dir())),
    }
}

/// The inputs of `check --changed-since REVISION`: `(reported, context)`. Reported are the
/// files that `args` select (as [`discover`] selects them) and that changed since `revision`
/// in the git work tree of the current directory ([`git::changed_files`]); context is every
/// other file of the project, as for [`context`], so that a changed file is still checked
/// against the tables of unchanged ones. Both are in path order, with paths shown as
/// [`context`] shows them.
///
/// Errors: [`DiscoverError::NotFound`] for an argument that does not exist,
/// [`DiscoverError::ChangedSinceStdin`] for `-`, and [`DiscoverError::Git`] when the current
/// directory is not in a git work tree or `revision` is not a commit.
pub fn changed_since(
    args: &[PathBuf],
    settings: &Settings,
    revision: &str,
) -> Result<(Vec<Input>, Vec<Input>), DiscoverError> {
    if args.iter().any(|a| a.as_os_str() == "-") {
        return Err(DiscoverError::ChangedSinceStdin);
    }
    let selected = discover_with(args, settings, None)?;
    let cwd = current_dir();
    let root = git::work_tree_root(&cwd)?;
    let changed = git::changed_files(&root, &git::resolve(&root, revision)?)?;
    // The selected files that changed: canonical path -> path as reached.
    let mut wanted: std::collections::BTreeMap<PathBuf, PathBuf> = selected
        .into_iter()
        .filter_map(|i| {
            let path = i.path().to_path_buf();
            let canonical = std::fs::canonicalize(&path).ok()?;
            changed.contains(&canonical).then_some((canonical, path))
        })
        .collect();
    let mut reported = Vec::new();
    let mut context = Vec::new();
    for (shown, canonical) in project_files(settings, args, &mut Vec::new()) {
        if wanted.remove(&canonical).is_some() {
            reported.push(Input::File(shown));
        } else {
            context.push(Input::File(shown));
        }
    }
    // Selected files outside the project's walk (another extension named explicitly, or a
    // path outside the project root) are reported as given.
    reported.extend(
        wanted
            .into_values()
            .map(|path| Input::File(display_path(&cwd, &path))),
    );
    Ok((reported, context))
}

/// Why a folder named on the command line outside any marked project is its own context root.
const FOLDER_GIVEN: &str = "a folder given";

/// A folder whose files a run over individual files reads as context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextRoot {
    /// The folder.
    pub dir: PathBuf,
    /// Whether its subfolders are read too: only in a project marked by a config file or a
    /// git work tree, or a folder named on the command line.
    pub recursive: bool,
    /// What makes it the root, for `--verbose`.
    pub why: &'static str,
}

/// The folders a run over `args` reads as context: the project root of `settings` when a
/// config file marks it (or a git work tree holding every path argument); else, for each
/// argument, the git work tree or config folder above it, a folder named as such, or — for a
/// file outside any marked project — only that file's own folder, without its subfolders: a
/// file in an unmarked folder (a home folder, `/tmp`) must not make the run read everything
/// below the working directory.
pub fn context_roots(settings: &Settings, args: &[PathBuf]) -> Vec<ContextRoot> {
    let paths: Vec<&PathBuf> = args.iter().filter(|a| a.as_os_str() != "-").collect();
    if let Some(root) = &settings.root {
        if settings.config_file.is_some() {
            return vec![ContextRoot {
                dir: root.clone(),
                recursive: true,
                why: "the folder of the config file",
            }];
        }
        let inside = |p: &PathBuf| {
            let (Ok(p), Ok(r)) = (std::fs::canonicalize(p), std::fs::canonicalize(root)) else {
                return false;
            };
            p.starts_with(r)
        };
        if root.join(".git").exists() && paths.iter().all(|p| inside(p)) {
            return vec![ContextRoot {
                dir: root.clone(),
                recursive: true,
                why: "the git work tree",
            }];
        }
    }
    let mut roots: Vec<ContextRoot> = Vec::new();
    for arg in paths {
        let is_dir = arg.is_dir();
        let dir = if is_dir {
            arg.clone()
        } else {
            arg.parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        };
        let root = project_root(&dir);
        let found = if root.join(".flinklint.yaml").is_file() {
            ContextRoot {
                dir: root,
                recursive: true,
                why: "the folder of the config file",
            }
        } else if root.join(".git").exists() {
            ContextRoot {
                dir: root,
                recursive: true,
                why: "the git work tree",
            }
        } else if is_dir {
            ContextRoot {
                dir,
                recursive: true,
                why: FOLDER_GIVEN,
            }
        } else {
            ContextRoot {
                dir,
                recursive: false,
                why: "the folder of a file given, without its subfolders (no .flinklint.yaml or \
                      git work tree above it)",
            }
        };
        let canonical = |r: &ContextRoot| std::fs::canonicalize(&r.dir).ok();
        if !roots
            .iter()
            .any(|r| canonical(r) == canonical(&found) && r.recursive == found.recursive)
        {
            roots.push(found);
        }
    }
    roots
}

/// Every file of the [`context_roots`], as `(path shown, canonical path)`, in path order,
/// found as [`discover_with`] finds files in a folder (`exclude` and `.gitignore` apply).
fn project_files(
    settings: &Settings,
    args: &[PathBuf],
    walked: &mut Vec<Walked>,
) -> Vec<(PathBuf, PathBuf)> {
    let cwd = current_dir();
    let mut found: Vec<(PathBuf, bool)> = Vec::new();
    for root in context_roots(settings, args) {
        let depth = (!root.recursive).then_some(1);
        // Walked already, for the documents.
        let made = walked
            .iter()
            .position(|w| root.recursive && w.made_as(&root.dir, settings, &settings.exclude));
        if let Some(k) = made {
            let w = walked.swap_remove(k);
            found.extend(
                w.files
                    .into_iter()
                    .map(|i| match i {
                        Input::File(p) | Input::Stdin(p) => p,
                    })
                    .zip(w.links),
            );
            continue;
        }
        walk_each(
            &root.dir,
            settings,
            &settings.exclude,
            depth,
            |path, link| found.push((path, link)),
        );
    }
    let mut seen: foldhash::HashSet<Vec<u8>> = Default::default();
    // A file that is not a symbolic link (as the walk saw it) is its folder's canonical path
    // and its name: one canonicalization per folder (canonicalizing every file costs a
    // `readlink` per component of its path), the folder asked last kept at hand.
    let mut folders: foldhash::HashMap<Vec<u8>, Option<PathBuf>> = Default::default();
    let mut last: Option<(PathBuf, Option<PathBuf>)> = None;
    let mut canonical_folder = |parent: &Path| -> Option<PathBuf> {
        if let Some((dir, canonical)) = &last {
            if dir.as_os_str() == parent.as_os_str() {
                return canonical.clone();
            }
        }
        let canonical = folders
            .entry(parent.as_os_str().as_encoded_bytes().to_vec())
            .or_insert_with(|| {
                std::fs::canonicalize(if parent.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    parent
                })
                .ok()
            })
            .clone();
        last = Some((parent.to_path_buf(), canonical.clone()));
        canonical
    };
    found
        .into_iter()
        .filter_map(|(path, link)| {
            // Folder and name split at the last `/` (`Path::parent` parses components).
            let split = match path.to_str() {
                Some(text) if cfg!(unix) => text
                    .rfind('/')
                    .filter(|&at| at > 0 && !matches!(&text[at + 1..], "" | "." | ".."))
                    .map(|at| {
                        (
                            Path::new(&text[..at]),
                            std::ffi::OsStr::new(&text[at + 1..]),
                        )
                    }),
                _ => None,
            };
            let (parent, name) = match split {
                Some((parent, name)) => (Some(parent), Some(name)),
                None => (path.parent(), path.file_name()),
            };
            let canonical = match (link, parent, name) {
                (false, Some(parent), Some(name)) => canonical_folder(parent)?.join(name),
                _ => std::fs::canonicalize(&path).ok()?,
            };
            seen.insert(canonical.as_os_str().as_encoded_bytes().to_vec())
                .then(|| (display_path(&cwd, &path), canonical))
        })
        .collect()
}

//! The server's projects: one [`Project`] per configuration root, loaded from disk, with the
//! open documents' unsaved texts over the files on disk.
//!
//! A document's root is found as the command line finds its project from the working
//! directory, but from the document's folder: the folder of the nearest `.flinklint.yaml`
//! above it; without one, the workspace folder that holds it, else the git work tree, else its
//! own folder. A root's files are the files a `flinklint check` of its folder reads; the files
//! under a nested configuration root are read as context only (the nested root reports them,
//! with its own settings).

use crate::config::{self, CliSettings, Settings};
use crate::discover::{self, read, Input};
use crate::project::{Project, Role};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One configuration root and its project.
pub struct Root {
    /// The folder.
    pub dir: PathBuf,
    /// The project (absolute paths).
    pub project: Project,
    /// Why the configuration could not be used (the default settings are used instead).
    pub config_error: Option<String>,
    /// Whether a check is due.
    pub dirty: bool,
}

/// Every root, the workspace folders and the open documents.
#[derive(Default)]
pub struct Workspace {
    /// The client's workspace folders.
    pub folders: Vec<PathBuf>,
    /// The roots, in the order they were loaded.
    pub roots: Vec<Root>,
    /// Open documents: text and version.
    pub open: HashMap<PathBuf, (Arc<str>, i32)>,
    /// The root folder of each folder asked about.
    root_of_dir: HashMap<PathBuf, PathBuf>,
}

/// Whether `path` is read as a file of the project under `settings` (its extension is listed).
pub fn is_checked(path: &Path, settings: &Settings) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        settings
            .extensions
            .iter()
            .any(|x| x.eq_ignore_ascii_case(e))
    })
}

impl Workspace {
    /// The root folder of the file at `path` (see the module's documentation).
    pub fn root_dir_for(&mut self, path: &Path) -> PathBuf {
        let dir = path.parent().unwrap_or(Path::new("/")).to_path_buf();
        if let Some(root) = self.root_of_dir.get(&dir) {
            return root.clone();
        }
        let root = match config::load::find_config(&dir) {
            Some(cfg) => cfg.parent().map_or_else(|| dir.clone(), Path::to_path_buf),
            None => self
                .folders
                .iter()
                .filter(|f| dir.starts_with(f))
                .max_by_key(|f| f.components().count())
                .cloned()
                .unwrap_or_else(|| config::load::project_root(&dir)),
        };
        self.root_of_dir.insert(dir, root.clone());
        root
    }

    /// The root folder of a workspace folder.
    pub fn root_dir_of_folder(&mut self, folder: &Path) -> PathBuf {
        self.root_dir_for(&folder.join(".flinklint-folder"))
    }

    /// The index of the root at `dir`, loaded (with the roots nested in it) if it is not yet.
    /// Messages about configuration errors are appended to `messages`.
    pub fn ensure_root(&mut self, dir: &Path, messages: &mut Vec<String>) -> usize {
        if let Some(i) = self.roots.iter().position(|r| r.dir == dir) {
            return i;
        }
        let mut pending = vec![dir.to_path_buf()];
        let mut seen = HashSet::new();
        while let Some(d) = pending.pop() {
            if !seen.insert(d.clone()) || self.roots.iter().any(|r| r.dir == d) {
                continue;
            }
            let (root, nested) = self.load_root(&d);
            if let Some(e) = &root.config_error {
                messages.push(e.clone());
            }
            self.roots.push(root);
            pending.extend(nested);
        }
        self.roots
            .iter()
            .position(|r| r.dir == dir)
            .unwrap_or(self.roots.len() - 1)
    }

    /// Loads the root at `dir`: its settings and files (open documents' texts over the disk's).
    /// Returns it and the folders of the roots nested in it.
    fn load_root(&mut self, dir: &Path) -> (Root, Vec<PathBuf>) {
        let (settings, config_error) = match config::resolve(dir, &CliSettings::default()) {
            Ok(s) => (s, None),
            Err(e) => (
                Settings {
                    root: Some(dir.to_path_buf()),
                    ..Settings::default()
                },
                Some(e.render(false)),
            ),
        };
        let mut project = Project::new(settings.clone());
        let inputs =
            discover::discover_with(&[dir.to_path_buf()], &settings, None).unwrap_or_default();
        let mut nested = Vec::new();
        let mut present = HashSet::new();
        for input in &inputs {
            let Input::File(path) = input else { continue };
            let path = config::glob::absolute(path);
            let own = self.root_dir_for(&path);
            let role = if own == dir {
                Role::Reported
            } else {
                if own.starts_with(dir) && !nested.contains(&own) {
                    nested.push(own);
                }
                Role::Context
            };
            present.insert(path.clone());
            self.load_file(&mut project, path, role);
        }
        for path in &settings.external_tables {
            if present.insert(path.clone()) {
                self.load_file(&mut project, path.clone(), Role::Context);
            }
        }
        // Open documents of this root that discovery does not list (excluded, or new).
        let open: Vec<PathBuf> = self.open.keys().cloned().collect();
        for path in open {
            if !present.contains(&path)
                && is_checked(&path, &settings)
                && self.root_dir_for(&path) == dir
            {
                let text = self.open[&path].0.clone();
                project.set_file(path, text);
            }
        }
        (
            Root {
                dir: dir.to_path_buf(),
                project,
                config_error,
                dirty: true,
            },
            nested,
        )
    }

    /// Sets the file at `path` in `project`: the open document's text, else the disk's.
    fn load_file(&self, project: &mut Project, path: PathBuf, role: Role) {
        if let Some((text, _)) = self.open.get(&path) {
            project.set_file_as(path, text.clone(), role);
            return;
        }
        match read::load(&Input::File(path.clone()), None) {
            (source, None) => {
                project.set_file_as(path, source.text, role);
            }
            (_, Some(error)) => match role {
                Role::Reported => project.set_unreadable(path, error),
                Role::Context => {}
            },
        }
    }

    /// Drops every root (and what is known of folders): the next look-ups load them again.
    pub fn clear(&mut self) {
        self.roots.clear();
        self.root_of_dir.clear();
    }

    /// Sets the text of the file at `path` in every root that reads it, and in its own root
    /// (loaded if need be) when it is a checked file there. Marks those roots dirty.
    pub fn set_text(&mut self, path: &Path, text: Arc<str>, messages: &mut Vec<String>) {
        let own = self.root_dir_for(path);
        let i = self.ensure_root(&own, messages);
        let settings_checked = is_checked(path, self.roots[i].project.settings());
        for (j, root) in self.roots.iter_mut().enumerate() {
            let known = root.project.text(path).is_some();
            if j == i && (known || settings_checked) {
                let role = if known {
                    role_in(root, path)
                } else {
                    Role::Reported
                };
                if root.project.set_file_as(path, text.clone(), role) {
                    root.dirty = true;
                }
            } else if known && root.project.set_file_as(path, text.clone(), Role::Context) {
                root.dirty = true;
            }
        }
    }

    /// Marks the file at `path` as one that cannot be read as text (`error`: why), as the
    /// command line reports a file that is not UTF-8: its own root reports that alone (SY000),
    /// and the roots that read it as context read nothing from it.
    pub fn set_unreadable(&mut self, path: &Path, error: &str, messages: &mut Vec<String>) {
        let own = self.root_dir_for(path);
        let i = self.ensure_root(&own, messages);
        for (j, root) in self.roots.iter_mut().enumerate() {
            if j == i {
                root.project.set_unreadable(path, error);
                root.dirty = true;
            } else if root.project.text(path).is_some() {
                root.project.set_file_as(path, "", Role::Context);
                root.dirty = true;
            }
        }
    }

    /// The file at `path` as the disk has it now (after a document was closed, or a file
    /// changed on disk): read again in every root that reads it, removed where it is gone.
    /// A file new on disk is added to its own root when that root is loaded.
    pub fn refresh_from_disk(&mut self, path: &Path) {
        if self.open.contains_key(path) {
            return;
        }
        let (loaded, error) = match read::load(&Input::File(path.to_path_buf()), None) {
            (source, None) => (Some(source.text), None),
            (_, Some(e)) if path.exists() => (Some(Arc::from("")), Some(e)),
            _ => (None, None),
        };
        let own = self.root_dir_for(path);
        for root in &mut self.roots {
            let known = root.project.text(path).is_some();
            match &loaded {
                None if known => {
                    root.project.remove_file(path);
                    root.dirty = true;
                }
                Some(text) if known => {
                    let role = role_in(root, path);
                    match &error {
                        // Reported as the command line reports it (SY000).
                        Some(e) if role == Role::Reported => {
                            root.project.set_unreadable(path, e.as_str());
                            root.dirty = true;
                        }
                        _ => {
                            if root.project.set_file_as(path, text.clone(), role) {
                                root.dirty = true;
                            }
                        }
                    }
                }
                Some(text)
                    if root.dir == own
                        && is_checked(path, root.project.settings())
                        && !root.project.settings().exclude.matches_path_or_parent(
                            &root.project.settings().relative_path(path),
                            false,
                        ) =>
                {
                    root.project.set_file(path, text.clone());
                    root.dirty = true;
                }
                _ => {}
            }
        }
    }

    /// The root that reports the file at `path`, if any.
    pub fn reporting_root(&self, path: &Path) -> Option<&Root> {
        self.roots
            .iter()
            .find(|r| r.project.text(path).is_some() && role_in(r, path) == Role::Reported)
    }

    /// The root that reads the file at `path` (reporting it, or else as context).
    pub fn reading_root(&self, path: &Path) -> Option<&Root> {
        self.reporting_root(path)
            .or_else(|| self.roots.iter().find(|r| r.project.text(path).is_some()))
    }
}

/// The role of the file at `path` in `root` (Reported when it is not there).
fn role_in(root: &Root, path: &Path) -> Role {
    root.project.role(path).unwrap_or(Role::Reported)
}

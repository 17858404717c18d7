//! Discover stage: which files a run reads.
//!
//! Arguments are files, directories or `-` (standard input). Directories are walked (see
//! [`walk`]) in sorted order (deterministic), following symbolic links but never into a loop,
//! skipping hidden directories, `target/`, `node_modules/`, the configured `exclude` patterns
//! and what `.gitignore` files ignore, and keeping the regular files with the configured
//! extensions (default `sql`). A file named explicitly is read whatever its extension, and is
//! checked even when excluded unless `--force-exclude`; one that is not a regular file (a
//! named pipe, a device, a symbolic-link loop) is reported as unreadable (SY000), never read.
//! A document (Markdown `.md`/`.markdown`/`.mdx`, reStructuredText `.rst`) is read only when
//! `extensions` lists its extension, named or not ([`unlisted_document`]).
//!
//! A run over individual files (as pre-commit passes them) or over the files changed since a
//! git revision ([`changed_since`], with [`git`]) also reads the rest of the project as
//! context: see [`context`].

pub mod cache;
mod context;
pub mod git;
pub mod read;
pub mod stream;
mod walk;

use crate::config::glob::PathMatcher;
use crate::config::Settings;
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use walk::{walk, walk_each};

pub use context::{
    changed_since, context, context_roots, context_walked, project_root, ContextRoot,
};

/// The name standard input is shown under when `--stdin-filename` is not given.
pub const STDIN_NAME: &str = "<stdin>";

/// Where a file's text comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Input {
    /// A file on disk, with the path as reached from the argument.
    File(PathBuf),
    /// Standard input, shown under this name.
    Stdin(PathBuf),
}

impl Input {
    /// The path shown in output.
    pub fn path(&self) -> &Path {
        match self {
            Input::File(p) | Input::Stdin(p) => p,
        }
    }
}

/// A usage error: an argument that does not exist.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// The path does not exist.
    #[error("path does not exist: {}", crate::source::escape::path(.0))]
    NotFound(PathBuf),
    /// The path is a symbolic link to a path that does not exist.
    #[error("{} is a symbolic link to a path that does not exist", crate::source::escape::path(.0))]
    BrokenLink(PathBuf),
    /// `--changed-since` with `-`: standard input has no git history.
    #[error("--changed-since cannot check standard input (`-`)")]
    ChangedSinceStdin,
    /// The changed files could not be listed.
    #[error("--changed-since: {0}")]
    Git(#[from] git::GitError),
}

/// Lists the inputs for `args` (files, directories, `-`) with the default settings: `.sql`
/// files (or `extensions`), `.gitignore` respected, nothing else excluded. See
/// [`discover_with`].
///
/// Errors: [`DiscoverError::NotFound`] for an argument that does not exist,
/// [`DiscoverError::BrokenLink`] for a symbolic link to nothing.
pub fn discover(
    args: &[PathBuf],
    extensions: &[String],
    stdin_name: Option<&Path>,
) -> Result<Vec<Input>, DiscoverError> {
    let settings = Settings {
        extensions: extensions.to_vec(),
        ..Settings::default()
    };
    discover_with(args, &settings, stdin_name)
}

/// Lists the inputs for `args` (files, directories, `-`), in argument order, each directory's
/// files sorted by path. Directories are walked for files with `settings.extensions`
/// (compared ignoring case), skipping hidden directories, `target/`, `node_modules/`, paths
/// matching `settings.exclude` (relative to the project root) and, unless
/// `respect-gitignore: false`, what `.gitignore` files ignore. An argument itself is never
/// excluded (like ruff: what you name explicitly is checked) unless `settings.force_exclude`;
/// then an excluded file, or a file or folder inside an excluded folder, is skipped, and so is
/// standard input whose `stdin_name` is one.
///
/// Errors: [`DiscoverError::NotFound`] for an argument that does not exist,
/// [`DiscoverError::BrokenLink`] for a symbolic link to nothing.
pub fn discover_with(
    args: &[PathBuf],
    settings: &Settings,
    stdin_name: Option<&Path>,
) -> Result<Vec<Input>, DiscoverError> {
    discover_walked(args, settings, stdin_name, &mut Vec::new())
}

/// [`discover_with`], taking the files of a folder argument from `walked` when that walk was
/// made as this one would make it (the same folder, `exclude` patterns, extensions and
/// `.gitignore` setting): the walk for documents ([`unlisted_document_sql`]) finds the files to
/// check on its way, so that the tree is walked once. The walks it takes are removed from
/// `walked` (the others are for [`context_walked`]).
pub fn discover_walked(
    args: &[PathBuf],
    settings: &Settings,
    stdin_name: Option<&Path>,
    walked: &mut Vec<Walked>,
) -> Result<Vec<Input>, DiscoverError> {
    let mut inputs = Vec::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            // Standard input named as an excluded file is skipped as that file would be.
            if let Some(name) = stdin_name {
                if settings.force_exclude
                    && settings
                        .exclude
                        .matches_path_or_parent(&settings.relative_path(name), false)
                {
                    continue;
                }
            }
            inputs.push(Input::Stdin(
                stdin_name.map_or_else(|| PathBuf::from(STDIN_NAME), Path::to_path_buf),
            ));
            continue;
        }
        // An argument that is not a folder is an input file: one that is not a regular file
        // (a named pipe, a device, a symbolic-link loop) is reported as unreadable when read.
        let is_dir = match std::fs::metadata(arg) {
            Ok(meta) => meta.is_dir(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(if std::fs::symlink_metadata(arg).is_ok() {
                    DiscoverError::BrokenLink(arg.clone())
                } else {
                    DiscoverError::NotFound(arg.clone())
                });
            }
            Err(_) => false,
        };
        if settings.force_exclude
            && settings
                .exclude
                .matches_path_or_parent(&settings.relative_path(arg), is_dir)
        {
            continue;
        }
        if !is_dir {
            if !unlisted_document(arg, settings) {
                inputs.push(Input::File(arg.clone()));
            }
            continue;
        }
        // A folder named on the command line is checked even when excluded: the patterns
        // that cover it as a whole do not apply inside it (unless --force-exclude).
        let exclude = if settings.force_exclude {
            settings.exclude.clone()
        } else {
            settings
                .exclude
                .without_covering(&settings.relative_path(arg))
        };
        match walked
            .iter()
            .position(|w| w.made_as(arg, settings, &exclude))
        {
            Some(k) => inputs.append(&mut walked.swap_remove(k).files),
            None => walk(arg, settings, &exclude, &mut inputs),
        }
    }
    // One argument gives each path once (a walk reaches each path once); several may repeat
    // one, spelt alike or not (`f`, `./f`, the absolute path, `dir` and `dir/f`). Compared as
    // absolute paths by components, keyed by bytes: hashing a `Path` walks its components.
    if args.len() > 1 {
        let cwd = current_dir();
        let keep: Vec<bool> = {
            let mut seen: foldhash::HashSet<(bool, std::borrow::Cow<'_, [u8]>)> =
                foldhash::HashSet::with_capacity_and_hasher(inputs.len(), Default::default());
            inputs
                .iter()
                .map(|i| seen.insert((matches!(i, Input::Stdin(_)), path_key(&cwd, i.path()))))
                .collect()
        };
        let mut keep = keep.into_iter();
        inputs.retain(|_| keep.next().unwrap_or(true));
    }
    Ok(inputs)
}

/// Bytes that are equal for two paths exactly when the paths are once made absolute against
/// `cwd` (compared as `Path`s compare, by components: `a//b` is `a/b`, `./a` is `a`; `..` is
/// kept, a symbolic link may stand before it): a clean relative path is `cwd/path`.
fn path_key<'a>(cwd: &Path, path: &'a Path) -> std::borrow::Cow<'a, [u8]> {
    let joined = match (path.to_str(), cwd.to_str()) {
        (Some(text), Some(dir))
            if cfg!(unix) && clean_relative(text, true) && dir.starts_with('/') =>
        {
            let mut key = Vec::with_capacity(dir.len() + 1 + text.len());
            key.extend_from_slice(dir.trim_end_matches('/').as_bytes());
            key.push(b'/');
            key.extend_from_slice(text.as_bytes());
            return std::borrow::Cow::Owned(key);
        }
        _ => cwd.join(path),
    };
    std::borrow::Cow::Owned(
        joined
            .components()
            .collect::<PathBuf>()
            .into_os_string()
            .into_encoded_bytes(),
    )
}

/// Whether `path` is a document (Markdown, reStructuredText: see
/// [`crate::source::embedded`]) whose extension `settings.extensions` does not list. Such a file
/// is not read, even when named on the command line: the SQL blocks of documents are checked
/// when the project asks for them (`extensions: [sql, md]`), and pre-commit passes every
/// staged Markdown file to the hook.
pub fn unlisted_document(path: &Path, settings: &Settings) -> bool {
    crate::source::embedded::Format::of(path).is_document()
        && !walk::has_extension(path, &settings.extensions)
}

/// The documents that `args` name or hold (walked as [`discover_with`] walks) that hold SQL
/// blocks but are not read because `extensions` does not list their extension: what a run that
/// found nothing to check tells the user. Reads every such document; meant for that case only.
pub fn unlisted_documents(args: &[PathBuf], settings: &Settings) -> Vec<PathBuf> {
    unlisted_document_sql(args, settings, false).paths
}

/// The files to check that a walk of a folder argument or of a context root found (see
/// [`discover_walked`], [`context_walked`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walked {
    /// The folder, as the argument or the context root names it.
    dir: PathBuf,
    /// The `exclude` patterns, extensions and `.gitignore` setting of the walk.
    exclude: Vec<String>,
    extensions: Vec<String>,
    gitignore: bool,
    /// The files with `extensions`, in walk order, and whether each entry is a symbolic link.
    files: Vec<Input>,
    links: Vec<bool>,
}

impl Walked {
    /// Whether this walk is the one [`discover_walked`] would make of `dir`.
    fn made_as(&self, dir: &Path, settings: &Settings, exclude: &PathMatcher) -> bool {
        self.dir.as_os_str() == dir.as_os_str()
            && self.exclude.as_slice() == exclude.patterns()
            && self.extensions == settings.extensions
            && self.gitignore == settings.respect_gitignore
    }
}

/// The SQL blocks of the documents a run does not check (see [`unlisted_documents`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnlistedSql {
    /// The documents that hold SQL blocks, in walk order.
    pub paths: Vec<PathBuf>,
    /// How many of [`Self::paths`] (the first ones) `args` name or hold; the others are
    /// elsewhere in their project.
    pub named: usize,
    /// The tables and views their blocks create (last part of the name, lower case, sorted,
    /// without repeats: [`crate::semantic::elsewhere::created_names`]).
    pub names: Vec<String>,
    /// The files to check found on the way, by the walks of the folders `args` name and of the
    /// context roots: for [`discover_walked`] and [`context_walked`].
    pub walked: Vec<Walked>,
}

/// The documents that `args` name or hold, and with `project` the rest of their project (its
/// context roots, as [`context_roots`] finds them), that hold SQL blocks but are not checked because
/// `extensions` does not list their extension, with the names their blocks create. Nothing
/// when `extensions` lists every document format. A document is read only when its text has a
/// fence or a directive that can open a block.
pub fn unlisted_document_sql(args: &[PathBuf], settings: &Settings, project: bool) -> UnlistedSql {
    let mut out = UnlistedSql::default();
    let unlisted: Vec<String> = crate::source::embedded::DOCUMENT_EXTENSIONS
        .iter()
        .filter(|e| {
            !settings
                .extensions
                .iter()
                .any(|x| x.eq_ignore_ascii_case(e))
        })
        .map(|e| e.to_string())
        .collect();
    if unlisted.is_empty() {
        return out;
    }
    let documents = Settings {
        extensions: unlisted.clone(),
        ..settings.clone()
    };
    // Folders are walked for the files to check as well (for `discover_walked` and
    // `context_walked`).
    let both = Settings {
        extensions: settings
            .extensions
            .iter()
            .chain(&unlisted)
            .cloned()
            .collect(),
        ..settings.clone()
    };
    let mut walked: Vec<PathBuf> = Vec::new();
    let mut walk_dir = |dir: &Path, found: &mut Vec<Input>, files: &mut Vec<Walked>| {
        let Ok(real) = std::fs::canonicalize(dir) else {
            return;
        };
        // A folder inside one walked already (or the same) adds nothing.
        if walked.iter().any(|w| real.starts_with(w)) {
            return;
        }
        walked.push(real);
        let mut checked = Vec::new();
        let mut links = Vec::new();
        walk_each(dir, &both, &documents.exclude, None, |path, link| {
            if walk::has_extension(&path, &unlisted) {
                found.push(Input::File(path));
            } else {
                checked.push(Input::File(path));
                links.push(link);
            }
        });
        files.push(Walked {
            dir: dir.to_path_buf(),
            exclude: documents.exclude.patterns().to_vec(),
            extensions: settings.extensions.clone(),
            gitignore: settings.respect_gitignore,
            files: checked,
            links,
        });
    };
    // What the arguments name or hold first, then the rest of their project.
    let mut named = Vec::new();
    for arg in args.iter().filter(|a| a.as_os_str() != "-") {
        if arg.is_file() {
            named.push(Input::File(arg.clone()));
        } else if arg.is_dir() {
            walk_dir(arg, &mut named, &mut out.walked);
        }
    }
    let mut rest = Vec::new();
    if project {
        for root in context_roots(settings, args) {
            if root.recursive {
                walk_dir(&root.dir, &mut rest, &mut out.walked);
            }
        }
    }
    let mut seen = HashSet::new();
    let mut names: Vec<compact_str::CompactString> = Vec::new();
    for (is_named, input) in named
        .into_iter()
        .map(|i| (true, i))
        .chain(rest.into_iter().map(|i| (false, i)))
    {
        let path = input.path().to_path_buf();
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if !unlisted_document(&path, settings) || !seen.insert(key) {
            continue;
        }
        let format = crate::source::embedded::Format::of(&path);
        let Some(text) = crate::files::read_file(&path, crate::files::SQL_LIMIT)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
        else {
            continue;
        };
        // Markdown fences (``` or ~~~) and reStructuredText directives (`.. code`).
        if !(text.contains("```") || text.contains("~~~") || text.contains(".. ")) {
            continue;
        }
        let Some((sql, embedded)) = crate::source::embedded::extract(format, &text) else {
            continue;
        };
        if embedded.blocks.is_empty() {
            continue;
        }
        crate::semantic::elsewhere::created_names(&sql, &mut names);
        out.paths.push(path);
        out.named += usize::from(is_named);
    }
    let mut names: Vec<String> = names.into_iter().map(|n| n.to_string()).collect();
    names.sort();
    names.dedup();
    out.names = names;
    out
}

/// Whether `--force-exclude` dropped every path argument (as pre-commit passes the staged
/// files): a run with nothing to check that is not a mistake.
pub fn all_force_excluded(
    args: &[PathBuf],
    settings: &Settings,
    stdin_name: Option<&Path>,
) -> bool {
    let excluded = |path: &Path, is_dir: bool| {
        settings
            .exclude
            .matches_path_or_parent(&settings.relative_path(path), is_dir)
    };
    settings.force_exclude
        && !args.is_empty()
        && args.iter().all(|arg| {
            if arg.as_os_str() == "-" {
                // Standard input is dropped as the file --stdin-filename names.
                stdin_name.is_some_and(|name| excluded(name, false))
            } else {
                excluded(arg, !arg.is_file())
            }
        })
}

/// Why `args` gave no file to check: one line per path argument, naming the path and what
/// left it empty (no file with the extensions, `.gitignore`, or the `exclude` patterns that
/// matched, with the config file that holds them). Walks each folder again without the
/// exclusions: only called when nothing was found.
pub fn explain_empty(args: &[PathBuf], settings: &Settings) -> Vec<String> {
    let cwd = current_dir();
    let config = settings.config_file.as_deref().map_or_else(
        || "the configuration".to_string(),
        |c| display_path(&cwd, c).display().to_string(),
    );
    let extensions = settings.extensions.join(", ");
    let what = match settings.extensions.as_slice() {
        [one] => format!(".{one} file"),
        _ => "file".to_string(),
    };
    let patterns = |list: Vec<&str>| {
        let mut list: Vec<String> = list.into_iter().map(str::to_string).collect();
        list.sort();
        list.dedup();
        format!("`exclude: {}`", list.join(", "))
    };
    let mut lines = Vec::new();
    for arg in args.iter().filter(|a| a.as_os_str() != "-") {
        let shown = display_path(&cwd, arg);
        let shown = shown.display();
        let is_dir = !arg.is_file();
        let rel = settings.relative_path(arg);
        if settings.force_exclude && settings.exclude.matches_path_or_parent(&rel, is_dir) {
            lines.push(format!(
                "{shown} is excluded by {} in {config} (with --force-exclude)",
                patterns(settings.exclude.matching_patterns(&rel, is_dir))
            ));
            continue;
        }
        if !is_dir {
            continue;
        }
        let mut all = Vec::new();
        walk(arg, settings, &PathMatcher::default(), &mut all);
        if all.is_empty() {
            let mut line = format!("no {what} under {shown} (extensions: {extensions})");
            if settings.respect_gitignore {
                let unfiltered = Settings {
                    respect_gitignore: false,
                    ..settings.clone()
                };
                let mut ignored = Vec::new();
                walk(arg, &unfiltered, &PathMatcher::default(), &mut ignored);
                if !ignored.is_empty() {
                    line.push_str(&format!(
                        "; {} ignored by .gitignore (respect-gitignore: false reads them)",
                        ignored.len()
                    ));
                }
            }
            lines.push(line);
            continue;
        }
        let matched: Vec<&str> = all
            .iter()
            .flat_map(|i| {
                settings
                    .exclude
                    .matching_patterns(&settings.relative_path(i.path()), false)
            })
            .collect();
        let files = match all.len() {
            1 => format!("the only {what} under {shown} is"),
            n => format!("all {n} {what}s under {shown} are"),
        };
        lines.push(format!(
            "{files} excluded by {} in {config}",
            patterns(matched)
        ));
    }
    lines
}

fn current_dir() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

/// `path` as the user would write it from `cwd`: relative to `cwd` when it lies under it,
/// without `.` components (`./jobs/a.sql` is `jobs/a.sql`). Lexical only: nothing is resolved
/// on disk. Files of one run must be shown alike, since a history is the files of one folder.
pub fn display_path(cwd: &Path, path: &Path) -> PathBuf {
    // Most paths are text, under `cwd` and clean: compared as text (components are slow).
    if let (true, Some(c), Some(p)) = (cfg!(unix), cwd.to_str(), path.to_str()) {
        let mut rest = p
            .strip_prefix(c)
            .and_then(|r| r.strip_prefix('/'))
            .filter(|_| !c.ends_with('/'))
            .unwrap_or(p);
        // `./jobs/a.sql` (a walk of `.`) is `jobs/a.sql`.
        while let Some(r) = rest.strip_prefix("./") {
            rest = r;
        }
        if clean_relative(rest, true) {
            return PathBuf::from(rest);
        }
    }
    let relative = path.strip_prefix(cwd).unwrap_or(path);
    let cleaned: PathBuf = relative
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    if cleaned.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        cleaned
    }
}

/// Whether `path` is a relative path of names separated by single `/`, none of them `.`
/// (nor `..` unless `parent_ok`): one pass over its bytes.
pub(crate) fn clean_relative(path: &str, parent_ok: bool) -> bool {
    let bytes = path.as_bytes();
    if bytes.is_empty() {
        return false;
    }
    let mut start = 0;
    for end in (0..=bytes.len()).filter(|&i| i == bytes.len() || bytes[i] == b'/') {
        match &bytes[start..end] {
            b"" | b"." => return false,
            b".." if !parent_ok => return false,
            _ => {}
        }
        start = end + 1;
    }
    true
}

/// The inputs of a run that also reads context files, shown as the context files are (see
/// [`display_path`]), so that a file given as `./catalog/V2__x.sql` falls in the same history
/// as the context file `catalog/V1__y.sql`. Standard input is shown under its
/// `--stdin-filename` the same way.
pub fn display_inputs(inputs: Vec<Input>) -> Vec<Input> {
    let cwd = current_dir();
    inputs
        .into_iter()
        .map(|i| match i {
            Input::File(p) => Input::File(display_path(&cwd, &p)),
            Input::Stdin(p) if p.as_os_str() != STDIN_NAME => Input::Stdin(display_path(&cwd, &p)),
            stdin @ Input::Stdin(_) => stdin,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{display_path, path_key};
    use std::path::{Path, PathBuf};

    #[test]
    fn the_documents_walk_finds_the_files_discovery_finds() {
        let dir = std::env::temp_dir().join(format!("flinklint-walked-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in [
            ("a.sql", "SELECT 1;"),
            ("b.md", "```sql\nCREATE TABLE t (a INT);\n```\n"),
            ("sub/c.sql", "SELECT 2;"),
            ("sub/d.rst", "text"),
            (".hidden/e.sql", "SELECT 3;"),
        ] {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let settings = crate::config::Settings::default();
        let args = vec![dir.clone(), dir.join("sub"), dir.clone()];
        let mut documents = super::unlisted_document_sql(&args, &settings, true);
        assert_eq!(
            documents.walked.len(),
            1,
            "sub is inside the folder walked first"
        );
        let walked = super::discover_walked(&args, &settings, None, &mut documents.walked).unwrap();
        let plain = super::discover_with(&args, &settings, None).unwrap();
        assert_eq!(walked, plain);
        assert_eq!(plain.len(), 2, "{plain:?}");
        assert_eq!(documents.paths, vec![dir.join("b.md")]);
        // One file of a project marked by its config file: the project is its context, walked
        // once for the documents and the context files.
        std::fs::write(dir.join(".flinklint.yaml"), "catalog: auto\n").unwrap();
        let settings = crate::config::Settings {
            root: Some(dir.clone()),
            config_file: Some(dir.join(".flinklint.yaml")),
            ..crate::config::Settings::default()
        };
        let args = vec![dir.join("a.sql")];
        let mut documents = super::unlisted_document_sql(&args, &settings, true);
        assert_eq!(documents.walked.len(), 1, "the project root");
        let inputs = super::discover_walked(&args, &settings, None, &mut documents.walked).unwrap();
        let context = super::context_walked(&args, &inputs, &settings, &mut documents.walked);
        assert!(documents.walked.is_empty(), "the root's walk was taken");
        let plain = super::context(&args, &inputs, &settings);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(context, plain);
        assert_eq!(context.len(), 1, "{context:?}");
    }

    #[test]
    fn path_keys_are_equal_exactly_when_paths_are() {
        let paths = [
            "a/b.sql",
            "a//b.sql",
            "a/./b.sql",
            "./a/b.sql",
            "a/b.sql/",
            "/r/a/b.sql",
            "/r//a/b.sql",
            "/r/./a/b.sql",
            "../a/b.sql",
            "a/../b.sql",
            "a/b.SQL",
            ".",
        ];
        let cwd = Path::new("/r");
        let absolute = |p: &str| {
            cwd.join(p)
                .components()
                .filter(|c| *c != std::path::Component::CurDir)
                .collect::<PathBuf>()
        };
        for x in paths {
            for y in paths {
                assert_eq!(
                    path_key(cwd, Path::new(x)) == path_key(cwd, Path::new(y)),
                    absolute(x) == absolute(y),
                    "{x} and {y}"
                );
            }
        }
        // One file spelt three ways is one key.
        assert_eq!(
            path_key(cwd, Path::new("a/b.sql")),
            path_key(cwd, Path::new("./a/b.sql"))
        );
        assert_eq!(
            path_key(cwd, Path::new("a/b.sql")),
            path_key(cwd, Path::new("/r/a/b.sql"))
        );
    }

    #[test]
    fn display_paths_are_relative_and_clean() {
        let cwd = Path::new("/repo");
        let shown = |p: &str| display_path(cwd, Path::new(p));
        assert_eq!(
            shown("./catalog/V1__a.sql"),
            PathBuf::from("catalog/V1__a.sql")
        );
        assert_eq!(
            shown("/repo/catalog/V1__a.sql"),
            PathBuf::from("catalog/V1__a.sql")
        );
        assert_eq!(shown("/elsewhere/a.sql"), PathBuf::from("/elsewhere/a.sql"));
        assert_eq!(shown("../x/a.sql"), PathBuf::from("../x/a.sql"));
        assert_eq!(shown("."), PathBuf::from("."));
    }
}

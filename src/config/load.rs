//! Finding and reading `.flinklint.yaml`, and resolving it with the command line into
//! [`Settings`].
//!
//! The config file is the nearest `.flinklint.yaml` in the working directory or a folder above
//! it, or the file given with `--config`. Its folder is the project root; without a config
//! file the root is the nearest git work tree above the working directory, else the working
//! directory itself. Paths in the file are relative to the project root. CLI flags win over
//! the file.
//!
//! Errors are [`ConfigError`]s: a miette diagnostic that points at the line and column of the
//! offending YAML, with a did-you-mean for unknown keys, rule codes and values. The command line
//! reports them and exits with 2.

use super::file::{ConfigFile, HistoryEntry, Pattern};
use super::glob::{self, PathMatcher};
use super::{
    FailOn, HistoryDir, HistoryLocation, HistoryOrder, Override, RuleSelector, Settings, Target,
};
use crate::files::{read_text, SMALL_LIMIT};
use crate::source::escape;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};
use std::fmt;
use std::path::{Path, PathBuf};

/// The config file's name.
pub const CONFIG_FILE: &str = ".flinklint.yaml";

/// The nearest `.flinklint.yaml` in `start` or a folder above it. Anything of that name counts
/// (reading one that is not a regular file is then an error), so that a broken config file is
/// reported rather than replaced by one further up.
pub fn find_config(start: &Path) -> Option<PathBuf> {
    glob::absolute(start)
        .ancestors()
        .map(|dir| dir.join(CONFIG_FILE))
        .find(|p| p.exists())
}

/// The project root: the folder of the nearest `.flinklint.yaml` above `start`, else the
/// nearest git work tree root, else `start` itself.
pub fn project_root(start: &Path) -> PathBuf {
    if let Some(config) = find_config(start) {
        if let Some(dir) = config.parent() {
            return dir.to_path_buf();
        }
    }
    let start = start.to_path_buf();
    for dir in start.ancestors() {
        if dir.join(".git").exists() {
            return dir.to_path_buf();
        }
    }
    start
}

/// A config problem: what is wrong, where (file, line and column, when known) and what to do.
#[derive(Debug)]
pub struct ConfigError {
    /// What is wrong.
    pub message: String,
    /// What to do (a did-you-mean, the accepted values).
    pub help: Option<String>,
    /// The config file, when the problem is in one.
    pub file: Option<PathBuf>,
    /// 1-based line and column of the offending YAML, when known.
    pub location: Option<(usize, usize)>,
    /// The config text and the span of the offending YAML (boxed: errors stay small).
    source: Option<Box<(NamedSource<String>, Option<SourceSpan>)>>,
}

impl ConfigError {
    /// A problem outside any file (a bad flag value).
    pub fn plain(message: impl Into<String>) -> ConfigError {
        ConfigError {
            message: escape::text(&message.into()).into_owned(),
            help: None,
            file: None,
            location: None,
            source: None,
        }
    }

    /// A problem in the config file `file` (whose text is `text`) at 1-based `location`.
    fn at(
        file: &Path,
        text: &str,
        location: Option<(usize, usize)>,
        message: String,
        help: Option<String>,
    ) -> ConfigError {
        // The config's own text may hold any character: shown escaped, in the message and in
        // the excerpt (offsets kept).
        let message = escape::text(&message).into_owned();
        let help = help.map(|h| escape::text(&h).into_owned());
        let message = match location {
            Some(_) => message,
            None => format!("{}: {message}", display(file)),
        };
        let span = location.map(|(line, column)| {
            let start = byte_offset(text, line, column);
            SourceSpan::new(start.into(), token_len(&text[start..]))
        });
        ConfigError {
            message,
            help,
            file: Some(file.to_path_buf()),
            location,
            source: Some(Box::new((
                NamedSource::new(display(file), escape::keeping_offsets(text).into_owned())
                    .with_language("yaml"),
                span,
            ))),
        }
    }

    /// A problem with a value of the config file found after reading it: points at the first
    /// occurrence of `needle` in the text.
    fn at_value(file: &Path, text: &str, needle: &str, message: String) -> ConfigError {
        let location = text.find(needle).map(|at| {
            let before = &text[..at];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            (line, column)
        });
        ConfigError::at(file, text, location, message, None)
    }

    /// The error as miette's graphical report (colour only when asked).
    pub fn render(&self, color: bool) -> String {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let handler = GraphicalReportHandler::new_themed(theme)
            .with_width(100)
            .with_links(false);
        let mut out = String::new();
        let _ = handler.render_report(&mut out, self);
        out
    }
}

/// The message alone: the file, line and column are in the report's source header (and in
/// [`ConfigError::file`] / [`ConfigError::location`]).
impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {}

impl miette::Diagnostic for ConfigError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("flinklint::config"))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source
            .as_ref()
            .map(|s| &s.0 as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.source.as_ref()?.1?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some("here".to_string()), span),
        )))
    }
}

fn display(path: &Path) -> String {
    crate::source::escape::path(path)
}

/// Byte offset of 1-based `line` and character `column` in `text` (clamped to the text).
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[start..];
    let within = rest
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(rest.len(), |(i, _)| i);
    start + within
}

/// Length in bytes of the YAML token at the start of `rest`: a quoted string, or a plain
/// scalar up to `:`, `,`, a bracket, a comment or the end of the line.
fn token_len(rest: &str) -> usize {
    let mut chars = rest.char_indices();
    match chars.next() {
        None => 0,
        Some((_, q @ ('"' | '\''))) => chars
            .find(|(_, c)| *c == q || *c == '\n')
            .map_or(rest.len(), |(i, c)| if c == q { i + 1 } else { i }),
        Some(_) => {
            let end = rest
                .find(['\n', '\r', ',', ']', '}', '#', ':'])
                .unwrap_or(rest.len());
            rest[..end].trim_end().len().max(1).min(rest.len())
        }
    }
}

/// Turns serde's `unknown field` / `unknown variant` messages into a message and a
/// did-you-mean help.
fn explain(message: &str) -> (String, Option<String>) {
    for (marker, what) in [("unknown field `", "key"), ("unknown variant `", "value")] {
        let Some(at) = message.find(marker) else {
            continue;
        };
        let rest = &message[at + marker.len()..];
        let Some(end) = rest.find('`') else { continue };
        let word = &rest[..end];
        let expected: Vec<&str> = rest[end + 1..].split('`').skip(1).step_by(2).collect();
        let prefix = &message[..at];
        let text = format!("{prefix}unknown {what} `{word}`");
        let help = match super::did_you_mean(word, expected.iter().copied()) {
            Some(best) => format!(
                "did you mean `{best}`? (expected one of: {})",
                expected.join(", ")
            ),
            None if expected.is_empty() => "this map takes no keys".to_string(),
            None => format!("expected one of: {}", expected.join(", ")),
        };
        return (text, Some(help));
    }
    // Messages of our own values carry their did-you-mean after `; `.
    match message.split_once("; did you mean ") {
        Some((text, rest)) => (text.to_string(), Some(format!("did you mean {rest}"))),
        None => (message.to_string(), None),
    }
}

/// Reads and checks a config file (without resolving paths).
///
/// Errors: the file cannot be read, is not valid YAML, or has an unknown key or a bad value.
pub fn read_config(path: &Path) -> Result<(ConfigFile, String), ConfigError> {
    let text = read_config_text(path, path)?;
    let config = parse_config(path, &text)?;
    Ok((config, text))
}

/// The text of the config file at `path` (shown as `shown`): a regular file of at most
/// [`SMALL_LIMIT`] bytes of UTF-8.
fn read_config_text(path: &Path, shown: &Path) -> Result<String, ConfigError> {
    read_text(path, SMALL_LIMIT)
        .map_err(|e| ConfigError::plain(format!("cannot read config file {}: {e}", display(shown))))
}

/// Parses config text; `path` names it in errors. An empty file (or one with only comments)
/// is the default configuration.
pub fn parse_config(path: &Path, text: &str) -> Result<ConfigFile, ConfigError> {
    let parsed: Result<Option<ConfigFile>, _> = super::yaml::from_str(text);
    match parsed {
        Ok(config) => Ok(config.unwrap_or_default()),
        Err(e) => {
            let (message, help) = explain(&e.message);
            Err(ConfigError::at(path, text, e.location, message, help))
        }
    }
}

/// What the command line says about settings; each set value wins over the config file.
#[derive(Debug, Clone, Default)]
pub struct CliSettings {
    /// `--config FILE` (instead of searching for `.flinklint.yaml`).
    pub config: Option<PathBuf>,
    /// `--target`.
    pub target: Option<Target>,
    /// `--select` (codes, names or families).
    pub select: Option<Vec<String>>,
    /// `--ignore` (codes, names or families).
    pub ignore: Vec<String>,
    /// `--fail-on`.
    pub fail_on: Option<FailOn>,
    /// `--force-exclude`.
    pub force_exclude: bool,
    /// `--history-dir` (repeatable).
    pub history_dirs: Vec<PathBuf>,
    /// `--external-tables` (repeatable): files or folders of DDL, relative to the working
    /// directory, added to the `external-tables` of the config file.
    pub external_tables: Vec<PathBuf>,
}

/// Resolves the settings of a run started in `cwd`: the config file (searched from `cwd`
/// unless `--config` names one), then the flags.
///
/// Errors: an unreadable or invalid config file, an unknown rule in `--select` / `--ignore`.
pub fn resolve(cwd: &Path, cli: &CliSettings) -> Result<Settings, ConfigError> {
    let config_path = match &cli.config {
        Some(p) => Some(p.clone()),
        None => find_config(cwd),
    };
    let mut settings = Settings::default();
    match &config_path {
        Some(path) => {
            let root = glob::absolute(path)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| glob::absolute(cwd));
            // Errors show a found file relative to the working directory when it is there.
            let shown = match &cli.config {
                Some(given) => given.clone(),
                None => path
                    .strip_prefix(glob::absolute(cwd))
                    .map_or_else(|_| path.clone(), Path::to_path_buf),
            };
            settings.root = Some(root);
            settings.config_file = Some(path.clone());
            let text = read_config_text(path, &shown)?;
            let config = parse_config(&shown, &text)?;
            apply(&mut settings, config, &shown, &text)?;
        }
        None => settings.root = Some(glob::absolute(&project_root(cwd))),
    }
    if let Some(target) = cli.target {
        settings.target = target;
        settings.target_from_cli = true;
    }
    if let Some(fail_on) = cli.fail_on {
        settings.fail_on = fail_on;
    }
    settings.force_exclude |= cli.force_exclude;
    let selectors = |flag: &str, values: &[String]| -> Result<Vec<RuleSelector>, ConfigError> {
        values
            .iter()
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(|v| RuleSelector::parse(v).map_err(|e| ConfigError::plain(format!("{flag}: {e}"))))
            .collect()
    };
    if let Some(select) = &cli.select {
        settings.select = Some(selectors("--select", select)?);
    }
    settings.ignore = selectors("--ignore", &cli.ignore)?;
    for dir in &cli.history_dirs {
        settings.histories.push(HistoryDir {
            location: HistoryLocation::Dir(glob::absolute(dir)),
            order: HistoryOrder::Natural,
        });
    }
    for path in &cli.external_tables {
        let full = glob::absolute(&cwd.join(path));
        let files = if full.is_file() {
            vec![full]
        } else if full.is_dir() {
            walk_files(&full)
                .into_iter()
                .filter(|f| has_extension(&settings, f))
                .collect()
        } else {
            return Err(ConfigError::plain(format!(
                "--external-tables: `{}` {}",
                display(path),
                not_there(&full)
            )));
        };
        for f in files {
            if !settings.external_tables.contains(&f) {
                settings.external_tables.push(f);
            }
        }
    }
    Ok(settings)
}

/// Why `path`, neither a file nor a folder, cannot be read as one: it does not exist, or it is
/// something else (a named pipe, a device, a socket), which is never read.
fn not_there(path: &Path) -> String {
    match crate::files::regular_file(path) {
        Err(crate::files::ReadError::NotAFile(kind)) => {
            format!("is {kind}, neither a file nor a folder")
        }
        // A symbolic-link loop, a folder that cannot be searched: the name is there.
        Err(crate::files::ReadError::Io(e))
            if e.kind() != std::io::ErrorKind::NotFound
                && std::fs::symlink_metadata(path).is_ok() =>
        {
            format!("cannot be read: {e}")
        }
        _ => "does not exist".to_string(),
    }
}

/// Applies a parsed config file to `settings` (whose `root` is set), resolving paths.
///
/// Errors: a list file or external-table path that does not exist, a `system-columns` or
/// `functions` type that is not a Flink SQL type; each located in `text`.
pub fn apply(
    settings: &mut Settings,
    config: ConfigFile,
    path: &Path,
    text: &str,
) -> Result<(), ConfigError> {
    let root = settings.root.clone().unwrap_or_else(|| PathBuf::from("."));
    let patterns = |list: &[Pattern]| -> Result<PathMatcher, ConfigError> {
        PathMatcher::new(&list.iter().map(|p| p.0.as_str()).collect::<Vec<_>>()).map_err(|e| {
            let p = &list[e.index].0;
            ConfigError::at_value(
                path,
                text,
                p,
                format!("invalid pattern `{p}`: {}", e.message),
            )
        })
    };
    if let Some(t) = config.target {
        settings.target = t.0;
    }
    if let Some(rules) = config.rules {
        settings.rules.push_layer(rules.0);
    }
    if let Some(f) = config.fail_on {
        settings.fail_on = f;
    }
    if let Some(exclude) = &config.exclude {
        settings.exclude = patterns(exclude)?;
    }
    if let Some(b) = config.respect_gitignore {
        settings.respect_gitignore = b;
    }
    if let Some(b) = config.force_exclude {
        settings.force_exclude = b;
    }
    if let Some(ext) = config.extensions {
        settings.extensions = ext.into_iter().map(|e| e.0).collect();
    }
    if let Some(mode) = config.catalog {
        settings.catalog = mode;
    }
    if let Some(d) = config.dialect_detection {
        settings.dialect_detection = d;
    }
    if let Some(list) = &config.flink_files {
        settings.flink_files = patterns(list)?;
    }
    if let Some(list) = &config.other_files {
        settings.other_files = patterns(list)?;
    }
    if let Some(list) = &config.scripts {
        settings.scripts = patterns(list)?;
    }
    for entry in config.histories.unwrap_or_default() {
        let HistoryEntry { path: p, order } = entry;
        let order = match order.as_deref().map(str::trim) {
            None | Some("natural") => HistoryOrder::Natural,
            Some("lexicographic") => HistoryOrder::Lexicographic,
            Some(list) => {
                let file = root.join(list);
                let body = read_text(&file, SMALL_LIMIT).map_err(|e| {
                    ConfigError::at_value(
                        path,
                        text,
                        list,
                        format!(
                            "cannot read the order file `{list}` of history `{}`: {e}",
                            p.0
                        ),
                    )
                })?;
                HistoryOrder::Listed(
                    body.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty() && !l.starts_with('#'))
                        .map(str::to_string)
                        .collect(),
                )
            }
        };
        settings.histories.push(HistoryDir {
            location: HistoryLocation::Pattern(patterns(std::slice::from_ref(&p))?),
            order,
        });
    }
    if let Some(dir) = &config.cache_dir {
        // `~/...` is the user's home folder, as a shell would read it (not a folder named `~`).
        let home = std::env::var_os("HOME").filter(|h| !h.is_empty());
        let dir = match (dir.strip_prefix("~/"), home) {
            (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
            _ if dir == "~" => {
                std::env::var_os("HOME").map_or_else(|| PathBuf::from(dir), PathBuf::from)
            }
            _ => PathBuf::from(dir),
        };
        settings.cache_dir = Some(super::glob::absolute(&root.join(dir)));
    }
    if let Some(list) = &config.external_tables {
        settings.external_tables = external_files(settings, &root, list, path, text)?;
    }
    if let Some(m) = config.default_start_mode {
        settings.default_start_mode = Some(m.0);
    }
    if let Some(m) = config.start_mode_fix {
        settings.start_mode_fix = Some(m.0);
    }
    if let Some(columns) = config.system_columns {
        for c in &columns {
            if crate::syntax::parse_data_type(&c.data_type).is_none() {
                // Point at the type text written after the column's name.
                let from = text.find(c.name.as_str()).unwrap_or(0);
                let at = text[from..]
                    .find(c.data_type.as_str())
                    .map_or(from, |i| from + i);
                let line = text[..at].matches('\n').count() + 1;
                let column = text[..at].rsplit('\n').next().unwrap_or("").chars().count() + 1;
                return Err(ConfigError::at(
                    path,
                    text,
                    Some((line, column)),
                    format!(
                        "system column `{}`: `{}` is not a Flink SQL type",
                        c.name, c.data_type
                    ),
                    Some(
                        "write a column type as in CREATE TABLE, e.g. `TIMESTAMP_LTZ(3) NOT NULL`"
                            .to_string(),
                    ),
                ));
            }
        }
        settings.system_columns = columns.into_iter().map(|c| (c.name, c.data_type)).collect();
    }
    if let Some(functions) = config.functions {
        for f in &functions {
            let types = f.args.iter().flatten().chain(f.returns.iter());
            for ty in types {
                if crate::syntax::parse_data_type(ty).is_none() {
                    let from = text.find(f.name.as_str()).unwrap_or(0);
                    let at = text[from..].find(ty.as_str()).map_or(from, |i| from + i);
                    let line = text[..at].matches('\n').count() + 1;
                    let column = text[..at].rsplit('\n').next().unwrap_or("").chars().count() + 1;
                    return Err(ConfigError::at(
                        path,
                        text,
                        Some((line, column)),
                        format!("function `{}`: `{ty}` is not a Flink SQL type", f.name),
                        Some("write a type as in CREATE TABLE, e.g. `DECIMAL(10, 2)`".to_string()),
                    ));
                }
            }
        }
        settings.functions = functions;
    }
    if let Some(connectors) = config.connectors {
        for c in &connectors {
            for o in &c.options {
                if o.value_type == super::file::OptionType::Enum && o.values.is_empty() {
                    let from = text.find(c.name.as_str()).unwrap_or(0);
                    let at = text[from..].find(o.key.as_str()).map_or(from, |i| from + i);
                    let line = text[..at].matches('\n').count() + 1;
                    let column = text[..at].rsplit('\n').next().unwrap_or("").chars().count() + 1;
                    return Err(ConfigError::at(
                        path,
                        text,
                        Some((line, column)),
                        format!("connector `{}`: enum option `{}` lists no values", c.name, o.key),
                        Some("list the values it takes, e.g. `values: [earliest-offset, latest-offset]`".to_string()),
                    ));
                }
            }
        }
        settings.connectors = connectors;
    }
    if let Some(prefix) = config.system_column_prefix {
        settings.system_column_prefix = Some(prefix);
    }
    if let Some(b) = config.require_suppression_reason {
        settings.require_suppression_reason = b;
    }
    for o in config.overrides.unwrap_or_default() {
        settings.overrides.push(Override {
            paths: patterns(&o.paths.0)?,
            target: o.target.map(|t| t.0),
            rules: o.rules.map(|r| r.0).unwrap_or_default(),
        });
    }
    Ok(())
}

/// Whether `path` has one of the configured extensions.
fn has_extension(settings: &Settings, path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        settings
            .extensions
            .iter()
            .any(|x| x.eq_ignore_ascii_case(e))
    })
}

/// The files under `dir`, absolute, sorted by name (hidden folders, `target` and
/// `node_modules` skipped).
fn walk_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || !e.file_type().is_dir()
                || !(e.file_name().to_string_lossy().starts_with('.')
                    || e.file_name() == "target"
                    || e.file_name() == "node_modules")
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| glob::absolute(e.path()))
        .collect()
}

/// The files of `external-tables`, absolute, in list order (each glob's matches sorted): a
/// path names a file, or a folder whose files with the configured extensions are taken; a
/// glob is matched against the files under the project root.
///
/// Errors: a path (not a glob) that does not exist.
fn external_files(
    settings: &Settings,
    root: &Path,
    list: &[Pattern],
    path: &Path,
    text: &str,
) -> Result<Vec<PathBuf>, ConfigError> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut all_files: Option<Vec<PathBuf>> = None;
    let has_ext = |p: &Path| has_extension(settings, p);
    let walk = walk_files;
    for p in list {
        let pattern = p.0.trim();
        if glob::is_glob(pattern) {
            let matcher = PathMatcher::new(&[pattern]).map_err(|e| {
                ConfigError::at_value(
                    path,
                    text,
                    pattern,
                    format!("invalid pattern: {}", e.message),
                )
            })?;
            let files = all_files.get_or_insert_with(|| walk(root));
            for f in files.iter() {
                let rel = f.strip_prefix(root).unwrap_or(f);
                if matcher.matches_path_or_parent(rel, false) && has_ext(f) {
                    out.push(f.clone());
                }
            }
            continue;
        }
        let full = glob::absolute(&root.join(pattern.trim_start_matches('/')));
        if full.is_file() {
            out.push(full);
        } else if full.is_dir() {
            out.extend(walk(&full).into_iter().filter(|f| has_ext(f)));
        } else {
            return Err(ConfigError::at_value(
                path,
                text,
                pattern,
                format!("external-tables: `{pattern}` {} (paths are relative to the project root, the folder of this file)", not_there(&full)),
            ));
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|f| seen.insert(f.clone()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_characters() {
        let text = "a: 1\nbé: x\n";
        assert_eq!(byte_offset(text, 2, 1), 5);
        assert_eq!(byte_offset(text, 2, 5), 10);
        assert_eq!(byte_offset(text, 9, 1), text.len());
    }

    #[test]
    fn unknown_fields_get_a_suggestion() {
        let (m, h) = explain("unknown field `fial-on`, expected one of `target`, `fail-on`");
        assert_eq!(m, "unknown key `fial-on`");
        assert!(h.unwrap().starts_with("did you mean `fail-on`?"));
    }

    #[test]
    fn empty_and_comment_only_files_are_the_defaults() {
        for text in ["", "\n", "# nothing yet\n"] {
            let c = parse_config(Path::new("x.yaml"), text).unwrap();
            assert!(c.target.is_none());
        }
    }
}

//! Configuration: the settings a run uses (target, rule levels, failure threshold, paths, ...).
//!
//! `.flinklint.yaml` ([`file`]) and the command line ([`load`]) resolve into one [`Settings`]
//! value; every later stage reads settings from here. CLI flags win over the file. Settings
//! that differ by folder (`overrides`) are resolved per file with [`Settings::for_file`] or,
//! once per run, [`SettingsByFile`]. All YAML handling lives in [`yaml`] so the YAML library
//! can be swapped in one place.
//!
//! Rule codes and names are checked against the rule metadata ([`crate::registry`], data
//! generated from `rules/*.yaml`), as are severities.

pub mod file;
pub mod glob;
pub mod load;
mod target;
pub mod yaml;

pub use glob::PathMatcher;
pub use load::{find_config, project_root, resolve, CliSettings, ConfigError, CONFIG_FILE};
pub use target::Target;

use crate::registry::{Severity, RULE_DOCS};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// The severity threshold at which a run fails (exit code 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    /// Fail on errors only.
    Error,
    /// Fail on warnings and errors (the default).
    #[default]
    Warning,
    /// Fail on any finding.
    Info,
    /// Never fail because of findings.
    Never,
}

impl FailOn {
    /// Parses `error | warning | info | never`.
    pub fn parse(s: &str) -> Option<FailOn> {
        Some(match s {
            "error" => FailOn::Error,
            "warning" => FailOn::Warning,
            "info" => FailOn::Info,
            "never" => FailOn::Never,
            _ => return None,
        })
    }
    /// Whether a finding of `severity` fails the run.
    pub fn fails(self, severity: Severity) -> bool {
        match self {
            FailOn::Error => severity >= Severity::Error,
            FailOn::Warning => severity >= Severity::Warning,
            FailOn::Info => true,
            FailOn::Never => false,
        }
    }
}

/// Whether flinklint decides which statements are Flink SQL (config `dialect-detection`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DialectDetection {
    /// Statements of other dialects (MySQL, Hive, templates, ...) are detected, noted once
    /// (SY006) and not checked (the default).
    #[default]
    Auto,
    /// Every statement is checked as Flink SQL (but the files of `other-files`).
    Off,
}

/// What a rule's findings become: a severity, or dropped (`off`). Config values
/// `error | warning | info | off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Reported as errors.
    Error,
    /// Reported as warnings.
    Warning,
    /// Reported as info.
    Info,
    /// Not reported (and, when off everywhere, not run).
    Off,
}

impl Level {
    /// The severity findings get; `None` for `off`.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Error => Some(Severity::Error),
            Level::Warning => Some(Severity::Warning),
            Level::Info => Some(Severity::Info),
            Level::Off => None,
        }
    }
}

/// A rule, or a family of rules (the letters of their codes, e.g. `LK`), as named in `rules:`,
/// `--select` and `--ignore`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSelector {
    /// One rule, by its code.
    Code(&'static str),
    /// Every rule whose code starts with these letters.
    Family(&'static str),
}

impl RuleSelector {
    /// Parses a rule code (any case), a rule name (`syntax-error`) or a family prefix (`LK`).
    ///
    /// Errors: a message naming the unknown rule, with the closest known code or name.
    pub fn parse(s: &str) -> Result<RuleSelector, String> {
        let s = s.trim();
        if let Some(meta) = crate::registry::find(s) {
            return Ok(RuleSelector::Code(meta.code));
        }
        if let Some(meta) = RULE_DOCS
            .iter()
            .find(|m| family_of(m.code).eq_ignore_ascii_case(s))
        {
            return Ok(RuleSelector::Family(family_of(meta.code)));
        }
        let message = format!("unknown rule `{s}`");
        Err(match crate::registry::suggestion(s) {
            Some(best) => format!("{message}; did you mean `{best}`?"),
            None => format!("{message}; `flinklint rules` lists every code and name"),
        })
    }

    /// Whether the selector names the rule with this code.
    pub fn matches(self, code: &str) -> bool {
        match self {
            RuleSelector::Code(c) => c == code,
            RuleSelector::Family(f) => family_of(code) == f,
        }
    }

    /// The codes of the rules it names, in code order.
    pub fn codes(self) -> impl Iterator<Item = &'static str> {
        RULE_DOCS
            .iter()
            .map(|m| m.code)
            .filter(move |c| self.matches(c))
    }
}

/// The registry's `&'static` spelling of `code` (or `""` for an unknown code).
fn code_of(code: &str) -> &'static str {
    RULE_DOCS
        .iter()
        .find(|m| m.code == code)
        .map_or("", |m| m.code)
}

/// The family of a code: its leading letters (`LK` for `LK005`).
fn family_of(code: &str) -> &str {
    let end = code
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(code.len());
    &code[..end]
}

/// The candidate closest to `word` (ignoring case), if one is close enough to be a likely typo.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let word = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            (
                strsim::normalized_damerau_levenshtein(&word, &c.to_ascii_lowercase()),
                c,
            )
        })
        .filter(|(score, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Configured rule levels: one layer per source (the file's `rules`, then each matching
/// override, in order). Later layers win; within a layer a code wins over its family.
#[derive(Debug, Clone, Default)]
pub struct RuleLevels {
    layers: Vec<Vec<(RuleSelector, Level)>>,
}

impl RuleLevels {
    /// Adds a layer that wins over the earlier ones.
    pub fn push_layer(&mut self, layer: Vec<(RuleSelector, Level)>) {
        if !layer.is_empty() {
            self.layers.push(layer);
        }
    }
    /// The configured level of the rule `code`, if any.
    pub fn get(&self, code: &str) -> Option<Level> {
        for layer in self.layers.iter().rev() {
            let exact = layer
                .iter()
                .rev()
                .find(|(s, _)| matches!(s, RuleSelector::Code(c) if *c == code));
            let any = exact.or_else(|| layer.iter().rev().find(|(s, _)| s.matches(code)));
            if let Some((_, level)) = any {
                return Some(*level);
            }
        }
        None
    }
}

/// How the scripts of a project see the objects other scripts create (config `catalog`).
/// Histories and the `external-tables` files build the persistent catalog first in every
/// model; scripts see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CatalogMode {
    /// Each script runs in its own session; a name it uses but does not create resolves to the
    /// permanent object another script creates, when the scripts that create it agree on its
    /// definition (the default).
    #[default]
    Auto,
    /// Each script runs in its own session and sees only what it creates itself.
    Session,
    /// Every script's permanent statements apply to one catalog, in dependency order: a script
    /// that creates an object runs before the scripts that use it.
    Persistent,
}

impl CatalogMode {
    /// The configuration's spelling: `auto`, `session` or `persistent`.
    pub fn as_str(self) -> &'static str {
        match self {
            CatalogMode::Auto => "auto",
            CatalogMode::Session => "session",
            CatalogMode::Persistent => "persistent",
        }
    }
}

/// The order in which a configured history's files apply.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum HistoryOrder {
    /// Versions compared as numbers (`V2` before `V10`), then names (the default).
    #[default]
    Natural,
    /// File names compared as strings (`V10` before `V2`).
    Lexicographic,
    /// The order of a list file: file names (or paths relative to the history folder), one a
    /// line; blank lines and `#` comments are skipped. Files of the folder that are not listed
    /// apply after the listed ones, in natural order.
    Listed(Vec<String>),
}

/// Where a configured history is.
#[derive(Debug, Clone)]
pub enum HistoryLocation {
    /// A folder given on the command line (`--history-dir`), made absolute.
    Dir(PathBuf),
    /// Folders whose path relative to the project root matches a pattern.
    Pattern(PathMatcher),
}

/// A folder applied as a history whatever its file names (config `histories`, flag
/// `--history-dir`), and the order of its files.
#[derive(Debug, Clone)]
pub struct HistoryDir {
    /// Which folder(s).
    pub location: HistoryLocation,
    /// In which order its files apply.
    pub order: HistoryOrder,
}

/// A group of files that differ from the rest (config `overrides`).
#[derive(Debug, Clone)]
pub struct Override {
    /// The files it applies to (paths relative to the project root; a folder covers its
    /// contents).
    pub paths: PathMatcher,
    /// Their target, if it differs.
    pub target: Option<Target>,
    /// Their rule levels, over the file's `rules`.
    pub rules: Vec<(RuleSelector, Level)>,
}

/// Resolved settings of one run.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The Flink version or platform checked for.
    pub target: Target,
    /// When the run fails.
    pub fail_on: FailOn,
    /// How scripts see the objects other scripts create (config `catalog`).
    pub catalog: CatalogMode,
    /// Folders applied as histories (migrations) beside the ones detected by file names.
    pub histories: Vec<HistoryDir>,
    /// Folders whose files are scripts whatever their names (config `scripts`): numbered or
    /// Flyway-style names do not make them a history.
    pub scripts: PathMatcher,
    /// The cluster's `materialized-table.default-start-mode` (config `default-start-mode`);
    /// `None`: Flink's default, FROM_BEGINNING.
    pub default_start_mode: Option<crate::syntax::ast::StartModeKind>,
    /// The start mode MT001 / MT002 fixes write (config `start-mode-fix`); `None`:
    /// FROM_BEGINNING, which keeps today's behaviour and makes it explicit.
    pub start_mode_fix: Option<crate::syntax::ast::StartModeKind>,
    /// The project root (absolute): the config file's folder, else the git work tree, else the
    /// working directory. Path patterns are matched relative to it. `None`: paths are matched
    /// as given.
    pub root: Option<PathBuf>,
    /// The config file read, if any.
    pub config_file: Option<PathBuf>,
    /// Configured rule levels (config `rules`, and the matching `overrides` per file).
    pub rules: RuleLevels,
    /// `--select`: only these rules run. `None`: every rule.
    pub select: Option<Vec<RuleSelector>>,
    /// `--ignore`: these rules never run (wins over `select`).
    pub ignore: Vec<RuleSelector>,
    /// File extensions read in folders, without the dot, compared ignoring case. A document
    /// (`md`, `markdown`, `mdx`, `rst`) is read only when its extension is listed, even when named.
    pub extensions: Vec<String>,
    /// Paths skipped while walking folders.
    pub exclude: PathMatcher,
    /// Whether statements of other dialects are detected (config `dialect-detection`).
    pub dialect_detection: DialectDetection,
    /// Files that are Flink SQL whatever the detection says (config `flink-files`).
    pub flink_files: PathMatcher,
    /// Files that are not Flink SQL, never checked (config `other-files`).
    pub other_files: PathMatcher,
    /// Whether `.gitignore` files (and `.git/info/exclude`) are respected while walking.
    pub respect_gitignore: bool,
    /// Whether `exclude` also applies to paths given explicitly.
    pub force_exclude: bool,
    /// Platform system columns (config `system-columns`): `(name, type)` as written, e.g.
    /// Confluent's `("$rowtime", "TIMESTAMP_LTZ(3) NOT NULL")`.
    pub system_columns: Vec<(String, String)>,
    /// Reserved prefix of system column names (config `system-column-prefix`), e.g. `$`.
    pub system_column_prefix: Option<String>,
    /// User-defined functions declared in the configuration (config `functions`): name,
    /// argument types and return type as written (types checked when loaded).
    pub functions: Vec<file::FunctionEntry>,
    /// The project's own connectors and formats, and those it marks unchecked (config
    /// `connectors`).
    pub connectors: Vec<file::ConnectorEntry>,
    /// DDL files of tables that live outside the repository, absolute (config
    /// `external-tables`, flag `--external-tables`): applied first, before the histories, and
    /// never reported on.
    pub external_tables: Vec<PathBuf>,
    /// Whether a suppression without `-- reason` is reported (SU001).
    pub require_suppression_reason: bool,
    /// Per-folder settings, in file order.
    pub overrides: Vec<Override>,
    /// Whether the target came from `--target` (which wins over `overrides`).
    pub target_from_cli: bool,
    /// Whether the semantic model may leave out each script's session (its catalog and
    /// versions) once the script's problems are found, and record no session's versions:
    /// `check` reports only problems and sets it; `expand` reads the sessions. Not a
    /// configuration key.
    pub drop_script_sessions: bool,
    /// Whether every query's names are validated ([`crate::semantic::validate`]); off only to
    /// measure what the pass costs (the benchmark). Not a configuration key.
    pub validate_queries: bool,
    /// Whether connector and format options are checked ([`crate::semantic::options`]); off
    /// only to measure what the checks cost (the benchmark). Not a configuration key.
    pub check_options: bool,
    /// Whether every pipeline is planned ([`crate::semantic::plan`]) and checked; off only to
    /// measure what the pass costs (the benchmark). Not a configuration key.
    pub plan_pipelines: bool,
    /// The folder of the context cache (config `cache-dir`, absolute); `None`: the default,
    /// `.flinklint_cache` in the project root ([`crate::discover::cache`]).
    pub cache_dir: Option<PathBuf>,
    /// The tables and views (last part of the name, lower case) that the SQL blocks of the
    /// project's documents create when the run does not check them (`extensions` does not
    /// list them): they exist somewhere, with an unknown definition
    /// ([`crate::semantic::elsewhere`]). Not a configuration key.
    pub documented_names: std::sync::Arc<Vec<String>>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            target: Target::default(),
            fail_on: FailOn::default(),
            catalog: CatalogMode::default(),
            histories: Vec::new(),
            scripts: PathMatcher::default(),
            default_start_mode: None,
            start_mode_fix: None,
            root: None,
            config_file: None,
            rules: RuleLevels::default(),
            select: None,
            ignore: Vec::new(),
            extensions: vec!["sql".to_string()],
            exclude: PathMatcher::default(),
            dialect_detection: DialectDetection::Auto,
            flink_files: PathMatcher::default(),
            other_files: PathMatcher::default(),
            respect_gitignore: true,
            force_exclude: false,
            system_columns: Vec::new(),
            system_column_prefix: None,
            functions: Vec::new(),
            connectors: Vec::new(),
            external_tables: Vec::new(),
            require_suppression_reason: false,
            overrides: Vec::new(),
            target_from_cli: false,
            drop_script_sessions: false,
            validate_queries: true,
            check_options: true,
            plan_pipelines: true,
            cache_dir: None,
            documented_names: Default::default(),
        }
    }
}

impl Settings {
    /// `path` relative to the project root with `/` separators, as patterns see it (`path`
    /// itself, without a leading `./`, when there is no root or it lies outside).
    pub fn relative_path(&self, path: &Path) -> PathBuf {
        if let Some(rel) = self
            .root
            .as_deref()
            .and_then(|root| glob::relative_to(root, path))
        {
            return rel;
        }
        path.components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect()
    }

    /// Indices of the overrides that apply to `path`, in order.
    fn matching_overrides(&self, path: &Path) -> Vec<usize> {
        if self.overrides.is_empty() {
            return Vec::new();
        }
        let rel = self.relative_path(path);
        self.overrides
            .iter()
            .enumerate()
            .filter(|(_, o)| o.paths.matches_path_or_parent(&rel, false))
            .map(|(i, _)| i)
            .collect()
    }

    /// These settings with the given overrides applied (and none left to apply).
    fn with_overrides(&self, indices: &[usize]) -> Settings {
        let mut s = self.clone();
        for &i in indices {
            let o = &self.overrides[i];
            if let (Some(target), false) = (o.target, self.target_from_cli) {
                s.target = target;
            }
            s.rules.push_layer(o.rules.clone());
        }
        s.overrides.clear();
        s
    }

    /// The settings of one file: the run's settings with the `overrides` that match it
    /// applied (a later override wins over an earlier one, key by key; `--target` wins over
    /// all). Borrowed when no override matches.
    pub fn for_file(&self, path: &Path) -> Cow<'_, Settings> {
        let matching = self.matching_overrides(path);
        if matching.is_empty() {
            Cow::Borrowed(self)
        } else {
            Cow::Owned(self.with_overrides(&matching))
        }
    }

    /// The configured level of the rule `code`: `Some(Off)` when `--ignore`d or not
    /// `--select`ed, else the configured level, `None` for the rule's defaults. Selecting a
    /// rule by its code or name turns an `off` from `rules:` back on at the default severity;
    /// selecting its family does not.
    pub fn level(&self, code: &str) -> Option<Level> {
        if self.ignore.iter().any(|s| s.matches(code)) {
            return Some(Level::Off);
        }
        let configured = self.rules.get(code);
        let Some(select) = &self.select else {
            return configured;
        };
        if !select.iter().any(|s| s.matches(code)) {
            return Some(Level::Off);
        }
        let by_code = select.contains(&RuleSelector::Code(code_of(code)));
        match configured {
            Some(Level::Off) if by_code => None,
            other => other,
        }
    }

    /// The severity a finding of `code` found at `default` severity is reported with; `None`
    /// when the rule is off.
    pub fn severity(&self, code: &str, default: Severity) -> Option<Severity> {
        match self.level(code) {
            None => Some(default),
            Some(level) => level.severity(),
        }
    }

    /// The configured history whose folder is `dir`, if any (the last one listed wins).
    pub fn history_order(&self, dir: &Path) -> Option<&HistoryOrder> {
        if self.histories.is_empty() {
            return None;
        }
        let abs = glob::absolute(dir);
        let rel = self.relative_path(dir);
        self.histories
            .iter()
            .rev()
            .find(|h| match &h.location {
                HistoryLocation::Dir(d) => *d == abs,
                HistoryLocation::Pattern(p) => p.matches(&rel, true),
            })
            .map(|h| &h.order)
    }

    /// Whether the folder `dir` is configured under `scripts` (the folder, or a folder above
    /// it): its files are scripts, never a history by their names.
    pub fn scripts_folder(&self, dir: &Path) -> bool {
        !self.scripts.is_empty()
            && self
                .scripts
                .matches_path_or_parent(&self.relative_path(dir), true)
    }

    /// What the configuration says of the dialect of the file at `path`: `None` to detect it,
    /// else why its verdict is fixed ([`crate::dialect::Reason`]): `flink-files` first, then
    /// `other-files`, then `dialect-detection: off`.
    pub fn configured_dialect(&self, path: &Path) -> Option<crate::dialect::Reason> {
        use crate::dialect::Reason;
        let configured = |m: &PathMatcher| {
            !m.is_empty() && m.matches_path_or_parent(&self.relative_path(path), false)
        };
        if configured(&self.flink_files) {
            Some(Reason::FlinkFiles)
        } else if configured(&self.other_files) {
            Some(Reason::OtherFiles)
        } else if self.dialect_detection == DialectDetection::Off {
            Some(Reason::DetectionOff)
        } else {
            None
        }
    }

    /// Whether `path` is one of the `external-tables` files.
    pub fn is_external(&self, path: &Path) -> bool {
        !self.external_tables.is_empty() && self.external_tables.contains(&glob::absolute(path))
    }
}

/// Each file's settings for one run, computed once: files with the same matching overrides
/// share one resolved [`Settings`]; files without any borrow the run's.
#[derive(Debug)]
pub struct SettingsByFile<'a> {
    base: &'a Settings,
    resolved: Vec<Settings>,
    /// Per file: index into `resolved`, or `None` for `base`.
    index: Vec<Option<usize>>,
}

impl<'a> SettingsByFile<'a> {
    /// Resolves the settings of `paths` (in run order).
    pub fn new<'p>(base: &'a Settings, paths: impl IntoIterator<Item = &'p Path>) -> Self {
        let mut resolved = Vec::new();
        let mut seen: std::collections::HashMap<Vec<usize>, usize> =
            std::collections::HashMap::new();
        let index = paths
            .into_iter()
            .map(|p| {
                let matching = base.matching_overrides(p);
                if matching.is_empty() {
                    return None;
                }
                let at = *seen.entry(matching.clone()).or_insert_with(|| {
                    resolved.push(base.with_overrides(&matching));
                    resolved.len() - 1
                });
                Some(at)
            })
            .collect();
        SettingsByFile {
            base,
            resolved,
            index,
        }
    }

    /// The settings of the file at `index` in run order (the run's settings for an index out
    /// of range).
    pub fn get(&self, index: usize) -> &Settings {
        match self.index.get(index).copied().flatten() {
            Some(i) => &self.resolved[i],
            None => self.base,
        }
    }

    /// Every distinct settings value in use: the run's and each resolved one.
    pub fn distinct(&self) -> impl Iterator<Item = &Settings> {
        std::iter::once(self.base).chain(self.resolved.iter())
    }
}

/// The system column Confluent Cloud adds to every table: the record timestamp, read-only and
/// hidden from `SELECT *` (Confluent Cloud docs, "Flink SQL: system columns" / `$rowtime`).
pub const CONFLUENT_ROWTIME: (&str, &str) = ("$rowtime", "TIMESTAMP_LTZ(3)");

impl Settings {
    /// The system columns every table has on this target: Confluent's `$rowtime` on
    /// `confluent`, then the project's (a project column of the same name replaces the
    /// target's). Apache Flink targets reserve nothing.
    pub fn effective_system_columns(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        if self.target == Target::Confluent {
            out.push((CONFLUENT_ROWTIME.0.into(), CONFLUENT_ROWTIME.1.into()));
        }
        for (name, ty) in &self.system_columns {
            out.retain(|(n, _)| n != name);
            out.push((name.clone(), ty.clone()));
        }
        out
    }
    /// The reserved system-column prefix on this target: the project's, else `$` on
    /// `flink-next` (the seed FLIP-348 draft); Apache Flink and Confluent reserve no prefix.
    pub fn effective_system_prefix(&self) -> Option<String> {
        self.system_column_prefix
            .clone()
            .filter(|p| !p.is_empty())
            .or_else(|| (self.target == Target::FlinkNext).then(|| "$".to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_parse_codes_names_and_families() {
        assert_eq!(
            RuleSelector::parse("sy001"),
            Ok(RuleSelector::Code("SY001"))
        );
        assert_eq!(
            RuleSelector::parse("syntax-error"),
            Ok(RuleSelector::Code("SY001"))
        );
        assert_eq!(RuleSelector::parse("lk"), Ok(RuleSelector::Family("LK")));
        let e = RuleSelector::parse("SY01").unwrap_err();
        assert!(e.contains("did you mean"), "{e}");
    }

    #[test]
    fn later_layers_win_and_codes_win_over_families() {
        let mut levels = RuleLevels::default();
        levels.push_layer(vec![
            (RuleSelector::Code("LK005"), Level::Warning),
            (RuleSelector::Family("LK"), Level::Off),
        ]);
        assert_eq!(levels.get("LK005"), Some(Level::Warning));
        assert_eq!(levels.get("LK001"), Some(Level::Off));
        levels.push_layer(vec![(RuleSelector::Family("LK"), Level::Info)]);
        assert_eq!(levels.get("LK005"), Some(Level::Info));
        assert_eq!(levels.get("SY001"), None);
    }

    #[test]
    fn select_and_ignore_win_over_levels() {
        let mut s = Settings::default();
        s.rules
            .push_layer(vec![(RuleSelector::Code("SY003"), Level::Off)]);
        assert_eq!(s.severity("SY003", Severity::Error), None);
        // Selecting the family keeps the configured `off`; selecting the rule overrides it.
        s.select = Some(vec![RuleSelector::Family("SY")]);
        assert_eq!(s.severity("SY003", Severity::Error), None);
        assert_eq!(s.severity("SY001", Severity::Error), Some(Severity::Error));
        assert_eq!(s.severity("LK005", Severity::Error), None);
        s.select = Some(vec![
            RuleSelector::Family("SY"),
            RuleSelector::Code("SY003"),
        ]);
        assert_eq!(s.severity("SY003", Severity::Error), Some(Severity::Error));
        s.ignore = vec![RuleSelector::Code("SY003")];
        assert_eq!(s.severity("SY003", Severity::Error), None);
    }
}

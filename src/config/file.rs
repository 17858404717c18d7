//! The shape of `.flinklint.yaml`: what each key accepts, checked while it is read so that
//! every error carries the line and column of the offending value (see [`super::load`]).
//!
//! Every key is optional; unknown keys are rejected. `docs/flinklint.schema.json` describes
//! the same shape as a JSON Schema, and `docs/configuration.md` documents it; [`KEYS`] is the
//! list both are tested against.

use super::{Level, RuleSelector, Target};
use crate::syntax::ast::StartModeKind;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// Every top-level key, in the order the documentation lists them.
pub const KEYS: &[&str] = &[
    "target",
    "rules",
    "fail-on",
    "exclude",
    "respect-gitignore",
    "force-exclude",
    "extensions",
    "catalog",
    "dialect-detection",
    "flink-files",
    "other-files",
    "histories",
    "scripts",
    "external-tables",
    "default-start-mode",
    "start-mode-fix",
    "system-columns",
    "system-column-prefix",
    "functions",
    "connectors",
    "require-suppression-reason",
    "overrides",
    "cache-dir",
];

/// `.flinklint.yaml` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConfigFile {
    /// `target: flink-2.3`.
    pub target: Option<TargetName>,
    /// `rules: {CODE-or-name: error | warning | info | off}`.
    pub rules: Option<RuleMap>,
    /// `fail-on: error | warning | info | never`.
    pub fail_on: Option<super::FailOn>,
    /// `exclude: [glob, ...]`.
    pub exclude: Option<Vec<Pattern>>,
    /// `respect-gitignore: true`.
    pub respect_gitignore: Option<bool>,
    /// `force-exclude: false`.
    pub force_exclude: Option<bool>,
    /// `extensions: [sql]`.
    pub extensions: Option<Vec<Extension>>,
    /// `catalog: auto | session | persistent`.
    pub catalog: Option<super::CatalogMode>,
    /// `dialect-detection: auto | off`.
    pub dialect_detection: Option<super::DialectDetection>,
    /// `flink-files: [glob, ...]`.
    pub flink_files: Option<Vec<Pattern>>,
    /// `other-files: [glob, ...]`.
    pub other_files: Option<Vec<Pattern>>,
    /// `histories: [glob | {path: glob, order: natural | lexicographic | FILE}]`.
    pub histories: Option<Vec<HistoryEntry>>,
    /// `scripts: [glob, ...]`.
    pub scripts: Option<Vec<Pattern>>,
    /// `external-tables: [glob-or-path, ...]`.
    pub external_tables: Option<Vec<Pattern>>,
    /// `default-start-mode: FROM_BEGINNING`.
    pub default_start_mode: Option<StartMode>,
    /// `start-mode-fix: RESUME_OR_FROM_NOW`.
    pub start_mode_fix: Option<StartMode>,
    /// `system-columns: [{name, type}]`.
    pub system_columns: Option<Vec<SystemColumnEntry>>,
    /// `system-column-prefix: "$"`.
    pub system_column_prefix: Option<String>,
    /// `functions: [{name, args?: [type], returns?: type}]`.
    pub functions: Option<Vec<FunctionEntry>>,
    /// `connectors: [{name, kind?, unchecked?, source?, sink?, options?, prefixes?}]`.
    pub connectors: Option<Vec<ConnectorEntry>>,
    /// `require-suppression-reason: false`.
    pub require_suppression_reason: Option<bool>,
    /// `overrides: [{paths: [glob], target?, rules?}]`.
    pub overrides: Option<Vec<OverrideEntry>>,
    /// `cache-dir: .flinklint_cache`.
    pub cache_dir: Option<String>,
}

/// One entry of `overrides`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct OverrideEntry {
    /// The files it applies to.
    pub paths: NonEmpty<Pattern>,
    /// Their target.
    pub target: Option<TargetName>,
    /// Their rule levels.
    pub rules: Option<RuleMap>,
}

/// One entry of `system-columns`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SystemColumnEntry {
    /// The column name.
    pub name: String,
    /// Its SQL type.
    #[serde(rename = "type")]
    pub data_type: String,
}

/// One entry of `connectors`: a project's own connector or format (its option keys with their
/// types), or a known one marked unchecked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConnectorEntry {
    /// The factory identifier (`'connector' = 'NAME'`, `'format' = 'NAME'`).
    pub name: String,
    /// `connector` (the default) or `format`.
    #[serde(default)]
    pub kind: ConnectorKind,
    /// Say nothing about the options of tables that use it (also a connector or format
    /// flinklint has a catalog for).
    #[serde(default)]
    pub unchecked: bool,
    /// Whether a connector can be read (default: true).
    pub source: Option<bool>,
    /// Whether a connector can be written (default: true).
    pub sink: Option<bool>,
    /// Its option keys (a format's without its `NAME.` prefix).
    #[serde(default)]
    pub options: Vec<ConnectorOptionEntry>,
    /// Key prefixes whose keys a connector passes on unchecked (`properties.`).
    #[serde(default)]
    pub prefixes: Vec<String>,
}

/// `connector` or `format`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConnectorKind {
    /// A connector (`'connector' = ...`).
    #[default]
    Connector,
    /// A format (`'format' = ...`, `'value.format' = ...`).
    Format,
}

/// One option of a `connectors` entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConnectorOptionEntry {
    /// The key.
    pub key: String,
    /// Its type (default: `string`, any value).
    #[serde(rename = "type", default)]
    pub value_type: OptionType,
    /// Whether the connector requires it.
    #[serde(default)]
    pub required: bool,
    /// An `enum`'s values (compared ignoring case, as Flink compares them).
    #[serde(default)]
    pub values: Vec<String>,
}

/// The type of a declared option, as Flink's `ConfigOptions` types them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OptionType {
    /// Any text.
    #[default]
    String,
    /// A 32-bit integer.
    Int,
    /// A 64-bit integer.
    Long,
    /// `true` or `false`.
    Boolean,
    /// A floating-point number.
    Float,
    /// A floating-point number.
    Double,
    /// A duration (`30 s`).
    Duration,
    /// A memory size (`64 mb`).
    Memory,
    /// One of `values`.
    Enum,
    /// A `;`-separated list.
    List,
    /// A `k:v,k:v` map.
    Map,
}

impl OptionType {
    /// The name the option catalogs use.
    pub fn name(self) -> &'static str {
        match self {
            OptionType::String => "string",
            OptionType::Int => "int",
            OptionType::Long => "long",
            OptionType::Boolean => "boolean",
            OptionType::Float => "float",
            OptionType::Double => "double",
            OptionType::Duration => "duration",
            OptionType::Memory => "memory",
            OptionType::Enum => "enum",
            OptionType::List => "list",
            OptionType::Map => "map",
        }
    }
}

/// One entry of `functions`: a user-defined function's signature.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionEntry {
    /// The function's name (as called, case-insensitive).
    pub name: String,
    /// Its argument types, in order.
    pub args: Option<Vec<String>>,
    /// Its return type.
    pub returns: Option<String>,
}

/// One entry of `histories`: a folder pattern (natural order) or `{path, order}`.
#[derive(Debug)]
pub struct HistoryEntry {
    /// Folders whose root-relative path matches.
    pub path: Pattern,
    /// `natural` (default), `lexicographic`, or a list file relative to the project root.
    pub order: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HistoryTable {
    path: Pattern,
    order: Option<String>,
}

impl<'de> Deserialize<'de> for HistoryEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = HistoryEntry;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a folder pattern or a map with `path` and `order`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<HistoryEntry, E> {
                Ok(HistoryEntry {
                    path: Pattern::new(v).map_err(E::custom)?,
                    order: None,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<HistoryEntry, A::Error> {
                let t = HistoryTable::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(HistoryEntry {
                    path: t.path,
                    order: t.order,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// Deserializes a string and checks it with `check` while the YAML reader still knows where
/// the scalar is, so that an error points at the value itself.
fn checked_str<'de, D, T>(
    d: D,
    expecting: &'static str,
    check: impl FnOnce(&str) -> Result<T, String>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    struct V<F> {
        expecting: &'static str,
        check: F,
    }
    impl<'de, T, F: FnOnce(&str) -> Result<T, String>> Visitor<'de> for V<F> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.expecting)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            (self.check)(v).map_err(E::custom)
        }
    }
    d.deserialize_str(V { expecting, check })
}

/// A list that must not be empty.
#[derive(Debug)]
pub struct NonEmpty<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for NonEmpty<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<T>::deserialize(d)?;
        if v.is_empty() {
            return Err(de::Error::custom("the list must not be empty"));
        }
        Ok(NonEmpty(v))
    }
}

/// A valid path pattern (see [`super::glob`]).
#[derive(Debug, Clone)]
pub struct Pattern(pub String);

impl Pattern {
    fn new(s: &str) -> Result<Pattern, String> {
        super::glob::check_pattern(s).map_err(|e| format!("invalid pattern `{s}`: {e}"))?;
        Ok(Pattern(s.to_string()))
    }
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        checked_str(d, "a path pattern", Pattern::new)
    }
}

/// A file extension, stored without the leading dot.
#[derive(Debug, Clone)]
pub struct Extension(pub String);

impl<'de> Deserialize<'de> for Extension {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        checked_str(d, "a file extension", |s| {
            let e = s.trim().trim_start_matches('.');
            if e.is_empty() || e.contains(['/', '\\', '*']) {
                return Err(format!(
                    "invalid extension `{s}`: write it without a dot or path, e.g. `sql`"
                ));
            }
            Ok(Extension(e.to_string()))
        })
    }
}

/// An unknown value of a closed set: the message, with the closest known value.
fn unknown_value(what: &str, value: &str, known: &[&str]) -> String {
    let mut message = format!("unknown {what} `{value}`");
    if let Some(best) = super::did_you_mean(value, known.iter().copied()) {
        message.push_str(&format!("; did you mean `{best}`?"));
    }
    message.push_str(&format!(" (expected one of: {})", known.join(", ")));
    message
}

/// A target name (`flink-1.20` ... `flink-2.3`, `flink-next`, `confluent`).
#[derive(Debug, Clone, Copy)]
pub struct TargetName(pub Target);

impl<'de> Deserialize<'de> for TargetName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        checked_str(d, "a target name", |s| {
            Target::parse(s.trim()).map(TargetName).ok_or_else(|| {
                let names: Vec<&str> = Target::ALL.iter().map(|t| t.as_str()).collect();
                unknown_value("target", s, &names)
            })
        })
    }
}

/// A start-mode keyword (`FROM_BEGINNING`, `RESUME_OR_FROM_NOW`, ...; any case).
#[derive(Debug, Clone, Copy)]
pub struct StartMode(pub StartModeKind);

impl<'de> Deserialize<'de> for StartMode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        checked_str(d, "a start mode", |s| {
            StartModeKind::parse(s.trim())
                .map(StartMode)
                .ok_or_else(|| {
                    unknown_value(
                        "start mode",
                        s,
                        &[
                            "FROM_BEGINNING",
                            "FROM_NOW",
                            "FROM_TIMESTAMP",
                            "RESUME_OR_FROM_BEGINNING",
                            "RESUME_OR_FROM_NOW",
                            "RESUME_OR_FROM_TIMESTAMP",
                        ],
                    )
                })
        })
    }
}

/// `rules:` — rule codes, names or families to levels, in file order.
#[derive(Debug, Default)]
pub struct RuleMap(pub Vec<(RuleSelector, Level)>);

/// A map key of `rules:`: a rule code, name or family not seen before in the map.
struct SelectorKey<'a> {
    seen: &'a [(RuleSelector, Level)],
}

impl<'de> de::DeserializeSeed<'de> for SelectorKey<'_> {
    type Value = RuleSelector;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<RuleSelector, D::Error> {
        checked_str(d, "a rule code, name or family", |s| {
            let key = RuleSelector::parse(s)?;
            if self.seen.iter().any(|(k, _)| *k == key) {
                return Err(format!("`{}` is configured twice", selector_name(key)));
            }
            Ok(key)
        })
    }
}

impl<'de> Deserialize<'de> for RuleMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RuleMap;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of rule codes or names to error, warning, info or off")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RuleMap, A::Error> {
                let mut out: Vec<(RuleSelector, Level)> = Vec::new();
                while let Some(key) = map.next_key_seed(SelectorKey { seen: &out })? {
                    let level: Level = map.next_value()?;
                    out.push((key, level));
                }
                Ok(RuleMap(out))
            }
        }
        d.deserialize_map(V)
    }
}

fn selector_name(s: RuleSelector) -> &'static str {
    match s {
        RuleSelector::Code(c) | RuleSelector::Family(c) => c,
    }
}

//! The option catalogs: `rules/data/connectors/*.yaml` and `rules/data/formats/*.yaml`,
//! embedded in the binary, each file parsed on first use.

use crate::config::file::{ConnectorEntry, ConnectorKind};
use serde::Deserialize;
use std::sync::{Mutex, OnceLock};

/// The catalog files, as the binary embeds them.
const FILES: &[(&str, &str)] = &[
    (
        "connectors/blackhole.yaml",
        include_str!("../../../rules/data/connectors/blackhole.yaml"),
    ),
    (
        "connectors/datagen.yaml",
        include_str!("../../../rules/data/connectors/datagen.yaml"),
    ),
    (
        "connectors/elasticsearch-7.yaml",
        include_str!("../../../rules/data/connectors/elasticsearch-7.yaml"),
    ),
    (
        "connectors/filesystem.yaml",
        include_str!("../../../rules/data/connectors/filesystem.yaml"),
    ),
    (
        "connectors/hbase-2.2.yaml",
        include_str!("../../../rules/data/connectors/hbase-2.2.yaml"),
    ),
    (
        "connectors/jdbc.yaml",
        include_str!("../../../rules/data/connectors/jdbc.yaml"),
    ),
    (
        "connectors/kafka.yaml",
        include_str!("../../../rules/data/connectors/kafka.yaml"),
    ),
    (
        "connectors/mongodb.yaml",
        include_str!("../../../rules/data/connectors/mongodb.yaml"),
    ),
    (
        "connectors/mysql-cdc.yaml",
        include_str!("../../../rules/data/connectors/mysql-cdc.yaml"),
    ),
    (
        "connectors/opensearch.yaml",
        include_str!("../../../rules/data/connectors/opensearch.yaml"),
    ),
    (
        "connectors/postgres-cdc.yaml",
        include_str!("../../../rules/data/connectors/postgres-cdc.yaml"),
    ),
    (
        "connectors/print.yaml",
        include_str!("../../../rules/data/connectors/print.yaml"),
    ),
    (
        "connectors/upsert-kafka.yaml",
        include_str!("../../../rules/data/connectors/upsert-kafka.yaml"),
    ),
    (
        "formats/avro-confluent.yaml",
        include_str!("../../../rules/data/formats/avro-confluent.yaml"),
    ),
    (
        "formats/avro.yaml",
        include_str!("../../../rules/data/formats/avro.yaml"),
    ),
    (
        "formats/canal-json.yaml",
        include_str!("../../../rules/data/formats/canal-json.yaml"),
    ),
    (
        "formats/csv.yaml",
        include_str!("../../../rules/data/formats/csv.yaml"),
    ),
    (
        "formats/debezium-avro-confluent.yaml",
        include_str!("../../../rules/data/formats/debezium-avro-confluent.yaml"),
    ),
    (
        "formats/debezium-json.yaml",
        include_str!("../../../rules/data/formats/debezium-json.yaml"),
    ),
    (
        "formats/json.yaml",
        include_str!("../../../rules/data/formats/json.yaml"),
    ),
    (
        "formats/maxwell-json.yaml",
        include_str!("../../../rules/data/formats/maxwell-json.yaml"),
    ),
    (
        "formats/ogg-json.yaml",
        include_str!("../../../rules/data/formats/ogg-json.yaml"),
    ),
    (
        "formats/orc.yaml",
        include_str!("../../../rules/data/formats/orc.yaml"),
    ),
    (
        "formats/parquet.yaml",
        include_str!("../../../rules/data/formats/parquet.yaml"),
    ),
    (
        "formats/protobuf.yaml",
        include_str!("../../../rules/data/formats/protobuf.yaml"),
    ),
    (
        "formats/raw.yaml",
        include_str!("../../../rules/data/formats/raw.yaml"),
    ),
];

/// The names of the embedded catalog files (relative to `rules/data/`).
pub fn catalog_files() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(name, _)| *name)
}

/// One connector's or format's options, as its factory declares them.
#[derive(Debug, Deserialize)]
pub struct OptionCatalog {
    /// The factory identifier (`'connector' = '...'`, `'format' = '...'`).
    pub name: String,
    /// `connector` or `format`.
    pub kind: String,
    /// Where the data comes from.
    pub source: CatalogSource,
    /// Whether the connector can be read (a `DynamicTableSourceFactory`).
    #[serde(default)]
    pub source_table: bool,
    /// Whether the connector can be written (a `DynamicTableSinkFactory`).
    #[serde(default)]
    pub sink_table: bool,
    /// Whether the connector's source serves lookup joins.
    #[serde(default)]
    pub lookup: bool,
    /// How the factory checks its options: `factory-helper` (FactoryUtil's helper),
    /// `format-prefix-lenient` (the helper, with every key under the chosen format's prefix
    /// accepted), `per-column` (datagen: `fields.<column>.*` expanded per physical column).
    #[serde(default)]
    pub validation: Option<String>,
    /// A format whose catalog may not list every key it takes (read from sources that may
    /// predate the release): keys under its prefix that the catalog lacks are not reported.
    #[serde(default)]
    pub prefix_lenient: bool,
    /// The options that choose a format (`format`, `key.format`, `value.format`).
    #[serde(default)]
    pub format_options: Vec<String>,
    /// Key prefixes whose keys the connector passes on unchecked (Kafka's `properties.`:
    /// `helper.validateExcept(PROPERTIES_PREFIX)`).
    #[serde(default)]
    pub prefixes: Vec<String>,
    /// Metadata keys the connector or format can read or write (`METADATA FROM 'key'`).
    #[serde(default)]
    pub metadata: Vec<MetadataKey>,
    /// Whether `metadata` is the complete list, read from the sources (an empty list then means
    /// the connector or format has no metadata); otherwise metadata columns are not checked.
    #[serde(default)]
    pub metadata_complete: bool,
    /// The class Flink names in its message on an unknown metadata key (the connector's
    /// `DynamicTableSource`).
    #[serde(default)]
    pub source_class: Option<String>,
    /// Groups of options the factory takes all or none of (JDBC's `checkAllOrNone`).
    #[serde(default)]
    pub all_or_none: Vec<Vec<String>>,
    /// Whether the factory projects `key.fields` / `value.fields-include` as Kafka's
    /// `KafkaConnectorOptionsUtil#createKeyFormatProjection` / `createValueFormatProjection` do.
    #[serde(default)]
    pub key_value_projection: bool,
    /// Whether the source also offers its value format's metadata keys, as `value.<key>`
    /// (Kafka; the filesystem source does not).
    #[serde(default)]
    pub value_format_metadata: bool,
    /// A source that reads no metadata at all: how Flink names it in its message
    /// (`DataGenTableSource`).
    #[serde(default)]
    pub source_summary: Option<String>,
    /// Whether the factory requires a `PRIMARY KEY` (upsert-kafka), and Flink's message when
    /// there is none.
    #[serde(default)]
    pub primary_key_required: Option<String>,
    /// The options.
    #[serde(default)]
    pub options: Vec<OptionSpec>,
    /// Option templates: `#` stands for a physical column's name.
    #[serde(default)]
    pub templates: Vec<OptionSpec>,
    /// The changelog modes the connector reads and writes, or the format decodes and encodes,
    /// as the planner's changelog mode inference sees them (absent: unknown).
    #[serde(default)]
    pub changelog: Option<ChangelogCaps>,
    /// The options by key, built on first use (see [`OptionCatalog::spec`]).
    #[serde(skip)]
    index: OnceLock<OptionIndex>,
}

/// A catalog's options by key: the checks look every key of a table up here instead of
/// scanning the option list.
#[derive(Debug, Default)]
struct OptionIndex {
    /// Every key and fallback key, with the first option that declares it (as a scan in
    /// declaration order finds it).
    any: foldhash::HashMap<String, u32>,
    /// Every option's own key (fallback keys left out).
    own: foldhash::HashSet<String>,
    /// The suffixes of the `fields.#.<suffix>` templates (datagen).
    column_templates: foldhash::HashMap<String, u32>,
}

impl OptionCatalog {
    fn index(&self) -> &OptionIndex {
        self.index.get_or_init(|| {
            let mut index = OptionIndex::default();
            for (i, o) in self.options.iter().enumerate() {
                let i = u32::try_from(i).unwrap_or(u32::MAX);
                index.own.insert(o.key.clone());
                for key in std::iter::once(&o.key).chain(o.fallback_keys.iter().map(|f| &f.key)) {
                    index.any.entry(key.clone()).or_insert(i);
                }
            }
            for (i, t) in self.templates.iter().enumerate() {
                if let Some(suffix) = t.key.strip_prefix("fields.#.") {
                    let i = u32::try_from(i).unwrap_or(u32::MAX);
                    index
                        .column_templates
                        .entry(suffix.to_string())
                        .or_insert(i);
                }
            }
            index
        })
    }

    /// The option whose key or fallback key is `key` (the first declared, when several are).
    pub fn spec(&self, key: &str) -> Option<&OptionSpec> {
        let i = *self.index().any.get(key)?;
        self.options.get(i as usize)
    }

    /// Whether `key` is an option's own key (not only a fallback key).
    pub fn has_own_key(&self, key: &str) -> bool {
        self.index().own.contains(key)
    }

    /// The template `fields.#.<suffix>` (the first declared), for a per-column option.
    pub fn column_template(&self, suffix: &str) -> Option<&OptionSpec> {
        let i = *self.index().column_templates.get(suffix)?;
        self.templates.get(i as usize)
    }
}

/// A connector's or format's changelog capabilities (`changelog:` in its data file), after the
/// `getChangelogMode` of the connector's source and sink and of the format's decoder and
/// encoder.
#[derive(Debug, Deserialize, Default, Clone)]
pub struct ChangelogCaps {
    /// What the source produces: `insert-only`, `upsert` (INSERT, UPDATE_AFTER, DELETE by
    /// key), `all`, or `format` (the format's decoder decides).
    #[serde(default)]
    pub source: Option<String>,
    /// What the sink accepts: `insert-only`, `upsert`, `all` (whatever the query produces),
    /// `all-but-update-before` (everything but UPDATE_BEFORE), or `format` (the format's encoder
    /// decides).
    #[serde(default)]
    pub sink: Option<String>,
    /// What a format's decoder produces: `insert-only` or `all`.
    #[serde(default)]
    pub decode: Option<String>,
    /// What a format's encoder accepts: `insert-only` or `all`.
    #[serde(default)]
    pub encode: Option<String>,
    /// A boolean option that, set to `true`, makes the source insert-only (the CDC
    /// connectors' `scan.read-changelog-as-append-only.enabled`).
    #[serde(default)]
    pub insert_only_when: Option<String>,
    /// The Flink source file(s) the entry follows.
    #[serde(default)]
    pub follows: Option<String>,
}

/// Where a catalog's data comes from.
#[derive(Debug, Deserialize)]
pub struct CatalogSource {
    /// The repository (`apache/flink`).
    pub repository: String,
    /// The release read.
    #[serde(default)]
    pub release: Option<String>,
    /// The commit of that release.
    #[serde(default)]
    pub commit: Option<String>,
    /// The factory classes read.
    #[serde(default)]
    pub factories: Vec<FactorySource>,
}

/// One factory class of a catalog.
#[derive(Debug, Deserialize)]
pub struct FactorySource {
    /// The class.
    pub class: String,
    /// The release jar it was read from.
    #[serde(default)]
    pub jar: Option<String>,
    /// Its source file in the repository.
    #[serde(default)]
    pub file: Option<String>,
}

/// A metadata key.
#[derive(Debug, Deserialize)]
pub struct MetadataKey {
    /// The key.
    pub key: String,
    /// Its Flink type.
    #[serde(rename = "type")]
    pub data_type: String,
    /// Whether a source can read it (`SupportsReadingMetadata#listReadableMetadata`).
    #[serde(default = "yes")]
    pub read: bool,
    /// Whether a sink can write it (`SupportsWritingMetadata#listWritableMetadata`).
    #[serde(default)]
    pub write: bool,
}

fn yes() -> bool {
    true
}

/// One option.
#[derive(Debug, Deserialize)]
pub struct OptionSpec {
    /// The key.
    pub key: String,
    /// Its type: `string`, `int`, `long`, `boolean`, `float`, `double`, `duration`, `memory`,
    /// `enum`, `list`, `map`.
    #[serde(rename = "type")]
    pub value_type: String,
    /// A list's element type.
    #[serde(default)]
    pub element: Option<String>,
    /// An enum's values, as Flink prints them.
    #[serde(default)]
    pub values: Vec<String>,
    /// An enum's Java class.
    #[serde(default)]
    pub enum_class: Option<String>,
    /// Whether the factory requires it.
    #[serde(default)]
    pub required: bool,
    /// Its default.
    #[serde(default)]
    pub default: Option<String>,
    /// Older keys Flink reads for it.
    #[serde(default)]
    pub fallback_keys: Vec<FallbackKey>,
    /// Whether the factory forwards it unchanged into a compiled plan (`forwardOptions()`).
    #[serde(default)]
    pub forwarded: bool,
    /// The values the factory's own validation accepts beyond the type (a string option that
    /// `JsonFormatOptionsUtil` or `RawFormatFactory` checks against a list), compared
    /// ignoring case (flinklint errs on the side of accepting).
    #[serde(default)]
    pub accepted: Vec<String>,
    /// Flink's message for another value (`{value}` stands for it).
    #[serde(default)]
    pub accepted_message: Option<String>,
    /// `sink`: the list is checked only when the table is written (the format's encoding
    /// side checks it).
    #[serde(default)]
    pub accepted_on: Option<String>,
    /// Whether `accepted` is compared exactly (datagen's generator kind: a `switch` on the
    /// string).
    #[serde(default)]
    pub accepted_exact: bool,
    /// Flink's message when the value is not a single character (`{value}` stands for it;
    /// `CsvCommons#validateCharacterVal`).
    #[serde(default)]
    pub single_character: Option<String>,
    /// Whether that check reads the value through Java's unescaping first (`\t` is a tab).
    #[serde(default)]
    pub unescaped: bool,
}

/// An older key of an option.
#[derive(Debug, Deserialize)]
pub struct FallbackKey {
    /// The key.
    pub key: String,
    /// Whether Flink deprecates it.
    #[serde(default)]
    pub deprecated: bool,
}

impl OptionSpec {
    /// The type as the help words it: "a boolean", "one of: a, b".
    pub fn describe(&self) -> String {
        match self.value_type.as_str() {
            "int" => "an integer (INT)".to_string(),
            "long" => "an integer (BIGINT)".to_string(),
            "boolean" => "a boolean (`true` or `false`, any case)".to_string(),
            "float" | "double" => "a number".to_string(),
            "duration" => {
                "a duration (`30 s`, `5 min`, `1 h`; a bare number is milliseconds)".to_string()
            }
            "memory" => "a memory size (`128 mb`, `1 gb`; a bare number is bytes)".to_string(),
            "enum" => format!("one of: {} (any case)", self.values.join(", ")),
            "list" => "a list (items separated by `;`)".to_string(),
            "map" => "a map (`k1:v1,k2:v2`)".to_string(),
            _ if !self.accepted.is_empty() => format!("one of: {}", self.accepted.join(", ")),
            _ => "a string".to_string(),
        }
    }
}

/// Catalogs a project declares (`connectors:` in its configuration).
#[derive(Debug, Default)]
pub struct Catalogs {
    /// Connectors.
    pub connectors: Vec<OptionCatalog>,
    /// Formats.
    pub formats: Vec<OptionCatalog>,
}

impl Catalogs {
    /// The connector `name` (Flink compares factory identifiers exactly).
    pub fn connector(&self, name: &str) -> Option<&OptionCatalog> {
        self.connectors.iter().find(|c| c.name == name)
    }
    /// The format `name`.
    pub fn format(&self, name: &str) -> Option<&OptionCatalog> {
        self.formats.iter().find(|c| c.name == name)
    }
}

/// The catalogs built into flinklint, each file parsed on first use: a run parses only the
/// connectors and formats its tables name (parsing all of them took 19 M instructions, a third
/// of a warm run on one staged file). A file's name is its catalog's name (a unit test checks
/// it), so a catalog is found without parsing the others.
#[derive(Debug)]
pub struct Builtin {
    /// Each of [`FILES`], parsed (`None`: it does not parse; the unit tests fail on it).
    parsed: [OnceLock<Option<OptionCatalog>>; FILES.len()],
}

impl Builtin {
    /// The catalog of `FILES[i]`.
    fn get(&self, i: usize) -> Option<&OptionCatalog> {
        self.parsed
            .get(i)?
            .get_or_init(|| crate::config::yaml::from_str::<OptionCatalog>(FILES[i].1).ok())
            .as_ref()
    }
    /// The catalog in the file `<folder>/<name>.yaml`, of that kind.
    fn named(&self, folder: &str, kind: &str, name: &str) -> Option<&OptionCatalog> {
        // Every file by folder and name, indexed once per process (looked up for every table
        // and pipeline).
        type ByName = foldhash::HashMap<&'static str, usize>;
        static INDEX: OnceLock<foldhash::HashMap<&'static str, ByName>> = OnceLock::new();
        let index = INDEX.get_or_init(|| {
            let mut index: foldhash::HashMap<&'static str, ByName> = Default::default();
            for (i, (file, _)) in FILES.iter().enumerate() {
                let Some((folder, rest)) = file.split_once('/') else {
                    continue;
                };
                let Some(stem) = rest.strip_suffix(".yaml") else {
                    continue;
                };
                index.entry(folder).or_default().entry(stem).or_insert(i);
            }
            index
        });
        let i = *index.get(folder)?.get(name)?;
        self.get(i).filter(|c| c.kind == kind && c.name == name)
    }
    /// The catalogs of one kind, in the order of [`FILES`].
    fn all<'a>(
        &'a self,
        folder: &'a str,
        kind: &'a str,
    ) -> impl Iterator<Item = &'a OptionCatalog> {
        FILES
            .iter()
            .enumerate()
            .filter(move |(_, (file, _))| {
                file.strip_prefix(folder)
                    .is_some_and(|f| f.starts_with('/'))
            })
            .filter_map(move |(i, _)| self.get(i))
            .filter(move |c| c.kind == kind)
    }
    /// The connector `name` (Flink compares factory identifiers exactly).
    pub fn connector(&self, name: &str) -> Option<&OptionCatalog> {
        self.named("connectors", "connector", name)
    }
    /// The format `name`.
    pub fn format(&self, name: &str) -> Option<&OptionCatalog> {
        self.named("formats", "format", name)
    }
    /// Every connector (all parsed).
    pub fn connectors(&self) -> impl Iterator<Item = &OptionCatalog> {
        self.all("connectors", "connector")
    }
    /// Every format (all parsed).
    pub fn formats(&self) -> impl Iterator<Item = &OptionCatalog> {
        self.all("formats", "format")
    }
}

/// The built-in catalogs (each file parsed on first use; see [`Builtin`]).
pub fn catalogs() -> &'static Builtin {
    static PARSED: Builtin = Builtin {
        parsed: [const { OnceLock::new() }; FILES.len()],
    };
    &PARSED
}

/// The connectors and formats a project declares (`connectors:` in `.flinklint.yaml`), and
/// those it marks unchecked.
#[derive(Debug, Default)]
pub struct UserCatalogs {
    /// Declared connectors and formats.
    catalogs: Catalogs,
    /// Connectors whose options are not checked.
    unchecked_connectors: Vec<String>,
    /// Formats whose options are not checked (their keys pass as those of an unknown format).
    unchecked_formats: Vec<String>,
}

/// The catalogs a run checks against: the built-in ones, under the project's own
/// declarations (which win, name by name). Cheap to copy.
#[derive(Debug, Clone, Copy, Default)]
pub struct Known {
    user: Option<&'static UserCatalogs>,
}

impl Known {
    /// The catalogs of a configuration's `connectors:` entries. Each distinct list is built
    /// once per process and kept (a process sees few configurations).
    pub fn of(entries: &[ConnectorEntry]) -> Known {
        if entries.is_empty() {
            return Known::default();
        }
        type Interned = Vec<(Vec<ConnectorEntry>, &'static UserCatalogs)>;
        static INTERNED: OnceLock<Mutex<Interned>> = OnceLock::new();
        let mut interned = INTERNED
            .get_or_init(|| Mutex::new(Vec::new()))
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, user)) = interned.iter().find(|(e, _)| e == entries) {
            return Known { user: Some(user) };
        }
        let user: &'static UserCatalogs = Box::leak(Box::new(UserCatalogs::new(entries)));
        interned.push((entries.to_vec(), user));
        Known { user: Some(user) }
    }

    /// The connector `name`, unless the project marks it unchecked.
    pub fn connector(self, name: &str) -> Option<&'static OptionCatalog> {
        if let Some(user) = self.user {
            if user.unchecked_connectors.iter().any(|n| n == name) {
                return None;
            }
            if let Some(c) = user.catalogs.connector(name) {
                return Some(c);
            }
        }
        catalogs().connector(name)
    }

    /// The format `name`, unless the project marks it unchecked.
    pub fn format(self, name: &str) -> Option<&'static OptionCatalog> {
        if let Some(user) = self.user {
            if user.unchecked_formats.iter().any(|n| n == name) {
                return None;
            }
            if let Some(c) = user.catalogs.format(name) {
                return Some(c);
            }
        }
        catalogs().format(name)
    }

    /// Every format known (the project's first).
    pub fn formats(self) -> impl Iterator<Item = &'static OptionCatalog> {
        let user: &'static [OptionCatalog] = self.user.map_or(&[], |u| &u.catalogs.formats);
        user.iter().chain(
            catalogs()
                .formats()
                .filter(move |f| self.format(&f.name).is_some_and(|k| std::ptr::eq(k, *f))),
        )
    }
}

impl UserCatalogs {
    fn new(entries: &[ConnectorEntry]) -> UserCatalogs {
        let mut out = UserCatalogs::default();
        for e in entries {
            let format = e.kind == ConnectorKind::Format;
            if e.unchecked {
                if format {
                    out.unchecked_formats.push(e.name.clone());
                } else {
                    out.unchecked_connectors.push(e.name.clone());
                }
                continue;
            }
            let options: Vec<OptionSpec> = e
                .options
                .iter()
                .map(|o| OptionSpec {
                    key: o.key.clone(),
                    value_type: o.value_type.name().to_string(),
                    element: None,
                    values: o.values.clone(),
                    // Not a Java enum: the value is checked against `values` (see
                    // `invalid_value`).
                    enum_class: None,
                    required: o.required,
                    default: None,
                    fallback_keys: Vec::new(),
                    forwarded: false,
                    accepted: Vec::new(),
                    accepted_message: None,
                    accepted_on: None,
                    accepted_exact: false,
                    single_character: None,
                    unescaped: false,
                })
                .collect();
            let format_options = options
                .iter()
                .filter(|o| !format && (o.key == "format" || o.key.ends_with(".format")))
                .map(|o| o.key.clone())
                .collect();
            let catalog = OptionCatalog {
                name: e.name.clone(),
                kind: if format { "format" } else { "connector" }.to_string(),
                source: CatalogSource {
                    repository: "the project's configuration (connectors:)".to_string(),
                    release: None,
                    commit: None,
                    factories: Vec::new(),
                },
                source_table: e.source.unwrap_or(true),
                sink_table: e.sink.unwrap_or(true),
                lookup: false,
                validation: None,
                prefix_lenient: false,
                format_options,
                prefixes: e.prefixes.clone(),
                metadata: Vec::new(),
                metadata_complete: false,
                source_class: None,
                all_or_none: Vec::new(),
                key_value_projection: false,
                value_format_metadata: false,
                source_summary: None,
                primary_key_required: None,
                options,
                templates: Vec::new(),
                changelog: None,
                index: OnceLock::new(),
            };
            if format {
                out.catalogs.formats.push(catalog);
            } else {
                out.catalogs.connectors.push(catalog);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changelog_capabilities_parse() {
        let c = catalogs();
        let caps = |name: &str| c.connector(name).and_then(|x| x.changelog.clone()).unwrap();
        assert_eq!(caps("datagen").source.as_deref(), Some("insert-only"));
        assert_eq!(caps("print").sink.as_deref(), Some("all"));
        assert_eq!(caps("filesystem").sink.as_deref(), Some("format"));
        assert_eq!(caps("upsert-kafka").source.as_deref(), Some("upsert"));
        let fmt = |name: &str| c.format(name).and_then(|x| x.changelog.clone()).unwrap();
        assert_eq!(fmt("csv").encode.as_deref(), Some("insert-only"));
        assert_eq!(fmt("debezium-json").decode.as_deref(), Some("all"));
        assert_eq!(fmt("avro-confluent").decode.as_deref(), Some("insert-only"));
        assert_eq!(caps("jdbc").sink.as_deref(), Some("upsert"));
        assert_eq!(caps("hbase-2.2").source.as_deref(), Some("insert-only"));
        assert_eq!(
            caps("opensearch").sink.as_deref(),
            Some("all-but-update-before")
        );
        assert_eq!(caps("mongodb").sink.as_deref(), Some("upsert"));
        assert_eq!(
            caps("mysql-cdc").insert_only_when.as_deref(),
            Some("scan.read-changelog-as-append-only.enabled")
        );
        // Every catalog says how it reads and writes changes.
        for x in c.connectors().chain(c.formats()) {
            assert!(
                x.changelog.is_some(),
                "{}: no changelog capabilities",
                x.name
            );
        }
        for x in c.connectors().chain(c.formats()) {
            if let Some(caps) = &x.changelog {
                assert!(
                    caps.follows.is_some(),
                    "{}: changelog without `follows`",
                    x.name
                );
            }
        }
    }

    #[test]
    fn every_catalog_parses() {
        for (name, text) in FILES {
            let parsed = crate::config::yaml::from_str::<OptionCatalog>(text);
            assert!(parsed.is_ok(), "rules/data/{name}: {:?}", parsed.err());
            // Catalogs are found by their file's name, without parsing the others.
            let c = parsed.unwrap();
            let (folder, file) = name.split_once('/').unwrap();
            assert_eq!(file, format!("{}.yaml", c.name), "rules/data/{name}: name");
            let kind = match folder {
                "connectors" => "connector",
                _ => "format",
            };
            assert_eq!(c.kind, kind, "rules/data/{name}: kind");
        }
        assert_eq!(
            catalogs().connectors().count() + catalogs().formats().count(),
            FILES.len()
        );
        assert!(catalogs().connector("datagen").is_some());
        assert!(catalogs().format("csv").is_some());
    }
}

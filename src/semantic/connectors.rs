//! Names a connector reserves, found while the catalog pass registers each table version
//! (its columns and options are at hand there): a column whose name the table's connector
//! reserves for itself (Paimon's `_KEY_` prefix, `_SEQUENCE_NUMBER`, `_VALUE_KIND`; Fluss's
//! `__offset`, `__timestamp`, `__bucket`), and a Kafka table whose key and value formats both
//! produce a `key.fields` column. The reserved names and their sources live in
//! `rules/data/connector-reserved-columns.yaml`; the rules stage reports the problems.

use super::catalog::{CatalogObject, ObjectDef, OptionDef, Origin, TableDef};
use super::problems::Problem;
use serde::Deserialize;
use std::sync::OnceLock;

/// The data file: connectors and the names they reserve.
#[derive(Debug, Deserialize)]
pub(crate) struct ReservedData {
    pub(crate) connectors: Vec<ConnectorEntry>,
    pub(crate) kafka_key_value_overlap: KafkaEntry,
}

/// One connector's reserved names.
#[derive(Debug, Deserialize)]
pub(crate) struct ConnectorEntry {
    /// The `connector` option value (compared case-insensitively).
    pub(crate) connector: String,
    /// Where the names are documented.
    pub(crate) sources: Vec<String>,
    /// Reserved name prefixes (case-sensitive).
    pub(crate) prefixes: Vec<String>,
    /// Reserved names (case-sensitive).
    pub(crate) names: Vec<String>,
    /// Why the connector reserves them.
    pub(crate) why: String,
}

/// The Kafka key/value overlap check.
#[derive(Debug, Deserialize)]
pub(crate) struct KafkaEntry {
    /// `connector` values it applies to.
    pub(crate) connectors: Vec<String>,
    /// Where the overlap is documented.
    pub(crate) sources: Vec<String>,
}

const DATA: &str = include_str!("../../rules/data/connector-reserved-columns.yaml");

/// The parsed data file (parsed once; a broken file is caught by the unit test below and
/// yields no findings rather than a panic).
pub(crate) fn data() -> Option<&'static ReservedData> {
    static PARSED: OnceLock<Option<ReservedData>> = OnceLock::new();
    PARSED
        .get_or_init(|| crate::config::yaml::from_str(DATA).ok())
        .as_ref()
}

impl ConnectorEntry {
    /// Whether `name` is reserved, and how: "has a name" or "starts with `_KEY_`, a prefix".
    pub(crate) fn reserves(&self, name: &str) -> Option<String> {
        if self.names.iter().any(|n| n == name) {
            return Some("has a name".to_string());
        }
        self.prefixes
            .iter()
            .find(|p| name.starts_with(p.as_str()))
            .map(|p| format!("starts with `{p}`, a prefix"))
    }
}

fn option<'t>(table: &'t TableDef, key: &str) -> Option<&'t OptionDef> {
    table.option(key).filter(|o| !o.value.trim().is_empty())
}

/// The reserved-name problems of one version of a table (none for views and materialized
/// tables).
pub(crate) fn problems(object: &CatalogObject) -> Vec<Problem> {
    let mut out = Vec::new();
    let (Some(data), ObjectDef::Table(table)) = (data(), &object.def) else {
        return out;
    };
    let Some(connector) = table.option("connector") else {
        return out;
    };
    let value = connector.value.trim();
    if let Some(entry) = data
        .connectors
        .iter()
        .find(|c| c.connector.eq_ignore_ascii_case(value))
    {
        for column in &table.columns {
            if let Some(how) = entry.reserves(&column.name) {
                out.push(Problem::ConnectorReservedColumn {
                    column: column.origin,
                    name: column.name.to_string(),
                    table: object.name.object.to_string(),
                    how,
                    connector: entry.connector.as_str(),
                    connector_option: connector.origin,
                    why: entry.why.as_str(),
                    source: entry.sources.first().map_or("", String::as_str),
                });
            }
        }
    }
    let kafka = &data.kafka_key_value_overlap;
    if kafka
        .connectors
        .iter()
        .any(|c| c.eq_ignore_ascii_case(value))
    {
        out.extend(kafka_overlap(object, table, kafka));
    }
    out
}

/// A Kafka table with `key.format`, a value format and `key.fields`, without
/// `key.fields-prefix` and without `'value.fields-include' = 'EXCEPT_KEY'`: every key field
/// is written to both the key and the value under the same name.
fn kafka_overlap(
    object: &CatalogObject,
    table: &TableDef,
    kafka: &'static KafkaEntry,
) -> Option<Problem> {
    let (Some(_), Some(fields)) = (option(table, "key.format"), option(table, "key.fields")) else {
        return None;
    };
    if option(table, "value.format")
        .or_else(|| option(table, "format"))
        .is_none()
        || option(table, "key.fields-prefix").is_some()
        || option(table, "value.fields-include")
            .is_some_and(|o| o.value.trim().eq_ignore_ascii_case("EXCEPT_KEY"))
    {
        return None;
    }
    let columns: Vec<(String, Origin)> = fields
        .value
        .split(';')
        .map(str::trim)
        .filter_map(|name| table.column(name))
        .filter(|c| c.kind.is_physical())
        .map(|c| (c.name.to_string(), c.origin))
        .collect();
    (!columns.is_empty()).then(|| Problem::KafkaKeyFieldsInValue {
        fields: fields.origin,
        table: object.name.object.to_string(),
        columns,
        source: kafka.sources.last().map_or("", String::as_str),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_file_parses_and_has_sources() {
        let data = data().expect("rules/data/connector-reserved-columns.yaml parses");
        assert!(data.connectors.iter().all(|c| !c.sources.is_empty()));
        assert!(!data.kafka_key_value_overlap.sources.is_empty());
        let paimon = data
            .connectors
            .iter()
            .find(|c| c.connector == "paimon")
            .expect("paimon entry");
        assert!(paimon.reserves("_KEY_id").is_some());
        assert!(paimon.reserves("_key_id").is_none());
        assert!(paimon.reserves("_VALUE_KIND").is_some());
    }
}

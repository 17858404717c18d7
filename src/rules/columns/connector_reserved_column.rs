//! CL010 connector-reserved-column: a column whose name the table's connector reserves for
//! itself (Paimon's `_KEY_` prefix, `_SEQUENCE_NUMBER`, `_VALUE_KIND`; Fluss's `__offset`,
//! `__timestamp`, `__bucket`), and a Kafka table whose key and value formats both produce a
//! `key.fields` column. The reserved names and their sources live in
//! `rules/data/connector-reserved-columns.yaml`.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::catalog::{CatalogObject, ObjectDef, OptionDef, TableDef};

/// Reports columns named as their connector's own fields, and Kafka key fields that the
/// value format also writes under the same name.
pub struct ConnectorReservedColumn;

/// The data file: connectors and the names they reserve.
#[derive(Debug, Deserialize)]
struct ReservedData {
    connectors: Vec<ConnectorEntry>,
    kafka_key_value_overlap: KafkaEntry,
}

/// One connector's reserved names.
#[derive(Debug, Deserialize)]
struct ConnectorEntry {
    /// The `connector` option value (compared case-insensitively).
    connector: String,
    /// Where the names are documented.
    sources: Vec<String>,
    /// Reserved name prefixes (case-sensitive).
    prefixes: Vec<String>,
    /// Reserved names (case-sensitive).
    names: Vec<String>,
    /// Why the connector reserves them.
    why: String,
}

/// The Kafka key/value overlap check.
#[derive(Debug, Deserialize)]
struct KafkaEntry {
    /// `connector` values it applies to.
    connectors: Vec<String>,
    /// Where the overlap is documented.
    sources: Vec<String>,
}

const DATA: &str = include_str!("../../../rules/data/connector-reserved-columns.yaml");

/// The parsed data file (parsed once; a broken file is caught by the unit test below and
/// yields no findings rather than a panic).
fn data() -> Option<&'static ReservedData> {
    static PARSED: OnceLock<Option<ReservedData>> = OnceLock::new();
    PARSED
        .get_or_init(|| crate::config::yaml::from_str(DATA).ok())
        .as_ref()
}

impl ConnectorEntry {
    /// Whether `name` is reserved, and how: "has a name" or "starts with `_KEY_`, a prefix".
    fn reserves(&self, name: &str) -> Option<String> {
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

impl Rule for ConnectorReservedColumn {
    fn code(&self) -> &'static str {
        "CL010"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        let Some(data) = data() else {
            return;
        };
        let mut seen_columns = HashSet::new();
        let mut seen_kafka = HashSet::new();
        let objects = ctx
            .model
            .sessions
            .iter()
            .flat_map(|s| s.versions.iter().map(|v| &v.object));
        for object in objects {
            let CatalogObject {
                def: ObjectDef::Table(table),
                ..
            } = object.as_ref()
            else {
                continue;
            };
            let Some(connector) = table.option("connector") else {
                continue;
            };
            let value = connector.value.trim();
            if let Some(entry) = data
                .connectors
                .iter()
                .find(|c| c.connector.eq_ignore_ascii_case(value))
            {
                for column in &table.columns {
                    let Some(how) = entry.reserves(&column.name) else {
                        continue;
                    };
                    if !seen_columns.insert((column.origin.file, column.origin.span)) {
                        continue;
                    }
                    let d = report
                        .diagnostic(
                            column.origin.file,
                            column.origin.span,
                            format!(
                                "column `{}` of `{}` {how} the {} connector reserves for itself",
                                column.name, object.name.object, entry.connector
                            ),
                        )
                        .with_label(format!("reserved by '{}'", entry.connector))
                        .with_related(
                            connector.origin.file,
                            connector.origin.span,
                            format!("the table uses the {} connector", entry.connector),
                        )
                        .with_help(format!(
                            "rename the column: {} ({})",
                            entry.why,
                            entry.sources.first().map_or("", String::as_str)
                        ));
                    report.report(d);
                }
            }
            let kafka = &data.kafka_key_value_overlap;
            if kafka
                .connectors
                .iter()
                .any(|c| c.eq_ignore_ascii_case(value))
            {
                check_kafka(object, table, kafka, &mut seen_kafka, report);
            }
        }
    }
}

/// A Kafka table with `key.format`, a value format and `key.fields`, without
/// `key.fields-prefix` and without `'value.fields-include' = 'EXCEPT_KEY'`: every key field
/// is written to both the key and the value under the same name.
fn check_kafka(
    object: &CatalogObject,
    table: &TableDef,
    kafka: &KafkaEntry,
    seen: &mut HashSet<(crate::source::FileId, crate::source::Span)>,
    report: &mut Reporter<'_>,
) {
    let (Some(_), Some(fields)) = (option(table, "key.format"), option(table, "key.fields")) else {
        return;
    };
    if option(table, "value.format")
        .or_else(|| option(table, "format"))
        .is_none()
        || option(table, "key.fields-prefix").is_some()
        || option(table, "value.fields-include")
            .is_some_and(|o| o.value.trim().eq_ignore_ascii_case("EXCEPT_KEY"))
    {
        return;
    }
    let columns: Vec<_> = fields
        .value
        .split(';')
        .map(str::trim)
        .filter_map(|name| table.column(name))
        .filter(|c| c.kind.is_physical())
        .collect();
    if columns.is_empty() || !seen.insert((fields.origin.file, fields.origin.span)) {
        return;
    }
    let names = columns
        .iter()
        .map(|c| format!("`{}`", c.name))
        .collect::<Vec<_>>()
        .join(", ");
    let mut d = report
        .diagnostic(
            fields.origin.file,
            fields.origin.span,
            format!(
                "the key and value formats of `{}` both produce {names}: `key.fields` columns also go into the value",
                object.name.object
            ),
        )
        .with_label("key fields also written to the value")
        .with_help(format!(
            "add 'value.fields-include' = 'EXCEPT_KEY' (and a 'key.fields-prefix' to tell key columns apart); see {}",
            kafka.sources.last().map_or("", String::as_str)
        ));
    for c in columns {
        d = d.with_related(
            c.origin.file,
            c.origin.span,
            format!("`{}` goes into both the key and the value", c.name),
        );
    }
    report.report(d);
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

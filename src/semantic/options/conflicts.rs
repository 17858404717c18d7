//! Options that parse one by one but that the factory rejects together: JDBC's all-or-none
//! groups (`JdbcDynamicTableFactory#validateConfigOptions`) and Kafka's key and value
//! projections (`KafkaConnectorOptionsUtil`).

use super::{OptionCatalog, OptionIssue};
use crate::semantic::catalog::{ColumnKind, Origin, TableDef};
use crate::semantic::types::Kind;
use compact_str::CompactString;

/// The first combination of options the factory rejects (Flink stops at it).
pub(super) fn conflicts(
    table: &TableDef,
    connector: &'static OptionCatalog,
    connector_origin: Origin,
) -> Option<OptionIssue> {
    let name = CompactString::from(connector.name.as_str());
    for group in &connector.all_or_none {
        let present: Vec<&str> = group
            .iter()
            .filter(|k| table.option(k).is_some())
            .map(String::as_str)
            .collect();
        if present.is_empty() || present.len() == group.len() {
            continue;
        }
        let missing: Vec<&str> = group
            .iter()
            .map(String::as_str)
            .filter(|k| !present.contains(k))
            .collect();
        let at = table
            .option(present[0])
            .map_or(connector_origin, |o| o.origin);
        return Some(OptionIssue::Conflict {
            key: present[0].into(),
            origin: at,
            connector: name,
            message: format!(
                "table `{{}}` sets {} without {}: the `{}` connector takes all or none of them",
                quoted(&present),
                quoted(&missing),
                connector.name
            ),
            help: format!("add {} or remove {}", quoted(&missing), quoted(&present)),
            flink: format!(
                "Either all or none of the following options should be provided:\n{}",
                group.join("\n")
            ),
        });
    }
    if connector.key_value_projection {
        if let Some(issue) = key_value_conflict(table, name.clone(), connector_origin) {
            return Some(issue);
        }
    }
    raw_single_column(table, name)
}

/// The value format against the physical columns it reads and writes, as its factory checks
/// them when the table is used: `raw` takes exactly one physical column of a type it can
/// serialize (`RawFormatFactory#validateAndExtractSingleField`, `checkFieldType`); `csv` has
/// no MAP or MULTISET (`CsvRowSchemaConverter`). Only a table whose value is all its physical
/// columns is judged (no `key.fields`: with a key, the value's columns depend on
/// `value.fields-include`).
fn raw_single_column(table: &TableDef, name: CompactString) -> Option<OptionIssue> {
    let format = table
        .option("format")
        .or_else(|| table.option("value.format"))?;
    if table.option("key.fields").is_some() {
        return None;
    }
    let physical: Vec<_> = table
        .columns
        .iter()
        .filter(|c| matches!(c.kind, ColumnKind::Physical))
        .collect();
    let conflict = |message: String, help: &str, flink: String| {
        Some(OptionIssue::Conflict {
            key: format.key.clone(),
            origin: format.origin,
            connector: name.clone(),
            message,
            help: help.to_string(),
            flink,
        })
    };
    if format.value.eq_ignore_ascii_case("csv") {
        for c in &physical {
            let Some(ty) = c.data_type.as_ref() else {
                continue;
            };
            if matches!(ty.kind, Kind::Map(..) | Kind::Multiset(_)) {
                let ty = ty.summary();
                return conflict(
                    format!(
                        "column `{}` of table `{{}}` is a {ty}, which the 'csv' format cannot read or write",
                        c.name
                    ),
                    "use an ARRAY or ROW column, or a format with maps (json, avro)",
                    format!("Unsupported type '{ty}' for field '{}'.", c.name),
                );
            }
        }
        return None;
    }
    if !format.value.eq_ignore_ascii_case("raw") {
        return None;
    }
    if let [only] = physical.as_slice() {
        let ty = only.data_type.as_ref()?;
        let supported = matches!(
            ty.kind,
            Kind::Char(_)
                | Kind::VarChar(_)
                | Kind::Binary(_)
                | Kind::VarBinary(_)
                | Kind::Boolean
                | Kind::TinyInt
                | Kind::SmallInt
                | Kind::Int
                | Kind::BigInt
                | Kind::Float
                | Kind::Double
                | Kind::Raw
        );
        if supported {
            return None;
        }
        let ty = ty.summary();
        return conflict(
            format!(
                "column `{}` of table `{{}}` is a {ty}, which the 'raw' format cannot read or write",
                only.name
            ),
            "declare the column as STRING or BYTES (the whole message), or choose a format that maps types (json, csv, avro)",
            format!("The 'raw' format doesn't supports '{ty}' as column type."),
        );
    }
    if physical.len() < 2 {
        return None;
    }
    let mut listed = Vec::with_capacity(physical.len());
    for c in &physical {
        listed.push(format!("`{}` {}", c.name, c.data_type.as_ref()?.summary()));
    }
    conflict(
        format!(
            "table `{{}}` uses the 'raw' format with {} physical columns: raw reads and writes exactly one",
            physical.len()
        ),
        "keep one physical column (the whole message as STRING or BYTES), or choose a format that maps several columns (json, csv, avro)",
        format!(
            "The 'raw' format only supports single physical column. However the defined schema contains multiple physical columns: [{}]",
            listed.join(", ")
        ),
    )
}

fn quoted(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Kafka's key and value projections (`KafkaConnectorOptionsUtil`), in its order.
fn key_value_conflict(
    table: &TableDef,
    name: CompactString,
    connector_origin: Origin,
) -> Option<OptionIssue> {
    let key_format = table.option("key.format");
    let key_fields = table.option("key.fields");
    let conflict = |key: &str, origin: Origin, message: String, help: String, flink: String| {
        Some(OptionIssue::Conflict {
            key: key.into(),
            origin,
            connector: name.clone(),
            message,
            help,
            flink,
        })
    };
    match (key_format, key_fields) {
        (None, Some(f)) => {
            return conflict(
                "key.fields",
                f.origin,
                "table `{}` sets 'key.fields' without 'key.format'".to_string(),
                "add 'key.format' (the format of the Kafka message key), or remove 'key.fields'"
                    .to_string(),
                "The option 'key.fields' can only be declared if a key format is defined using 'key.format'.".to_string(),
            );
        }
        (Some(k), None) => {
            return conflict(
                "key.format",
                k.origin,
                "table `{}` sets 'key.format' without 'key.fields'".to_string(),
                "list the columns of the message key in 'key.fields' (separated by `;`)"
                    .to_string(),
                "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'.".to_string(),
            );
        }
        _ => {}
    }
    let prefix = table
        .option("key.fields-prefix")
        .map_or("", |o| o.value.as_str());
    if let (Some(_), Some(f)) = (key_format, key_fields) {
        let physical: Vec<&str> = table
            .columns
            .iter()
            .filter(|c| matches!(c.kind, ColumnKind::Physical))
            .map(|c| c.name.as_str())
            .collect();
        for field in f.value.split(';') {
            // Flink's list parser (quotes, escapes, spaces) is not re-implemented: only plain
            // names are judged.
            if field.is_empty() || field.trim() != field || field.contains(['\'', '"']) {
                return None;
            }
            if !physical.contains(&field) {
                return conflict(
                    "key.fields",
                    f.origin,
                    format!("'key.fields' names `{field}`, which is not a physical column of table `{{}}`"),
                    format!("the physical columns: {}", physical.join(", ")),
                    format!(
                        "Could not find the field '{field}' in the table schema for usage in the key format. A key field must be a regular, physical column. The following columns can be selected in the 'key.fields' option:\n[{}]",
                        physical.join(", ")
                    ),
                );
            }
            if !field.starts_with(prefix) {
                return conflict(
                    "key.fields",
                    f.origin,
                    format!("key field `{field}` of table `{{}}` does not start with the 'key.fields-prefix' '{prefix}'"),
                    format!("rename the key column to start with '{prefix}', or change 'key.fields-prefix'"),
                    format!(
                        "All fields in 'key.fields' must be prefixed with '{prefix}' when option 'key.fields-prefix' is set but field '{field}' is not prefixed."
                    ),
                );
            }
        }
    }
    let except_key = table
        .option("value.fields-include")
        .is_some_and(|o| o.value.eq_ignore_ascii_case("EXCEPT_KEY"));
    if !prefix.is_empty() && !except_key {
        let p = table.option("key.fields-prefix")?;
        return conflict(
            "key.fields-prefix",
            p.origin,
            "table `{}` sets 'key.fields-prefix' while 'value.fields-include' is 'ALL'".to_string(),
            "set 'value.fields-include' = 'EXCEPT_KEY' (the value then leaves out the key columns)"
                .to_string(),
            "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set it to 'EXCEPT_KEY' instead to avoid field overlaps.".to_string(),
        );
    }
    let _ = connector_origin;
    None
}

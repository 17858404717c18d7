//! Metadata columns checked against what the table's source can read
//! (`DynamicSourceUtils#validateAndApplyMetadata`).

use super::{connector_of, similar, Known, MetadataKey, OptionCatalog, OptionIssue};
use crate::semantic::casts::{metadata_cast, MetadataCast};
use crate::semantic::catalog::{Column, ColumnKind, TableDef};
use crate::semantic::types::Type;
use compact_str::CompactString;

/// The metadata columns of a table read as a source whose keys the source cannot read, when
/// flinklint knows the complete list (the connector's and, for `value.*` keys, its value
/// format's). Flink checks them when it plans the read, after the options.
pub fn check_read_metadata(known: Known, table: &TableDef) -> Vec<OptionIssue> {
    let Some((connector, _)) = connector_of(known, table) else {
        return Vec::new();
    };
    if !connector.metadata_complete || !connector.source_table {
        return Vec::new();
    }
    let Some(class) = connector
        .source_class
        .as_deref()
        .or(connector.source_summary.as_deref())
    else {
        return Vec::new();
    };
    let reads_none = connector.source_class.is_none();
    // The value format (`value.format`, or `format`): its keys are offered as `value.<key>`.
    let value_format = table
        .option("value.format")
        .or_else(|| table.option("format"))
        .filter(|_| connector.value_format_metadata)
        .map(|o| known.format(&o.value));
    let format_keys: Option<Vec<CompactString>> = match value_format {
        None => Some(Vec::new()),
        Some(Some(f)) if f.metadata_complete => Some(
            f.metadata
                .iter()
                .filter(|m| m.read)
                .map(|m| CompactString::from(format!("value.{}", m.key)))
                .collect(),
        ),
        // A format flinklint does not know completely: its keys are unknown.
        Some(_) => None,
    };
    let mut out = Vec::new();
    for c in &table.columns {
        let ColumnKind::Metadata { key, .. } = &c.kind else {
            continue;
        };
        let key = key.clone().unwrap_or_else(|| c.name.clone());
        // A reserved system key (`$rowtime`: the FLIP-348 draft's system columns, which
        // flink-next targets declare this way) is left to the CL rules.
        if key.starts_with('$') {
            continue;
        }
        let own = connector.metadata.iter().find(|m| m.read && m.key == key);
        let of_format = || {
            let f = value_format??;
            let rest = key.strip_prefix("value.")?;
            f.metadata.iter().find(|m| m.read && m.key == rest)
        };
        if let Some(m) = own.or_else(of_format) {
            out.extend(type_issue(c, &key, m, connector));
            continue;
        }
        // A value format flinklint does not know completely: its keys (and the list Flink
        // prints) are unknown; nothing is said.
        let Some(format_keys) = &format_keys else {
            continue;
        };
        if format_keys.contains(&key) {
            continue;
        }
        let mut supported = format_keys.clone();
        supported.extend(
            connector
                .metadata
                .iter()
                .filter(|m| m.read)
                .map(|m| CompactString::from(m.key.as_str())),
        );
        let candidates: Vec<String> = supported.iter().map(|k| k.to_string()).collect();
        out.push(OptionIssue::UnknownMetadata {
            reads_none,
            similar: similar(&key, &candidates),
            key,
            column: c.name.clone(),
            origin: c.origin,
            connector: CompactString::from(connector.name.as_str()),
            class,
            supported,
        });
        // A source that reads no metadata: Flink says so once for the table.
        if reads_none {
            break;
        }
    }
    out
}

/// The column's type against the key's: Flink casts the key's value to the column's type
/// when it reads it, and rejects a column no explicit cast reaches.
fn type_issue(
    column: &Column,
    key: &str,
    metadata: &MetadataKey,
    connector: &OptionCatalog,
) -> Option<OptionIssue> {
    let to = column.data_type.as_ref()?;
    let from = Type::from_ast(&crate::syntax::parse_data_type(&metadata.data_type)?);
    let planner = match metadata_cast(&from, to) {
        MetadataCast::Invalid => None,
        MetadataCast::Planner(m) => Some(m),
        MetadataCast::Allowed | MetadataCast::Unknown => return None,
    };
    Some(OptionIssue::MetadataType {
        key: key.into(),
        column: column.name.clone(),
        origin: column.origin,
        connector: CompactString::from(connector.name.as_str()),
        metadata_type: from.summary(),
        column_type: to.summary(),
        planner,
    })
}

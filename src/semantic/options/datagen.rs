//! Datagen's options, expanded per physical column.

use super::values::invalid_value;
use super::{find_spec, similar, OptionCatalog, OptionIssue};
use crate::semantic::catalog::{ColumnKind, TableDef};
use crate::semantic::types::Kind;
use compact_str::CompactString;
use std::collections::HashSet;

/// Datagen: `DataGenTableSourceFactory#createDynamicTableSource` expands `fields.#.*` for each
/// physical column and checks the keys left over first, then the values as it reads them.
pub(super) fn check_per_column(
    table: &TableDef,
    connector: &'static OptionCatalog,
) -> Vec<OptionIssue> {
    let name = CompactString::from(connector.name.as_str());
    let physical: Vec<&str> = table
        .columns
        .iter()
        .filter(|c| matches!(c.kind, ColumnKind::Physical))
        .map(|c| c.name.as_str())
        .collect();
    // Columns of a collection or row type: datagen nests their options
    // (`fields.arr.element.min`, `fields.m.key.length`, `fields.r.x.min`), which the catalog's
    // templates do not describe: their keys are not judged.
    let nested: Vec<String> = table
        .columns
        .iter()
        .filter(|c| matches!(c.kind, ColumnKind::Physical))
        .filter(|c| {
            c.data_type.as_ref().is_none_or(|t| {
                matches!(
                    t.kind,
                    Kind::Array(_) | Kind::Map(..) | Kind::Multiset(_) | Kind::Row(_)
                )
            })
        })
        .map(|c| format!("fields.{}.", c.name))
        .collect();
    let mut candidates: Vec<String> = vec!["connector".to_string()];
    candidates.extend(connector.options.iter().map(|o| o.key.clone()));
    for column in &physical {
        for t in &connector.templates {
            candidates.push(t.key.replace('#', column));
        }
    }
    let consumed: HashSet<&str> = candidates.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for o in &table.options {
        let key = o.key.as_str();
        if consumed.contains(key)
            || key == "property-version"
            || nested.iter().any(|n| key.starts_with(n.as_str()))
        {
            continue;
        }
        out.push(OptionIssue::Unsupported {
            key: o.key.clone(),
            origin: o.origin,
            connector: name.clone(),
            similar: similar(key, &candidates),
            other_format: None,
        });
    }
    for o in &table.options {
        let spec = find_spec(&connector.options, &o.key).or_else(|| {
            let rest = o.key.strip_prefix("fields.")?;
            let column = physical
                .iter()
                .find(|c| rest.strip_prefix(**c).is_some_and(|r| r.starts_with('.')))?;
            let suffix = &rest[column.len() + 1..];
            connector
                .templates
                .iter()
                .find(|t| t.key.strip_prefix("fields.#.") == Some(suffix))
        });
        let Some(spec) = spec else { continue };
        if let Some(cause) = invalid_value(spec, &o.value) {
            out.push(OptionIssue::Invalid {
                key: o.key.clone(),
                value: o.value.clone(),
                origin: o.origin,
                expected: spec.describe(),
                cause,
            });
        }
    }
    out
}

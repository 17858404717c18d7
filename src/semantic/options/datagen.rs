//! Datagen's options, expanded per physical column.

use super::{rejected_value, similar, OptionCatalog, OptionIssue};
use crate::semantic::catalog::{ColumnKind, OptionDef, TableDef};
use crate::semantic::types::Kind;
use compact_str::CompactString;

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
    // The keys datagen consumes: `connector`, its options, and `fields.<column>.<suffix>` of
    // each template `fields.#.<suffix>` and physical column.
    let columns: foldhash::HashSet<&str> = physical.iter().copied().collect();
    let per_column = |key: &str| {
        let Some(rest) = key.strip_prefix("fields.") else {
            return false;
        };
        connector.templates.iter().any(|t| {
            t.key.strip_prefix("fields.#.").is_some_and(|suffix| {
                rest.strip_suffix(suffix)
                    .and_then(|c| c.strip_suffix('.'))
                    .is_some_and(|c| columns.contains(c))
            })
        })
    };
    let consumed = |key: &str| key == "connector" || connector.has_own_key(key) || per_column(key);
    // The supported keys a misspelt one is compared with, listed only when one is found.
    let mut candidates: Option<Vec<String>> = None;
    let mut out = Vec::new();
    for o in &table.options {
        let key = o.key.as_str();
        if consumed(key)
            || key == "property-version"
            || nested.iter().any(|n| key.starts_with(n.as_str()))
        {
            continue;
        }
        let candidates = candidates.get_or_insert_with(|| {
            let mut all: Vec<String> = vec!["connector".to_string()];
            all.extend(connector.options.iter().map(|o| o.key.clone()));
            for column in &physical {
                for t in &connector.templates {
                    all.push(t.key.replace('#', column));
                }
            }
            all
        });
        out.push(OptionIssue::Unsupported {
            key: o.key.clone(),
            origin: o.origin,
            connector: name.clone(),
            similar: similar(key, candidates),
            other_format: None,
        });
    }
    for o in &table.options {
        let spec = connector.spec(&o.key).or_else(|| {
            let rest = o.key.strip_prefix("fields.")?;
            let column = physical
                .iter()
                .find(|c| rest.strip_prefix(**c).is_some_and(|r| r.starts_with('.')))?;
            let suffix = &rest[column.len() + 1..];
            connector.column_template(suffix)
        });
        let Some(spec) = spec else { continue };
        if let Some(cause) = rejected_value(spec, &o.value, None) {
            out.push(OptionIssue::Invalid {
                key: o.key.clone(),
                value: o.value.clone(),
                origin: o.origin,
                expected: spec.describe(),
                cause,
            });
        }
    }
    // A column generated as a sequence needs its first and last value: the factory's
    // `SequenceGeneratorVisitor` reads `start`, then `end`, for each physical column in order.
    if table.options.iter().any(|o| o.key.ends_with(".kind")) {
        let by_key: foldhash::HashMap<&str, &OptionDef> =
            table.options.iter().map(|o| (o.key.as_str(), o)).collect();
        for column in &physical {
            let kind = format!("fields.{column}.kind");
            let Some(kind) = by_key.get(kind.as_str()) else {
                continue;
            };
            if kind.value != "sequence" {
                continue;
            }
            let Some(missing) = ["start", "end"]
                .into_iter()
                .map(|end| format!("fields.{column}.{end}"))
                .find(|k| !by_key.contains_key(k.as_str()))
            else {
                continue;
            };
            out.push(OptionIssue::Conflict {
                key: kind.key.clone(),
                origin: kind.origin,
                connector: name.clone(),
                message: format!(
                    "column `{column}` of table `{{}}` is generated as a sequence without '{missing}'"
                ),
                help: format!(
                    "set 'fields.{column}.start' and 'fields.{column}.end' (the sequence's first and last value), or let datagen generate the column at random"
                ),
                flink: format!(
                    "Could not find required property '{missing}' for sequence generator."
                ),
            });
        }
    }
    out
}

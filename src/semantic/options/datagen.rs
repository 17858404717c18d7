//! Datagen's options, expanded per physical column.

use super::{rejected_value, similar, OptionCatalog, OptionIssue};
use crate::semantic::catalog::{ColumnKind, OptionDef, TableDef};
use crate::semantic::types::{Kind, Type};
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
    let columns: foldhash::HashMap<&str, Option<&Type>> = table
        .columns
        .iter()
        .filter(|c| matches!(c.kind, ColumnKind::Physical))
        .map(|c| (c.name.as_str(), c.data_type.as_ref()))
        .collect();
    let per_column = |key: &str| {
        let Some(rest) = key.strip_prefix("fields.") else {
            return false;
        };
        connector.templates.iter().any(|t| {
            t.key.strip_prefix("fields.#.").is_some_and(|suffix| {
                rest.strip_suffix(suffix)
                    .and_then(|c| c.strip_suffix('.'))
                    .and_then(|c| columns.get_key_value(c))
                    .is_some_and(|(c, ty)| {
                        let kind = table
                            .option(&format!("fields.{c}.kind"))
                            .map_or("random", |o| o.value.as_str());
                        generator_reads(*ty, kind, suffix) != Some(false)
                    })
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
    // A random string or binary column's custom length: `RandomGeneratorVisitor` rejects one
    // on a fixed-length type, and one longer than a variable-length type's declared length.
    for c in table
        .columns
        .iter()
        .filter(|c| matches!(c.kind, ColumnKind::Physical))
    {
        let Some(length) = table.option(&format!("fields.{}.length", c.name)) else {
            continue;
        };
        let random = table
            .option(&format!("fields.{}.kind", c.name))
            .is_none_or(|k| k.value == "random");
        let Ok(wanted) = length.value.trim().parse::<i64>() else {
            continue;
        };
        let column = c.name.as_str();
        let (message, flink) = match c.data_type.as_ref().map(|t| &t.kind) {
            Some(Kind::Char(_) | Kind::Binary(_)) if random => (
                format!(
                    "column `{column}` of table `{{}}` is of a fixed-length type: datagen takes no custom length for it"
                ),
                format!(
                    "Custom length for fixed-length type (CHAR/BINARY) field '{column}' is not supported."
                ),
            ),
            Some(Kind::VarChar(n) | Kind::VarBinary(n)) if random && wanted > i64::from(*n) => (
                format!(
                    "column `{column}` of table `{{}}` is declared {n} long, shorter than its custom length {wanted}"
                ),
                format!(
                    "Custom length '{wanted}' for variable-length type (VARCHAR/STRING/VARBINARY/BYTES) field '{column}' should be shorter than '{n}' defined in the schema."
                ),
            ),
            _ => continue,
        };
        out.push(OptionIssue::Conflict {
            key: length.key.clone(),
            origin: length.origin,
            connector: name.clone(),
            message,
            help: format!("drop 'fields.{column}.length', or make it at most the declared length"),
            flink,
        });
    }
    out
}

/// Whether datagen's generator for a column of type `ty` generated as `kind` reads the
/// per-column option `suffix` (`DataGenTableSourceFactory` adds only the options its
/// `RandomGeneratorVisitor` / `SequenceGeneratorVisitor` return for the type to the consumed
/// keys; the others are "Unsupported options"). `None` where flinklint does not know (a type,
/// kind or option whose reading was not verified, or one Flink rejects with another message:
/// `length` of a fixed-length type, `var-len` of a non-variable one, a sequence of timestamps).
/// Verified against Flink 2.3 for nullable columns of each listed type.
fn generator_reads(ty: Option<&Type>, kind: &str, suffix: &str) -> Option<bool> {
    let ty = ty?;
    if suffix == "kind" {
        return Some(true);
    }
    if !ty.nullable {
        return None;
    }
    let numeric = matches!(
        ty.kind,
        Kind::TinyInt
            | Kind::SmallInt
            | Kind::Int
            | Kind::BigInt
            | Kind::Float
            | Kind::Double
            | Kind::Decimal(..)
    );
    let read: &[&str] = match kind {
        "random" => match ty.kind {
            Kind::Boolean => &["null-rate"],
            _ if numeric => &["min", "max", "null-rate"],
            Kind::Char(_) | Kind::Binary(_) if suffix == "length" || suffix == "var-len" => {
                return None
            }
            Kind::Char(_) => &["null-rate"],
            Kind::VarChar(_) => &["length", "var-len", "null-rate"],
            Kind::Binary(_) => &[],
            Kind::VarBinary(_) => &["length", "var-len"],
            Kind::Date | Kind::Time(_) | Kind::Timestamp(_) | Kind::TimestampLtz(_)
                if suffix == "var-len" =>
            {
                return None
            }
            Kind::Date | Kind::Time(_) => &[],
            Kind::Timestamp(_) | Kind::TimestampLtz(_) => &["max-past", "null-rate"],
            _ => return None,
        },
        "sequence" => match ty.kind {
            _ if numeric => &["start", "end"],
            Kind::Char(_) | Kind::VarChar(_) | Kind::Binary(_) | Kind::VarBinary(_) => {
                &["start", "end"]
            }
            Kind::Boolean | Kind::Date | Kind::Time(_) => &[],
            _ => return None,
        },
        _ => return None,
    };
    if kind == "random" && suffix == "var-len" && !read.contains(&"var-len") {
        // Flink rejects it with its own message ("Only supports specifying ...").
        return None;
    }
    Some(read.contains(&suffix))
}

//! Changelog capabilities of sources and sinks, from the connector and format data
//! (`changelog:` in `rules/data/connectors/*.yaml` and `rules/data/formats/*.yaml`).

use super::super::Kinds;
use crate::semantic::catalog::TableDef;
use crate::semantic::options::catalogs;

/// What a sink accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Accepts {
    InsertOnly,
    Changes { before: bool },
}

pub(super) fn format_kinds(format: &str, decode: bool) -> Option<Kinds> {
    let caps = catalogs().format(format)?.changelog.as_ref()?;
    let mode = if decode { &caps.decode } else { &caps.encode };
    match mode.as_deref()? {
        "insert-only" => Some(Kinds::INSERT_ONLY),
        "all" => Some(Kinds::ALL),
        _ => None,
    }
}

pub(super) fn sink_accepts(connector: &str, format: Option<&str>) -> Option<Accepts> {
    let caps = catalogs().connector(connector)?.changelog.as_ref()?;
    match caps.sink.as_deref()? {
        "insert-only" => Some(Accepts::InsertOnly),
        "all" => Some(Accepts::Changes { before: true }),
        "all-but-update-before" | "upsert" => Some(Accepts::Changes { before: false }),
        "format" => {
            let k = format_kinds(format?, false)?;
            Some(if k.insert_only() {
                Accepts::InsertOnly
            } else {
                Accepts::Changes { before: true }
            })
        }
        _ => None,
    }
}

pub(super) fn source_kinds(t: &TableDef) -> Option<Kinds> {
    let connector = t.option("connector")?.value.trim().to_string();
    let caps = catalogs().connector(&connector)?.changelog.as_ref()?;
    if caps
        .insert_only_when
        .as_deref()
        .and_then(|k| t.option(k))
        .is_some_and(|o| o.value.trim().eq_ignore_ascii_case("true"))
    {
        return Some(Kinds::INSERT_ONLY);
    }
    match caps.source.as_deref()? {
        "insert-only" => Some(Kinds::INSERT_ONLY),
        "upsert" | "all" => Some(Kinds::ALL),
        "format" => {
            let f = t.option("value.format").or_else(|| t.option("format"))?;
            format_kinds(f.value.trim(), true)
        }
        _ => None,
    }
}

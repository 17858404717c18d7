//! `DESCRIBE`: one row per column of a table or materialized table, as Flink 2.3's
//! `DESCRIBE` prints it (`name`, `type`, `null`, `key`, `extras`, `watermark`, `comment`;
//! Flink's `DescribeTableOperation`), plus what flinklint knows beyond Flink: each column's
//! [`DescribeKind`] and where it came from ([`DescribeOrigin`]).
//!
//! Unlike `SHOW CREATE TABLE`, `DESCRIBE` lists system columns: Confluent Cloud's
//! `DESCRIBE EXTENDED` lists `$rowtime` (`TIMESTAMP_LTZ(3) *ROWTIME*`, `NOT NULL`,
//! `METADATA VIRTUAL`, watermark `SOURCE_WATERMARK()` when the table declares none, comment
//! `SYSTEM`); on `flink-next` a declared `METADATA VIRTUAL` column whose key has the reserved
//! prefix is one (FLIP-348 draft, flink-spec §5).

use super::catalog::{Column, ColumnKind, Origin, TableDef};
use super::exprs::{infer_type, is_proctime};
use super::names::QualifiedName;
use super::render_expr;
use super::system::{SystemColumn, SystemColumns};
use super::types::Type;
use crate::config::CONFLUENT_ROWTIME;
use compact_str::CompactString;

/// The column kind `--describe` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DescribeKind {
    /// Stored in and read from the external system.
    Physical,
    /// `name AS expr`.
    Computed,
    /// `METADATA [FROM 'key']`: read and written.
    Metadata,
    /// `METADATA [FROM 'key'] VIRTUAL`: read only.
    MetadataVirtual,
    /// A system column: implicit on the platform, or declared with the reserved prefix.
    System,
}

impl DescribeKind {
    /// `physical`, `computed`, `metadata`, `metadata virtual` or `system`.
    pub fn as_str(self) -> &'static str {
        match self {
            DescribeKind::Physical => "physical",
            DescribeKind::Computed => "computed",
            DescribeKind::Metadata => "metadata",
            DescribeKind::MetadataVirtual => "metadata virtual",
            DescribeKind::System => "system",
        }
    }
}

/// Where a described column came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DescribeOrigin {
    /// Declared by the table's own statements (CREATE, or an ALTER that added it).
    Declared(Origin),
    /// Inherited through `LIKE` from `parent`; the origin is the parent's declaration.
    Inherited(QualifiedName, Origin),
    /// Added to every table by the platform (not written anywhere).
    Platform,
}

/// One row of `DESCRIBE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeRow {
    /// The column name.
    pub name: CompactString,
    /// The type as `DESCRIBE` prints it: the summary form (`STRING`, `BYTES`) without the
    /// top-level `NOT NULL`, followed by ` *ROWTIME*` or ` *PROCTIME*` for time attributes;
    /// `None` when flinklint cannot infer a computed column's type.
    pub data_type: Option<String>,
    /// Whether the column is nullable (`None` with an unknown type).
    pub nullable: Option<bool>,
    /// `PRI(a, b)` on each primary-key column.
    pub key: Option<String>,
    /// `AS expr`, `METADATA [FROM 'key'] [VIRTUAL]`.
    pub extras: Option<String>,
    /// The watermark strategy, on the rowtime column.
    pub watermark: Option<String>,
    /// The column comment (`SYSTEM` on Confluent's `$rowtime`).
    pub comment: Option<String>,
    /// Its kind.
    pub kind: DescribeKind,
    /// Where it came from.
    pub origin: DescribeOrigin,
}

/// The `DESCRIBE` rows of `t`: its columns in Flink's order, then the platform's implicit system
/// columns that no declared column shadows (a declared column of the same name takes precedence).
pub fn rows(t: &TableDef, system: &SystemColumns) -> Vec<DescribeRow> {
    let key = t
        .primary_key
        .as_ref()
        .map(|pk| format!("PRI({})", pk.columns.join(", ")));
    let rowtime = t
        .watermark
        .as_ref()
        .filter(|w| w.column.len() == 1)
        .map(|w| (w.column[0].as_str(), render_expr::render(&w.expr)));
    let mut out: Vec<DescribeRow> = t
        .columns
        .iter()
        .map(|c| {
            let in_key = t
                .primary_key
                .as_ref()
                .is_some_and(|pk| pk.columns.contains(&c.name));
            let watermark = rowtime
                .as_ref()
                .filter(|(name, _)| *name == c.name)
                .map(|(_, expr)| expr.clone());
            // Computed columns are typed here, not in the catalog: only DESCRIBE needs it.
            let data_type = match (&c.kind, &c.data_type) {
                (ColumnKind::Computed(expr), None) => infer_type(expr, &|n: &str| {
                    super::table::column_type(&t.columns, &system.implicit, n)
                }),
                (_, ty) => ty.clone(),
            };
            let key = in_key.then(|| key.clone()).flatten();
            declared_row(c, data_type, key, watermark, system)
        })
        .collect();
    out.extend(system.of_table(t).map(|s| {
        let declared = rowtime
            .as_ref()
            .filter(|(name, _)| *name == s.name)
            .map(|(_, expr)| expr.clone());
        system_row(s, declared, t.watermark.is_none())
    }));
    out
}

fn declared_row(
    c: &Column,
    data_type: Option<Type>,
    key: Option<String>,
    watermark: Option<String>,
    system: &SystemColumns,
) -> DescribeRow {
    let (extras, kind) = match &c.kind {
        ColumnKind::Physical => (None, DescribeKind::Physical),
        ColumnKind::Computed(expr) => (
            Some(format!("AS {}", render_expr::render(expr))),
            DescribeKind::Computed,
        ),
        ColumnKind::Metadata { key, is_virtual } => {
            let mut text = "METADATA".to_string();
            if let Some(k) = key {
                text.push_str(&format!(" FROM '{}'", k.replace('\'', "''")));
            }
            if *is_virtual {
                text.push_str(" VIRTUAL");
            }
            let kind = if system.is_declared_system(c) {
                DescribeKind::System
            } else if *is_virtual {
                DescribeKind::MetadataVirtual
            } else {
                DescribeKind::Metadata
            };
            (Some(text), kind)
        }
    };
    let marker = match &c.kind {
        _ if watermark.is_some() => " *ROWTIME*",
        ColumnKind::Computed(expr) if is_proctime(expr) => " *PROCTIME*",
        _ => "",
    };
    let origin = match &c.inherited_from {
        Some(parent) => DescribeOrigin::Inherited(QualifiedName::clone(parent), c.origin),
        None => DescribeOrigin::Declared(c.origin),
    };
    DescribeRow {
        name: c.name.clone(),
        nullable: data_type.as_ref().map(|t| t.nullable),
        data_type: data_type.map(|t| format!("{}{marker}", t.with_nullable(true).summary())),
        key,
        extras,
        watermark,
        comment: c.comment.clone(),
        kind,
        origin,
    }
}

/// An implicit system column: the rowtime attribute when the table's watermark is on it
/// (`declared`: the strategy, rendered); Confluent's `$rowtime` carries the default watermark
/// `SOURCE_WATERMARK()` when the table declares none.
fn system_row(s: &SystemColumn, declared: Option<String>, no_watermark: bool) -> DescribeRow {
    let watermark = declared.or_else(|| {
        (no_watermark && s.name == CONFLUENT_ROWTIME.0).then(|| "`SOURCE_WATERMARK`()".to_string())
    });
    let marker = if watermark.is_some() {
        " *ROWTIME*"
    } else {
        ""
    };
    let (data_type, nullable) = match &s.data_type {
        Some(t) => (
            format!("{}{marker}", t.clone().with_nullable(true).summary()),
            t.nullable,
        ),
        None => (format!("{}{marker}", s.type_text), true),
    };
    DescribeRow {
        name: s.name.as_str().into(),
        data_type: Some(data_type),
        nullable: Some(nullable),
        key: None,
        extras: Some("METADATA VIRTUAL".to_string()),
        watermark,
        comment: Some("SYSTEM".to_string()),
        kind: DescribeKind::System,
        origin: DescribeOrigin::Platform,
    }
}

/// `t` without the columns `SHOW CREATE TABLE` does not print on this platform: declared
/// system columns (`METADATA VIRTUAL` with the reserved prefix; the FLIP-348 draft's rule).
/// `None` when there are none to hide.
pub fn without_system_columns(t: &TableDef, system: &SystemColumns) -> Option<TableDef> {
    if !t.columns.iter().any(|c| system.is_declared_system(c)) {
        return None;
    }
    let mut shown = t.clone();
    shown.columns.retain(|c| !system.is_declared_system(c));
    Some(shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Settings, Target};

    fn table(sql: &str, target: Target) -> (TableDef, SystemColumns) {
        table_with(
            sql,
            Settings {
                target,
                ..Settings::default()
            },
        )
    }

    fn table_with(sql: &str, settings: Settings) -> (TableDef, SystemColumns) {
        let outcome = crate::check_texts(&[("t.sql".to_string(), sql.to_string())], &settings);
        let session = outcome.model.sessions.first().expect("a session");
        let object = session.versions.last().expect("a version").object.clone();
        let crate::semantic::catalog::ObjectDef::Table(t) = &object.def else {
            panic!("not a table")
        };
        (t.clone(), SystemColumns::from_settings(&settings))
    }

    #[test]
    fn confluent_lists_rowtime_with_the_source_watermark() {
        let (t, system) = table("CREATE TABLE t (id INT);", Target::Confluent);
        let rows = rows(&t, &system);
        assert_eq!(rows.len(), 2);
        let rowtime = &rows[1];
        assert_eq!(rowtime.name, "$rowtime");
        assert_eq!(
            rowtime.data_type.as_deref(),
            Some("TIMESTAMP_LTZ(3) *ROWTIME*")
        );
        assert_eq!(rowtime.nullable, Some(false));
        assert_eq!(rowtime.watermark.as_deref(), Some("`SOURCE_WATERMARK`()"));
        assert_eq!(rowtime.kind, DescribeKind::System);
    }

    #[test]
    fn a_declared_watermark_takes_the_rowtime_from_the_system_column() {
        let (t, system) = table(
            "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts);",
            Target::Confluent,
        );
        let rows = rows(&t, &system);
        assert_eq!(rows[0].data_type.as_deref(), Some("TIMESTAMP(3) *ROWTIME*"));
        assert_eq!(rows[1].data_type.as_deref(), Some("TIMESTAMP_LTZ(3)"));
        assert_eq!(rows[1].watermark, None);
    }

    #[test]
    fn a_watermark_on_rowtime_replaces_the_source_watermark() {
        for sql in [
            "CREATE TABLE t (id INT, WATERMARK FOR `$rowtime` AS `$rowtime` - INTERVAL '5' SECOND);",
            "CREATE TABLE t (id INT); \
             ALTER TABLE t ADD WATERMARK FOR `$rowtime` AS `$rowtime`; \
             ALTER TABLE t MODIFY WATERMARK FOR `$rowtime` AS `$rowtime` - INTERVAL '5' SECOND;",
        ] {
            let (t, system) = table(sql, Target::Confluent);
            let rows = rows(&t, &system);
            assert_eq!(rows.len(), 2, "{sql}");
            assert_eq!(
                rows[1].data_type.as_deref(),
                Some("TIMESTAMP_LTZ(3) *ROWTIME*"),
                "{sql}"
            );
            assert_eq!(
                rows[1].watermark.as_deref(),
                Some("`$rowtime` - INTERVAL '5' SECOND"),
                "{sql}"
            );
        }
    }

    #[test]
    fn computed_columns_over_rowtime_are_typed() {
        let (t, system) = table(
            "CREATE TABLE t (id INT, ts AS `$rowtime`, WATERMARK FOR ts AS ts);",
            Target::Confluent,
        );
        let rows = rows(&t, &system);
        assert_eq!(
            rows[1].data_type.as_deref(),
            Some("TIMESTAMP_LTZ(3) *ROWTIME*")
        );
        assert_eq!(rows[1].nullable, Some(false));
        assert_eq!(rows[2].data_type.as_deref(), Some("TIMESTAMP_LTZ(3)"));
        assert_eq!(rows[2].watermark, None);
    }

    #[test]
    fn configured_system_columns_keep_their_nullability() {
        let settings = Settings {
            target: Target::Confluent,
            system_columns: vec![
                ("$rowtime".into(), "TIMESTAMP(3)".into()),
                ("$offset".into(), "BIGINT NOT NULL".into()),
            ],
            ..Settings::default()
        };
        let (t, system) = table_with("CREATE TABLE t (id INT);", settings);
        let rows = rows(&t, &system);
        let nullable: Vec<_> = rows.iter().map(|r| (r.name.as_str(), r.nullable)).collect();
        assert_eq!(
            nullable,
            vec![
                ("id", Some(true)),
                ("$rowtime", Some(true)),
                ("$offset", Some(false))
            ]
        );
    }

    #[test]
    fn a_physical_column_shadows_the_system_column() {
        let (t, system) = table(
            "CREATE TABLE t (`$rowtime` TIMESTAMP_LTZ(3));",
            Target::Confluent,
        );
        let rows = rows(&t, &system);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].kind, DescribeKind::Physical);
    }

    #[test]
    fn flink_next_hides_declared_system_columns_from_show_create() {
        let sql = "CREATE TABLE t (id INT, `$offset` BIGINT METADATA VIRTUAL, \
                   o BIGINT METADATA FROM '$offset' VIRTUAL);";
        let (t, system) = table(sql, Target::FlinkNext);
        let kinds: Vec<_> = rows(&t, &system).iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            vec![
                DescribeKind::Physical,
                DescribeKind::System,
                DescribeKind::MetadataVirtual
            ]
        );
        let shown = without_system_columns(&t, &system).expect("one hidden");
        let names: Vec<_> = shown.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["id", "o"]);
        let (t, system) = table(sql, Target::Flink23);
        assert!(without_system_columns(&t, &system).is_none());
    }
}

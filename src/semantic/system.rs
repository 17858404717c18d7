//! System columns: read-only columns a platform adds to tables, hidden from `SELECT *`.
//!
//! Apache Flink 2.3 has none (FLIP-348 was implemented as `table.column-expansion-strategy`
//! instead; flink-spec §5 and Part B §3). Two platforms do:
//! - Confluent Cloud: every table has `$rowtime TIMESTAMP_LTZ(3)` (the record timestamp), hidden
//!   from `SELECT *` and `SHOW CREATE TABLE`, listed by `DESCRIBE`, read-only; a physical column
//!   of the same name takes precedence.
//! - The seed FLIP-348 draft (`flink-next`): a metadata column whose key has the reserved prefix
//!   `$`, declared `METADATA VIRTUAL` without `FROM`, is a system column.
//!
//! Projects may declare their own columns and prefix ([`crate::config::Settings`]).

use super::catalog::{Column, ColumnKind, TableDef};
use super::types::Type;
use crate::config::Settings;

/// A system column every table has.
#[derive(Debug, Clone)]
pub struct SystemColumn {
    /// Its name, e.g. `$rowtime`.
    pub name: String,
    /// Its type as written in the settings, e.g. `TIMESTAMP_LTZ(3)`.
    pub type_text: String,
    /// The parsed type (`None` when the text is not a type Flink knows).
    pub data_type: Option<Type>,
}

/// The system columns of a run: implicit ones on every table, and the reserved prefix.
#[derive(Debug, Clone, Default)]
pub struct SystemColumns {
    /// Columns every table has.
    pub implicit: Vec<SystemColumn>,
    /// The reserved prefix, if any.
    pub prefix: Option<String>,
    /// System columns of other platforms that this target does not have (Confluent's
    /// `$rowtime` on Apache Flink targets): a reference to one is an error there.
    pub foreign: Vec<String>,
}

impl SystemColumns {
    /// The system columns the settings give (target defaults plus the project's).
    pub fn from_settings(settings: &Settings) -> SystemColumns {
        let rowtime = crate::config::CONFLUENT_ROWTIME.0;
        let implicit: Vec<SystemColumn> = settings
            .effective_system_columns()
            .into_iter()
            .map(|(name, type_text)| {
                let mut data_type = parse_type(&type_text);
                // Confluent's record timestamp is always present: `DESCRIBE` shows it NOT NULL.
                // A project's column has the type its settings give.
                let builtin = name == rowtime
                    && settings.target == crate::config::Target::Confluent
                    && !settings.system_columns.iter().any(|(n, _)| *n == name);
                if builtin {
                    data_type = data_type.map(|t| t.with_nullable(false));
                }
                SystemColumn {
                    data_type,
                    name,
                    type_text,
                }
            })
            .collect();
        let foreign = if implicit.iter().any(|c| c.name == rowtime) {
            Vec::new()
        } else {
            vec![rowtime.to_string()]
        };
        SystemColumns {
            implicit,
            prefix: settings.effective_system_prefix(),
            foreign,
        }
    }

    /// The implicit system columns `t` has: those no declared column shadows (a declared
    /// column of the same name takes precedence).
    pub fn of_table<'a>(&'a self, t: &'a TableDef) -> impl Iterator<Item = &'a SystemColumn> + 'a {
        self.implicit
            .iter()
            .filter(move |s| t.column(&s.name).is_none())
    }

    /// The implicit system column named `name`, if there is one.
    pub fn implicit(&self, name: &str) -> Option<&SystemColumn> {
        self.implicit.iter().find(|c| c.name == name)
    }

    /// Whether a name starts with the reserved prefix.
    pub fn reserved(&self, name: &str) -> bool {
        self.prefix
            .as_deref()
            .is_some_and(|p| !p.is_empty() && name.starts_with(p))
    }

    /// Whether a declared column is a system column: `METADATA VIRTUAL` without `FROM`, its
    /// name (the metadata key) starting with the reserved prefix.
    pub fn is_declared_system(&self, c: &Column) -> bool {
        matches!(
            c.kind,
            ColumnKind::Metadata {
                key: None,
                is_virtual: true
            }
        ) && self.reserved(&c.name)
    }
}

/// Parses a column type written in settings (`TIMESTAMP_LTZ(3)`) with flinklint's parser.
pub fn parse_type(text: &str) -> Option<Type> {
    crate::syntax::parse_data_type(text).map(|t| Type::from_ast(&t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Target;

    #[test]
    fn targets_reserve_what_their_platform_has() {
        let mut s = Settings::default();
        let flink = SystemColumns::from_settings(&s);
        assert!(flink.implicit.is_empty() && flink.prefix.is_none());
        assert_eq!(flink.foreign, vec!["$rowtime".to_string()]);
        s.target = Target::Confluent;
        let confluent = SystemColumns::from_settings(&s);
        assert_eq!(confluent.implicit.len(), 1);
        assert_eq!(
            confluent.implicit[0].data_type.as_ref().map(Type::summary),
            Some("TIMESTAMP_LTZ(3) NOT NULL".to_string())
        );
        assert!(confluent.foreign.is_empty() && confluent.prefix.is_none());
        s.target = Target::FlinkNext;
        assert_eq!(
            SystemColumns::from_settings(&s).prefix.as_deref(),
            Some("$")
        );
    }

    #[test]
    fn project_columns_replace_the_targets() {
        let s = Settings {
            target: Target::Confluent,
            system_columns: vec![("$rowtime".into(), "TIMESTAMP(3)".into())],
            system_column_prefix: Some("_sys_".into()),
            ..Settings::default()
        };
        let sys = SystemColumns::from_settings(&s);
        assert_eq!(sys.implicit.len(), 1);
        assert_eq!(sys.implicit[0].type_text, "TIMESTAMP(3)");
        // A configured column has the nullability its type text gives.
        assert!(sys.implicit[0]
            .data_type
            .as_ref()
            .is_some_and(|t| t.nullable));
        assert!(sys.reserved("_sys_x") && !sys.reserved("$x"));
        assert!(parse_type("NOT A TYPE ((").is_none());
    }
}

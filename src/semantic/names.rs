//! Object names as Flink resolves them: `catalog.database.object`, case-sensitive, relative
//! names completed with the session's current catalog and database.

use crate::syntax::ast::ObjectName;
use compact_str::CompactString;
use std::fmt;

/// Flink's built-in catalog.
pub const DEFAULT_CATALOG: &str = "default_catalog";
/// The built-in catalog's database.
pub const DEFAULT_DATABASE: &str = "default_database";

/// A fully qualified object name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QualifiedName {
    /// Catalog.
    pub catalog: CompactString,
    /// Database.
    pub database: CompactString,
    /// Object.
    pub object: CompactString,
}

impl QualifiedName {
    /// Builds a name from its three parts.
    pub fn new(catalog: &str, database: &str, object: &str) -> QualifiedName {
        QualifiedName {
            catalog: catalog.into(),
            database: database.into(),
            object: object.into(),
        }
    }

    /// Completes a 1-3 part name with the current catalog and database; `None` for more parts.
    pub fn resolve(name: &ObjectName, catalog: &str, database: &str) -> Option<QualifiedName> {
        match name.parts.as_slice() {
            [o] => Some(QualifiedName::new(catalog, database, o.as_str())),
            [d, o] => Some(QualifiedName::new(catalog, d.as_str(), o.as_str())),
            [c, d, o] => Some(QualifiedName::new(c.as_str(), d.as_str(), o.as_str())),
            _ => None,
        }
    }

    /// `a.b.c` without quoting, for messages.
    pub fn dotted(&self) -> String {
        [
            self.catalog.as_str(),
            self.database.as_str(),
            self.object.as_str(),
        ]
        .join(".")
    }

    /// The name in backticks for messages: `` `a.b.c` ``, or each part in its own backticks
    /// (Flink's form, `` `a`.`b`.`card-tx.public.x` ``) when a part holds a dot or a
    /// backtick, which the dotted form would show as if it were split.
    pub fn in_backticks(&self) -> String {
        let plain = |p: &str| !p.contains(['.', '`']);
        if plain(&self.catalog) && plain(&self.database) && plain(&self.object) {
            format!("`{}`", self.dotted())
        } else {
            self.to_string()
        }
    }
}

impl fmt::Display for QualifiedName {
    /// Flink's form: `` `catalog`.`database`.`object` ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{}.{}",
            quote(&self.catalog),
            quote(&self.database),
            quote(&self.object)
        )
    }
}

/// Backticks a name as Flink prints it, doubling backticks inside.
pub fn quote(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

//! `DROP TABLE`, `DROP VIEW` and `DROP MATERIALIZED TABLE`. Flink looks tables and
//! materialized tables up as separate kinds here: dropping one as the other is an error.

use super::Session;
use crate::files::FileEntry;
use crate::semantic::catalog::*;
use crate::semantic::problems::Problem;
use crate::semantic::QualifiedName;
use crate::syntax::ast::*;

impl Session<'_> {
    /// `DROP TABLE`, `DROP VIEW` and `DROP MATERIALIZED TABLE`: the object leaves the catalog;
    /// an unknown table when the session cannot see it, or the wrong kind of table when it is
    /// of the other kind (unless `IF EXISTS`). Other DROPs change nothing the session tracks.
    pub(super) fn drop(&mut self, file: &FileEntry, statement: &Statement, d: &DropObject) {
        let action = match d.object {
            ObjectKind::Table => "DROP TABLE",
            ObjectKind::View => "DROP VIEW",
            ObjectKind::MaterializedTable => "DROP MATERIALIZED TABLE",
            _ => return,
        };
        let Some(name) = self.resolve(&d.name) else {
            return;
        };
        // Flink looks tables and materialized tables up as separate kinds for DROP.
        let found = self.catalog.get(&name).cloned();
        let is_materialized = |o: &CatalogObject| matches!(o.def, ObjectDef::Materialized(_));
        match (d.object, found) {
            (ObjectKind::MaterializedTable, Some(o)) if is_materialized(&o) => {
                self.catalog.remove(&name, false);
                self.note_dropped(name, o.temporary);
            }
            (ObjectKind::Table, Some(o)) if is_materialized(&o) => {
                if !d.if_exists && !statement.has_error {
                    self.report_not_materialized(file, statement, &d.name, name, action, o, true);
                }
            }
            (ObjectKind::MaterializedTable, Some(o)) => {
                if !d.if_exists && !statement.has_error {
                    self.report_not_materialized(file, statement, &d.name, name, action, o, true);
                }
            }
            (ObjectKind::MaterializedTable, None) => {
                if !d.if_exists && !statement.has_error {
                    let similar = self.similar(&name);
                    self.report(
                        file.id,
                        statement.span,
                        Problem::UnknownMaterialized {
                            span: d.name.span,
                            name,
                            action,
                            similar,
                        },
                    );
                }
            }
            _ => {
                if let Some((name, object)) =
                    self.target(file, statement, &d.name, action, d.if_exists)
                {
                    self.catalog.remove(&name, d.temporary || object.temporary);
                    self.note_dropped(name, object.temporary);
                }
            }
        }
    }

    /// After a DROP or a rename: a permanent object's name that no longer resolves names
    /// nothing ([`Session::dropped`]).
    pub(super) fn note_dropped(&mut self, name: QualifiedName, temporary: bool) {
        if !temporary && self.catalog.get(&name).is_none() {
            self.dropped.insert(name);
        }
    }
}

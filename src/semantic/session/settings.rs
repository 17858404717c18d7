//! `SET`, `RESET` and `USE`: the session's configuration and its current catalog and
//! database, which later statements read (name resolution, `SET` options such as the
//! column-expansion strategy or the default start mode of materialized tables).

use super::Session;
use crate::files::FileEntry;
use crate::semantic::catalog::Origin;
use crate::semantic::names::{DEFAULT_CATALOG, DEFAULT_DATABASE};
use crate::semantic::problems::SessionSetting;
use crate::syntax::ast::{ResetStatement, SetStatement, Statement, UseStatement};

impl<'b> Session<'b> {
    /// The value `SET` gave `key`, if any.
    pub fn config_value(&self, key: &str) -> Option<&str> {
        self.config
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, _)| v.as_str())
    }

    /// The `SET` in effect for `key`, with where it was written.
    pub fn setting(&self, key: &str) -> Option<SessionSetting> {
        self.config
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, origin)| SessionSetting {
                value: v.to_string(),
                origin: *origin,
            })
    }

    /// `SET 'key' = 'value'`: the pair is in effect from here on (a bare `SET` lists them).
    pub(super) fn set(
        &mut self,
        file: &'b FileEntry,
        statement: &'b Statement,
        set: &'b SetStatement,
    ) {
        if let Some(pair) = &set.pair {
            self.config.push((
                pair.key.as_str().into(),
                pair.value.as_str().into(),
                Origin {
                    file: file.id,
                    span: statement.span,
                },
            ));
        }
    }

    /// `RESET 'key'` forgets the key's `SET`s; `RESET` forgets them all.
    pub(super) fn reset(&mut self, reset: &ResetStatement) {
        match &reset.key {
            Some(key) => self.config.retain(|(k, _, _)| k != key.as_str()),
            None => self.config.clear(),
        }
    }

    /// `USE CATALOG c` (whose current database becomes Flink's default one) and `USE [c.]db`;
    /// `USE MODULES` changes nothing the session tracks.
    pub(super) fn use_(&mut self, u: &UseStatement) {
        match u {
            UseStatement::Catalog(c) => {
                self.current_catalog = c.text.clone();
                self.current_database = if c.as_str() == DEFAULT_CATALOG {
                    DEFAULT_DATABASE.into()
                } else {
                    "default".into()
                };
            }
            UseStatement::Database(name) => match name.parts.as_slice() {
                [db] => self.current_database = db.text.clone(),
                [cat, db] => {
                    self.current_catalog = cat.text.clone();
                    self.current_database = db.text.clone();
                }
                _ => {}
            },
            UseStatement::Modules(_) => {}
        }
    }
}

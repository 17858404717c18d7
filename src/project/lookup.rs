//! Finding a table, view or materialized table in a checked project by name, and printing its
//! expanded definition: what `flinklint expand`, and an editor's hover and go-to-definition,
//! ask.

use super::Outcome;
use crate::files::FileEntry;
use crate::semantic::catalog::{CatalogObject, ObjectDef};
use crate::semantic::describe;
use crate::semantic::names::QualifiedName;
use crate::semantic::system::SystemColumns;
use crate::semantic::{show_create, SessionResult};
use crate::source::Span;
use crate::syntax::lexer::{lex, TokenKind};
use std::path::PathBuf;
use std::sync::Arc;

/// Where one session defines an object.
#[derive(Debug, Clone)]
pub struct Definition {
    /// Index of the session in the model's sessions.
    pub session: usize,
    /// The object as the session leaves it.
    pub object: Arc<CatalogObject>,
    /// The file of the statement that names it.
    pub path: PathBuf,
    /// The name in that statement.
    pub span: Span,
}

/// Why a name could not be looked up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    /// Not a 1-3 part name.
    #[error("`{0}` is not a table name (1 to 3 parts, backticks allowed)")]
    NotAName(String),
}

/// Parses a 1-3 part name such as `db.orders` or `` `my cat`.db.`order-events` ``.
pub fn parse_name(text: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut expect_part = true;
    for tok in lex(text) {
        let raw = &text[tok.span.range()];
        match (tok.kind, expect_part) {
            (TokenKind::Word, true) => parts.push(raw.to_string()),
            (TokenKind::QuotedIdent, true) => parts.push(raw[1..raw.len() - 1].replace("``", "`")),
            (TokenKind::Dot, false) => {}
            _ => return None,
        }
        expect_part = !expect_part;
    }
    (!parts.is_empty() && parts.len() <= 3 && !expect_part).then_some(parts)
}

/// The qualified name of `parts` in a session: resolved against its final current catalog and
/// database.
pub fn resolve(parts: &[String], session: &SessionResult) -> QualifiedName {
    let (cat, db) = (&session.current.0, &session.current.1);
    match parts {
        [o] => QualifiedName::new(cat, db, o),
        [d, o] => QualifiedName::new(cat, d, o),
        [c, d, o] => QualifiedName::new(c, d, o),
        _ => QualifiedName::new(cat, db, ""),
    }
}

/// Every session that defines `name` in one of its own files; with `in_file`, only the
/// sessions that run a file it accepts.
pub fn definitions(
    outcome: &Outcome,
    name: &str,
    in_file: Option<&dyn Fn(&FileEntry) -> bool>,
) -> Result<Vec<Definition>, LookupError> {
    let parts = parse_name(name).ok_or_else(|| LookupError::NotAName(name.to_string()))?;
    let mut found = Vec::new();
    for (index, session) in outcome.model.sessions.iter().enumerate() {
        if let Some(accepts) = in_file {
            let matches = session
                .files
                .iter()
                .any(|id| accepts(&outcome.files[id.0 as usize]));
            if !matches {
                continue;
            }
        }
        let qualified = resolve(&parts, session);
        if let Some(object) = session.object(&qualified) {
            if session.files.contains(&object.statement.file) {
                let origin = object.name_origin;
                found.push(Definition {
                    session: index,
                    object: object.clone(),
                    path: outcome.files[origin.file.0 as usize].source.path.clone(),
                    span: origin.span,
                });
            }
        }
    }
    Ok(found)
}

/// The expanded definition of a table or materialized table. Declared system columns (where the
/// platform reserves a prefix) are not printed, as `SHOW CREATE TABLE` does not print them.
pub fn expanded(object: &CatalogObject, system: &SystemColumns) -> String {
    match &object.def {
        ObjectDef::Table(t) => match describe::without_system_columns(t, system) {
            Some(shown) => show_create::table(object, &shown),
            None => show_create::table(object, t),
        },
        ObjectDef::Materialized(t) => match describe::without_system_columns(t, system) {
            Some(shown) => show_create::materialized_table(object, &shown, false),
            None => show_create::materialized_table(object, t, false),
        },
        ObjectDef::View(v) => show_create::view(object, v),
    }
}

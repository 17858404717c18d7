//! Tables created where flinklint does not run the statement: by a Hive SQL or Spark SQL
//! statement (a Hive-dialect stretch, `SET table.sql-dialect = hive`, or a HiveQL file: the
//! table is in a Hive metastore, which Flink's `HiveCatalog` reads), or in a SQL block of a
//! document the run does not check (Markdown is checked only when `extensions` lists it).
//! Tables of other databases' scripts (MySQL, PostgreSQL init scripts) are not among them:
//! they live in that database, which a Flink session does not see unless a catalog of it is
//! created, and a job that writes one without a Flink table of that name is a mistake.
//!
//! Such a table exists somewhere, with a definition flinklint does not know: a statement that
//! alters, drops or writes it is not reported as naming no table ([`Problem::UnknownTable`]),
//! and nothing that depends on its columns is checked (an unknown target is never checked
//! further). Names are compared by their last part, case folded, as the context index compares
//! them ([`super::deploy::context`]): the catalog and database a Hive statement or a document
//! runs in are not known.

use super::problems::{Found, Problem};
use crate::dialect::Dialect;
use crate::files::FileEntry;
use crate::syntax::lexer::{lex, TokenKind};
use compact_str::CompactString;
use std::collections::HashSet;

/// Adds to `out` the last part, lower case, of every table or view name that `text` creates
/// (`CREATE [OR REPLACE] [TEMPORARY | EXTERNAL | ...] TABLE | VIEW [IF NOT EXISTS] name`),
/// whatever the dialect; strings and comments are skipped. Linear in the text.
pub fn created_names(text: &str, out: &mut Vec<CompactString>) {
    let tokens: Vec<_> = lex(text)
        .into_iter()
        .filter(|t| !t.kind.is_trivia())
        .collect();
    let word = |i: usize| -> Option<&str> {
        let t = tokens.get(i)?;
        (t.kind == TokenKind::Word).then(|| &text[t.span.start as usize..t.span.end as usize])
    };
    let is = |i: usize, w: &str| word(i).is_some_and(|x| x.eq_ignore_ascii_case(w));
    let mut i = 0;
    while i < tokens.len() {
        if !is(i, "CREATE") {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        const MODIFIERS: &[&str] = &[
            "OR",
            "REPLACE",
            "TEMPORARY",
            "TEMP",
            "EXTERNAL",
            "TRANSIENT",
            "MATERIALIZED",
            "GLOBAL",
            "LOCAL",
            "SYSTEM",
            "UNLOGGED",
        ];
        while MODIFIERS.iter().any(|m| is(j, m)) {
            j += 1;
        }
        if !(is(j, "TABLE") || is(j, "VIEW")) {
            i = j.max(i + 1);
            continue;
        }
        j += 1;
        if is(j, "IF") && is(j + 1, "NOT") && is(j + 2, "EXISTS") {
            j += 3;
        }
        // The name: parts separated by dots; the last one counts.
        let mut last: Option<CompactString> = None;
        while let Some(t) = tokens.get(j) {
            let raw = &text[t.span.start as usize..t.span.end as usize];
            let part = match t.kind {
                TokenKind::Word => raw,
                TokenKind::QuotedIdent | TokenKind::DoubleQuoted => {
                    raw.get(1..raw.len().saturating_sub(1)).unwrap_or("")
                }
                _ => break,
            };
            last = Some(part.to_lowercase().into());
            j += 1;
            if tokens.get(j).is_some_and(|t| t.kind == TokenKind::Dot) {
                j += 1;
            } else {
                break;
            }
        }
        if let Some(name) = last.filter(|n| !n.is_empty()) {
            out.push(name);
        }
        i = j.max(i + 1);
    }
}

/// Drops the unknown-table problems on names that a Hive SQL or Spark SQL statement of `files`,
/// or a document the run does not check (`documented`, lower case), creates.
pub(super) fn drop_created_elsewhere(
    found: &mut Vec<Found>,
    files: &[FileEntry],
    documented: &[String],
) {
    if !found
        .iter()
        .any(|f| matches!(f.problem, Problem::UnknownTable { .. }))
    {
        return;
    }
    let mut names: Vec<CompactString> = Vec::new();
    for file in files.iter().filter(|f| f.load_error.is_none()) {
        for (i, statement) in file.parsed.script.statements.iter().enumerate() {
            if matches!(
                file.dialect.dialect_of(i),
                Dialect::Hive | Dialect::Spark | Dialect::HiveOrSpark
            ) {
                if let Some(text) = file
                    .source
                    .text
                    .get(statement.span.start as usize..statement.span.end as usize)
                {
                    created_names(text, &mut names);
                }
            }
        }
    }
    let mut elsewhere: HashSet<&str> = names.iter().map(CompactString::as_str).collect();
    elsewhere.extend(documented.iter().map(String::as_str));
    if elsewhere.is_empty() {
        return;
    }
    found.retain(|f| match &f.problem {
        Problem::UnknownTable { name, .. } => {
            !elsewhere.contains(name.object.to_lowercase().as_str())
        }
        _ => true,
    });
}

#[cfg(test)]
mod tests {
    use super::created_names;

    fn names(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        created_names(text, &mut out);
        out.into_iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn reads_the_last_part_of_created_names() {
        assert_eq!(
            names(
                "CREATE TABLE `myhive`.`default`.FlinkWriteHiveTable (a INT) STORED AS parquet;\n\
                 create or replace temporary view V as select 1;\n\
                 CREATE EXTERNAL TABLE IF NOT EXISTS db.\"Quoted\" (x int);\n\
                 -- CREATE TABLE commented (a INT);\n\
                 SELECT 'CREATE TABLE in_string';\n\
                 CREATE FUNCTION f AS 'x'; CREATE TABLE"
            ),
            ["flinkwritehivetable", "v", "quoted"]
        );
    }
}

//! Statements Flink 2.3's parser accepts and its TableEnvironment then refuses to run.

use crate::rules::{Context, FileEntry, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::syntax::ast::*;

/// Reports CONNECTION statements, `SHOW CONNECTIONS`, `CREATE MODEL ... AS SELECT`, `ALTER
/// TEMPORARY SYSTEM FUNCTION`, `ALTER CATALOG ... RESET` of no key or of `'type'`, temporary
/// CTAS / RTAS and `UPSERT INTO`.
pub struct UnsupportedStatement;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnsupportedStatement;

impl Rule for UnsupportedStatement {
    fn reads_model(&self) -> bool {
        false
    }
    // `ALTER TABLE ... RESET ()`: Flink looks the table up first, so the semantic stage finds
    // it on a table the session has.
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::EmptyTableReset { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::EmptyTableReset { span } = &found.problem else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("ALTER TABLE ... RESET () is not supported by {}", ctx.target(found.file)),
            )
            .with_label("no key")
            .with_help("name the options to reset: RESET ('key', ...)")
            .with_flink_message("ALTER TABLE RESET does not support empty key");
        out.report(d);
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files {
            for outer in &file.parsed.script.statements {
                // `EXPLAIN UPSERT INTO ...`: Flink refuses the wrapped statement the same way.
                let statement = match &outer.kind {
                    StatementKind::Wrapped(w) => &w.inner,
                    _ => outer,
                };
                if outer.has_error || statement.has_error {
                    continue;
                }
                let Some((what, flink, help)) = unsupported(file, statement) else {
                    continue;
                };
                let d = report
                    .diagnostic(
                        file.id,
                        statement.span,
                        format!("{what} is not supported by {}", ctx.target(file.id)),
                    )
                    .with_help(help)
                    .with_flink_message(flink);
                report.report(d);
            }
        }
    }
}

/// What is not supported, Flink's message and the help line.
fn unsupported(
    file: &FileEntry,
    statement: &Statement,
) -> Option<(&'static str, String, &'static str)> {
    const CONNECTIONS: &str = "Flink 2.3 parses CONNECTION statements but has no operation for them: keep the connection's options in the WITH clause of the tables and models that use them";
    let quoted = || unsupported_query(file, statement);
    Some(match &statement.kind {
        StatementKind::Other(o) => match (o.kind, &o.form) {
            (OtherKind::CreateConnection, _) => ("CREATE CONNECTION", quoted(), CONNECTIONS),
            (OtherKind::AlterConnection, _) => ("ALTER CONNECTION", quoted(), CONNECTIONS),
            (OtherKind::Show, OtherForm::ShowCreateConnection) => {
                ("SHOW CREATE CONNECTION", quoted(), CONNECTIONS)
            }
            // With FROM / IN, Flink reads the database name as a column: another message.
            (OtherKind::Show, OtherForm::ShowConnections { from: false }) => (
                "SHOW CONNECTIONS",
                "No match found for function signature SHOW CONNECTIONS".to_string(),
                CONNECTIONS,
            ),
            (OtherKind::CreateModel, OtherForm::ModelAsQuery { input, output }) => {
                let flink = if *input {
                    "CREATE MODEL AS SELECT syntax does not support to specify explicit input columns.".to_string()
                } else if *output {
                    "CREATE MODEL AS SELECT syntax does not support to specify explicit output columns.".to_string()
                } else {
                    quoted()
                };
                (
                    "CREATE MODEL ... AS SELECT",
                    flink,
                    "create the model without AS SELECT: CREATE MODEL name INPUT (...) OUTPUT (...) WITH (...)",
                )
            }
            // Flink checks the keys before it looks the catalog up.
            (OtherKind::AlterCatalog, OtherForm::Reset(keys)) => {
                if keys.keys.is_empty() {
                    (
                        "ALTER CATALOG ... RESET ()",
                        "ALTER CATALOG RESET does not support empty key".to_string(),
                        "name the options to reset: RESET ('key', ...)",
                    )
                } else if keys.keys.iter().any(|k| k.value == "type") {
                    (
                        "ALTER CATALOG ... RESET ('type')",
                        "ALTER CATALOG RESET does not support changing 'type'".to_string(),
                        "a catalog's type cannot change: DROP CATALOG and CREATE CATALOG it with the new type",
                    )
                } else {
                    return None;
                }
            }
            (OtherKind::AlterFunction, OtherForm::TemporarySystem) => (
                "ALTER TEMPORARY SYSTEM FUNCTION",
                "Alter temporary system function is not supported".to_string(),
                "drop the temporary system function and create it again: DROP TEMPORARY SYSTEM FUNCTION, then CREATE TEMPORARY SYSTEM FUNCTION",
            ),
            _ => return None,
        },
        StatementKind::Drop(d) if d.object == ObjectKind::Connection => {
            ("DROP CONNECTION", quoted(), CONNECTIONS)
        }
        StatementKind::CreateTable(t) if t.temporary && t.query.is_some() => {
            let (what, flink) = if !t.or_replace {
                (
                    "CREATE TEMPORARY TABLE ... AS SELECT",
                    "CREATE TABLE AS SELECT syntax does not support to create temporary table yet.",
                )
            } else if t.replace_only {
                (
                    "REPLACE TEMPORARY TABLE ... AS SELECT",
                    "REPLACE TABLE AS SELECT syntax does not support temporary table yet.",
                )
            } else {
                (
                    "CREATE OR REPLACE TEMPORARY TABLE ... AS SELECT",
                    "CREATE OR REPLACE TABLE AS SELECT syntax does not support temporary table yet.",
                )
            };
            (
                what,
                flink.to_string(),
                "drop TEMPORARY (CTAS and RTAS create catalog tables), or create the temporary table with its columns and fill it with INSERT INTO ... SELECT",
            )
        }
        StatementKind::Insert(i) if i.upsert => (
            "UPSERT INTO",
            "UPSERT INTO statement is not supported. Please use INSERT INTO instead.".to_string(),
            "write INSERT INTO: a sink with a primary key receives the query's changes as upserts",
        ),
        _ => return None,
    })
}

/// Flink's message quotes the statement back: "Unsupported query: <statement>".
fn unsupported_query(file: &FileEntry, statement: &Statement) -> String {
    let text = file.source.slice(statement.span).trim_end();
    let text = text.strip_suffix(';').unwrap_or(text).trim_end();
    format!("Unsupported query: {text}")
}

//! A materialized-table statement on a regular table (or a table statement on a materialized
//! table), or on a name the session cannot see. Flink 2.3.0 verified for ALTER ... AS, CREATE OR
//! ALTER, DROP and ALTER TABLE (flink-spec §4.2, Part B §2).

use crate::diagnostics::Severity;
use crate::rules::catalog::did_you_mean;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::catalog::ObjectDef;
use crate::semantic::problems::{Found, Problem};

/// Reports statements whose object is of the other kind, or unknown.
pub struct NotAMaterializedTable;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &NotAMaterializedTable;

impl Rule for NotAMaterializedTable {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::NotMaterialized { .. } | Problem::UnknownMaterialized { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        match &found.problem {
            Problem::NotMaterialized {
                span,
                name,
                action,
                existing,
                verified,
            } => {
                let kind = match existing.def {
                    ObjectDef::Materialized(_) => "a materialized table",
                    ObjectDef::View(_) => "a view",
                    ObjectDef::Table(_) => "a regular table",
                };
                let (flink, help) = match *action {
                    "ALTER MATERIALIZED TABLE ... AS" | "ALTER MATERIALIZED TABLE" => (
                        Some("ALTER MATERIALIZED TABLE for a table is not allowed".to_string()),
                        "a regular table has no defining query: use ALTER TABLE, or create a materialized table",
                    ),
                    "CREATE OR ALTER MATERIALIZED TABLE" => (
                        Some(format!(
                            "Table {} is not a materialized table. Only materialized table support create or alter operation.",
                            name.dotted()
                        )),
                        "a materialized table cannot replace a regular table: DROP TABLE it first, or choose another name",
                    ),
                    "DROP MATERIALIZED TABLE" => (
                        Some(format!(
                            "Materialized Table with identifier '{}' does not exist.",
                            name.dotted()
                        )),
                        "use DROP TABLE for a regular table",
                    ),
                    "DROP TABLE" => (
                        Some(format!(
                            "Table with identifier '{}' does not exist.",
                            name.dotted()
                        )),
                        "use DROP MATERIALIZED TABLE for a materialized table",
                    ),
                    "ALTER TABLE" => (
                        Some("ALTER TABLE for a materialized table is not allowed".to_string()),
                        "use ALTER MATERIALIZED TABLE (ADD / MODIFY / DROP, AS <query>) or CREATE OR ALTER MATERIALIZED TABLE",
                    ),
                    _ => (
                        None,
                        "SUSPEND, RESUME and REFRESH apply to materialized tables only; the SQL gateway rejects them on a regular table",
                    ),
                };
                let severity = if *verified {
                    Severity::Error
                } else {
                    Severity::Warning
                };
                let mut d = out
                    .diagnostic_with(
                        severity,
                        found.file,
                        *span,
                        format!("{action} on `{}`, which is {kind}", name.object),
                    )
                    .with_label(kind)
                    .with_help(help)
                    .with_related(
                        existing.name_origin.file,
                        existing.name_origin.span,
                        format!("{kind} defined here"),
                    );
                if let Some(f) = flink {
                    d = d.with_flink_message(f);
                }
                out.report(d);
            }
            Problem::UnknownMaterialized {
                span,
                name,
                action,
                similar,
            } => {
                let flink = if *action == "DROP MATERIALIZED TABLE" {
                    format!(
                        "Materialized Table with identifier '{}' does not exist.",
                        name.dotted()
                    )
                } else {
                    format!("Materialized table {name} doesn't exist.")
                };
                let help = did_you_mean(similar)
                    .unwrap_or_else(|| crate::rules::catalog::not_created_help(ctx, "it"));
                let d = out
                    .diagnostic_with(
                        Severity::Warning,
                        found.file,
                        *span,
                        format!(
                            "{action} `{}`: no materialized table of that name is defined in this session",
                            name.dotted()
                        ),
                    )
                    .with_label("not defined in this session")
                    .with_help(help)
                    .with_flink_message(flink);
                out.report(d);
            }
            _ => {}
        }
    }
}

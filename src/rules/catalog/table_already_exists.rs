//! CT001 table-already-exists: CREATE of a name the session already has.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports CREATE TABLE / VIEW / MATERIALIZED TABLE of an existing name without IF NOT EXISTS
/// or OR REPLACE.
pub struct TableAlreadyExists;

impl Rule for TableAlreadyExists {
    fn code(&self) -> &'static str {
        "CT001"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::AlreadyExists {
                span,
                name,
                existing,
                creating,
            } = &found.problem
            else {
                continue;
            };
            let kind = existing.def.kind_name();
            let where_ = ctx.locate(existing.name_origin);
            let help = match *creating {
                "table" if existing.temporary => "use CREATE TEMPORARY TABLE IF NOT EXISTS to keep the existing definition, or choose another name",
                "table" => "use CREATE TABLE IF NOT EXISTS to keep the existing definition, CREATE OR REPLACE TABLE ... AS to replace it, or choose another name",
                "view" => "use CREATE VIEW IF NOT EXISTS, drop the view first, or choose another name",
                _ => "use CREATE OR ALTER MATERIALIZED TABLE to evolve it, or choose another name",
            };
            let flink = if existing.temporary {
                format!("Temporary table '{name}' already exists")
            } else {
                format!(
                    "Table (or view) {}.{} already exists in Catalog {}.",
                    name.database, name.object, name.catalog
                )
            };
            let d = report
                .diagnostic(
                    found.file,
                    *span,
                    format!(
                        "{creating} `{}` already exists: a {kind} defined at {where_}",
                        name.object
                    ),
                )
                .with_label("already exists")
                .with_related(
                    existing.name_origin.file,
                    existing.name_origin.span,
                    format!("`{}` is defined here", name.object),
                )
                .with_help(help)
                .with_flink_message(flink);
            report.report(d);
        }
    }
}

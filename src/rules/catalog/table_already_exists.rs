//! CREATE of a name the session already has.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports CREATE TABLE / VIEW / MATERIALIZED TABLE of an existing name without IF NOT EXISTS
/// or OR REPLACE.
pub struct TableAlreadyExists;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &TableAlreadyExists;

impl Rule for TableAlreadyExists {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::AlreadyExists { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::AlreadyExists {
            span,
            name,
            existing,
            creating,
        } = &found.problem
        else {
            return;
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
        let d = out
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
        out.report(d);
    }
}

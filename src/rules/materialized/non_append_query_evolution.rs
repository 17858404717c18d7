//! A query evolution that drops, renames, reorders or retypes existing columns (Flink 2.3
//! `MaterializedTableChangeHandler`; flink-spec §4.5).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{EvolutionIssue, Found, Problem};

/// Reports `CREATE OR ALTER` / `ALTER ... AS` whose new columns do not start with the old ones.
pub struct NonAppendQueryEvolution;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &NonAppendQueryEvolution;

const MODIFY: &str = "When modifying the query of a materialized table, currently only support appending columns at the end of original schema, dropping, renaming, and reordering columns are not supported.";

impl Rule for NonAppendQueryEvolution {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::NonAppendEvolution { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::NonAppendEvolution {
            span,
            issue,
            old_columns,
            new_columns,
            previous,
            via_alter,
        } = &found.problem
        else {
            return;
        };
        let (message, label, flink) = match issue {
            EvolutionIssue::Dropped { old, new } => (
                format!(
                    "the new query has {new} persisted column(s) where the materialized table has {old}: columns can only be appended"
                ),
                format!("{new} column(s), {old} before"),
                format!(
                    "Failed to modify query because drop column is unsupported. When modifying a query, you can only append new columns at the end of original schema. The original schema has {old} columns, but the newly derived schema from the query has {new} columns."
                ),
            ),
            EvolutionIssue::Mismatch { position, old, new } => (
                format!(
                    "column {position} of the new query is {new} where the materialized table has {old}: columns can only be appended"
                ),
                format!("column {position} was {old}"),
                format!(
                    "{MODIFY}\nColumn mismatch at position {position}: Original column is [{old}], but new column is [{new}]."
                ),
            ),
        };
        let mut notes = vec!["columns before → after:".to_string()];
        let old_text = format!("{}\n", old_columns.join("\n"));
        let new_text = format!("{}\n", new_columns.join("\n"));
        let diff = similar::TextDiff::from_lines(&old_text, &new_text);
        for change in diff.iter_all_changes() {
            let sign = match change.tag() {
                similar::ChangeTag::Delete => "-",
                similar::ChangeTag::Insert => "+",
                similar::ChangeTag::Equal => " ",
            };
            notes.push(format!("{sign} {}", change.value().trim_end()));
        }
        let how = if *via_alter {
            "this check runs when the SQL gateway executes the ALTER"
        } else {
            "Flink rejects the CREATE OR ALTER"
        };
        let d = out
            .diagnostic(found.file, *span, message)
            .with_label(label)
            .with_help(format!(
                "keep the existing columns first, in order, with their names and types (CAST where needed), and append new ones at the end; to drop, rename or reorder, DROP the materialized table and CREATE it again ({how})"
            ))
            .with_flink_message(flink)
            .with_notes(&[notes.join("\n")])
            .with_related(previous.file, previous.span, "the definition it evolves");
        out.report(d);
    }
}

//! An INSERT into a view (the planner finds no sink table: `PlannerBase`).

use super::{is_sink_issue, report_sink};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::insert::SinkIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports an INSERT whose target is a view.
pub struct InsertIntoView;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InsertIntoView;

impl Rule for InsertIntoView {
    fn consumes(&self, problem: &Problem) -> bool {
        is_sink_issue(problem, |i| matches!(i, SinkIssue::IntoView))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        report_sink(found, out, |_, t| {
            (
                format!("`{t}` is a view; Flink cannot write into a view"),
                "a view".to_string(),
                format!("INSERT INTO the table `{t}` reads from, or create a table to write into"),
            )
        });
    }
}

//! A target column list leaving out a NOT NULL sink column (`PreValidateReWriter`, Calcite's
//! `columnNotNullable`).

use super::{is_sink_issue, report_sink};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::insert::SinkIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports an INSERT whose column list omits a NOT NULL (or primary key) column of the sink.
pub struct InsertNotNullColumnOmitted;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InsertNotNullColumnOmitted;

impl Rule for InsertNotNullColumnOmitted {
    fn consumes(&self, problem: &Problem) -> bool {
        is_sink_issue(problem, |i| matches!(i, SinkIssue::NotNullOmitted { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        report_sink(found, out, |issue, t| {
            let SinkIssue::NotNullOmitted { column, .. } = issue else {
                return Default::default();
            };
            (
                format!("the column list of INSERT INTO `{t}` leaves out `{column}`, which is NOT NULL"),
                format!("`{column}` missing"),
                format!("Flink writes NULL into the columns a list leaves out: name `{column}` in the list and select a value for it"),
            )
        });
    }
}

//! A column alias list whose length differs from the subquery's columns.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// A column alias list whose length differs from the subquery's columns.
pub struct ColumnAliasCount;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ColumnAliasCount;

impl Rule for ColumnAliasCount {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::AliasListDegree { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::AliasListDegree { span, columns, aliases }) = &found.problem
        else {
            return;
        };
        let quoted: Vec<String> = columns.iter().map(|c| format!("'{c}'")).collect();
        let n = columns.len();
        let d = out
            .diagnostic(found.file, *span, format!("{aliases} column aliases for a subquery of {n} columns"))
            .with_label("alias list")
            .with_help("name every column of the subquery in the alias list, or none")
            .with_flink_message(format!(
                "List of column aliases must have same degree as table; table has {n} columns ({}), whereas alias list has {aliases} columns",
                quoted.join(", ")
            ));
        out.report(d);
    }
}

//! A field a ROW column does not have.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// A field a ROW column does not have.
pub struct UnknownField;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnknownField;

impl Rule for UnknownField {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::UnknownField { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::UnknownField { span, path, field, table, fields, case_match, .. }) = &found.problem
        else {
            return;
        };
        let list: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
        let d = out
            .diagnostic(found.file, *span, format!("field `{field}` not found: `{path}` is not a field of table `{table}`"))
            .with_label("no such field")
            .with_help(format!("the ROW type has the fields {}", list.join(", ")))
            .with_flink_message(match case_match {
                Some(c) => format!("Column '{path}' not found in table '{table}'; did you mean '{c}'?"),
                None => format!("Column '{path}' not found in table '{table}'"),
            });
        out.report(d);
    }
}

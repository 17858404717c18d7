//! An unqualified column that more than one relation has.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// An unqualified column that more than one relation has.
pub struct AmbiguousColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &AmbiguousColumn;

impl Rule for AmbiguousColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::AmbiguousColumn { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::AmbiguousColumn { span, name, tables }) = &found.problem
        else {
            return;
        };
        let list: Vec<String> = tables.iter().map(|t| format!("`{t}.{name}`")).collect();
        let d = out
            .diagnostic(found.file, *span, format!("column `{name}` is ambiguous: more than one table of the FROM clause has it"))
            .with_label("ambiguous")
            .with_help(if list.len() > 1 {
                format!("qualify it: {}", list.join(" or "))
            } else {
                "qualify it with the table's alias".to_string()
            })
            .with_flink_message(format!("Column '{name}' is ambiguous"));
        out.report(d);
    }
}

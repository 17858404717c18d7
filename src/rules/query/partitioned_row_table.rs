//! PARTITION BY on a table argument with row semantics.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// Reports `TABLE t PARTITION BY ...` passed to `FROM_CHANGELOG` / `TO_CHANGELOG`.
pub struct PartitionedRowTable;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &PartitionedRowTable;

impl Rule for PartitionedRowTable {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::PartitionedRowTable { .. }))
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::PartitionedRowTable {
            span,
            function,
            operand,
        }) = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "`{function}` takes its table's rows one by one: its table argument cannot be partitioned on {}",
                    ctx.target(found.file)
                ),
            )
            .with_label("PARTITION BY on a table with row semantics")
            .with_help("remove PARTITION BY (and its ORDER BY)")
            .with_flink_message(format!(
                "Only tables with set semantics may be partitioned. Invalid PARTITION BY clause in the {operand}-th operand of table function '{function}'"
            ));
        out.report(d);
    }
}

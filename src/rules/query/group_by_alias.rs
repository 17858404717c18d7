//! GROUP BY a name only a select alias gives.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// GROUP BY a name only a select alias gives.
pub struct GroupByAlias;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &GroupByAlias;

impl Rule for GroupByAlias {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::GroupByAlias { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::GroupByAlias { span, name, item, in_having, .. }) = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, if *in_having {
                format!("HAVING names the select alias `{name}`; Flink's HAVING sees only the columns of the FROM clause")
            } else {
                format!("GROUP BY `{name}` names a select alias; Flink groups only by columns and expressions of the FROM clause")
            })
            .with_label("select alias")
            .with_related(found.file, *item, "the alias is defined here")
            .with_help(if *in_having {
                "repeat the aliased expression in HAVING (ORDER BY may name an alias, HAVING may not)"
            } else {
                "group by the aliased expression itself (ORDER BY may name an alias, GROUP BY may not)"
            })
            .with_flink_message(format!("Column '{name}' not found in any table"));
        out.report(d);
    }
}

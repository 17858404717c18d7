//! A declared column named like a system column every table has (Confluent Cloud's `$rowtime`, or a
//! project's configured system column).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports a declared column that shadows a system column; the declared column takes
/// precedence (seed FLIP-348 draft; Confluent Cloud advises not to declare `$rowtime`).
pub struct SystemColumnClash;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &SystemColumnClash;

impl Rule for SystemColumnClash {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::SystemColumnShadowed { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::SystemColumnShadowed {
            span,
            name,
            kind,
            system_type,
        } = &found.problem
        else {
            return;
        };
        let kind = kind.as_str();
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "the {kind} column `{name}` shadows the system column `{name}` {system_type}"
                ),
            )
            .with_label(format!("queries see this {kind} column"))
            .with_help(format!(
                "on {} every table has the system column `{name}`; a declared column of the same name takes precedence, so `{name}` in queries, SELECT * and INSERT mean this column. Rename it unless that is intended",
                ctx.settings.target
            ));
        out.report(d);
    }
}

//! An option value that does not parse for the option's type.

use super::option_diagnostic;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::options::OptionIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports option values Flink cannot read (`FactoryUtil#readOption`).
pub struct InvalidConnectorOptionValue;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidConnectorOptionValue;

impl Rule for InvalidConnectorOptionValue {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::ConnectorOption {
                issue: OptionIssue::Invalid { .. },
                ..
            }
        )
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        if !super::applies(ctx, found.file) {
            return;
        }
        let Problem::ConnectorOption {
            issue:
                OptionIssue::Invalid {
                    key,
                    value,
                    origin,
                    expected,
                    cause,
                },
            table,
            used,
        } = &found.problem
        else {
            return;
        };
        let message = format!(
            "option '{key}' of table `{}` takes {expected}, not '{value}'",
            table.object
        );
        let d = option_diagnostic(
            found,
            out,
            used.as_ref(),
            *origin,
            table,
            message,
            "invalid value",
        )
        .with_help(format!("write {expected}"))
        .with_note(format!("Flink: Invalid value for option '{key}'."))
        .with_flink_message(cause.clone());
        out.report(d);
    }
}

//! Required options of the table's connector that the table lacks.

use super::option_diagnostic;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::options::OptionIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports missing required options (`FactoryUtil#validateFactoryOptions`).
pub struct MissingConnectorOption;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &MissingConnectorOption;

impl Rule for MissingConnectorOption {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::ConnectorOption {
                issue: OptionIssue::Missing { .. },
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
                OptionIssue::Missing {
                    keys,
                    connector,
                    origin,
                },
            table,
            used,
        } = &found.problem
        else {
            return;
        };
        let list = keys
            .iter()
            .map(|k| format!("'{k}'"))
            .collect::<Vec<_>>()
            .join(", ");
        let message = format!(
            "table `{}` lacks the option{} {list} that the `{connector}` connector requires",
            table.object,
            if keys.len() == 1 { "" } else { "s" }
        );
        let d = option_diagnostic(
            found,
            out,
            used.as_ref(),
            *origin,
            table,
            message,
            "the connector that requires it",
        )
        .with_help(format!("add {list} to the table's WITH options"))
        .with_flink_message(format!(
            "One or more required options are missing.\n\nMissing required options are:\n\n{}",
            keys.iter()
                .map(|k| k.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        ));
        out.report(d);
    }
}

//! Options that parse one by one but that the connector's factory rejects together.

use super::option_diagnostic;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::options::OptionIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports combinations of options a factory rejects (Kafka's key and value fields, JDBC's
/// all-or-none groups).
pub struct ConflictingConnectorOptions;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ConflictingConnectorOptions;

impl Rule for ConflictingConnectorOptions {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::ConnectorOption {
                issue: OptionIssue::Conflict { .. },
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
                OptionIssue::Conflict {
                    origin,
                    message,
                    help,
                    flink,
                    ..
                },
            table,
            used,
        } = &found.problem
        else {
            return;
        };
        let message = message.replace("{}", &table.object);
        let d = option_diagnostic(
            found,
            out,
            used.as_ref(),
            *origin,
            table,
            message,
            "the option the factory rejects",
        )
        .with_help(help.clone())
        .with_flink_message(flink.clone());
        out.report(d);
    }
}

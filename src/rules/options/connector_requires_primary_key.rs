//! A table without the PRIMARY KEY its connector requires (upsert-kafka).

use super::option_diagnostic;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::options::OptionIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports tables whose connector requires a primary key and that declare none.
pub struct ConnectorRequiresPrimaryKey;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ConnectorRequiresPrimaryKey;

impl Rule for ConnectorRequiresPrimaryKey {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::ConnectorOption {
                issue: OptionIssue::PrimaryKeyRequired { .. },
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
                OptionIssue::PrimaryKeyRequired {
                    connector,
                    origin,
                    flink,
                },
            table,
            used,
        } = &found.problem
        else {
            return;
        };
        let message = format!(
            "table `{}` has no PRIMARY KEY, which the `{connector}` connector requires",
            table.object
        );
        let d = option_diagnostic(
            found,
            out,
            used.as_ref(),
            *origin,
            table,
            message,
            "the connector that requires a primary key",
        )
        .with_help(
            "declare the columns of the message key: `PRIMARY KEY (col, ...) NOT ENFORCED` (or use the `kafka` connector for an append-only topic)",
        )
        .with_flink_message(flink.to_string());
        out.report(d);
    }
}

//! A sink-only connector's table read, or a source-only connector's table written.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports reads of sink-only and writes of source-only connectors.
pub struct ConnectorDirection;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ConnectorDirection;

impl Rule for ConnectorDirection {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::ConnectorDirection { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        if !super::applies(ctx, found.file) {
            return;
        }
        let Problem::ConnectorDirection {
            span,
            table,
            connector,
            connector_origin,
            write,
        } = &found.problem
        else {
            return;
        };
        let (message, flink) = if *write {
            (
                format!(
                    "table `{}` is written, but its `{connector}` connector can only be read",
                    table.object
                ),
                format!("Connector '{connector}' can only be used as a source. It cannot be used as a sink."),
            )
        } else {
            (
                format!(
                    "table `{}` is read, but its `{connector}` connector can only be written",
                    table.object
                ),
                format!("Connector '{connector}' can only be used as a sink. It cannot be used as a source."),
            )
        };
        let d = out
            .diagnostic(found.file, *span, message)
            .with_label(if *write { "written here" } else { "read here" })
            .with_related(
                connector_origin.file,
                connector_origin.span,
                format!("the `{connector}` connector"),
            )
            .with_help(if *write {
                "write to a table whose connector has a sink (e.g. `print`, `blackhole`, `filesystem`)"
            } else {
                "read from a table whose connector has a source (e.g. `datagen`, `filesystem`)"
            })
            .with_flink_message(flink);
        out.report(d);
    }
}

//! A key that neither the table's connector nor its format supports.

use super::option_diagnostic;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::options::{catalogs, OptionIssue};
use crate::semantic::problems::{Found, Problem};

/// Reports keys Flink's factory leaves unconsumed (`FactoryUtil#validateUnconsumedKeys`).
pub struct UnsupportedConnectorOption;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnsupportedConnectorOption;

impl Rule for UnsupportedConnectorOption {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::ConnectorOption {
                issue: OptionIssue::Unsupported { .. },
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
                OptionIssue::Unsupported {
                    key,
                    origin,
                    connector,
                    similar,
                    other_format,
                },
            table,
            used,
        } = &found.problem
        else {
            return;
        };
        let help = match (other_format, similar) {
            (Some((format, Some(chosen))), _) => {
                let rest = key.split_once(&format!("{format}.")).map_or("", |(_, r)| r);
                let has = catalogs()
                    .format(chosen)
                    .is_some_and(|f| f.options.iter().any(|o| o.key == rest));
                if has {
                    format!(
                        "'{key}' is an option of the `{format}` format, but the table's format is `{chosen}`: write '{}'",
                        key.replacen(format.as_str(), chosen, 1)
                    )
                } else {
                    format!(
                        "'{key}' is an option of the `{format}` format, but the table's format is `{chosen}`: remove it"
                    )
                }
            }
            (Some((format, None)), _) => format!(
                "'{key}' is an option of the `{format}` format, but the table chooses no `{format}` format"
            ),
            (None, Some(s)) => format!("did you mean '{s}'?"),
            (None, None) if connector == "datagen" && key.starts_with("fields.") => format!(
                "datagen's `fields.<column>.<option>` keys name a physical column of `{}` and an option of its generator",
                table.object
            ),
            (None, None) => format!(
                "remove it (docs/connectors.md lists the options of the `{connector}` connector)"
            ),
        };
        let message = format!(
            "the `{connector}` connector does not support the option '{key}' of table `{}`",
            table.object
        );
        let d = option_diagnostic(
            found,
            out,
            used.as_ref(),
            *origin,
            table,
            message,
            "unsupported option",
        )
        .with_help(help)
        .with_flink_message(format!(
            "Unsupported options found for '{connector}'.\n\nUnsupported options:\n\n{key}"
        ));
        out.report(d);
    }
}

//! A column whose name the table's connector reserves for itself (Paimon's `_KEY_` prefix,
//! `_SEQUENCE_NUMBER`, `_VALUE_KIND`; Fluss's `__offset`, `__timestamp`, `__bucket`), and a Kafka
//! table whose key and value formats both produce a `key.fields` column. The catalog pass finds
//! them in every version of every table (`semantic/connectors.rs`, data in
//! `rules/data/connector-reserved-columns.yaml`); a column or option shared by several versions is
//! reported once.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports columns named as their connector's own fields, and Kafka key fields that the
/// value format also writes under the same name.
pub struct ConnectorReservedColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ConnectorReservedColumn;

impl Rule for ConnectorReservedColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::ConnectorReservedColumn { .. } | Problem::KafkaKeyFieldsInValue { .. }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        match &found.problem {
            Problem::ConnectorReservedColumn {
                column,
                name,
                table,
                how,
                connector,
                connector_option,
                why,
                source,
            } => {
                if !out.first_at(column.file, column.span) {
                    return;
                }
                let d = out
                    .diagnostic(
                        column.file,
                        column.span,
                        format!(
                            "column `{name}` of `{table}` {how} the {connector} connector reserves for itself"
                        ),
                    )
                    .with_label(format!("reserved by '{connector}'"))
                    .with_related(
                        connector_option.file,
                        connector_option.span,
                        format!("the table uses the {connector} connector"),
                    )
                    .with_help(format!("rename the column: {why} ({source})"));
                out.report(d);
            }
            Problem::KafkaKeyFieldsInValue {
                fields,
                table,
                columns,
                source,
            } => {
                if !out.first_at(fields.file, fields.span) {
                    return;
                }
                let names = columns
                    .iter()
                    .map(|(name, _)| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let mut d = out
                    .diagnostic(
                        fields.file,
                        fields.span,
                        format!(
                            "the key and value formats of `{table}` both produce {names}: `key.fields` columns also go into the value"
                        ),
                    )
                    .with_label("key fields also written to the value")
                    .with_help(format!(
                        "add 'value.fields-include' = 'EXCEPT_KEY' (and a 'key.fields-prefix' to tell key columns apart); see {source}"
                    ));
                for (name, origin) in columns {
                    d = d.with_related(
                        origin.file,
                        origin.span,
                        format!("`{name}` goes into both the key and the value"),
                    );
                }
                out.report(d);
            }
            _ => {}
        }
    }
}

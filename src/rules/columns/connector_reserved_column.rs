//! CL010 connector-reserved-column: a column whose name the table's connector reserves for
//! itself (Paimon's `_KEY_` prefix, `_SEQUENCE_NUMBER`, `_VALUE_KIND`; Fluss's `__offset`,
//! `__timestamp`, `__bucket`), and a Kafka table whose key and value formats both produce a
//! `key.fields` column. The catalog pass finds them in every version of every table
//! (`semantic/connectors.rs`, data in `rules/data/connector-reserved-columns.yaml`); a column
//! or option shared by several versions is reported once.

use std::collections::HashSet;

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports columns named as their connector's own fields, and Kafka key fields that the
/// value format also writes under the same name.
pub struct ConnectorReservedColumn;

impl Rule for ConnectorReservedColumn {
    fn code(&self) -> &'static str {
        "CL010"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        let mut seen = HashSet::new();
        for found in ctx.problems(self.code()) {
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
                    if !seen.insert((column.file, column.span)) {
                        continue;
                    }
                    let d = report
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
                    report.report(d);
                }
                Problem::KafkaKeyFieldsInValue {
                    fields,
                    table,
                    columns,
                    source,
                } => {
                    if !seen.insert((fields.file, fields.span)) {
                        continue;
                    }
                    let names = columns
                        .iter()
                        .map(|(name, _)| format!("`{name}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let mut d = report
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
                    report.report(d);
                }
                _ => {}
            }
        }
    }
}

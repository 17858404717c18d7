//! SY005 unsupported-by-target: syntax the chosen Flink version does not have.

use crate::config::Target;
use crate::rules::{Context, Reporter, Rule};
use crate::source::Span;
use crate::syntax::ast::*;

/// Reports syntax newer (or older) than the target, e.g. START_MODE before Flink 2.3.
pub struct UnsupportedByTarget;

/// One piece of syntax and the Flink versions that have it.
struct Feature {
    span: Span,
    what: &'static str,
    /// First Apache Flink version with it; `None`: only the seed FLIP (flink-next).
    since: Option<(u32, u32)>,
    /// Last Apache Flink version with it, for removed syntax.
    until: Option<(u32, u32)>,
}

fn feature(span: Span, what: &'static str, since: (u32, u32)) -> Feature {
    Feature {
        span,
        what,
        since: Some(since),
        until: None,
    }
}

fn supported(f: &Feature, target: Target) -> bool {
    let v = target.grammar_version();
    match f.since {
        None => target == Target::FlinkNext,
        Some(since) => v >= since && f.until.is_none_or(|until| v <= until),
    }
}

fn features(statement: &Statement) -> Vec<Feature> {
    let mut out = Vec::new();
    match &statement.kind {
        StatementKind::CreateMaterializedTable(mt) => {
            if let Some(span) = mt.or_alter {
                out.push(feature(span, "CREATE OR ALTER MATERIALIZED TABLE", (2, 2)));
            }
            if let Some(sm) = &mt.start_mode {
                out.push(feature(sm.span, "START_MODE", (2, 3)));
            }
            if let Some(d) = &mt.distribution {
                out.push(feature(
                    d.span,
                    "DISTRIBUTED BY on a materialized table",
                    (2, 2),
                ));
            }
            if let Some(elements) = &mt.elements {
                let defines = elements
                    .items
                    .iter()
                    .any(|e| !matches!(e, TableElement::Constraint(_)));
                if defines {
                    out.push(feature(
                        elements.span,
                        "a column list in CREATE MATERIALIZED TABLE",
                        (2, 3),
                    ));
                }
            }
            if mt.freshness.is_none() {
                let span = mt.as_span.unwrap_or(mt.name.span);
                out.push(feature(
                    span,
                    "CREATE MATERIALIZED TABLE without FRESHNESS",
                    (2, 2),
                ));
            }
        }
        StatementKind::AlterMaterializedTable(alter) => match &alter.action {
            AlterMaterializedTableAction::AsQuery(q) => {
                out.push(feature(
                    q.as_span,
                    "ALTER MATERIALIZED TABLE ... AS query",
                    (2, 0),
                ));
                if let Some(w) = &q.with {
                    out.push(Feature { span: w.span, what: "WITH options in ALTER MATERIALIZED TABLE ... AS (the seed FLIP-557 syntax)", since: None, until: None });
                }
                if let Some(sm) = &q.start_mode {
                    let what = if sm.set_keyword.is_some() {
                        "SET START_MODE in ALTER MATERIALIZED TABLE ... AS (the seed FLIP-557 syntax)"
                    } else {
                        "START_MODE in ALTER MATERIALIZED TABLE ... AS (the seed FLIP-557 syntax is `SET START_MODE = ...`)"
                    };
                    let since = if sm.set_keyword.is_some() {
                        None
                    } else {
                        Some((99, 0))
                    };
                    out.push(Feature {
                        span: sm.span,
                        what,
                        since,
                        until: None,
                    });
                }
            }
            AlterMaterializedTableAction::Schema(change) => {
                let (span, what, since) = match change {
                    SchemaChange::AddDistribution(d) | SchemaChange::ModifyDistribution(d) => {
                        (d.span, "ADD / MODIFY DISTRIBUTION on a materialized table", (2, 2))
                    }
                    SchemaChange::DropDistribution(s) => (*s, "DROP DISTRIBUTION on a materialized table", (2, 2)),
                    _ => (statement.span, "ALTER MATERIALIZED TABLE ADD / MODIFY / DROP of columns, constraints or watermarks", (2, 3)),
                };
                out.push(feature(span, what, since));
            }
            _ => {}
        },
        StatementKind::AlterTable(alter) => {
            if matches!(alter.action, AlterTableAction::Compact) {
                out.push(Feature {
                    span: statement.span,
                    what: "ALTER TABLE ... COMPACT (managed tables, removed in Flink 2.0)",
                    since: Some((1, 0)),
                    until: Some((1, 20)),
                });
            }
        }
        _ => {}
    }
    out
}

fn versions(f: &Feature) -> String {
    match (f.since, f.until) {
        (None, _) => "only the seed FLIP-557 proposal (target flink-next) has it".to_string(),
        (Some((99, _)), _) => "no Flink version has it".to_string(),
        (Some((a, b)), None) => format!("Flink {a}.{b} and later have it"),
        (Some(_), Some((a, b))) => format!("only Flink {a}.{b} and earlier have it"),
    }
}

impl Rule for UnsupportedByTarget {
    fn code(&self) -> &'static str {
        "SY005"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        let target = ctx.settings.target;
        for file in ctx.files {
            for statement in file.parsed.script.all_statements() {
                for f in features(statement) {
                    if supported(&f, target) {
                        continue;
                    }
                    let d = report
                        .diagnostic(
                            file.id,
                            f.span,
                            format!("{} is not supported by {target}", f.what),
                        )
                        .with_help(format!(
                            "{}; rewrite it for {target}, or choose another --target",
                            versions(&f)
                        ));
                    report.report(d);
                }
            }
        }
    }
}

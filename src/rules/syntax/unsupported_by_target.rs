//! Syntax the chosen Flink version does not have.

use crate::config::Target;
use std::borrow::Cow;
use crate::rules::{Context, FileEntry, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::expected;

/// Reports syntax newer (or older) than the target, e.g. START_MODE before Flink 2.3.
pub struct UnsupportedByTarget;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnsupportedByTarget;

/// One piece of syntax and the Flink versions that have it.
struct Feature {
    span: Span,
    what: Cow<'static, str>,
    /// First Apache Flink version with it; `None`: only the seed FLIP (flink-next).
    since: Option<(u32, u32)>,
    /// Last Apache Flink version with it, for removed syntax.
    until: Option<(u32, u32)>,
    /// What Flink 2.3 prints for it (verified), if known.
    flink: Option<FlinkText>,
    /// What to do instead, when there is a better answer than another target.
    help: Option<&'static str>,
}

/// What Flink 2.3 prints for a form it does not have.
enum FlinkText {
    /// A message of a check in its parser.
    Verbatim(&'static str),
    /// Its parse error at a token, with what it expected.
    Encountered(Span, &'static [&'static str]),
    /// A message of its validator that names something of the statement.
    Message(String),
}

fn feature(span: Span, what: &'static str, since: (u32, u32)) -> Feature {
    Feature {
        span,
        what: what.into(),
        since: Some(since),
        until: None,
        flink: None,
        help: None,
    }
}

/// Syntax no Flink version has, with Flink 2.3's message and what to write instead.
fn never(span: Span, what: &'static str, flink: FlinkText, help: &'static str) -> Feature {
    Feature {
        span,
        what: what.into(),
        since: Some((99, 0)),
        until: None,
        flink: Some(flink),
        help: Some(help),
    }
}

/// The first token starting after `offset` (comments skipped).
fn token_after(file: &FileEntry, offset: u32) -> Span {
    // Tokens are in text order: a binary search finds the first one after `offset`.
    let tokens = &file.parsed.tokens;
    let first = tokens.partition_point(|t| t.span.start <= offset);
    tokens[first..]
        .iter()
        .find(|t| !t.kind.is_trivia())
        .map_or(Span::empty(offset), |t| t.span)
}

fn supported(f: &Feature, target: Target) -> bool {
    let v = target.grammar_version();
    match f.since {
        None => target == Target::FlinkNext,
        Some(since) => v >= since && f.until.is_none_or(|until| v <= until),
    }
}

fn features(file: &FileEntry, statement: &Statement) -> Vec<Feature> {
    let mut out = Vec::new();
    match &statement.kind {
        StatementKind::CreateMaterializedTable(mt) => {
            if let Some(span) = mt.temporary {
                out.push(never(
                    span,
                    "CREATE TEMPORARY MATERIALIZED TABLE",
                    FlinkText::Verbatim("CREATE TEMPORARY MATERIALIZED TABLE is not supported."),
                    "materialized tables are always permanent: remove TEMPORARY, or use a temporary view",
                ));
            }
            if let Some(span) = mt.or_replace {
                out.push(never(
                    span,
                    "CREATE OR REPLACE MATERIALIZED TABLE",
                    FlinkText::Verbatim("REPLACE MATERIALIZED TABLE is not supported."),
                    "use CREATE OR ALTER MATERIALIZED TABLE, which creates the table or evolves it in place",
                ));
            }
            if let Some(span) = mt.if_not_exists {
                // Flink takes `IF` for the table name and stops at `NOT`.
                out.push(never(
                    span,
                    "IF NOT EXISTS in CREATE MATERIALIZED TABLE",
                    FlinkText::Encountered(
                        token_after(file, span.start),
                        expected::AFTER_CREATE_MT_NAME,
                    ),
                    "use CREATE OR ALTER MATERIALIZED TABLE for a statement that can run again: it creates the table or evolves it",
                ));
            }
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
        StatementKind::AlterMaterializedTable(alter) => {
            if let Some(span) = alter.if_exists {
                // Flink takes `IF` for the table name and stops at `EXISTS`.
                out.push(never(
                    span,
                    "IF EXISTS in ALTER MATERIALIZED TABLE",
                    FlinkText::Encountered(
                        token_after(file, span.start),
                        expected::ALTER_MT_ACTIONS,
                    ),
                    "remove IF EXISTS: the statement then fails when the table is missing",
                ));
            }
            alter_features(file, alter, statement, &mut out);
        }
        StatementKind::CreateTable(create) => {
            if let Some(elements) = &create.elements {
                unknown_types(file, &elements.items, &mut out);
            }
        }
        StatementKind::AlterTable(alter) => {
            if let AlterTableAction::Schema(SchemaChange::Add(items) | SchemaChange::Modify(items)) =
                &alter.action
            {
                unknown_types(file, items, &mut out);
            }
            if matches!(alter.action, AlterTableAction::Compact) {
                out.push(Feature {
                    span: statement.span,
                    what: "ALTER TABLE ... COMPACT (managed tables, removed in Flink 2.0)".into(),
                    since: Some((1, 0)),
                    until: Some((1, 20)),
                    flink: None,
                    help: None,
                });
            }
        }
        StatementKind::Drop(drop) if drop.object == ObjectKind::MaterializedTable => {
            if let Some(span) = drop.temporary_span {
                out.push(never(
                    span,
                    "DROP TEMPORARY MATERIALIZED TABLE",
                    FlinkText::Verbatim("DROP TEMPORARY MATERIALIZED TABLE is not supported."),
                    "materialized tables are never temporary: remove TEMPORARY",
                ));
            }
        }
        _ => {}
    }
    out
}

/// The column types of `elements` that name no type of Flink's (`SERIAL`, `TEXT`, `db.MyType`):
/// Flink 2.3 parses a name where a type stands, and its validator rejects it ("Unknown
/// identifier 'SERIAL'", verified with Flink 2.3.0); SQL DDL cannot create types.
fn unknown_types(file: &FileEntry, elements: &[TableElement], out: &mut Vec<Feature>) {
    for element in elements {
        if let TableElement::Column(column) = element {
            if let Some(ty) = column.kind.data_type() {
                unknown_type(file, ty, out);
            }
        }
    }
}

/// The first type named in `ty` (itself, or nested in ARRAY, MAP, ROW, ...) that Flink lacks.
fn unknown_type(file: &FileEntry, ty: &DataType, out: &mut Vec<Feature>) {
    // Nested types are as deep as the parser allows; a loop over a stack keeps it flat.
    let mut stack = vec![ty];
    while let Some(ty) = stack.pop() {
        match &ty.kind {
            TypeKind::Named(name) => {
                let written = file.source.text.get(name.span.range()).unwrap_or("");
                out.push(Feature {
                    span: name.span,
                    what: format!("the type `{written}`").into(),
                    since: Some((99, 0)),
                    until: None,
                    flink: Some(FlinkText::Message(format!(
                        "Unknown identifier '{written}'"
                    ))),
                    help: Some(
                        "use one of Flink's types (BIGINT for SERIAL, STRING for TEXT, TIMESTAMP_LTZ(6) for TIMESTAMPTZ; see Flink's \"Data Types\" page)",
                    ),
                });
                return;
            }
            TypeKind::Array(t) | TypeKind::Multiset(t) => stack.push(t),
            TypeKind::Map(k, v) => {
                stack.push(v);
                stack.push(k);
            }
            TypeKind::Row(fields) | TypeKind::Structured(fields) => {
                stack.extend(fields.iter().rev().map(|f| &f.data_type))
            }
            _ => {}
        }
    }
}

/// The features of an ALTER MATERIALIZED TABLE's action.
fn alter_features(
    file: &FileEntry,
    alter: &AlterMaterializedTable,
    statement: &Statement,
    out: &mut Vec<Feature>,
) {
    // Flink 2.3's parser stops at the first token after the name it has no action for.
    let after_name = token_after(file, alter.name.span.end.saturating_sub(1));
    match &alter.action {
        AlterMaterializedTableAction::AsQuery(q) => {
            out.push(feature(
                q.as_span,
                "ALTER MATERIALIZED TABLE ... AS query",
                (2, 0),
            ));
            if let Some(w) = &q.with {
                out.push(Feature {
                    span: w.span,
                    what: "WITH options in ALTER MATERIALIZED TABLE ... AS (the seed FLIP-557 syntax)".into(),
                    since: None,
                    until: None,
                    flink: Some(FlinkText::Encountered(after_name, expected::ALTER_MT_ACTIONS)),
                    help: None,
                });
            }
            if let Some(sm) = &q.start_mode {
                let (what, since, flink) = match sm.set_keyword {
                    Some(set) => (
                        "SET START_MODE in ALTER MATERIALIZED TABLE ... AS (the seed FLIP-557 syntax)",
                        None,
                        FlinkText::Encountered(token_after(file, set.start), expected::ALTER_MT_SET),
                    ),
                    None => (
                        "START_MODE in ALTER MATERIALIZED TABLE ... AS (the seed FLIP-557 syntax is `SET START_MODE = ...`)",
                        Some((99, 0)),
                        FlinkText::Encountered(after_name, expected::ALTER_MT_ACTIONS),
                    ),
                };
                out.push(Feature {
                    span: sm.span,
                    what: what.into(),
                    since,
                    until: None,
                    flink: Some(flink),
                    help: None,
                });
            }
        }
        AlterMaterializedTableAction::SetStartMode(sm) => {
            let at = match sm.set_keyword {
                Some(set) => token_after(file, set.start),
                None => after_name,
            };
            out.push(never(
                sm.span,
                "SET START_MODE in ALTER MATERIALIZED TABLE without a query",
                FlinkText::Encountered(at, expected::ALTER_MT_SET),
                "a start mode applies when the query changes: CREATE OR ALTER MATERIALIZED TABLE ... START_MODE = ... AS query",
            ));
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
    }
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
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files {
            let target = ctx.target(file.id);
            for statement in file.parsed.script.all_statements() {
                // In the order Flink checks them; Flink stops at the first, so only that one
                // has Flink's message.
                let mut flink_said = false;
                for f in features(file, statement) {
                    if supported(&f, target) {
                        continue;
                    }
                    let help = match f.help {
                        Some(h) => format!("{}; {h}", versions(&f)),
                        None => format!(
                            "{}; rewrite it for {target}, or choose another --target",
                            versions(&f)
                        ),
                    };
                    let mut d = report
                        .diagnostic(
                            file.id,
                            f.span,
                            format!("{} is not supported by {target}", f.what),
                        )
                        .with_help(help);
                    // Flink's messages were verified with 2.3.
                    if target.grammar_version() == (2, 3) && !flink_said {
                        flink_said = f.flink.is_some();
                        match f.flink {
                            Some(FlinkText::Verbatim(text)) => d = d.with_flink_message(text),
                            Some(FlinkText::Message(text)) => d = d.with_flink_message(text),
                            Some(FlinkText::Encountered(at, expected)) => {
                                d = d.with_flink_message(ctx.flink_encountered(
                                    file.id,
                                    statement.span,
                                    at,
                                    expected,
                                ))
                            }
                            None => {}
                        }
                    }
                    report.report(d);
                }
            }
        }
    }
    fn reads_model(&self) -> bool {
        false
    }
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::ForeignSystemColumn { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::ForeignSystemColumn {
            span,
            name,
            in_table,
        } = &found.problem
        else {
            return;
        };
        let target = ctx.target(found.file);
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("`{name}` is a system column of Confluent Cloud; {target} has none"),
            )
            .with_label("no such column")
            .with_help(format!(
                "Apache Flink has no system columns: declare `{name}` in the table (e.g. `` `{name}` TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL `` on Kafka), or check with --target confluent"
            ))
            .with_flink_message(if *in_table {
                format!("Unknown identifier '{name}'")
            } else {
                format!("Column '{name}' not found in any table")
            });
        out.report(d);
    }
}

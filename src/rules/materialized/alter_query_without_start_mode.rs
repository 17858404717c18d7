//! `ALTER MATERIALIZED TABLE t AS <query>` that does not say where the new refresh job starts
//! (FLIP-557).

use super::{consequence, effective_start_mode, fix_mode, MODES_HELP};
use crate::config::Target;
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::catalog::{ObjectDef, TableDef};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::{materialized, render_expr, show_create};
use crate::source::Span;

/// Reports `ALTER ... AS` without a start mode; fixes it by target (see `rules/MT001.yaml`).
pub struct AlterQueryWithoutStartMode;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &AlterQueryWithoutStartMode;

impl Rule for AlterQueryWithoutStartMode {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::AlterWithoutStartMode { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::AlterWithoutStartMode {
            span,
            name,
            object,
            session_default,
            as_span,
            name_span,
            query_span,
        } = &found.problem
        else {
            return;
        };
        let Some(effective) = effective_start_mode(ctx, session_default) else {
            return;
        };
        let target = ctx.target(found.file);
        let mode = fix_mode(ctx);
        let mut d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "ALTER MATERIALIZED TABLE `{}` AS has no start mode: the new refresh job starts {}",
                    name.object, effective.mode
                ),
            )
            .with_label(format!("starts {} ({})", effective.mode, effective.chosen_by))
            .with_note(format!(
                "{}: {}",
                effective.mode,
                consequence(&effective.mode)
            ));
        match target {
            Target::FlinkNext => {
                d = d
                    .with_help(format!(
                        "say where the new job starts with `SET START_MODE = ...` before AS: {MODES_HELP}"
                    ))
                    .with_fix(Fix {
                        title: format!("insert `SET START_MODE = {mode}` before AS"),
                        applicability: Applicability::Safe,
                        edits: vec![Edit {
                            file: found.file,
                            span: Span {
                                start: as_span.start,
                                end: as_span.start,
                            },
                            replacement: format!("SET START_MODE = {mode} "),
                        }],
                    });
            }
            Target::Flink23 | Target::Confluent => {
                d = d.with_help(format!(
                    "{target}'s ALTER MATERIALIZED TABLE has no START_MODE clause: evolve the table with CREATE OR ALTER MATERIALIZED TABLE ... START_MODE = ... AS <query> instead (the fix writes it from the table's current definition; review it). {MODES_HELP}"
                ));
                if let ObjectDef::Materialized(t) = &object.def {
                    let file = ctx.file(found.file);
                    let written_name = file.source.slice(*name_span);
                    let query = file.source.slice(*query_span);
                    let text = create_or_alter(t, written_name, mode, query);
                    d = d.with_fix(Fix {
                        title: format!(
                            "rewrite as CREATE OR ALTER MATERIALIZED TABLE ... START_MODE = {mode} AS ..."
                        ),
                        applicability: Applicability::Unsafe,
                        edits: vec![Edit {
                            file: found.file,
                            span: Span {
                                start: span.start,
                                end: query_span.end,
                            },
                            replacement: text,
                        }],
                    });
                }
            }
            _ => {
                d = d.with_help(format!(
                    "{target} has no START_MODE (it comes with Flink 2.3): every ALTER ... AS restarts the refresh job from the beginning; plan for the reprocessing, or upgrade and use CREATE OR ALTER ... START_MODE = ..."
                ));
            }
        }
        d = d.with_related(
            object.statement.file,
            object.statement.span,
            "current definition",
        );
        out.report(d);
    }
}

/// The CREATE OR ALTER statement equivalent to `ALTER ... AS query` with a start mode: every
/// clause CREATE OR ALTER would otherwise change or drop is written as it is now (WITH,
/// DISTRIBUTED BY, and FRESHNESS, COMMENT, PARTITIONED BY, REFRESH_MODE so that nothing reads
/// as a change), plus non-persisted columns, the primary key and the watermark.
pub fn create_or_alter(t: &TableDef, name: &str, mode: &str, query: &str) -> String {
    let mut out = format!("CREATE OR ALTER MATERIALIZED TABLE {name}");
    let mut elements: Vec<String> = materialized::declared_columns(t)
        .into_iter()
        .map(show_create::column)
        .collect();
    if let Some(pk) = &t.primary_key {
        let generated = crate::semantic::table::generated_pk_name(&pk.columns);
        let named = if pk.name == generated {
            String::new()
        } else {
            format!("CONSTRAINT {} ", crate::semantic::names::quote(&pk.name))
        };
        elements.push(format!(
            "{named}PRIMARY KEY ({}) NOT ENFORCED",
            show_create::key_list(&pk.columns)
        ));
    }
    if let Some(w) = &t.watermark {
        elements.push(show_create::watermark(w));
    }
    if !elements.is_empty() {
        out.push_str(" (\n  ");
        out.push_str(&elements.join(",\n  "));
        out.push_str("\n)");
    }
    out.push('\n');
    if let Some(c) = &t.comment {
        out.push_str(&format!("COMMENT {}\n", show_create::string_literal(c)));
    }
    if let Some(d) = &t.distribution {
        out.push_str(&show_create::distribution(d));
        out.push('\n');
    }
    if let Some(p) = t.partitions.as_ref().filter(|p| !p.columns.is_empty()) {
        out.push_str(&show_create::partitions(p));
        out.push('\n');
    }
    if !t.options.is_empty() {
        let options: Vec<String> = t
            .options
            .iter()
            .map(|o| {
                format!(
                    "  {} = {}",
                    show_create::string_literal(&o.key),
                    show_create::string_literal(&o.value)
                )
            })
            .collect();
        out.push_str(&format!("WITH (\n{}\n)\n", options.join(",\n")));
    }
    out.push_str(&format!("START_MODE = {mode}\n"));
    if let Some(m) = &t.materialized {
        if let Some(f) = &m.freshness {
            out.push_str(&format!("FRESHNESS = {}\n", render_expr::render(f)));
        }
        if let Some(r) = m.refresh_mode {
            out.push_str(&format!("REFRESH_MODE = {}\n", r.as_str()));
        }
    }
    out.push_str("AS ");
    out.push_str(query);
    out
}

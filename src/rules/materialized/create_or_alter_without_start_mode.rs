//! A `CREATE OR ALTER MATERIALIZED TABLE` that evolves a table the session already holds, without
//! START_MODE (FLIP-557).

use super::{consequence, effective_start_mode, fix_mode, MODES_HELP};
use crate::config::Target;
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::source::Span;

/// Reports an evolving CREATE OR ALTER without START_MODE; the safe fix inserts the clause
/// before FRESHNESS / REFRESH_MODE / AS.
pub struct CreateOrAlterWithoutStartMode;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &CreateOrAlterWithoutStartMode;

impl Rule for CreateOrAlterWithoutStartMode {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::CreateOrAlterWithoutStartMode { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::CreateOrAlterWithoutStartMode {
            span,
            session_default,
            insert_at,
            previous,
        } = &found.problem
        else {
            return;
        };
        let Some(effective) = effective_start_mode(ctx, session_default) else {
            return;
        };
        let mode = fix_mode(ctx);
        let mut d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "CREATE OR ALTER evolves an existing materialized table without START_MODE: the new refresh job starts {}",
                    effective.mode
                ),
            )
            .with_label(format!("starts {} ({})", effective.mode, effective.chosen_by))
            .with_note(format!("{}: {}", effective.mode, consequence(&effective.mode)))
            .with_related(previous.file, previous.span, "the definition this evolves");
        let target = ctx.target(found.file);
        if target.at_least(2, 3) || target == Target::FlinkNext {
            d = d
                .with_help(format!(
                    "say where the new job starts with `START_MODE = ...` after WITH and before FRESHNESS / REFRESH_MODE / AS: {MODES_HELP}"
                ))
                .with_fix(Fix {
                    title: format!("insert `START_MODE = {mode}`"),
                    applicability: Applicability::Safe,
                    edits: vec![Edit {
                        file: found.file,
                        span: Span {
                            start: *insert_at,
                            end: *insert_at,
                        },
                        replacement: clause_text(ctx, found.file, *insert_at, mode),
                    }],
                });
        } else {
            d = d.with_help(format!(
                "{} has no START_MODE (it comes with Flink 2.3): every evolution restarts the refresh job from the beginning",
                target
            ));
        }
        out.report(d);
    }
}

/// `START_MODE = mode` followed by a line break and the same indentation when the clause it
/// precedes starts its own line, else by a space.
fn clause_text(ctx: &Context<'_>, file: crate::source::FileId, at: u32, mode: &str) -> String {
    let text = &ctx.file(file).source.text;
    let before = &text[..at as usize];
    let line = before.rsplit('\n').next().unwrap_or_default();
    if before.contains('\n') && line.chars().all(|c| c == ' ' || c == '\t') {
        format!("START_MODE = {mode}\n{line}")
    } else {
        format!("START_MODE = {mode} ")
    }
}

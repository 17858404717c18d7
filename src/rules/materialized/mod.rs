//! Materialized-table rules (MT): START_MODE, evolution, freshness, ALTER forms
//! (FLIP-435, FLIP-492, FLIP-546, FLIP-550, FLIP-557).

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_materialized.rs"));
mod literals;

use crate::rules::Context;
use crate::semantic::problems::SessionSetting;
use crate::syntax::ast::StartModeKind;

/// The start mode a statement without START_MODE runs with, and who chose it.
pub(crate) struct EffectiveStartMode {
    /// The mode as Flink spells it (or the session's value as written when unknown).
    pub mode: String,
    /// e.g. "Flink's default `materialized-table.default-start-mode`".
    pub chosen_by: String,
}

/// The effective start mode of a statement without START_MODE: a session `SET` wins, then the
/// configured `default-start-mode`, then Flink's default FROM_BEGINNING. `None` when a session
/// `SET` chose a mode other than FROM_BEGINNING: the session states its start mode, so the
/// statement does not silently reprocess history.
pub(crate) fn effective_start_mode(
    ctx: &Context<'_>,
    session: &Option<SessionSetting>,
) -> Option<EffectiveStartMode> {
    if let Some(set) = session {
        let mode = set.value.trim().to_ascii_uppercase();
        if StartModeKind::parse(&mode).is_some_and(|k| k != StartModeKind::FromBeginning) {
            return None;
        }
        return Some(EffectiveStartMode {
            mode,
            chosen_by: format!(
                "`SET '{}'` at {}",
                crate::semantic::materialized::DEFAULT_START_MODE_KEY,
                ctx.locate(set.origin)
            ),
        });
    }
    match ctx.settings.default_start_mode {
        Some(kind) if kind != StartModeKind::FromBeginning => None,
        Some(kind) => Some(EffectiveStartMode {
            mode: kind.as_str().to_string(),
            chosen_by: "the configured `default-start-mode`".to_string(),
        }),
        None => Some(EffectiveStartMode {
            mode: "FROM_BEGINNING".to_string(),
            chosen_by: "Flink's default `materialized-table.default-start-mode`".to_string(),
        }),
    }
}

/// What a new refresh job does with `mode`.
pub(crate) fn consequence(mode: &str) -> &'static str {
    match StartModeKind::parse(mode) {
        Some(StartModeKind::FromBeginning) => {
            "the running refresh job is stopped, its state is discarded, and the new job reprocesses all source history"
        }
        Some(StartModeKind::FromNow) => {
            "the running refresh job is stopped, its state is discarded, and the new job starts at the latest source data: records in between are skipped"
        }
        _ => "the running refresh job is stopped and a new job starts with this mode",
    }
}

/// The start modes and when each fits (help text of MT001 and MT002).
pub(crate) const MODES_HELP: &str = "RESUME_OR_FROM_NOW resumes from the old job's source offsets (the usual choice when adding a column), else starts at the latest data; RESUME_OR_FROM_BEGINNING resumes, else reprocesses history; FROM_NOW[(INTERVAL ...)] starts at the latest data (or that long ago); FROM_TIMESTAMP(TIMESTAMP '...') starts at a known instant; FROM_BEGINNING rebuilds the table from all history";

/// The start mode fixes write (`start-mode-fix`, default FROM_BEGINNING).
pub(crate) fn fix_mode(ctx: &Context<'_>) -> &'static str {
    ctx.settings
        .start_mode_fix
        .unwrap_or(StartModeKind::FromBeginning)
        .as_str()
}

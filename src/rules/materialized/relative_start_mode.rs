//! FROM_NOW(interval) or RESUME_OR_FROM_NOW(interval) in a migration history, where the statement's
//! meaning depends on when the history is run.

use super::invalid_start_mode::start_modes;
use crate::rules::{Context, Reporter, Rule};
use crate::syntax::ast::*;

/// Reports an interval relative to now in a history file (scripts are run when they are
/// meant to, so they are not reported).
pub struct RelativeStartMode;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &RelativeStartMode;

impl Rule for RelativeStartMode {
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files {
            if ctx.model.plan.history_of(file.id).is_none() {
                continue;
            }
            for statement in file.parsed.script.all_statements() {
                for clause in start_modes(statement) {
                    let Some(StartModeArg::Interval(interval)) = &clause.arg else {
                        continue;
                    };
                    let instant = if clause.kind.is_resume() {
                        "RESUME_OR_FROM_TIMESTAMP"
                    } else {
                        "FROM_TIMESTAMP"
                    };
                    let d = report
                        .diagnostic(
                            file.id,
                            clause.span,
                            format!(
                                "{}({}) in a migration starts wherever now is when the history runs",
                                clause.kind.as_str(),
                                file.source.slice(interval.span)
                            ),
                        )
                        .with_label("relative to the time the migration runs")
                        .with_help(format!(
                            "a history is replayed (new environments, rebuilds, disaster recovery) and each run starts at another point; write the instant you mean: {instant}(TIMESTAMP 'yyyy-MM-dd HH:mm:ss')"
                        ));
                    report.report(d);
                }
            }
        }
    }
}

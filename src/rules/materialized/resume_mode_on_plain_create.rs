//! A RESUME_OR_* start mode on a plain `CREATE MATERIALIZED TABLE`, which has no previous job to
//! resume from.

use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::syntax::ast::*;

/// Reports RESUME_OR_FROM_BEGINNING / _NOW / _TIMESTAMP on CREATE without OR ALTER, with a fix
/// to the FROM_* mode it amounts to (the argument is kept).
pub struct ResumeModeOnPlainCreate;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ResumeModeOnPlainCreate;

/// The FROM_* mode a RESUME_OR_* mode falls back to.
fn fallback(kind: StartModeKind) -> Option<StartModeKind> {
    Some(match kind {
        StartModeKind::ResumeOrFromBeginning => StartModeKind::FromBeginning,
        StartModeKind::ResumeOrFromNow => StartModeKind::FromNow,
        StartModeKind::ResumeOrFromTimestamp => StartModeKind::FromTimestamp,
        _ => return None,
    })
}

impl Rule for ResumeModeOnPlainCreate {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files {
            for statement in file.parsed.script.all_statements() {
                let StatementKind::CreateMaterializedTable(mt) = &statement.kind else {
                    continue;
                };
                if mt.or_alter.is_some() {
                    continue;
                }
                let Some(clause) = &mt.start_mode else {
                    continue;
                };
                let Some(to) = fallback(clause.kind) else {
                    continue;
                };
                let d = report
                    .diagnostic(
                        file.id,
                        clause.kind_span,
                        format!(
                            "{} on a plain CREATE MATERIALIZED TABLE never resumes: it is {}",
                            clause.kind.as_str(),
                            to.as_str()
                        ),
                    )
                    .with_label("nothing to resume from")
                    .with_help(format!(
                        "a new table has no previous job whose offsets could be resumed; write {}, or use CREATE OR ALTER MATERIALIZED TABLE if the statement is meant to evolve the table",
                        to.as_str()
                    ))
                    .with_fix(Fix {
                        title: format!("Write {}", to.as_str()),
                        applicability: Applicability::Safe,
                        edits: vec![Edit {
                            file: file.id,
                            span: clause.kind_span,
                            replacement: to.as_str().to_string(),
                        }],
                    });
                report.report(d);
            }
        }
    }
}

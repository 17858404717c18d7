//! Scripts that use one another's objects in a cycle (`catalog: persistent`).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports scripts that each use an object the next one creates, in a cycle: no deployment
/// order creates every object before its use.
pub struct DeploymentCycle;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &DeploymentCycle;

impl Rule for DeploymentCycle {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::DeploymentCycle { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::DeploymentCycle { span, steps } = &found.problem else {
            return;
        };
        let path = |id: crate::source::FileId| ctx.file(id).source.display_path();
        let chain: Vec<String> = steps
            .iter()
            .map(|s| {
                format!(
                    "{} uses `{}`, which {} creates",
                    path(s.used.file),
                    s.name.object,
                    path(s.created.file)
                )
            })
            .collect();
        let mut d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "{} scripts use one another's objects in a cycle: in any deployment order, one of them runs before an object it uses exists",
                    steps.len()
                ),
            )
            .with_label("created by a script that needs this one")
            .with_help(
                "move the DDL that the scripts share into a script of its own that runs first (or into a history), so that each script only uses objects created before it",
            );
        for s in steps {
            d = d.with_related(
                s.created.file,
                s.created.span,
                format!("`{}` is created here", s.name.object),
            );
        }
        for s in steps.iter().skip(1) {
            d = d.with_related(s.used.file, s.used.span, format!("`{}` is used here", s.name.object));
        }
        out.report(d.with_note(chain.join("; ")));
    }
}

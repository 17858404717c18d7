//! A HOP window aggregate whose size is not a multiple of its slide, a CUMULATE window whose
//! max size is not a multiple of its step.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// A HOP or CUMULATE window whose size Flink cannot slice by its slide or step.
pub struct WindowSizeNotMultiple;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &WindowSizeNotMultiple;

impl Rule for WindowSizeNotMultiple {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::WindowSizeNotMultiple { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(
            p @ StreamProblem::WindowSizeNotMultiple {
                span,
                function,
                size_ms,
                step_ms,
            },
        ) = &found.problem
        else {
            return;
        };
        let (size, step) = if *function == "CUMULATE" {
            ("max size", "step")
        } else {
            ("size", "slide")
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "{function} window {size} ({size_ms} ms) is not an integral multiple of its {step} ({step_ms} ms)"
                ),
            )
            .with_label(format!("not a multiple of the {step}"))
            .with_help(format!(
                "choose a {size} that is a whole number of {step}s (or a {step} that divides the {size})"
            ))
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}

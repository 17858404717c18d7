//! `flinklint explain FILE [--statement N]`: the plan of each pipeline of a file (INSERT,
//! statement-set member, CREATE TABLE AS, SELECT) with each node's changelog mode, unique keys
//! and time attributes, in the spirit of Flink's `EXPLAIN CHANGELOG_MODE`.

use super::{run_inputs, InputArgs};
use flinklint::source::escape;
use std::process::ExitCode;

/// Arguments of `explain`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Only the N-th statement of the file (1-based).
    #[arg(long, value_name = "N")]
    statement: Option<usize>,
}

/// Runs `explain`.
pub fn run(args: ExplainArgs) -> ExitCode {
    let settings = match super::settings(&args.input, Default::default()) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let outcome = match run_inputs(&args.input, None, &settings, false) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let mut text = String::new();
    let mut unreadable = false;
    for file in outcome.files.iter().filter(|f| f.report) {
        if let Some(why) = &file.load_error {
            // Nothing to explain, and nothing to pass over in silence.
            eprintln!(
                "flinklint: cannot read {}: {}",
                escape::path(&file.source.path),
                escape::text(why)
            );
            unreadable = true;
            continue;
        }
        let Some(session) = outcome.model.session_of(file.id) else {
            continue;
        };
        text.push_str(&flinklint::semantic::plan::explain(
            &session.plans,
            file,
            args.statement,
        ));
    }
    if text.is_empty() && !unreadable {
        text.push_str("No pipeline to explain (INSERT, statement set, CREATE TABLE AS, SELECT).\n");
    }
    match super::print_stdout(&text) {
        Ok(()) if unreadable => ExitCode::from(2),
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

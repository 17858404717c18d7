//! `flinklint check`.

use super::{parse_fail_on, run_inputs, use_color, InputArgs};
use crate::config::{FailOn, Settings};
use crate::render::{self, Format};
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Exit with 1 when any finding is at or above this severity.
    #[arg(long, value_parser = parse_fail_on)]
    fail_on: Option<FailOn>,
    /// Always exit with 0 unless a usage error occurs.
    #[arg(long)]
    exit_zero: bool,
}

/// Runs `check`.
pub(crate) fn run(args: CheckArgs) -> ExitCode {
    let mut settings = Settings::default();
    if let Some(fail_on) = args.fail_on {
        settings.fail_on = fail_on;
    }
    let outcome = match run_inputs(&args.input, &mut settings) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let files_checked = outcome.files_checked();
    let text = match args.format {
        Format::Json => render::json::render(&outcome.files, files_checked, &outcome.diagnostics),
        Format::Human => render::human::render(
            &outcome.files,
            files_checked,
            &outcome.diagnostics,
            render::human::HumanOptions {
                color: use_color(),
                width: 100,
            },
        ),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    let failed = outcome
        .diagnostics
        .iter()
        .any(|d| settings.fail_on.fails(d.severity));
    if failed && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

//! `flinklint check`.

use super::{parse_fail_on, run_inputs, use_color, InputArgs};
use crate::config::{FailOn, Settings};
use crate::fix::FixMode;
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
    /// Apply safe fixes to the files (atomically), then report what remains.
    #[arg(long)]
    fix: bool,
    /// With --fix, also apply unsafe fixes (ones that change a statement's form; review them).
    #[arg(long, requires = "fix")]
    unsafe_fixes: bool,
    /// With --fix, print the unified diff of what would change instead of writing; exit 1 if
    /// anything would change.
    #[arg(long, requires = "fix")]
    diff: bool,
}

/// Runs `check`.
pub(crate) fn run(args: CheckArgs) -> ExitCode {
    let mut settings = Settings::default();
    if let Some(fail_on) = args.fail_on {
        settings.fail_on = fail_on;
    }
    let mut outcome = match run_inputs(&args.input, &mut settings) {
        Ok(o) => o,
        Err(code) => return code,
    };
    if args.fix {
        let mode = if args.unsafe_fixes {
            FixMode::All
        } else {
            FixMode::Safe
        };
        let report = super::fix::fix(outcome, &settings, mode);
        for r in &report.rejected {
            eprintln!("flinklint: {r}");
        }
        if args.diff {
            let text = super::fix::diffs(&report.changed);
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            return if report.changed.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            };
        }
        let errors = super::fix::write(&report.changed);
        for e in &errors {
            eprintln!("flinklint: cannot write {e}");
        }
        if report.applied > 0 {
            eprintln!(
                "flinklint: applied {} fix(es) in {} file(s)",
                report.applied,
                report.changed.len()
            );
        }
        outcome = report.outcome;
    }
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

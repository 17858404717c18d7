//! The command line: argument parsing (clap) and one module per command. The binary calls
//! [`main`].

mod check;
mod expand;
mod fix;
mod parse;
mod rule;

use crate::config::{CliSettings, FailOn, Settings, Target};
use crate::discover::{self, Input};
use clap::{Parser, Subcommand};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// A fast linter and migration checker for repositories of Apache Flink SQL.
#[derive(Debug, Parser)]
#[command(name = "flinklint", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check files and directories of Flink SQL (default: the current directory).
    Check(check::CheckArgs),
    /// Print a table's definition as Flink's SHOW CREATE TABLE prints it after its session or
    /// history has run.
    Expand(expand::ExpandArgs),
    /// Print the tokens or syntax tree of one file (for debugging).
    Parse(parse::ParseArgs),
    /// Print a rule's documentation: what it reports, why, examples and source.
    Rule(rule::RuleArgs),
    /// List every rule (code, name, default severity, fix, summary).
    Rules(rule::RulesArgs),
    /// Print shell completions (bash, zsh, fish, elvish, powershell).
    Completions(rule::CompletionsArgs),
}

/// What to read and how: shared by `check` and `expand`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct InputArgs {
    /// Files or directories; `-` reads standard input.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// The Flink version or platform to check for.
    #[arg(long, value_parser = parse_target)]
    target: Option<Target>,
    /// A folder of migration files to apply in order as one history (repeatable), beside the
    /// folders detected by their file names (V1__x.sql, 001_x.sql, ...).
    #[arg(long = "history-dir", value_name = "DIR")]
    histories: Vec<PathBuf>,
    /// The file name to show for standard input.
    #[arg(long)]
    stdin_filename: Option<PathBuf>,
    /// Read this config file instead of the nearest `.flinklint.yaml` above the working
    /// directory; its folder is the project root.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Apply `exclude` to files and folders named on the command line too (for pre-commit and
    /// editors, which pass every file).
    #[arg(long)]
    force_exclude: bool,
}

fn parse_target(s: &str) -> Result<Target, String> {
    Target::parse(s).ok_or_else(|| {
        let names: Vec<&str> = Target::ALL.iter().map(|t| t.as_str()).collect();
        format!(
            "unknown target `{s}`; expected one of: {}",
            names.join(", ")
        )
    })
}

fn parse_fail_on(s: &str) -> Result<FailOn, String> {
    FailOn::parse(s)
        .ok_or_else(|| format!("unknown level `{s}`; expected one of: error, warning, info, never"))
}

/// Runs the command line and returns the process exit code: 0 clean, 1 findings at or above
/// `--fail-on`, 2 usage errors (bad arguments, a path that does not exist).
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Expand(args) => expand::run(args),
        Command::Parse(args) => parse::run(args),
        Command::Rule(args) => rule::rule(args),
        Command::Rules(args) => rule::rules(args),
        Command::Completions(args) => rule::completions(args),
    }
}

fn read_stdin() -> Vec<u8> {
    let mut buf = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut buf);
    buf
}

/// The run's settings: the config file (found from the working directory, or `--config`)
/// with the flags of `args` and `extra` over it. `Err` carries exit code 2 after the config
/// error was printed.
pub(crate) fn settings(args: &InputArgs, mut extra: CliSettings) -> Result<Settings, ExitCode> {
    extra.config = args.config.clone();
    extra.target = args.target;
    extra.force_exclude = args.force_exclude;
    extra.history_dirs = args.histories.clone();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let start = std::time::Instant::now();
    let resolved = crate::config::resolve(&cwd, &extra);
    if std::env::var_os("FLINKLINT_TIMINGS").is_some() {
        // Config discovery, reading and resolution (scripts/bench.py reads this line).
        eprintln!(
            "timings: config {:.3} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    resolved.map_err(|e| {
        use std::io::IsTerminal;
        let color = std::io::stderr().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        eprint!("{}", e.render(color));
        ExitCode::from(2)
    })
}

/// The run over the inputs of `args` (with context files when individual files were given).
/// `Err` carries the exit code of a usage error, already reported.
pub(crate) fn run_inputs(
    args: &InputArgs,
    settings: &Settings,
) -> Result<crate::Outcome, ExitCode> {
    let inputs =
        match discover::discover_with(&args.paths, settings, args.stdin_filename.as_deref()) {
            Ok(inputs) => inputs,
            Err(e) => {
                eprintln!("flinklint: {e}");
                return Err(ExitCode::from(2));
            }
        };
    let context = discover::context(&args.paths, &inputs, settings);
    let stdin = inputs
        .iter()
        .any(|i| matches!(i, Input::Stdin(_)))
        .then(read_stdin);
    Ok(crate::check_with_context(
        &inputs,
        &context,
        stdin.as_deref(),
        settings,
    ))
}

/// Colour only on a terminal, and never with `NO_COLOR`.
pub(crate) fn use_color() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

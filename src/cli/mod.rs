//! The command line: argument parsing (clap) and the commands. The binary calls [`main`].

use crate::config::{FailOn, Settings, Target};
use crate::discover;
use crate::render::{self, Format};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Read, Write};
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
    Check(CheckArgs),
    /// Print the tokens or syntax tree of one file (for debugging).
    Parse(ParseArgs),
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// Files or directories to check; `-` reads standard input.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// The Flink version or platform to check for.
    #[arg(long, value_parser = parse_target)]
    target: Option<Target>,
    /// Exit with 1 when any finding is at or above this severity.
    #[arg(long, value_parser = parse_fail_on)]
    fail_on: Option<FailOn>,
    /// Always exit with 0 unless a usage error occurs.
    #[arg(long)]
    exit_zero: bool,
    /// The file name to show for standard input.
    #[arg(long)]
    stdin_filename: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Dump {
    Tokens,
    Ast,
}

#[derive(Debug, clap::Args)]
struct ParseArgs {
    /// The file to parse (`-` for standard input).
    file: PathBuf,
    /// What to print.
    #[arg(long, value_enum, default_value_t = Dump::Ast)]
    dump: Dump,
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
        Command::Check(args) => check(args),
        Command::Parse(args) => parse(args),
    }
}

fn read_stdin() -> Vec<u8> {
    let mut buf = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut buf);
    buf
}

fn check(args: CheckArgs) -> ExitCode {
    let mut settings = Settings::default();
    if let Some(target) = args.target {
        settings.target = target;
    }
    if let Some(fail_on) = args.fail_on {
        settings.fail_on = fail_on;
    }
    let extensions = vec!["sql".to_string()];
    let inputs = match discover::discover(&args.paths, &extensions, args.stdin_filename.as_deref())
    {
        Ok(inputs) => inputs,
        Err(e) => {
            eprintln!("flinklint: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin = inputs
        .iter()
        .any(|i| matches!(i, discover::Input::Stdin(_)))
        .then(read_stdin);
    let outcome = crate::check(&inputs, stdin.as_deref(), &settings);
    let files_checked = outcome.files_checked();
    let text = match args.format {
        Format::Json => render::json::render(&outcome.files, files_checked, &outcome.diagnostics),
        Format::Human => {
            let color = std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            render::human::render(
                &outcome.files,
                files_checked,
                &outcome.diagnostics,
                render::human::HumanOptions { color, width: 100 },
            )
        }
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

fn parse(args: ParseArgs) -> ExitCode {
    let bytes = if args.file.as_os_str() == "-" {
        read_stdin()
    } else {
        match std::fs::read(&args.file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("flinklint: cannot read {}: {e}", args.file.display());
                return ExitCode::from(2);
            }
        }
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let parsed = crate::syntax::parse(&text);
    let mut out = String::new();
    match args.dump {
        Dump::Tokens => {
            for t in &parsed.tokens {
                let kw = if t.kw == crate::syntax::keywords::Kw::NONE {
                    String::new()
                } else {
                    format!(" {}", t.kw.as_str())
                };
                out.push_str(&format!(
                    "{:?}{kw} {}..{} {:?}\n",
                    t.kind,
                    t.span.start,
                    t.span.end,
                    &text[t.span.range()]
                ));
            }
        }
        Dump::Ast => {
            let doc = serde_json::json!({"statements": parsed.script.statements, "errors": parsed.errors});
            out = serde_json::to_string_pretty(&doc).unwrap_or_default();
            out.push('\n');
        }
    }
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    if parsed.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

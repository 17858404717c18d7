//! The command line: argument parsing (clap) and one module per command. The binary calls
//! [`main`].

mod check;
mod expand;
mod files;
mod fix;
mod parse;
mod rule;

use clap::{Parser, Subcommand};
use flinklint::config::{CliSettings, FailOn, Settings, Target};
use flinklint::discover::{self, git, Input};
use std::io::Read;
use std::path::{Path, PathBuf};
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
    /// List the files a check reads, whether each is Flink SQL, and why (statements of other
    /// dialects, such as MySQL setup scripts or Hive SQL, are noted once and not checked).
    Files(files::FilesArgs),
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
pub struct InputArgs {
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
    /// A git revision (branch, tag, commit): each given file that changed since it is checked
    /// as an evolution of its version there, as if that version had been deployed first (an
    /// in-place edit of a CREATE OR ALTER MATERIALIZED TABLE is an ALTER).
    #[arg(long, value_name = "REV")]
    base: Option<String>,
    /// Read this config file instead of the nearest `.flinklint.yaml` above the working
    /// directory; its folder is the project root.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Apply `exclude` to files and folders named on the command line too (for pre-commit and
    /// editors, which pass every file).
    #[arg(long)]
    force_exclude: bool,
}

impl InputArgs {
    /// Whether standard input (`-`) is among the paths.
    pub fn reads_stdin(&self) -> bool {
        self.paths.iter().any(|p| p.as_os_str() == "-")
    }
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
        Command::Files(args) => files::run(args),
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
pub fn settings(args: &InputArgs, mut extra: CliSettings) -> Result<Settings, ExitCode> {
    extra.config = args.config.clone();
    extra.target = args.target;
    extra.force_exclude = args.force_exclude;
    extra.history_dirs = args.histories.clone();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let start = std::time::Instant::now();
    let resolved = flinklint::config::resolve(&cwd, &extra);
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

/// The run over the inputs of `args` (with context files when individual files were given, or
/// with `changed_since`: the files changed since that git revision, with the rest of the
/// project as context). `Err` carries the exit code of a usage error, already reported.
pub fn run_inputs(
    args: &InputArgs,
    changed_since: Option<&str>,
    settings: &Settings,
) -> Result<flinklint::project::Outcome, ExitCode> {
    let selected = match changed_since {
        Some(revision) => discover::changed_since(&args.paths, settings, revision),
        None => discover::discover_with(&args.paths, settings, args.stdin_filename.as_deref()).map(
            |inputs| {
                let context = discover::context(&args.paths, &inputs, settings);
                if context.is_empty() {
                    (inputs, context)
                } else {
                    (discover::display_inputs(inputs), context)
                }
            },
        ),
    };
    let (inputs, context) = match selected {
        Ok(selected) => selected,
        Err(e) => {
            eprintln!("flinklint: {e}");
            return Err(ExitCode::from(2));
        }
    };
    let stdin = inputs
        .iter()
        .any(|i| matches!(i, Input::Stdin(_)))
        .then(read_stdin);
    let bases = match &args.base {
        Some(revision) => match base_versions(revision, &args.paths, &inputs) {
            Ok(bases) => bases,
            Err(e) => {
                eprintln!("flinklint: --base {revision}: {e}");
                return Err(ExitCode::from(2));
            }
        },
        None => Vec::new(),
    };
    let outcome = flinklint::discover::read::check_with_bases(
        &inputs,
        &context,
        bases,
        stdin.as_deref(),
        settings,
    );
    if std::env::var_os("FLINKLINT_TIMINGS").is_some() {
        for (stage, took) in &outcome.timings {
            eprintln!("timings: {stage} {:.2} ms", took.as_secs_f64() * 1e3);
        }
    }
    Ok(outcome)
}

/// The versions at `revision` of the input files that changed since it (`--base`). The
/// repository is the one holding the first path argument (a file's folder), else the current
/// folder. Files added since the revision, untracked or outside the repository have none.
fn base_versions(
    revision: &str,
    paths: &[PathBuf],
    inputs: &[Input],
) -> Result<Vec<flinklint::discover::read::BaseVersion>, git::GitError> {
    let dir = paths
        .iter()
        .find(|p| p.as_os_str() != "-")
        .map(|p| {
            if p.is_dir() {
                p.clone()
            } else {
                p.parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
            }
        })
        .unwrap_or_else(|| PathBuf::from("."));
    let root = git::work_tree_root(&dir)?;
    let commit = git::resolve(&root, revision)?;
    let changed = git::changed_files(&root, &commit)?;
    let mut bases = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let Input::File(path) = input else { continue };
        if !std::fs::canonicalize(path).is_ok_and(|p| changed.contains(&p)) {
            continue;
        }
        let Some(rel) = git::relative_path(&root, path) else {
            continue;
        };
        let Some(bytes) = git::show(&root, &commit, &rel)? else {
            continue;
        };
        // A version that is not UTF-8 has no statements to deploy.
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        bases.push(flinklint::discover::read::BaseVersion {
            of: i,
            source: flinklint::source::SourceFile::new(format!("{revision}:{rel}"), text),
        });
    }
    Ok(bases)
}

/// Colour only on a terminal, and never with `NO_COLOR`.
pub fn use_color() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

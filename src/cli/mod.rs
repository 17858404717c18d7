//! The command line: argument parsing (clap) and one module per command. The binary calls
//! [`main`].

mod check;
mod expand;
mod explain;
mod files;
mod fix;
mod parse;
mod rule;
mod server;

use clap::{Parser, Subcommand};
use flinklint::config::{CliSettings, FailOn, Settings, Target};
use flinklint::discover::{self, git, Input};
use flinklint::files::SQL_LIMIT;
use flinklint::source::escape;
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
    /// Print the plan of each pipeline (INSERT, statement set, CREATE TABLE AS, SELECT) with
    /// each node's changelog mode, unique keys and time attributes, in the spirit of Flink's
    /// EXPLAIN CHANGELOG_MODE.
    Explain(explain::ExplainArgs),
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
    /// Run the language server (the Language Server Protocol over standard input and output)
    /// for editors: diagnostics across the project as you type, quick fixes, hover, go to
    /// definition.
    Server(server::ServerArgs),
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
    /// A DDL file, or a folder of them, of tables that live outside this repository (another
    /// repository's, an external catalog's): applied before everything else and never
    /// reported on (repeatable; adds to `external-tables` of the config file).
    #[arg(long = "external-tables", value_name = "PATH")]
    external_tables: Vec<PathBuf>,
    /// The file name to show for standard input.
    #[arg(long)]
    stdin_filename: Option<PathBuf>,
    /// A git revision (branch, tag, commit): each given file that changed since it is checked
    /// as an evolution of its version there, as if that version had been deployed first (an
    /// in-place edit of a CREATE OR ALTER MATERIALIZED TABLE is an ALTER); standard input, as
    /// an evolution of the file --stdin-filename names.
    #[arg(long, value_name = "REV")]
    base: Option<String>,
    /// Read this config file instead of the nearest `.flinklint.yaml` above the working
    /// directory; its folder is the project root.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Apply `exclude` to files and folders named on the command line too, and to standard
    /// input named with --stdin-filename (for pre-commit and editors, which pass every file).
    #[arg(long)]
    force_exclude: bool,
    /// Exit with 0 when the paths hold no file to check (by default such a run says why and
    /// exits with 2).
    #[arg(long)]
    allow_empty: bool,
    /// Say on standard error which folders were read as context, and how many files were
    /// checked and read as context.
    #[arg(long, short = 'v')]
    verbose: bool,
    /// Read every context file instead of only those the checked files need, and leave the
    /// context cache (`cache-dir`, by default `.flinklint_cache/` in the project root) alone.
    #[arg(long)]
    no_cache: bool,
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
        Err(e) if e.use_stderr() => {
            // clap quotes the rejected value as given: its control characters are escaped, as
            // in every message that quotes input. Plain text (no colour), then exit code 2.
            let text = e.render().to_string();
            let mut stderr = std::io::stderr().lock();
            let _ = std::io::Write::write_all(&mut stderr, escape::lines(&text).as_bytes());
            return ExitCode::from(2);
        }
        Err(e) => {
            // --help and --version: flinklint's own text, on standard output.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    match cli.command {
        Command::Check(args) => {
            // Until the run knows how many files it reads (see `alloc::huge_pages`).
            crate::alloc::small_pages();
            check::run(args)
        }
        Command::Expand(args) => expand::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Files(args) => files::run(args),
        Command::Parse(args) => parse::run(args),
        Command::Rule(args) => rule::rule(args),
        Command::Rules(args) => rule::rules(args),
        Command::Completions(args) => rule::completions(args),
        Command::Server(args) => server::run(args),
    }
}

/// Writes `text` to standard output. A reader that went away (a broken pipe: `| head`) ends
/// the output quietly; any other failure (a full disk: `> /dev/full`) is reported, and `Err`
/// carries exit code 2: a report that was lost must not pass for a clean run.
pub fn print_stdout(text: &str) -> Result<(), ExitCode> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => {
            eprintln!("flinklint: cannot write to standard output: {e}");
            Err(ExitCode::from(2))
        }
    }
}

/// Standard input, at most [`SQL_LIMIT`] bytes of it (`/dev/zero` must not fill the memory).
/// `Err` carries exit code 2 after the problem was printed.
fn read_stdin() -> Result<Vec<u8>, ExitCode> {
    flinklint::files::read_limited(std::io::stdin().lock(), SQL_LIMIT).map_err(|e| {
        eprintln!("flinklint: cannot read standard input: {e}");
        ExitCode::from(2)
    })
}

/// `path` for a message on the terminal (see [`flinklint::source::escape::path`]).
pub fn shown(path: &Path) -> String {
    flinklint::source::escape::path(path)
}

/// The run's settings: the config file (found from the working directory, or `--config`)
/// with the flags of `args` and `extra` over it. `Err` carries exit code 2 after the config
/// error was printed.
pub fn settings(args: &InputArgs, mut extra: CliSettings) -> Result<Settings, ExitCode> {
    extra.config = args.config.clone();
    extra.target = args.target;
    extra.force_exclude = args.force_exclude;
    extra.history_dirs = args.histories.clone();
    extra.external_tables = args.external_tables.clone();
    for dir in &args.histories {
        // A history that cannot be read must not pass for an empty one.
        let problem = match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => continue,
            Ok(_) => "it is not a folder".to_string(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => "no such folder".to_string(),
            Err(e) => e.to_string(),
        };
        eprintln!(
            "flinklint: --history-dir {}: {}",
            shown(dir),
            escape::text(&problem)
        );
        return Err(ExitCode::from(2));
    }
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
/// project as context). With `context_cache` (`check`, which reports only on the inputs), the
/// context is only the files the inputs need, as the context cache tells (unless
/// `--no-cache`); `expand` and `files` read every context file. `Err` carries the exit code of
/// a usage error, already reported.
pub fn run_inputs(
    args: &InputArgs,
    changed_since: Option<&str>,
    settings: &Settings,
    context_cache: bool,
) -> Result<flinklint::project::Outcome, ExitCode> {
    run_inputs_chunked(
        args,
        changed_since,
        settings,
        context_cache,
        None,
        Vec::new(),
    )
}

/// [`run_inputs`]; with `chunked`, a large project is checked in chunks
/// ([`flinklint::discover::stream`]): the outcome then holds the text of only the files that
/// findings point into, their syntax trees only with `Some(true)`, and no semantic model.
/// `walked`: the files of folder arguments found already ([`discover::discover_walked`]).
pub fn run_inputs_chunked(
    args: &InputArgs,
    changed_since: Option<&str>,
    settings: &Settings,
    context_cache: bool,
    chunked: Option<bool>,
    mut walked: Vec<discover::Walked>,
) -> Result<flinklint::project::Outcome, ExitCode> {
    // The context cache's index of a large project is read on the worker pool while the files
    // are found (the walk keeps one core busy): a large run sums its files up with it, a run
    // on a few files chooses their context with it. Not for the runs that never read it
    // (every context file needed, or the project checked at once).
    let cache_dir = ((context_cache || chunked.is_some())
        && !args.no_cache
        && args.base.is_none()
        && !args.paths.iter().any(|p| p.as_os_str() == "-")
        && settings.catalog != flinklint::config::CatalogMode::Persistent
        && settings.external_tables.is_empty()
        && discover::cache::enabled(settings))
    .then(|| discover::cache::cache_dir(settings));
    let mut ahead = None;
    let selected = flinklint::project::pool().in_place_scope(|scope| {
        if let Some(dir) = &cache_dir {
            let slot = &mut ahead;
            scope.spawn(move |_| {
                *slot = discover::cache::read_ahead(dir, discover::stream::CHUNK_FILES)
            });
        }
        match changed_since {
            Some(revision) => discover::changed_since(&args.paths, settings, revision),
            None => discover::discover_walked(
                &args.paths,
                settings,
                args.stdin_filename.as_deref(),
                &mut walked,
            )
            .map(|inputs| {
                let context = discover::context_walked(&args.paths, &inputs, settings, &mut walked);
                // Paths are shown relative to the working directory, without `./`, in
                // every format (`check .` shows `catalog/x.sql`).
                (discover::display_inputs(inputs), context)
            }),
        }
    });
    let (inputs, context) = match selected {
        Ok(selected) => selected,
        Err(e) => {
            eprintln!("flinklint: {}", escape::text(&e.to_string()));
            return Err(ExitCode::from(2));
        }
    };
    // Only the context files the checked files need, as the context cache tells.
    let (context, cached) = match !context_cache
        || args.no_cache
        || context.is_empty()
        || !discover::cache::enabled(settings)
    {
        true => (context, None),
        false => {
            let dir = discover::cache::cache_dir(settings);
            let (needed, selected) =
                discover::cache::select_context(&inputs, &context, settings, &dir, ahead.take());
            (needed, Some(selected))
        }
    };
    if inputs.is_empty() {
        if changed_since.is_none() {
            note_unlisted_documents(&args.paths, settings);
        }
        empty_run(args, changed_since, settings)?;
    }
    if args.verbose {
        if changed_since.is_some() || !context.is_empty() {
            for root in discover::context_roots(settings, &args.paths) {
                eprintln!(
                    "flinklint: context root {} ({})",
                    discover::display_path(&std::env::current_dir().unwrap_or_default(), &root.dir)
                        .display(),
                    root.why
                );
            }
        }
        eprintln!(
            "flinklint: {} file(s) to check, {} context file(s)",
            inputs.len(),
            context.len()
        );
        if let Some(c) = cached {
            eprintln!(
                "flinklint: context cache: {} of {} context file(s) needed, {} file(s) parsed to refresh it",
                c.needed, c.context, c.parsed
            );
        }
    }
    let stdin = match inputs.iter().any(|i| matches!(i, Input::Stdin(_))) {
        true => Some(read_stdin()?),
        false => None,
    };
    if args.base.is_some()
        && inputs
            .iter()
            .any(|i| i.path().as_os_str() == discover::STDIN_NAME)
    {
        eprintln!(
            "flinklint: --base needs --stdin-filename for standard input: the name of the file whose earlier version it evolves"
        );
        return Err(ExitCode::from(2));
    }
    let bases = match &args.base {
        Some(revision) => match base_versions(revision, &args.paths, &inputs, stdin.as_deref()) {
            Ok(bases) => bases,
            Err(e) => {
                eprintln!(
                    "flinklint: --base {}: {}",
                    escape::text(revision),
                    escape::text(&e.to_string())
                );
                return Err(ExitCode::from(2));
            }
        },
        None => Vec::new(),
    };
    if (crate::alloc::HUGE_PAGE_FILES..=discover::stream::CHUNK_FILES)
        .contains(&(inputs.len() + context.len()))
    {
        // Enough files read and parsed at once to gain from huge pages (a larger run is
        // checked chunk by chunk, taking fresh memory for each chunk: it keeps small pages).
        crate::alloc::huge_pages();
    }
    let streamed = match chunked.filter(|_| bases.is_empty() && stdin.is_none()) {
        Some(trees) => {
            let dir = (!args.no_cache && discover::cache::enabled(settings))
                .then(|| discover::cache::cache_dir(settings));
            discover::stream::check_chunked(
                &inputs,
                &context,
                settings,
                dir.as_deref(),
                discover::stream::CHUNK_FILES,
                trees,
                ahead.take(),
            )
        }
        None => None,
    };
    // A run that did not need the index (checked at once, its context chosen) frees it first.
    drop(ahead);
    let outcome = match streamed {
        Some(outcome) => outcome,
        None => flinklint::discover::read::check_with_bases(
            &inputs,
            &context,
            bases,
            stdin.as_deref(),
            settings,
        ),
    };
    if std::env::var_os("FLINKLINT_TIMINGS").is_some() {
        for (stage, took) in &outcome.timings {
            eprintln!("timings: {stage} {:.2} ms", took.as_secs_f64() * 1e3);
        }
        if let Some((shared, steps)) = outcome.model.deployment {
            eprintln!("timings: deployment: {shared} names shared between scripts, {steps} levels or steps");
        }
    }
    Ok(outcome)
}

/// Tells a run that found nothing to check about the documents it skipped that hold SQL blocks
/// (a repository whose Flink SQL is all in Markdown).
fn note_unlisted_documents(paths: &[PathBuf], settings: &Settings) {
    let skipped = discover::unlisted_documents(paths, settings);
    let Some(first) = skipped.first() else {
        return;
    };
    let more = match skipped.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    eprintln!(
        "flinklint: note: not checked: SQL blocks in {}{more}; documents are checked when \
         `extensions` lists their extension, e.g. `extensions: [sql, md]` in .flinklint.yaml",
        escape::path(&discover::display_path(
            &std::env::current_dir().unwrap_or_default(),
            first
        ))
    );
}

/// Set when the run stopped because it found no file to check (exit code 2): `check` still
/// writes an empty report in the structured formats, so that a program reading it can parse it.
pub static NOTHING_TO_CHECK: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// A run that found no file to check: a note and success when that is expected (no changed
/// file since `--changed-since`, every path dropped by `--force-exclude`, `--allow-empty`);
/// otherwise why each path gave nothing, and `Err` with exit code 2.
fn empty_run(
    args: &InputArgs,
    changed_since: Option<&str>,
    settings: &Settings,
) -> Result<(), ExitCode> {
    if let Some(revision) = changed_since {
        eprintln!("flinklint: no file to check changed since {revision}");
        return Ok(());
    }
    if discover::all_force_excluded(&args.paths, settings, args.stdin_filename.as_deref()) {
        eprintln!("flinklint: every path given is excluded (--force-exclude): nothing to check");
        return Ok(());
    }
    // Documents named one by one (pre-commit passes every staged Markdown file) are checked
    // only in projects whose `extensions` list them: naming only such files is no mistake.
    let dropped = |arg: &PathBuf| {
        arg.as_os_str() != "-"
            && (discover::unlisted_document(arg, settings)
                || (settings.force_exclude
                    && settings
                        .exclude
                        .matches_path_or_parent(&settings.relative_path(arg), !arg.is_file())))
    };
    if !args.paths.is_empty() && args.paths.iter().all(dropped) {
        eprintln!(
            "flinklint: nothing to check: the documents given are checked only when \
             `extensions` lists their extension"
        );
        return Ok(());
    }
    NOTHING_TO_CHECK.store(!args.allow_empty, std::sync::atomic::Ordering::Relaxed);
    let why = discover::explain_empty(&args.paths, settings);
    let lead = if args.allow_empty { "note" } else { "error" };
    eprintln!("flinklint: {lead}: no file to check");
    for line in &why {
        eprintln!("  {line}");
    }
    if args.allow_empty {
        Ok(())
    } else {
        eprintln!("  (--allow-empty makes a run without files succeed)");
        Err(ExitCode::from(2))
    }
}

/// The versions at `revision` of the input files that changed since it (`--base`). The
/// repository is the one holding the first path argument (a file's folder), else the folder
/// of `--stdin-filename`, else the current folder. Files added since the revision, untracked or
/// outside the repository have none. Standard input named with `--stdin-filename` is that
/// file's new text: it gets the version of that file when its text differs from it.
fn base_versions(
    revision: &str,
    paths: &[PathBuf],
    inputs: &[Input],
    stdin: Option<&[u8]>,
) -> Result<Vec<flinklint::discover::read::BaseVersion>, git::GitError> {
    let stdin_name = inputs.iter().find_map(|i| match i {
        Input::Stdin(p) if p.as_os_str() != discover::STDIN_NAME => Some(p.clone()),
        _ => None,
    });
    let dir = paths
        .iter()
        .find(|p| p.as_os_str() != "-")
        .or(stdin_name.as_ref())
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
        let (path, new_text) = match input {
            Input::File(path) => {
                if !std::fs::canonicalize(path).is_ok_and(|p| changed.contains(&p)) {
                    continue;
                }
                (path, None)
            }
            Input::Stdin(path) if Some(path) == stdin_name.as_ref() => {
                (path, Some(stdin.unwrap_or_default()))
            }
            Input::Stdin(_) => continue,
        };
        let Some(rel) = git::relative_path(&root, path) else {
            continue;
        };
        let Some(bytes) = git::show(&root, &commit, &rel)? else {
            continue;
        };
        // An unchanged buffer is no evolution.
        if new_text.is_some_and(|text| text == bytes.as_slice()) {
            continue;
        }
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

/// The width the human report wraps at when standard output is not a terminal (a file, a
/// pipe, a CI log), so that such output does not change with the terminal it was made from.
pub const DEFAULT_WIDTH: usize = 100;

/// The width the human report wraps at: `COLUMNS` when it is set to a number, else the
/// terminal's width when the report goes to standard output and that is a terminal, else
/// [`DEFAULT_WIDTH`]; never narrower than 20 columns nor wider than 1,000.
pub fn report_width(to_stdout: bool) -> usize {
    use std::io::IsTerminal;
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0);
    let terminal = || {
        (to_stdout && std::io::stdout().is_terminal())
            .then(terminal_size::terminal_size)
            .flatten()
            .map(|(w, _)| usize::from(w.0))
            .filter(|&n| n > 0)
    };
    columns
        .or_else(terminal)
        .unwrap_or(DEFAULT_WIDTH)
        .clamp(20, 1000)
}

/// Colour only on a terminal, and never with `NO_COLOR`.
pub fn use_color() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The folder the paths of the machine formats (`json`, `sarif`, `github`, `gitlab`, `junit`)
/// are relative to, whatever the working directory: `GITHUB_WORKSPACE` when it is set and holds
/// the project root (GitHub resolves annotation and SARIF paths against the repository it
/// checked out there), else the git work tree that holds the project root, else the project
/// root (the folder of the config file, or the working directory).
pub fn report_root(settings: &Settings) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let project =
        flinklint::config::glob::absolute(&cwd.join(settings.root.as_deref().unwrap_or(&cwd)));
    if let Some(workspace) = std::env::var_os("GITHUB_WORKSPACE").filter(|w| !w.is_empty()) {
        let workspace = flinklint::config::glob::absolute(&cwd.join(workspace));
        if contains(&workspace, &project) {
            return workspace;
        }
    }
    project
        .ancestors()
        .find(|dir| dir.join(".git").exists())
        .map_or(project.clone(), Path::to_path_buf)
}

/// Whether `folder` holds `path` (lexically, else as real paths: a symbolic link).
fn contains(folder: &Path, path: &Path) -> bool {
    path.starts_with(folder)
        || match (std::fs::canonicalize(folder), std::fs::canonicalize(path)) {
            (Ok(f), Ok(p)) => p.starts_with(f),
            _ => false,
        }
}

/// Rewrites the paths of `files` (as the run shows them: relative to the working directory)
/// relative to `root` ([`report_root`]), without `./`; a file outside `root` gets its absolute
/// path, standard input without `--stdin-filename` keeps its name.
pub fn rebase_paths(files: &mut [flinklint::files::FileEntry], root: &Path) {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let real_root = std::fs::canonicalize(root).ok();
    // The working directory relative to the root, as text, when both are clean absolute
    // paths and the one lies under the other: a clean relative path is then rebased as text.
    let under = match (cfg!(unix), cwd.to_str(), root.to_str()) {
        (true, Some(c), Some(r)) if clean_absolute(c) && clean_absolute(r) => {
            match c.strip_prefix(r) {
                Some("") => Some(String::new()),
                Some(rest) if r != "/" => rest.strip_prefix('/').map(|rest| format!("{rest}/")),
                Some(rest) => Some(format!("{rest}/")),
                None => None,
            }
        }
        _ => None,
    };
    for file in files {
        let path = &file.source.path;
        if path.as_os_str() == discover::STDIN_NAME {
            continue;
        }
        if let (Some(prefix), Some(text)) = (&under, path.to_str()) {
            if clean_relative(text) {
                file.source.path = PathBuf::from(format!("{prefix}{text}"));
                continue;
            }
        }
        let absolute = flinklint::config::glob::absolute(&cwd.join(path));
        let relative = absolute
            .strip_prefix(root)
            .ok()
            .map(Path::to_path_buf)
            .or_else(|| {
                let real = std::fs::canonicalize(&absolute).ok()?;
                real.strip_prefix(real_root.as_ref()?)
                    .ok()
                    .map(Path::to_path_buf)
            });
        file.source.path = match relative {
            Some(r) if !r.as_os_str().is_empty() => r,
            _ => absolute,
        };
    }
}

/// Whether `path` is names separated by single `/`, none of them `.` or `..`.
fn clean_relative(path: &str) -> bool {
    !path.is_empty() && path.split('/').all(|name| !matches!(name, "" | "." | ".."))
}

/// Whether `path` is `/` or `/` followed by a [`clean_relative`] path.
fn clean_absolute(path: &str) -> bool {
    path == "/" || path.strip_prefix('/').is_some_and(clean_relative)
}

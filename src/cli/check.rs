//! `flinklint check`.

use super::{parse_fail_on, shown, use_color, InputArgs};
use flinklint::baseline::{self, Baseline};
use flinklint::config::{CliSettings, FailOn, Settings};
use flinklint::fix::FixMode;
use flinklint::render;
use flinklint::source::escape;
use std::path::PathBuf;
use std::process::ExitCode;

/// The output formats of `flinklint check --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// miette's graphical report (colour on a terminal only, never with `NO_COLOR`).
    Human,
    /// One line per finding: `path:line:col: CODE [severity] message`.
    Concise,
    /// One versioned JSON document.
    Json,
    /// SARIF 2.1.0 (code scanning tools, GitHub code scanning).
    Sarif,
    /// GitHub Actions workflow commands (annotations on pull requests).
    Github,
    /// GitLab Code Quality report (JSON).
    Gitlab,
    /// JUnit XML (one test case per file).
    Junit,
}

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Report only on the files that changed since this git revision (a branch, tag or commit):
    /// added or modified since it, committed, staged or not, and untracked files that git does
    /// not ignore. The rest of the project is still read, so changed files are checked against
    /// the tables of unchanged ones.
    #[arg(long, value_name = "REF")]
    changed_since: Option<String>,
    /// Output format [default: human, or github when the environment variable GITHUB_ACTIONS
    /// is `true`].
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write the report to this file instead of standard output (human output without colour).
    /// A regular file (created when missing) or a character device such as `/dev/null` or
    /// `/dev/stdout`; a named pipe or a socket is refused (writing to a pipe nobody reads would
    /// wait for ever).
    #[arg(long, value_name = "FILE")]
    output_file: Option<PathBuf>,
    /// Show at most this many findings (a number, or `all`); the report counts the others by
    /// rule and severity, and the exit code still reflects every finding [default: 1000 for
    /// human, concise and github; 10000 for json, sarif, gitlab and junit].
    #[arg(long, value_name = "N", value_parser = parse_max_findings)]
    max_findings: Option<usize>,
    /// Exit with 1 when any finding is at or above this severity.
    #[arg(long, value_parser = parse_fail_on)]
    fail_on: Option<FailOn>,
    /// Always exit with 0 unless a usage error occurs (or --fix cannot write a file: 2).
    #[arg(long)]
    exit_zero: bool,
    /// Run only these rules: comma-separated codes, names or families (`SY003,LK`); a rule
    /// named by code or name runs even when the config turns it off.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    select: Option<Vec<String>>,
    /// Never run these rules: comma-separated codes, names or families (repeatable).
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Report only findings that are not in this baseline file (written by --write-baseline),
    /// and list the baseline entries that no longer occur.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    baseline: Option<PathBuf>,
    /// Record the current findings in this baseline file and exit with 0.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
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

/// `--max-findings`: a count, or `all`.
fn parse_max_findings(s: &str) -> Result<usize, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(usize::MAX);
    }
    s.parse()
        .map_err(|_| format!("`{s}` is not a number of findings (or `all`)"))
}

/// The format when `--format` is not given: `github` inside GitHub Actions (which sets
/// `GITHUB_ACTIONS=true`), `human` elsewhere.
fn default_format() -> Format {
    if std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true") {
        Format::Github
    } else {
        Format::Human
    }
}

/// Whether the report may be written to `path`: anything but a named pipe or a socket (a
/// missing file is created, a character device such as `/dev/null` is written to).
fn writable_output(path: &std::path::Path) -> Result<(), &'static str> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return Err("it is a named pipe, not a regular file");
        }
        if kind.is_socket() {
            return Err("it is a socket, not a regular file");
        }
    }
    if meta.is_dir() {
        return Err("it is a directory, not a regular file");
    }
    Ok(())
}

/// The report of a run without files in the formats that programs parse (`json`, `sarif`,
/// `gitlab`, `junit`): a valid document without findings. `None` for the formats people read.
fn render_empty(format: Format, settings: &Settings) -> Option<String> {
    let root = super::report_root(settings);
    Some(match format {
        Format::Json => render::json::render_limited(&[], 0, &[], None, usize::MAX),
        Format::Sarif => render::sarif::render_limited(
            &[],
            &[],
            usize::MAX,
            Some(render::sarif::Base::at(&root)),
        ),
        Format::Gitlab => render::gitlab::render_limited(&[], &[], usize::MAX),
        Format::Junit => render::junit::render_limited(&[], &[], usize::MAX),
        Format::Human | Format::Concise | Format::Github => return None,
    })
}

/// Runs `check`.
/// The line the human summary ends with when documents that the run's arguments name or hold
/// have SQL blocks that the run did not check (`extensions` does not list them); empty when
/// there are none.
fn unchecked_documents_note(paths: &[PathBuf]) -> String {
    let Some(first) = paths.first() else {
        return String::new();
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    let shown = escape::path(&flinklint::discover::display_path(&cwd, first));
    let which = match paths.len() {
        1 => format!("1 document ({shown})"),
        n => format!("{n} documents ({shown} and {} more)", n - 1),
    };
    format!(
        "Not checked: the SQL blocks of {which}; documents are checked when `extensions` \
         lists their extension, e.g. `extensions: [sql, md]` in .flinklint.yaml.\n"
    )
}

pub fn run(args: CheckArgs) -> ExitCode {
    let cli = CliSettings {
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        fail_on: args.fail_on,
        ..CliSettings::default()
    };
    let mut settings = match super::settings(&args.input, cli) {
        Ok(s) => Settings {
            // Only problems are reported: each script's catalog is freed once it has run.
            drop_script_sessions: true,
            ..s
        },
        Err(code) => return code,
    };
    // The documents of the project that hold SQL blocks but are not checked: the tables their
    // blocks create exist somewhere (no "unknown table" on them), and the summary says once
    // how to check them.
    let timings = std::env::var_os("FLINKLINT_TIMINGS").is_some();
    let walk_start = std::time::Instant::now();
    let mut documents =
        flinklint::discover::unlisted_document_sql(&args.input.paths, &settings, true);
    if timings {
        eprintln!(
            "timings: walk {:.2} ms",
            walk_start.elapsed().as_secs_f64() * 1e3
        );
    }
    settings.documented_names = std::sync::Arc::new(documents.names.clone());
    if args.fix && !args.diff && args.input.reads_stdin() {
        // Fixes are written to the files they fix: standard input has none (its
        // --stdin-filename only names it), and writing the buffer there would replace the file
        // on disk with it.
        eprintln!(
            "flinklint: --fix cannot write standard input back; use --fix --diff to print the fixes"
        );
        return ExitCode::from(2);
    }
    if let Some(path) = &args.output_file {
        if let Err(why) = writable_output(path) {
            eprintln!("flinklint: cannot write {}: {why}", shown(path));
            return ExitCode::from(2);
        }
    }
    // The baseline is read before the run: a file that cannot be read stops it at once.
    let baseline = match &args.baseline {
        Some(path) => match flinklint::files::read_text(path, flinklint::files::BASELINE_LIMIT)
            .map_err(|e| e.to_string())
            .and_then(|t| Baseline::from_json(&t))
        {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!(
                    "flinklint: cannot read the baseline {}: {}",
                    shown(path),
                    escape::text(&e)
                );
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    // Without --fix, only the findings are needed: a large project is checked in chunks (the
    // syntax trees of the files with findings are kept for a baseline's fingerprints).
    let mut outcome = match super::run_inputs_chunked(
        &args.input,
        args.changed_since.as_deref(),
        &settings,
        true,
        (!args.fix).then_some(args.baseline.is_some() || args.write_baseline.is_some()),
        std::mem::take(&mut documents.walked),
    ) {
        Ok(o) => o,
        Err(code) => {
            if super::NOTHING_TO_CHECK.load(std::sync::atomic::Ordering::Relaxed) {
                // Nothing to check is exit code 2, but the structured formats still write a
                // valid (empty) document: a CI step that parses the report must not fail on it.
                let empty = render_empty(args.format.unwrap_or_else(default_format), &settings);
                if let Some(text) = empty {
                    let written = match &args.output_file {
                        Some(path) => std::fs::write(path, text.as_bytes()).map_err(|e| {
                            eprintln!("flinklint: cannot write {}: {e}", shown(path));
                        }),
                        None => super::print_stdout(&text).map_err(|_| ()),
                    };
                    let _ = written;
                }
            }
            return code;
        }
    };
    let mut write_failed = false;
    if args.fix {
        let mode = if args.unsafe_fixes {
            FixMode::All
        } else {
            FixMode::Safe
        };
        let report = flinklint::fix::fix(outcome, &settings, mode);
        for r in &report.rejected {
            eprintln!("flinklint: {r}");
        }
        for path in &report.not_converged {
            eprintln!(
                "flinklint: internal error: the fixes of {} do not settle after {} rounds (a bug \
                 of flinklint); the file is left as it was",
                escape::path(path),
                flinklint::fix::MAX_ROUNDS
            );
        }
        if args.diff {
            let text = super::fix::diffs(&report.changed);
            // On a terminal, the control characters of the files (a NUL, a carriage return, an
            // escape sequence in a comment) are escaped, so that none acts on the terminal;
            // into a pipe or a file the diff is verbatim, a patch to apply.
            use std::io::IsTerminal;
            let text = match std::io::stdout().is_terminal() {
                true => escape::lines(&text),
                false => std::borrow::Cow::Borrowed(text.as_str()),
            };
            if let Err(code) = super::print_stdout(&text) {
                return code;
            }
            return if report.changed.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            };
        }
        let failed = super::fix::write(&report.changed);
        for (path, e) in &failed {
            eprintln!(
                "flinklint: cannot write {}: {}",
                escape::path(path),
                escape::text(e)
            );
        }
        // What is reported is what the files hold: a file that could not be written keeps its
        // findings.
        let paths: Vec<PathBuf> = failed.iter().map(|(p, _)| p.clone()).collect();
        let report = report.revert(&paths, &settings);
        if report.applied > 0 {
            eprintln!(
                "flinklint: applied {} fix(es) in {} file(s)",
                report.applied,
                report.changed.len()
            );
        }
        if !failed.is_empty() {
            eprintln!(
                "flinklint: {} file(s) could not be written: they keep the text and the findings reported",
                failed.len()
            );
            write_failed = true;
        }
        outcome = report.outcome;
    }
    if let Some(path) = &args.write_baseline {
        let b = baseline::record(&outcome.files, &settings, &outcome.diagnostics);
        // Atomically: an interrupted run leaves the previous baseline intact.
        if let Err(e) = flinklint::fix::write_atomically(path, &b.to_json()) {
            eprintln!("flinklint: cannot write {}: {e}", shown(path));
            return ExitCode::from(2);
        }
        let n: u32 = b.findings.iter().map(|e| e.count).sum();
        eprintln!(
            "flinklint: wrote {n} finding(s) to the baseline {}",
            shown(path)
        );
        return ExitCode::SUCCESS;
    }
    let mut gone = None;
    if let (Some(path), Some(b)) = (&args.baseline, &baseline) {
        let g = baseline::filter(&outcome.files, &settings, &mut outcome.diagnostics, b);
        if !g.is_empty() {
            let n: u32 = g.iter().map(|e| e.count).sum();
            eprintln!(
                "flinklint: {n} finding(s) of the baseline {} no longer occur; run with --write-baseline to drop them:",
                shown(path)
            );
            for e in &g {
                let times = if e.count > 1 {
                    format!(" (x{})", e.count)
                } else {
                    String::new()
                };
                // The baseline file's texts, which may hold anything.
                eprintln!(
                    "  {} {}{times}: {}",
                    escape::text(&e.file),
                    escape::text(&e.code),
                    escape::text(&e.message)
                );
            }
        }
        gone = Some(g);
    }
    let render_start = std::time::Instant::now();
    let files_checked = outcome.files_checked();
    let format = args.format.unwrap_or_else(default_format);
    let machine = matches!(
        format,
        Format::Json | Format::Sarif | Format::Gitlab | Format::Junit
    );
    // What programs read (and GitHub, which resolves annotation and SARIF paths against the
    // repository) names files relative to the repository or project root, whatever the
    // working directory; people read paths relative to where they are.
    let root = super::report_root(&settings);
    if machine || format == Format::Github {
        super::rebase_paths(&mut outcome.files, &root);
    }
    let (files, diagnostics) = (&outcome.files, &outcome.diagnostics);
    let limit = args.max_findings.unwrap_or(if machine {
        render::MAX_FINDINGS_MACHINE
    } else {
        render::MAX_FINDINGS_READ
    });
    let text = match format {
        Format::Human => {
            let mut text = render::human::render_limited(
                files,
                files_checked,
                diagnostics,
                render::human::HumanOptions {
                    color: args.output_file.is_none() && use_color(),
                    width: super::report_width(args.output_file.is_none()),
                },
                limit,
            );
            if files_checked > 0 {
                text.push_str(&unchecked_documents_note(
                    &documents.paths[..documents.named],
                ));
            }
            text
        }
        Format::Concise => {
            render::concise::render_limited(files, files_checked, diagnostics, limit)
        }
        Format::Json => {
            render::json::render_limited(files, files_checked, diagnostics, gone.as_deref(), limit)
        }
        Format::Sarif => {
            // URIs relative to the repository or project root, as code scanning resolves
            // them (the paths are already relative to it).
            render::sarif::render_limited(
                files,
                diagnostics,
                limit,
                Some(render::sarif::Base::at(&root)),
            )
        }
        Format::Github => render::github::render_limited(files, files_checked, diagnostics, limit),
        Format::Gitlab => render::gitlab::render_limited(files, diagnostics, limit),
        Format::Junit => render::junit::render_limited(files, diagnostics, limit),
    };
    if machine {
        // People read the log of a CI job, not the report a program reads.
        if let (_, Some(omitted)) = render::limit(diagnostics, limit) {
            eprintln!("flinklint: {}", omitted.sentence());
        }
    }
    if let Some(path) = &args.output_file {
        if let Err(e) = std::fs::write(path, text.as_bytes()) {
            eprintln!("flinklint: cannot write {}: {e}", shown(path));
            return ExitCode::from(2);
        }
    } else if let Err(code) = super::print_stdout(&text) {
        return code;
    }
    if timings {
        eprintln!(
            "timings: report {:.2} ms",
            render_start.elapsed().as_secs_f64() * 1e3
        );
    }
    let failed = outcome
        .diagnostics
        .iter()
        .any(|d| settings.fail_on.fails(d.severity));
    // The process exits next: freeing every syntax tree and session one node at a time costs
    // about as much as the rules (scripts/bench.py); the operating system reclaims it at once.
    std::mem::forget(outcome);
    if write_failed {
        // Not even --exit-zero hides a file left unfixed that the run was asked to fix.
        ExitCode::from(2)
    } else if failed && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

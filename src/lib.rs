//! flinklint: a fast linter and migration checker for repositories of Apache Flink SQL.
//!
//! The pipeline, stage by stage; each stage uses only the ones before it:
//!
//! ```text
//! config -> discover -> source -> syntax (lex -> parse -> typed AST)
//!   -> semantic (catalog, LIKE merge) -> rules (suppressions last) -> diagnostics -> baseline
//!   -> render -> fix
//! ```
//!
//! [`check`] runs the whole pipeline for a list of inputs and returns the files and findings;
//! the binary renders them.
#![warn(missing_docs)]

pub mod baseline;
pub mod cli;
pub mod config;
pub mod diagnostics;
pub mod discover;
pub mod docs;
pub mod files;
pub mod fix;
pub mod registry;
pub mod render;
pub mod rules;
pub mod semantic;
pub mod source;
pub mod syntax;

use config::Settings;
use diagnostics::Diagnostic;
use discover::Input;
use rayon::prelude::*;
use files::FileEntry;
use source::{FileId, SourceFile};

/// The result of a run: every file read, and the findings in the reported ones.
#[derive(Debug)]
pub struct Outcome {
    /// Files in run order; `FileId(i)` is `files[i]`.
    pub files: Vec<FileEntry>,
    /// Findings, sorted by file, position and code.
    pub diagnostics: Vec<Diagnostic>,
    /// The semantic model (catalog sessions), for `expand`.
    pub model: semantic::Model,
}

impl Outcome {
    /// Number of files reported on.
    pub fn files_checked(&self) -> usize {
        self.files.iter().filter(|f| f.report).count()
    }
}

/// Reads one input: its text, or why it cannot be read. Standard input is read by the caller.
fn load(input: &Input, stdin_text: Option<&[u8]>) -> (SourceFile, Option<String>) {
    let bytes = match input {
        Input::File(path) => std::fs::read(path),
        Input::Stdin(_) => Ok(stdin_text.unwrap_or_default().to_vec()),
    };
    let path = input.path().to_path_buf();
    match bytes {
        Err(e) => (SourceFile::new(path, String::new()), Some(e.to_string())),
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => (SourceFile::new(path, text), None),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                (
                    SourceFile::new(path, String::new()),
                    Some(format!("not valid UTF-8 (byte {at})")),
                )
            }
        },
    }
}

/// Stack size of the threads that parse and analyse (bytes of reserved address space).
pub const STACK_SIZE: usize = 256 * 1024 * 1024;

/// The worker pool: one thread per core, each with a [`STACK_SIZE`] stack.
fn pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .stack_size(STACK_SIZE)
            .thread_name(|i| format!("flinklint-{i}"))
            .build()
            .unwrap_or_else(|_| {
                rayon::ThreadPoolBuilder::new()
                    .build()
                    .expect("a thread pool")
            })
    })
}

/// Runs the pipeline: read and parse every input (in parallel), build the semantic model,
/// run the rules. `stdin_text` is the content of standard input when an input is `-`.
pub fn check(inputs: &[Input], stdin_text: Option<&[u8]>, settings: &Settings) -> Outcome {
    check_with_context(inputs, &[], stdin_text, settings)
}

/// Like [`check`], with `context` files read for the catalog but not reported on (the
/// histories a pre-commit run on staged files needs).
pub fn check_with_context(
    inputs: &[Input],
    context: &[Input],
    stdin_text: Option<&[u8]>,
    settings: &Settings,
) -> Outcome {
    check_with_bases(inputs, context, Vec::new(), stdin_text, settings)
}

/// The earlier version of an input file (`check --base REV`: its text at a git revision). It
/// is run for the catalog just before the file, as the deployed state the file evolves, and is
/// never reported on.
#[derive(Debug, Clone)]
pub struct BaseVersion {
    /// Index in `inputs` of the file this is the earlier version of.
    pub of: usize,
    /// Its text, under a path shown as `REV:path`.
    pub source: SourceFile,
}

/// Like [`check_with_context`], with the earlier versions of some inputs (see
/// [`BaseVersion`]). Files are numbered inputs first, then context, then base versions.
pub fn check_with_bases(
    inputs: &[Input],
    context: &[Input],
    bases: Vec<BaseVersion>,
    stdin_text: Option<&[u8]>,
    settings: &Settings,
) -> Outcome {
    pool().install(|| {
        let start = std::time::Instant::now();
        let external = external_inputs(inputs, context, settings);
        let reported = |i: &Input| match i {
            Input::File(p) => !settings.is_external(p),
            Input::Stdin(_) => true,
        };
        let all: Vec<(&Input, bool)> = inputs
            .iter()
            .map(|i| (i, reported(i)))
            .chain(context.iter().map(|i| (i, false)))
            .chain(external.iter().map(|i| (i, false)))
            .collect();
        let first_base = all.len();
        // The grouping into histories and scripts needs only the paths: it is made while the
        // files are read and parsed.
        let (plan, mut files) = rayon::join(
            || {
                semantic::history::plan_paths(
                    all.iter()
                        .enumerate()
                        .map(|(i, (input, _))| (FileId(i as u32), input.path())),
                    settings,
                )
            },
            || {
                all.par_iter()
                    .enumerate()
                    .map(|(i, (input, report))| {
                        let (source, load_error) = load(input, stdin_text);
                        let parsed = syntax::parse(&source.text);
                        FileEntry {
                            id: FileId(i as u32),
                            source,
                            parsed,
                            load_error,
                            report: *report,
                            base_of: None,
                        }
                    })
                    .collect::<Vec<FileEntry>>()
            },
        );
        let base_entries: Vec<FileEntry> = bases
            .into_par_iter()
            .enumerate()
            .filter(|(_, b)| b.of < inputs.len())
            .map(|(k, b)| {
                let parsed = syntax::parse(&b.source.text);
                FileEntry {
                    id: FileId((first_base + k) as u32),
                    source: b.source,
                    parsed,
                    load_error: None,
                    report: false,
                    base_of: Some(FileId(b.of as u32)),
                }
            })
            .collect();
        // Ids must stay indices: renumber after the filter.
        for (k, mut entry) in base_entries.into_iter().enumerate() {
            entry.id = FileId((first_base + k) as u32);
            files.push(entry);
        }
        if std::env::var_os("FLINKLINT_TIMINGS").is_some() {
            eprintln!(
                "timings: read and parse {:.1} ms",
                start.elapsed().as_secs_f64() * 1e3
            );
        }
        analyse(files, settings, Some(plan))
    })
}

/// The `external-tables` files that are neither inputs nor context, as context inputs (shown
/// relative to the working directory when they lie under it).
fn external_inputs(inputs: &[Input], context: &[Input], settings: &Settings) -> Vec<Input> {
    if settings.external_tables.is_empty() {
        return Vec::new();
    }
    let present: std::collections::HashSet<std::path::PathBuf> = inputs
        .iter()
        .chain(context)
        .filter_map(|i| match i {
            Input::File(p) => Some(config::glob::absolute(p)),
            Input::Stdin(_) => None,
        })
        .collect();
    let cwd = std::env::current_dir().unwrap_or_default();
    settings
        .external_tables
        .iter()
        .filter(|p| !present.contains(*p))
        .map(|p| {
            Input::File(
                p.strip_prefix(&cwd)
                    .map_or_else(|_| p.clone(), |r| r.to_path_buf()),
            )
        })
        .collect()
}

/// Runs the pipeline over texts already in memory: `(path, text)` pairs, in run order. Used by
/// tests, rule examples and editor integrations.
pub fn check_texts(texts: &[(String, String)], settings: &Settings) -> Outcome {
    pool().install(|| {
        let files: Vec<FileEntry> = texts
            .par_iter()
            .enumerate()
            .map(|(i, (path, text))| {
                let source = SourceFile::new(path.as_str(), text.clone());
                let parsed = syntax::parse(&source.text);
                FileEntry {
                    id: FileId(i as u32),
                    source,
                    parsed,
                    load_error: None,
                    report: true,
                    base_of: None,
                }
            })
            .collect();
        analyse(files, settings, None)
    })
}

/// A file to check whose text is already loaded (or could not be): used to re-check fixed
/// texts without touching the disk.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The file.
    pub source: SourceFile,
    /// Why it could not be read.
    pub load_error: Option<String>,
    /// Whether its findings are reported.
    pub report: bool,
    /// For the earlier version of another file (`--base`), that file.
    pub base_of: Option<FileId>,
}

/// Runs the pipeline over loaded files, in order.
pub fn check_loaded(loaded: Vec<Loaded>, settings: &Settings) -> Outcome {
    pool().install(|| {
        let files: Vec<FileEntry> = loaded
            .into_par_iter()
            .enumerate()
            .map(|(i, l)| {
                let parsed = syntax::parse(&l.source.text);
                FileEntry {
                    id: FileId(i as u32),
                    source: l.source,
                    parsed,
                    load_error: l.load_error,
                    report: l.report,
                    base_of: l.base_of,
                }
            })
            .collect();
        analyse(files, settings, None)
    })
}

/// The stages after parsing: semantic model and rules (suppressions applied).
fn analyse(
    files: Vec<FileEntry>,
    settings: &Settings,
    plan: Option<semantic::history::Plan>,
) -> Outcome {
    let start = std::time::Instant::now();
    let system = semantic::system::SystemColumns::from_settings(settings);
    let by_file =
        config::SettingsByFile::new(settings, files.iter().map(|f| f.source.path.as_path()));
    // The rules that read only the syntax trees run while the catalog pass builds the model.
    let no_model = semantic::Model::default();
    let (model, early) = rayon::join(
        || {
            // For the benchmark only (scripts/bench.py): a run without the catalog pass, to
            // measure what the pass adds to the whole run (issue 3's budget).
            if std::env::var_os("FLINKLINT_BENCH_SKIP_CATALOG").is_some() {
                semantic::Model::default()
            } else {
                semantic::analyse_planned(&files, settings, &system, plan)
            }
        },
        || {
            rules::run_early(&rules::Context {
                settings,
                by_file: &by_file,
                files: &files,
                model: &no_model,
                suppressions: None,
            })
        },
    );
    let semantic = start.elapsed();
    let ctx = rules::Context {
        settings,
        by_file: &by_file,
        files: &files,
        model: &model,
        suppressions: None,
    };
    let diagnostics = rules::run_after(&ctx, early);
    if std::env::var_os("FLINKLINT_TIMINGS").is_some() {
        eprintln!(
            "timings: semantic (with the syntax-only rules beside it) {:.2} ms, rules {:.2} ms",
            semantic.as_secs_f64() * 1e3,
            (start.elapsed() - semantic).as_secs_f64() * 1e3
        );
    }
    Outcome {
        files,
        diagnostics,
        model,
    }
}

//! Reading a run's inputs from disk (or standard input) and checking them: the command line's
//! I/O on the library's pipeline ([`crate::project`]).

use super::Input;
use crate::config::Settings;
use crate::files::{read_file, FileEntry, SQL_LIMIT};
use crate::project::{analyse_files, pool, Outcome, Passes};
use crate::source::{FileId, SourceFile};
use rayon::prelude::*;

/// Reads one input: its text, or why it cannot be read (reported as SY000, and the run goes
/// on). A file is read only when it is a regular file of at most [`SQL_LIMIT`] bytes (see
/// [`crate::files::read_file`]); standard input is read by the caller, with the same limit.
pub fn load(input: &Input, stdin_text: Option<&[u8]>) -> (SourceFile, Option<String>) {
    load_with(input, stdin_text, true)
}

/// [`load`] of a file, without the line index when `!lines`: a text that is parsed, summed
/// up and dropped ([`super::cache::summarize_files`]) never needs a line or a column.
pub(crate) fn load_with(
    input: &Input,
    stdin_text: Option<&[u8]>,
    lines: bool,
) -> (SourceFile, Option<String>) {
    let source = |path: std::path::PathBuf, text: String| match lines {
        true => SourceFile::new(path, text),
        false => SourceFile {
            path,
            text: text.into(),
            lines: crate::source::LineIndex::new(""),
        },
    };
    let path = input.path().to_path_buf();
    let bytes = match input {
        Input::File(p) => match read_file(p, SQL_LIMIT) {
            Ok(bytes) => bytes,
            Err(e) => return (SourceFile::new(path, ""), Some(e.to_string())),
        },
        Input::Stdin(_) => stdin_text.unwrap_or_default().to_vec(),
    };
    match String::from_utf8(bytes) {
        Ok(text) => (source(path, text), None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            (
                SourceFile::new(path, ""),
                Some(format!("not valid UTF-8 (byte {at})")),
            )
        }
    }
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
    check_with_passes(
        inputs,
        context,
        bases,
        stdin_text,
        settings,
        Passes::default(),
    )
}

/// [`check_with_bases`] making only the given passes (the benchmark turns the catalog pass
/// off to measure what it adds).
pub fn check_with_passes(
    inputs: &[Input],
    context: &[Input],
    bases: Vec<BaseVersion>,
    stdin_text: Option<&[u8]>,
    settings: &Settings,
    passes: Passes,
) -> Outcome {
    pool().install(|| {
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
        check_files(&all, inputs.len(), bases, stdin_text, settings, passes)
    })
}

/// Reads, parses and checks `all` (each file with whether it is reported), in this order;
/// `bases` are the earlier versions of the first `inputs` files. Runs on the caller's pool.
/// The first timing is that of reading and parsing.
pub(crate) fn check_files(
    all: &[(&Input, bool)],
    inputs: usize,
    bases: Vec<BaseVersion>,
    stdin_text: Option<&[u8]>,
    settings: &Settings,
    passes: Passes,
) -> Outcome {
    read_files(all, inputs, bases, stdin_text, settings).analyse(settings, passes)
}

/// A run's files read and parsed, with their grouping into histories: what [`check_files`]
/// analyses. Chunked runs read the next chunk while the last one is analysed.
pub(crate) struct Read {
    files: Vec<FileEntry>,
    plan: crate::semantic::history::Plan,
    took: std::time::Duration,
}

impl Read {
    /// Builds the semantic model and runs the rules; the first timing is that of reading and
    /// parsing.
    pub(crate) fn analyse(self, settings: &Settings, passes: Passes) -> Outcome {
        let mut outcome = analyse_files(self.files, settings, Some(self.plan), passes);
        outcome.timings.insert(0, ("read and parse", self.took));
        outcome
    }
}

/// Reads and parses `all` (in parallel), and groups them into histories (see [`check_files`]).
pub(crate) fn read_files(
    all: &[(&Input, bool)],
    inputs: usize,
    bases: Vec<BaseVersion>,
    stdin_text: Option<&[u8]>,
    settings: &Settings,
) -> Read {
    read_files_after(all, Vec::new(), inputs, bases, stdin_text, settings)
}

/// Reads and parses the files `all[range]` (in parallel), numbered by their index in `all`.
pub(crate) fn read_some(
    all: &[(&Input, bool)],
    range: std::ops::Range<usize>,
    stdin_text: Option<&[u8]>,
) -> Vec<FileEntry> {
    let start = range.start;
    all[range]
        .par_iter()
        .enumerate()
        .map(|(k, (input, report))| {
            let (source, load_error) = load(input, stdin_text);
            let (parsed, dialect) = crate::files::parse(&source);
            FileEntry {
                id: FileId((start + k) as u32),
                source,
                parsed,
                dialect,
                load_error,
                report: *report,
                base_of: None,
            }
        })
        .collect()
}

/// [`read_files`], the first `ahead.len()` files of `all` read already ([`read_some`]).
pub(crate) fn read_files_after(
    all: &[(&Input, bool)],
    mut ahead: Vec<FileEntry>,
    inputs: usize,
    bases: Vec<BaseVersion>,
    stdin_text: Option<&[u8]>,
    settings: &Settings,
) -> Read {
    let start = std::time::Instant::now();
    let first_base = all.len();
    let done = ahead.len().min(all.len());
    // The grouping into histories and scripts needs only the paths: it is made while the
    // files are read and parsed.
    let (plan, rest) = rayon::join(
        || {
            crate::semantic::history::plan_paths(
                all.iter()
                    .enumerate()
                    .map(|(i, (input, _))| (FileId(i as u32), input.path())),
                settings,
            )
        },
        || read_some(all, done..all.len(), stdin_text),
    );
    let mut files = match ahead.is_empty() {
        true => rest,
        false => {
            ahead.truncate(done);
            ahead.extend(rest);
            ahead
        }
    };
    let base_entries: Vec<FileEntry> = bases
        .into_par_iter()
        .filter(|b| b.of < inputs)
        .map(|b| {
            let (parsed, dialect) = crate::files::parse(&b.source);
            FileEntry {
                id: FileId(0),
                source: b.source,
                parsed,
                dialect,
                load_error: None,
                report: false,
                base_of: Some(FileId(b.of as u32)),
            }
        })
        .collect();
    // Ids must stay indices: numbered after the filter.
    for (k, mut entry) in base_entries.into_iter().enumerate() {
        entry.id = FileId((first_base + k) as u32);
        files.push(entry);
    }
    Read {
        files,
        plan,
        took: start.elapsed(),
    }
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
            Input::File(p) => Some(crate::config::glob::absolute(p)),
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

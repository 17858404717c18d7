//! One input through the whole library, with the invariants every input must keep: what the
//! fuzz targets (`fuzz/fuzz_targets/`, which include this file) and the mutation harness
//! (`tests/mutation.rs`) run on each input. A broken invariant panics with a message saying
//! which; any other panic is a crash of the library itself.
//!
//! The stages run as the command line runs them: on the library's worker pool, whose threads
//! have the large stack the parser's recursion is allowed.

use flinklint::config::{Settings, Target};
use flinklint::fix::{self, FixMode};
use flinklint::project::{self, lookup, Outcome};
use flinklint::render;
use flinklint::source::Span;

/// The most output one format may print for an input of `input_len` bytes: generous (a
/// finding's excerpt, help and notes are a few hundred bytes; a file has at most a few findings
/// per byte), and linear in the input.
pub fn output_limit(input_len: usize) -> usize {
    (1 << 20) + 512 * input_len
}

/// What one input made, for the harness's figures.
#[derive(Debug, Default, Clone, Copy)]
pub struct Figures {
    /// Findings of the first check.
    pub diagnostics: usize,
    /// Bytes of the largest rendered output.
    pub largest_output: usize,
    /// Fixes applied (safe, then unsafe).
    pub fixes_applied: usize,
}

/// Asserts that `span` is a range of `text` whose ends are character boundaries.
pub fn assert_span(text: &str, span: Span, what: &str) {
    let (start, end) = (span.start as usize, span.end as usize);
    assert!(
        start <= end && end <= text.len(),
        "{what}: span {start}..{end} outside the text of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "{what}: span {start}..{end} cuts a character"
    );
}

/// Lexes and parses `text` (a script, then a data type on its own) and checks the spans of
/// tokens, statements and errors.
pub fn parse(text: &str) {
    let (parsed, _data_type) = project::pool().install(|| {
        (
            flinklint::syntax::parse(text),
            flinklint::syntax::parse_data_type(text),
        )
    });
    let mut previous_end = 0;
    for token in &parsed.tokens {
        assert_span(text, token.span, "token");
        assert!(
            token.span.start >= previous_end,
            "token {:?} overlaps the one before it (which ends at {previous_end})",
            token.span
        );
        previous_end = token.span.end;
    }
    for statement in &parsed.script.statements {
        assert_span(text, statement.span, "statement");
    }
    for error in &parsed.errors {
        assert_span(text, error.span, "syntax error");
        if let Some(suggestion) = &error.suggestion {
            assert_span(text, suggestion.span, "syntax error's suggestion");
        }
    }
}

/// The settings of a check for `target`: every rule at its default level.
pub fn settings(target: Target) -> Settings {
    Settings {
        target,
        ..Settings::default()
    }
}

/// Checks the spans of every finding, related location and fix edit of `outcome`.
pub fn assert_outcome(outcome: &Outcome) {
    let text_of = |file: flinklint::source::FileId| -> &str {
        let entry = outcome.files.get(file.0 as usize).unwrap_or_else(|| {
            panic!("a finding names file {} of {}", file.0, outcome.files.len())
        });
        &entry.source.text
    };
    for d in &outcome.diagnostics {
        let what = format!("{} `{}`", d.code, d.message);
        assert_span(text_of(d.file), d.span, &what);
        for r in &d.related {
            assert_span(
                text_of(r.file),
                r.span,
                &format!("{what}: related location"),
            );
        }
        if let Some(fix) = &d.fix {
            for e in &fix.edits {
                assert_span(text_of(e.file), e.span, &format!("{what}: fix edit"));
            }
        }
    }
}

/// Renders `outcome` in every output format (the human one with and without colour), checks
/// that the JSON formats are JSON and that no output is larger than [`output_limit`]; returns
/// the size of the largest.
pub fn render_all(outcome: &Outcome, input_len: usize) -> usize {
    let files = &outcome.files;
    let checked = outcome.files_checked();
    let diagnostics = &outcome.diagnostics;
    let human = |color, width| {
        render::human::render(
            files,
            checked,
            diagnostics,
            render::human::HumanOptions { color, width },
        )
    };
    let outputs = [
        ("human", human(false, 100)),
        ("human (colour, narrow)", human(true, 40)),
        (
            "concise",
            render::concise::render(files, checked, diagnostics),
        ),
        ("json", render::json::render(files, checked, diagnostics)),
        ("sarif", render::sarif::render(files, diagnostics)),
        (
            "github",
            render::github::render(files, checked, diagnostics),
        ),
        ("gitlab", render::gitlab::render(files, diagnostics)),
        ("junit", render::junit::render(files, diagnostics)),
    ];
    let limit = output_limit(input_len);
    let mut largest = 0;
    for (format, text) in &outputs {
        assert!(
            text.len() <= limit,
            "{format}: {} bytes of output for {input_len} bytes of input (limit {limit})",
            text.len()
        );
        if matches!(*format, "json" | "sarif" | "gitlab") {
            if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
                panic!("{format}: not JSON: {e}");
            }
        }
        largest = largest.max(text.len());
    }
    largest
}

/// What `flinklint expand` prints for each object the sessions define (at most 64 names), and
/// the rows of `DESCRIBE` for each table.
pub fn expand_all(outcome: &Outcome, settings: &Settings) {
    let system = flinklint::semantic::system::SystemColumns::from_settings(settings);
    let mut names: Vec<String> = Vec::new();
    for session in &outcome.model.sessions {
        for version in &session.versions {
            let name = version.object.name.to_string();
            if names.len() < 64 && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    for name in &names {
        // A name with characters a name cannot have is not looked up, as on the command line.
        let Ok(definitions) = lookup::definitions(outcome, name, None) else {
            continue;
        };
        for definition in definitions {
            let _ = lookup::expanded(&definition.object, &system);
            if let Some(table) = definition.object.def.table() {
                let _ = flinklint::semantic::describe::rows(table, &system);
            }
        }
    }
}

/// Runs the fix loop in `mode` and asserts that it converged: a second run changes nothing, and
/// the fixed text has no more syntax errors than the text before. Returns the outcome of the
/// fixed text and the number of fixes applied.
pub fn fix_converges(outcome: Outcome, settings: &Settings, mode: FixMode) -> (Outcome, usize) {
    let errors_before: usize = outcome.files.iter().map(|f| f.parsed.errors.len()).sum();
    let first = fix::fix(outcome, settings, mode);
    assert_outcome(&first.outcome);
    let errors_after: usize = first
        .outcome
        .files
        .iter()
        .map(|f| f.parsed.errors.len())
        .sum();
    assert!(
        errors_after <= errors_before,
        "{mode:?} fixes raised the syntax errors from {errors_before} to {errors_after}"
    );
    let applied = first.applied;
    let fixed: Vec<String> = first
        .outcome
        .files
        .iter()
        .map(|f| f.source.text.to_string())
        .collect();
    let second = fix::fix(first.outcome, settings, mode);
    if let Some((path, _, after)) = second.changed.first() {
        let i = second
            .outcome
            .files
            .iter()
            .position(|f| f.source.path == *path)
            .unwrap_or(0);
        panic!(
            "{mode:?} fixes did not converge in {} rounds: a second run changed {}\n--- after the first run:\n{}\n--- after the second:\n{}",
            fix::MAX_ROUNDS,
            path.display(),
            fixed.get(i).map_or("", String::as_str),
            after
        );
    }
    (second.outcome, applied)
}

/// The marker that starts another file in a fuzz input: a line `-- file: PATH`. The text before
/// the first marker is a file of its own (`input.sql`), unless it is empty and markers follow.
pub const FILE_MARKER: &str = "-- file: ";

/// Splits an input into files at [`FILE_MARKER`] lines (at most 16 files; a marker without a
/// usable path names the file by its number). A history is a folder of Flyway-style names
/// (`-- file: migrations/V1__init.sql`), so one input can hold a history and the scripts that
/// read it.
pub fn split_files(text: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = vec![("input.sql".to_string(), String::new())];
    for line in text.split_inclusive('\n') {
        if files.len() < 16 {
            if let Some(rest) = line.strip_prefix(FILE_MARKER) {
                let path = rest.trim_end_matches(['\n', '\r']);
                let taken = files.iter().any(|(p, _)| p == path);
                let path = if path.is_empty() || path.len() > 200 || taken || path.contains('\0') {
                    format!("file{}.sql", files.len())
                } else {
                    path.to_string()
                };
                files.push((path, String::new()));
                continue;
            }
        }
        files.last_mut().expect("a file").1.push_str(line);
    }
    if files.len() > 1 && files[0].1.is_empty() {
        files.remove(0);
    }
    files
}

/// The check of `files` (path and text, in run order) for `target` with every rule, its
/// findings rendered in every format and `expand` of what they define.
pub fn check_and_render(files: &[(String, String)], target: Target) -> (Outcome, Figures) {
    let settings = settings(target);
    let outcome = flinklint::check_texts(files, &settings);
    assert_eq!(outcome.files.len(), files.len());
    assert_outcome(&outcome);
    let input_len = files.iter().map(|(p, t)| p.len() + t.len()).sum();
    let largest_output = render_all(&outcome, input_len);
    expand_all(&outcome, &settings);
    let figures = Figures {
        diagnostics: outcome.diagnostics.len(),
        largest_output,
        fixes_applied: 0,
    };
    (outcome, figures)
}

/// The safe fixes, then all fixes, of a checked `outcome`, each converging
/// ([`fix_converges`]); returns the number applied.
pub fn fix_both(outcome: Outcome, target: Target) -> usize {
    let settings = settings(target);
    let (outcome, safe) = fix_converges(outcome, &settings, FixMode::Safe);
    let (_, all) = fix_converges(outcome, &settings, FixMode::All);
    safe + all
}

/// The whole library on `files`: [`check_and_render`], then [`fix_both`].
pub fn check(files: &[(String, String)], target: Target) -> Figures {
    let (outcome, mut figures) = check_and_render(files, target);
    figures.fixes_applied = fix_both(outcome, target);
    figures
}

/// The target an input is checked for: one of [`Target::ALL`], picked by the input's bytes so
/// that a reproduced input is checked for the same one.
pub fn target_for(bytes: &[u8]) -> Target {
    let hash = flinklint::render::fnv1a64(bytes);
    Target::ALL[(hash % Target::ALL.len() as u64) as usize]
}

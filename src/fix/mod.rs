//! Fix stage: the fix loop (apply the edits of diagnostics' fixes to file texts, re-check,
//! repeat until nothing changes; [`fix`]), which the command line and an editor call, and
//! writing fixed texts back without damaging the files ([`write`]: atomically, through symbolic
//! links, keeping hard links, owner, group and permissions).
//!
//! Fixes are applied per file in source order; a fix whose edits overlap an already applied
//! one waits for the next round (the loop re-lints and applies again until a round changes
//! nothing). Whatever the rule, line breaks a fix writes follow the file's (`\r\n` in a file
//! whose lines end so), and nothing is written before a byte-order mark.
//!
//! Every fixed text is parsed again before it is kept. A fix that would add a syntax error
//! the text did not have (errors are compared by kind, message and position, positions mapped
//! back through the edits) is refused and reported with the error it would add
//! ([`Refusal`]); the file's other fixes are still applied. Fixes that keep changing a file
//! round after round are a bug of a rule: the file is left as it was and reported
//! ([`FixReport::not_converged`]), never fixed in a loop.
//!
//! In a document (Markdown, reStructuredText), only fixes whose edits stay inside its SQL
//! blocks apply (or that remove a directive comment); the fixed document is read again through
//! the same extraction.

use crate::config::Settings;
use crate::diagnostics::{Applicability, Diagnostic, Edit};
use crate::files::FileEntry;
use crate::project::{check_loaded, Loaded, Outcome};
use crate::source::{FileId, SourceFile};
use crate::syntax::{SyntaxError, SyntaxErrorKind};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod apply;
pub mod write;

pub use write::{write_atomically, InPlaceReason, Writer, Written};

/// Which fixes to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixMode {
    /// Safe fixes only (`--fix`).
    Safe,
    /// Safe and unsafe fixes (`--fix --unsafe-fixes`).
    All,
}

impl FixMode {
    fn allows(self, a: Applicability) -> bool {
        self == FixMode::All || a == Applicability::Safe
    }
}

/// The result of applying fixes to one file's text.
#[derive(Debug, Clone)]
pub struct FixedText {
    /// The new text.
    pub text: String,
    /// How many fixes were applied.
    pub applied: usize,
}

/// Applies the non-overlapping fixes of `diagnostics` that target `file` to `text`, keeping
/// the text's line breaks and byte-order mark. Returns `None` when no fix applies. Edits of
/// one fix must all lie in `file`. The result is not parsed again: [`fix`] does that.
pub fn apply_to_text(
    text: &str,
    file: FileId,
    diagnostics: &[Diagnostic],
    mode: FixMode,
) -> Option<FixedText> {
    let chosen = select(text, file, diagnostics, mode);
    if chosen.is_empty() {
        return None;
    }
    let (edits, _) = edits_of(&chosen);
    Some(FixedText {
        text: apply::apply(text, &edits).text,
        applied: chosen.len(),
    })
}

/// The fixes of `diagnostics` that `mode` allows and that can be applied together to `text`
/// (edits in bounds, on character boundaries, not overlapping an earlier fix's), in source
/// order.
fn select<'d>(
    text: &str,
    file: FileId,
    diagnostics: &'d [Diagnostic],
    mode: FixMode,
) -> Vec<&'d Diagnostic> {
    let mut fixes: Vec<(&Diagnostic, &[Edit])> = diagnostics
        .iter()
        .filter_map(|d| Some((d, d.fix.as_ref()?)))
        .filter(|(_, f)| {
            mode.allows(f.applicability)
                && !f.edits.is_empty()
                && f.edits.iter().all(|e| e.file == file)
        })
        .map(|(d, f)| (d, f.edits.as_slice()))
        .collect();
    fixes.sort_by_key(|(_, edits)| edits.iter().map(|e| e.span.start).min().unwrap_or(0));
    // The edits taken so far, disjoint: start to end, an insertion counting as one byte wide
    // so that two insertions at one place clash.
    let mut taken: BTreeMap<u32, u32> = BTreeMap::new();
    let reach = |e: &Edit| e.span.end.max(e.span.start.saturating_add(1));
    let mut chosen = Vec::new();
    for (d, edits) in fixes {
        let in_bounds = edits.iter().all(|e| {
            e.span.start <= e.span.end
                && (e.span.end as usize) <= text.len()
                && text.is_char_boundary(e.span.start as usize)
                && text.is_char_boundary(e.span.end as usize)
        });
        if !in_bounds {
            continue;
        }
        let mut own: Vec<(u32, u32)> = edits.iter().map(|e| (e.span.start, reach(e))).collect();
        own.sort_unstable();
        let clash = own.windows(2).any(|w| w[1].0 < w[0].1)
            || own.iter().any(|&(start, end)| {
                taken
                    .range(..end)
                    .next_back()
                    .is_some_and(|(_, &t_end)| t_end > start)
            });
        if clash {
            continue;
        }
        taken.extend(own);
        chosen.push(d);
    }
    chosen
}

/// The edits of `chosen` sorted by position, and for each the index of its fix in `chosen`.
fn edits_of<'d>(chosen: &[&'d Diagnostic]) -> (Vec<&'d Edit>, Vec<usize>) {
    let mut edits: Vec<(&Edit, usize)> = chosen
        .iter()
        .enumerate()
        .flat_map(|(i, d)| {
            d.fix
                .iter()
                .flat_map(move |f| f.edits.iter().map(move |e| (e, i)))
        })
        .collect();
    edits.sort_by_key(|(e, _)| (e.span.start, e.span.end));
    edits.into_iter().unzip()
}

/// Groups the files that have applicable fixes: file id to its diagnostics.
pub fn files_with_fixes(
    diagnostics: &[Diagnostic],
    mode: FixMode,
) -> BTreeMap<FileId, Vec<Diagnostic>> {
    let mut out: BTreeMap<FileId, Vec<Diagnostic>> = BTreeMap::new();
    for d in diagnostics {
        if d.fix.as_ref().is_some_and(|f| mode.allows(f.applicability)) {
            out.entry(d.file).or_default().push(d.clone());
        }
    }
    out
}

/// A unified diff of a file's text before and after fixing, for `check --fix --diff`.
pub fn unified_diff(path: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(
            &if path.starts_with('/') {
                path.to_string()
            } else {
                format!("a/{path}")
            },
            &if path.starts_with('/') {
                path.to_string()
            } else {
                format!("b/{path}")
            },
        )
        .to_string()
}

/// Rounds of fixing before the fixes of a file that still changes are taken for a bug.
pub const MAX_ROUNDS: usize = 10;

/// Fixes of one file tried one by one when their file's fixes together would add a syntax
/// error; fixes past this are refused untried (each try parses the file again).
const MAX_TRIES: usize = 16;

/// A fix that was not applied, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Refusal {
    /// The file, as displayed.
    pub path: String,
    /// Line of the finding (1-based), in the text the fix was tried on.
    pub line: u32,
    /// Column of the finding (1-based, in characters).
    pub column: u32,
    /// The rule.
    pub code: &'static str,
    /// The fix's title.
    pub title: String,
    /// Why it was not applied.
    pub reason: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {} fix not applied ({}): {}",
            self.path, self.line, self.column, self.code, self.title, self.reason
        )
    }
}

/// What fixing did.
pub struct FixReport {
    /// The check of the final texts.
    pub outcome: Outcome,
    /// Changed files: path, text before, text after.
    pub changed: Vec<(PathBuf, Arc<str>, Arc<str>)>,
    /// Fixes applied to each file of `changed`, in the same order.
    pub fixes_per_file: Vec<usize>,
    /// Fixes applied, in all files.
    pub applied: usize,
    /// Fixes not applied because the fixed text would have a syntax error the text did not.
    pub rejected: Vec<Refusal>,
    /// Files whose fixes did not settle within [`MAX_ROUNDS`] rounds (a bug of a rule's fix):
    /// left as they were.
    pub not_converged: Vec<PathBuf>,
}

/// Applies fixes to the reported files of `outcome` until a round changes nothing (see the
/// [module documentation](self)), re-checking the fixed texts in memory after each round.
/// Nothing is written: see [`Writer`].
pub fn fix(outcome: Outcome, settings: &Settings, mode: FixMode) -> FixReport {
    fix_with(outcome, mode, |loaded| check_loaded(loaded, settings))
}

/// [`fix`], with `check` to check the fixed files again.
fn fix_with(
    outcome: Outcome,
    mode: FixMode,
    mut check: impl FnMut(Vec<Loaded>) -> Outcome,
) -> FixReport {
    let original: Vec<Arc<str>> = outcome
        .files
        .iter()
        .map(|f| f.source.text.clone())
        .collect();
    let mut outcome = outcome;
    let mut per_file = vec![0usize; original.len()];
    let mut rejected = Vec::new();
    let mut reported: HashSet<Refusal> = HashSet::new();
    let mut settled = false;
    for _ in 0..MAX_ROUNDS {
        let (fixed, refused) = fix_round(&outcome, mode);
        for r in refused {
            if reported.insert(r.clone()) {
                rejected.push(r);
            }
        }
        if fixed.is_empty() {
            settled = true;
            break;
        }
        let mut loaded = loaded_of(&outcome);
        for (file, text, n) in fixed {
            let i = file.0 as usize;
            loaded[i].source = SourceFile::new(loaded[i].source.path.clone(), text);
            per_file[i] += n;
        }
        outcome = check(loaded);
    }
    let mut not_converged = Vec::new();
    if !settled {
        // The files another round would still change: their fixes undo or repeat themselves.
        let (fixed, _) = fix_round(&outcome, mode);
        if !fixed.is_empty() {
            let mut loaded = loaded_of(&outcome);
            for (file, _, _) in fixed {
                let i = file.0 as usize;
                loaded[i].source =
                    SourceFile::new(loaded[i].source.path.clone(), original[i].to_string());
                per_file[i] = 0;
                not_converged.push(loaded[i].source.path.clone());
            }
            outcome = check(loaded);
        }
    }
    let mut changed = Vec::new();
    let mut fixes_per_file = Vec::new();
    for ((f, before), n) in outcome.files.iter().zip(original).zip(&per_file) {
        if f.source.text != before {
            changed.push((f.source.path.clone(), before, f.source.text.clone()));
            fixes_per_file.push(*n);
        }
    }
    FixReport {
        outcome,
        changed,
        applied: fixes_per_file.iter().sum(),
        fixes_per_file,
        rejected,
        not_converged,
    }
}

impl FixReport {
    /// The report once the files `paths` of [`FixReport::changed`] keep the text they had
    /// (their fixes could not be written): the project is checked again with those texts.
    pub fn revert(self, paths: &[PathBuf], settings: &Settings) -> FixReport {
        if paths.is_empty() {
            return self;
        }
        let mut loaded = loaded_of(&self.outcome);
        let mut changed = Vec::new();
        let mut fixes_per_file = Vec::new();
        for (c, n) in self.changed.into_iter().zip(self.fixes_per_file) {
            if !paths.contains(&c.0) {
                changed.push(c);
                fixes_per_file.push(n);
                continue;
            }
            if let Some(l) = loaded.iter_mut().find(|l| l.source.path == c.0) {
                l.source = SourceFile::new(c.0.clone(), c.1.to_string());
            }
        }
        FixReport {
            outcome: check_loaded(loaded, settings),
            changed,
            applied: fixes_per_file.iter().sum(),
            fixes_per_file,
            rejected: self.rejected,
            not_converged: self.not_converged,
        }
    }
}

/// The files of an outcome, to check again.
fn loaded_of(outcome: &Outcome) -> Vec<Loaded> {
    outcome
        .files
        .iter()
        .map(|f| Loaded {
            source: f.source.clone(),
            load_error: f.load_error.clone(),
            report: f.report,
            base_of: f.base_of,
        })
        .collect()
}

/// One round: the fixed text of each file that changes (with its number of fixes), and the
/// fixes refused.
#[allow(clippy::type_complexity)]
fn fix_round(outcome: &Outcome, mode: FixMode) -> (Vec<(FileId, String, usize)>, Vec<Refusal>) {
    let mut fixed = Vec::new();
    let mut refused = Vec::new();
    for (file, diagnostics) in &files_with_fixes(&outcome.diagnostics, mode) {
        let Some(entry) = outcome.files.get(file.0 as usize) else {
            continue;
        };
        if !entry.report || entry.load_error.is_some() {
            continue;
        }
        if let Some((text, n)) = fix_file(entry, diagnostics, mode, &mut refused) {
            if text != *entry.source.text {
                fixed.push((*file, text, n));
            }
        }
    }
    (fixed, refused)
}

/// The text of `entry` with the fixes of `diagnostics` that add no syntax error, and their
/// number; `None` when none applies. Refused fixes go to `refused`.
fn fix_file(
    entry: &FileEntry,
    diagnostics: &[Diagnostic],
    mode: FixMode,
    refused: &mut Vec<Refusal>,
) -> Option<(String, usize)> {
    let text: &str = &entry.source.text;
    let mut chosen = select(text, entry.id, diagnostics, mode);
    // In a document, only fixes that edit its SQL blocks (or remove a directive comment).
    if let Some(embedded) = &entry.parsed.embedded {
        chosen.retain(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.edits.iter().all(|e| embedded.can_edit(e.span)))
        });
    }
    if chosen.is_empty() {
        return None;
    }
    let old = &entry.parsed.errors;
    let all: Vec<usize> = (0..chosen.len()).collect();
    let first = match attempt(&entry.source.path, text, old, &chosen, &all) {
        Ok(text) => return Some((text, chosen.len())),
        Err(failure) => failure,
    };
    // Which fixes are suspect: those that edit a statement where a new error appears (all of
    // them when none does, e.g. when a fix moved a statement's boundary).
    let statements = &first.parsed.script.statements;
    let region_of = |offset: u32| {
        let i = statements
            .partition_point(|s| s.span.start <= offset)
            .saturating_sub(1);
        let start = if i == 0 { 0 } else { statements[i].span.start };
        let end = statements
            .get(i + 1)
            .map_or(u32::MAX, |next| next.span.start);
        (start, end)
    };
    let bad: Vec<(u32, u32)> = first
        .new_errors
        .iter()
        .map(|e| region_of(first.parsed.errors[*e].span.start))
        .collect();
    let mut suspect = vec![false; chosen.len()];
    for m in &first.edited.moves {
        if bad
            .iter()
            .any(|&(start, end)| m.new.start <= end && start <= m.new.end)
        {
            suspect[first.owners[m.index]] = true;
        }
    }
    if !suspect.contains(&true) {
        suspect.fill(true);
    }
    let mut accepted: Vec<usize> = (0..chosen.len()).filter(|&i| !suspect[i]).collect();
    let mut last_ok: Option<String> = None;
    let mut tries = 0;
    for i in (0..chosen.len()).filter(|&i| suspect[i]) {
        if tries == MAX_TRIES {
            refused.push(refusal(
                entry,
                chosen[i],
                "not tried: too many fixes in statements where the fixes together would add a \
                 syntax error"
                    .to_string(),
            ));
            continue;
        }
        tries += 1;
        let mut with = accepted.clone();
        with.push(i);
        with.sort_unstable();
        match attempt(&entry.source.path, text, old, &chosen, &with) {
            Ok(fixed) => {
                accepted = with;
                last_ok = Some(fixed);
            }
            Err(failure) => refused.push(refusal(entry, chosen[i], failure.reason(entry))),
        }
    }
    if accepted.is_empty() {
        return None;
    }
    let fixed = match last_ok {
        Some(fixed) => fixed,
        None => match attempt(&entry.source.path, text, old, &chosen, &accepted) {
            Ok(fixed) => fixed,
            Err(failure) => {
                let reason = failure.reason(entry);
                for &i in &accepted {
                    refused.push(refusal(entry, chosen[i], reason.clone()));
                }
                return None;
            }
        },
    };
    Some((fixed, accepted.len()))
}

/// A set of fixes whose text has syntax errors its text did not have.
struct Failure {
    edited: apply::Edited,
    /// For each edit of `edited`, the index of its fix.
    owners: Vec<usize>,
    parsed: crate::syntax::Parsed,
    /// Indexes in `parsed.errors` of the new errors.
    new_errors: Vec<usize>,
}

impl Failure {
    /// The first new error, where it would be in the text the fix was tried on.
    fn reason(&self, entry: &FileEntry) -> String {
        let Some(error) = self.new_errors.first().map(|&i| &self.parsed.errors[i]) else {
            return "it would add a syntax error".to_string();
        };
        let at = entry
            .source
            .line_col(self.edited.old_offset(error.span.start));
        format!(
            "it would add a syntax error at {}:{}: {}",
            at.line, at.column, error.message
        )
    }
}

/// Applies the fixes `which` of `chosen` to `text`: the new text, or why not.
fn attempt(
    path: &Path,
    text: &str,
    old: &[SyntaxError],
    chosen: &[&Diagnostic],
    which: &[usize],
) -> Result<String, Box<Failure>> {
    let subset: Vec<&Diagnostic> = which.iter().map(|&i| chosen[i]).collect();
    let (edits, owners) = edits_of(&subset);
    let owners: Vec<usize> = owners.into_iter().map(|o| which[o]).collect();
    let edited = apply::apply(text, &edits);
    // Read as the run reads the file (a document's SQL blocks).
    let parsed =
        crate::files::parse_syntax(&SourceFile::new(path.to_path_buf(), edited.text.clone()));
    let new_errors = added_errors(old, &parsed.errors, &edited);
    if new_errors.is_empty() {
        return Ok(edited.text);
    }
    Err(Box::new(Failure {
        edited,
        owners,
        parsed,
        new_errors,
    }))
}

/// The indexes of the errors of the edited text that the old text did not have: same kind,
/// message and position (mapped back through the edits). Errors past the old text's limit of
/// reported errors were not known and count as old.
fn added_errors(old: &[SyntaxError], new: &[SyntaxError], edited: &apply::Edited) -> Vec<usize> {
    let limit = old
        .iter()
        .find(|e| e.kind == SyntaxErrorKind::TooManyErrors)
        .map(|e| e.span.start);
    let known: HashSet<(std::mem::Discriminant<SyntaxErrorKind>, u32, &str)> = old
        .iter()
        .map(|e| {
            (
                std::mem::discriminant(&e.kind),
                e.span.start,
                e.message.as_str(),
            )
        })
        .collect();
    new.iter()
        .enumerate()
        .filter(|(_, e)| {
            let at = edited.old_offset(e.span.start);
            limit.is_none_or(|l| at < l)
                && !known.contains(&(std::mem::discriminant(&e.kind), at, e.message.as_str()))
        })
        .map(|(i, _)| i)
        .collect()
}

/// A refusal of `d`'s fix in `entry`.
fn refusal(entry: &FileEntry, d: &Diagnostic, reason: String) -> Refusal {
    let at = entry.source.line_col(d.span.start);
    Refusal {
        path: entry.source.display_path(),
        line: at.line,
        column: at.column,
        code: d.code,
        title: d.fix.as_ref().map(|f| f.title.clone()).unwrap_or_default(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{Fix, Severity};
    use crate::project::check_texts;
    use crate::source::Span;

    /// A finding of no rule with a safe fix replacing `start..end` with `replacement`.
    fn finding(start: u32, end: u32, replacement: &str) -> Diagnostic {
        let span = Span { start, end };
        Diagnostic {
            code: "XX999",
            name: "test",
            severity: Severity::Error,
            file: FileId(0),
            span,
            message: "test".to_string(),
            label: None,
            help: None,
            flink_message: None,
            related: Vec::new(),
            fix: Some(Fix {
                title: format!("write {replacement:?}"),
                applicability: Applicability::Safe,
                edits: vec![Edit {
                    file: FileId(0),
                    span,
                    replacement: replacement.to_string(),
                }],
            }),
            notes: Vec::new(),
        }
    }

    fn outcome(text: &str, findings: Vec<Diagnostic>) -> Outcome {
        let mut o = check_texts(
            &[("a.sql".to_string(), text.to_string())],
            &Settings::default(),
        );
        o.diagnostics = findings;
        o
    }

    #[test]
    fn a_fix_that_adds_a_syntax_error_is_refused_and_the_others_applied() {
        let settings = Settings::default();
        let text = "SELECT 1;\nSELECT 2;\n";
        // `SELEC 1` does not parse; `3` for `1` is fine.
        let o = outcome(text, vec![finding(0, 6, "SELEC"), finding(7, 8, "3")]);
        let report = fix_with(o, FixMode::Safe, |l| check_loaded(l, &settings));
        assert_eq!(report.applied, 1);
        assert_eq!(&*report.changed[0].2, "SELECT 3;\nSELECT 2;\n");
        assert_eq!(report.rejected.len(), 1, "{:?}", report.rejected);
        let r = &report.rejected[0];
        assert_eq!((r.code, r.line, r.column), ("XX999", 1, 1));
        assert!(r.reason.contains("syntax error at 1:"), "{}", r.reason);
    }

    #[test]
    fn errors_are_compared_not_counted() {
        let settings = Settings::default();
        // One error before, one after, at another place: still a new error.
        let text = "SELECT (1;\n";
        let before = crate::syntax::parse(text).errors.len();
        let o = outcome(text, vec![finding(7, 9, "1)")]);
        let after = crate::syntax::parse("SELECT 1);\n").errors.len();
        assert_eq!(before, after);
        let report = fix_with(o, FixMode::Safe, |l| check_loaded(l, &settings));
        assert!(report.changed.is_empty());
        assert_eq!(report.rejected.len(), 1);
    }

    #[test]
    fn fixes_that_never_settle_are_reported_and_undone() {
        let settings = Settings::default();
        let text = "SELECT 1;\n";
        let o = outcome(text, vec![finding(0, 0, "-- x\n")]);
        let mut checks = 0;
        let report = fix_with(o, FixMode::Safe, |l| {
            checks += 1;
            let mut o = check_loaded(l, &settings);
            // Each round's text gets the same fix again: it never settles.
            o.diagnostics = vec![finding(0, 0, "-- x\n")];
            o
        });
        assert_eq!(report.not_converged, vec![PathBuf::from("a.sql")]);
        assert!(report.changed.is_empty());
        assert_eq!(report.applied, 0);
        assert_eq!(&*report.outcome.files[0].source.text, text);
        assert_eq!(checks, MAX_ROUNDS + 1);
    }

    #[test]
    fn a_round_that_changes_nothing_ends_the_loop() {
        let settings = Settings::default();
        let o = outcome("SELECT 1;\n", vec![finding(7, 8, "2")]);
        let mut checks = 0;
        let report = fix_with(o, FixMode::Safe, |l| {
            checks += 1;
            let mut o = check_loaded(l, &settings);
            // The fix is offered again, but its text is already there.
            o.diagnostics = vec![finding(7, 8, "2")];
            o
        });
        assert_eq!(checks, 1);
        assert!(report.not_converged.is_empty());
        assert_eq!(&*report.changed[0].2, "SELECT 2;\n");
    }
}

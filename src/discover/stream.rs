//! Large projects checked in chunks, so that memory stays small whatever the project's size.
//!
//! A whole-project run keeps every file's syntax tree, tokens and catalog until the end when it
//! checks all files at once: about 20 KB a file. [`check_chunked`] instead sums every file up
//! first ([`crate::semantic::deploy::context::Summary`], from the context cache when its
//! entries are fresh; syntax trees dropped at once), then checks the files chunk by chunk: each
//! chunk is a run of its own over its files and the context files they need
//! ([`crate::semantic::deploy::context::Graph`]: the histories and scripts whose objects they
//! can see), exactly as a run on a few files of the project reads its context. A chunk's
//! findings are kept with the files they point into; every other file is dropped as soon as
//! its chunk is done, but for its path. The report is that of a run over all files at once:
//! same findings, same order.
//!
//! Files are grouped by the context they need (scripts that read the same histories go
//! together), so that each context file is read by few chunks.

use super::cache::{histories_of, same_histories, summarize_files, Ahead};
use super::read::{read_files_after, read_some};
use super::Input;
use crate::config::{CatalogMode, Settings};
use crate::diagnostics::Diagnostic;
use crate::dialect::{FileDialect, Reason};
use crate::files::FileEntry;
use crate::project::{pool, Outcome, Passes};
use crate::semantic::deploy::context::Graph;
use crate::semantic::history::{History, Plan};
use crate::semantic::problems::Problem;
use crate::source::{FileId, SourceFile, Span};
use compact_str::CompactString;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How many files a chunk reports on, by default: with its context, a chunk takes about
/// 20 KB a file while it runs.
pub const CHUNK_FILES: usize = 2000;

/// Checks `inputs` (every one reported unless `external-tables` lists it) with the `context`
/// files, in chunks of about `chunk` reported files, summing the files up with the cache in
/// `cache` (`None`: without the cache), whose index `ahead` holds when it was read already
/// ([`super::cache::read_ahead`]). The outcome's files have their text when a finding
/// points into them (else their path alone), their syntax trees only with `trees`, and there
/// is no semantic model. `None` when the run cannot be split: fewer files than a
/// chunk, standard input, `catalog: persistent` (every script sees every earlier one),
/// `external-tables`, or a grouping into histories that a chunk would change; the caller then
/// checks all files at once.
pub fn check_chunked(
    inputs: &[Input],
    context: &[Input],
    settings: &Settings,
    cache: Option<&Path>,
    chunk: usize,
    trees: bool,
    ahead: Option<Ahead>,
) -> Option<Outcome> {
    let chunk = chunk.max(1);
    if inputs.len() + context.len() <= chunk
        || settings.catalog == CatalogMode::Persistent
        || !settings.external_tables.is_empty()
        || inputs.iter().any(|i| matches!(i, Input::Stdin(_)))
    {
        return None;
    }
    pool().install(|| run(inputs, context, settings, cache, chunk, trees, ahead))
}

fn run(
    inputs: &[Input],
    context: &[Input],
    settings: &Settings,
    cache: Option<&Path>,
    chunk: usize,
    trees: bool,
    ahead: Option<Ahead>,
) -> Option<Outcome> {
    let start = Instant::now();
    let files: Vec<&Input> = inputs.iter().chain(context).collect();
    let reported: Vec<bool> = (0..files.len())
        .map(|i| i < inputs.len() && !settings.is_external(files[i].path()))
        .collect();
    // The grouping into histories needs only the paths: made while the files are summed up.
    let (summed, (plan, history)) = rayon::join(
        || summarize_files(&files, cache, ahead),
        || histories_of(&files, settings),
    );
    let summed_at = start.elapsed();
    let graph = Graph::new(&summed.summaries, &history, summed.names.len());
    let chunks = plan_chunks(&graph, &reported, chunk)?;
    drop(graph);
    drop(summed);
    // Every chunk must group its files into histories as the whole project does.
    let same = chunks.par_iter().all(|c| {
        let kept: Vec<usize> = c.iter().map(|&(i, _)| i).collect();
        same_histories(&files, &kept, &plan, &history, settings)
    });
    if !same {
        return None;
    }
    let planned_at = start.elapsed();
    let mut out = Merged::new(&files, &reported);
    let mut read_parse = Duration::ZERO;
    let inputs_of = |c: &Vec<(usize, bool)>| -> Vec<(&Input, bool)> {
        c.iter()
            .map(|&(i, member)| (files[i], member && reported[i]))
            .collect()
    };
    // Pipelined: the first files of the next chunk are read and parsed while the last chunk
    // is analysed and merged, so that both cores stay busy through each chunk's serial steps
    // (its sessions' tails, the merge, freeing its syntax trees). Half a chunk at most: the
    // syntax trees of a chunk and a half are held at once, not of two.
    let ahead_files = chunk.div_ceil(2);
    let mut ahead: Vec<FileEntry> = Vec::new();
    for (k, c) in chunks.iter().enumerate() {
        let all = inputs_of(c);
        let current = read_files_after(
            &all,
            std::mem::take(&mut ahead),
            all.len(),
            Vec::new(),
            None,
            settings,
        );
        let (took, following) = rayon::join(
            || {
                let outcome = current.analyse(settings, Passes::default());
                let took = outcome.timings.first().map(|t| t.1);
                let ids: Vec<usize> = c.iter().map(|&(i, _)| i).collect();
                out.add(&ids, outcome);
                took
            },
            || match chunks.get(k + 1) {
                Some(next) => {
                    let all = inputs_of(next);
                    read_some(&all, 0..ahead_files.min(all.len()), None)
                }
                None => Vec::new(),
            },
        );
        read_parse += took.unwrap_or_default();
        ahead = following;
    }
    let checked_at = start.elapsed();
    let mut outcome = out.finish(trees);
    outcome.timings = vec![
        (
            "summaries (cache or parse), beside the histories",
            summed_at,
        ),
        ("chunks planned", planned_at - summed_at),
        (
            "read and parse in chunks (but what was read ahead)",
            read_parse,
        ),
        ("chunks checked", checked_at - planned_at),
        ("merged", start.elapsed() - checked_at),
    ];
    Some(outcome)
}

/// The chunks: each a list of files (indices into the project's files, in their order, with
/// whether the chunk reports on them), the reported ones and the context they need. `None`
/// when one file's context alone is larger than a few chunks (nothing to gain).
///
/// Files go by the connected components of the graph ([`Graph::components`]): a component
/// holds all the context its units need, so a chunk of whole components reads each file once
/// (with the units the project's global files reach, which every chunk reads). A component
/// larger than a few chunks is split unit by unit, each with the units it reaches
/// ([`crate::semantic::deploy::context::Walker::closure`]), units that need the same context
/// together. Linear in the files but for those large components.
fn plan_chunks(
    graph: &Graph<'_>,
    reported: &[bool],
    chunk: usize,
) -> Option<Vec<Vec<(usize, bool)>>> {
    let limit = chunk.saturating_mul(4);
    let mut walker = graph.walker();
    let units = graph.units.len();
    let mut unit_reported = vec![false; units];
    for (i, &r) in reported.iter().enumerate() {
        if r {
            unit_reported[graph.unit_of[i]] = true;
        }
    }
    // What every chunk reads: the units the global files reach.
    let global = match graph.global.is_empty() {
        true => Vec::new(),
        false => walker.closure(&graph.global, limit)?,
    };
    let component = graph.components();
    let count = component.iter().max().map_or(0, |&c| c as usize + 1);
    let mut start = vec![0usize; count + 1];
    for &c in &component {
        start[c as usize + 1] += 1;
    }
    for k in 0..count {
        start[k + 1] += start[k];
    }
    let mut by_component = vec![0usize; units];
    let mut at = start.clone();
    for (u, &c) in component.iter().enumerate() {
        by_component[at[c as usize]] = u;
        at[c as usize] += 1;
    }
    // Each job: the units it reports on and the units it needs besides them.
    let mut jobs: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    // The units of large components, each with the units it needs besides itself.
    let mut todo: Vec<(Vec<usize>, usize)> = Vec::new();
    let mut known: Vec<Option<Option<Vec<usize>>>> = vec![None; units];
    for k in 0..count {
        let members = &by_component[start[k]..start[k + 1]];
        if !members.iter().any(|&u| unit_reported[u]) {
            continue;
        }
        let files: usize = members.iter().map(|&u| graph.units[u].len()).sum();
        if files <= limit {
            let (reported_units, context): (Vec<usize>, Vec<usize>) =
                members.iter().partition(|&&u| unit_reported[u]);
            jobs.push((reported_units, context));
            continue;
        }
        // The closure of each history of the component, walked once: the scripts that read
        // a history reach it whole (walking it again from each of them made the plan
        // quadratic in a history's size).
        for &u in members.iter().filter(|&&u| graph.is_history(u)) {
            known[u] = Some(walker.closure(&[u], limit));
        }
        for &u in members.iter().filter(|&&u| unit_reported[u]) {
            let mut seeds = vec![u];
            seeds.extend(&graph.global);
            let mut needs = walker.closure_known(&seeds, limit, &known)?;
            needs.retain(|&v| v != u);
            needs.sort_unstable();
            todo.push((needs, u));
        }
    }
    // Units that need the same context go together: numbered by their context (in the order
    // first seen), sorted by that number.
    let mut contexts: HashMap<&[usize], usize> = HashMap::new();
    let mut order: Vec<(usize, usize)> = Vec::with_capacity(todo.len());
    for (k, (needs, _)) in todo.iter().enumerate() {
        let next = contexts.len();
        order.push((*contexts.entry(needs.as_slice()).or_insert(next), k));
    }
    drop(contexts);
    order.sort_unstable();
    let mut slots: Vec<Option<(Vec<usize>, usize)>> = todo.into_iter().map(Some).collect();
    jobs.extend(
        order
            .into_iter()
            .filter_map(|(_, k)| slots[k].take())
            .map(|(needs, u)| (vec![u], needs)),
    );
    let mut chunks = Vec::new();
    let mut members: Vec<usize> = Vec::new();
    let mut context: Vec<usize> = Vec::new();
    let mut size = 0;
    let mut flush = |members: &mut Vec<usize>, context: &mut Vec<usize>, size: &mut usize| {
        if members.is_empty() {
            return;
        }
        let mut units: Vec<(usize, bool)> = members
            .drain(..)
            .map(|u| (u, true))
            .chain(context.drain(..).map(|u| (u, false)))
            .chain(global.iter().map(|&u| (u, false)))
            .collect();
        // A unit both reported and context is reported (sorted first).
        units.sort_unstable_by_key(|&(u, member)| (u, !member));
        units.dedup_by_key(|&mut (u, _)| u);
        let mut files: Vec<(usize, bool)> = units
            .iter()
            .flat_map(|&(u, member)| graph.units[u].iter().map(move |&i| (i, member)))
            .collect();
        files.sort_unstable();
        chunks.push(files);
        *size = 0;
    };
    for (reported_units, needs) in jobs {
        size += reported_units
            .iter()
            .map(|&u| graph.units[u].len())
            .sum::<usize>();
        members.extend(reported_units);
        context.extend(needs);
        if size >= chunk {
            flush(&mut members, &mut context, &mut size);
        }
    }
    flush(&mut members, &mut context, &mut size);
    Some(chunks)
}

/// The findings of the chunks, gathered as one run's.
struct Merged<'i> {
    /// Every file's input, and whether it is reported.
    inputs: &'i [&'i Input],
    reported: &'i [bool],
    /// The files findings point into: their text (for lines, columns and excerpts), dialects
    /// and load error; no syntax tree.
    kept: HashMap<usize, Kept>,
    diagnostics: Vec<Diagnostic>,
    /// The histories as the chunks ran them (numbered folders that are scripts left out).
    histories: Vec<History>,
    /// The option problems of tables found at a statement that uses the table, in any chunk,
    /// by subject ([`crate::semantic::options::OptionIssue::subject`]).
    used: HashSet<Subject>,
    /// The option problems of tables that nothing in their chunk uses, with the code of the
    /// rule that reports them: dropped at the end when another chunk uses the table (as
    /// `keep_unused_option_problems_once` drops them in a run over all files).
    unused: Vec<(Subject, &'static str)>,
    /// The names created with different definitions (found once, at the first use in a
    /// reported file): by name and using files, where each chunk found it, and the rule's
    /// code. Each chunk finds it at its own first reported use; the first of all is kept.
    conflicts: Vec<(Conflict, FileId, Span, &'static str)>,
}

/// A name created with different definitions, and the files that use it.
type Conflict = (crate::semantic::names::QualifiedName, Vec<FileId>);

/// Where an option problem is anchored, and its key.
type Subject = (FileId, Span, CompactString);

/// The subject of an option problem of a table, and whether a statement that uses the table
/// found it.
fn option_subject(problem: &Problem) -> Option<(FileId, Span, CompactString, bool)> {
    match problem {
        Problem::ConnectorOption { issue, used, .. } => {
            let (origin, key) = issue.subject();
            Some((
                origin.file,
                origin.span,
                CompactString::from(key),
                used.is_some(),
            ))
        }
        _ => None,
    }
}

/// What is kept of a file that a finding points into.
type Kept = (SourceFile, Arc<FileDialect>, Option<String>);

impl<'i> Merged<'i> {
    fn new(inputs: &'i [&'i Input], reported: &'i [bool]) -> Merged<'i> {
        Merged {
            inputs,
            reported,
            kept: HashMap::new(),
            diagnostics: Vec::new(),
            histories: Vec::new(),
            used: HashSet::new(),
            unused: Vec::new(),
            conflicts: Vec::new(),
        }
    }

    /// Takes a chunk's outcome: `chunk[local id]` is the file's index in the project.
    fn add(&mut self, chunk: &[usize], outcome: Outcome) {
        let global = |id: FileId| FileId(chunk[id.0 as usize] as u32);
        let Outcome {
            files,
            mut diagnostics,
            model,
            ..
        } = outcome;
        for h in &model.plan.histories {
            if h.files.first().is_some_and(|f| files[f.0 as usize].report) {
                let mut h = h.clone();
                h.files.iter_mut().for_each(|f| *f = global(*f));
                self.histories.push(h);
            }
        }
        for f in &model.found {
            if let Problem::ConflictingDefinitions {
                name, uses, span, ..
            } = &f.problem
            {
                let reported = files.get(f.file.0 as usize).is_some_and(|e| e.report);
                if let (true, Some(rule)) = (reported, crate::rules::consumer(&f.problem)) {
                    let mut users: Vec<FileId> = uses.iter().map(|u| global(u.file)).collect();
                    users.sort_unstable();
                    users.dedup();
                    let code = crate::rules::RULES[rule].meta.code;
                    self.conflicts
                        .push(((name.clone(), users), global(f.file), *span, code));
                }
                continue;
            }
            let Some((file, span, key, used)) = option_subject(&f.problem) else {
                continue;
            };
            let file_in_run = global(file);
            if used {
                self.used.insert((file_in_run, span, key));
            } else if files.get(file.0 as usize).is_some_and(|e| e.report) {
                if let Some(rule) = crate::rules::consumer(&f.problem) {
                    let code = crate::rules::RULES[rule].meta.code;
                    self.unused.push(((file_in_run, span, key), code));
                }
            }
        }
        drop(model);
        let mut pointed = vec![false; files.len()];
        for d in &mut diagnostics {
            pointed[d.file.0 as usize] = true;
            d.file = global(d.file);
            for r in &mut d.related {
                pointed[r.file.0 as usize] = true;
                r.file = global(r.file);
            }
            if let Some(fix) = &mut d.fix {
                for e in &mut fix.edits {
                    pointed[e.file.0 as usize] = true;
                    e.file = global(e.file);
                }
            }
        }
        // The chunk's syntax trees are most of what it allocated: freed on every core (one
        // thread took as long to free them as to merge everything else).
        let mut trees = Vec::with_capacity(files.len());
        let mut rest = Vec::with_capacity(files.len());
        for (local, entry) in files.into_iter().enumerate() {
            if pointed[local] {
                // Its text (for lines, columns and excerpts), not its syntax tree.
                let FileEntry {
                    source,
                    parsed,
                    dialect,
                    load_error,
                    ..
                } = entry;
                trees.push(parsed);
                self.kept
                    .entry(chunk[local])
                    .or_insert((source, dialect, load_error));
            } else {
                rest.push(entry);
            }
        }
        rayon::join(
            || rest.into_par_iter().for_each(drop),
            || trees.into_par_iter().for_each(drop),
        );
        self.diagnostics.append(&mut diagnostics);
    }

    /// The outcome; with `trees`, the files findings point into parsed again (for baselines'
    /// fingerprints, which read the statements' tokens).
    fn finish(mut self, trees: bool) -> Outcome {
        let parsed = Arc::new(crate::syntax::parse(""));
        let dialect = Arc::new(FileDialect::flink(Reason::Detected));
        let files: Vec<FileEntry> = (0..self.inputs.len())
            .map(|i| {
                let (source, dialect, load_error) = self.kept.remove(&i).unwrap_or_else(|| {
                    (
                        SourceFile::new(self.inputs[i].path(), ""),
                        dialect.clone(),
                        None,
                    )
                });
                let whole = !source.text.is_empty();
                FileEntry {
                    id: FileId(i as u32),
                    parsed: match trees && whole {
                        true => crate::files::parse(&source).0,
                        false => parsed.clone(),
                    },
                    source,
                    dialect,
                    load_error,
                    report: self.reported[i],
                    base_of: None,
                }
            })
            .collect();
        let plan = Plan {
            histories: self.histories,
            ..Plan::default()
        };
        // Only the files findings are in are ranked (among themselves, as among all files).
        let mut pointed = vec![false; files.len()];
        for d in &self.diagnostics {
            if let Some(p) = pointed.get_mut(d.file.0 as usize) {
                *p = true;
            }
        }
        let ranks = crate::semantic::history::report_ranks_among(&files, &plan, Some(&pointed));
        drop(pointed);
        let mut diagnostics = self.diagnostics;
        // Findings a run over all files does not make: the problems of unused tables that
        // another chunk's statements use, and a name's conflicting definitions found again.
        let mut used_elsewhere: HashMap<(FileId, Span, &'static str), usize> = HashMap::new();
        for (subject, code) in &self.unused {
            if self.used.contains(subject) {
                *used_elsewhere
                    .entry((subject.0, subject.1, *code))
                    .or_default() += 1;
            }
        }
        // A name defined differently, found by several chunks: kept at its first reported use.
        let mut first: HashMap<&Conflict, FileId> = HashMap::new();
        for (key, file, _, _) in &self.conflicts {
            let at = first.entry(key).or_insert(*file);
            *at = (*at).min(*file);
        }
        for (key, file, span, code) in &self.conflicts {
            if first.get(key).is_some_and(|f| f != file) {
                *used_elsewhere.entry((*file, *span, *code)).or_default() += 1;
            }
        }
        if !used_elsewhere.is_empty() {
            diagnostics.retain(
                |d| match used_elsewhere.get_mut(&(d.file, d.span, d.code)) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        false
                    }
                    _ => true,
                },
            );
        }
        crate::diagnostics::sort_ranked(&mut diagnostics, &ranks);
        Outcome {
            files,
            diagnostics,
            model: crate::semantic::Model::default(),
            timings: Vec::new(),
        }
    }
}

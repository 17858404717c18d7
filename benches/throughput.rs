//! Lex and parse throughput on one core, in MB/s.
//!
//! `cargo bench --bench throughput -- DIR` reads every `.sql` file under DIR (default: the
//! generated corpus in `bench-out/corpus`, see `scripts/bench.py`), then lexes, and lexes and
//! parses, all of them on the current thread, best of several rounds; then runs the whole
//! check (parse, catalog of sessions and histories, rules) on one thread, and prints the share
//! of that time spent after parsing (issue 3's budget: the catalog adds at most 20%).
//!
//! `FLINKLINT_BENCH_PROFILE_CATALOG=N` runs only the catalog pass, N times, for a profiler
//! (`perf record`); `FLINKLINT_BENCH_PROFILE_PARSE=N` only lex + parse of every file, and
//! `FLINKLINT_BENCH_PROFILE_LEX=N` only the lexer, N times (for `valgrind --tool=callgrind`:
//! instructions per byte are the figure that stays stable on a loaded machine).
//!
//! `cargo bench --bench throughput -- --catalog-share RUNS DIR` instead measures what the
//! catalog pass adds to a whole check of DIR as the command line runs it (discovery, reading,
//! parsing on all cores, the rules, the JSON report): RUNS runs with it and RUNS without it
//! (the library's `Passes { catalog: false }`), interleaved, medians; and RUNS runs with the
//! catalog pass but without query validation (`Settings::validate_queries` off), for what the
//! query validator adds; RUNS runs without the connector option checks
//! (`Settings::check_options` off, the CO rules ignored), for what they add; and RUNS runs
//! without planning the pipelines (`Settings::plan_pipelines` off), for what the plan pass and
//! its streaming checks add.

use std::path::PathBuf;

/// The binary's allocator, so that the figures match `flinklint check`.
#[path = "../src/alloc.rs"]
#[allow(unsafe_code, dead_code)]
mod alloc;

#[global_allocator]
static GLOBAL: alloc::Mimalloc = alloc::Mimalloc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--catalog-share") {
        let runs = args.get(i + 1).and_then(|r| r.parse().ok()).unwrap_or(25);
        let dir = args
            .get(i + 2)
            .map_or_else(|| PathBuf::from("bench-out/corpus"), PathBuf::from);
        catalog_share(&dir, runs);
        return;
    }
    // Everything on one thread, flinklint's own pool included, so that the figures compare.
    std::env::set_var("RAYON_NUM_THREADS", "1");
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("bench-out/corpus"));
    let mut texts = Vec::new();
    let mut named = Vec::new();
    for entry in walkdir::WalkDir::new(&dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(|e| e.ok())
    {
        if entry.path().extension().is_some_and(|e| e == "sql") {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                let name = entry.path().strip_prefix(&dir).unwrap_or(entry.path());
                named.push((name.to_string_lossy().to_string(), text.clone()));
                texts.push(text);
            }
        }
    }
    if texts.is_empty() {
        eprintln!(
            "no .sql files under {} (run scripts/bench.py first)",
            dir.display()
        );
        return;
    }
    if let Ok(n) = std::env::var("FLINKLINT_BENCH_PROFILE_PARSE") {
        // For a profiler (`valgrind --tool=callgrind`): lex and parse every file N times,
        // nothing else measured.
        for _ in 0..n.parse::<usize>().unwrap_or(10) {
            for t in &texts {
                drop(std::hint::black_box(flinklint::syntax::parse(t)));
            }
        }
        return;
    }
    if let Ok(n) = std::env::var("FLINKLINT_BENCH_PROFILE_LEX") {
        // For a profiler: lex every file N times, nothing else measured.
        for _ in 0..n.parse::<usize>().unwrap_or(10) {
            for t in &texts {
                drop(std::hint::black_box(flinklint::syntax::lexer::lex(t)));
            }
        }
        return;
    }
    if let Ok(n) = std::env::var("FLINKLINT_BENCH_PROFILE_CATALOG") {
        // For a profiler: the catalog pass alone, N times, nothing else measured.
        let files = parsed_files(&named);
        // As `check` runs it: each script's catalog freed once its problems are found.
        let settings = flinklint::config::Settings {
            drop_script_sessions: true,
            ..Default::default()
        };
        for _ in 0..n.parse::<usize>().unwrap_or(50) {
            std::hint::black_box(
                flinklint::semantic::analyse(&files, &settings)
                    .sessions
                    .len(),
            );
        }
        return;
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let rounds = 7;
    let best = |f: &dyn Fn() -> usize| best_of(rounds, f);
    let lex = best(&|| {
        texts
            .iter()
            .map(|t| flinklint::syntax::lexer::lex(t).len())
            .sum()
    });
    let parse = best_of(rounds, &|| {
        texts
            .iter()
            .map(|t| flinklint::syntax::parse(t))
            .collect::<Vec<_>>()
    });
    // As `check` runs it: each script's catalog freed once its problems are found.
    let settings = flinklint::config::Settings {
        drop_script_sessions: true,
        ..Default::default()
    };
    // `check` exits without freeing its syntax trees and catalog: the checks and the catalog
    // pass are timed up to their result, which is freed after the clock stops.
    let check = best_of(rounds, &|| flinklint::check_texts(&named, &settings));
    // The catalog pass alone (sessions and histories), over files parsed once.
    let files = parsed_files(&named);
    let catalog = best_of(rounds, &|| flinklint::semantic::analyse(&files, &settings));
    let mb = bytes as f64 / 1e6;
    println!("files: {}, bytes: {bytes} ({mb:.2} MB)", texts.len());
    println!("lex:         {:8.1} MB/s  ({:.1} ms)", mb / lex, lex * 1e3);
    println!(
        "lex+parse:   {:8.1} MB/s  ({:.1} ms)",
        mb / parse,
        parse * 1e3
    );
    println!(
        "check:       {:8.1} MB/s  ({:.1} ms, one thread: parse + catalog + rules)",
        mb / check,
        check * 1e3
    );
    println!(
        "catalog:     {:8.1} MB/s  ({:.1} ms, the semantic model alone: {:.1} % of the check)",
        mb / catalog,
        catalog * 1e3,
        100.0 * catalog / check
    );
    println!(
        "after parse: {:8.1} %    of the one-thread check (catalog, rules, sorting)",
        100.0 * (check - parse).max(0.0) / check
    );
}

/// The best time of `rounds` runs of `f`, in seconds; each result is freed after its clock
/// stops.
fn best_of<T>(rounds: usize, f: &dyn Fn() -> T) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        let result = f();
        best = best.min(t.elapsed().as_secs_f64());
        drop(std::hint::black_box(result));
    }
    best
}

/// Every file parsed once, as the check holds them.
fn parsed_files(named: &[(String, String)]) -> Vec<flinklint::files::FileEntry> {
    named
        .iter()
        .enumerate()
        .map(|(i, (path, text))| {
            let source = flinklint::source::SourceFile::new(path.as_str(), text.clone());
            let (parsed, dialect) = flinklint::files::parse(&source);
            flinklint::files::FileEntry {
                id: flinklint::source::FileId(i as u32),
                source,
                parsed,
                dialect,
                load_error: None,
                report: true,
                base_of: None,
            }
        })
        .collect()
}

/// What the catalog pass adds to a whole check of `dir`, as the command line runs it: `runs`
/// runs with it and without it, and without query validation, interleaved; prints the
/// medians.
fn catalog_share(dir: &std::path::Path, runs: usize) {
    use flinklint::project::Passes;
    let settings = flinklint::config::Settings {
        drop_script_sessions: true,
        ..Default::default()
    };
    let once_with =
        |catalog: bool, validate_queries: bool, check_options: bool, plan_pipelines: bool| {
            let settings = flinklint::config::Settings {
                validate_queries,
                check_options,
                plan_pipelines,
                // Without the option checks, the CO rules do not run either (CO008 reads the
                // syntax trees).
                ignore: if check_options {
                    Vec::new()
                } else {
                    vec![flinklint::config::RuleSelector::parse("CO").expect("the CO family")]
                },
                ..settings.clone()
            };
            let settings = &settings;
            let t = Instant::now();
            let inputs = flinklint::discover::discover_with(&[dir.to_path_buf()], settings, None)
                .unwrap_or_default();
            let outcome = flinklint::discover::read::check_with_passes(
                &inputs,
                &[],
                Vec::new(),
                None,
                settings,
                Passes { catalog },
            );
            let report = flinklint::render::json::render(
                &outcome.files,
                outcome.files_checked(),
                &outcome.diagnostics,
            );
            let took = t.elapsed().as_secs_f64() * 1e3;
            // As `check`, which exits without freeing: the result is dropped after the clock.
            drop(std::hint::black_box((outcome, report)));
            took
        };
    let once =
        |catalog: bool, validate_queries: bool| once_with(catalog, validate_queries, true, true);
    let (mut with, mut without, mut unvalidated) = (Vec::new(), Vec::new(), Vec::new());
    let (mut no_options, mut unplanned) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        with.push(once(true, true));
        without.push(once(false, true));
        unvalidated.push(once(true, false));
        no_options.push(once_with(true, true, false, true));
        unplanned.push(once_with(true, true, true, false));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (a, b) = (median(&mut with), median(&mut without));
    println!("check with the catalog pass:    {a:7.1} ms  (median of {runs}, in process)");
    println!("check without the catalog pass: {b:7.1} ms  (median of {runs}, interleaved)");
    println!(
        "the catalog pass adds:          {:7.1} %  of the whole run (budget: 20 %)",
        100.0 * (a - b) / b
    );
    let c = median(&mut unvalidated);
    println!("check without query validation: {c:7.1} ms  (median of {runs}, interleaved)");
    println!(
        "query validation adds:          {:7.1} %  of the whole run (budget: 15 %)",
        100.0 * (a - c) / c
    );
    let d = median(&mut no_options);
    println!("check without option checks:    {d:7.1} ms  (median of {runs}, interleaved)");
    println!(
        "the option checks (CO) add:     {:7.1} %  of the whole run (budget: 5 %)",
        100.0 * (a - d) / d
    );
    let p = median(&mut unplanned);
    println!("check without pipeline plans:   {p:7.1} ms  (median of {runs}, interleaved)");
    println!(
        "planning every pipeline adds:   {:7.1} %  of the whole run (budget: 15 %)",
        100.0 * (a - p) / p
    );
}

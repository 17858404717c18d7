//! The mutation harness: every fixture `.sql` file (and every rule fixture case of several
//! files, as one input), mutated with a fixed seed (byte changes, truncation, splices of two
//! fixtures, inserted keywords and quotes, deep nesting), goes through the whole library (`common::exercise`: every rule, every output format, `expand`,
//! the safe and the unsafe fixes). No input may panic, print more than a bound linear in its
//! size, or leave fixes that a second run would still apply.
//!
//! The fuzz targets (`fuzz/`) search further, guided by coverage; this harness is their
//! deterministic, bounded share that runs with every `cargo test`. `FLINKLINT_MUTATIONS=N`
//! (mutants per fixture, default 8) and `FLINKLINT_MUTATION_SEED=S` run it longer or
//! elsewhere. A failing mutant is written to a file whose path the failure names.

use crate::common::{self, exercise};
use rayon::prelude::*;
use std::path::PathBuf;

/// The seed of the default run.
const SEED: u64 = 0x5eed_f1a1_f00d_cafe;

/// Words and marks inserted by the mutations: Flink SQL's structure words, quotes, comment
/// marks, and the characters the lexer treats specially.
const INSERTS: &[&str] = &[
    "SELECT ",
    "FROM ",
    "WHERE ",
    "GROUP BY ",
    "(",
    ")",
    ",",
    ";",
    "'",
    "`",
    "\"",
    "/*",
    "*/",
    "--",
    "/*+ ",
    "CAST(",
    " AS ",
    "LIKE ",
    "WITH (",
    "ROW<",
    "ARRAY<",
    "MAP<",
    ">",
    "<",
    "INTERVAL '1' SECOND",
    "WATERMARK FOR ",
    "PRIMARY KEY (",
    "NOT ENFORCED",
    "INCLUDING ALL",
    "EXCLUDING OPTIONS",
    "OVERWRITING ",
    "ALTER TABLE ",
    " ADD ",
    " MODIFY ",
    " DROP ",
    "CREATE ",
    "TEMPORARY ",
    "MATERIALIZED ",
    "VIEW ",
    "INSERT INTO ",
    "EXECUTE STATEMENT SET BEGIN ",
    "END;",
    "USE CATALOG ",
    "SET '",
    "= '",
    "METADATA ",
    "VIRTUAL",
    "COMPUTED ",
    "FRESHNESS = ",
    "PARTITIONED BY (",
    "DISTRIBUTED BY HASH(",
    "INTO 4 BUCKETS",
    "CASE WHEN ",
    " THEN ",
    " END",
    "OVER (",
    "MATCH_RECOGNIZE (",
    "TABLE(",
    "DESCRIPTOR(",
    "UNNEST(",
    "LATERAL ",
    "$",
    "$rowtime",
    "\u{FEFF}",
    "\r",
    "\n",
    "\0",
    "\t",
    "\u{2014}",
    "\u{201C}",
    "\u{00A0}",
    "é",
    "🦀",
    "\\",
    "!=",
    "||",
    "::",
    "?",
    "x'",
    "U&'",
    "E'",
    "1e",
    "0x",
    ".",
    "*",
];

/// splitmix64: a small, fast generator, good enough to pick mutations reproducibly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`0` when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Applies one random mutation to `bytes`, with `other` (another fixture) for splices, and says
/// which.
fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>, other: &[u8]) -> &'static str {
    let at = rng.below(bytes.len() + 1);
    match rng.below(9) {
        0 => {
            for _ in 0..=rng.below(4) {
                if !bytes.is_empty() {
                    let i = rng.below(bytes.len());
                    bytes[i] = rng.next() as u8;
                }
            }
            "byte changes"
        }
        1 => {
            bytes.truncate(at);
            "truncation"
        }
        2 => {
            let from = rng.below(other.len() + 1);
            bytes.truncate(at);
            bytes.extend_from_slice(&other[from..]);
            "splice"
        }
        3 | 4 => {
            let word = INSERTS[rng.below(INSERTS.len())];
            bytes.splice(at..at, word.bytes());
            "inserted word"
        }
        5 => {
            let end = (at + rng.below(64)).min(bytes.len());
            bytes.drain(at..end);
            "deletion"
        }
        6 => {
            let end = (at + 1 + rng.below(32)).min(bytes.len());
            let chunk = bytes[at.min(end)..end].to_vec();
            for _ in 0..rng.below(8) {
                bytes.splice(at..at, chunk.iter().copied());
            }
            "repeated chunk"
        }
        7 => {
            // Deeper than the parser's nesting limit half the time.
            let depth = 1 + rng.below(400);
            let open = [
                "(",
                "CAST(",
                "(SELECT * FROM ",
                "ROW<a ",
                "ARRAY<",
                "NOT ",
                "- ",
            ][rng.below(7)];
            let close = if rng.below(2) == 0 { ")" } else { "" };
            let mut nested = open.repeat(depth).into_bytes();
            nested.extend_from_slice(b"x");
            nested.extend(close.repeat(depth).bytes());
            bytes.splice(at..at, nested);
            "deep nesting"
        }
        _ => {
            let quote = [b'\'', b'`', b'"'][rng.below(3)];
            bytes.insert(at, quote);
            "quote"
        }
    }
}

/// Every `.sql` file under `fixtures/`, sorted, then the several-file cases ([`cases`]).
fn fixtures() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(common::root().join("fixtures"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "sql"))
        .map(|e| {
            let bytes = std::fs::read(e.path()).expect("read a fixture");
            (e.path().to_path_buf(), bytes)
        })
        .collect();
    files.sort();
    files.extend(cases());
    files
}

/// The rule fixture cases made of several files (a history and the scripts that read it), each
/// as one input whose files follow `-- file: PATH` lines (`common::exercise::split_files`), as
/// `fuzz/seed.sh` makes them.
fn cases() -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let rules = common::root().join("fixtures/rules");
    for case in walkdir::WalkDir::new(&rules)
        .min_depth(2)
        .max_depth(2)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_dir() && e.file_name() != "snapshots")
    {
        let files: Vec<PathBuf> = walkdir::WalkDir::new(case.path())
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "sql"))
            .map(|e| e.into_path())
            .collect();
        if files.len() < 2 {
            continue;
        }
        let mut bytes = Vec::new();
        for file in &files {
            let name = file.strip_prefix(case.path()).unwrap_or(file);
            bytes.extend(format!("{}{}\n", exercise::FILE_MARKER, name.display()).bytes());
            bytes.extend(std::fs::read(file).expect("read a fixture"));
            bytes.push(b'\n');
        }
        out.push((case.into_path(), bytes));
    }
    out
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// One mutant: where it came from and its bytes.
struct Mutant {
    origin: String,
    bytes: Vec<u8>,
}

fn mutants(fixtures: &[(PathBuf, Vec<u8>)], per_fixture: u64, seed: u64) -> Vec<Mutant> {
    let root = common::root();
    let mut out = Vec::new();
    for (i, (path, bytes)) in fixtures.iter().enumerate() {
        let mut rng = Rng(seed ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        for m in 0..per_fixture {
            let mut mutant = bytes.clone();
            let mut how = Vec::new();
            for _ in 0..=rng.below(3) {
                let other = &fixtures[rng.below(fixtures.len())].1;
                how.push(mutate(&mut rng, &mut mutant, other));
            }
            out.push(Mutant {
                origin: format!("{name}, mutant {m} ({})", how.join(", ")),
                bytes: mutant,
            });
        }
    }
    out
}

/// Runs one mutant; on a panic, keeps the input in a file and returns what failed.
fn run(mutant: &Mutant, index: usize, seed: u64) -> Result<exercise::Figures, String> {
    let result = std::panic::catch_unwind(|| {
        // Invalid UTF-8 is SY000 before any parsing; the pipeline reads the rest as text.
        let text = String::from_utf8_lossy(&mutant.bytes);
        exercise::parse(&text);
        exercise::check(
            &exercise::split_files(&text),
            exercise::target_for(&mutant.bytes),
        )
    });
    result.map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("a panic without a message");
        let dir = std::env::temp_dir().join("flinklint-mutation-failures");
        let _ = std::fs::create_dir_all(&dir);
        let kept = dir.join(format!("seed-{seed:x}-{index}.sql"));
        let _ = std::fs::write(&kept, &mutant.bytes);
        format!(
            "{}: {}\n  input kept in {}",
            mutant.origin,
            message.lines().next().unwrap_or(""),
            kept.display()
        )
    })
}

#[test]
fn mutated_fixtures_never_crash_and_fixes_converge() {
    let fixtures = fixtures();
    assert!(fixtures.len() > 100, "{} fixtures", fixtures.len());
    assert!(fixtures
        .iter()
        .any(|(_, bytes)| bytes.starts_with(exercise::FILE_MARKER.as_bytes())));
    let seed = env_number("FLINKLINT_MUTATION_SEED", SEED);
    let per_fixture = env_number("FLINKLINT_MUTATIONS", 8);
    let mutants = mutants(&fixtures, per_fixture, seed);
    let start = std::time::Instant::now();
    let results: Vec<Result<exercise::Figures, String>> =
        flinklint::project::pool().install(|| {
            mutants
                .par_iter()
                .enumerate()
                .map(|(i, m)| run(m, i, seed))
                .collect()
        });
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    let figures: Vec<&exercise::Figures> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    println!(
        "{} mutants of {} fixtures (seed {seed:#x}) in {:.1?}: {} findings, {} fixes applied, largest output {} bytes, {} failures",
        mutants.len(),
        fixtures.len(),
        start.elapsed(),
        figures.iter().map(|f| f.diagnostics).sum::<usize>(),
        figures.iter().map(|f| f.fixes_applied).sum::<usize>(),
        figures.iter().map(|f| f.largest_output).max().unwrap_or(0),
        failures.len()
    );
    // The mutations must reach the rules and the fixer, not only the parser's error path.
    assert!(figures.iter().any(|f| f.fixes_applied > 0));
    assert!(
        failures.is_empty(),
        "{} of {} mutants failed:\n{}",
        failures.len(),
        mutants.len(),
        failures
            .iter()
            .take(20)
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The mutations are reproducible: the same seed makes the same inputs.
#[test]
fn mutants_are_reproducible() {
    let fixtures = fixtures();
    let a = mutants(&fixtures[..10], 2, 7);
    let b = mutants(&fixtures[..10], 2, 7);
    let c = mutants(&fixtures[..10], 2, 8);
    assert!(a
        .iter()
        .zip(&b)
        .all(|(x, y)| x.bytes == y.bytes && x.origin == y.origin));
    assert!(a.iter().zip(&c).any(|(x, y)| x.bytes != y.bytes));
}

/// Runs one kept input through the whole library for every target.
fn run_kept(path: &std::path::Path) {
    let bytes = std::fs::read(path).expect("read a kept input");
    let text = String::from_utf8_lossy(&bytes);
    exercise::parse(&text);
    let files = exercise::split_files(&text);
    for target in flinklint::config::Target::ALL {
        exercise::check(&files, target);
    }
}

/// The inputs the fuzzers and this harness once broke (`fuzz/regressions/`), each minimized.
#[test]
fn fuzz_regressions() {
    let files = common::sql_files(&common::root().join("fuzz/regressions"));
    assert!(!files.is_empty());
    for path in files {
        let result = std::panic::catch_unwind(|| run_kept(&path));
        assert!(result.is_ok(), "{} fails again", path.display());
    }
}

//! The integration tests: one test binary, with one module per file of `tests/`.
//!
//! Every test binary of a release build is linked with the release profile's link-time
//! optimisation, which generates the machine code of the library and of its dependencies anew
//! for each binary; one binary instead of one per file makes `cargo test --release` link once. Cargo.toml declares this
//! file as the integration test target that `cargo test` builds (`autotests = false`), so a
//! new file of `tests/` runs only once it is declared below; [`every_test_file_is_a_module`]
//! fails until it is.
//!
//! Tests run in parallel threads of one process: a test must not change the process's working
//! directory or environment (commands get their own with `Command::current_dir` and
//! `Command::env`), and temporary folders need names that no other test of any file uses
//! (see `common::TempDir`).

mod common;

mod action;
mod base_ref;
mod baseline;
mod changed_since;
mod chunks;
mod cli_rules;
mod config;
mod context_cache;
mod context_root;
mod corpus;
mod dialect;
mod docs;
mod editors;
mod elsewhere;
mod empty_run;
mod expand_cli;
mod expand_describe;
mod expand_materialized;
mod fix_safety;
mod formats;
mod functions;
mod hostile;
mod hostile_classic;
mod hostile_inputs;
mod layers;
mod markdown;
mod memory;
mod mutation;
mod oracle;
mod output_safety;
mod parser_fixtures;
mod project;
mod report_order;
mod rules;
mod server;
mod sink_messages;
mod suppressions;
mod working_directory;

/// Every `.rs` file directly in `tests/` is declared as a module of this file, and every
/// declared module has its file: a test file that is not declared would silently never run.
#[test]
fn every_test_file_is_a_module() {
    let dir = common::root().join("tests");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("read tests/")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter_map(|name| name.strip_suffix(".rs").map(str::to_owned))
        .filter(|stem| stem != "main")
        .collect();
    files.sort();
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("read tests/main.rs");
    let mut declared: Vec<String> = main
        .lines()
        .filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'))
        .filter(|name| *name != "common")
        .map(str::to_owned)
        .collect();
    declared.sort();
    assert_eq!(
        files, declared,
        "the files of tests/ and the modules declared in tests/main.rs differ"
    );
}

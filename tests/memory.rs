//! Where a run's memory goes: `FLINKLINT_HEAP_DIR=DIR cargo test --release --test it
//! memory::heap_profile -- --ignored --nocapture` checks every file under DIR as `flinklint
//! check DIR` does and prints the bytes held by the run's main structures. The test binary
//! uses the system allocator (the command line's is mimalloc), so a heap profiler that hooks
//! `malloc` sees every allocation: `heaptrack target/release/deps/it-* memory::heap_profile
//! --ignored` (docs/performance.md has the figures). Without FLINKLINT_HEAP_DIR it does
//! nothing.

use flinklint::config::Settings;
use flinklint::discover::{discover_with, read::check};

#[test]
#[ignore = "a measurement: FLINKLINT_HEAP_DIR=DIR ... --ignored"]
fn heap_profile() {
    let Some(dir) = std::env::var_os("FLINKLINT_HEAP_DIR") else {
        return;
    };
    let settings = Settings {
        drop_script_sessions: true,
        ..Settings::default()
    };
    let inputs = discover_with(&[dir.into()], &settings, None).expect("discover");
    let outcome = check(&inputs, None, &settings);
    let token = std::mem::size_of::<flinklint::syntax::lexer::Token>();
    let (mut text, mut tokens, mut token_capacity, mut statements, mut lines) = (0, 0, 0, 0, 0);
    for f in &outcome.files {
        text += f.source.text.len();
        tokens += f.parsed.tokens.len() * token;
        token_capacity += f.parsed.tokens.capacity() * token;
        statements += f.parsed.script.statements.len();
        lines += f.source.text.lines().count();
    }
    println!("files: {}", outcome.files.len());
    println!("texts: {:.1} MB ({lines} lines)", text as f64 / 1e6);
    println!(
        "tokens: {:.1} MB used, {:.1} MB allocated ({token} bytes each)",
        tokens as f64 / 1e6,
        token_capacity as f64 / 1e6
    );
    println!(
        "statements: {statements} (a Statement is {} bytes besides its boxed body)",
        std::mem::size_of::<flinklint::syntax::ast::Statement>()
    );
    println!(
        "sessions kept: {}, problems: {}, findings: {}",
        outcome.model.sessions.len(),
        outcome.model.found.len(),
        outcome.diagnostics.len()
    );
}

//! The `flinklint` binary: a thin shell over the library's command line.

fn main() -> std::process::ExitCode {
    // Deeply nested SQL is parsed, rendered and dropped recursively; a large stack (reserved
    // address space, not memory) keeps every input within the parser's nesting limits safe.
    std::thread::Builder::new()
        .stack_size(flinklint::STACK_SIZE)
        .spawn(flinklint::cli::main)
        .ok()
        .and_then(|handle| handle.join().ok())
        .unwrap_or(std::process::ExitCode::from(2))
}

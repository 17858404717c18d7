//! The `flinklint` binary: the command line ([`cli`]), a thin layer on the library.

mod cli;

#[allow(unsafe_code)]
mod alloc;

/// mimalloc: glibc's per-thread arenas grow page by page (one `mprotect` each), which cost more
/// than parsing on a large repository (measured: 16k calls, 70 ms of 160 ms).
#[global_allocator]
static GLOBAL: alloc::Mimalloc = alloc::Mimalloc;

fn main() -> std::process::ExitCode {
    // Deeply nested SQL is parsed, rendered and dropped recursively; a large stack (reserved
    // address space, not memory) keeps every input within the parser's nesting limits safe.
    std::thread::Builder::new()
        .stack_size(flinklint::STACK_SIZE)
        .spawn(cli::main)
        .ok()
        .and_then(|handle| handle.join().ok())
        .unwrap_or(std::process::ExitCode::from(2))
}

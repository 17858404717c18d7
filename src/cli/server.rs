//! `flinklint server`: the language server ([`flinklint::server`]) on standard input and
//! output.

use std::process::ExitCode;

/// Arguments of `flinklint server`.
#[derive(Debug, clap::Args)]
pub struct ServerArgs {
    /// Accepted for editors that pass it (the server speaks only over standard input and
    /// output).
    #[arg(long)]
    stdio: bool,
}

/// Runs the server until the client sends `exit` or closes its input.
pub fn run(args: ServerArgs) -> ExitCode {
    let _ = args.stdio;
    match flinklint::server::run_stdio() {
        Ok(flinklint::server::Ended::Cleanly) => ExitCode::SUCCESS,
        // The LSP specification: `exit` without `shutdown` first exits with 1.
        Ok(flinklint::server::Ended::ExitWithoutShutdown) => ExitCode::from(1),
        Err(e) => {
            eprintln!("flinklint server: {e}");
            ExitCode::from(2)
        }
    }
}

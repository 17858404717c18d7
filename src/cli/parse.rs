//! `flinklint parse`: tokens or syntax tree of one file, for debugging.

use clap::ValueEnum;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Dump {
    Tokens,
    Ast,
}

/// Arguments of `parse`.
#[derive(Debug, clap::Args)]
pub struct ParseArgs {
    /// The file to parse (`-` for standard input).
    file: PathBuf,
    /// What to print.
    #[arg(long, value_enum, default_value_t = Dump::Ast)]
    dump: Dump,
}

/// Runs `parse`.
pub fn run(args: ParseArgs) -> ExitCode {
    let bytes = if args.file.as_os_str() == "-" {
        match super::read_stdin() {
            Ok(b) => b,
            Err(code) => return code,
        }
    } else {
        // A regular file only, and not beyond the limit of any input (a named pipe would wait
        // for a writer, `/dev/zero` never ends).
        match flinklint::files::read_file(&args.file, flinklint::files::SQL_LIMIT) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("flinklint: cannot read {}: {e}", super::shown(&args.file));
                return ExitCode::from(2);
            }
        }
    };
    // As `check` reads a file: text that is not UTF-8 is refused, not parsed with its bad
    // bytes replaced (the tree would not be the one a run checks).
    let text = match flinklint::files::utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let name = if args.file.as_os_str() == "-" {
                "standard input".to_string()
            } else {
                super::shown(&args.file)
            };
            eprintln!("flinklint: cannot read {name}: {e}");
            return ExitCode::from(2);
        }
    };
    // A document (`.md`, `.rst`) is read as a run reads it: its SQL blocks.
    let parsed = flinklint::files::parse_syntax(&flinklint::source::SourceFile::new(
        &args.file,
        text.as_str(),
    ));
    let mut out = String::new();
    match args.dump {
        Dump::Tokens => {
            for t in &parsed.tokens {
                let kw = if t.kw == flinklint::syntax::keywords::Kw::NONE {
                    String::new()
                } else {
                    format!(" {}", t.kw.as_str())
                };
                // Rust's debug quoting leaves some format characters raw: escaped as well.
                out.push_str(&format!(
                    "{:?}{kw} {}..{} {}\n",
                    t.kind,
                    t.span.start,
                    t.span.end,
                    flinklint::source::escape::text(&format!("{:?}", &text[t.span.range()]))
                ));
            }
        }
        Dump::Ast => {
            let doc = serde_json::json!({"statements": parsed.script.statements, "errors": parsed.errors});
            out = flinklint::source::escape::json_pretty(&doc);
            out.push('\n');
        }
    }
    if let Err(code) = super::print_stdout(&out) {
        return code;
    }
    if parsed.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

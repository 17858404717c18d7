//! Connector option rules (CO): a table's `WITH` options checked as its connector's and
//! format's factories check them (`FactoryUtil`), from the option catalogs in
//! `rules/data/connectors/` and `rules/data/formats/`. Flink checks them only when a statement
//! reads or writes the table: the error goes on that statement, with a label on the option;
//! a table nothing uses gets a warning at the option.

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_options.rs"));

use crate::config::Target;
use crate::diagnostics::{Diagnostic, Severity};
use crate::rules::Context;
use crate::rules::Reporter;
use crate::semantic::catalog::Origin;
use crate::semantic::names::QualifiedName;
use crate::semantic::problems::{Found, TableUse};

/// Whether the catalogs apply to the file's target: they are Flink 2.3's (and the connectors'
/// releases for it); on older targets and on Confluent Cloud (whose tables are not Flink's
/// connectors) nothing is reported.
fn applies(ctx: &Context<'_>, file: crate::source::FileId) -> bool {
    matches!(ctx.target(file), Target::Flink23 | Target::FlinkNext)
}

/// What the using statement does with the table, for its label.
fn use_label(used: &TableUse) -> &'static str {
    if used.write {
        "writes the table here"
    } else {
        "reads the table here"
    }
}

/// A diagnostic for an option problem: on the statement that uses the table (an error, with
/// `at` as a related location), or at `at` (a warning: nothing uses the table).
fn option_diagnostic(
    found: &Found,
    out: &Reporter<'_>,
    used: Option<&TableUse>,
    at: Origin,
    table: &QualifiedName,
    message: String,
    label: &str,
) -> Diagnostic {
    match used {
        Some(u) => out
            .diagnostic(found.file, u.span, message)
            .with_label(use_label(u))
            .with_related(at.file, at.span, format!("{label} (in `{}`)", table.object)),
        None => out
            .diagnostic_with(Severity::Warning, at.file, at.span, message)
            .with_label(label.to_string())
            .with_note(
                "Flink accepts the CREATE TABLE, but every statement that reads or writes the table fails",
            ),
    }
}

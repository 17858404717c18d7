//! Function and type rules of the query validator (QV020-QV039): unknown functions, argument
//! counts and types, untyped NULL, conditions, casts, comparisons, UNNEST and set operations,
//! as Flink 2.3's validator and planner check them. The semantic stage finds them
//! ([`crate::semantic::functions::check`]); each rule words one kind.

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_functions.rs"));

use crate::rules::Reporter;
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// The issue of an expression problem, with its span and Flink's message.
pub(crate) fn issue_of(found: &Found) -> Option<(crate::source::Span, &ExprIssue, Option<&str>)> {
    match &found.problem {
        Problem::Expression { span, issue, flink } => Some((*span, issue, flink.as_deref())),
        _ => None,
    }
}

/// Reports one finding with its label, help and Flink's message.
pub(crate) fn emit(
    out: &mut Reporter<'_>,
    found: &Found,
    span: crate::source::Span,
    message: String,
    label: &str,
    help: String,
    flink: Option<&str>,
) {
    let mut d = out
        .diagnostic(found.file, span, message)
        .with_label(label)
        .with_help(help);
    if let Some(f) = flink {
        d = d.with_flink_message(f);
    }
    out.report(d);
}

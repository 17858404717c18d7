//! Syntax rules (SY): what Flink's SQL parser rejects. They report the parser's errors; each
//! error kind belongs to exactly one rule ([`rule_for`]), so one problem is one finding (a few
//! kinds belong to a rule of another family, e.g. START_MODE errors to MT004).

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_syntax.rs"));

use crate::syntax::SyntaxErrorKind;

/// The code of the rule that reports a syntax error of this kind.
pub fn rule_for(kind: &SyntaxErrorKind) -> &'static str {
    // Keep PARSE_ERROR_CODES in step.
    match kind {
        SyntaxErrorKind::TypographicQuote { .. } | SyntaxErrorKind::TypographicDash => "SY002",
        SyntaxErrorKind::DoubleQuoted { .. } => "SY003",
        SyntaxErrorKind::ReservedWord { .. } => "SY004",
        SyntaxErrorKind::DuplicateWatermark => "TB006",
        SyntaxErrorKind::StartMode => "MT004",
        SyntaxErrorKind::InvalidType => "QV033",
        _ => "SY001",
    }
}

/// Every code [`rule_for`] gives.
pub const PARSE_ERROR_CODES: &[&str] = &[
    "SY001", "SY002", "SY003", "SY004", "TB006", "MT004", "QV033",
];

/// Whether the parse errors of `file` were cut short ([`SyntaxErrorKind::TooManyErrors`]: the
/// parser's and the lexical pass's limits per file): findings of [`PARSE_ERROR_CODES`] past
/// the limit are not known.
pub fn errors_capped(file: &crate::files::FileEntry) -> bool {
    file.parsed
        .errors
        .iter()
        .any(|e| e.kind == SyntaxErrorKind::TooManyErrors)
}

/// The syntax errors that the rule `code` reports ([`rule_for`]), with their files, in file
/// order: what SY001-SY004 and MT004 each walk.
pub(crate) fn errors_of<'a>(
    ctx: &'a crate::rules::Context<'_>,
    code: &'static str,
) -> impl Iterator<Item = (&'a crate::rules::FileEntry, &'a crate::syntax::SyntaxError)> + 'a {
    ctx.files.iter().flat_map(move |file| {
        file.parsed
            .errors
            .iter()
            .filter(move |e| rule_for(&e.kind) == code)
            .map(move |e| (file, e))
    })
}

/// Text for a quoted fix: a string literal (`'...'`, quotes doubled) or a name (backticks).
pub(crate) fn requote(content: &str, as_name: bool) -> String {
    if as_name {
        format!("`{}`", content.replace('`', "``"))
    } else {
        format!("'{}'", content.replace('\'', "''"))
    }
}

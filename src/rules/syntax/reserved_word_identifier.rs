//! An unquoted reserved keyword used as a name.

use super::errors_of;
use crate::config::Target;
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::syntax::keywords::Kw;
use crate::syntax::SyntaxErrorKind;

/// Reports reserved words used as names on the target, with a fix that backticks them.
pub struct ReservedWordIdentifier;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ReservedWordIdentifier;

/// Whether `kw` is reserved on `target`. Flink 2.3.0's list is measured
/// (`flink-keywords.tsv`); words reserved only by newer grammars are free on older targets.
pub fn reserved_on(kw: Kw, target: Target) -> bool {
    if !kw.is_reserved() {
        return false;
    }
    match kw {
        Kw::VARIANT => target.at_least(2, 1),
        Kw::BITMAP => target.at_least(2, 3),
        _ => true,
    }
}

impl Rule for ReservedWordIdentifier {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for (file, error) in errors_of(ctx, report.meta().code) {
            let SyntaxErrorKind::ReservedWord { keyword } = error.kind else {
                continue;
            };
            if !reserved_on(keyword, ctx.target(file.id)) {
                continue;
            }
            let word = file.source.slice(error.span);
            let quoted = format!("`{word}`");
            let fix = |applicability| Fix {
                title: format!("Quote `{word}` in backticks"),
                applicability,
                edits: vec![Edit {
                    file: file.id,
                    span: error.span,
                    replacement: quoted.clone(),
                }],
            };
            if keyword == Kw::ROW {
                if let Some(index) = bracket_after(&file.source.text, error.span.end as usize) {
                    // `row[...]`: Flink reads the keyword ROW, which starts a row constructor
                    // and needs `(` (Flink 2.3: `Encountered "[" ... Was expecting: "("`).
                    // Quoting reads a column `row` and an element of it instead: another
                    // expression, so the fix is unsafe, and there is none when the brackets
                    // hold a list (`row['a', 'b']`), which is no element access either.
                    let mut d = report
                        .diagnostic(
                            file.id,
                            error.span,
                            format!(
                                "`{word}[` is read as the ROW constructor, which takes parentheses: `{word}` is a reserved keyword in {}",
                                ctx.target(file.id)
                            ),
                        )
                        .with_help(format!(
                            "for a row value write ROW(...) with parentheses; for an element of a column named {word}, quote the column in backticks: {quoted}[...]"
                        ));
                    if index == Index::Single {
                        d = d.with_fix(fix(Applicability::Unsafe));
                    }
                    report.report(d);
                    continue;
                }
            }
            let d = report
                .diagnostic(
                    file.id,
                    error.span,
                    format!(
                        "`{word}` is a reserved keyword in {} and cannot be an unquoted name",
                        ctx.target(file.id)
                    ),
                )
                .with_help(format!("quote it in backticks: {quoted}"))
                .with_fix(fix(Applicability::Safe));
            report.report(d);
        }
    }
}

/// What the brackets after a keyword hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Index {
    /// One expression (`row['a']`): an element access once the name is quoted.
    Single,
    /// A list (`row['a', 'b']`), or brackets that do not close.
    List,
}

/// Whether `[` follows `at` in `text` (after whitespace), and what the brackets hold: a comma
/// outside nested brackets, parentheses and string literals makes a list. Reads no further than
/// the closing bracket, the end of the statement (`;`) or 10,000 bytes.
fn bracket_after(text: &str, at: usize) -> Option<Index> {
    let rest = text.get(at..)?;
    let rest = rest.trim_start();
    let inner = rest.strip_prefix('[')?;
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for c in inner.chars().take(10_000) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '`' | '"') => quote = Some(c),
            (None, '[' | '(') => depth += 1,
            (None, ']' | ')') if depth > 0 => depth -= 1,
            (None, ']') => return Some(Index::Single),
            (None, ',') if depth == 0 => return Some(Index::List),
            (None, ';') => return Some(Index::List),
            _ => {}
        }
    }
    Some(Index::List)
}

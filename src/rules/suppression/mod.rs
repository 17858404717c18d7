//! Suppression comments (SU): `-- flinklint: ignore CODE[, CODE] [-- reason]` silences the
//! listed rules in the statement that follows the comment (or, for a comment inside a
//! statement, in the statement it sits in), and `-- flinklint: ignore-file CODE[, ...]`
//! anywhere in a file silences them in the whole file. Codes or rule names are accepted,
//! separated by commas or spaces.
//!
//! In a document (Markdown, reStructuredText; see [`crate::source::embedded`]) the same
//! directives are also written in the document's own comments, `<!-- flinklint: ignore CODE -->`
//! or `.. flinklint: ignore CODE`, and `ignore` there silences the whole next SQL block. A
//! `--` directive inside a block works as in a file of SQL, within its block.
//!
//! Directives are read once per reported file from its comment tokens (the lexer keeps comments
//! as tokens, so nothing here scans raw text). [`apply`] runs once, after every other rule and
//! the configured levels, and records which code of which directive suppressed something; SU001
//! ([`unused_suppression`]) reports the rest. A finding is suppressed by a statement directive
//! when its primary span starts inside that statement.

// The rule modules of this family, one per `rules/<CODE>.yaml`, declared by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rules_family_suppression.rs"));

use crate::diagnostics::Diagnostic;
use crate::rules::{Context, FileEntry};
use crate::source::{FileId, Span};
use crate::syntax::ast::{Statement, StatementKind};
use crate::syntax::TokenKind;
use std::collections::{HashMap, HashSet};

/// The marker that starts a directive, after `--` and optional spaces.
pub const MARKER: &str = "flinklint:";

/// What a directive silences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `ignore`: one statement.
    Statement,
    /// `ignore-file`: the whole file.
    File,
}

/// One code of a directive, as written.
#[derive(Debug, Clone)]
pub struct DirectiveCode {
    /// The text, e.g. `SY003` or `double-quoted-literal`.
    pub text: String,
    /// Where it is.
    pub span: Span,
    /// The rule's code; `None` when no rule has this code or name.
    pub code: Option<&'static str>,
}

/// Why a directive cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Malformed {
    /// The word after `flinklint:` is neither `ignore` nor `ignore-file`.
    UnknownAction(String),
    /// `ignore` or `ignore-file` without codes.
    NoCodes,
}

/// One `-- flinklint: ...` comment.
#[derive(Debug, Clone)]
pub struct Directive {
    /// The file.
    pub file: FileId,
    /// The whole comment token.
    pub comment: Span,
    /// Statement or file (`None` when malformed).
    pub scope: Option<Scope>,
    /// The codes, in order.
    pub codes: Vec<DirectiveCode>,
    /// The text after a second `--`, trimmed; `None` when there is none or it is empty.
    pub reason: Option<String>,
    /// For [`Scope::Statement`]: the statement it silences (`None`: no statement follows), or,
    /// for a directive in a document's comment, the block.
    pub statement: Option<Span>,
    /// Whether it is written in a document's comment and silences a block.
    pub block: bool,
    /// Why it cannot be applied, if it cannot.
    pub malformed: Option<Malformed>,
}

/// Every directive of the reported files and which of their codes suppressed a finding.
#[derive(Debug, Default)]
pub struct Suppressions {
    /// Directives in file and position order.
    pub directives: Vec<Directive>,
    /// Per directive, per code: whether it suppressed at least one finding.
    pub used: Vec<Vec<bool>>,
}

/// Reads the directives of one file from its comment tokens.
pub fn directives(file: &FileEntry) -> Vec<Directive> {
    let text = &file.source.text;
    let mut out = Vec::new();
    for token in &file.parsed.tokens {
        if token.kind != TokenKind::LineComment {
            continue;
        }
        let comment = &text[token.span.range()];
        let Some(body) = comment.strip_prefix("--") else {
            continue;
        };
        let trimmed = body.trim_start();
        let Some(rest) = trimmed.strip_prefix(MARKER) else {
            continue;
        };
        // Byte offset of `rest` in the file.
        let base = token.span.start as usize + 2 + (body.len() - trimmed.len()) + MARKER.len();
        out.push(parse_directive(file, token.span, rest, base));
    }
    if let Some(embedded) = &file.parsed.embedded {
        // A `--` directive in a block reaches no statement of another block.
        for d in &mut out {
            let block = embedded.block_at(d.comment.start).map(|b| b.extent());
            if let (Some(s), Some(b)) = (d.statement, block) {
                if !b.contains(s) {
                    d.statement = None;
                }
            }
        }
        for c in &embedded.comments {
            let body = &text[c.body.range()];
            let trimmed = body.trim_start();
            let Some(rest) = trimmed.strip_prefix(MARKER) else {
                continue;
            };
            let base = c.body.start as usize + (body.len() - trimmed.len()) + MARKER.len();
            let mut d = parse_directive(file, c.span, rest, base);
            d.block = true;
            if d.scope == Some(Scope::Statement) {
                d.statement = c
                    .next_block
                    .and_then(|i| embedded.blocks.get(i))
                    .map(|b| b.extent());
            }
            out.push(d);
        }
        out.sort_by_key(|d| d.comment.start);
    }
    out
}

/// Parses what follows `flinklint:`; `base` is its byte offset in the file.
fn parse_directive(file: &FileEntry, comment: Span, rest: &str, base: usize) -> Directive {
    let (body, reason) = match rest.split_once("--") {
        Some((body, reason)) => (body, Some(reason.trim())),
        None => (rest, None),
    };
    let reason = reason.filter(|r| !r.is_empty()).map(str::to_string);
    let mut words = words(body, base);
    let mut directive = Directive {
        file: file.id,
        comment,
        scope: None,
        codes: Vec::new(),
        reason,
        statement: None,
        block: false,
        malformed: None,
    };
    let action = if words.is_empty() {
        String::new()
    } else {
        words.remove(0).0
    };
    directive.scope = match action.as_str() {
        "ignore" => Some(Scope::Statement),
        "ignore-file" => Some(Scope::File),
        _ => {
            directive.malformed = Some(Malformed::UnknownAction(action));
            return directive;
        }
    };
    directive.codes = words
        .into_iter()
        .map(|(text, span)| DirectiveCode {
            code: crate::rules::meta::find(&text).map(|m| m.code),
            text,
            span,
        })
        .collect();
    if directive.codes.is_empty() {
        directive.malformed = Some(Malformed::NoCodes);
    }
    if directive.scope == Some(Scope::Statement) {
        directive.statement = target_statement(&file.parsed.script.statements, comment);
    }
    directive
}

/// The words of `body` (split at commas and whitespace) with their spans in the file.
fn words(body: &str, base: usize) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in body
        .char_indices()
        .chain(std::iter::once((body.len(), ' ')))
    {
        let separator = c == ',' || c.is_whitespace();
        match (separator, start) {
            (true, Some(s)) => {
                out.push((body[s..i].to_string(), Span::new(base + s, base + i)));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// The statement a directive at `comment` silences: the first statement after it, or, when the
/// comment is inside a statement, the first statement nested in it after the comment (the
/// INSERTs of a statement set), else that statement.
fn target_statement(statements: &[Statement], comment: Span) -> Option<Span> {
    // Statements are in order and disjoint: none ending before the comment ends can follow it
    // or hold it, so the search starts at the first that ends at or after it.
    let from = statements.partition_point(|s| s.span.end < comment.end);
    for s in &statements[from..] {
        if s.span.start >= comment.end {
            return Some(s.span);
        }
        if s.span.start <= comment.start && comment.end <= s.span.end {
            return target_statement(children(s), comment).or(Some(s.span));
        }
    }
    None
}

/// The statements directly nested in `s`.
fn children(s: &Statement) -> &[Statement] {
    match &s.kind {
        StatementKind::Wrapped(w) => std::slice::from_ref(&w.inner),
        StatementKind::StatementSet(set) => &set.statements,
        _ => &[],
    }
}

/// The codes of some directives, as `(directive, code)` indices; marked used at most once.
#[derive(Debug, Default)]
struct Group {
    codes: Vec<(usize, usize)>,
    marked: bool,
}

impl Group {
    /// Marks every code of the group used (the first time only: each group costs its length
    /// once, however many findings it silences).
    fn mark(&mut self, used: &mut [Vec<bool>]) {
        if !self.marked {
            for &(directive, code) in &self.codes {
                used[directive][code] = true;
            }
            self.marked = true;
        }
    }
}

/// A statement that `ignore` directives silence rules in.
#[derive(Debug)]
struct Target {
    span: Span,
    /// The nearest target before it in order that holds its start (statements nest or are
    /// disjoint: the enclosing statement).
    parent: Option<usize>,
    group: Group,
}

/// The directives of a run by file and rule code, so that each finding is matched in
/// logarithmic time.
#[derive(Debug, Default)]
struct Index {
    /// `ignore-file` codes.
    file_wide: HashMap<Key, Group>,
    /// `ignore` codes: their statements sorted by start (the enclosing one first on a tie).
    statements: HashMap<Key, Vec<Target>>,
}

/// A file and a rule code.
type Key = (FileId, &'static str);

impl Index {
    fn new(directives: &[Directive]) -> Index {
        let mut index = Index::default();
        let mut spans: HashMap<Key, Vec<(Span, usize, usize)>> = HashMap::new();
        for (i, directive) in directives.iter().enumerate() {
            if directive.malformed.is_some() {
                continue;
            }
            for (j, code) in directive.codes.iter().enumerate() {
                let Some(code) = code.code else { continue };
                match (directive.scope, directive.statement) {
                    (Some(Scope::File), _) => index
                        .file_wide
                        .entry((directive.file, code))
                        .or_default()
                        .codes
                        .push((i, j)),
                    (Some(Scope::Statement), Some(span)) => spans
                        .entry((directive.file, code))
                        .or_default()
                        .push((span, i, j)),
                    _ => {}
                }
            }
        }
        for (key, mut list) in spans {
            list.sort_unstable_by_key(|&(span, i, j)| {
                (span.start, std::cmp::Reverse(span.end), i, j)
            });
            let mut targets: Vec<Target> = Vec::new();
            // The targets that hold the current start, innermost last.
            let mut open: Vec<usize> = Vec::new();
            for (span, i, j) in list {
                if let Some(last) = targets.last_mut().filter(|t| t.span == span) {
                    last.group.codes.push((i, j));
                    continue;
                }
                while open
                    .last()
                    .is_some_and(|&k| targets[k].span.end < span.start)
                {
                    open.pop();
                }
                open.push(targets.len());
                targets.push(Target {
                    span,
                    parent: open.len().checked_sub(2).map(|k| open[k]),
                    group: Group {
                        codes: vec![(i, j)],
                        marked: false,
                    },
                });
            }
            index.statements.insert(key, targets);
        }
        index
    }

    /// Whether a directive silences `d`; marks every code that does.
    fn silence(&mut self, d: &Diagnostic, used: &mut [Vec<bool>]) -> bool {
        let mut silenced = false;
        if let Some(group) = self.file_wide.get_mut(&(d.file, d.code)) {
            group.mark(used);
            silenced = true;
        }
        if let Some(targets) = self.statements.get_mut(&(d.file, d.code)) {
            // Every statement holding the finding's start encloses the last one starting at or
            // before it.
            let at = d.span.start;
            let mut next = targets
                .partition_point(|t| t.span.start <= at)
                .checked_sub(1);
            while let Some(k) = next {
                let target = &mut targets[k];
                if target.span.start <= at && at <= target.span.end {
                    target.group.mark(used);
                    silenced = true;
                }
                next = target.parent;
            }
        }
        silenced
    }
}

/// Removes from `out` the findings that `directives` (see [`collect`]) silence, and returns
/// them with what each code matched.
pub fn apply(directives: Vec<Directive>, out: &mut Vec<Diagnostic>) -> Suppressions {
    let mut used: Vec<Vec<bool>> = directives
        .iter()
        .map(|d| vec![false; d.codes.len()])
        .collect();
    if !directives.is_empty() {
        let mut index = Index::new(&directives);
        out.retain(|d| !index.silence(d, &mut used));
    }
    Suppressions { directives, used }
}

/// The directives of every reported file, in file and position order.
pub fn collect(ctx: &Context<'_>) -> Vec<Directive> {
    ctx.files
        .iter()
        .filter(|f| f.report && f.load_error.is_none())
        .flat_map(directives)
        .collect()
}

/// Removes from `late` (SU001's findings) what `ignore-file` directives silence.
pub fn apply_file_wide(suppressions: &Suppressions, late: &mut Vec<Diagnostic>) {
    let silenced: HashSet<(FileId, &'static str)> = suppressions
        .directives
        .iter()
        .filter(|d| d.scope == Some(Scope::File) && d.malformed.is_none())
        .flat_map(|d| d.codes.iter().filter_map(|c| Some((d.file, c.code?))))
        .collect();
    late.retain(|d| !silenced.contains(&(d.file, d.code)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<Directive> {
        let outcome = crate::check_texts(
            &[("a.sql".to_string(), text.to_string())],
            &crate::config::Settings::default(),
        );
        directives(&outcome.files[0])
    }

    #[test]
    fn directives_read_codes_names_and_reasons() {
        let text =
            "-- flinklint: ignore SY003, double-quoted-literal  SY999 -- legacy job\nSELECT 1;\n";
        let d = &parse(text)[0];
        assert_eq!(d.scope, Some(Scope::Statement));
        let codes: Vec<_> = d.codes.iter().map(|c| (c.text.as_str(), c.code)).collect();
        assert_eq!(
            codes,
            [
                ("SY003", Some("SY003")),
                ("double-quoted-literal", Some("SY003")),
                ("SY999", None)
            ]
        );
        assert_eq!(&text[d.codes[2].span.range()], "SY999");
        assert_eq!(d.reason.as_deref(), Some("legacy job"));
        assert_eq!(d.statement.map(|s| &text[s.range()]), Some("SELECT 1"));
    }

    #[test]
    fn malformed_directives() {
        let d = parse("--flinklint: ignore\n--  flinklint: ignroe SY001\n-- flinklint ignore X\n");
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].malformed, Some(Malformed::NoCodes));
        assert_eq!(
            d[1].malformed,
            Some(Malformed::UnknownAction("ignroe".to_string()))
        );
    }

    #[test]
    fn a_comment_inside_a_statement_targets_it() {
        let text = "CREATE TABLE t (\n  -- flinklint: ignore CL001\n  a INT\n);\nSELECT 1;";
        let d = &parse(text)[0];
        assert!(d
            .statement
            .is_some_and(|s| text[s.range()].starts_with("CREATE")));
    }
}

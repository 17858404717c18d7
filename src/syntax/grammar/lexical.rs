//! The lexical pass: errors for text Flink's lexer rejects, reported once each whatever the
//! parser did with it (it may have skipped the region after another error).

use crate::source::Span;
use crate::syntax::lexer::{Token, TokenKind};
use crate::syntax::parser::TokenNotes;
use crate::syntax::{QuoteUsage, Suggestion, SyntaxError, SyntaxErrorKind};
use std::collections::HashMap;

/// Longest identifier Flink accepts (Calcite `identifierMaxLength`).
const MAX_IDENTIFIER_LEN: usize = 256;

/// Errors for the tokens of `text`; `notes` says where the parser needed a string or a name
/// (to pick the fix) and which regions the SQL client reads verbatim (no errors there).
pub(crate) fn lexical_errors(text: &str, tokens: &[Token], notes: &TokenNotes) -> Vec<SyntaxError> {
    // Looked up once per token: a map (the first usage noted for a span wins), and the raw
    // regions sorted by start, walked beside the tokens (which come in source order).
    let mut usages: HashMap<(u32, u32), QuoteUsage> = HashMap::new();
    for (span, usage) in &notes.usages {
        usages.entry((span.start, span.end)).or_insert(*usage);
    }
    let usage_of = |span: Span| {
        usages
            .get(&(span.start, span.end))
            .copied()
            .unwrap_or(QuoteUsage::Unknown)
    };
    let mut raw_regions = notes.raw_regions.clone();
    raw_regions.sort_by_key(|r| r.start);
    let mut next_region = 0;
    // The furthest end of the regions that start at or before the current token.
    let mut raw_end: Option<u32> = None;
    let mut errors = Vec::new();
    let mut push = |kind, message: String, span, help: Option<&str>, suggestion| {
        errors.push(SyntaxError {
            kind,
            message,
            span,
            help: help.map(str::to_string),
            suggestion,
            flink: None,
        });
    };
    if text.starts_with('\u{FEFF}') {
        let span = Span::new(0, 3);
        push(
            SyntaxErrorKind::Lexical,
            "the file starts with a UTF-8 byte-order mark, which Flink's parser rejects"
                .to_string(),
            span,
            Some("save the file as UTF-8 without BOM"),
            Some(Suggestion {
                title: "Remove the byte-order mark".to_string(),
                span,
                replacement: String::new(),
            }),
        );
    }
    for tok in tokens {
        while let Some(region) = raw_regions.get(next_region) {
            if region.start > tok.span.start {
                break;
            }
            raw_end = raw_end.max(Some(region.end));
            next_region += 1;
        }
        // A region that starts at or before the token and ends at or after it holds it.
        if raw_end.is_some_and(|end| end >= tok.span.end) {
            continue;
        }
        let raw = &text[tok.span.range()];
        match tok.kind {
            TokenKind::DoubleQuoted => {
                let closed = raw.len() >= 2 && raw.ends_with('"');
                let content = closed.then(|| raw[1..raw.len() - 1].replace("\"\"", "\""));
                let usage = usage_of(tok.span);
                let message = match usage {
                    QuoteUsage::Name => format!("double quotes do not quote names in Flink SQL: {raw}"),
                    _ => format!("double-quoted literal {raw}: Flink SQL has no double-quoted strings or names"),
                };
                push(
                    SyntaxErrorKind::DoubleQuoted { content, usage },
                    message,
                    tok.span,
                    Some("use '...' for a string literal, or backticks `...` for a name"),
                    None,
                );
            }
            TokenKind::TypographicQuoted => {
                let chars: Vec<char> = raw.chars().collect();
                let content =
                    (chars.len() >= 2).then(|| chars[1..chars.len() - 1].iter().collect());
                let mut usage = usage_of(tok.span);
                if matches!(
                    usage,
                    QuoteUsage::Unknown | QuoteUsage::Expression | QuoteUsage::ComparedValue
                ) && raw.starts_with(['\u{2018}', '\u{2019}'])
                {
                    // ‘…’ are single quotes: a string literal was meant.
                    usage = QuoteUsage::String;
                }
                push(
                    SyntaxErrorKind::TypographicQuote { content, usage },
                    format!("typographic quotes {raw}: Flink SQL only accepts straight quotes"),
                    tok.span,
                    Some("use straight quotes '...' for a string literal, or backticks `...` for a name"),
                    None,
                );
            }
            TokenKind::TypographicDash => push(
                SyntaxErrorKind::TypographicDash,
                format!("typographic dash `{raw}` where Flink SQL needs `-`"),
                tok.span,
                Some("replace it with the ASCII minus sign `-`"),
                None,
            ),
            TokenKind::TypographicComment => push(
                SyntaxErrorKind::TypographicDash,
                "comment started with typographic dashes: Flink SQL comments start with `--`"
                    .to_string(),
                tok.span,
                Some("replace the dashes with `--`"),
                None,
            ),
            TokenKind::HashComment => push(
                SyntaxErrorKind::HashComment,
                "`#` does not start a comment in Flink SQL".to_string(),
                tok.span,
                Some("start comments with `--`"),
                Some(Suggestion {
                    title: "Start the comment with `--`".to_string(),
                    span: Span {
                        start: tok.span.start,
                        end: tok.span.start + 1,
                    },
                    replacement: "--".to_string(),
                }),
            ),
            TokenKind::UnterminatedString => push(
                SyntaxErrorKind::Lexical,
                "unterminated string literal: the closing `'` is missing".to_string(),
                tok.span,
                Some("close the string with `'` (write a quote inside a string as `''`)"),
                None,
            ),
            TokenKind::UnterminatedQuotedIdent => {
                let message = if raw.contains(['\n', '\r']) || !raw.ends_with('`') {
                    "unterminated quoted name: the closing backtick is missing (a quoted name cannot span lines)"
                } else {
                    "unterminated quoted name: the closing backtick is missing"
                };
                push(
                    SyntaxErrorKind::Lexical,
                    message.to_string(),
                    tok.span,
                    Some("close the name with a backtick on the same line (write a backtick inside a name as two)"),
                    None,
                )
            }
            TokenKind::UnterminatedComment => push(
                SyntaxErrorKind::Lexical,
                "unterminated block comment: `*/` is missing".to_string(),
                tok.span,
                Some("close the comment with `*/`"),
                None,
            ),
            TokenKind::Unknown => {
                let ch = raw.chars().next().unwrap_or(' ');
                push(
                    SyntaxErrorKind::Lexical,
                    format!(
                        "unexpected character `{}` (U+{:04X})",
                        ch.escape_debug(),
                        ch as u32
                    ),
                    tok.span,
                    None,
                    None,
                );
            }
            TokenKind::BinaryString => {
                let inner = raw[2..].trim_end_matches('\'');
                if !inner.chars().all(|c| c.is_ascii_hexdigit() || c == ' ') {
                    push(
                        SyntaxErrorKind::Lexical,
                        "Binary literal string must contain only characters '0' - '9', 'A' - 'F'"
                            .to_string(),
                        tok.span,
                        Some("write the bytes as hexadecimal digits, e.g. X'0A1B'"),
                        None,
                    );
                }
            }
            TokenKind::UnicodeString => {
                if let Some(problem) = unicode_escape_problem(&raw[3..]) {
                    push(
                        SyntaxErrorKind::Lexical,
                        problem,
                        tok.span,
                        Some("write escapes as \\XXXX (four hex digits) or \\+XXXXXX"),
                        None,
                    );
                }
            }
            // Calcite's quoted identifier needs at least one character between the
            // backticks: Flink fails with "Lexical error ... after : "``"".
            TokenKind::QuotedIdent if raw == "``" => push(
                SyntaxErrorKind::Lexical,
                "empty quoted name ``: Flink SQL names cannot be empty".to_string(),
                tok.span,
                Some("write the name between the backticks"),
                None,
            ),
            TokenKind::Word | TokenKind::QuotedIdent
                if raw.chars().count()
                    > MAX_IDENTIFIER_LEN + 2 * usize::from(tok.kind == TokenKind::QuotedIdent) =>
            {
                push(
                    SyntaxErrorKind::Lexical,
                    format!("a name longer than {MAX_IDENTIFIER_LEN} characters, which Flink does not accept"),
                    tok.span,
                    Some("shorten the name"),
                    None,
                );
            }
            _ => {}
        }
    }
    errors
}

/// Checks the escapes of a `U&'...'` literal body (after `U&'`): `\XXXX`, `\+XXXXXX`, `\\`.
fn unicode_escape_problem(body: &str) -> Option<String> {
    let body = body.strip_suffix('\'').unwrap_or(body);
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            let rest = &body[i + 1..];
            let (digits, skip) = if rest.starts_with('\\') {
                (0, 1)
            } else if let Some(plus) = rest.strip_prefix('+') {
                (
                    6,
                    if plus
                        .get(..6)
                        .is_some_and(|d| d.chars().all(|c| c.is_ascii_hexdigit()))
                    {
                        7
                    } else {
                        0
                    },
                )
            } else {
                (
                    4,
                    if rest
                        .get(..4)
                        .is_some_and(|d| d.chars().all(|c| c.is_ascii_hexdigit()))
                    {
                        4
                    } else {
                        0
                    },
                )
            };
            if skip == 0 {
                return Some(format!(
                    "Unicode escape sequence starting at character {} is not exactly {digits} hex digits",
                    body[..i].chars().count() + 1
                ));
            }
            i += 1 + skip;
        } else {
            i += 1;
        }
    }
    None
}

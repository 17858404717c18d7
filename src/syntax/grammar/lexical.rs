//! The lexical pass: errors for text Flink's lexer rejects, reported once each whatever the
//! parser did with it (it may have skipped the region after another error).

use crate::source::Span;
use crate::syntax::lexer::{Token, TokenKind};
use crate::syntax::parser::TokenNotes;
use crate::syntax::{QuoteUsage, Suggestion, SyntaxError, SyntaxErrorKind};

use crate::syntax::MAX_IDENTIFIER_LEN;

/// Lexical errors of kind [`SyntaxErrorKind::Lexical`] (unknown characters, unterminated
/// literals and comments, malformed literals: none has a fix) reported per file; past this, one
/// [`SyntaxErrorKind::TooManyErrors`] error counts the rest. A binary file or a paste gone
/// wrong has one per byte, and the first ones say all there is to say.
pub const MAX_LEXICAL_ERRORS: usize = 100;

/// Lexical errors of any kind reported per file. The others (double-quoted text, typographic
/// quotes and dashes, `#` comments) each have a fix, which `--fix` needs to see, so they stop
/// only far past what a real file has: each costs memory, and a file of nothing but `"x"` has
/// one every four bytes.
pub const MAX_ALL_LEXICAL_ERRORS: usize = 10_000;

/// Characters of a token's text quoted in a message; longer text is cut with `…`.
const MAX_QUOTED_CHARS: usize = 80;

/// `raw`, cut after [`MAX_QUOTED_CHARS`] characters (with `…`), for a message.
fn quoted(raw: &str) -> std::borrow::Cow<'_, str> {
    match raw.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((cut, _)) => format!("{}…", &raw[..cut]).into(),
        None => raw.into(),
    }
}

/// Whether a span lies in one of `regions`: each region's start, sorted, with the largest end
/// among the regions starting at or before it (so a look-up is a binary search).
struct Regions(Vec<(u32, u32)>);

impl Regions {
    fn new(regions: &[Span]) -> Regions {
        let mut sorted: Vec<(u32, u32)> = regions.iter().map(|r| (r.start, r.end)).collect();
        sorted.sort_unstable();
        let mut max_end = 0;
        for r in &mut sorted {
            max_end = max_end.max(r.1);
            r.1 = max_end;
        }
        Regions(sorted)
    }

    fn contain(&self, span: Span) -> bool {
        let at = self.0.partition_point(|&(start, _)| start <= span.start);
        at > 0 && self.0[at - 1].1 >= span.end
    }
}

/// Errors for the tokens of `text`; `notes` says where the parser needed a string or a name
/// (to pick the fix) and which regions the SQL client reads verbatim (no errors there).
pub(crate) fn lexical_errors(text: &str, tokens: &[Token], notes: &TokenNotes) -> Vec<SyntaxError> {
    // The first usage recorded for a span counts. The parser records them in text order: a
    // binary search finds one (a sorted copy otherwise).
    let sorted_copy;
    let usages: &[(Span, QuoteUsage)] = if notes.usages.is_sorted_by_key(|(s, _)| *s) {
        &notes.usages
    } else {
        let mut copy = notes.usages.clone();
        copy.sort_by_key(|(s, _)| *s);
        sorted_copy = copy;
        &sorted_copy
    };
    let usage_of = |span: Span| {
        let at = usages.partition_point(|(s, _)| *s < span);
        match usages.get(at) {
            Some((s, usage)) if *s == span => *usage,
            _ => QuoteUsage::Unknown,
        }
    };
    let raw_regions = Regions::new(&notes.raw_regions);
    let mut errors = Vec::new();
    let mut lexical = 0usize;
    let mut unreported = 0usize;
    let mut first_unreported: Option<Span> = None;
    let mut push =
        |kind: SyntaxErrorKind, message: String, span, help: Option<&str>, suggestion| {
            if kind == SyntaxErrorKind::Lexical {
                lexical += 1;
            }
            if (kind == SyntaxErrorKind::Lexical && lexical > MAX_LEXICAL_ERRORS)
                || errors.len() >= MAX_ALL_LEXICAL_ERRORS
            {
                unreported += 1;
                first_unreported.get_or_insert(span);
                return;
            }
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
        if !may_report(tok) {
            continue;
        }
        if raw_regions.contain(tok.span) {
            continue;
        }
        let raw = &text[tok.span.range()];
        match tok.kind {
            TokenKind::DoubleQuoted => {
                let closed = raw.len() >= 2 && raw.ends_with('"');
                let content = closed.then(|| raw[1..raw.len() - 1].replace("\"\"", "\""));
                let usage = usage_of(tok.span);
                let shown = quoted(raw);
                let message = match usage {
                    QuoteUsage::Name => format!("double quotes do not quote names in Flink SQL: {shown}"),
                    _ => format!("double-quoted literal {shown}: Flink SQL has no double-quoted strings or names"),
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
                    format!("typographic quotes {}: Flink SQL only accepts straight quotes", quoted(raw)),
                    tok.span,
                    Some("use straight quotes '...' for a string literal, or backticks `...` for a name"),
                    None,
                );
            }
            TokenKind::TypographicDash => push(
                SyntaxErrorKind::TypographicDash,
                format!(
                    "typographic dash `{}` where Flink SQL needs `-`",
                    quoted(raw)
                ),
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
            TokenKind::Unknown => push(
                SyntaxErrorKind::Lexical,
                unknown_message(raw),
                tok.span,
                None,
                None,
            ),
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
    if let Some(span) = first_unreported {
        let more = unreported;
        errors.push(SyntaxError {
            kind: SyntaxErrorKind::TooManyErrors,
            message: format!(
                "{more} more lexical error{} in this file are not reported (at most {MAX_LEXICAL_ERRORS} runs of unknown characters, unterminated or malformed literals are, and {MAX_ALL_LEXICAL_ERRORS} lexical errors in all)",
                if more == 1 { "" } else { "s" }
            ),
            span,
            help: None,
            suggestion: None,
            flink: None,
        });
    }
    errors
}

/// Whether the pass can report anything on `tok`: a cheap test on its kind and length that
/// skips the tokens of well-formed text (words and quoted names of ordinary length,
/// punctuation, numbers, plain strings, comments) without reading their text.
pub(crate) fn may_report(tok: &Token) -> bool {
    let len = tok.span.end.saturating_sub(tok.span.start) as usize;
    match tok.kind {
        // A name is too long only if it has more characters, hence more bytes, than the limit.
        TokenKind::Word => len > MAX_IDENTIFIER_LEN,
        // Empty (two backticks) or possibly too long.
        TokenKind::QuotedIdent => len <= 2 || len > MAX_IDENTIFIER_LEN + 2,
        TokenKind::DoubleQuoted
        | TokenKind::TypographicQuoted
        | TokenKind::TypographicDash
        | TokenKind::TypographicComment
        | TokenKind::HashComment
        | TokenKind::UnterminatedString
        | TokenKind::UnterminatedQuotedIdent
        | TokenKind::UnterminatedComment
        | TokenKind::Unknown
        | TokenKind::BinaryString
        | TokenKind::UnicodeString => true,
        _ => false,
    }
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

/// The message for a run of characters the lexer does not know (one [`TokenKind::Unknown`]
/// token: adjacent unknown characters are one token, and one error).
fn unknown_message(raw: &str) -> String {
    let mut chars = raw.chars();
    let first = chars.next().unwrap_or(' ');
    let count = 1 + chars.clone().count();
    let name = format!("`{}` (U+{:04X})", first.escape_debug(), first as u32);
    if count == 1 {
        format!("unexpected character {name}")
    } else if chars.all(|c| c == first) {
        format!("unexpected character {name}, {count} in a row")
    } else {
        let shown: String = raw.chars().take(8).flat_map(char::escape_debug).collect();
        let more = if count > 8 { "..." } else { "" };
        format!(
            "unexpected characters `{shown}{more}` ({count} in a row, the first U+{:04X})",
            first as u32
        )
    }
}

//! Lexer: turns one file's text into tokens with byte spans, using `logos`.
//!
//! Follows Flink's lexical rules (Calcite `Lex.JAVA`, flink-spec §1): backtick identifiers with
//! doubled backticks, `$` inside and at the start of unquoted identifiers, single-quoted strings
//! with `''`, `X'..'`, `U&'..'`, `N'..'`, `E'..'` prefixes, numbers (`1`, `1.5`, `.5`, `1e-3`),
//! `--`, `//` and `/* */` comments (trivia) and `/*+ ... */` hints (a token of their own).
//!
//! The lexer never fails: input that cannot be a token becomes an error token whose kind says
//! why (typographic quotes and dashes, `"double quoted"` text, `#` comments, unterminated
//! strings and comments, unknown characters). Every byte of the input is covered by exactly one
//! token or by whitespace. Tokens are zero-copy: they carry spans, not text.

use super::keywords::{classify, classify_at, Kw};
use crate::source::Span;
use logos::{Lexer, Logos};

mod bytes;

pub(crate) use bytes::find_either;
use bytes::{fast_token, space_end, word_at, CLASS, MAX_PLAIN_TOKEN, SINGLE, SPACE, WORD_START};

/// The kind of a token. Keywords are [`TokenKind::Word`] with a [`Kw`] in [`Token::kw`].
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[logos(skip r"[ \t\n\r\f\u{FEFF}]+")]
pub enum TokenKind {
    /// An unquoted word: identifier or keyword (`$` is a letter: `$rowtime`).
    #[regex(r"[\p{L}_$][\p{L}\p{N}_$]*")]
    Word,
    /// A backtick-quoted identifier; `` ` `` inside is doubled.
    #[token("`", quoted_ident)]
    QuotedIdent,
    /// A backtick-quoted identifier without its closing backtick (runs to end of input).
    UnterminatedQuotedIdent,
    /// A single-quoted string literal; `'` inside is doubled.
    #[token("'", string_body)]
    String,
    /// `X'0A1B'` binary string literal.
    #[regex(r"[xX]'", string_body)]
    BinaryString,
    /// `U&'\0041'` Unicode string literal.
    #[regex(r"[uU]&'", string_body)]
    UnicodeString,
    /// `N'..'`, `E'..'` or `_charset'..'` prefixed string literal.
    #[regex(r"([nNeE]|_[A-Za-z0-9][A-Za-z0-9:._\-]*)'", string_body)]
    PrefixedString,
    /// A string literal without its closing quote (runs to end of input).
    UnterminatedString,
    /// An integer literal.
    #[regex(r"[0-9]+")]
    Integer,
    /// A decimal or approximate numeric literal (`1.5`, `.5`, `1.`, `1e-3`).
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?")]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+")]
    Decimal,
    /// `-- ...` or `// ...` to end of line (trivia).
    #[regex(r"--[^\r\n]*", allow_greedy = true)]
    #[regex(r"//[^\r\n]*", allow_greedy = true)]
    LineComment,
    /// `/* ... */` (trivia).
    #[token("/*", block_comment)]
    BlockComment,
    /// `/*+ ... */` hint.
    #[token("/*+", block_comment)]
    Hint,
    /// A block comment or hint without `*/` (runs to end of input).
    UnterminatedComment,
    /// `"..."`: Flink has no double-quoted literals or identifiers.
    #[token("\"", double_quoted)]
    DoubleQuoted,
    /// Text between typographic quotes (‘...’ or “...”), or a lone typographic quote.
    #[token("\u{2018}", typographic_quoted)]
    #[token("\u{2019}", typographic_quoted)]
    #[token("\u{201C}", typographic_quoted)]
    #[token("\u{201D}", typographic_quoted)]
    TypographicQuoted,
    /// A typographic dash (– — −) standing where `-` belongs.
    #[regex("[\u{2013}\u{2014}\u{2212}]")]
    TypographicDash,
    /// A run of dashes with at least one typographic dash, meant as a `--` comment (to end of
    /// line). Produced by [`lex`] from adjacent dashes, not by a pattern.
    TypographicComment,
    /// `# ...` to end of line: not a comment in Flink.
    #[regex(r"#[^\r\n]*", allow_greedy = true)]
    HashComment,

    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `{-` (MATCH_RECOGNIZE pattern exclusion)
    #[token("{-")]
    LBraceMinus,
    /// `-}`
    #[token("-}")]
    MinusRBrace,
    /// `,`
    #[token(",")]
    Comma,
    /// `;`
    #[token(";")]
    Semicolon,
    /// `.`
    #[token(".")]
    Dot,
    /// `:`
    #[token(":")]
    Colon,
    /// `::`
    #[token("::")]
    DoubleColon,
    /// `=`
    #[token("=")]
    Eq,
    /// `<>`
    #[token("<>")]
    NotEq,
    /// `!=`
    #[token("!=")]
    BangEq,
    /// `<`
    #[token("<")]
    Lt,
    /// `<=`
    #[token("<=")]
    LtEq,
    /// `>`
    #[token(">")]
    Gt,
    /// `>=`
    #[token(">=")]
    GtEq,
    /// `+`
    #[token("+")]
    Plus,
    /// `-`
    #[token("-")]
    Minus,
    /// `*`
    #[token("*")]
    Star,
    /// `/`
    #[token("/")]
    Slash,
    /// `%`
    #[token("%")]
    Percent,
    /// `||`
    #[token("||")]
    Concat,
    /// `|`
    #[token("|")]
    Pipe,
    /// `^`
    #[token("^")]
    Caret,
    /// `?`
    #[token("?")]
    Question,
    /// `=>`
    #[token("=>")]
    FatArrow,
    /// `->`
    #[token("->")]
    Arrow,
    /// `&`
    #[token("&")]
    Ampersand,
    /// Any other character.
    Unknown,
    /// End of input (never produced by the lexer; returned by the parser past the last token).
    Eof,
}

impl TokenKind {
    /// Comments and other tokens the parser skips.
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            TokenKind::LineComment
                | TokenKind::BlockComment
                | TokenKind::UnterminatedComment
                | TokenKind::HashComment
                | TokenKind::TypographicComment
        )
    }

    /// Error tokens: input Flink's lexer rejects.
    pub fn is_error(self) -> bool {
        matches!(
            self,
            TokenKind::UnterminatedQuotedIdent
                | TokenKind::UnterminatedString
                | TokenKind::UnterminatedComment
                | TokenKind::DoubleQuoted
                | TokenKind::TypographicQuoted
                | TokenKind::TypographicDash
                | TokenKind::TypographicComment
                | TokenKind::HashComment
                | TokenKind::Unknown
        )
    }

    /// String literal kinds (including prefixed ones).
    pub fn is_string(self) -> bool {
        matches!(
            self,
            TokenKind::String
                | TokenKind::BinaryString
                | TokenKind::UnicodeString
                | TokenKind::PrefixedString
        )
    }
}

/// One token: kind, keyword (for words) and byte span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Token {
    /// What kind of token.
    pub kind: TokenKind,
    /// For [`TokenKind::Word`]: the keyword it spells (case-insensitive), else [`Kw::NONE`].
    #[serde(skip)]
    pub kw: Kw,
    /// Byte range in the file.
    pub span: Span,
    /// For [`TokenKind::String`] and [`TokenKind::QuotedIdent`]: whether the text holds a
    /// doubled quote (`''`, ``` `` ```) standing for one, which the value must undo; `false`
    /// for every other token. The lexer finds the closing quote by walking past such pairs, so
    /// it knows; the parser then copies a value without scanning it again.
    #[serde(skip)]
    pub doubled: bool,
}

impl Token {
    /// A token that holds no doubled quote ([`Token::doubled`] false).
    #[inline]
    pub fn new(kind: TokenKind, kw: Kw, span: Span) -> Token {
        Token {
            kind,
            kw,
            span,
            doubled: false,
        }
    }
}

fn quoted_ident(lex: &mut Lexer<TokenKind>) -> logos::FilterResult<(), ()> {
    let rest = lex.remainder().as_bytes();
    let mut i = 0;
    while i < rest.len() {
        if rest[i] == b'\n' || rest[i] == b'\r' {
            // Calcite's quoted identifiers do not span lines.
            lex.bump(i);
            return logos::FilterResult::Error(());
        }
        if rest[i] == b'`' {
            if rest.get(i + 1) == Some(&b'`') {
                i += 2;
                continue;
            }
            lex.bump(i + 1);
            return logos::FilterResult::Emit(());
        }
        i += 1;
    }
    lex.bump(rest.len());
    logos::FilterResult::Error(())
}

fn string_body(lex: &mut Lexer<TokenKind>) -> logos::FilterResult<(), ()> {
    let rest = lex.remainder().as_bytes();
    let mut i = 0;
    while i < rest.len() {
        if rest[i] == b'\'' {
            if rest.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            lex.bump(i + 1);
            return logos::FilterResult::Emit(());
        }
        i += 1;
    }
    lex.bump(rest.len());
    logos::FilterResult::Error(())
}

fn block_comment(lex: &mut Lexer<TokenKind>) -> logos::FilterResult<(), ()> {
    let rest = lex.remainder();
    match rest.find("*/") {
        Some(i) => {
            lex.bump(i + 2);
            logos::FilterResult::Emit(())
        }
        None => {
            lex.bump(rest.len());
            logos::FilterResult::Error(())
        }
    }
}

fn double_quoted(lex: &mut Lexer<TokenKind>) {
    // To the closing quote on the same line, `""` being a quote inside (as in ANSI SQL's
    // quoted names); a lone `"` stays one character. One scan that stops at the closing quote
    // or the line's end (never the whole line first: a long line of many quotes stays linear).
    let rest = lex.remainder().as_bytes();
    let mut i = 0;
    while let Some(k) = rest[i..]
        .iter()
        .position(|&b| matches!(b, b'"' | b'\n' | b'\r'))
    {
        let at = i + k;
        if rest[at] != b'"' {
            return;
        }
        if rest.get(at + 1) == Some(&b'"') {
            i = at + 2;
            continue;
        }
        lex.bump(at + 1);
        return;
    }
}

fn typographic_quoted(lex: &mut Lexer<TokenKind>) {
    // ‘...’ / “...” on one line; a lone quote stays one character.
    let open = lex.slice();
    let closers: &[char] = if open == "\u{2018}" || open == "\u{2019}" {
        &['\u{2019}', '\u{2018}']
    } else {
        &['\u{201D}', '\u{201C}']
    };
    // One scan that stops at a closing quote or the line's end (linear on a long line).
    let rest = lex.remainder();
    if let Some((i, c)) = rest
        .char_indices()
        .take_while(|&(_, c)| c != '\n' && c != '\r')
        .find(|(_, c)| closers.contains(c))
    {
        lex.bump(i + c.len_utf8());
    }
}

/// Lexes `text` into tokens (comments included, whitespace skipped). Never fails.
///
/// Error handling: an unterminated string or block comment becomes one `Unterminated*` token
/// that runs to the end of input, an unterminated quoted identifier one that runs to the end of
/// its line (Calcite's quoted names do not span lines); any other unrecognized character becomes
/// an [`TokenKind::Unknown`] token, one for each run of adjacent such characters.
///
/// Most of SQL text is ASCII whitespace, words, integers and one-character punctuation: those
/// are read by a byte loop ([`fast_token`]) that yields exactly the token `logos` would; any
/// other input (strings, comments, operators of two characters, non-ASCII text, and every case
/// where a longer match could start) is left to the `logos` state machine.
pub fn lex(text: &str) -> Vec<Token> {
    lex_noting(text).0
}

/// What [`lex_noting`] noted about the tokens as it made them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LexNotes {
    /// Whether a token may have a lexical error (an error token, a `X'..'` or `U&'..'`
    /// literal, an empty or very long name): when not, the lexical-error pass has nothing to
    /// read. Words, numbers, punctuation, plain strings and comments read by the byte loop
    /// never have one unless they are longer than a name may be.
    pub(crate) may_report: bool,
    /// How many tokens are trivia (comments), which the parser does not read.
    pub(crate) trivia: usize,
}

/// [`lex`], and what it noted on the way ([`LexNotes`]).
pub(crate) fn lex_noting(text: &str) -> (Vec<Token>, LexNotes) {
    let bytes = text.as_bytes();
    let mut tokens = Vec::with_capacity(text.len() / 5 + 8);
    let mut lexer = TokenKind::lexer(text);
    let mut pos = 0usize;
    let mut may_report = false;
    let mut counts = ByteLoopCounts::default();
    loop {
        pos = byte_loop(bytes, pos, &mut tokens, &mut counts);
        // The state machine goes on from where the byte loop stopped.
        lexer.bump(pos - lexer.span().end);
        let Some(result) = lexer.next() else {
            break;
        };
        let token = logos_token(text, &mut lexer, result);
        may_report |= super::grammar::may_report(&token);
        counts.trivia += usize::from(token.kind.is_trivia());
        push_merging_unknown(&mut tokens, token);
        pos = lexer.span().end;
    }
    may_report |= counts.plain_lengths > MAX_PLAIN_TOKEN;
    let trivia = counts.trivia;
    (tokens, LexNotes { may_report, trivia })
}

/// What the byte loop counts for [`LexNotes`].
#[derive(Default)]
struct ByteLoopCounts {
    /// The lengths of the words and quoted names of the byte loop, or-ed together: over
    /// `MAX_PLAIN_TOKEN` if one of them is (and, rarely, when several of 129 to 256 bytes are:
    /// the lexical pass then runs for nothing), one `or` a word instead of a compare.
    plain_lengths: usize,
    /// Comments.
    trivia: usize,
}

/// The byte loop of [`lex_noting`] from `pos`: the tokens it reads ([`word_at`],
/// [`fast_token`]) pushed to `tokens`, up to the end of the text or to the first input left to
/// `logos`; returns where it stopped. Out of line, so that the loop keeps the vector's length
/// and its own values in registers (the state machine's are not live in it).
#[inline(never)]
fn byte_loop(
    bytes: &[u8],
    mut pos: usize,
    tokens: &mut Vec<Token>,
    counts: &mut ByteLoopCounts,
) -> usize {
    let mut plain_lengths = counts.plain_lengths;
    let mut trivia = counts.trivia;
    while pos < bytes.len() {
        let class = CLASS[bytes[pos] as usize];
        if class & SPACE != 0 {
            // Most runs of whitespace are one byte: the next byte alone says so.
            pos += 1;
            if pos < bytes.len() && CLASS[bytes[pos] as usize] & SPACE != 0 {
                pos = space_end(bytes, pos);
            }
            continue;
        }
        if class & WORD_START != 0 {
            // Words, the most frequent tokens: no second dispatch on the kind, and the
            // keyword read from the text in place.
            let Some(end) = word_at(bytes, pos) else {
                break;
            };
            plain_lengths |= end - pos;
            tokens.push(Token::new(
                TokenKind::Word,
                classify_at(bytes, pos, end),
                Span::new(pos, end),
            ));
            pos = end;
            continue;
        }
        if let Some(kind) = SINGLE[bytes[pos] as usize] {
            // Punctuation of one character (`,`, `(`, `)`, `;`: most of the rest).
            tokens.push(Token::new(kind, Kw::NONE, Span::new(pos, pos + 1)));
            pos += 1;
            continue;
        }
        let Some((kind, end, doubled)) = fast_token(bytes, pos) else {
            break;
        };
        match kind {
            TokenKind::QuotedIdent => plain_lengths |= end - pos,
            TokenKind::LineComment => trivia += 1,
            _ => {}
        }
        tokens.push(Token {
            kind,
            kw: Kw::NONE,
            span: Span::new(pos, end),
            doubled,
        });
        pos = end;
    }
    counts.plain_lengths = plain_lengths;
    counts.trivia = trivia;
    pos
}

/// The token `logos` just matched, with its error kind, typographic-dash comment and keyword
/// worked out.
fn logos_token(text: &str, lexer: &mut Lexer<TokenKind>, result: Result<TokenKind, ()>) -> Token {
    let range = lexer.span();
    let mut span = Span::new(range.start, range.end);
    let mut kind = match result {
        Ok(kind) => kind,
        Err(()) => error_kind(&text[range]),
    };
    if matches!(kind, TokenKind::Minus | TokenKind::TypographicDash) {
        // `––`, `—-`, `-–`: a comment written with typographic dashes.
        let next = text[span.end as usize..].chars().next();
        let next_is_dash = matches!(next, Some('-' | '\u{2013}' | '\u{2014}' | '\u{2212}'));
        let typographic = kind == TokenKind::TypographicDash
            || matches!(next, Some('\u{2013}' | '\u{2014}' | '\u{2212}'));
        if next_is_dash && typographic {
            let rest = &text[span.end as usize..];
            let len = rest.find(['\n', '\r']).unwrap_or(rest.len());
            lexer.bump(len);
            span.end += len as u32;
            kind = TokenKind::TypographicComment;
        }
    }
    let kw = if kind == TokenKind::Word {
        classify(&text[span.range()])
    } else {
        Kw::NONE
    };
    let doubled = match kind {
        TokenKind::String => has_pair(&text.as_bytes()[span.range()], b'\''),
        TokenKind::QuotedIdent => has_pair(&text.as_bytes()[span.range()], b'`'),
        _ => false,
    };
    Token {
        kind,
        kw,
        span,
        doubled,
    }
}

/// Whether the quoted text `raw` (its opening and closing quote `quote` included) holds a
/// doubled `quote` inside.
fn has_pair(raw: &[u8], quote: u8) -> bool {
    let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
    inner.windows(2).any(|w| w == [quote, quote])
}

/// Pushes `token`, joined to the token before it when both are [`TokenKind::Unknown`] and
/// adjacent: a run of characters the lexer does not know is one token (one error for the
/// run, and a bounded number of tokens for a file of, say, NUL bytes).
#[inline]
fn push_merging_unknown(tokens: &mut Vec<Token>, token: Token) {
    if token.kind == TokenKind::Unknown {
        if let Some(last) = tokens.last_mut() {
            if last.kind == TokenKind::Unknown && last.span.end == token.span.start {
                last.span.end = token.span.end;
                return;
            }
        }
    }
    tokens.push(token);
}

/// Works out which error a failed match was from its text.
fn error_kind(s: &str) -> TokenKind {
    if s.starts_with('`') {
        TokenKind::UnterminatedQuotedIdent
    } else if s.starts_with("/*") {
        TokenKind::UnterminatedComment
    } else if s.contains('\'') {
        TokenKind::UnterminatedString
    } else {
        TokenKind::Unknown
    }
}

#[cfg(test)]
mod tests;

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

use super::keywords::{classify, classify_bytes, Kw};
use crate::source::Span;
use logos::{Lexer, Logos};

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
/// an [`TokenKind::Unknown`] token of that one character.
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
    // The lengths of the words and quoted names of the byte loop, or-ed together: over
    // `MAX_PLAIN_TOKEN` if one of them is (and, rarely, when several of 129 to 256 bytes are:
    // the lexical pass then runs for nothing), one `or` a word instead of a compare.
    let mut plain_lengths = 0usize;
    let mut trivia = 0usize;
    loop {
        while pos < bytes.len() {
            if CLASS[bytes[pos] as usize] & SPACE != 0 {
                // Most runs of whitespace are one byte: the next byte alone says so.
                pos += 1;
                if pos < bytes.len() && CLASS[bytes[pos] as usize] & SPACE != 0 {
                    pos = space_end(bytes, pos);
                }
                continue;
            }
            let Some((kind, end)) = fast_token(bytes, pos) else {
                break;
            };
            let kw = match kind {
                TokenKind::Word => {
                    plain_lengths |= end - pos;
                    classify_bytes(&bytes[pos..end])
                }
                TokenKind::QuotedIdent => {
                    plain_lengths |= end - pos;
                    Kw::NONE
                }
                TokenKind::LineComment => {
                    trivia += 1;
                    Kw::NONE
                }
                _ => Kw::NONE,
            };
            tokens.push(Token {
                kind,
                kw,
                span: Span::new(pos, end),
            });
            pos = end;
        }
        // The state machine goes on from where the byte loop stopped.
        lexer.bump(pos - lexer.span().end);
        let Some(result) = lexer.next() else {
            break;
        };
        let token = logos_token(text, &mut lexer, result);
        may_report |= super::grammar::may_report(&token);
        trivia += usize::from(token.kind.is_trivia());
        tokens.push(token);
        pos = lexer.span().end;
    }
    may_report |= plain_lengths > MAX_PLAIN_TOKEN;
    (tokens, LexNotes { may_report, trivia })
}

/// The end of the run of ASCII whitespace from `from` (a whitespace byte, the run's second):
/// a line break and its indentation, read eight bytes at a time, spaces counted with one
/// compare. Out of line, so that the byte loop does not hold its constants in registers.
#[inline(never)]
fn space_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        match bytes.get(i) {
            Some(&b) if CLASS[b as usize] & SPACE != 0 => {}
            _ => return i,
        }
        if i + 8 <= bytes.len() {
            // The spaces from `i` (none when `bytes[i]` is another whitespace byte).
            let other = nonzero_bytes(load8(bytes, i) ^ (ONES * u64::from(b' ')));
            let spaces = if other == 0 {
                8
            } else {
                (other.trailing_zeros() / 8) as usize
            };
            i += spaces.max(1);
        } else {
            i += 1;
        }
    }
}

/// Bit 7 of every byte of `x` that is not zero, exactly (no borrow between bytes).
#[inline]
fn nonzero_bytes(x: u64) -> u64 {
    (((x & !HIGHS) + !HIGHS) | x) & HIGHS
}

/// Words and quoted names of the byte loop at most this many bytes long never have a lexical
/// error: a name is too long past 256 characters (Calcite `identifierMaxLength`); an empty
/// quoted name is reported, and the byte loop reads none.
const MAX_PLAIN_TOKEN: usize = 256;

/// Every byte 0x01.
const ONES: u64 = 0x0101_0101_0101_0101;
/// Every byte 0x80.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The eight bytes at `at` (which has eight bytes after it), little-endian.
#[inline]
fn load8(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// The end of the run of ASCII word characters (letters, digits, `_`, `$`) from `from`:
/// eight bytes at a time while eight are left (one bounds check for eight look-ups), then a
/// byte at a time.
#[inline]
fn word_end(bytes: &[u8], from: usize) -> usize {
    let mut end = from;
    while let Some(chunk) = bytes.get(end..end + 8) {
        for (k, &b) in chunk.iter().enumerate() {
            if CLASS[b as usize] & WORD == 0 {
                return end + k;
            }
        }
        end += 8;
    }
    while end < bytes.len() && CLASS[bytes[end] as usize] & WORD != 0 {
        end += 1;
    }
    end
}

/// The first byte at or after `from` that is `a` or `b`, eight bytes at a time.
#[inline]
pub(crate) fn find_either(bytes: &[u8], from: usize, a: u8, b: u8) -> Option<usize> {
    let mut i = from;
    while i + 8 <= bytes.len() {
        let x = load8(bytes, i);
        let found = zero_bytes(x ^ (ONES * u64::from(a))) | zero_bytes(x ^ (ONES * u64::from(b)));
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    bytes[i..]
        .iter()
        .position(|&c| c == a || c == b)
        .map(|k| i + k)
}

/// Bit 7 of the lowest zero byte of `x` set (and possibly bits above it, never below): the
/// lowest set bit marks the first zero byte.
#[inline]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// [`CLASS`] bit: ASCII whitespace the lexer skips (` `, tab, line feed, carriage return,
/// form feed).
const SPACE: u8 = 1;
/// [`CLASS`] bit: an ASCII character that continues a word (letter, digit, `_`, `$`).
const WORD: u8 = 2;

/// The class bits of each byte value, for the byte loop of [`lex`].
static CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0c) {
            class[b] = SPACE;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
            class[b] = WORD;
        }
        b += 1;
    }
    class
};

/// The token at `pos` if it is one the byte loop of [`lex`] reads (its kind and end), `None`
/// for input left to `logos`. The token is the one `logos` would match there: a word is not
/// followed by a non-ASCII character (which may continue it) nor, when one letter long, by `'`
/// or `&` (`X'..'`, `N'..'`, `E'..'`, `U&'..'` literals); a word starting with `_` may be a
/// `_charset'..'` literal; an integer is not followed by `.`, `e` or `E` (a decimal); a `.`
/// is not followed by a digit (`.5`); a string or a quoted name is closed (an unterminated
/// one, an empty name and a name with a carriage return are left to `logos`); `-` is not
/// followed by `}`, `>` or a non-ASCII character (`-}`, `->`, a typographic-dash comment);
/// `/*` (a comment or hint) and every other character (`"`, `#`, `!`, non-ASCII text) are
/// left to `logos`.
#[inline]
fn fast_token(bytes: &[u8], pos: usize) -> Option<(TokenKind, usize)> {
    let b = bytes[pos];
    // Read only by the arms of characters that may start a token of two (not ahead of the
    // match: words, the most frequent tokens, do not need it).
    let next = || bytes.get(pos + 1).copied();
    let single = |kind| Some((kind, pos + 1));
    let pair = |kind| Some((kind, pos + 2));
    match b {
        b'A'..=b'Z' | b'a'..=b'z' | b'$' => {
            let end = word_end(bytes, pos + 1);
            match bytes.get(end) {
                Some(&n) if n >= 0x80 => None,
                Some(b'\'' | b'&') if end == pos + 1 => None,
                _ => Some((TokenKind::Word, end)),
            }
        }
        b'0'..=b'9' => {
            let mut end = pos + 1;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            match bytes.get(end) {
                Some(b'.' | b'e' | b'E') => None,
                _ => Some((TokenKind::Integer, end)),
            }
        }
        b'\'' => {
            // To the closing quote, `''` being a quote inside; an unterminated string is left
            // to `logos`.
            let mut from = pos + 1;
            loop {
                let at = find_either(bytes, from, b'\'', b'\'')?;
                if bytes.get(at + 1) == Some(&b'\'') {
                    from = at + 2;
                    continue;
                }
                return Some((TokenKind::String, at + 1));
            }
        }
        b'`' => {
            // To the closing backtick on the same line, `` `` `` being one inside; an
            // unterminated or empty name is left to `logos` and the lexical pass.
            let mut from = pos + 1;
            loop {
                let at = find_either(bytes, from, b'`', b'\n')?;
                match (bytes[at], bytes.get(at + 1)) {
                    (b'`', Some(b'`')) => from = at + 2,
                    (b'`', _) if at > pos + 1 && !bytes[pos + 1..at].contains(&b'\r') => {
                        return Some((TokenKind::QuotedIdent, at + 1))
                    }
                    _ => return None,
                }
            }
        }
        b'-' => match next() {
            Some(b'-') => {
                let end = find_either(bytes, pos + 2, b'\n', b'\r').unwrap_or(bytes.len());
                Some((TokenKind::LineComment, end))
            }
            // `-}`, `->`, and a typographic dash after `-` (a comment) are left to `logos`.
            Some(b'}' | b'>') => None,
            Some(n) if n >= 0x80 => None,
            _ => single(TokenKind::Minus),
        },
        b'/' => match next() {
            Some(b'/') => {
                let end = find_either(bytes, pos + 2, b'\n', b'\r').unwrap_or(bytes.len());
                Some((TokenKind::LineComment, end))
            }
            Some(b'*') => None,
            _ => single(TokenKind::Slash),
        },
        b'=' => match next() {
            Some(b'>') => pair(TokenKind::FatArrow),
            _ => single(TokenKind::Eq),
        },
        b'<' => match next() {
            Some(b'=') => pair(TokenKind::LtEq),
            Some(b'>') => pair(TokenKind::NotEq),
            _ => single(TokenKind::Lt),
        },
        b'>' => match next() {
            Some(b'=') => pair(TokenKind::GtEq),
            _ => single(TokenKind::Gt),
        },
        b':' => match next() {
            Some(b':') => pair(TokenKind::DoubleColon),
            _ => single(TokenKind::Colon),
        },
        b'|' => match next() {
            Some(b'|') => pair(TokenKind::Concat),
            _ => single(TokenKind::Pipe),
        },
        b'.' => match next() {
            Some(b'0'..=b'9') => None,
            _ => single(TokenKind::Dot),
        },
        b'{' => match next() {
            Some(b'-') => pair(TokenKind::LBraceMinus),
            _ => single(TokenKind::LBrace),
        },
        b'(' => single(TokenKind::LParen),
        b')' => single(TokenKind::RParen),
        b',' => single(TokenKind::Comma),
        b';' => single(TokenKind::Semicolon),
        b'[' => single(TokenKind::LBracket),
        b']' => single(TokenKind::RBracket),
        b'}' => single(TokenKind::RBrace),
        b'+' => single(TokenKind::Plus),
        b'*' => single(TokenKind::Star),
        b'%' => single(TokenKind::Percent),
        b'^' => single(TokenKind::Caret),
        b'?' => single(TokenKind::Question),
        b'&' => single(TokenKind::Ampersand),
        _ => None,
    }
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
    Token { kind, kw, span }
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
mod tests {
    use super::*;

    /// Every token from the `logos` state machine alone: what [`lex`] must equal.
    fn lex_logos_only(text: &str) -> Vec<Token> {
        let mut tokens = Vec::new();
        let mut lexer = TokenKind::lexer(text);
        while let Some(result) = lexer.next() {
            tokens.push(logos_token(text, &mut lexer, result));
        }
        tokens
    }

    #[test]
    fn byte_loop_matches_logos() {
        let cases = [
            "SELECT a, b FROM t WHERE x = 1;",
            "x'0A' X'0a' n'a' N'b' e'c' E'd' u&'\\0041' U&'x' _utf8'x' _latin1.x'y' _a 'b'",
            "x 'a' xy'b' u &'c' u& 'd' a&b ab&'c' $a $ $1 a$b a_b _ __ _9",
            "1 12 1.5 1. .5 1e3 1E-3 1e 1ex 12e+ 1_000 123abc 1..2 9.e2",
            "caf\u{e9} \u{e9}t\u{e9} a\u{e9}' x\u{e9}'a' n\u{301}'a' a\u{2013}b 1\u{e9}",
            "( ) , ; [ ] { } {- -} + * % ^ ? & | || :: : = => -> <> != < <= > >= / // -- c\n/* c */ /*+ h */",
            "a\u{FEFF}b \u{FEFF}\u{FEFF} \u{2018}q\u{2019} \u{201C}q\u{201D} \"d\" #h\n`a``b` `x",
            "-- c\r\n--\u{2013} c\n\u{2013}\u{2013} c\n- - -\u{2014}x\n'unterminated",
            "/* open",
            "\u{0}\u{7f}\u{1}~@\\ \x0c\x0b",
            "",
            "a",
            "9",
            "x",
            "u&",
            "e'",
        ];
        for case in cases {
            assert_eq!(lex(case), lex_logos_only(case), "{case:?}");
        }
        // Every short string over an alphabet of the characters that decide a match.
        let alphabet: Vec<char> = "aeuxN_$9.'&e-\u{2013}\u{e9} /*+\n{".chars().collect();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 9) as usize;
            let mut s = String::new();
            let mut r = seed;
            for _ in 0..len {
                s.push(alphabet[(r % alphabet.len() as u64) as usize]);
                r /= alphabet.len() as u64;
            }
            assert_eq!(lex(&s), lex_logos_only(&s), "{s:?}");
        }
    }

    #[test]
    fn byte_loop_matches_logos_on_operators_strings_and_names() {
        let cases = [
            "a = 'x' AND b <> 'it''s' OR c >= 1 || 'a''' <= d :: e : f | g ^ h ? & => ->",
            "`a` `a``b` `` ``` `x\ny` `x\ry` `x\r\n` 'a\nb' '' '''' 'open",
            "-- c\r-- d\n// e\r\n//\n--\u{2013} -\u{2013} -}{- {x} .5 .x a.b 1.e 1.2.3",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b$$$$$$$$$$$$$$$$_9 abcdefgh\u{e9} abcdefg\u{e9} ABCDEFGHIJ'",
            "        x           'y'        \t\t        \n",
            "x_______________________________________________@ y0123456789012345678901234567[",
        ];
        for case in cases {
            assert_eq!(lex(case), lex_logos_only(case), "{case:?}");
        }
        // Every short string over the characters of the operators, strings, quoted names,
        // comments and words the byte loop reads eight bytes at a time.
        let alphabet: Vec<char> = "ab_$Z9 '`=<>:|.-/*{}\n\r\u{e9}\u{2013}!\"#@["
            .chars()
            .collect();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..40_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 23) as usize;
            let mut s = String::new();
            let mut r = seed;
            for i in 0..len {
                if r == 0 {
                    r = seed.rotate_left(i as u32 * 7) | 1;
                }
                s.push(alphabet[(r % alphabet.len() as u64) as usize]);
                r /= alphabet.len() as u64;
            }
            assert_eq!(lex(&s), lex_logos_only(&s), "{s:?}");
        }
    }

    #[test]
    fn byte_loop_matches_logos_on_the_fixtures() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut stack = vec![root];
        let mut files = 0;
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "sql") {
                    if let Ok(text) = std::fs::read_to_string(&path) {
                        assert_eq!(lex(&text), lex_logos_only(&text), "{}", path.display());
                        files += 1;
                    }
                }
            }
        }
        assert!(files > 0);
    }
}

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

use super::keywords::{classify, Kw};
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
pub fn lex(text: &str) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(text.len() / 5 + 8);
    let mut lexer = TokenKind::lexer(text);
    while let Some(result) = lexer.next() {
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
        tokens.push(Token { kind, kw, span });
    }
    tokens
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

//! Parser infrastructure: token cursor, error recording, recovery and limits.
//!
//! Grammar functions return [`PResult`]: `Err(Recover)` means an error has already been
//! recorded and the caller should unwind to the nearest recovery point (a list element, a
//! clause, or the statement). Loops consume a token per iteration or stop; the cursor has a
//! step limit ("fuel") that makes it report end of input if the grammar ever stops consuming,
//! and a nesting limit so that no input can overflow the stack.

use super::ast::{Ident, Property, Script, Statement, StatementKind, StringLit};
use super::keywords::Kw;
use super::lexer::{find_either, Token, TokenKind};
use super::{FlinkSyntax, QuoteUsage, Suggestion, SyntaxError, SyntaxErrorKind};
use crate::source::Span;
use compact_str::CompactString;

mod errors;
mod names;

/// What the parser learned about error tokens, for the lexical pass.
#[derive(Debug, Default)]
pub(crate) struct TokenNotes {
    /// How quoted error tokens were used (string or name).
    pub(crate) usages: Vec<(Span, QuoteUsage)>,
    /// Regions read verbatim by the SQL client.
    pub(crate) raw_regions: Vec<Span>,
}

/// Marker: an error was recorded; unwind to the nearest recovery point.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Recover;

/// Result of a grammar function.
pub(crate) type PResult<T> = Result<T, Recover>;

/// Maximum nesting of expressions, queries and types.
const MAX_DEPTH: u32 = 200;
/// Errors recorded per file; past this the parser stops recording (garbage input).
const MAX_ERRORS: usize = 500;
/// Lookahead calls allowed without consuming a token before the cursor reports end of input.
const FUEL: i32 = 4096;

/// The parser's state over one file's tokens.
pub(crate) struct Parser<'a> {
    pub(crate) text: &'a str,
    /// Non-trivia tokens.
    tokens: &'a [Token],
    pos: usize,
    /// End of the last consumed token.
    last_end: u32,
    errors: Vec<SyntaxError>,
    usages: Vec<(Span, QuoteUsage)>,
    /// Regions the SQL client reads verbatim (unquoted SET keys and values): no lexical errors.
    raw_regions: Vec<Span>,
    depth: u32,
    /// Inside `POSITION(a IN b)`'s first argument, `IN` separates arguments.
    pub(crate) no_in_operator: bool,
    /// Lookahead calls left before the cursor reports end of input; negative once spent.
    fuel: i32,
    /// After an error, further errors are muted until a recovery point resynchronizes.
    muted: bool,
    /// The current statement had an error that muted the parser (a recovery may have skipped
    /// text since).
    stumbled: bool,
    /// Errors recorded in the current statement after which parsing went on exactly as if the
    /// text were right (a reserved word read as a name, a keyword Flink lacks that is skipped):
    /// when all its errors are such, text left over at the statement's end is still reported.
    in_step: usize,
    /// The statement uses a form Flink's parser refuses although the tree is whole (kept for
    /// SY005, e.g. `CREATE TEMPORARY MATERIALIZED TABLE`).
    refused_form: bool,
    eof: Token,
}

/// The tokens the parser reads: `all` without its comments. `trivia` is how many comments
/// `all` holds (`None`: not counted). When the comments all come before the first other token
/// (a file's header, or none at all: most files), the tokens after them are borrowed as they
/// are; otherwise one copy of the runs of tokens between comments (comments are few, and the
/// copy never grows).
pub(crate) fn significant(all: &[Token], trivia: Option<usize>) -> std::borrow::Cow<'_, [Token]> {
    let lead = all.iter().take_while(|t| t.kind.is_trivia()).count();
    let trivia = trivia.unwrap_or_else(|| all.iter().filter(|t| t.kind.is_trivia()).count());
    if trivia == lead {
        return std::borrow::Cow::Borrowed(&all[lead..]);
    }
    // The runs between comments, each copied at once: one test of a token's kind each, and a
    // `memcpy` a run (comments are few).
    let mut tokens: Vec<Token> = Vec::with_capacity(all.len().saturating_sub(trivia));
    let mut rest = &all[lead..];
    while let Some(comment) = rest.iter().position(|t| t.kind.is_trivia()) {
        tokens.extend_from_slice(&rest[..comment]);
        rest = &rest[comment + 1..];
    }
    tokens.extend_from_slice(rest);
    std::borrow::Cow::Owned(tokens)
}

impl<'a> Parser<'a> {
    /// A parser over `tokens`, the file's tokens without comments ([`significant`]).
    pub(crate) fn new(text: &'a str, tokens: &'a [Token]) -> Parser<'a> {
        let end = text.len() as u32;
        Parser {
            text,
            tokens,
            pos: 0,
            last_end: 0,
            errors: Vec::new(),
            usages: Vec::new(),
            raw_regions: Vec::new(),
            depth: 0,
            no_in_operator: false,
            fuel: FUEL,
            muted: false,
            stumbled: false,
            in_step: 0,
            refused_form: false,
            eof: Token::new(TokenKind::Eof, Kw::NONE, Span::empty(end)),
        }
    }

    /// Parses the whole file.
    pub(crate) fn parse_script(mut self) -> (Script, Vec<SyntaxError>, TokenNotes) {
        // About one statement per 30 to 60 tokens in real scripts: one allocation for most
        // files (a few unused slots cost nothing).
        let mut statements = Vec::with_capacity(self.tokens.len() / 24 + 2);
        loop {
            self.fuel = FUEL;
            while self.eat_kind(TokenKind::Semicolon).is_some() {}
            if self.pos >= self.tokens.len() {
                break;
            }
            let before = self.pos;
            let statement = self.statement_with_recovery();
            statements.push(statement);
            if self.pos == before {
                // Cannot happen (a statement always consumes), but never loop.
                self.bump();
            }
        }
        let notes = TokenNotes {
            usages: self.usages,
            raw_regions: self.raw_regions,
        };
        (Script { statements }, self.errors, notes)
    }

    /// After parsing a fragment (a data type on its own): its syntax errors and token notes,
    /// or `None` when tokens are left over.
    pub(crate) fn finish_fragment(mut self) -> Option<(Vec<SyntaxError>, TokenNotes)> {
        if !self.at_eof() {
            return None;
        }
        let notes = TokenNotes {
            usages: self.usages,
            raw_regions: self.raw_regions,
        };
        Some((self.errors, notes))
    }

    /// One statement and its terminator, recovering at `;` or the next statement start.
    pub(crate) fn statement_with_recovery(&mut self) -> Statement {
        let start = self.start();
        let errors_before = self.errors.len();
        self.muted = false;
        self.stumbled = false;
        self.in_step = 0;
        self.refused_form = false;
        self.depth = 0;
        let result = self.statement();
        let parsed_whole = result.is_ok()
            && !self.stumbled
            && !self.muted
            && self.errors.len() - errors_before <= self.in_step;
        let kind = result.unwrap_or(StatementKind::Error);
        let mut has_error = self.errors.len() > errors_before || self.muted;
        if !self.at_kind(TokenKind::Semicolon) && !self.at_eof() {
            if parsed_whole {
                let found = self.describe_current();
                // Inserting `;` after an error token (a quoted name left open, a lone `"`) can
                // leave it inside that token: the fix would never end the statement.
                let after_error_token = self
                    .pos
                    .checked_sub(1)
                    .and_then(|i| self.tokens.get(i))
                    .is_some_and(|t| t.kind.is_error());
                if self.at_statement_start_on_new_line() {
                    let span = self.current().span;
                    let insert_at = self.last_end;
                    let message = format!("expected `;` before the next statement, found {found}");
                    let help = Some("end the previous statement with `;`".to_string());
                    if after_error_token {
                        self.note_error(SyntaxErrorKind::Unexpected, message, span, help);
                    } else {
                        self.note_error_with_fix(
                            SyntaxErrorKind::Unexpected,
                            message,
                            span,
                            help,
                            Suggestion {
                                title: "End the previous statement with `;`".to_string(),
                                span: Span::empty(insert_at),
                                replacement: ";".to_string(),
                            },
                        );
                    }
                } else {
                    let _ =
                        self.error_here(format!("expected `;` or end of statement, found {found}"));
                }
                has_error = true;
            }
            self.skip_to_statement_end();
        }
        let span = Span {
            start,
            end: self.last_end.max(start),
        };
        self.muted = false;
        Statement {
            kind,
            span,
            has_error: has_error || self.refused_form,
        }
    }

    /// Skips tokens until `;`, end of input, or a statement keyword at the start of a line
    /// outside parentheses.
    pub(crate) fn skip_to_statement_end(&mut self) {
        let mut depth: i32 = 0;
        loop {
            let kind = self.kind();
            match kind {
                TokenKind::Eof => break,
                TokenKind::Semicolon if depth <= 0 => break,
                TokenKind::LParen => depth += 1,
                TokenKind::RParen => depth -= 1,
                _ => {}
            }
            if depth <= 0 && self.pos > 0 && self.at_statement_start_on_new_line() {
                break;
            }
            self.bump();
        }
    }

    /// A statement keyword that starts a line: a likely missing `;`.
    pub(crate) fn at_statement_start_on_new_line(&mut self) -> bool {
        let tok = self.current();
        let starts = matches!(
            tok.kw,
            Kw::CREATE
                | Kw::ALTER
                | Kw::DROP
                | Kw::INSERT
                | Kw::UPSERT
                | Kw::USE
                | Kw::SHOW
                | Kw::DESCRIBE
                | Kw::EXPLAIN
                | Kw::EXECUTE
        );
        starts && self.is_first_on_line(self.pos)
    }

    /// Whether the current token starts a line.
    pub(crate) fn is_first_on_line_here(&self) -> bool {
        self.is_first_on_line(self.pos)
    }

    fn is_first_on_line(&self, pos: usize) -> bool {
        if pos == 0 {
            return true;
        }
        let Some(tok) = self.tokens.get(pos) else {
            return false;
        };
        let prev_end = self.tokens[pos - 1].span.end as usize;
        self.text[prev_end..tok.span.start as usize].contains(['\n', '\r'])
    }

    // ----- cursor -----

    /// The kind and keyword of the token `n` places before the current one (1 = the previous).
    pub(crate) fn behind(&self, n: usize) -> Option<(TokenKind, Kw)> {
        let i = self.pos.checked_sub(n)?;
        self.tokens.get(i).map(|t| (t.kind, t.kw))
    }

    /// The current token (end-of-input sentinel past the end or when out of fuel).
    pub(crate) fn current(&mut self) -> Token {
        self.nth(0)
    }

    /// The token `n` places ahead. Every look-ahead spends one unit of fuel (a decrement and
    /// a sign test); with none left the cursor reports end of input, which ends every loop of
    /// the grammar that would not consume a token.
    #[inline]
    pub(crate) fn nth(&mut self, n: usize) -> Token {
        self.fuel -= 1;
        if self.fuel < 0 {
            return self.out_of_fuel();
        }
        match self.tokens.get(self.pos + n) {
            Some(tok) => *tok,
            None => self.eof,
        }
    }

    /// The current token and the next one ([`Parser::nth`] 0 and 1) for one unit of fuel.
    #[inline]
    pub(crate) fn current_and_next(&mut self) -> (Token, Token) {
        self.fuel -= 1;
        if self.fuel < 0 {
            let eof = self.out_of_fuel();
            return (eof, eof);
        }
        let tokens = self.tokens.get(self.pos..).unwrap_or_default();
        (
            *tokens.first().unwrap_or(&self.eof),
            *tokens.get(1).unwrap_or(&self.eof),
        )
    }

    /// [`Parser::nth`] with no fuel left: the end-of-input sentinel (the fuel stays spent, and
    /// cannot wrap around however often this is called).
    #[cold]
    #[inline(never)]
    fn out_of_fuel(&mut self) -> Token {
        self.fuel = 0;
        self.eof
    }

    /// Kind of the current token.
    pub(crate) fn kind(&mut self) -> TokenKind {
        self.current().kind
    }

    /// Keyword of the current token.
    pub(crate) fn kw(&mut self) -> Kw {
        self.current().kw
    }

    /// Whether the current token is the keyword `kw`.
    pub(crate) fn at(&mut self, kw: Kw) -> bool {
        self.current().kw == kw
    }

    /// Whether the token `n` ahead is the keyword `kw`.
    pub(crate) fn nth_at(&mut self, n: usize, kw: Kw) -> bool {
        self.nth(n).kw == kw
    }

    /// Whether the current token is of `kind`.
    pub(crate) fn at_kind(&mut self, kind: TokenKind) -> bool {
        self.current().kind == kind
    }

    /// Whether the current token is a word spelling `word` (case-insensitive), for words that
    /// are not keywords (`CUMULATE`, `JSON`, ...).
    pub(crate) fn at_word(&mut self, word: &str) -> bool {
        let tok = self.current();
        tok.kind == TokenKind::Word && self.text[tok.span.range()].eq_ignore_ascii_case(word)
    }

    /// Whether the input is exhausted.
    pub(crate) fn at_eof(&mut self) -> bool {
        self.kind() == TokenKind::Eof
    }

    /// Consumes the current token.
    #[inline]
    pub(crate) fn bump(&mut self) -> Token {
        let tok = self.tokens.get(self.pos).copied().unwrap_or(self.eof);
        if self.pos < self.tokens.len() {
            self.pos += 1;
            self.last_end = tok.span.end;
        }
        self.fuel = FUEL;
        tok
    }

    /// Consumes `tok`, the current token as a look-ahead just read it, when it is a token of
    /// the input (not the end-of-input sentinel, which no grammar function consumes this way):
    /// [`Parser::bump`] without reading the token again.
    #[inline]
    pub(crate) fn bump_read(&mut self, tok: Token) {
        debug_assert!(self.pos < self.tokens.len() && tok.kind != TokenKind::Eof);
        self.pos += 1;
        self.last_end = tok.span.end;
        self.fuel = FUEL;
    }

    /// Consumes the keyword `kw` if present.
    pub(crate) fn eat(&mut self, kw: Kw) -> Option<Span> {
        if self.at(kw) {
            Some(self.bump().span)
        } else {
            None
        }
    }

    /// Consumes a token of `kind` if present.
    pub(crate) fn eat_kind(&mut self, kind: TokenKind) -> Option<Span> {
        if self.at_kind(kind) {
            Some(self.bump().span)
        } else {
            None
        }
    }

    /// Consumes the keyword `kw` or reports it missing.
    #[inline]
    pub(crate) fn expect(&mut self, kw: Kw) -> PResult<Span> {
        match self.eat(kw) {
            Some(span) => Ok(span),
            None => Err(self.expected_keyword(kw)),
        }
    }

    /// [`Parser::expect`]'s error: "expected `KW`, found ...".
    #[cold]
    #[inline(never)]
    fn expected_keyword(&mut self, kw: Kw) -> Recover {
        self.expected(&format!("`{}`", kw.as_str()))
    }

    /// Consumes a token of `kind` or reports it missing; `what` names it (e.g. "`(`").
    pub(crate) fn expect_kind(&mut self, kind: TokenKind, what: &str) -> PResult<Span> {
        if kind == TokenKind::Minus && self.at_kind(TokenKind::TypographicDash) {
            return Ok(self.bump().span);
        }
        match self.eat_kind(kind) {
            Some(span) => Ok(span),
            None => Err(self.expected(what)),
        }
    }

    /// Start offset of the current token.
    pub(crate) fn start(&mut self) -> u32 {
        self.current().span.start
    }

    /// The span from `start` to the end of the last consumed token.
    pub(crate) fn finish(&self, start: u32) -> Span {
        Span {
            start,
            end: self.last_end.max(start),
        }
    }

    /// Saves the cursor position (token index, end offset, error count).
    pub(crate) fn checkpoint(&self) -> (usize, u32, usize) {
        (self.pos, self.last_end, self.errors.len())
    }

    /// Text of a token.
    pub(crate) fn text_of(&self, tok: Token) -> &'a str {
        &self.text[tok.span.range()]
    }

    // ----- nesting -----

    /// Enters one nesting level; reports and unwinds past the limit.
    #[inline]
    pub(crate) fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        self.depth += 1;
        Ok(())
    }

    /// [`Parser::enter`] past the limit: reports it and mutes until the statement's end.
    #[cold]
    #[inline(never)]
    fn too_deep(&mut self) -> Recover {
        let span = self.current().span;
        self.push_error(
            SyntaxErrorKind::TooDeep,
            format!("nesting deeper than {MAX_DEPTH} levels; the rest of the statement is skipped"),
            span,
            None,
        );
        self.mute();
        Recover
    }

    /// Leaves one nesting level.
    #[inline]
    pub(crate) fn exit(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// Reserved keywords that never stand for a name where one is required: clause starters.
/// Other reserved words (`timestamp`, `value`, `comment`, ...) are taken as names and reported
/// as reserved words, since that is what the writer meant.
pub(crate) fn is_structural(kw: Kw) -> bool {
    matches!(
        kw,
        Kw::SELECT
            | Kw::FROM
            | Kw::WHERE
            | Kw::GROUP
            | Kw::HAVING
            | Kw::JOIN
            | Kw::ON
            | Kw::UNION
            | Kw::INTERSECT
            | Kw::EXCEPT
            | Kw::WITH
            | Kw::AS
            | Kw::AND
            | Kw::OR
            | Kw::CREATE
            | Kw::INSERT
            | Kw::INTO
            | Kw::LIKE
            | Kw::PRIMARY
            | Kw::CONSTRAINT
            | Kw::PARTITIONED
            | Kw::DISTRIBUTED
            | Kw::NOT
            | Kw::NULL
            | Kw::BY
            | Kw::THEN
            | Kw::ELSE
            | Kw::WHEN
            | Kw::END
    )
}

/// Removes the surrounding quotes of a quoted token and undoes doubled quote characters.
/// Whether `tok` can be a required name ([`Parser::at_name`]): any word but a reserved one
/// that structures a statement, a quoted identifier, or quoted text that should have been
/// backticked.
#[inline]
fn is_name(tok: Token) -> bool {
    match tok.kind {
        TokenKind::Word => !(tok.kw.is_reserved() && is_structural(tok.kw)),
        TokenKind::QuotedIdent
        | TokenKind::UnterminatedQuotedIdent
        | TokenKind::DoubleQuoted
        | TokenKind::TypographicQuoted => true,
        _ => false,
    }
}

/// Whether `tok` starts a string literal ([`Parser::at_string`]), written right or not.
#[inline]
fn is_string_start(tok: Token) -> bool {
    tok.kind.is_string()
        || matches!(
            tok.kind,
            TokenKind::UnterminatedString | TokenKind::DoubleQuoted | TokenKind::TypographicQuoted
        )
}

/// The value of a closed `'...'` literal (a [`TokenKind::String`] token) of `text`: the text
/// between its quotes, copied without a scan when the lexer saw no `''` in it
/// ([`Token::doubled`]), else [`unquote`].
#[inline]
fn unquote_string(text: &str, tok: Token) -> CompactString {
    let (start, end) = (tok.span.start as usize, tok.span.end as usize);
    match text.get(start + 1..end.saturating_sub(1)) {
        Some(inner) if !tok.doubled && end >= start + 2 => CompactString::from(inner),
        _ => unquote(&text[tok.span.range()], '\''),
    }
}

pub(crate) fn unquote(raw: &str, quote: char) -> CompactString {
    let inner = raw.strip_prefix(quote).unwrap_or(raw);
    let inner = inner.strip_suffix(quote).unwrap_or(inner);
    // Without a quote inside there is nothing to undo (the common case: no scan for pairs, no
    // buffer). The quotes are ASCII: a scan of the bytes, eight at a time.
    let has_quote = match u8::try_from(quote) {
        Ok(q) => find_either(inner.as_bytes(), 0, q, q).is_some(),
        Err(_) => inner.contains(quote),
    };
    if !has_quote {
        return CompactString::from(inner);
    }
    let mut out = CompactString::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == quote && chars.as_str().starts_with(quote) {
            // `''` stands for one quote: skip the second.
            chars.next();
        }
    }
    out
}

/// Strips one leading and trailing quote character of any kind (", ‘ ’ “ ”).
pub(crate) fn strip_quotes(raw: &str) -> &str {
    let quotes = ['"', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}'];
    let s = raw.strip_prefix(quotes).unwrap_or(raw);
    if s.len() < raw.len() {
        s.strip_suffix(quotes).unwrap_or(s)
    } else {
        s
    }
}

/// Backticks a name, doubling backticks inside.
pub(crate) fn quote_ident(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

fn short(text: &str) -> String {
    let first_line = text.lines().next().unwrap_or("");
    if first_line.chars().count() > 40 {
        let cut: String = first_line.chars().take(40).collect();
        format!("{cut}...")
    } else {
        first_line.to_string()
    }
}

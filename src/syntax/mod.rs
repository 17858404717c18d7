//! Syntax stage: lexer -> parser -> typed AST, for one file.
//!
//! [`parse`] never fails: it returns the tree, the tokens and every syntax error found.
//! The syntax stage knows nothing of catalogs, rules or output; errors carry a
//! [`SyntaxErrorKind`] so that the rules stage can decide which rule reports each one (a
//! typographic quote is SY002, not a generic SY001) and whether it applies to the chosen target
//! (reserved words differ between Flink versions).

pub mod ast;
pub mod expected;
mod grammar;
pub mod keywords;
#[allow(missing_docs)]
mod keywords_data;
pub mod lexer;
mod parser;

pub use lexer::{Token, TokenKind};

/// Longest identifier Flink accepts (Calcite `identifierMaxLength`): a longer name is a
/// syntax error, and no name of the catalog is a "did you mean" for it (nor is it compared
/// with any: the comparison's cost grows with the product of the lengths).
pub const MAX_IDENTIFIER_LEN: usize = 256;

use crate::source::Span;
use keywords::Kw;
use serde::Serialize;

/// How a quoted error token was used by the parser: where a string literal or a name belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum QuoteUsage {
    /// The parser needed a string literal there.
    String,
    /// The parser needed a name there.
    Name,
    /// An operand of an expression (a select item, a condition): a string literal or a column
    /// name could be meant (ANSI SQL and many databases quote names with `"`), so the fix is
    /// not safe: it prefers a name and asks the user to review.
    Expression,
    /// An operand compared with, or listed beside, a value (`x = "a"`, `IN ('a', "b")`,
    /// `LIKE "a%"`): most likely a string; the fix is not safe either.
    ComparedValue,
    /// The parser never reached the token (it was skipped after another error).
    Unknown,
}

/// What kind of syntax error, so that the most specific rule can report it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum SyntaxErrorKind {
    /// A generic parse error: something else was expected.
    Unexpected,
    /// Text in typographic quotes (‘...’ or “...”); `content` is the text between them.
    TypographicQuote {
        /// Text between the quotes (`None` for a lone quote character).
        content: Option<String>,
        /// Where the parser needed it.
        usage: QuoteUsage,
    },
    /// A typographic dash (– — −) used as `-`, or a comment started with them.
    TypographicDash,
    /// A type Flink's validator refuses: a DECIMAL of precision 0 or with a scale above its
    /// precision, a ROW with two fields of one name (the statement is not checked further, as
    /// after a syntax error).
    InvalidType,
    /// `"..."` text; `content` is the text between the quotes.
    DoubleQuoted {
        /// Text between the quotes (`None` when unterminated).
        content: Option<String>,
        /// Where the parser needed it.
        usage: QuoteUsage,
    },
    /// An unquoted keyword used as a name. Whether it is an error depends on the target's
    /// reserved words: Flink 2.3 reserves the words flagged in the keyword table.
    ReservedWord {
        /// The keyword.
        keyword: Kw,
    },
    /// A `START_MODE` clause Flink rejects (wrong position, bad argument, unknown unit).
    StartMode,
    /// A clause written out of Flink's fixed order, e.g. `PARTITIONED BY` after `WITH`.
    ClauseOrder,
    /// A second WATERMARK clause in one element list (Flink rejects it while parsing).
    DuplicateWatermark,
    /// `#` used as a comment.
    HashComment,
    /// A lexical error: unterminated string/comment, unknown character.
    Lexical,
    /// Nesting deeper than the parser's limit, or an expression with more operators than it
    /// analyses: a limit of flinklint's, not of Flink's grammar (Flink may accept the text).
    TooDeep,
    /// More syntax errors in one file than are reported.
    TooManyErrors,
}

/// One syntax error.
#[derive(Debug, Clone, Serialize)]
pub struct SyntaxError {
    /// What kind of error.
    pub kind: SyntaxErrorKind,
    /// What is wrong, e.g. "expected `)`, found `WITH`".
    pub message: String,
    /// Where.
    pub span: Span,
    /// Extra advice, if the parser has any.
    pub help: Option<String>,
    /// A replacement the parser is sure of (e.g. `<>` for `!=`, `;` where one is missing).
    pub suggestion: Option<Suggestion>,
    /// What Flink's own parser prints for this error, when flinklint knows it.
    pub flink: Option<FlinkSyntax>,
}

/// What Flink's parser prints for a syntax error. Positions are rendered by the rules stage,
/// relative to the statement (Flink parses each statement on its own).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum FlinkSyntax {
    /// JavaCC's `Encountered "<token>" at line L, column C.`, followed by what it expected
    /// (`Was expecting:` one item, `Was expecting one of:` several; nothing when the list is
    /// long or not known).
    Encountered {
        /// The token Flink stopped at (an empty span at the end of the text: `<EOF>`).
        at: Span,
        /// The expected tokens as JavaCC prints them, e.g. `"AS"`, `<IDENTIFIER>`.
        expected: Vec<&'static str>,
    },
    /// A message of a check Flink runs inside its parser, verbatim.
    Verbatim(String),
}

/// A text replacement that resolves a syntax error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suggestion {
    /// What it does, e.g. "Replace `!=` with `<>`".
    pub title: String,
    /// The bytes to replace (empty to insert).
    pub span: Span,
    /// The new text.
    pub replacement: String,
}

/// The result of parsing one file.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The statements.
    pub script: ast::Script,
    /// All tokens, comments included (whitespace is not a token).
    pub tokens: Vec<Token>,
    /// Syntax errors in source order.
    pub errors: Vec<SyntaxError>,
    /// For a document (Markdown, reStructuredText): where its SQL blocks are. `None` for SQL.
    pub embedded: Option<crate::source::embedded::Embedded>,
}

/// Parses a data type written on its own, as Flink's parser reads a column's type (e.g.
/// `TIMESTAMP_LTZ(3) NOT NULL`, `ROW<a INT, b STRING>`). `None` unless the whole text is one
/// data type without any syntax error.
pub fn parse_data_type(text: &str) -> Option<ast::DataType> {
    let tokens = lexer::lex(text);
    let significant = parser::significant(&tokens, None);
    let mut parser = parser::Parser::new(text, &significant);
    let data_type = parser.data_type().ok()?;
    let (errors, notes) = parser.finish_fragment()?;
    if !errors.is_empty() || !grammar::lexical_errors(text, &tokens, &notes).is_empty() {
        return None;
    }
    Some(data_type)
}

/// Lexes and parses one file's text. Never fails and never panics; the error list says what
/// Flink's parser would reject (reserved words are reported for every word Flink 2.3 reserves;
/// the rules stage filters them per target).
pub fn parse(text: &str) -> Parsed {
    let (tokens, noted) = lexer::lex_noting(text);
    let significant = parser::significant(&tokens, Some(noted.trivia));
    let (script, mut errors, notes) = parser::Parser::new(text, &significant).parse_script();
    drop(significant);
    // The lexical pass reads the tokens only when one of them may have a lexical error (most
    // files have none), or for the byte-order mark.
    if noted.may_report || text.starts_with('\u{FEFF}') {
        errors.extend(grammar::lexical_errors(text, &tokens, &notes));
    }
    errors.sort_by_key(|e| (e.span.start, e.span.end));
    Parsed {
        script,
        tokens,
        errors,
        embedded: None,
    }
}

/// Lexes and parses the SQL of a document: `sql` is its SQL text and `embedded` where its blocks
/// are, as [`crate::source::embedded::extract`] makes them. Each block is lexed on its own (a
/// string or comment left open ends with its block), and the `;` that ends a block is a token
/// of its own, so that no statement runs from one block into the next; the blocks are then
/// parsed in order as one script. Spans are offsets in the document.
pub fn parse_embedded(sql: &str, embedded: crate::source::embedded::Embedded) -> Parsed {
    let mut tokens = Vec::with_capacity(sql.len() / 8 + 8);
    for block in &embedded.blocks {
        let start = block.content.start;
        let Some(content) = sql.get(block.content.range()) else {
            continue;
        };
        tokens.extend(lexer::lex(content).into_iter().map(|mut t| {
            t.span.start += start;
            t.span.end += start;
            t
        }));
        if let Some(s) = block.separator {
            tokens.push(Token::new(
                TokenKind::Semicolon,
                keywords::Kw::NONE,
                Span {
                    start: s,
                    end: s + 1,
                },
            ));
        }
    }
    let significant = parser::significant(&tokens, None);
    let (script, mut errors, notes) = parser::Parser::new(sql, &significant).parse_script();
    drop(significant);
    errors.extend(grammar::lexical_errors(sql, &tokens, &notes));
    errors.sort_by_key(|e| (e.span.start, e.span.end));
    // The `;` that ends a block stands on its closing fence: say what the reader sees there.
    for e in &mut errors {
        let at_separator = embedded
            .block_at(e.span.start)
            .is_some_and(|b| b.separator == Some(e.span.start));
        if at_separator {
            if let Some(head) = e.message.strip_suffix("found `;`") {
                e.message = format!("{head}found the end of the block");
            }
        }
    }
    Parsed {
        script,
        tokens,
        errors,
        embedded: Some(embedded),
    }
}

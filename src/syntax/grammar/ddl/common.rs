//! Pieces shared by the statements of every grammar area: `IF [NOT] EXISTS`, dotted names
//! (with the check of `a.b$c`), column lists, option (property) lists and key lists, and the
//! recovery inside a parenthesized list (resynchronizing, trailing commas).

use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser, Recover};
use crate::syntax::{FlinkSyntax, SyntaxErrorKind};

impl Parser<'_> {
    /// `[IF NOT EXISTS]`.
    pub(in crate::syntax::grammar) fn if_not_exists(&mut self) -> PResult<bool> {
        if self.at(Kw::IF) && self.nth_at(1, Kw::NOT) {
            self.bump();
            self.bump();
            self.expect(Kw::EXISTS)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// `[IF EXISTS]`.
    pub(in crate::syntax::grammar) fn if_exists(&mut self) -> PResult<bool> {
        if self.at(Kw::IF) && self.nth_at(1, Kw::EXISTS) {
            self.bump();
            self.bump();
            return Ok(true);
        }
        Ok(false)
    }

    /// A dotted name: `a`, `a.b`, `a.b.c`, ...
    pub(crate) fn object_name(&mut self, what: &str) -> PResult<ObjectName> {
        let first = self.ident(what)?;
        // The name starts where its first part does (the current token's start).
        let start = first.span.start;
        if !self.at_kind(TokenKind::Dot) {
            // Most names: one part, held inline.
            return Ok(ObjectName {
                span: first.span,
                parts: NameParts::one(first),
            });
        }
        let mut parts = Vec::with_capacity(self.name_parts_ahead());
        parts.push(first);
        while self.at_kind(TokenKind::Dot) {
            self.bump();
            parts.push(self.ident("a name after `.`")?);
        }
        self.check_dollar_compound(&parts);
        Ok(ObjectName {
            parts: parts.into(),
            span: self.finish(start),
        })
    }

    /// Flink's lexer reads an unquoted `a.b$c` (no spaces), where the `$` is followed by a
    /// letter, `_` or `$`, as a single token that no rule accepts, so `t.$rowtime`,
    /// `db.orders$snapshots` and `t.a$_` are parse errors while `a$b`, `` t.`$rowtime` ``,
    /// `db . a$b`, and `x.EXPR$1`, `t.c$` (a digit or nothing after the `$`) are fine
    /// (verified with Flink 2.3).
    #[inline]
    pub(crate) fn check_dollar_compound(&mut self, parts: &[Ident]) {
        // Most names have one part: nothing to check, and no call.
        if parts.len() > 1 {
            self.check_dollar_pairs(parts);
        }
    }

    fn check_dollar_pairs(&mut self, parts: &[Ident]) {
        for (i, pair) in parts.windows(2).enumerate() {
            let (left, right) = (&pair[0], &pair[1]);
            let adjacent = left.span.end + 1 == right.span.start;
            if adjacent && !left.quoted && !right.quoted && dollar_before_letter(&right.text) {
                let span = left.span.cover(right.span);
                let fixed = format!("{}.`{}`", left.text, right.text.replace('`', "``"));
                let before = self.error_count();
                self.note_error(
                    SyntaxErrorKind::Unexpected,
                    format!("Flink cannot read `{}.{}`: a qualified name part with `$` must be in backticks", left.text, right.text),
                    span,
                    Some(format!("write {fixed}")),
                );
                if i == 0 && parts.len() == 2 {
                    // Flink's token is the whole name (measured for names of two parts; its
                    // list of what it expected depends on where the name stands).
                    let flink = FlinkSyntax::Encountered {
                        at: span,
                        expected: Vec::new(),
                    };
                    self.set_flink(before, flink);
                }
                return;
            }
        }
    }

    /// `( name, ... )`.
    pub(crate) fn column_list(&mut self) -> PResult<ColumnList> {
        let start = self.start();
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut names = Vec::new();
        loop {
            names.push(self.ident("a column name")?);
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
        Ok(ColumnList {
            names,
            span: self.finish(start),
        })
    }

    /// `( 'k' = 'v', ... )`; empty lists are allowed by the grammar.
    pub(crate) fn property_list(&mut self) -> PResult<PropertyList> {
        let start = self.start();
        self.expect_kind(TokenKind::LParen, "`(`")?;
        // One allocation for most option lists.
        let mut items = Vec::with_capacity(8);
        // One look-ahead before an option, one after it: most options end at `,` or `)`.
        let mut kind = self.kind();
        while kind != TokenKind::RParen && kind != TokenKind::Eof {
            // Most options are read at once, in place.
            if !self.plain_property(&mut items) {
                let before = self.checkpoint();
                match self.property() {
                    Ok(p) => items.push(p),
                    Err(Recover) => {
                        if !self.recover_in_list(before.0) {
                            return Err(Recover);
                        }
                    }
                }
            }
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
            kind = self.kind();
            if kind == TokenKind::RParen {
                return Err(self.trailing_comma());
            }
        }
        self.expect_kind(TokenKind::RParen, "`,` or `)` in the option list")?;
        Ok(PropertyList {
            items,
            span: self.finish(start),
        })
    }

    /// One option of any other form than [`Parser::plain_property`]'s, token by token.
    fn property(&mut self) -> PResult<Property> {
        let start = self.start();
        if !self.at_string() {
            let found = self.describe_current();
            let message =
                format!("expected an option key in quotes like 'connector', found {found}");
            return Err(self.error_here(message));
        }
        let key = self.string_lit("an option key")?;
        self.expect_kind(TokenKind::Eq, "`=`")?;
        if !self.at_string() {
            let found = self.describe_current();
            let message = format!("expected an option value in quotes, found {found}");
            return Err(self.error_here(message));
        }
        let value = self.string_lit("an option value")?;
        Ok(Property {
            key,
            value,
            span: self.finish(start),
        })
    }

    /// `( 'k', ... )`.
    pub(crate) fn key_list(&mut self) -> PResult<KeyList> {
        let start = self.start();
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut keys = Vec::new();
        while !self.at_kind(TokenKind::RParen) {
            keys.push(self.string_lit("an option key in quotes")?);
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        self.expect_kind(TokenKind::RParen, "`,` or `)`")?;
        Ok(KeyList {
            keys,
            span: self.finish(start),
        })
    }

    /// After an error inside a parenthesized list: skips to the next `,` or the closing `)` at
    /// this nesting level. Returns whether it resynchronized (the caller continues the list).
    pub(crate) fn recover_in_list(&mut self, element_start: usize) -> bool {
        let _ = element_start;
        let mut depth = 0i32;
        loop {
            match self.kind() {
                TokenKind::Eof | TokenKind::Semicolon => return false,
                TokenKind::LParen | TokenKind::LBracket => depth += 1,
                TokenKind::RParen | TokenKind::RBracket if depth == 0 => {
                    self.resync_quiet();
                    return true;
                }
                TokenKind::RParen | TokenKind::RBracket => depth -= 1,
                TokenKind::Comma if depth == 0 => {
                    self.resync_quiet();
                    return true;
                }
                _ => {}
            }
            if depth == 0 && self.at_statement_start_on_new_line() {
                return false;
            }
            self.bump();
        }
    }

    fn resync_quiet(&mut self) {
        self.resync();
    }

    /// A `,` right before `)`: Flink does not allow trailing commas.
    pub(crate) fn trailing_comma(&mut self) -> Recover {
        let span = self.current().span;
        let comma = Span {
            start: span.start.saturating_sub(1),
            end: span.start,
        };
        let _ = comma;
        self.error_here(
            "expected another element after `,`, found `)`: Flink does not allow a trailing comma"
                .to_string(),
        )
    }
}

/// Whether `name` holds a `$` followed by a letter, `_` or another `$` (what makes Flink's
/// lexer read a qualified name as one token it rejects; `$1` and a final `$` do not).
fn dollar_before_letter(name: &str) -> bool {
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$'
            && chars
                .peek()
                .is_some_and(|&n| n.is_alphabetic() || n == '_' || n == '$')
        {
            return true;
        }
    }
    false
}

//! The parser's names and literals: identifiers, dotted-name look-aheads, string literals and
//! the `'key' = 'value'` options read from their three tokens at once.

use super::*;

impl<'a> Parser<'a> {
    /// Whether the current token can start a name in an optional position (an alias): an
    /// unquoted non-reserved word or a quoted identifier.
    pub(crate) fn at_optional_name(&mut self) -> bool {
        let tok = self.current();
        match tok.kind {
            TokenKind::Word => !tok.kw.is_reserved(),
            TokenKind::QuotedIdent | TokenKind::UnterminatedQuotedIdent => true,
            TokenKind::DoubleQuoted => true,
            TokenKind::TypographicQuoted => self.text_of(tok).starts_with(['\u{201C}', '\u{201D}']),
            _ => false,
        }
    }

    /// Whether the name at the current token is followed by `.name`s and then `.*` (a
    /// qualified `t.*`), read from the tokens in one look-ahead.
    pub(crate) fn qualified_star_ahead(&mut self) -> bool {
        self.fuel -= 1;
        if self.fuel < 0 {
            self.out_of_fuel();
            return false;
        }
        let rest = self.tokens.get(self.pos + 1..).unwrap_or_default();
        let kind = |n: usize| rest.get(n).map(|t| t.kind);
        let mut n = 0;
        while kind(n) == Some(TokenKind::Dot)
            && matches!(kind(n + 1), Some(TokenKind::Word | TokenKind::QuotedIdent))
        {
            n += 2;
        }
        kind(n) == Some(TokenKind::Dot) && kind(n + 1) == Some(TokenKind::Star)
    }

    /// How many parts a dotted name has whose first part was just read and whose `.` is the
    /// current token, as far as the tokens say without parsing it (`a.b.c`: 3, at most 4):
    /// the capacity of its parts, so that a qualified name is not reallocated part by part.
    pub(crate) fn name_parts_ahead(&self) -> usize {
        let mut parts = 1;
        while parts < 4
            && self
                .tokens
                .get(self.pos + 2 * parts - 2)
                .is_some_and(|t| t.kind == TokenKind::Dot)
        {
            parts += 1;
        }
        parts
    }

    /// Whether the current token can be a required name: any word (reserved ones are reported
    /// as such), a quoted identifier, or quoted text that should have been backticked.
    #[inline]
    pub(crate) fn at_name(&mut self) -> bool {
        let tok = self.current();
        is_name(tok)
    }

    /// Parses a required simple name; `what` describes it for errors ("a column name").
    pub(crate) fn ident(&mut self, what: &str) -> PResult<Ident> {
        let tok = self.current();
        if tok.kind == TokenKind::Word && !tok.kw.is_reserved() {
            // Most names: an unquoted word that is not reserved, its text as written.
            self.bump_read(tok);
            return Ok(Ident {
                text: CompactString::from(self.text_of(tok)),
                quoted: false,
                span: tok.span,
            });
        }
        self.other_ident(tok, what)
    }

    /// [`Parser::ident`] for any token but an unquoted word that is not reserved: out of
    /// line, so that the common case saves and restores few registers.
    #[inline(never)]
    fn other_ident(&mut self, tok: Token, what: &str) -> PResult<Ident> {
        if !is_name(tok) {
            return Err(self.expected(what));
        }
        let tok = self.bump();
        let raw = self.text_of(tok);
        let ident = match tok.kind {
            TokenKind::Word => {
                if tok.kw.is_reserved() {
                    self.note_error_in_step(
                        SyntaxErrorKind::ReservedWord { keyword: tok.kw },
                        format!("`{raw}` is a reserved keyword and cannot be used as a name without backticks"),
                        tok.span,
                        Some(format!("write it as `{}`", quote_ident(raw))),
                        None,
                    );
                }
                Ident {
                    text: CompactString::from(raw),
                    quoted: false,
                    span: tok.span,
                }
            }
            TokenKind::QuotedIdent => Ident {
                text: match raw.get(1..raw.len().saturating_sub(1)) {
                    // No ``` `` ``` inside (the lexer knows): the text between the backticks.
                    Some(inner) if !tok.doubled => CompactString::from(inner),
                    _ => unquote(raw, '`'),
                },
                quoted: true,
                span: tok.span,
            },
            TokenKind::UnterminatedQuotedIdent => Ident {
                text: CompactString::from(&raw[1..]),
                quoted: true,
                span: tok.span,
            },
            _ => {
                // "name" or “name”: reported by the lexical pass, with a backtick fix.
                self.note_usage(tok.span, QuoteUsage::Name);
                Ident {
                    text: CompactString::from(strip_quotes(raw)),
                    quoted: true,
                    span: tok.span,
                }
            }
        };
        Ok(ident)
    }

    /// Whether the current token starts a string literal (or text quoted the wrong way).
    pub(crate) fn at_string(&mut self) -> bool {
        let tok = self.current();
        is_string_start(tok)
    }

    /// Parses a string literal; adjacent literals are concatenated (`'a' 'b'`).
    pub(crate) fn string_lit(&mut self, what: &str) -> PResult<StringLit> {
        let (first, next) = self.current_and_next();
        if first.kind == TokenKind::String && !next.kind.is_string() {
            // Most literals: one closed `'...'` token.
            self.bump_read(first);
            return Ok(StringLit {
                value: unquote_string(self.text, first),
                span: first.span,
            });
        }
        self.other_string_lit(first, what)
    }

    /// [`Parser::string_lit`] for anything but one closed `'...'` token: out of line.
    #[inline(never)]
    fn other_string_lit(&mut self, first: Token, what: &str) -> PResult<StringLit> {
        if !is_string_start(first) {
            return Err(self.expected(what));
        }
        let start = first.span.start;
        let first = self.bump();
        let mut value = self.string_part(first);
        // Adjacent literals (`'a' 'b'`) are concatenated; most literals are one token, whose
        // value is built once, without an intermediate buffer.
        while self.current().kind.is_string() {
            let tok = self.bump();
            let part = self.string_part(tok);
            value.push_str(&part);
        }
        Ok(StringLit {
            value,
            span: self.finish(start),
        })
    }

    /// An option `'key' = 'value'` whose literals are each one closed `'...'` token, the
    /// value not followed by another literal (most options): read from the tokens at once,
    /// consumed and pushed to `items`, exactly as [`Parser::string_lit`] and `=` would read
    /// it; `false` (nothing consumed) for any other text, which the caller parses token by
    /// token. The option is built in the list's place, not returned: no copies of it on the
    /// way.
    #[inline]
    pub(crate) fn plain_property(&mut self, items: &mut Vec<Property>) -> bool {
        self.fuel -= 1;
        if self.fuel < 0 {
            self.out_of_fuel();
            return false;
        }
        let Some(&[key, eq, value, after]) = self.tokens.get(self.pos..self.pos + 4) else {
            return false;
        };
        if key.kind != TokenKind::String
            || eq.kind != TokenKind::Eq
            || value.kind != TokenKind::String
            || after.kind.is_string()
        {
            return false;
        }
        self.pos += 3;
        self.last_end = value.span.end;
        self.fuel = FUEL;
        items.push(Property {
            key: StringLit {
                value: unquote_string(self.text, key),
                span: key.span,
            },
            value: StringLit {
                value: unquote_string(self.text, value),
                span: value.span,
            },
            span: Span {
                start: key.span.start,
                end: value.span.end,
            },
        });
        true
    }

    /// The value of one string token (quotes removed, `''` undone).
    fn string_part(&mut self, tok: Token) -> CompactString {
        let raw = self.text_of(tok);
        match tok.kind {
            TokenKind::String => unquote_string(self.text, tok),
            TokenKind::UnterminatedString => CompactString::from(&raw[1..]),
            TokenKind::DoubleQuoted | TokenKind::TypographicQuoted => {
                self.note_usage(tok.span, QuoteUsage::String);
                CompactString::from(strip_quotes(raw))
            }
            _ => {
                // X'..', U&'..', N'..': keep the text after the prefix.
                let q = raw.find('\'').unwrap_or(0);
                unquote(&raw[q..], '\'')
            }
        }
    }
}

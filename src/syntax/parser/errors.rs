//! The parser's error recording: errors with Flink's wording and suggestions, muting after
//! the first error of a statement, and descriptions of tokens for messages.

use super::*;

impl Parser<'_> {
    /// Records an error (unless muted) and returns the unwind marker.
    pub(crate) fn push_error(
        &mut self,
        kind: SyntaxErrorKind,
        message: String,
        span: Span,
        help: Option<String>,
    ) -> Recover {
        self.note_error(kind, message, span, help);
        Recover
    }

    /// Records a finding that does not stop parsing (reserved words, clause order, ...).
    pub(crate) fn note_error(
        &mut self,
        kind: SyntaxErrorKind,
        message: String,
        span: Span,
        help: Option<String>,
    ) {
        if self.muted || self.errors.len() > MAX_ERRORS {
            return;
        }
        if self.errors.len() == MAX_ERRORS {
            let message = format!(
                "more than {MAX_ERRORS} syntax errors in this file; the rest are not reported"
            );
            self.errors.push(SyntaxError {
                kind: SyntaxErrorKind::TooManyErrors,
                message,
                span,
                help: None,
                suggestion: None,
                flink: None,
            });
            return;
        }
        self.errors.push(SyntaxError {
            kind,
            message,
            span,
            help,
            suggestion: None,
            flink: None,
        });
    }

    /// Records what Flink's parser prints for the error just recorded (if it was recorded).
    pub(crate) fn set_flink(&mut self, errors_before: usize, flink: FlinkSyntax) {
        if self.errors.len() > errors_before {
            if let Some(last) = self.errors.last_mut() {
                last.flink = Some(flink);
            }
        }
    }

    /// Records a suggestion for the error just recorded (if it was recorded).
    pub(crate) fn set_suggestion(&mut self, errors_before: usize, suggestion: Suggestion) {
        if self.errors.len() > errors_before {
            if let Some(last) = self.errors.last_mut() {
                last.suggestion = Some(suggestion);
            }
        }
    }

    /// Records an error with Flink's own message for it and returns the unwind marker.
    pub(crate) fn push_flink_error(
        &mut self,
        kind: SyntaxErrorKind,
        message: String,
        span: Span,
        help: Option<String>,
        flink: FlinkSyntax,
    ) -> Recover {
        let before = self.errors.len();
        self.note_error(kind, message, span, help);
        self.set_flink(before, flink);
        Recover
    }

    /// `Encountered` at the current token, with JavaCC's expected list.
    /// At `;` or the end of input, Flink (which parses each statement without its `;`) meets
    /// `<EOF>`, which it places at the statement's last character.
    pub(crate) fn encountered_here(&mut self, expected: &[&'static str]) -> FlinkSyntax {
        let tok = self.current();
        let at = if matches!(tok.kind, TokenKind::Semicolon | TokenKind::Eof) {
            Span::empty(self.last_end.saturating_sub(1))
        } else {
            tok.span
        };
        FlinkSyntax::Encountered {
            at,
            expected: expected.to_vec(),
        }
    }

    /// Records a finding after which parsing goes on exactly as if the text were right (see
    /// `in_step`), with the replacement that resolves it, if any.
    pub(crate) fn note_error_in_step(
        &mut self,
        kind: SyntaxErrorKind,
        message: String,
        span: Span,
        help: Option<String>,
        suggestion: Option<Suggestion>,
    ) {
        let before = self.errors.len();
        self.note_error(kind, message, span, help);
        if self.errors.len() > before {
            self.in_step += 1;
            if let Some(last) = self.errors.last_mut() {
                last.suggestion = suggestion;
            }
        }
    }

    /// Records a finding with a replacement that resolves it.
    pub(crate) fn note_error_with_fix(
        &mut self,
        kind: SyntaxErrorKind,
        message: String,
        span: Span,
        help: Option<String>,
        suggestion: Suggestion,
    ) {
        let before = self.errors.len();
        self.note_error(kind, message, span, help);
        if self.errors.len() > before {
            if let Some(last) = self.errors.last_mut() {
                last.suggestion = Some(suggestion);
            }
        }
    }

    /// Records a generic error at the current token and mutes until recovery.
    pub(crate) fn error_here(&mut self, message: String) -> Recover {
        let tok = self.current();
        if tok.kind.is_error() {
            // The lexical pass reports the bad token itself; do not report it twice.
            self.mute();
            return Recover;
        }
        let r = self.push_error(SyntaxErrorKind::Unexpected, message, tok.span, None);
        self.mute();
        r
    }

    /// Mutes errors until a recovery point resynchronizes.
    pub(super) fn mute(&mut self) {
        self.muted = true;
        self.stumbled = true;
    }

    /// "expected X, found Y" at the current token.
    pub(crate) fn expected(&mut self, what: &str) -> Recover {
        let found = self.describe_current();
        self.error_here(format!("expected {what}, found {found}"))
    }

    /// "expected X, found Y" at the current token, with Flink's message for it (JavaCC's
    /// list of what it expected there).
    pub(crate) fn expected_as_flink(&mut self, what: &str, list: &[&'static str]) -> Recover {
        let flink = self.encountered_here(list);
        let before = self.errors.len();
        let r = self.expected(what);
        self.set_flink(before, flink);
        r
    }

    /// Marks the statement as one Flink's parser refuses, for a form that no Flink version has
    /// but that is kept in the tree (the rules stage reports it, SY005).
    pub(crate) fn note_refused_form(&mut self) {
        self.refused_form = true;
    }

    /// Number of errors recorded so far.
    pub(crate) fn error_count(&self) -> usize {
        self.errors.len()
    }

    /// Unmutes after a successful resynchronization inside a list.
    pub(crate) fn resync(&mut self) {
        self.muted = false;
    }

    /// Whether errors are muted (an error happened and no recovery point was reached yet).
    pub(crate) fn is_muted(&self) -> bool {
        self.muted
    }

    /// A description of the current token for messages.
    pub(crate) fn describe_current(&mut self) -> String {
        let tok = self.current();
        self.describe(tok)
    }

    /// A description of a token for messages: keyword, name, literal or punctuation.
    pub(crate) fn describe(&self, tok: Token) -> String {
        let text = self.text_of(tok);
        match tok.kind {
            TokenKind::Eof => "end of input".to_string(),
            TokenKind::Word if tok.kw.is_reserved() => format!("keyword `{}`", tok.kw.as_str()),
            TokenKind::Word | TokenKind::QuotedIdent => format!("`{}`", short(text)),
            TokenKind::String
            | TokenKind::BinaryString
            | TokenKind::UnicodeString
            | TokenKind::PrefixedString => format!("string {}", short(text)),
            TokenKind::Integer | TokenKind::Decimal => format!("number `{text}`"),
            TokenKind::Hint => "a hint `/*+ ... */`".to_string(),
            _ => format!("`{}`", short(text)),
        }
    }

    /// Marks a region the SQL client reads verbatim.
    pub(crate) fn note_raw_region(&mut self, span: Span) {
        self.raw_regions.push(span);
    }

    /// Records how a quoted error token was used.
    pub(crate) fn note_usage(&mut self, span: Span, usage: QuoteUsage) {
        self.usages.push((span, usage));
    }
}

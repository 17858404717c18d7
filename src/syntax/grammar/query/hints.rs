//! Hint comments `/*+ NAME[(options)] [, ...] */` after SELECT, INSERT and table names, each
//! checked against Flink's hint syntax.

use crate::syntax::ast::*;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::Parser;

impl Parser<'_> {
    /// Hint comments at the current position, each checked against Flink's hint syntax:
    /// `/*+ NAME[(options)] [, NAME[(options)]] */`.
    pub(crate) fn hints(&mut self) -> Vec<Hint> {
        let mut hints = Vec::new();
        while let Some(span) = self.eat_kind(TokenKind::Hint) {
            let body_start = span.start as usize + 3;
            let body_end = (span.end as usize).saturating_sub(2).max(body_start);
            let body = &self.text[body_start..body_end];
            if let Some((offset, message)) = check_hint_body(body) {
                let at = body_start + offset;
                // The character there (`é` is two bytes), not its first byte.
                let width = self.text[at..].chars().next().map_or(0, char::len_utf8);
                self.note_error(
                    crate::syntax::SyntaxErrorKind::Unexpected,
                    message,
                    crate::source::Span {
                        start: at as u32,
                        end: ((at + width) as u32).min(span.end),
                    },
                    Some("hints look like /*+ NAME(options), OTHER(options) */".to_string()),
                );
            }
            if !hints.is_empty() {
                self.note_error(
                    crate::syntax::SyntaxErrorKind::Unexpected,
                    "a second hint comment: Flink accepts one `/*+ ... */` here".to_string(),
                    span,
                    Some("put all hints in one comment, separated by commas".to_string()),
                );
            }
            hints.push(Hint {
                span,
                names: hint_names(body),
            });
        }
        hints
    }
}

/// The names of a hint body's hints: the words at the top level, first or after a comma.
fn hint_names(body: &str) -> Vec<compact_str::CompactString> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut name_position = true;
    for t in crate::syntax::lexer::lex(body) {
        if t.kind.is_trivia() {
            continue;
        }
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth = depth.saturating_sub(1),
            TokenKind::Comma if depth == 0 => {
                name_position = true;
                continue;
            }
            TokenKind::Word if depth == 0 && name_position => {
                names.push(body[t.span.range()].into());
            }
            _ => {}
        }
        name_position = false;
    }
    names
}

/// Checks a hint body; returns the byte offset and message of the first problem.
fn check_hint_body(body: &str) -> Option<(usize, String)> {
    let tokens: Vec<_> = crate::syntax::lexer::lex(body)
        .into_iter()
        .filter(|t| !t.kind.is_trivia())
        .collect();
    let mut i = 0;
    let describe = |i: usize| {
        tokens
            .get(i)
            .map_or("the end of the hint".to_string(), |t| {
                format!("`{}`", &body[t.span.range()])
            })
    };
    let offset = |i: usize| tokens.get(i).map_or(body.len(), |t| t.span.start as usize);
    if tokens.is_empty() {
        return Some((0, "empty hint".to_string()));
    }
    loop {
        if !matches!(
            tokens.get(i).map(|t| t.kind),
            Some(TokenKind::Word | TokenKind::QuotedIdent)
        ) {
            return Some((
                offset(i),
                format!("expected a hint name, found {}", describe(i)),
            ));
        }
        i += 1;
        if tokens.get(i).map(|t| t.kind) == Some(TokenKind::LParen) {
            i += 1;
            let mut depth = 1;
            while depth > 0 {
                match tokens.get(i).map(|t| t.kind) {
                    None => return Some((offset(i), "unclosed `(` in hint".to_string())),
                    Some(TokenKind::LParen) => depth += 1,
                    Some(TokenKind::RParen) => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
        }
        match tokens.get(i).map(|t| t.kind) {
            None => return None,
            Some(TokenKind::Comma) => i += 1,
            _ => {
                return Some((
                    offset(i),
                    format!("expected `,` between hints, found {}", describe(i)),
                ))
            }
        }
    }
}

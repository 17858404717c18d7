//! The START_MODE clause of CREATE [OR ALTER] MATERIALIZED TABLE (FLIP-557; flink-spec §2.3,
//! §4.3): `START_MODE = mode [(argument)]`. Errors carry Flink 2.3's own message (its
//! "Encountered ..." with what it expected, or the message of a check in its parser); they are
//! of kind [`SyntaxErrorKind::StartMode`], which MT004 reports.

use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser, Recover};
use crate::syntax::{expected, FlinkSyntax, Suggestion, SyntaxErrorKind};

/// The start mode a keyword names.
fn start_mode_kind(kw: Kw) -> Option<StartModeKind> {
    Some(match kw {
        Kw::FROM_BEGINNING => StartModeKind::FromBeginning,
        Kw::FROM_NOW => StartModeKind::FromNow,
        Kw::FROM_TIMESTAMP => StartModeKind::FromTimestamp,
        Kw::RESUME_OR_FROM_BEGINNING => StartModeKind::ResumeOrFromBeginning,
        Kw::RESUME_OR_FROM_NOW => StartModeKind::ResumeOrFromNow,
        Kw::RESUME_OR_FROM_TIMESTAMP => StartModeKind::ResumeOrFromTimestamp,
        _ => return None,
    })
}

/// What people write for a start mode, from other tools (Kafka offsets, Confluent).
fn start_mode_guess(word: &str) -> Option<StartModeKind> {
    let w = word.to_ascii_uppercase().replace(['-', ' '], "_");
    Some(match w.as_str() {
        "EARLIEST" | "EARLIEST_OFFSET" | "BEGINNING" | "FROM_EARLIEST" => {
            StartModeKind::FromBeginning
        }
        "LATEST" | "LATEST_OFFSET" | "NOW" | "FROM_LATEST" => StartModeKind::FromNow,
        "TIMESTAMP" => StartModeKind::FromTimestamp,
        _ => return StartModeKind::parse(&w),
    })
}

/// An expression without the parentheses around it.
pub(crate) fn unparenthesized(mut e: &Expr) -> &Expr {
    while let ExprKind::Nested(inner) = &e.kind {
        e = inner;
    }
    e
}

impl Parser<'_> {
    /// `[SET] START_MODE = kind [(arg)]`; `set_keyword` is a `SET` already consumed. Errors
    /// carry Flink's own message; those after which the clause is still whole do not stop the
    /// statement.
    pub(super) fn start_mode_clause(
        &mut self,
        set_keyword: Option<Span>,
    ) -> PResult<StartModeClause> {
        let start = set_keyword.map_or_else(|| self.start(), |s| s.start);
        let keyword = self.expect(Kw::START_MODE)?;
        if !self.at_kind(TokenKind::Eq) {
            let tok = self.current();
            let found = self.describe(tok);
            let flink = self.encountered_here(expected::EQUALS);
            let before = self.error_count();
            let r = self.push_flink_error(
                SyntaxErrorKind::StartMode,
                format!("expected `=` after START_MODE, found {found}"),
                tok.span,
                Some("write START_MODE = <mode>, e.g. START_MODE = FROM_NOW".to_string()),
                flink,
            );
            if start_mode_kind(tok.kw).is_some() {
                self.set_suggestion(
                    before,
                    Suggestion {
                        title: "Insert `=`".to_string(),
                        span: Span::empty(keyword.end),
                        replacement: " =".to_string(),
                    },
                );
            }
            return Err(r);
        }
        self.bump();
        let tok = self.current();
        let Some(kind) = start_mode_kind(tok.kw) else {
            return Err(self.unknown_start_mode(tok));
        };
        let kind_span = self.bump().span;
        let mut arg = None;
        if self.at_kind(TokenKind::LParen) {
            arg = self.start_mode_arg(kind, kind_span)?;
        } else if matches!(
            kind,
            StartModeKind::FromTimestamp | StartModeKind::ResumeOrFromTimestamp
        ) {
            let flink = self.encountered_here(expected::OPEN_PAREN);
            let before = self.error_count();
            self.note_error(
                SyntaxErrorKind::StartMode,
                format!("{} needs a timestamp argument", kind.as_str()),
                kind_span,
                Some(format!(
                    "write {}(TIMESTAMP 'yyyy-MM-dd HH:mm:ss') with the instant to start from",
                    kind.as_str()
                )),
            );
            self.set_flink(before, flink);
        }
        Ok(StartModeClause {
            set_keyword,
            kind,
            kind_span,
            arg,
            span: self.finish(start),
        })
    }

    /// The error for a token that is not a start mode.
    fn unknown_start_mode(&mut self, tok: crate::syntax::Token) -> Recover {
        let found = self.describe(tok);
        let raw = self.text_of(tok);
        let quoted = tok
            .kind
            .is_string()
            .then(|| raw.trim_matches('\'').to_string());
        let guess = match &quoted {
            Some(q) => start_mode_guess(q),
            None if matches!(tok.kind, TokenKind::Word | TokenKind::QuotedIdent) => {
                start_mode_guess(raw.trim_matches('`'))
            }
            None => None,
        };
        let all = "FROM_BEGINNING, FROM_NOW[(INTERVAL ...)], FROM_TIMESTAMP(TIMESTAMP '...'), RESUME_OR_FROM_BEGINNING, RESUME_OR_FROM_NOW[(INTERVAL ...)], RESUME_OR_FROM_TIMESTAMP(TIMESTAMP '...')";
        let help = match (&quoted, guess) {
            (Some(q), Some(k)) if StartModeKind::parse(q) == Some(k) => format!(
                "write the mode as a keyword, without quotes: START_MODE = {}",
                k.as_str()
            ),
            (_, Some(k)) => format!(
                "did you mean START_MODE = {}? The start modes are {all}",
                k.as_str()
            ),
            _ => format!("the start modes are {all}"),
        };
        let flink = self.encountered_here(expected::START_MODES);
        let before = self.error_count();
        let r = self.push_flink_error(
            SyntaxErrorKind::StartMode,
            format!("expected a start mode, found {found}"),
            tok.span,
            Some(help),
            flink,
        );
        if let (Some(q), Some(k)) = (&quoted, guess) {
            if StartModeKind::parse(q) == Some(k) {
                self.set_suggestion(
                    before,
                    Suggestion {
                        title: format!("Write {} without quotes", k.as_str()),
                        span: tok.span,
                        replacement: k.as_str().to_string(),
                    },
                );
            }
        }
        r
    }

    /// The parenthesized argument of a start mode, at `(`: an interval for the *_NOW modes, a
    /// TIMESTAMP literal for the *_TIMESTAMP modes, nothing for the *_BEGINNING modes.
    fn start_mode_arg(
        &mut self,
        kind: StartModeKind,
        kind_span: Span,
    ) -> PResult<Option<StartModeArg>> {
        match kind {
            StartModeKind::FromBeginning | StartModeKind::ResumeOrFromBeginning => {
                // Flink's grammar ends the clause at the mode keyword.
                let open = self.current().span;
                let flink = self.encountered_here(expected::AFTER_START_MODE);
                self.balanced_parens()?;
                let span = open.cover(self.finish(open.start));
                Err(self.push_flink_error(
                    SyntaxErrorKind::StartMode,
                    format!("{} takes no argument", kind.as_str()),
                    span,
                    Some(format!(
                        "write START_MODE = {}; to start later, use FROM_NOW(INTERVAL ...) or FROM_TIMESTAMP(TIMESTAMP '...')",
                        kind.as_str()
                    )),
                    flink,
                ))
            }
            StartModeKind::FromNow | StartModeKind::ResumeOrFromNow => {
                let open = self.bump().span;
                if self.at_kind(TokenKind::RParen) {
                    let flink = self.encountered_here(&[]);
                    let close = self.bump().span;
                    let before = self.error_count();
                    self.note_error(
                        SyntaxErrorKind::StartMode,
                        format!("{}() has empty parentheses", kind.as_str()),
                        open.cover(close),
                        Some(format!(
                            "write {0} to start at the latest record, or {0}(INTERVAL '1' HOUR) to start an hour back",
                            kind.as_str()
                        )),
                    );
                    self.set_flink(before, flink);
                    self.set_suggestion(
                        before,
                        Suggestion {
                            title: "Remove the empty parentheses".to_string(),
                            span: Span::new(kind_span.end as usize, close.end as usize),
                            replacement: String::new(),
                        },
                    );
                    return Ok(None);
                }
                let value = self.expr()?;
                self.close_start_mode_arg()?;
                Ok(Some(self.check_now_arg(kind, value)))
            }
            StartModeKind::FromTimestamp | StartModeKind::ResumeOrFromTimestamp => {
                self.bump();
                if self.at(Kw::TIMESTAMP) {
                    let value = self.start_mode_timestamp()?;
                    self.close_start_mode_arg()?;
                    return Ok(Some(StartModeArg::Timestamp(value)));
                }
                let flink = self.encountered_here(expected::TIMESTAMP);
                let first = self.current();
                if first.kind == TokenKind::RParen {
                    self.bump();
                    return Err(self.push_flink_error(
                        SyntaxErrorKind::StartMode,
                        format!("{} needs a timestamp between the parentheses", kind.as_str()),
                        first.span,
                        Some(format!(
                            "write {}(TIMESTAMP 'yyyy-MM-dd HH:mm:ss') with the instant to start from",
                            kind.as_str()
                        )),
                        flink,
                    ));
                }
                let value = self.expr()?;
                let (help, suggestion) = self.timestamp_arg_help(kind, &value, first);
                let before = self.error_count();
                self.note_error(
                    SyntaxErrorKind::StartMode,
                    format!("{} needs a TIMESTAMP literal", kind.as_str()),
                    value.span,
                    Some(help),
                );
                self.set_flink(before, flink);
                if let Some(s) = suggestion {
                    self.set_suggestion(before, s);
                }
                self.close_start_mode_arg()?;
                Ok(Some(StartModeArg::Invalid(value)))
            }
        }
    }

    /// The `)` after a start mode argument.
    fn close_start_mode_arg(&mut self) -> PResult<()> {
        if self.eat_kind(TokenKind::RParen).is_some() {
            return Ok(());
        }
        let tok = self.current();
        let found = self.describe(tok);
        let flink = self.encountered_here(if tok.kind == TokenKind::Comma {
            &[]
        } else {
            expected::CLOSE_PAREN
        });
        let r = self.push_flink_error(
            SyntaxErrorKind::StartMode,
            format!("expected `)` after the start mode's argument, found {found}"),
            tok.span,
            Some("a start mode takes one literal: an INTERVAL for FROM_NOW, a TIMESTAMP for FROM_TIMESTAMP".to_string()),
            flink,
        );
        Err(r)
    }

    /// `TIMESTAMP '...'` or `TIMESTAMP WITH LOCAL TIME ZONE '...'` (Flink's grammar takes
    /// nothing else here: no expression, no precision).
    fn start_mode_timestamp(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.expect(Kw::TIMESTAMP)?;
        let type_name = if self.at(Kw::WITH) && self.nth_at(1, Kw::LOCAL) {
            self.bump();
            self.bump();
            self.expect(Kw::TIME)?;
            self.expect(Kw::ZONE)?;
            "TIMESTAMP WITH LOCAL TIME ZONE"
        } else {
            "TIMESTAMP"
        };
        if !self.current().kind.is_string() {
            let tok = self.current();
            let found = self.describe(tok);
            let flink = self.encountered_here(&[]);
            return Err(self.push_flink_error(
                SyntaxErrorKind::StartMode,
                format!("expected the timestamp in quotes after {type_name}, found {found}"),
                tok.span,
                Some(format!("write {type_name} '2024-01-01 00:00:00'")),
                flink,
            ));
        }
        let value = self.string_lit("a timestamp string")?;
        Ok(Expr {
            kind: ExprKind::Literal(Literal::Typed {
                type_name: type_name.into(),
                value,
            }),
            span: self.finish(start),
        })
    }

    /// Help and a fix for a *_TIMESTAMP argument that is not a TIMESTAMP literal.
    fn timestamp_arg_help(
        &self,
        kind: StartModeKind,
        value: &Expr,
        first: crate::syntax::Token,
    ) -> (String, Option<Suggestion>) {
        let mode = kind.as_str();
        match &value.kind {
            ExprKind::Literal(Literal::String(s)) => (
                format!(
                    "add the TIMESTAMP keyword: {mode}(TIMESTAMP '{}')",
                    s.value.replace('\'', "''")
                ),
                Some(Suggestion {
                    title: "Add the TIMESTAMP keyword".to_string(),
                    span: Span::empty(value.span.start),
                    replacement: "TIMESTAMP ".to_string(),
                }),
            ),
            ExprKind::Literal(Literal::Typed { type_name, value: v })
                if type_name == "TIMESTAMP_LTZ" =>
            {
                (
                    format!(
                        "Flink's grammar spells it out here: {mode}(TIMESTAMP WITH LOCAL TIME ZONE '{}')",
                        v.value.replace('\'', "''")
                    ),
                    Some(Suggestion {
                        title: "Write TIMESTAMP WITH LOCAL TIME ZONE".to_string(),
                        span: first.span,
                        replacement: "TIMESTAMP WITH LOCAL TIME ZONE".to_string(),
                    }),
                )
            }
            ExprKind::Literal(Literal::Typed { type_name, value: v }) if type_name == "DATE" => (
                format!(
                    "write a TIMESTAMP literal; a date alone means midnight: {mode}(TIMESTAMP '{}')",
                    v.value.replace('\'', "''")
                ),
                Some(Suggestion {
                    title: "Write TIMESTAMP instead of DATE".to_string(),
                    span: first.span,
                    replacement: "TIMESTAMP".to_string(),
                }),
            ),
            ExprKind::Literal(Literal::Interval { .. }) => (
                format!(
                    "{mode} takes an instant, not an interval: write {mode}(TIMESTAMP 'yyyy-MM-dd HH:mm:ss'), or use {}(INTERVAL ...) to start an interval back from now",
                    if kind.is_resume() { "RESUME_OR_FROM_NOW" } else { "FROM_NOW" }
                ),
                None,
            ),
            _ => (
                format!(
                    "Flink takes only a literal here: write {mode}(TIMESTAMP 'yyyy-MM-dd HH:mm:ss')"
                ),
                None,
            ),
        }
    }

    /// Checks a *_NOW argument the way Flink's parser does: an interval literal (in
    /// parentheses or not) in a unit Flink's interval grammar has.
    fn check_now_arg(&mut self, kind: StartModeKind, value: Expr) -> StartModeArg {
        let inner = unparenthesized(&value);
        let literal = match &inner.kind {
            ExprKind::Literal(Literal::Interval {
                value: v,
                qualifier,
                ..
            }) if self.text[v.span.range()].starts_with('\'') => Some(qualifier),
            _ => None,
        };
        let Some(qualifier) = literal else {
            let help = match &inner.kind {
                ExprKind::Unary {
                    op: UnaryOp::Minus, ..
                } => format!(
                    "{} already subtracts the interval from now: write {}(INTERVAL '1' HOUR) to start an hour back",
                    kind.as_str(),
                    kind.as_str()
                ),
                ExprKind::Literal(Literal::Interval { .. }) => {
                    "write the interval's value in quotes: INTERVAL '1' HOUR".to_string()
                }
                ExprKind::Literal(Literal::Typed { .. }) => format!(
                    "{} takes an interval back from now; for an instant, use {}(TIMESTAMP '...')",
                    kind.as_str(),
                    if kind.is_resume() { "RESUME_OR_FROM_TIMESTAMP" } else { "FROM_TIMESTAMP" }
                ),
                _ => format!(
                    "write one interval literal, e.g. {}(INTERVAL '25' HOUR)",
                    kind.as_str()
                ),
            };
            let before = self.error_count();
            self.note_error(
                SyntaxErrorKind::StartMode,
                format!(
                    "the argument of {} must be an interval literal",
                    kind.as_str()
                ),
                value.span,
                Some(help),
            );
            self.set_flink(
                before,
                FlinkSyntax::Verbatim(
                    "START_MODE literal must be an interval for FROM_NOW and RESUME_OR_FROM_NOW modes."
                        .to_string(),
                ),
            );
            if let ExprKind::Literal(Literal::Interval { value: v, .. }) = &inner.kind {
                self.set_suggestion(
                    before,
                    Suggestion {
                        title: "Quote the interval value".to_string(),
                        span: v.span,
                        replacement: format!("'{}'", v.value),
                    },
                );
            }
            return StartModeArg::Invalid(value);
        };
        let bad_unit = [Some(&qualifier.start), qualifier.end.as_ref()]
            .into_iter()
            .flatten()
            .find(|u| !expected::INTERVAL_UNIT_NAMES.contains(&u.as_str()))
            .cloned();
        if let Some(unit) = bad_unit {
            let at = qualifier.unknown_unit_span(&unit);
            let before = self.error_count();
            self.note_error(
                SyntaxErrorKind::StartMode,
                format!("START_MODE intervals cannot be in {unit}"),
                at,
                Some(format!(
                    "Flink's interval literals take {}; use INTERVAL '1' SECOND or a larger unit",
                    expected::INTERVAL_UNIT_NAMES.join(", ")
                )),
            );
            let list = if unit == qualifier.start {
                expected::INTERVAL_UNITS.to_vec()
            } else {
                Vec::new()
            };
            self.set_flink(before, FlinkSyntax::Encountered { at, expected: list });
            return StartModeArg::Invalid(value);
        }
        StartModeArg::Interval(value)
    }
}

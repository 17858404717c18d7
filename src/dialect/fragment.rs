//! Fragments in documents: a SQL block of a Markdown or reStructuredText document that shows
//! part of a statement (a lone `MATCH_RECOGNIZE (...)`, `PATTERN (...)` or `WHERE ...` clause,
//! or `...` for what the prose leaves out) is no statement Flink could run, and checking it
//! as one gives syntax errors that say nothing. A statement of a document whose first token
//! can only continue a statement is a fragment ([`super::Dialect::Fragment`]): one SY006 note,
//! never a syntax error. Files that are not documents keep their syntax errors.

use crate::syntax::{Token, TokenKind};

/// Words that continue a statement but never begin one in Flink's grammar (clauses, joins,
/// the parts of MATCH_RECOGNIZE and of a table definition).
const CLAUSES: &[&str] = &[
    "AFTER",
    "AND",
    "CROSS",
    "DEFINE",
    "DISTRIBUTED",
    "EXCEPT",
    "FETCH",
    "FROM",
    "FULL",
    "GROUP",
    "HAVING",
    "INNER",
    "INTERSECT",
    "JOIN",
    "LEFT",
    "LIMIT",
    "MATCH_RECOGNIZE",
    "MEASURES",
    "OFFSET",
    "ON",
    "ORDER",
    "PARTITION",
    "PARTITIONED",
    "PATTERN",
    "PRIMARY",
    "RIGHT",
    "UNION",
    "WATERMARK",
    "WHERE",
    "WINDOW",
    "WITHIN",
];

/// The first token of the statement whose tokens are `tokens` (comments skipped), when it can
/// only continue a statement: a clause word ([`CLAUSES`]), or `.` (`...`), `,` or `)`.
pub(super) fn fragment_start<'t>(text: &str, tokens: &'t [Token]) -> Option<&'t Token> {
    let first = tokens.iter().find(|t| !t.kind.is_trivia())?;
    let starts_fragment = match first.kind {
        TokenKind::Word => {
            let word = text.get(first.span.start as usize..first.span.end as usize)?;
            CLAUSES.iter().any(|c| c.eq_ignore_ascii_case(word))
        }
        TokenKind::Dot | TokenKind::Comma | TokenKind::RParen => true,
        _ => false,
    };
    starts_fragment.then_some(first)
}

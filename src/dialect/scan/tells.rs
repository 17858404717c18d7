//! The words of a statement: Flink's own syntax, read in its context, and the dispatch of every
//! other word to the tells of the other dialects ([`super::databases`]); the tells spelled in
//! literals and characters (backslash escapes, `@variables`, psql meta-commands).

use super::super::words::W;
use super::{At, Scan};
use crate::dialect::{Dialect, Strength};
use crate::syntax::keywords::Kw;
use crate::syntax::{Token, TokenKind};

impl Scan<'_> {
    pub(super) fn word(&mut self, i: usize, head_w: Option<W>, ddl: bool, depth: i32) {
        let t = self.tokens[i];
        // A Flink keyword is looked up by the lexer's classification alone; only other words
        // (identifiers, other dialects' keywords) are read.
        let w = if t.kw != Kw::NONE {
            self.words.keyword(t.kw)
        } else {
            self.identifier(i)
        };
        let Some(w) = w else { return };
        self.tell(i, w, head_w, ddl, depth);
    }

    /// The word of an identifier token, after the tells that are spelled inside words
    /// (`$$`, `${`, `pg_...`, `DBMS_...`).
    fn identifier(&mut self, i: usize) -> Option<W> {
        let t = self.tokens[i];
        let s = self.slice(t);
        let bytes = s.as_bytes();
        use Dialect::*;
        use Strength::*;
        if bytes.last() == Some(&b'$') {
            if bytes.len() >= 2
                && bytes[0] == b'$'
                && bytes[1..bytes.len() - 1]
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
            {
                self.signal(Postgres, Strong, "`$$` dollar quoting", t.span);
                return None;
            }
            if self
                .tokens
                .get(i + 1)
                .is_some_and(|n| n.kind == TokenKind::LBrace && n.span.start == t.span.end)
            {
                self.tally.placeholder = true;
                self.signal(Placeholders, Strong, "a `${...}` placeholder", t.span);
                return None;
            }
        }
        match bytes.first() {
            Some(b'p' | b'P') if bytes.len() > 3 && bytes[..3].eq_ignore_ascii_case(b"pg_") => {
                if self.kind(self.next(Some(i))) == Some(TokenKind::LParen) {
                    self.signal(Postgres, Medium, "a `pg_...` function", t.span);
                }
                return None;
            }
            Some(b'd' | b'D') if bytes.len() > 5 && bytes[..5].eq_ignore_ascii_case(b"dbms_") => {
                self.signal(Oracle, Strong, "a `DBMS_...` package", t.span);
                return None;
            }
            _ => {}
        }
        self.words.token(s, t.kw)
    }

    /// What the word `w` at `i` tells, in its context: Flink's tells first, then each other
    /// dialect's, until one of them knows the word.
    fn tell(&mut self, i: usize, w: W, head_w: Option<W>, ddl: bool, depth: i32) {
        if w == W::VALUES {
            self.in_values = true;
            return;
        }
        let tells: [fn(&mut Self, At) -> bool; 9] = [
            Self::flink,
            Self::mysql,
            Self::postgres,
            Self::hive_spark,
            Self::clickhouse,
            Self::doris,
            Self::oracle,
            Self::sql_server,
            Self::snowflake,
        ];
        let a = At {
            i,
            w,
            head_w,
            ddl,
            depth,
        };
        for tell in tells {
            if tell(self, a) {
                return;
            }
        }
    }

    /// Flink's own tells (and ksqlDB's); `false` when the word is none of them.
    fn flink(&mut self, a: At) -> bool {
        let At {
            i, w, head_w, ddl, ..
        } = a;
        use Dialect::*;
        use Strength::*;
        // The neighbours are read only by the arm of the word (most words have none).
        let at = Some(i);
        let span = self.tokens[i].span;
        match w {
            // ----- Flink -----
            W::WITH if self.kind(self.next(at)) == Some(TokenKind::LParen) => {
                let key = self.next(self.next(at));
                if self.kind(key) == Some(TokenKind::String)
                    && self.kind(self.next(key)) == Some(TokenKind::Eq)
                {
                    let what = if key.is_some_and(|k| self.slice(self.tokens[k]) == "'connector'") {
                        "WITH ('connector' = ...)"
                    } else {
                        "WITH ('key' = 'value') options"
                    };
                    self.signal(Flink, Decisive, what, span);
                } else if self.is(key, W::NOLOCK) {
                    self.signal(SqlServer, Strong, "WITH (NOLOCK)", span);
                }
            }
            W::PRIMARY if ddl && self.w(self.next(at)) == Some(W::KEY) => {
                // `PRIMARY KEY [(cols)] NOT ENFORCED` is Flink's (its NOT counts there).
                let mut after = self.next(self.next(at));
                if self.kind(after) == Some(TokenKind::LParen) {
                    after = self.after_group(after);
                }
                let not_enforced =
                    self.is(after, W::NOT) && self.w(self.next(after)) == Some(W::ENFORCED);
                if !not_enforced && self.enforced_key.is_none() {
                    self.enforced_key = Some(span);
                }
            }
            W::ADD if head_w == Some(W::ALTER) => {
                // `ADD c INT`: Hive and Spark add columns with `ADD COLUMNS (...)`.
                let name = self.next(at);
                let bare = self.is_name(name)
                    && !matches!(
                        self.w(name),
                        Some(
                            W::COLUMN
                                | W::COLUMNS
                                | W::PARTITION
                                | W::CONSTRAINT
                                | W::IF
                                | W::PRIMARY
                                | W::UNIQUE
                                | W::WATERMARK
                                | W::WATERMARKS
                                | W::DISTRIBUTION
                                | W::JAR
                                | W::FILE
                                | W::ARCHIVE
                        )
                    )
                    && self.kind(self.next(name)) == Some(TokenKind::Word);
                if bare {
                    for d in [Hive, Spark, HiveOrSpark] {
                        self.tally.excluded |= 1 << d.index();
                    }
                }
            }
            W::WATERMARK if self.w(self.next(at)) == Some(W::FOR) => {
                self.signal(Flink, Decisive, "WATERMARK FOR", span)
            }
            W::NOT if self.w(self.next(at)) == Some(W::ENFORCED) => {
                self.signal(Flink, Decisive, "NOT ENFORCED", span)
            }
            W::PROCTIME
                if self.kind(self.next(at)) == Some(TokenKind::LParen)
                    && self.kind(self.next(self.next(at))) == Some(TokenKind::RParen) =>
            {
                self.signal(Flink, Decisive, "PROCTIME()", span)
            }
            W::TABLE => {
                let f = self.next(self.next(at));
                if self.kind(self.next(at)) == Some(TokenKind::LParen)
                    && matches!(
                        self.w(f),
                        Some(W::TUMBLE | W::HOP | W::CUMULATE | W::SESSION)
                    )
                    && self.kind(self.next(f)) == Some(TokenKind::LParen)
                {
                    self.signal(
                        Flink,
                        Decisive,
                        "a window table function TABLE(TUMBLE(...))",
                        span,
                    );
                } else if matches!(self.w(self.prev(at)), Some(W::INTO | W::OVERWRITE))
                    && self.is(self.prev(self.prev(at)), W::INSERT)
                {
                    self.signal(HiveOrSpark, Strong, "INSERT INTO / OVERWRITE TABLE", span);
                } else if self.w(self.prev(at)) == Some(W::EXTERNAL) {
                    self.signal(HiveOrSpark, Strong, "EXTERNAL TABLE", span);
                } else if self.kind(self.next(at)) == Some(TokenKind::FatArrow) {
                    // Spark's procedure calls name the argument bare; Flink reserves TABLE.
                    self.signal(Spark, Medium, "an unquoted `table =>` argument", span);
                }
            }
            W::DESCRIPTOR if self.kind(self.next(at)) == Some(TokenKind::LParen) => {
                self.signal(Flink, Medium, "DESCRIPTOR(...)", span)
            }
            W::METADATA => {
                let column = matches!(self.w(self.next(at)), Some(W::FROM | W::VIRTUAL))
                    || (ddl
                        && matches!(
                            self.kind(self.next(at)),
                            Some(TokenKind::Comma | TokenKind::RParen)
                        )
                        && !matches!(
                            self.kind(self.prev(at)),
                            Some(TokenKind::LParen | TokenKind::Comma)
                        ));
                if column {
                    self.signal(Flink, Decisive, "a METADATA column", span);
                }
            }
            W::TIMESTAMP_LTZ => self.signal(Flink, Decisive, "TIMESTAMP_LTZ", span),
            W::SOURCE_WATERMARK | W::CURRENT_WATERMARK => self.signal(
                Flink,
                Decisive,
                "SOURCE_WATERMARK / CURRENT_WATERMARK",
                span,
            ),
            W::TO_TIMESTAMP_LTZ => self.signal(Flink, Medium, "TO_TIMESTAMP_LTZ", span),
            W::FOR if self.w(self.next(at)) == Some(W::SYSTEM_TIME) => {
                self.signal(Flink, Medium, "FOR SYSTEM_TIME AS OF", span)
            }
            W::LATERAL if self.w(self.next(at)) == Some(W::TABLE) => {
                self.signal(Flink, Medium, "LATERAL TABLE(...)", span)
            }
            W::LATERAL if self.w(self.next(at)) == Some(W::VIEW) => {
                self.signal(HiveOrSpark, Strong, "LATERAL VIEW", span)
            }
            W::MATERIALIZED if self.w(self.next(at)) == Some(W::TABLE) && ddl => {
                self.signal(Flink, Decisive, "a materialized table", span)
            }
            W::FRESHNESS if ddl => self.signal(Flink, Decisive, "FRESHNESS", span),
            W::STATEMENT
                if self.w(self.next(at)) == Some(W::SET)
                    && matches!(self.w(self.prev(at)), Some(W::EXECUTE | W::BEGIN)) =>
            {
                self.signal(Flink, Decisive, "a statement set", span)
            }
            W::CATALOG if matches!(self.w(self.prev(at)), Some(W::CREATE | W::USE)) => {
                self.signal(Flink, Medium, "CREATE / USE CATALOG", span)
            }
            W::STRING | W::BYTES if self.type_position(i, ddl) => {
                self.signal(Flink, Weak, "a STRING / BYTES column", span)
            }
            W::LANGUAGE => {
                if matches!(self.w(self.next(at)), Some(W::JAVA | W::SCALA | W::PYTHON)) {
                    self.signal(Flink, Medium, "LANGUAGE JAVA / SCALA / PYTHON", span);
                } else if self.w(self.next(at)) == Some(W::PLPGSQL) {
                    self.signal(Postgres, Strong, "LANGUAGE plpgsql", span);
                }
            }

            W::SET | W::RESET
                if head_w == Some(W::ALTER)
                    && self.kind(self.next(at)) == Some(TokenKind::LParen) =>
            {
                let key = self.next(self.next(at));
                if self.kind(key) == Some(TokenKind::String)
                    && (w == W::RESET || self.kind(self.next(key)) == Some(TokenKind::Eq))
                {
                    self.signal(Flink, Decisive, "ALTER ... SET ('key' = 'value')", span);
                }
            }

            // ----- ksqlDB -----
            W::EMIT if self.w(self.next(at)) == Some(W::CHANGES) => {
                self.signal(KsqlDb, Strong, "EMIT CHANGES", span)
            }
            W::KAFKA_TOPIC | W::VALUE_FORMAT => {
                self.signal(KsqlDb, Strong, "KAFKA_TOPIC / VALUE_FORMAT", span)
            }

            _ => return false,
        }
        true
    }

    /// A string literal: a MySQL backslash escape makes Flink's lexer end it early, with
    /// the rest of the intended string glued to it (`'It\'s'`).
    pub(super) fn string(&mut self, i: usize) {
        let t = self.tokens[i];
        let s = self.slice(t).as_bytes();
        if s.len() < 3 || s[s.len() - 2] != b'\\' {
            return;
        }
        let backslashes = s[1..s.len() - 1]
            .iter()
            .rev()
            .take_while(|b| **b == b'\\')
            .count();
        let glued = self.tokens.get(i + 1).is_some_and(|n| {
            n.span.start == t.span.end
                && matches!(
                    n.kind,
                    TokenKind::Word
                        | TokenKind::Integer
                        | TokenKind::Decimal
                        | TokenKind::String
                        | TokenKind::UnterminatedString
                )
        });
        if backslashes % 2 == 1 && glued {
            self.signal(
                Dialect::MySql,
                Strength::Medium,
                "a backslash escape in a string ('It\\'s')",
                t.span,
            );
        }
    }

    /// Whether only blanks precede the token on its line.
    fn first_on_line(&self, t: Token) -> bool {
        let before = &self.text[..t.span.start as usize];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        before[line_start..]
            .bytes()
            .all(|b| b == b' ' || b == b'\t')
    }

    /// Whether the `DEFAULT` at `i` is the default of a JSON function (`JSON_VALUE(... DEFAULT
    /// 'x' ON EMPTY)`), which Flink has: its value is followed by `ON EMPTY` / `ON ERROR`.
    pub(super) fn json_default(&self, i: usize) -> bool {
        let mut at = self.next(Some(i));
        let mut depth = 0i32;
        for _ in 0..12 {
            let Some(k) = at else { return false };
            match self.tokens[k].kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen if depth == 0 => return false,
                TokenKind::RParen => depth -= 1,
                TokenKind::Comma if depth == 0 => return false,
                TokenKind::Word if depth == 0 && self.is(at, W::ON) => {
                    return matches!(self.w(self.next(at)), Some(W::EMPTY | W::ERROR));
                }
                _ => {}
            }
            at = self.next(at);
        }
        false
    }

    /// A character Flink's lexer does not know: `@variable`, `\c` (psql).
    pub(super) fn unknown(&mut self, i: usize, head_w: Option<W>) {
        let t = self.tokens[i];
        let next_glued = self
            .tokens
            .get(i + 1)
            .is_some_and(|n| n.span.start == t.span.end && n.kind == TokenKind::Word);
        // Adjacent unknown characters are one token (`@@x`: `@@`): its last character is the
        // one glued to the word.
        let text = self.slice(t);
        if next_glued && text.ends_with('@') && head_w != Some(W::SET) {
            self.signal(
                Dialect::OtherDatabase,
                Strength::Medium,
                "an @variable",
                t.span,
            );
        } else if next_glued && text == "\\" && self.first_on_line(t) {
            self.signal(
                Dialect::Postgres,
                Strength::Strong,
                "a psql meta-command (\\c)",
                t.span,
            );
        }
    }

    /// Whether the `<` at `i` opens a placeholder of documentation, `<table name>`, where a
    /// name or a value belongs: after a word that a name follows (`FROM`, `TABLE`, ...), after
    /// `(`, `,` or `=`, or at the start of the statement (where no operand stands before it,
    /// so it is no comparison, and no type such as `ARRAY<INT>` opens), holding up to six
    /// words (joined by `-` or `.`) on one line, glued to `<` and `>`.
    pub(super) fn doc_placeholder(&self, i: usize) -> bool {
        let lt = self.tokens[i];
        let prev = self.prev(Some(i));
        let name_follows = match self.kind(prev) {
            None => true,
            Some(TokenKind::LParen | TokenKind::Comma | TokenKind::Eq) => true,
            Some(TokenKind::Word) => matches!(
                self.w(prev),
                Some(
                    W::FROM
                        | W::JOIN
                        | W::INTO
                        | W::TABLE
                        | W::VIEW
                        | W::UPDATE
                        | W::CATALOG
                        | W::DATABASE
                        | W::FUNCTION
                        | W::USE
                        | W::SELECT
                        | W::WHERE
                        | W::AS
                )
            ),
            _ => false,
        };
        if !name_follows {
            return false;
        }
        let mut end = lt.span.end;
        let mut words = 0;
        for k in i + 1..self.hi.min(i + 14) {
            let t = self.tokens[k];
            let gap = self
                .text
                .get(end as usize..t.span.start as usize)
                .unwrap_or("\n");
            if gap.contains('\n') || gap.chars().any(|c| !c.is_whitespace()) {
                return false;
            }
            match t.kind {
                TokenKind::Gt => return words > 0 && words <= 6 && gap.is_empty(),
                TokenKind::Word | TokenKind::QuotedIdent => {
                    // The first word is glued to `<`.
                    if words == 0 && !gap.is_empty() {
                        return false;
                    }
                    words += 1;
                }
                TokenKind::Minus | TokenKind::Dot | TokenKind::Integer if words > 0 => {}
                _ => return false,
            }
            end = t.span.end;
        }
        false
    }
}

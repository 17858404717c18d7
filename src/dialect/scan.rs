//! The signals of one statement: one pass over its tokens, each word looked up once in
//! [`super::words`], with a few tokens of look-ahead and look-behind (comments skipped).
//!
//! What counts as a signal, and for which dialect, is listed in the module documentation of
//! [`super`]; each signal names what it saw in the words a user reads (`AUTO_INCREMENT`,
//! `STORED AS`, `WITH ('connector' = ...)`).

use super::words::{words, Words, W};
use super::{Dialect, Signal, Strength};
use crate::source::Span;
use crate::syntax::keywords::Kw;
use crate::syntax::{Token, TokenKind};

/// At most this many signals are recorded per statement (points are still counted).
const RECORDED_PER_STATEMENT: usize = 8;

/// At most this many distinct signals of Flink SQL are recorded per file: they say why a file
/// is Flink SQL, and most files are (recording all of them would cost more than detecting).
pub(super) const FLINK_RECORDED_PER_FILE: usize = 4;

/// What one statement's tokens add up to.
#[derive(Debug, Clone, Default)]
pub(super) struct Tally {
    /// Points of Flink's own syntax.
    pub flink: u32,
    /// Whether a construct only Flink has was seen (`WATERMARK FOR`, `WITH ('k' = ...)`).
    pub decisive: bool,
    /// Points of each other dialect, indexed by [`Dialect::index`].
    pub other: [u32; Dialect::COUNT],
    /// A Jinja tag (`{{`, `{%`, `{#`): the whole file is a template.
    pub jinja: bool,
    /// A `${...}` or `#{...}` placeholder outside strings.
    pub placeholder: bool,
}

impl Tally {
    /// The other dialect with the most points, and its points (`None` when none has any).
    pub fn leading_other(&self) -> Option<(Dialect, u32)> {
        // What Hive and Spark share goes to the one of them that something else names.
        let mut points = self.other;
        let (hive, spark, both) = (
            Dialect::Hive.index(),
            Dialect::Spark.index(),
            Dialect::HiveOrSpark.index(),
        );
        if points[both] > 0 && (points[hive] > 0 || points[spark] > 0) {
            let to = if points[spark] >= points[hive] {
                spark
            } else {
                hive
            };
            points[to] = points[to].saturating_add(points[both]);
            points[both] = 0;
        }
        let mut best: Option<(Dialect, u32)> = None;
        for d in Dialect::OTHERS {
            let p = points[d.index()];
            if p > 0 && best.is_none_or(|(_, b)| p > b) {
                best = Some((d, p));
            }
        }
        best
    }
    /// Points of every other dialect together.
    pub fn other_total(&self) -> u32 {
        self.other.iter().fold(0u32, |a, b| a.saturating_add(*b))
    }
}

/// A name as compared across statements: backticks removed, case kept (Flink's names are
/// case-sensitive; another dialect's script spells its own names one way).
pub(super) fn name_key(text: &str, span: Span) -> String {
    let s = text.get(span.range()).unwrap_or("");
    s.strip_prefix('`')
        .and_then(|s| s.strip_suffix('`'))
        .unwrap_or(s)
        .to_string()
}

/// The name the statement `lo..hi` creates, if it creates a table, view, catalog, database or
/// schema: the last part of the name (`CREATE TABLE IF NOT EXISTS db.orders` gives `orders`).
pub(super) fn created_name(text: &str, tokens: &[Token], lo: usize, hi: usize) -> Option<Span> {
    let mut none = Vec::new();
    let scan = Scan::new(text, tokens, lo, hi, &mut none);
    let head = scan.sig(lo);
    if !scan.is(head, W::CREATE) {
        return None;
    }
    let mut at = scan.next(head);
    while matches!(
        scan.w(at),
        Some(W::OR | W::REPLACE | W::TEMPORARY | W::TEMP | W::EXTERNAL | W::MATERIALIZED)
    ) {
        at = scan.next(at);
    }
    if !matches!(
        scan.w(at),
        Some(W::TABLE | W::VIEW | W::CATALOG | W::DATABASE | W::SCHEMA)
    ) {
        return None;
    }
    at = scan.next(at);
    if scan.is(at, W::IF) {
        at = scan.next(scan.next(scan.next(at)));
    }
    scan.name_parts(at).1
}

/// The names the statement `lo..hi` uses: the name after `FROM`, `JOIN`, `INTO`, `UPDATE`,
/// `TABLE` and `USING`, its first part (a catalog or database) before its last part.
pub(super) fn used_names(text: &str, tokens: &[Token], lo: usize, hi: usize, out: &mut Vec<Span>) {
    let mut none = Vec::new();
    let scan = Scan::new(text, tokens, lo, hi, &mut none);
    for (i, t) in tokens.iter().enumerate().take(hi).skip(lo) {
        if out.len() >= 16 {
            return;
        }
        if t.kind != TokenKind::Word {
            continue;
        }
        if matches!(
            scan.w(Some(i)),
            Some(W::FROM | W::JOIN | W::INTO | W::UPDATE | W::TABLE | W::USING)
        ) {
            let (first, last) = scan.name_parts(scan.next(Some(i)));
            out.extend(first);
            if last != first {
                out.extend(last);
            }
        }
    }
}

/// The distinct Flink signals a file has recorded so far.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct FlinkRecorded([&'static str; FLINK_RECORDED_PER_FILE]);

/// Scans the tokens `lo..hi` of one statement; records its signals in `out` (those of Flink
/// only while the file has recorded fewer than [`FLINK_RECORDED_PER_FILE`] distinct ones).
pub(super) fn statement(
    text: &str,
    tokens: &[Token],
    lo: usize,
    hi: usize,
    out: &mut Vec<Signal>,
    flink: &mut FlinkRecorded,
) -> Tally {
    let mut scan = Scan::new(text, tokens, lo, hi, out);
    scan.flink = *flink;
    scan.run();
    *flink = scan.flink;
    scan.tally
}

struct Scan<'a> {
    words: &'static Words,
    text: &'a str,
    tokens: &'a [Token],
    lo: usize,
    hi: usize,
    first_recorded: usize,
    out: &'a mut Vec<Signal>,
    tally: Tally,
    /// The weak signals counted so far (there are few kinds).
    weak_seen: [&'static str; 4],
    /// Distinct Flink signals the file has recorded so far.
    flink: FlinkRecorded,
    /// Whether a `VALUES` keyword was passed.
    in_values: bool,
}

/// The words that may follow `SET` in MySQL.
const MYSQL_SET: &[&str] = &[
    "NAMES",
    "GLOBAL",
    "FOREIGN_KEY_CHECKS",
    "UNIQUE_CHECKS",
    "SQL_MODE",
    "AUTOCOMMIT",
    "SQL_SAFE_UPDATES",
    "SQL_NOTES",
    "CHARACTER_SET_CLIENT",
    "CHARACTER_SET_RESULTS",
    "COLLATION_CONNECTION",
    "TIME_ZONE",
    "PERSIST",
];

/// The settings PostgreSQL dumps and scripts set.
const POSTGRES_SET: &[&str] = &[
    "SEARCH_PATH",
    "CLIENT_ENCODING",
    "STANDARD_CONFORMING_STRINGS",
    "STATEMENT_TIMEOUT",
    "LOCK_TIMEOUT",
    "IDLE_IN_TRANSACTION_SESSION_TIMEOUT",
    "CLIENT_MIN_MESSAGES",
    "ROW_SECURITY",
    "CHECK_FUNCTION_BODIES",
    "XMLOPTION",
    "DEFAULT_TABLESPACE",
    "DEFAULT_TABLE_ACCESS_METHOD",
    "DEFAULT_WITH_OIDS",
    "ROLE",
];

/// The first part of Flink's configuration keys (`execution.runtime-mode`, `table.exec...`).
const FLINK_KEY_PREFIXES: &[&str] = &[
    "execution",
    "table",
    "pipeline",
    "parallelism",
    "state",
    "sql",
    "restart",
    "python",
    "jobmanager",
    "taskmanager",
    "rest",
    "yarn",
    "kubernetes",
    "security",
    "metrics",
    "akka",
    "pekko",
];

impl<'a> Scan<'a> {
    fn new(
        text: &'a str,
        tokens: &'a [Token],
        lo: usize,
        hi: usize,
        out: &'a mut Vec<Signal>,
    ) -> Scan<'a> {
        Scan {
            words: words(),
            text,
            tokens,
            lo,
            hi,
            first_recorded: out.len(),
            out,
            tally: Tally::default(),
            weak_seen: [""; 4],
            flink: FlinkRecorded::default(),
            in_values: false,
        }
    }

    /// The first and last parts of the dotted name starting at `at` (`None` when no name
    /// starts there; a word Flink reserves is not a name).
    fn name_parts(&self, at: Option<usize>) -> (Option<Span>, Option<Span>) {
        let is_part = |k: Option<usize>| match self.kind(k) {
            Some(TokenKind::QuotedIdent) => true,
            Some(TokenKind::Word) => k.is_some_and(|k| !self.tokens[k].kw.is_reserved()),
            _ => false,
        };
        if !is_part(at) {
            return (None, None);
        }
        let first = at.map(|k| self.tokens[k].span);
        let mut last = first;
        let mut k = at;
        for _ in 0..3 {
            let dot = self.next(k);
            if self.kind(dot) != Some(TokenKind::Dot) || !is_part(self.next(dot)) {
                break;
            }
            k = self.next(dot);
            last = k.map(|k| self.tokens[k].span);
        }
        (first, last)
    }

    fn run(&mut self) {
        let head = self.sig(self.lo);
        let head_w = self.w(head);
        let ddl = matches!(head_w, Some(W::CREATE | W::ALTER));
        if let Some(h) = head {
            self.head(h, head_w);
        }
        if matches!(head_w, Some(W::SET | W::RESET)) {
            // The SQL client's `SET key=value` takes any text: only its key is a signal.
            return;
        }
        let mut depth: i32 = 0;
        for i in self.lo..self.hi {
            let t = self.tokens[i];
            match t.kind {
                TokenKind::LParen => depth = depth.saturating_add(1),
                TokenKind::RParen => depth = depth.saturating_sub(1),
                TokenKind::Word => self.word(i, head_w, ddl, depth),
                TokenKind::LBrace => {
                    let next = self
                        .tokens
                        .get(i + 1)
                        .filter(|n| n.span.start == t.span.end);
                    let what = match next.map(|n| n.kind) {
                        Some(TokenKind::LBrace) => Some("a Jinja `{{ ... }}` expression"),
                        Some(TokenKind::Percent) => Some("a Jinja `{% ... %}` tag"),
                        Some(TokenKind::HashComment) => Some("a Jinja `{# ... #}` comment"),
                        _ => None,
                    };
                    if let Some(what) = what {
                        self.tally.jinja = true;
                        self.signal(Dialect::Jinja, Strength::Strong, what, t.span);
                    }
                }
                TokenKind::DoubleColon
                    if self.kind(self.next(Some(i))) == Some(TokenKind::Word) =>
                {
                    self.signal(Dialect::Postgres, Strength::Strong, "a `::` cast", t.span);
                }
                TokenKind::HashComment => {
                    if self.slice(t).starts_with("#{") {
                        self.tally.placeholder = true;
                        self.signal(
                            Dialect::Placeholders,
                            Strength::Strong,
                            "a `#{...}` placeholder",
                            t.span,
                        );
                    } else {
                        self.signal(Dialect::MySql, Strength::Weak, "a `#` comment", t.span);
                    }
                }
                TokenKind::BlockComment if self.slice(t).starts_with("/*!") => {
                    self.signal(
                        Dialect::MySql,
                        Strength::Strong,
                        "a `/*! ... */` version comment",
                        t.span,
                    );
                }
                TokenKind::Hint => {
                    let body = self.slice(t)[3..].trim_start();
                    let name_end = body
                        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                        .unwrap_or(body.len());
                    if matches!(
                        body[..name_end].to_ascii_uppercase().as_str(),
                        "OPTIONS" | "LOOKUP" | "STATE_TTL"
                    ) {
                        self.signal(
                            Dialect::Flink,
                            Strength::Medium,
                            "a `/*+ OPTIONS(...) */` hint",
                            t.span,
                        );
                    }
                }
                TokenKind::QuotedIdent
                    if self.kind(self.next(Some(i))) == Some(TokenKind::FatArrow) =>
                {
                    // Flink reserves TABLE, so its procedure calls quote the argument name
                    // (`` CALL sys.compact(`table` => 'db.t') ``); Spark writes it bare.
                    self.signal(
                        Dialect::Flink,
                        Strength::Medium,
                        "a quoted argument name (`table` => ...)",
                        t.span,
                    );
                }
                TokenKind::String => self.string(i),
                TokenKind::DoubleQuoted
                    if self.in_values
                        && matches!(
                            self.kind(self.prev(Some(i))),
                            Some(TokenKind::LParen | TokenKind::Comma)
                        ) =>
                {
                    self.signal(
                        Dialect::MySql,
                        Strength::Weak,
                        "a \"...\" string in VALUES",
                        t.span,
                    );
                }
                TokenKind::Unknown => self.unknown(i, head_w),
                _ => {}
            }
        }
    }

    // ----- tokens -----

    fn slice(&self, t: Token) -> &str {
        self.text.get(t.span.range()).unwrap_or("")
    }

    /// The first significant (non-comment) token at or after `i`, within the statement.
    fn sig(&self, mut i: usize) -> Option<usize> {
        while i < self.hi {
            if !self.tokens[i].kind.is_trivia() {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    /// The significant token after `i`.
    fn next(&self, i: Option<usize>) -> Option<usize> {
        self.sig(i? + 1)
    }

    /// The significant token before `i`, within the statement.
    fn prev(&self, i: Option<usize>) -> Option<usize> {
        let mut i = i?;
        while i > self.lo {
            i -= 1;
            if !self.tokens[i].kind.is_trivia() {
                return Some(i);
            }
        }
        None
    }

    fn kind(&self, i: Option<usize>) -> Option<TokenKind> {
        i.map(|i| self.tokens[i].kind)
    }

    /// The detector's word at `i`, if the token is one.
    fn w(&self, i: Option<usize>) -> Option<W> {
        let t = self.tokens[i?];
        if t.kind != TokenKind::Word {
            return None;
        }
        if t.kw != Kw::NONE {
            return self.words.keyword(t.kw);
        }
        self.words.token(self.slice(t), t.kw)
    }

    fn is(&self, i: Option<usize>, w: W) -> bool {
        self.w(i) == Some(w)
    }

    fn is_name(&self, i: Option<usize>) -> bool {
        matches!(self.kind(i), Some(TokenKind::Word | TokenKind::QuotedIdent))
    }

    fn text_is(&self, i: Option<usize>, any_of: &[&str]) -> bool {
        let Some(i) = i else { return false };
        let s = self.slice(self.tokens[i]);
        any_of.iter().any(|a| a.eq_ignore_ascii_case(s))
    }

    /// Whether the word at `i` stands where a column's type does in DDL: after a column name
    /// that starts an element (`(` or `,` before it, or `ADD` / `MODIFY` / `COLUMN`).
    fn type_position(&self, i: usize, ddl: bool) -> bool {
        if !ddl {
            return false;
        }
        let name = self.prev(Some(i));
        if !self.is_name(name) {
            return false;
        }
        let before = self.prev(name);
        matches!(
            self.kind(before),
            Some(TokenKind::LParen | TokenKind::Comma)
        ) || self.text_is(before, &["ADD", "MODIFY", "COLUMN"])
    }

    // ----- recording -----

    fn signal(&mut self, dialect: Dialect, strength: Strength, what: &'static str, span: Span) {
        // A weak signal counts once per statement: forty `"..."` values are one habit.
        if strength == Strength::Weak {
            match self
                .weak_seen
                .iter_mut()
                .find(|w| w.is_empty() || **w == what)
            {
                Some(w) if *w == what => return,
                Some(w) => *w = what,
                None => {}
            }
        }
        let points = strength.points();
        if dialect == Dialect::Flink {
            self.tally.flink = self.tally.flink.saturating_add(points);
            self.tally.decisive |= strength == Strength::Decisive;
        } else {
            let p = &mut self.tally.other[dialect.index()];
            *p = p.saturating_add(points);
        }
        if dialect == Dialect::Flink {
            match self
                .flink
                .0
                .iter_mut()
                .find(|w| w.is_empty() || **w == what)
            {
                Some(w) if w.is_empty() => *w = what,
                _ => return,
            }
        }
        let recorded = &self.out[self.first_recorded..];
        if recorded.len() < RECORDED_PER_STATEMENT && !recorded.iter().any(|s| s.what == what) {
            self.out.push(Signal {
                dialect,
                strength,
                what,
                span,
            });
        }
    }

    // ----- the first words of the statement -----

    fn head(&mut self, h: usize, head_w: Option<W>) {
        let span = self.tokens[h].span;
        let next = self.next(Some(h));
        let next_w = self.w(next);
        use Dialect::*;
        use Strength::*;
        match head_w {
            Some(W::CREATE | W::ALTER | W::DROP) => {
                // Skip the modifiers to the kind of object.
                let mut at = next;
                let mut temp = false;
                while let Some(w) = self.w(at) {
                    match w {
                        W::OR | W::REPLACE | W::TEMPORARY | W::UNIQUE | W::EXTERNAL => {}
                        W::TEMP => temp = true,
                        _ => break,
                    }
                    at = self.next(at);
                }
                let object = self.w(at);
                let hit = match object {
                    Some(W::INDEX) => Some((OtherDatabase, Strong, "CREATE / DROP INDEX")),
                    Some(W::USER | W::ROLE) => Some((OtherDatabase, Strong, "a user or role")),
                    Some(W::TRIGGER) => Some((OtherDatabase, Strong, "a trigger")),
                    Some(W::PROCEDURE) => Some((OtherDatabase, Strong, "a stored procedure")),
                    Some(W::SEQUENCE) => Some((OtherDatabase, Strong, "a sequence")),
                    Some(W::EXTENSION) => Some((Postgres, Strong, "CREATE EXTENSION")),
                    Some(W::PUBLICATION | W::SUBSCRIPTION) => {
                        Some((Postgres, Strong, "a publication or subscription"))
                    }
                    Some(W::DOMAIN) => Some((Postgres, Strong, "CREATE DOMAIN")),
                    Some(W::TYPE) => Some((OtherDatabase, Medium, "CREATE TYPE")),
                    Some(W::SCHEMA) => Some((OtherDatabase, Strong, "a schema")),
                    Some(W::TABLESPACE) => Some((Oracle, Strong, "a tablespace")),
                    Some(W::MACRO) => Some((Hive, Strong, "CREATE TEMPORARY MACRO")),
                    Some(W::STREAM) => Some((KsqlDb, Strong, "CREATE STREAM")),
                    Some(W::SECRET) => Some((OtherDatabase, Strong, "CREATE SECRET")),
                    Some(W::SESSION) if head_w == Some(W::ALTER) => {
                        Some((Oracle, Strong, "ALTER SESSION"))
                    }
                    Some(W::VIEW) if temp => Some((Spark, Medium, "CREATE TEMP VIEW")),
                    Some(W::TABLE) if temp => Some((Postgres, Medium, "CREATE TEMP TABLE")),
                    Some(W::FUNCTION) if head_w == Some(W::CREATE) => {
                        // Flink: `CREATE FUNCTION name AS 'class'`; a parameter list is
                        // another database's function with a body.
                        let mut name = self.next(at);
                        while self.kind(self.next(name)) == Some(TokenKind::Dot) {
                            name = self.next(self.next(name));
                        }
                        (self.kind(self.next(name)) == Some(TokenKind::LParen)).then_some((
                            OtherDatabase,
                            Strong,
                            "a function with parameters and a body",
                        ))
                    }
                    _ => None,
                };
                if let Some((d, s, what)) = hit {
                    self.signal(d, s, what, span);
                }
            }
            Some(W::GRANT | W::REVOKE) => {
                self.signal(OtherDatabase, Strong, "GRANT / REVOKE", span)
            }
            Some(W::FLUSH) => self.signal(MySql, Strong, "FLUSH", span),
            Some(W::LOCK | W::UNLOCK) => self.signal(MySql, Strong, "LOCK / UNLOCK TABLES", span),
            Some(W::DELIMITER) => self.signal(MySql, Strong, "DELIMITER", span),
            Some(W::COPY) => self.signal(Postgres, Strong, "COPY", span),
            Some(W::VACUUM) => self.signal(Postgres, Strong, "VACUUM", span),
            Some(W::CACHE | W::UNCACHE) => self.signal(Spark, Strong, "CACHE TABLE", span),
            Some(W::OPTIMIZE) => self.signal(Spark, Strong, "OPTIMIZE", span),
            Some(W::REFRESH) => self.signal(Spark, Medium, "REFRESH TABLE", span),
            Some(W::INSTALL) => self.signal(OtherDatabase, Strong, "INSTALL (an extension)", span),
            Some(W::LOAD)
                if self.kind(next) == Some(TokenKind::Word)
                    && !matches!(next_w, Some(W::MODULE))
                    && !self.text_is(next, &["DATA"]) =>
            {
                self.signal(OtherDatabase, Strong, "LOAD (an extension)", span)
            }
            Some(W::MSCK) => self.signal(HiveOrSpark, Strong, "MSCK REPAIR TABLE", span),
            Some(W::LOAD) if self.text_is(next, &["DATA"]) => {
                self.signal(HiveOrSpark, Strong, "LOAD DATA", span)
            }
            Some(W::DECLARE) => self.signal(OtherDatabase, Strong, "DECLARE", span),
            Some(W::COMMIT | W::ROLLBACK) => self.signal(
                OtherDatabase,
                Strong,
                "a transaction (COMMIT / ROLLBACK)",
                span,
            ),
            Some(W::START) if next_w == Some(W::TRANSACTION) => {
                self.signal(OtherDatabase, Strong, "START TRANSACTION", span)
            }
            Some(W::BEGIN) => {
                if next_w == Some(W::STATEMENT) {
                    self.signal(Flink, Decisive, "BEGIN STATEMENT SET", span);
                } else {
                    self.signal(
                        OtherDatabase,
                        Strong,
                        "BEGIN (a transaction or a procedural block)",
                        span,
                    );
                }
            }
            Some(W::REPLACE) if next_w == Some(W::INTO) => {
                self.signal(MySql, Strong, "REPLACE INTO", span)
            }
            Some(W::INSERT) if next_w == Some(W::IGNORE) => {
                self.signal(MySql, Strong, "INSERT IGNORE", span)
            }
            Some(W::EXEC) => self.signal(SqlServer, Strong, "EXEC", span),
            Some(W::EXECUTE) => {
                let procedure = next.is_some_and(|n| {
                    let s = self.slice(self.tokens[n]);
                    s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("sp_"))
                        || self.kind(self.next(next)) == Some(TokenKind::Dot)
                });
                if procedure {
                    self.signal(SqlServer, Strong, "EXECUTE of a stored procedure", span);
                }
            }
            Some(W::GO)
                if next.is_none_or(|n| {
                    self.text[span.end as usize..self.tokens[n].span.start as usize].contains('\n')
                }) =>
            {
                self.signal(SqlServer, Strong, "GO", span)
            }
            // A prompt copied with its statement: `mysql> FLUSH PRIVILEGES;`.
            _ if self.text_is(Some(h), &["mysql", "mariadb"])
                && self.kind(next) == Some(TokenKind::Gt) =>
            {
                self.signal(MySql, Strong, "a `mysql>` prompt", span)
            }
            Some(W::SET) => self.set(next, span),
            _ => {}
        }
    }

    /// `SET ...`: whose settings.
    fn set(&mut self, key: Option<usize>, span: Span) {
        use Dialect::*;
        use Strength::*;
        match self.kind(key) {
            Some(TokenKind::String) => {
                self.signal(Flink, Medium, "SET 'key' = 'value'", span);
            }
            Some(TokenKind::Unknown) if self.text_is(key, &["@"]) => {
                self.signal(MySql, Strong, "SET @variable", span);
            }
            Some(TokenKind::Word) => {
                let dotted = self.kind(self.next(key)) == Some(TokenKind::Dot);
                let dashed = self.kind(self.next(key)) == Some(TokenKind::Minus);
                if self.text_is(key, MYSQL_SET) {
                    self.signal(MySql, Strong, "a MySQL SET", span);
                } else if self.text_is(key, POSTGRES_SET)
                    || (self.text_is(key, &["TIME"]) && !dotted)
                {
                    self.signal(Postgres, Strong, "a PostgreSQL setting", span);
                } else if dotted && self.text_is(key, &["hive", "mapred", "mapreduce", "tez"]) {
                    self.signal(Hive, Strong, "a Hive setting", span);
                } else if dotted && self.text_is(key, &["spark"]) {
                    self.signal(Spark, Strong, "a Spark setting", span);
                } else if (dotted || dashed) && self.text_is(key, FLINK_KEY_PREFIXES) {
                    self.signal(Flink, Medium, "SET of a Flink option", span);
                }
            }
            _ => {}
        }
    }

    // ----- words -----

    fn word(&mut self, i: usize, head_w: Option<W>, ddl: bool, depth: i32) {
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

    /// What the word `w` at `i` tells, in its context.
    fn tell(&mut self, i: usize, w: W, head_w: Option<W>, ddl: bool, depth: i32) {
        let t = self.tokens[i];
        use Dialect::*;
        use Strength::*;
        if w == W::VALUES {
            self.in_values = true;
            return;
        }
        // The neighbours are read only by the arm of the word (most words have none).
        let at = Some(i);
        let span = t.span;
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

            // ----- MySQL -----
            W::AUTO_INCREMENT => self.signal(MySql, Strong, "AUTO_INCREMENT", span),
            W::AUTOINCREMENT => self.signal(OtherDatabase, Strong, "AUTOINCREMENT", span),
            W::ENGINE
                if ddl
                    && matches!(
                        self.kind(self.next(at)),
                        Some(TokenKind::Eq | TokenKind::Word)
                    ) =>
            {
                let engine = if self.kind(self.next(at)) == Some(TokenKind::Eq) {
                    self.next(self.next(at))
                } else {
                    self.next(at)
                };
                let name = engine.map_or("", |e| self.slice(self.tokens[e]));
                let clickhouse = name.len() >= 9
                    && name.as_bytes()[name.len() - 9..].eq_ignore_ascii_case(b"MERGETREE")
                    || matches!(
                        self.w(engine),
                        Some(W::DISTRIBUTED | W::LOG | W::TINYLOG | W::STRIPELOG | W::KAFKA)
                    );
                if clickhouse {
                    self.signal(ClickHouse, Strong, "ENGINE = MergeTree", span);
                } else if self.is(engine, W::OLAP) {
                    self.signal(Doris, Strong, "ENGINE = OLAP", span);
                } else {
                    self.signal(MySql, Strong, "ENGINE = ...", span);
                }
            }
            W::CHARSET => self.signal(MySql, Strong, "CHARSET", span),
            W::CHARACTER if self.w(self.next(at)) == Some(W::SET) => {
                self.signal(MySql, Medium, "CHARACTER SET", span)
            }
            W::CHARACTER if self.w(self.next(at)) == Some(W::VARYING) => {
                self.signal(Postgres, Strong, "CHARACTER VARYING", span)
            }
            W::COLLATE => self.signal(MySql, Medium, "COLLATE", span),
            W::ROW_FORMAT => self.signal(MySql, Strong, "ROW_FORMAT", span),
            W::UNSIGNED | W::ZEROFILL => self.signal(MySql, Strong, "UNSIGNED", span),
            W::ON => match self.w(self.next(at)) {
                Some(W::UPDATE) if ddl => self.signal(MySql, Strong, "ON UPDATE", span),
                Some(W::DUPLICATE) => self.signal(MySql, Strong, "ON DUPLICATE KEY UPDATE", span),
                Some(W::CONFLICT) => {
                    // Flink 2.3: `ON CONFLICT DO ERROR | NOTHING | DEDUPLICATE`; PostgreSQL
                    // names the conflict: `ON CONFLICT (id)`, `ON CONFLICT ON CONSTRAINT c`.
                    let after = self.next(self.next(at));
                    if self.is(after, W::DO)
                        && matches!(self.w(self.next(after)), Some(W::ERROR | W::DEDUPLICATE))
                    {
                        self.signal(Flink, Decisive, "ON CONFLICT DO ERROR / DEDUPLICATE", span);
                    } else if self.kind(after) == Some(TokenKind::LParen) || self.is(after, W::ON) {
                        self.signal(Postgres, Strong, "ON CONFLICT (...)", span);
                    }
                }
                Some(W::CLUSTER) if ddl => self.signal(ClickHouse, Strong, "ON CLUSTER", span),
                _ => {}
            },
            W::COMMENT if ddl && self.kind(self.next(at)) == Some(TokenKind::Eq) => {
                self.signal(MySql, Medium, "COMMENT = '...'", span)
            }
            W::DEFAULT if !self.json_default(i) => {
                self.signal(OtherDatabase, Medium, "DEFAULT", span)
            }
            W::TINYINT | W::SMALLINT | W::INT | W::INTEGER | W::BIGINT
                if self.kind(self.next(at)) == Some(TokenKind::LParen)
                    && self.type_position(i, ddl) =>
            {
                self.signal(
                    MySql,
                    Strong,
                    "an integer type with a display width (INT(11))",
                    span,
                )
            }
            W::MEDIUMINT if self.type_position(i, ddl) => {
                self.signal(MySql, Strong, "MEDIUMINT", span)
            }
            W::DATETIME if self.type_position(i, ddl) => {
                self.signal(MySql, Medium, "a DATETIME column", span)
            }
            W::TINYTEXT
            | W::MEDIUMTEXT
            | W::LONGTEXT
            | W::TINYBLOB
            | W::MEDIUMBLOB
            | W::LONGBLOB
                if self.type_position(i, ddl) =>
            {
                self.signal(MySql, Strong, "a TEXT / BLOB type of MySQL", span)
            }
            W::ENUM
                if self.kind(self.next(at)) == Some(TokenKind::LParen)
                    && self.type_position(i, ddl) =>
            {
                self.signal(MySql, Strong, "an ENUM(...) column", span)
            }
            W::TEXT | W::JSON | W::BLOB if self.type_position(i, ddl) => {
                self.signal(OtherDatabase, Medium, "a TEXT / JSON / BLOB column", span)
            }
            W::KEY | W::INDEX | W::FULLTEXT | W::SPATIAL
                if ddl && matches!(self.kind(self.prev(at)), Some(TokenKind::Comma)) =>
            {
                // `KEY idx_name (col)`, `INDEX (col)`; not a column named `key` (its type,
                // a keyword of Flink, follows).
                let index = self.kind(self.next(at)) == Some(TokenKind::LParen)
                    || (self.is_name(self.next(at))
                        && self.next(at).is_some_and(|n| self.tokens[n].kw == Kw::NONE)
                        && self.kind(self.next(self.next(at))) == Some(TokenKind::LParen));
                if index {
                    self.signal(
                        MySql,
                        Strong,
                        "an index (KEY / INDEX) in CREATE TABLE",
                        span,
                    );
                }
            }
            W::UNIQUE if ddl && self.w(self.next(at)) == Some(W::KEY) => {
                if self.kind(self.next(self.next(at))) == Some(TokenKind::LParen) {
                    self.signal(Doris, Strong, "UNIQUE KEY(...)", span);
                } else {
                    self.signal(MySql, Strong, "UNIQUE KEY", span);
                }
            }
            W::DUPLICATE | W::AGGREGATE
                if ddl
                    && self.w(self.next(at)) == Some(W::KEY)
                    && self.kind(self.next(self.next(at))) == Some(TokenKind::LParen) =>
            {
                self.signal(Doris, Strong, "DUPLICATE / AGGREGATE KEY(...)", span)
            }

            // ----- PostgreSQL -----
            W::SERIAL
            | W::BIGSERIAL
            | W::SMALLSERIAL
            | W::JSONB
            | W::BYTEA
            | W::TIMESTAMPTZ
            | W::TIMETZ
            | W::INET
            | W::CIDR
            | W::MACADDR
            | W::TSVECTOR
            | W::INT2
            | W::INT4
            | W::INT8
            | W::FLOAT4
            | W::FLOAT8
                if self.type_position(i, ddl) =>
            {
                let what = if matches!(w, W::SERIAL | W::BIGSERIAL | W::SMALLSERIAL) {
                    "a SERIAL column"
                } else {
                    "a PostgreSQL type (JSONB, BYTEA, TIMESTAMPTZ, ...)"
                };
                self.signal(Postgres, Strong, what, span)
            }
            W::UUID if self.type_position(i, ddl) => {
                self.signal(Postgres, Medium, "a UUID column", span)
            }
            W::REPLICA if self.w(self.next(at)) == Some(W::IDENTITY) => {
                self.signal(Postgres, Strong, "REPLICA IDENTITY", span)
            }
            W::OWNER if self.text_is(self.next(at), &["TO"]) => {
                self.signal(Postgres, Strong, "OWNER TO", span)
            }
            W::RETURNING if depth == 0 => self.signal(Postgres, Medium, "RETURNING", span),
            W::IDENTITY
                if self.kind(self.next(at)) == Some(TokenKind::LParen)
                    && ddl
                    && matches!(
                        self.kind(self.prev(at)),
                        Some(TokenKind::Word | TokenKind::RParen)
                    ) =>
            {
                self.signal(SqlServer, Strong, "IDENTITY(seed, increment)", span)
            }
            W::GENERATED if ddl && self.text_is(self.next(at), &["ALWAYS", "BY"]) => {
                self.signal(OtherDatabase, Strong, "GENERATED ... AS IDENTITY", span)
            }

            // ----- Hive and Spark -----
            W::STORED if self.text_is(self.next(at), &["AS", "BY"]) => {
                self.signal(HiveOrSpark, Strong, "STORED AS", span)
            }
            W::ROW if self.w(self.next(at)) == Some(W::FORMAT) => {
                self.signal(HiveOrSpark, Strong, "ROW FORMAT", span)
            }
            W::SERDE | W::SERDEPROPERTIES => self.signal(HiveOrSpark, Strong, "a SerDe", span),
            W::TBLPROPERTIES => self.signal(HiveOrSpark, Strong, "TBLPROPERTIES", span),
            W::LOCATION if ddl && self.kind(self.next(at)) == Some(TokenKind::String) => {
                self.signal(HiveOrSpark, Strong, "LOCATION '...'", span)
            }
            W::CLUSTERED | W::SKEWED if self.w(self.next(at)) == Some(W::BY) => {
                self.signal(HiveOrSpark, Strong, "CLUSTERED BY / SKEWED BY", span)
            }
            W::DISTRIBUTE if self.w(self.next(at)) == Some(W::BY) => {
                self.signal(HiveOrSpark, Strong, "DISTRIBUTE BY", span)
            }
            W::SORT | W::CLUSTER if self.w(self.next(at)) == Some(W::BY) => {
                self.signal(HiveOrSpark, Medium, "SORT BY / CLUSTER BY", span)
            }
            W::PARTITIONED if self.w(self.next(at)) == Some(W::BY) => {
                // Flink lists names only: `PARTITIONED BY (a, b)`; a type after the first
                // name is Hive's or Spark's column list.
                let open = self.next(self.next(at));
                let name = self.next(open);
                if self.kind(open) == Some(TokenKind::LParen)
                    && self.is_name(name)
                    && self.kind(self.next(name)) == Some(TokenKind::Word)
                {
                    self.signal(
                        HiveOrSpark,
                        Strong,
                        "PARTITIONED BY with column types",
                        span,
                    );
                }
            }
            W::PARTITION if ddl && depth == 0 && self.w(self.next(at)) == Some(W::BY) => {
                self.signal(OtherDatabase, Medium, "PARTITION BY in CREATE TABLE", span)
            }
            W::INPATH => self.signal(HiveOrSpark, Strong, "LOAD DATA INPATH", span),
            W::FORMATTED if self.w(self.prev(at)) == Some(W::DESCRIBE) => {
                self.signal(HiveOrSpark, Strong, "DESCRIBE FORMATTED", span)
            }
            W::USING
                if matches!(
                    self.w(self.next(at)),
                    Some(W::JAR | W::FILE | W::ARCHIVE | W::ARTIFACT)
                ) =>
            {
                self.signal(Flink, Medium, "USING JAR", span)
            }
            W::USING if ddl && self.kind(self.next(at)) == Some(TokenKind::Word) => {
                self.signal(Spark, Strong, "USING <format>", span)
            }
            W::ZORDER => self.signal(Spark, Strong, "ZORDER BY", span),
            W::HISTORY if self.w(self.prev(at)) == Some(W::DESCRIBE) => {
                self.signal(Spark, Strong, "DESCRIBE HISTORY", span)
            }
            W::TIMESTAMP_NTZ => self.signal(Spark, Strong, "TIMESTAMP_NTZ", span),

            // ----- ClickHouse -----
            W::UINT8
            | W::UINT16
            | W::UINT32
            | W::UINT64
            | W::UINT128
            | W::UINT256
            | W::INT16
            | W::INT32
            | W::INT64
            | W::INT128
            | W::INT256
            | W::FLOAT32
            | W::FLOAT64
            | W::DATETIME64
            | W::FIXEDSTRING
            | W::DATE32
                if self.type_position(i, ddl) =>
            {
                self.signal(
                    ClickHouse,
                    Strong,
                    "a ClickHouse type (UInt64, Float64, ...)",
                    span,
                )
            }
            W::NULLABLE | W::LOWCARDINALITY
                if self.kind(self.next(at)) == Some(TokenKind::LParen) =>
            {
                self.signal(
                    ClickHouse,
                    Strong,
                    "Nullable(...) / LowCardinality(...)",
                    span,
                )
            }
            W::SETTINGS
                if self.kind(self.next(at)) == Some(TokenKind::Word)
                    && self.kind(self.next(self.next(at))) == Some(TokenKind::Eq) =>
            {
                self.signal(ClickHouse, Medium, "SETTINGS name = value", span)
            }

            // ----- Doris and StarRocks -----
            W::BUCKETS
                if matches!(self.kind(self.next(at)), Some(TokenKind::Integer))
                    || self.w(self.next(at)) == Some(W::AUTO) =>
            {
                self.signal(Doris, Strong, "BUCKETS n", span)
            }
            W::PROPERTIES if self.kind(self.next(at)) == Some(TokenKind::LParen) => {
                self.signal(Doris, Strong, "PROPERTIES (...)", span)
            }

            // ----- Oracle -----
            W::VARCHAR2 | W::NVARCHAR2 | W::CLOB | W::NCLOB | W::NUMBER
                if self.type_position(i, ddl) =>
            {
                self.signal(
                    Oracle,
                    Strong,
                    "an Oracle type (VARCHAR2, NUMBER, CLOB)",
                    span,
                )
            }
            W::SYSDATE => self.signal(Oracle, Medium, "SYSDATE", span),
            W::SUPPLEMENTAL | W::ARCHIVELOG => {
                self.signal(Oracle, Strong, "SUPPLEMENTAL LOG / ARCHIVELOG", span)
            }
            W::IDENTIFIED if self.w(self.next(at)) == Some(W::BY) => {
                self.signal(OtherDatabase, Strong, "IDENTIFIED BY", span)
            }

            // ----- SQL Server -----
            W::NVARCHAR | W::DATETIME2 | W::UNIQUEIDENTIFIER | W::NTEXT | W::MONEY
                if self.type_position(i, ddl) =>
            {
                self.signal(
                    SqlServer,
                    Strong,
                    "a SQL Server type (NVARCHAR, DATETIME2)",
                    span,
                )
            }
            W::GETDATE if self.kind(self.next(at)) == Some(TokenKind::LParen) => {
                self.signal(SqlServer, Medium, "GETDATE()", span)
            }
            W::DBO if self.kind(self.next(at)) == Some(TokenKind::Dot) => {
                self.signal(SqlServer, Medium, "the dbo schema", span)
            }
            W::TOP if self.w(self.prev(at)) == Some(W::SELECT) => {
                self.signal(SqlServer, Strong, "SELECT TOP n", span)
            }
            _ => {}
        }
    }

    /// A string literal: a MySQL backslash escape makes Flink's lexer end it early, with
    /// the rest of the intended string glued to it (`'It\'s'`).
    fn string(&mut self, i: usize) {
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
    fn json_default(&self, i: usize) -> bool {
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
    fn unknown(&mut self, i: usize, head_w: Option<W>) {
        let t = self.tokens[i];
        let next_glued = self
            .tokens
            .get(i + 1)
            .is_some_and(|n| n.span.start == t.span.end && n.kind == TokenKind::Word);
        match self.slice(t) {
            "@" if next_glued && head_w != Some(W::SET) => self.signal(
                Dialect::OtherDatabase,
                Strength::Medium,
                "an @variable",
                t.span,
            ),
            "\\" if next_glued && self.first_on_line(t) => self.signal(
                Dialect::Postgres,
                Strength::Strong,
                "a psql meta-command (\\c)",
                t.span,
            ),
            _ => {}
        }
    }
}

//! The signals of one statement: one pass over its tokens, each word looked up once in
//! [`super::words`], with a few tokens of look-ahead and look-behind (comments skipped).
//!
//! What counts as a signal, and for which dialect, is listed in the module documentation of
//! [`super`]; each signal names what it saw in the words a user reads (`AUTO_INCREMENT`,
//! `STORED AS`, `WITH ('connector' = ...)`).
//!
//! The loop over the tokens and the helpers that read them are here; the tells are in
//! `heads` (what a statement's first words and its `SET` tell), `tells` (Flink's own words,
//! and what literals and stray characters tell) and `databases` (one function per other
//! dialect).

mod databases;

pub(super) use databases::NUMBER_COLUMN;
mod heads;
mod tells;

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
    /// The dialects the statement cannot be (a bit per [`Dialect::index`]): it has a form
    /// they lack (Flink's `ALTER TABLE t ADD c INT`, which Hive and Spark write with
    /// `COLUMNS`), so it never joins a stretch of theirs.
    pub excluded: u32,
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
    /// Whether the statement has a form that `dialect` lacks.
    pub fn excludes(&self, dialect: Dialect) -> bool {
        self.excluded & (1 << dialect.index()) != 0
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

/// Whether the statement `lo..hi` only reads or writes rows: it starts with `INSERT`,
/// `DELETE`, `UPDATE`, `TRUNCATE` or `SELECT`.
pub(super) fn is_dml(text: &str, tokens: &[Token], lo: usize, hi: usize) -> bool {
    let mut none = Vec::new();
    let scan = Scan::new(text, tokens, lo, hi, &mut none);
    matches!(
        scan.w(scan.sig(lo)),
        Some(W::INSERT | W::DELETE | W::UPDATE | W::TRUNCATE | W::SELECT)
    )
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

/// A word of a statement, where it stands: what the tells read.
#[derive(Debug, Clone, Copy)]
struct At {
    /// Its token's index.
    i: usize,
    /// The word.
    w: W,
    /// The statement's first word.
    head_w: Option<W>,
    /// Whether the statement is DDL (`CREATE`, `ALTER`).
    ddl: bool,
    /// Parentheses open around it.
    depth: i32,
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
    /// A `PRIMARY KEY` without `NOT ENFORCED` (weighed at the end of a CREATE statement).
    enforced_key: Option<Span>,
}

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
            enforced_key: None,
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
                TokenKind::Lt if self.doc_placeholder(i) => {
                    self.tally.placeholder = true;
                    self.signal(
                        Dialect::Placeholders,
                        Strength::Strong,
                        "a `<placeholder>` of documentation (FROM <table name>)",
                        t.span,
                    );
                }
                _ => {}
            }
        }
        if let Some(span) = self.enforced_key {
            // Flink rejects an enforced key, and a table of Flink's has WITH options (or
            // another tell of Flink's) unless a catalog manages it: a CREATE TABLE with
            // neither is another database's DDL.
            if head_w == Some(W::CREATE) && !self.tally.decisive {
                self.signal(
                    Dialect::OtherDatabase,
                    Strength::Medium,
                    "an enforced PRIMARY KEY in a table without WITH options",
                    span,
                );
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

    /// The significant token after the parenthesis that closes the one at `open`.
    fn after_group(&self, open: Option<usize>) -> Option<usize> {
        let mut depth = 0u32;
        let mut at = open;
        while let Some(k) = at {
            match self.tokens[k].kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return self.next(at);
                    }
                }
                _ => {}
            }
            at = self.next(at);
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
}

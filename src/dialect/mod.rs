//! Dialect stage: which statements of a file are Flink SQL, and why.
//!
//! Repositories of Flink jobs keep other SQL in `.sql` files beside them: MySQL and PostgreSQL
//! init scripts, Hive SQL (some behind `SET 'table.sql-dialect' = 'hive'`), Spark SQL,
//! ClickHouse, Doris, Oracle and SQL Server DDL, dbt/Jinja templates. Checking them as Flink
//! SQL reports hundreds of meaningless errors, and "fixing" them damages them. [`detect`]
//! decides per statement, from the tokens of the lexer and the statement boundaries of the
//! parser (one pass over the tokens, no second parse), whether a statement is Flink SQL, and
//! records the [`Signal`]s that decided it so that a user can see why.
//!
//! **Signals.** Each statement's tokens are scanned once ([`scan`]). Flink's own syntax counts
//! for Flink: `WITH ('connector' = ...)` (any quoted option key), `WATERMARK FOR`,
//! `NOT ENFORCED`, `PROCTIME()`, `METADATA` columns, window table functions
//! (`TABLE(TUMBLE(...))`), statement sets, materialized tables and `TIMESTAMP_LTZ` are
//! *decisive* (no other dialect has them); `SET 'key' = 'value'`, Flink option keys, `/*+
//! OPTIONS(...) */`, `LATERAL TABLE`, `FOR SYSTEM_TIME AS OF` and `STRING` columns add
//! points. Other dialects' tells add points to that dialect: MySQL's `AUTO_INCREMENT`,
//! `ENGINE =`, `CHARSET`, `INT(11)`, `UNSIGNED`, `KEY idx (...)`, backslash escapes;
//! PostgreSQL's `SERIAL`, `JSONB`, `$$`, `::` casts, `CREATE EXTENSION`, `REPLICA IDENTITY`,
//! `ON CONFLICT`; Hive's `STORED AS`, `ROW FORMAT`, `TBLPROPERTIES`, `PARTITIONED BY (x
//! STRING)`, `INSERT INTO TABLE`; Spark's `USING delta`, `CREATE TEMP VIEW`; ClickHouse's
//! `ENGINE = MergeTree` and `UInt64`; Doris's `DUPLICATE KEY(...)`, `BUCKETS n`; Oracle's
//! `VARCHAR2`; SQL Server's `NVARCHAR`, `GO`; Snowflake's `FLATTEN(...)`, `IFF(...)`,
//! `OBJECT_CONSTRUCT(...)`, `TIMESTAMP_TZ`, `COPY INTO`, warehouses, stages and pipes; MySQL's `GROUP_CONCAT(...)` and `LOAD DATA
//! INFILE`; and what no Flink statement has (`DEFAULT`, `CREATE INDEX`, `GRANT`, transactions,
//! `FOREIGN KEY` / `REFERENCES`, an interval with its unit in the string
//! (`INTERVAL '7 days'`), and an enforced `PRIMARY KEY` in a `CREATE TABLE` without WITH
//! options). Templates: a Jinja tag (`{{`, `{%`, `{#`) makes the whole file a template; a
//! `${...}` placeholder outside strings, or a documentation placeholder `<table name>` where a
//! name or value belongs, makes its statement one.
//! Types count only where a column's type stands in DDL, words only in the context that makes
//! them a tell (`KEY` starting a table element, not a column named `key`).
//!
//! **Weighing.** A statement with a decisive Flink signal is Flink SQL, whatever else it holds
//! (a `CREATE TABLE ... WITH ('connector' = ...)` with a `SERIAL` column is Flink SQL with an
//! error, reported as such). Otherwise it is another dialect's when that dialect's points
//! reach a threshold and exceed Flink's: a medium tell suffices in a file without decisive
//! Flink statements, a strong one is needed in a file with them. A statement without signals
//! (`INSERT INTO t VALUES (1)`, `USE db`) takes the side of its neighbours: between two
//! statements of other dialects, or between one and the start or end of the file, it belongs
//! to their stretch (at an edge, when that neighbour has a strong tell or nothing in the file is
//! decisively Flink SQL); a statement with a few other-dialect points next to a stretch joins it;
//! anything else is Flink SQL. A statement with a form the neighbour's dialect lacks (Flink's
//! `ALTER TABLE t ADD c INT`, which Hive and Spark write with `ADD COLUMNS`) does not join its
//! stretch, nor do the statements beyond it. A file without any other-dialect statement is
//! Flink SQL throughout, unless, across the project ([`across_files`]), it only writes or reads
//! rows of tables that only another dialect's statements create. Statements after `SET 'table.sql-dialect' = 'hive'` are Hive SQL until the
//! dialect is set back (`= 'default'`, or `RESET`).
//!
//! **Naming a stretch.** A stretch is named by the dialects its statements were judged to be,
//! the one with most points first (a tutorial's MySQL setup and PostgreSQL setup: "MySQL and
//! PostgreSQL"). Some tells belong to several databases: `NUMBER(p, s)` columns (Oracle,
//! Snowflake), `::` casts (PostgreSQL, Snowflake, Redshift, DuckDB), `TIMESTAMP_NTZ` (Spark,
//! Snowflake). A statement judged by such tells alone does not add its dialect to the name when
//! the stretch has a tell of one database that has them all (Snowflake's `FLATTEN`: "Snowflake",
//! not "Oracle and PostgreSQL and Snowflake"); when the stretch has no tell of one database and
//! its statements point to different databases by shared tells only, it is named "another
//! database's SQL" with those tells listed, rather than a pair of databases it is not.
//!
//! The result, a [`FileDialect`], lists each top-level statement's verdict and the
//! contiguous [`Stretch`]es that are not Flink SQL. Later stages do not analyse those
//! statements (they do not enter the catalog) and report nothing in them but one note per
//! stretch; the configuration can overrule the detection per file
//! ([`FileDialect::configured`]).

mod across;
mod fragment;
mod scan;
mod stretches;
mod words;

pub use across::{across_files, ProjectFile};

use crate::source::Span;
use crate::syntax::ast::{Statement, StatementKind};
use crate::syntax::Parsed;
use serde::Serialize;

/// A dialect of SQL, or a kind of template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Dialect {
    /// Apache Flink SQL.
    Flink,
    /// MySQL (and MariaDB).
    MySql,
    /// PostgreSQL.
    Postgres,
    /// Apache Hive SQL (HiveQL), also Flink's Hive dialect.
    Hive,
    /// Apache Spark SQL.
    Spark,
    /// Hive SQL or Spark SQL: what both have (`STORED AS`, `TBLPROPERTIES`, `PARTITIONED BY
    /// (dt STRING)`), when nothing tells them apart.
    HiveOrSpark,
    /// ClickHouse.
    ClickHouse,
    /// Apache Doris and StarRocks.
    Doris,
    /// Oracle.
    Oracle,
    /// Microsoft SQL Server.
    SqlServer,
    /// Confluent ksqlDB.
    KsqlDb,
    /// Snowflake.
    Snowflake,
    /// Another database's SQL (what no Flink statement has: `DEFAULT`, `CREATE INDEX`).
    OtherDatabase,
    /// A Jinja template (dbt): `{{ ... }}`, `{% ... %}`.
    Jinja,
    /// Text with `${...}` or `#{...}` placeholders, filled in before it reaches Flink.
    Placeholders,
    /// Part of a statement shown in a document (a lone clause, `...`): see [`fragment`].
    Fragment,
}

impl Dialect {
    /// Number of dialects.
    pub const COUNT: usize = 16;
    /// Every dialect but Flink, in declaration order.
    pub const OTHERS: [Dialect; Dialect::COUNT - 1] = [
        Dialect::MySql,
        Dialect::Postgres,
        Dialect::Hive,
        Dialect::Spark,
        Dialect::HiveOrSpark,
        Dialect::ClickHouse,
        Dialect::Doris,
        Dialect::Oracle,
        Dialect::SqlServer,
        Dialect::KsqlDb,
        Dialect::Snowflake,
        Dialect::OtherDatabase,
        Dialect::Jinja,
        Dialect::Placeholders,
        Dialect::Fragment,
    ];

    /// Position in declaration order (an index into per-dialect arrays).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The dialect's name, as messages print it.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Flink => "Flink SQL",
            Dialect::MySql => "MySQL",
            Dialect::Postgres => "PostgreSQL",
            Dialect::Hive => "Hive SQL",
            Dialect::Spark => "Spark SQL",
            Dialect::HiveOrSpark => "Spark SQL or Hive SQL",
            Dialect::ClickHouse => "ClickHouse",
            Dialect::Doris => "Doris / StarRocks",
            Dialect::Oracle => "Oracle",
            Dialect::SqlServer => "SQL Server",
            Dialect::KsqlDb => "ksqlDB",
            Dialect::Snowflake => "Snowflake",
            Dialect::OtherDatabase => "another database's SQL",
            Dialect::Jinja => "a Jinja template",
            Dialect::Placeholders => "a template with placeholders",
            Dialect::Fragment => "a fragment of a statement",
        }
    }
}

/// How much a signal weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Strength {
    /// A hint (a `#` comment): 1 point.
    Weak,
    /// Likely but not certain (`DEFAULT`, `COLLATE`, `DATETIME`): 2 points.
    Medium,
    /// A construct of that dialect (`AUTO_INCREMENT`, `STORED AS`): 3 points.
    Strong,
    /// Flink's own syntax that no other dialect has: the statement is Flink SQL.
    Decisive,
}

impl Strength {
    /// The points the signal adds.
    pub fn points(self) -> u32 {
        match self {
            Strength::Weak => 1,
            Strength::Medium => 2,
            Strength::Strong | Strength::Decisive => 3,
        }
    }
}

/// One thing seen in a statement that speaks for a dialect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Signal {
    /// The dialect it speaks for.
    pub dialect: Dialect,
    /// How much.
    pub strength: Strength,
    /// What was seen, in SQL words (`AUTO_INCREMENT`, `STORED AS`).
    pub what: &'static str,
    /// Where (the token that shows it).
    pub span: Span,
}

/// How a statement's dialect was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum How {
    /// By its own signals.
    Signals,
    /// It has no (or too few) signals of its own and took the side of its neighbours.
    Neighbours,
    /// It has no signals of its own and uses names (tables, catalogs) that statements of
    /// that dialect created before it.
    Names,
    /// Nothing (or too little) in it and around it speaks against Flink SQL: Flink, by
    /// default.
    Default,
    /// It follows `SET 'table.sql-dialect' = 'hive'` (at `set`).
    HiveDialect {
        /// The SET statement that switched the dialect.
        set: Span,
    },
    /// The file is a Jinja template.
    JinjaFile,
    /// The configuration says so (`flink-files`, `other-files`, `dialect-detection: off`).
    Configured,
}

/// The verdict on one top-level statement.
#[derive(Debug, Clone, Serialize)]
pub struct StatementDialect {
    /// The statement (as the parser delimits it).
    pub span: Span,
    /// Its dialect ([`Dialect::Flink`] when it is checked).
    pub dialect: Dialect,
    /// How that was decided.
    pub how: How,
    /// Its signals: a range of [`FileDialect::signals`].
    pub signals: std::ops::Range<u32>,
}

/// A run of consecutive statements that are not Flink SQL.
#[derive(Debug, Clone, Serialize)]
pub struct Stretch {
    /// Indices of its statements among the file's top-level statements.
    pub statements: std::ops::Range<usize>,
    /// The text it covers: from the end of the Flink statement before it (or the start of
    /// the file) to the start of the Flink statement after it (or the end of the file).
    /// Nothing found in it is reported but its note.
    pub span: Span,
    /// Where it is reported: the first token of its first statement.
    pub at: Span,
    /// From its first statement's start to its last statement's end.
    pub statements_span: Span,
    /// Its dialects, the one with most points first.
    pub dialects: Vec<Dialect>,
    /// The signals that decided it, the strongest first (distinct, at most four).
    pub signals: Vec<Signal>,
    /// The `SET 'table.sql-dialect' = 'hive'` it follows, if that is what made it Hive SQL.
    pub hive_switch: Option<Span>,
}

/// Why a file has the verdict it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Reason {
    /// Detected from its statements.
    Detected,
    /// The configuration turns detection off (`dialect-detection: off`).
    DetectionOff,
    /// The file matches `flink-files`.
    FlinkFiles,
    /// The file matches `other-files`.
    OtherFiles,
}

/// Which statements of one file are Flink SQL.
#[derive(Debug, Clone, Serialize)]
pub struct FileDialect {
    /// One entry per top-level statement, in order; empty when every statement is Flink SQL
    /// because nothing in the file speaks for another dialect, or the configuration says so.
    pub statements: Vec<StatementDialect>,
    /// The recorded signals, in text order: at most eight per statement, of which the
    /// distinct signals of Flink SQL only up to four per file.
    pub signals: Vec<Signal>,
    /// The stretches that are not Flink SQL, in order; empty for a file of Flink SQL.
    pub stretches: Vec<Stretch>,
    /// Why.
    pub reason: Reason,
}

/// The verdict on a whole file, in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileVerdict {
    /// Every statement is Flink SQL.
    Flink,
    /// No statement is Flink SQL.
    NotFlink,
    /// Some statements are, some are not.
    Mixed,
}

impl Default for FileDialect {
    fn default() -> FileDialect {
        FileDialect::flink(Reason::Detected)
    }
}

impl FileDialect {
    /// A file of Flink SQL throughout, for `reason`, without per-statement verdicts.
    pub fn flink(reason: Reason) -> FileDialect {
        FileDialect {
            statements: Vec::new(),
            signals: Vec::new(),
            stretches: Vec::new(),
            reason,
        }
    }

    /// The verdict the configuration gives a file (`other-files`): one stretch over the whole
    /// text, of [`Dialect::OtherDatabase`]; none when the file has no statement.
    pub fn configured_other(text_len: usize, parsed: &Parsed) -> FileDialect {
        let statements = &parsed.script.statements;
        let mut out = FileDialect::flink(Reason::OtherFiles);
        out.statements = statements
            .iter()
            .map(|s| StatementDialect {
                span: s.span,
                dialect: Dialect::OtherDatabase,
                how: How::Configured,
                signals: 0..0,
            })
            .collect();
        if let (Some(first), Some(last)) = (statements.first(), statements.last()) {
            out.stretches.push(Stretch {
                statements: 0..statements.len(),
                span: Span::new(0, text_len),
                at: first_token(parsed, first),
                statements_span: first.span.cover(last.span),
                dialects: vec![Dialect::OtherDatabase],
                signals: Vec::new(),
                hive_switch: None,
            });
        }
        out
    }

    /// Whether the top-level statement at `index` is Flink SQL (checked).
    pub fn is_flink(&self, index: usize) -> bool {
        self.dialect_of(index) == Dialect::Flink
    }

    /// The dialect of the top-level statement at `index` ([`Dialect::Flink`] when the file
    /// keeps no entry for it: every statement of the file is Flink SQL).
    pub fn dialect_of(&self, index: usize) -> Dialect {
        self.statements
            .get(index)
            .map_or(Dialect::Flink, |s| s.dialect)
    }

    /// The stretch that covers byte `offset`, if one does.
    pub fn stretch_at(&self, offset: u32) -> Option<&Stretch> {
        if self.stretches.is_empty() {
            return None;
        }
        let i = self.stretches.partition_point(|s| s.span.end <= offset);
        self.stretches
            .get(i)
            .filter(|s| s.span.start <= offset && offset < s.span.end.max(s.span.start + 1))
    }

    /// Whether byte `offset` lies in text that is not Flink SQL.
    pub fn covers(&self, offset: u32) -> bool {
        self.stretch_at(offset).is_some()
    }

    /// The verdict on the whole file.
    pub fn verdict(&self) -> FileVerdict {
        if self.stretches.is_empty() {
            FileVerdict::Flink
        } else if self.statements.iter().all(|s| s.dialect != Dialect::Flink) {
            FileVerdict::NotFlink
        } else {
            FileVerdict::Mixed
        }
    }

    /// The signals recorded for the statement at `index`.
    pub fn signals_of(&self, index: usize) -> &[Signal] {
        match self.statements.get(index) {
            Some(s) => self
                .signals
                .get(s.signals.start as usize..s.signals.end as usize)
                .unwrap_or(&[]),
            None => &[],
        }
    }
}

/// The span of a statement's first token (the statement's own span when it is empty).
pub(super) fn first_token(parsed: &Parsed, statement: &Statement) -> Span {
    let start = statement.span.start;
    let i = parsed.tokens.partition_point(|t| t.span.start < start);
    match parsed.tokens.get(i) {
        Some(t) if t.span.start == start => t.span,
        _ => Span {
            start,
            end: start.max(statement.span.end.min(start)),
        },
    }
}

/// What one statement's signals make it, before its neighbours are weighed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Flink SQL by its signals.
    Flink,
    /// Another dialect's by its signals.
    Other(Dialect),
    /// A few points of another dialect, not enough on their own.
    Leaning(Dialect),
    /// No signal either way.
    Neutral,
    /// Not Flink SQL whatever its neighbours: a placeholder, the Hive dialect, a Jinja file.
    Fixed(Dialect),
}

/// Decides which statements of a parsed file are Flink SQL (see the module documentation).
/// Linear in the number of tokens.
pub fn detect(text: &str, parsed: &Parsed) -> FileDialect {
    let statements = &parsed.script.statements;
    let tokens = &parsed.tokens;
    let n = statements.len();
    let mut signals = Vec::new();
    let mut tallies = Vec::with_capacity(n);
    let mut ranges = Vec::with_capacity(n);
    let mut bounds = Vec::with_capacity(n);
    let mut flink_recorded = scan::FlinkRecorded::default();
    let mut fragments = Vec::with_capacity(n);
    let mut t = 0;
    for s in statements {
        while t < tokens.len() && tokens[t].span.start < s.span.start {
            t += 1;
        }
        let lo = t;
        while t < tokens.len() && tokens[t].span.start < s.span.end {
            t += 1;
        }
        let before = signals.len() as u32;
        bounds.push((lo, t));
        tallies.push(scan::statement(
            text,
            tokens,
            lo,
            t,
            &mut signals,
            &mut flink_recorded,
        ));
        // A document's statement that starts with a clause or `...`: a fragment.
        let fragment = match &parsed.embedded {
            Some(_) => fragment::fragment_start(text, &tokens[lo..t]).map(|first| {
                signals.push(Signal {
                    dialect: Dialect::Fragment,
                    strength: Strength::Strong,
                    what: "a clause or `...` where a statement begins",
                    span: first.span,
                })
            }),
            None => None,
        };
        fragments.push(fragment.is_some());
        ranges.push(before..signals.len() as u32);
    }
    // Most files: nothing speaks for another dialect, and the dialect is never switched.
    let foreign = tallies
        .iter()
        .any(|t| t.other.iter().any(|p| *p > 0) || t.jinja || t.placeholder)
        || fragments.contains(&true)
        || statements.iter().any(|s| dialect_switch(s) == Some(true));
    if !foreign {
        return FileDialect {
            signals,
            ..FileDialect::flink(Reason::Detected)
        };
    }
    let jinja = tallies.iter().any(|t| t.jinja);
    let decisive_in_file = tallies.iter().any(|t| t.decisive);
    let threshold = if decisive_in_file { 3 } else { 2 };

    // Each statement on its own, and the Hive dialect switch.
    let mut class = Vec::with_capacity(n);
    let mut how = vec![How::Signals; n];
    let mut hive: Option<Span> = None;
    for (i, (s, tally)) in statements.iter().zip(&tallies).enumerate() {
        if jinja {
            class.push(Class::Fixed(Dialect::Jinja));
            how[i] = How::JinjaFile;
            continue;
        }
        if let Some(switch) = dialect_switch(s) {
            hive = switch.then_some(s.span);
            class.push(Class::Flink);
            continue;
        }
        if let Some(set) = hive {
            class.push(Class::Fixed(Dialect::Hive));
            how[i] = How::HiveDialect { set };
            continue;
        }
        if tally.placeholder {
            class.push(Class::Fixed(Dialect::Placeholders));
            continue;
        }
        if fragments[i] {
            class.push(Class::Fixed(Dialect::Fragment));
            continue;
        }
        let other = tally.other_total();
        let leading = tally.leading_other();
        class.push(match leading {
            Some((d, _)) if !tally.decisive && other > tally.flink => {
                if other >= threshold {
                    Class::Other(d)
                } else {
                    Class::Leaning(d)
                }
            }
            _ if tally.flink > 0 => Class::Flink,
            _ => Class::Neutral,
        });
    }

    // Statements without signals that use names created before them take their creator's
    // side (an `INSERT INTO products` after MySQL's `CREATE TABLE products`).
    if class
        .iter()
        .any(|c| matches!(c, Class::Other(_) | Class::Fixed(_)))
    {
        by_names(text, tokens, &bounds, &mut class, &mut how);
    }

    // Two statements of a run of undecided ones that each have a medium tell (or use names
    // another dialect created) make a stretch, from the first of them to the last: a setup
    // script whose tells are all medium (`DEFAULT`, `TEXT` columns).
    let undecided = |c: &Class| matches!(c, Class::Neutral | Class::Leaning(_));
    let mut promoted = vec![false; n];
    let mut i = 0;
    while i < n {
        if !undecided(&class[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && undecided(&class[i]) {
            i += 1;
        }
        let evidence: Vec<usize> = (start..i)
            .filter(|&k| {
                matches!(class[k], Class::Leaning(_))
                    && (tallies[k].other_total() >= 2 || how[k] == How::Names)
            })
            .collect();
        if let [first, .., last] = evidence[..] {
            let mut d = Dialect::OtherDatabase;
            for k in first..=last {
                match class[k] {
                    Class::Leaning(own) => d = own,
                    _ => how[k] = How::Neighbours,
                }
                class[k] = Class::Other(d);
                promoted[k] = true;
            }
        }
    }

    // Statements without enough signals of their own take their neighbours' side.
    let strong: Vec<bool> = tallies
        .iter()
        .zip(&class)
        .zip(&promoted)
        .map(|((t, c), p)| matches!(c, Class::Other(_)) && (*p || t.other_total() >= 3))
        .collect();
    let mut dialect: Vec<Dialect> = class
        .iter()
        .map(|c| match c {
            Class::Other(d) | Class::Fixed(d) => *d,
            _ => Dialect::Flink,
        })
        .collect();
    let mut i = 0;
    while i < n {
        if !matches!(class[i], Class::Neutral | Class::Leaning(_)) {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && matches!(class[i], Class::Neutral | Class::Leaning(_)) {
            i += 1;
        }
        let other_of = |k: usize| match class.get(k) {
            Some(Class::Other(d)) => Some(*d),
            _ => None,
        };
        let l = start.checked_sub(1).and_then(other_of);
        let r = other_of(i);
        let leaning = |k: &usize| matches!(class[*k], Class::Leaning(_));
        let last_leaning = (start..i).rev().find(leaning);
        let first_leaning = (start..i).find(leaning);
        // A statement with a form the neighbour's dialect lacks does not join its stretch,
        // nor do the statements beyond it.
        let first_barrier = l.and_then(|d| (start..i).find(|&k| tallies[k].excludes(d)));
        let last_barrier = r.and_then(|d| (start..i).rev().find(|&k| tallies[k].excludes(d)));
        let from_left = |k: usize| l.filter(|_| first_barrier.is_none_or(|b| k < b));
        let from_right = |k: usize| r.filter(|_| last_barrier.is_none_or(|b| k > b));
        for k in start..i {
            let side = match (l, r) {
                // Between two stretches.
                (Some(_), Some(_)) => from_left(k).or_else(|| from_right(k)),
                // At an edge of the file, next to a statement with a strong tell, or in a
                // file where nothing is decisively Flink SQL.
                (None, Some(_)) if start == 0 && (strong[i] || !decisive_in_file) => from_right(k),
                (Some(_), None) if i == n && (strong[start - 1] || !decisive_in_file) => {
                    from_left(k)
                }
                // Towards Flink: up to the last statement that leans away from it.
                (Some(_), None) => last_leaning
                    .filter(|&last| k <= last)
                    .and_then(|_| from_left(k)),
                (None, Some(_)) => first_leaning
                    .filter(|&first| k >= first)
                    .and_then(|_| from_right(k)),
                (None, None) => None,
            };
            match side {
                Some(d) => {
                    dialect[k] = d;
                    if how[k] != How::Names {
                        how[k] = How::Neighbours;
                    }
                }
                None => how[k] = How::Default,
            }
        }
    }

    let out_statements: Vec<StatementDialect> = statements
        .iter()
        .enumerate()
        .map(|(i, s)| StatementDialect {
            span: s.span,
            dialect: dialect[i],
            how: how[i],
            signals: ranges[i].clone(),
        })
        .collect();
    let mut out = FileDialect {
        statements: out_statements,
        signals,
        stretches: Vec::new(),
        reason: Reason::Detected,
    };
    out.stretches = stretches::stretches(text, parsed, &out, &tallies);
    out
}

/// The token range of each top-level statement of `parsed`.
pub(super) fn statement_bounds(parsed: &Parsed) -> Vec<(usize, usize)> {
    let tokens = &parsed.tokens;
    let mut t = 0;
    parsed
        .script
        .statements
        .iter()
        .map(|s| {
            while t < tokens.len() && tokens[t].span.start < s.span.start {
                t += 1;
            }
            let lo = t;
            while t < tokens.len() && tokens[t].span.start < s.span.end {
                t += 1;
            }
            (lo, t)
        })
        .collect()
}

/// Gives each statement without signals of its own the side of the statements that created
/// the names it uses: of the first of its names (a catalog's name before the table's) that
/// only Flink statements, or only another dialect's, created before it. Flink's side makes it Flink SQL; another
/// dialect's makes it lean that way (it then joins an adjacent stretch).
fn by_names(
    text: &str,
    tokens: &[crate::syntax::Token],
    bounds: &[(usize, usize)],
    class: &mut [Class],
    how: &mut [How],
) {
    // Who created each name: Flink statements, and the dialect of another's.
    let mut created: Vec<(String, bool, Option<Dialect>)> = Vec::new();
    let mut used = Vec::new();
    for (k, &(lo, hi)) in bounds.iter().enumerate() {
        if matches!(class[k], Class::Neutral | Class::Leaning(_)) {
            used.clear();
            scan::used_names(text, tokens, lo, hi, &mut used);
            // The first name that one side alone created (a name both created says nothing).
            let side = used.iter().find_map(|span| {
                let name = scan::name_key(text, *span);
                match created.iter().find(|(n, _, _)| *n == name) {
                    Some((_, true, None)) => Some(None),
                    Some((_, false, Some(d))) => Some(Some(*d)),
                    _ => None,
                }
            });
            match side {
                Some(None) => {
                    class[k] = Class::Flink;
                    how[k] = How::Names;
                }
                Some(Some(d)) => {
                    class[k] = Class::Leaning(d);
                    how[k] = How::Names;
                }
                None => {}
            }
        }
        // A statement that leans to a dialect passes its lean on to the users of its names.
        let other = match class[k] {
            Class::Flink => None,
            Class::Other(d) | Class::Fixed(d) | Class::Leaning(d) => Some(d),
            Class::Neutral => continue,
        };
        if let Some(span) = scan::created_name(text, tokens, lo, hi) {
            let name = scan::name_key(text, span);
            match created.iter_mut().find(|(n, _, _)| *n == name) {
                Some(entry) => match other {
                    None => entry.1 = true,
                    Some(d) => entry.2 = entry.2.or(Some(d)),
                },
                None => created.push((name, other.is_none(), other)),
            }
        }
    }
}

/// `SET 'table.sql-dialect' = ...` (`Some(true)` for `hive`, `Some(false)` for another
/// value), `RESET` of it or of everything (`Some(false)`); `None` for any other statement.
fn dialect_switch(statement: &Statement) -> Option<bool> {
    const KEY: &str = "table.sql-dialect";
    match &statement.kind {
        StatementKind::Set(set) => {
            let pair = set.pair.as_ref()?;
            (pair.key.trim() == KEY).then(|| pair.value.trim().eq_ignore_ascii_case("hive"))
        }
        StatementKind::Reset(reset) => match &reset.key {
            None => Some(false),
            Some(key) => (key.trim() == KEY).then_some(false),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests;

//! The first words of a statement: what its kind (`CREATE INDEX`, `GRANT`, `COPY`, `LOAD DATA`)
//! and its `SET` tell.

use super::super::words::W;
use super::Scan;
use crate::dialect::{Dialect, Strength};
use crate::source::Span;
use crate::syntax::TokenKind;

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
impl Scan<'_> {
    pub(super) fn head(&mut self, h: usize, head_w: Option<W>) {
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
                    Some(W::WAREHOUSE | W::STAGE | W::PIPE) => {
                        Some((Snowflake, Strong, "a warehouse, stage or pipe"))
                    }
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
            Some(W::COPY) if next_w == Some(W::INTO) => {
                self.signal(Snowflake, Strong, "COPY INTO", span)
            }
            Some(W::COPY) => self.signal(Postgres, Strong, "COPY", span),
            Some(W::USE) if next_w == Some(W::WAREHOUSE) => {
                self.signal(Snowflake, Strong, "USE WAREHOUSE", span)
            }
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
                // MySQL: `LOAD DATA [LOW_PRIORITY | CONCURRENT] [LOCAL] INFILE`; Hive and
                // Spark: `LOAD DATA [LOCAL] INPATH`.
                let mut at = self.next(next);
                while self.text_is(at, &["LOW_PRIORITY", "CONCURRENT", "LOCAL"]) {
                    at = self.next(at);
                }
                if self.text_is(at, &["INFILE"]) {
                    self.signal(MySql, Strong, "LOAD DATA INFILE", span)
                } else {
                    self.signal(HiveOrSpark, Strong, "LOAD DATA", span)
                }
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
            // `@x`, `@@x` (adjacent unknown characters are one token).
            Some(TokenKind::Unknown) if self.text_is(key, &["@", "@@"]) => {
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
}

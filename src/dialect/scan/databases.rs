//! The tells of the other dialects, one function per dialect: each reads the word at `a` in its
//! context and returns `false` when the word is none of its tells.

use super::super::words::W;
use super::{At, Scan};
use crate::dialect::{Dialect, Strength};
use crate::syntax::keywords::Kw;
use crate::syntax::TokenKind;

/// The signal of a `NUMBER` column: Oracle's type, and Snowflake's.
pub(in crate::dialect) const NUMBER_COLUMN: &str = "a NUMBER column (Oracle, Snowflake)";

impl Scan<'_> {
    /// MySQL's tells (and MariaDB's, and what only other databases have: `DEFAULT`, TEXT columns); `false` when the word is none of them.
    pub(super) fn mysql(&mut self, a: At) -> bool {
        let At { i, w, ddl, .. } = a;
        let at = Some(i);
        let span = self.tokens[i].span;
        use Dialect::*;
        use Strength::*;
        match w {
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
            W::GROUP_CONCAT if self.kind(self.next(at)) == Some(TokenKind::LParen) => {
                self.signal(MySql, Strong, "GROUP_CONCAT(...)", span)
            }
            W::FOREIGN if ddl && self.w(self.next(at)) == Some(W::KEY) => {
                self.signal(OtherDatabase, Strong, "FOREIGN KEY", span)
            }
            W::REFERENCES if ddl && self.is_name(self.next(at)) => {
                self.signal(OtherDatabase, Strong, "REFERENCES (a foreign key)", span)
            }
            W::INTERVAL if self.unit_in_string(at) => self.signal(
                OtherDatabase,
                Medium,
                "an interval with its unit in the string (INTERVAL '7 days')",
                span,
            ),
            W::COMMENT if ddl && self.kind(self.next(at)) == Some(TokenKind::Eq) => {
                self.signal(MySql, Medium, "COMMENT = '...'", span)
            }
            // A value of a VALUES row (`(DEFAULT, 'a')`): Flink's parser takes it and its
            // validator rejects it ("No match found for function signature DEFAULT"), which
            // QV020 reports; alone it does not make a statement another database's.
            W::DEFAULT
                if matches!(
                    self.kind(self.prev(at)),
                    Some(TokenKind::LParen | TokenKind::Comma)
                ) && matches!(
                    self.kind(self.next(at)),
                    Some(TokenKind::RParen | TokenKind::Comma)
                ) =>
            {
                self.signal(OtherDatabase, Weak, "DEFAULT", span)
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

            _ => return false,
        }
        true
    }

    /// PostgreSQL's tells (and SQL Server's `IDENTITY(...)`, the standard's `GENERATED ... AS IDENTITY`); `false` when the word is none of them.
    pub(super) fn postgres(&mut self, a: At) -> bool {
        let At {
            i, w, ddl, depth, ..
        } = a;
        let at = Some(i);
        let span = self.tokens[i].span;
        use Dialect::*;
        use Strength::*;
        match w {
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

            _ => return false,
        }
        true
    }

    /// Hive's and Spark's tells; `false` when the word is none of them.
    pub(super) fn hive_spark(&mut self, a: At) -> bool {
        let At {
            i, w, ddl, depth, ..
        } = a;
        let at = Some(i);
        let span = self.tokens[i].span;
        use Dialect::*;
        use Strength::*;
        match w {
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

            _ => return false,
        }
        true
    }

    /// ClickHouse's tells; `false` when the word is none of them.
    pub(super) fn clickhouse(&mut self, a: At) -> bool {
        let At { i, w, ddl, .. } = a;
        let at = Some(i);
        let span = self.tokens[i].span;
        use Dialect::*;
        use Strength::*;
        match w {
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

            _ => return false,
        }
        true
    }

    /// Doris's and StarRocks's tells; `false` when the word is none of them.
    pub(super) fn doris(&mut self, a: At) -> bool {
        let At { i, w, .. } = a;
        let at = Some(i);
        let span = self.tokens[i].span;
        use Dialect::*;
        use Strength::*;
        match w {
            W::BUCKETS
                if matches!(self.kind(self.next(at)), Some(TokenKind::Integer))
                    || self.w(self.next(at)) == Some(W::AUTO) =>
            {
                self.signal(Doris, Strong, "BUCKETS n", span)
            }
            W::PROPERTIES if self.kind(self.next(at)) == Some(TokenKind::LParen) => {
                self.signal(Doris, Strong, "PROPERTIES (...)", span)
            }

            _ => return false,
        }
        true
    }

    /// Oracle's tells; `false` when the word is none of them.
    pub(super) fn oracle(&mut self, a: At) -> bool {
        let At { i, w, ddl, .. } = a;
        let at = Some(i);
        let span = self.tokens[i].span;
        use Dialect::*;
        use Strength::*;
        match w {
            // Snowflake has NUMBER too: a tell of its own, which names no pair of databases
            // when it stands alone beside another database's shared tell.
            W::NUMBER if self.type_position(i, ddl) => {
                self.signal(Oracle, Strong, NUMBER_COLUMN, span)
            }
            W::VARCHAR2 | W::NVARCHAR2 | W::CLOB | W::NCLOB if self.type_position(i, ddl) => self
                .signal(
                    Oracle,
                    Strong,
                    "an Oracle type (VARCHAR2, NUMBER, CLOB)",
                    span,
                ),
            W::SYSDATE => self.signal(Oracle, Medium, "SYSDATE", span),
            W::SUPPLEMENTAL | W::ARCHIVELOG => {
                self.signal(Oracle, Strong, "SUPPLEMENTAL LOG / ARCHIVELOG", span)
            }
            W::IDENTIFIED if self.w(self.next(at)) == Some(W::BY) => {
                self.signal(OtherDatabase, Strong, "IDENTIFIED BY", span)
            }

            _ => return false,
        }
        true
    }

    /// SQL Server's tells; `false` when the word is none of them.
    pub(super) fn sql_server(&mut self, a: At) -> bool {
        let At { i, w, ddl, .. } = a;
        let at = Some(i);
        let span = self.tokens[i].span;
        use Dialect::*;
        use Strength::*;
        match w {
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
            // `SELECT TOP 10`, `SELECT TOP (n)`; not a column named `top` (`SELECT top, a`).
            W::TOP
                if self.w(self.prev(at)) == Some(W::SELECT)
                    && matches!(
                        self.kind(self.next(at)),
                        Some(TokenKind::Integer | TokenKind::LParen)
                    ) =>
            {
                self.signal(SqlServer, Strong, "SELECT TOP n", span)
            }
            _ => return false,
        }
        true
    }

    /// Snowflake's tells; `false` when the word is none of them.
    pub(super) fn snowflake(&mut self, a: At) -> bool {
        let At { i, w, ddl, .. } = a;
        let at = Some(i);
        let span = self.tokens[i].span;
        let call = self.kind(self.next(at)) == Some(TokenKind::LParen);
        use Dialect::*;
        use Strength::*;
        match w {
            W::FLATTEN if call => self.signal(Snowflake, Strong, "FLATTEN(...)", span),
            W::IFF if call => self.signal(Snowflake, Strong, "IFF(...)", span),
            W::OBJECT_CONSTRUCT | W::ARRAY_CONSTRUCT if call => {
                self.signal(Snowflake, Strong, "OBJECT_CONSTRUCT(...)", span)
            }
            W::TIMESTAMP_TZ if self.type_position(i, ddl) => {
                self.signal(Snowflake, Strong, "TIMESTAMP_TZ", span)
            }
            _ => return false,
        }
        true
    }

    /// Whether the `INTERVAL` at `at` has its unit in its string and none after it
    /// (`INTERVAL '7 days'`): Flink writes `INTERVAL '7' DAY`.
    fn unit_in_string(&self, at: Option<usize>) -> bool {
        let string = self.next(at);
        if self.kind(string) != Some(TokenKind::String) {
            return false;
        }
        let text = string.map_or("", |k| self.slice(self.tokens[k]));
        let unit_inside = text.bytes().any(|b| b.is_ascii_alphabetic());
        unit_inside
            && !self.text_is(
                self.next(string),
                &[
                    "YEAR", "YEARS", "MONTH", "MONTHS", "DAY", "DAYS", "HOUR", "HOURS", "MINUTE",
                    "MINUTES", "SECOND", "SECONDS", "WEEK", "QUARTER",
                ],
            )
    }
}

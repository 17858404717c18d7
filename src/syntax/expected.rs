//! What Flink 2.3's parser lists after `Was expecting` in its `Encountered ...` messages, for
//! the places flinklint reproduces them (verified with Flink 2.3.0, `fixtures/oracle/mt`).
//! Items are printed as JavaCC prints them: keywords and punctuation in double quotes.

/// The start modes, after `START_MODE =`.
pub const START_MODES: &[&str] = &[
    "\"FROM_BEGINNING\"",
    "\"FROM_NOW\"",
    "\"FROM_TIMESTAMP\"",
    "\"RESUME_OR_FROM_BEGINNING\"",
    "\"RESUME_OR_FROM_NOW\"",
    "\"RESUME_OR_FROM_TIMESTAMP\"",
];

/// After a complete `START_MODE = ...` clause in CREATE MATERIALIZED TABLE.
pub const AFTER_START_MODE: &[&str] = &["\"AS\"", "\"FRESHNESS\"", "\"REFRESH_MODE\""];

/// After `START_MODE = FROM_NOW` or `RESUME_OR_FROM_NOW` without an argument.
pub const AFTER_START_MODE_NOW: &[&str] = &["\"AS\"", "\"FRESHNESS\"", "\"REFRESH_MODE\"", "\"(\""];

/// After `REFRESH_MODE = ...` in CREATE MATERIALIZED TABLE.
pub const AFTER_REFRESH_MODE: &[&str] = &["\"AS\""];

/// After `CREATE MATERIALIZED TABLE name`.
pub const AFTER_CREATE_MT_NAME: &[&str] = &[
    "\"AS\"",
    "\"WITH\"",
    "\"COMMENT\"",
    "\"DISTRIBUTED\"",
    "\"FRESHNESS\"",
    "\"PARTITIONED\"",
    "\"REFRESH_MODE\"",
    "\"START_MODE\"",
    "\"(\"",
    "\".\"",
];

/// After `ALTER MATERIALIZED TABLE name`.
pub const ALTER_MT_ACTIONS: &[&str] = &[
    "\"ADD\"",
    "\"AS\"",
    "\"DROP\"",
    "\"RESET\"",
    "\"SET\"",
    "\"MODIFY\"",
    "\"SUSPEND\"",
    "\"REFRESH\"",
    "\"RESUME\"",
    "\".\"",
];

/// After `ALTER MATERIALIZED TABLE name SET`.
pub const ALTER_MT_SET: &[&str] = &["\"FRESHNESS\"", "\"REFRESH_MODE\"", "\"(\""];

/// The units of an interval literal (Calcite 1.36 has no MILLISECOND / MICROSECOND there).
pub const INTERVAL_UNITS: &[&str] = &[
    "\"DAY\"",
    "\"DAYS\"",
    "\"HOUR\"",
    "\"HOURS\"",
    "\"MINUTE\"",
    "\"MINUTES\"",
    "\"MONTH\"",
    "\"MONTHS\"",
    "\"QUARTER\"",
    "\"QUARTERS\"",
    "\"SECOND\"",
    "\"SECONDS\"",
    "\"WEEK\"",
    "\"WEEKS\"",
    "\"YEAR\"",
    "\"YEARS\"",
];

/// One keyword (`Was expecting:` with a single item).
pub const TIMESTAMP: &[&str] = &["\"TIMESTAMP\""];
/// `(`.
pub const OPEN_PAREN: &[&str] = &["\"(\""];
/// `)`.
pub const CLOSE_PAREN: &[&str] = &["\")\""];
/// `=`.
pub const EQUALS: &[&str] = &["\"=\""];

/// The units Flink 2.3's parser accepts in an interval literal (singular names).
pub const INTERVAL_UNIT_NAMES: &[&str] = &[
    "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND",
];

/// JavaCC's identifier tokens, where Flink's parser wants a name (`TABLE` in a function
/// argument must be followed by a table's name).
pub const IDENTIFIERS: &[&str] = &[
    "<BRACKET_QUOTED_IDENTIFIER>",
    "<QUOTED_IDENTIFIER>",
    "<BACK_QUOTED_IDENTIFIER>",
    "<BIG_QUERY_BACK_QUOTED_IDENTIFIER>",
    "<HYPHENATED_IDENTIFIER>",
    "<IDENTIFIER>",
    "<UNICODE_QUOTED_IDENTIFIER>",
];

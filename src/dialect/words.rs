//! The words the detector looks at: a case-insensitive table from a word's text to [`W`],
//! looked up once per word token (FNV-1a over the upper-cased bytes, open addressing, built
//! once). The lexer has already classified Flink's keywords: those are looked up by their
//! [`Kw`]; other words are ruled out by their first letter and length before they are hashed.

use crate::syntax::keywords::{classify, Kw};

/// Declares [`W`] and the spellings of its words.
macro_rules! words {
    ($($name:ident),* $(,)?) => {
        /// A word the detector looks at (its spelling is the variant's name, any case).
        #[allow(non_camel_case_types, clippy::upper_case_acronyms, clippy::enum_variant_names)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(super) enum W { $($name),* }
        /// Every word and its upper-case spelling.
        const WORDS: &[(&str, W)] = &[$((stringify!($name), W::$name)),*];
    };
}

words! {
    // Flink
    WITH, WATERMARK, FOR, NOT, ENFORCED, PROCTIME, TABLE, TUMBLE, HOP, CUMULATE, SESSION,
    DESCRIPTOR, METADATA, FROM, VIRTUAL, STATEMENT, SET, TIMESTAMP_LTZ, TO_TIMESTAMP_LTZ,
    SOURCE_WATERMARK, CURRENT_WATERMARK, SYSTEM_TIME, LATERAL, MATERIALIZED, FRESHNESS,
    CATALOG, STRING, BYTES, FUNCTION, LANGUAGE, JAVA, SCALA, PYTHON, RESET, JAR, FILE, ARCHIVE,
    ARTIFACT, VALUES,
    DO, ERROR, DEDUPLICATE, EMPTY, DATABASE, IF, EXISTS, TRUNCATE, DELETE, JOIN, MERGE,
    ADD, COLUMN, COLUMNS, CONSTRAINT, PRIMARY, WATERMARKS, DISTRIBUTION, INTERVAL, AS, WHERE,
    // statement heads and modifiers
    CREATE, ALTER, DROP, INSERT, REPLACE, OR, TEMPORARY, TEMP, EXTERNAL, UNIQUE, INTO,
    OVERWRITE, IGNORE, BEGIN, END, COMMIT, ROLLBACK, START, TRANSACTION, DECLARE, GRANT,
    REVOKE, FLUSH, LOCK, UNLOCK, DELIMITER, COPY, VACUUM, CACHE, UNCACHE, OPTIMIZE, REFRESH,
    MSCK, LOAD, EXEC, EXECUTE, GO, DESCRIBE, SELECT, TOP, USE,
    // objects
    INDEX, KEY, USER, ROLE, TRIGGER, PROCEDURE, SEQUENCE, EXTENSION, SCHEMA, TYPE, DOMAIN,
    PUBLICATION, SUBSCRIPTION, TABLESPACE, VIEW, FULLTEXT, SPATIAL,
    // MySQL
    AUTO_INCREMENT, ENGINE, CHARSET, CHARACTER, COLLATE, ROW_FORMAT, UNSIGNED, ZEROFILL,
    ON, UPDATE, DUPLICATE, COMMENT, DEFAULT, TINYINT, SMALLINT, MEDIUMINT, INT, INTEGER,
    BIGINT, DATETIME, TINYTEXT, MEDIUMTEXT, LONGTEXT, TINYBLOB, MEDIUMBLOB, LONGBLOB, ENUM,
    TEXT, JSON, BLOB, GROUP_CONCAT, FOREIGN, REFERENCES,
    // PostgreSQL
    SERIAL, BIGSERIAL, SMALLSERIAL, JSONB, BYTEA, TIMESTAMPTZ, TIMETZ, UUID, INET, CIDR,
    MACADDR, TSVECTOR, INT2, INT4, INT8, FLOAT4, FLOAT8, VARYING, REPLICA, IDENTITY,
    OWNER, CONFLICT, RETURNING, PLPGSQL, GENERATED,
    // Hive and Spark
    STORED, ROW, FORMAT, SERDE, SERDEPROPERTIES, TBLPROPERTIES, LOCATION, CLUSTERED, SKEWED,
    DISTRIBUTE, SORT, CLUSTER, BY, PARTITIONED, PARTITION, INPATH, MACRO, FORMATTED,
    USING, ZORDER, HISTORY, TIMESTAMP_NTZ,
    // ClickHouse
    MERGETREE, REPLACINGMERGETREE, SUMMINGMERGETREE, AGGREGATINGMERGETREE,
    COLLAPSINGMERGETREE, VERSIONEDCOLLAPSINGMERGETREE, REPLICATEDMERGETREE,
    REPLICATEDREPLACINGMERGETREE, DISTRIBUTED, LOG, TINYLOG, STRIPELOG, MEMORY, KAFKA,
    UINT8, UINT16, UINT32, UINT64, UINT128, UINT256, INT16, INT32, INT64, INT128, INT256,
    FLOAT32, FLOAT64, NULLABLE, LOWCARDINALITY, DATETIME64, FIXEDSTRING, DATE32,
    SETTINGS,
    // Doris and StarRocks
    OLAP, AGGREGATE, BUCKETS, PROPERTIES, AUTO,
    // Oracle
    VARCHAR2, NVARCHAR2, NUMBER, CLOB, NCLOB, SYSDATE, SUPPLEMENTAL, ARCHIVELOG, IDENTIFIED,
    // SQL Server
    NVARCHAR, DATETIME2, UNIQUEIDENTIFIER, NTEXT, MONEY, NOLOCK, GETDATE, DBO,
    // SQLite
    AUTOINCREMENT,
    // ksqlDB
    STREAM, EMIT, CHANGES, KAFKA_TOPIC, VALUE_FORMAT,
    // DuckDB
    INSTALL, SECRET, MODULE,
    // Snowflake
    FLATTEN, IFF, OBJECT_CONSTRUCT, ARRAY_CONSTRUCT, WAREHOUSE, STAGE, PIPE, TIMESTAMP_TZ,
}

/// Slots of the hash table (a power of two, more than twice the words).
const TABLE_SIZE: usize = 1024;

use crate::syntax::keywords::hash_upper;

/// Open-addressing table from a word's hash to its index in [`WORDS`] (+1; 0 = empty).
fn table() -> &'static [u16; TABLE_SIZE] {
    static TABLE: std::sync::OnceLock<Box<[u16; TABLE_SIZE]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0u16; TABLE_SIZE]);
        for (i, (name, _)) in WORDS.iter().enumerate() {
            let mut slot = hash_upper(name.as_bytes()) & (TABLE_SIZE - 1);
            while table[slot] != 0 {
                slot = (slot + 1) & (TABLE_SIZE - 1);
            }
            table[slot] = i as u16 + 1;
        }
        table
    })
}

/// The tables a scan looks words up in, built once.
pub(super) struct Words {
    /// The words of Flink keywords, indexed by [`Kw`] (the lexer has classified them).
    by_keyword: Vec<Option<W>>,
    /// For other words: a bit per (first letter, length) that some word of the detector has,
    /// so that most identifiers are ruled out without hashing.
    shapes: [u32; 27],
}

/// The tables, built on first use.
pub(super) fn words() -> &'static Words {
    static WORDS_TABLES: std::sync::OnceLock<Words> = std::sync::OnceLock::new();
    WORDS_TABLES.get_or_init(|| {
        let mut by_keyword = Vec::new();
        let mut shapes = [0u32; 27];
        for (name, w) in WORDS {
            let kw = classify(name) as usize;
            if kw != Kw::NONE as usize {
                if by_keyword.len() <= kw {
                    by_keyword.resize(kw + 1, None);
                }
                by_keyword[kw] = Some(*w);
            }
            shapes[letter(name.as_bytes()[0])] |= 1 << (name.len() & 31);
        }
        Words { by_keyword, shapes }
    })
}

fn letter(b: u8) -> usize {
    match b {
        b'a'..=b'z' => (b - b'a') as usize,
        b'A'..=b'Z' => (b - b'A') as usize,
        _ => 26,
    }
}

impl Words {
    /// The word of a Flink keyword token.
    pub(super) fn keyword(&self, kw: Kw) -> Option<W> {
        self.by_keyword.get(kw as usize).copied().flatten()
    }

    /// The word a word token spells, if the detector looks at it: `kw` is what the lexer
    /// classified it as.
    pub(super) fn token(&self, text: &str, kw: Kw) -> Option<W> {
        if kw != Kw::NONE {
            return self.keyword(kw);
        }
        let bytes = text.as_bytes();
        let first = *bytes.first()?;
        if self.shapes[letter(first)] & (1 << (bytes.len() & 31)) == 0 {
            return None;
        }
        lookup(text)
    }
}

/// The word `text` spells (ASCII case-insensitive), if the detector looks at it.
pub(super) fn lookup(text: &str) -> Option<W> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || bytes.len() > 32 {
        return None;
    }
    let table = table();
    let mut slot = hash_upper(bytes) & (TABLE_SIZE - 1);
    loop {
        let entry = table[slot];
        if entry == 0 {
            return None;
        }
        let (name, w) = WORDS[entry as usize - 1];
        if name.len() == bytes.len() && name.as_bytes().eq_ignore_ascii_case(bytes) {
            return Some(w);
        }
        slot = (slot + 1) & (TABLE_SIZE - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_found_in_any_case() {
        for (name, w) in WORDS {
            assert_eq!(lookup(name), Some(*w), "{name}");
            assert_eq!(lookup(&name.to_ascii_lowercase()), Some(*w), "{name}");
        }
        assert_eq!(lookup("orders"), None);
        assert_eq!(lookup("x"), None);
        assert_eq!(lookup("auto_increment"), Some(W::AUTO_INCREMENT));
        // Through the lexer's classification, keyword or not.
        for (name, w) in WORDS {
            for spelling in [name.to_string(), name.to_ascii_lowercase()] {
                assert_eq!(
                    words().token(&spelling, classify(&spelling)),
                    Some(*w),
                    "{name}"
                );
            }
        }
        assert_eq!(words().token("orders", classify("orders")), None);
        assert_eq!(words().token("select", classify("select")), Some(W::SELECT));
        assert_eq!(words().token("having", classify("having")), None);
    }
}

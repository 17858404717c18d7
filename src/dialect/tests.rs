//! Unit tests of the detection: each dialect's tells, the weighing, neighbours, the Hive
//! switch, templates.

use super::*;
use crate::syntax::parse;

fn detect_text(text: &str) -> FileDialect {
    detect(text, &parse(text))
}

/// Each statement's dialect, in order.
fn dialects(text: &str) -> Vec<Dialect> {
    let parsed = parse(text);
    let d = detect(text, &parsed);
    (0..parsed.script.statements.len())
        .map(|i| d.dialect_of(i))
        .collect()
}

use Dialect::*;

#[test]
fn flink_files_are_flink_throughout() {
    let text = "SET 'execution.runtime-mode' = 'streaming';\n\
        CREATE TABLE orders (id BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) \
        WITH ('connector' = 'datagen');\n\
        INSERT INTO sink SELECT id FROM orders;\n";
    let d = detect_text(text);
    assert_eq!(d.verdict(), FileVerdict::Flink);
    assert!(d.stretches.is_empty());
    assert!(d.signals.iter().any(|s| s.what == "WATERMARK FOR"));
    assert!(d
        .signals
        .iter()
        .any(|s| s.what == "WITH ('connector' = ...)"));
}

#[test]
fn a_file_without_signals_is_flink() {
    assert_eq!(
        dialects("CREATE TABLE t (a INT);\nINSERT INTO t VALUES (1);\nSELECT * FROM t;"),
        [Flink, Flink, Flink]
    );
}

#[test]
fn mysql_scripts_are_one_stretch() {
    let text = "CREATE DATABASE shop;\nUSE shop;\n\
        CREATE TABLE customers (id INT(11) NOT NULL AUTO_INCREMENT, name VARCHAR(255), \
        PRIMARY KEY (id)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n\
        INSERT INTO customers VALUES (1, 'a');\n";
    let d = detect_text(text);
    assert_eq!(d.verdict(), FileVerdict::NotFlink);
    assert_eq!(d.stretches.len(), 1);
    let s = &d.stretches[0];
    assert_eq!(s.span, Span::new(0, text.len()));
    assert_eq!(s.dialects, [MySql]);
    assert!(s.signals.iter().any(|x| x.what == "AUTO_INCREMENT"));
    assert_eq!(&text[s.at.range()], "CREATE");
}

#[test]
fn each_dialect_has_its_tells() {
    let cases: &[(&str, Dialect)] = &[
        (
            "CREATE TABLE t (id SERIAL PRIMARY KEY, doc JSONB);",
            Postgres,
        ),
        ("CREATE EXTENSION IF NOT EXISTS pgcrypto;", Postgres),
        ("SELECT id::text FROM t;", Postgres),
        ("ALTER TABLE public.t REPLICA IDENTITY FULL;", Postgres),
        (
            "CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN RETURN NEW; END; $$ LANGUAGE plpgsql;",
            Postgres,
        ),
        ("CREATE TABLE t (a STRING) STORED AS ORC;", HiveOrSpark),
        (
            "CREATE TABLE t (a STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',';",
            HiveOrSpark,
        ),
        (
            "CREATE TABLE t (a INT) PARTITIONED BY (dt STRING);",
            HiveOrSpark,
        ),
        ("insert into table t select * from s;", HiveOrSpark),
        ("CREATE TABLE t (a INT) USING delta;", Spark),
        (
            "CREATE TABLE t (a INT) USING delta TBLPROPERTIES ('k' = 'v');",
            Spark,
        ),
        ("SET hive.exec.dynamic.partition = true;", Hive),
        (
            "CREATE STREAM s (id INT) WITH (kafka_topic = 's', value_format = 'json');",
            KsqlDb,
        ),
        ("INSTALL httpfs;", OtherDatabase),
        ("mysql> FLUSH PRIVILEGES;", MySql),
        ("\\c shop", Postgres),
        (
            "CREATE TABLE t (id UInt64, name String) ENGINE = MergeTree ORDER BY id;",
            ClickHouse,
        ),
        (
            "CREATE TABLE t (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 10;",
            Doris,
        ),
        ("CREATE TABLE t (a VARCHAR2(10), b NUMBER(10));", Oracle),
        ("CREATE TABLE t (a NVARCHAR(10), b DATETIME2);", SqlServer),
        ("SELECT TOP 10 a FROM t;", SqlServer),
        ("SELECT TOP (5) a FROM t;", SqlServer),
        ("CREATE INDEX idx ON t (a);", OtherDatabase),
        ("GRANT SELECT ON t TO someone;", OtherDatabase),
        ("SET FOREIGN_KEY_CHECKS = 0;", MySql),
        ("SET search_path = public;", Postgres),
        ("INSERT INTO t VALUES ('It\\'s', 1);", MySql),
        ("CREATE TABLE t (id INT, KEY idx_a (a));", MySql),
    ];
    for (text, want) in cases {
        let got = dialects(text);
        assert_eq!(got.first(), Some(want), "{text}: {got:?}");
    }
}

#[test]
fn flink_forms_that_look_like_others_are_flink() {
    let flink = [
        "CREATE FUNCTION f AS 'com.example.F' LANGUAGE JAVA USING JAR 'file:///f.jar';",
        "CREATE FUNCTION f AS 'com.example.F' USING ARTIFACT 's3://b/f.jar';",
        "INSERT INTO sink SELECT * FROM src ON CONFLICT DO DEDUPLICATE;",
        "ALTER TABLE t SET ('bucket' = '4');",
        "ALTER TABLE t RESET ('bucket');",
        "SELECT JSON_VALUE(j, '$.a' DEFAULT 'x' ON EMPTY) FROM t;",
        "SET password=secret;",
        "SET debezium.bigint.unsigned.handling.mode=long;",
        "CALL sys.vector_search(`table` => 'db.items', vector_column => 'v', top_k => 10);",
        // A column named `top`.
        "SELECT top, nope FROM rankings;",
        "SELECT top FROM rankings;",
    ];
    for text in flink {
        assert_eq!(dialects(text), [Flink], "{text}");
    }
    // PostgreSQL names the conflict.
    assert_eq!(
        dialects("INSERT INTO t VALUES (1) ON CONFLICT (id) DO NOTHING;"),
        [Postgres]
    );
}

#[test]
fn flink_syntax_wins_over_other_tells() {
    // A Flink table with a PostgreSQL type is Flink SQL with an error.
    let text = "CREATE TABLE t (id SERIAL, PRIMARY KEY (id) NOT ENFORCED) \
        WITH ('connector' = 'jdbc');";
    assert_eq!(dialects(text), [Flink]);
    // A column named `key` is not a MySQL index, a `metadata` column is not Flink's.
    assert_eq!(
        dialects("CREATE TABLE t (id INT, key STRING, v DECIMAL(10, 2)) WITH ('k' = 'v');"),
        [Flink]
    );
}

#[test]
fn tutorials_mix_setup_statements_with_flink() {
    let text = "-- MySQL\nCREATE DATABASE mydb;\nUSE mydb;\n\
        CREATE TABLE products (id INTEGER NOT NULL AUTO_INCREMENT PRIMARY KEY);\n\
        INSERT INTO products VALUES (default, 'scooter');\n\
        -- PostgreSQL\n\
        CREATE TABLE shipments (id SERIAL NOT NULL PRIMARY KEY);\n\
        INSERT INTO shipments VALUES (default, 'Beijing');\n\
        -- Flink SQL\n\
        SET 'execution.checkpointing.interval' = '3s';\n\
        CREATE TABLE products (id INT, PRIMARY KEY (id) NOT ENFORCED) \
        WITH ('connector' = 'mysql-cdc');\n\
        SELECT * FROM products;\n";
    assert_eq!(
        dialects(text),
        [MySql, MySql, MySql, MySql, Postgres, Postgres, Flink, Flink, Flink]
    );
    let d = detect_text(text);
    assert_eq!(d.verdict(), FileVerdict::Mixed);
    assert_eq!(d.stretches.len(), 1);
    assert_eq!(d.stretches[0].dialects, [MySql, Postgres]);
    // The stretch covers the text up to the first Flink statement, not beyond.
    let set = text.find("SET 'execution").unwrap();
    assert!(d.covers(0) && d.covers(set as u32 - 1) && !d.covers(set as u32));
}

#[test]
fn statements_go_with_the_dialect_that_created_their_tables() {
    let text = "CREATE TABLE orders (id INT AUTO_INCREMENT, total DECIMAL(10, 2));\n\
        INSERT INTO orders VALUES (1, 2.5);\n\
        SET 'execution.runtime-mode' = 'streaming';\n\
        CREATE TABLE events (id INT) WITH ('connector' = 'datagen');\n\
        INSERT INTO events VALUES (1);\n\
        INSERT INTO orders VALUES (2, 3.5);\n";
    assert_eq!(dialects(text), [MySql, MySql, Flink, Flink, Flink, Flink]);
    let d = detect_text(text);
    assert_eq!(d.statements[1].how, How::Names);
    assert_eq!(d.statements[4].how, How::Names);
}

#[test]
fn medium_tells_in_company_make_a_stretch() {
    // Each of these statements alone would be a Flink statement with an error.
    let text = "CREATE DATABASE shop;\n\
        CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(20) DEFAULT 'x');\n\
        INSERT INTO users VALUES (1, \"a\");\n\
        CREATE TABLE items (id INT PRIMARY KEY, note TEXT);\n\
        SET 'execution.runtime-mode' = 'streaming';\n\
        CREATE TABLE src (id INT) WITH ('connector' = 'datagen');\n";
    let got = dialects(text);
    assert!(got[..4].iter().all(|d| *d != Flink), "{got:?}");
    assert_eq!(got[4..], [Flink, Flink]);
    let d = detect_text(text);
    assert_eq!(d.stretches.len(), 1);
    // The enforced keys without WITH options and `DEFAULT` / `TEXT` outweigh the one MySQL
    // habit (a "..." string in VALUES).
    assert_eq!(d.stretches[0].dialects, [OtherDatabase]);
}

#[test]
fn neutral_statements_between_flink_statements_stay_flink() {
    let text = "CREATE TABLE a (id INT) WITH ('connector' = 'datagen');\n\
        INSERT INTO b SELECT * FROM a;\n\
        CREATE TABLE c (id INT AUTO_INCREMENT, name TEXT) ENGINE=InnoDB;\n\
        INSERT INTO d SELECT * FROM a;\n\
        CREATE TABLE e (id INT) WITH ('connector' = 'print');\n";
    assert_eq!(dialects(text), [Flink, Flink, MySql, Flink, Flink]);
}

#[test]
fn one_medium_tell_needs_company_in_a_flink_file() {
    // In a file of Flink statements, a lone DEFAULT is a Flink statement with an error.
    let text = "CREATE TABLE a (id INT) WITH ('connector' = 'datagen');\n\
        INSERT INTO a VALUES (DEFAULT);\n\
        CREATE TABLE e (id INT) WITH ('connector' = 'print');\n";
    assert_eq!(dialects(text), [Flink, Flink, Flink]);
    // On its own too: a DEFAULT value of a VALUES row is a weak tell (Flink's parser takes it,
    // its validator rejects it, and QV020 reports it).
    assert_eq!(dialects("INSERT INTO a VALUES (DEFAULT, 1);"), [Flink]);
}

#[test]
fn the_hive_dialect_runs_until_it_is_set_back() {
    let text = "CREATE TABLE a (id INT) WITH ('connector' = 'datagen');\n\
        SET 'table.sql-dialect' = 'hive';\n\
        CREATE TABLE h (id INT);\n\
        INSERT INTO h SELECT * FROM a;\n\
        SET table.sql-dialect = default;\n\
        SELECT * FROM a;\n";
    assert_eq!(dialects(text), [Flink, Flink, Hive, Hive, Flink, Flink]);
    let d = detect_text(text);
    assert_eq!(d.stretches.len(), 1);
    assert!(d.stretches[0].hive_switch.is_some());
    assert_eq!(d.stretches[0].statements, 2..4);
    // RESET ends it too.
    let text = "SET 'table.sql-dialect' = 'hive';\nSELECT 1;\nRESET;\nSELECT 2;\n";
    assert_eq!(dialects(text), [Flink, Hive, Flink, Flink]);
}

#[test]
fn templates() {
    // Jinja anywhere: the whole file.
    let text = "{{ config(materialized='table') }}\nSELECT * FROM {{ ref('orders') }};\nSELECT 1;";
    let d = detect_text(text);
    assert_eq!(d.verdict(), FileVerdict::NotFlink);
    assert!(d.statements.iter().all(|s| s.dialect == Jinja));
    // `${...}` outside strings: that statement; inside a string it is a value.
    let text = "CREATE TABLE a (id INT) WITH ('connector' = 'kafka', 'topic' = '${topic}');\n\
        INSERT INTO ${sink} SELECT * FROM a;\n";
    assert_eq!(dialects(text), [Flink, Placeholders]);
}

#[test]
fn spans_and_lookups_hold_on_edges() {
    for text in [
        "",
        ";",
        "  -- only a comment\n",
        "{{",
        "$",
        "SET",
        "WITH (",
        "'\\'x",
    ] {
        let d = detect_text(text);
        for s in &d.stretches {
            assert!(s.span.end as usize <= text.len());
            assert!(s.span.start <= s.at.start);
        }
        let _ = d.covers(0);
        let _ = d.covers(u32::MAX);
    }
}

#[test]
fn many_signals_are_recorded_once_each() {
    let text = "CREATE TABLE t (".to_string()
        + &"a INT AUTO_INCREMENT, ".repeat(1000)
        + "b INT) ENGINE=InnoDB;";
    let d = detect_text(&text);
    assert!(d.signals.len() <= 8);
    assert_eq!(d.statements[0].dialect, MySql);
}

#[test]
fn a_flink_procedure_call_between_spark_statements_is_flink() {
    // Documentation with a Flink tab and a Spark tab: the Flink call quotes `table`.
    let text = "CREATE TABLE t (id INT, v ARRAY<FLOAT>) TBLPROPERTIES ('bucket' = '2');\n\
        CALL sys.create_global_index(`table` => 'db.t', index_column => 'v');\n\
        CALL sys.create_global_index(table => 'db.t', index_column => 'v');\n\
        SELECT * FROM t;\n";
    let got = dialects(text);
    assert_eq!(got[..3], [HiveOrSpark, Flink, Spark], "{got:?}");
    // Alone in a Flink file, an unquoted `table =>` is Flink SQL with an error.
    assert_eq!(
        dialects(
            "CREATE TABLE t (id INT) WITH ('connector' = 'datagen');\n\
            CALL sys.compact(table => 'db.t');\n"
        ),
        [Flink, Flink]
    );
}

#[test]
fn a_flink_alter_table_add_does_not_join_a_spark_stretch() {
    // Documentation with a Flink tab and a Spark tab: Flink's `ADD c <type>` is no Spark or
    // Hive form (they write `ADD COLUMNS`), so it and what follows it stay Flink SQL.
    let text = "CREATE TABLE t (id BIGINT) WITH ('bucket' = '2');\n\
        CREATE TABLE t (id BIGINT) TBLPROPERTIES ('bucket' = '2');\n\
        ALTER TABLE t\n    ADD v ARRAY<FLOAT> COMMENT 'x';\n\
        SELECT id FROM t;\n";
    assert_eq!(dialects(text), [Flink, HiveOrSpark, Flink, Flink]);
    // Without it, the statements after the Spark one join its stretch (up to the end).
    let text = "CREATE TABLE t (id BIGINT) WITH ('bucket' = '2');\n\
        CREATE TABLE t (id BIGINT) TBLPROPERTIES ('bucket' = '2');\n\
        SELECT id FROM t;\n";
    assert_eq!(dialects(text), [Flink, HiveOrSpark, HiveOrSpark]);
    // Other databases write `ADD c INT` too: it does not stop a MySQL stretch.
    let text = "CREATE TABLE p (id INT AUTO_INCREMENT, PRIMARY KEY (id)) ENGINE=InnoDB;\n\
        ALTER TABLE p ADD note INT;\n";
    assert_eq!(dialects(text), [MySql, MySql]);
}

#[test]
fn tells_that_flink_sql_never_has() {
    // MySQL's GROUP_CONCAT (Flink's parser takes the name for a keyword and stops there).
    assert_eq!(
        dialects("SELECT pub_id, GROUP_CONCAT(DISTINCT cate_id ORDER BY cate_id SEPARATOR ' ') FROM book_mast GROUP BY pub_id;"),
        [MySql]
    );
    // A foreign key; the `ADD COLUMN` before it (a mistake Flink users make too, which SY001
    // fixes) joins it at the start of a file where nothing is decisively Flink SQL.
    assert_eq!(
        dialects(
            "ALTER TABLE products ADD COLUMN discount_id INT;\n\n\
            ALTER TABLE products\nADD CONSTRAINT fk FOREIGN KEY (discount_id) \
            REFERENCES discounts(discount_id) ON DELETE SET NULL;"
        ),
        [OtherDatabase, OtherDatabase]
    );
    // An enforced key in a table without WITH options.
    assert_eq!(
        dialects("create table cars (car_id VARCHAR(40) NOT NULL, capacity INT,\n PRIMARY KEY(car_id)\n);"),
        [OtherDatabase]
    );
    // An interval with its unit in the string.
    assert_eq!(
        dialects("SELECT a FROM f WHERE d >= CURRENT_DATE - INTERVAL '7 days' ORDER BY d;"),
        [OtherDatabase]
    );
    // MySQL's LOAD DATA INFILE is named MySQL; Hive's LOAD DATA INPATH Hive or Spark.
    let d = detect_text("LOAD DATA LOCAL INFILE '/tmp/x.csv' INTO TABLE t;");
    assert_eq!(d.stretches[0].dialects, [MySql]);
    let d = detect_text("LOAD DATA INPATH '/tmp/x' INTO TABLE t;");
    assert_eq!(d.stretches[0].dialects, [HiveOrSpark]);
}

#[test]
fn flink_forms_near_the_new_tells_stay_flink() {
    // Flink's key, interval, ADD and a catalog table whose key is NOT ENFORCED.
    assert_eq!(
        dialects(
            "CREATE TABLE t (id INT, PRIMARY KEY (id) NOT ENFORCED);\n\
            CREATE TABLE u (id INT PRIMARY KEY NOT ENFORCED, ts TIMESTAMP(3));\n\
            SELECT * FROM t WHERE ts > CURRENT_TIMESTAMP - INTERVAL '7' DAY;\n\
            SELECT * FROM t WHERE ts > CURRENT_TIMESTAMP - INTERVAL '1 02' DAY TO HOUR;\n\
            ALTER TABLE t ADD c INT;\n"
        ),
        [Flink, Flink, Flink, Flink, Flink]
    );
    // In a file of Flink SQL, an enforced key is Flink SQL with an error (TB001).
    assert_eq!(
        dialects(
            "CREATE TABLE s (id INT) WITH ('connector' = 'datagen');\n\
            CREATE TABLE t (id INT, PRIMARY KEY (id));\n"
        ),
        [Flink, Flink]
    );
    assert_eq!(
        dialects("CREATE TABLE t (id INT, PRIMARY KEY (id)) WITH ('connector' = 'datagen');"),
        [Flink]
    );
}

#[test]
fn documentation_placeholders_make_a_statement_a_template() {
    for text in [
        "SELECT * FROM <table name> LIMIT 10;",
        "ALTER TABLE <table_name> ADD _part INT METADATA FROM 'partition' VIRTUAL;",
        "SELECT * FROM t WHERE id = <some-id>;",
        "SHOW CREATE TABLE <catalog>.<db>.<table>;",
    ] {
        let d = detect_text(text);
        assert_eq!(d.dialect_of(0), Placeholders, "{text}");
        assert!(
            d.signals.iter().any(|s| s.what.contains("<placeholder>")),
            "{text}"
        );
    }
    // Comparisons and types are not placeholders.
    for text in [
        "SELECT a FROM t WHERE a <b AND c> d;",
        "SELECT a FROM t WHERE a < b;",
        "CREATE TABLE t (a ARRAY<STRING>, m MAP<STRING, ARRAY<INT>>) WITH ('connector' = 'datagen');",
        "SELECT CAST(a AS ARRAY<INT>) FROM t WHERE x <> y;",
        "SELECT * FROM t WHERE a = '<value>';",
        "SELECT * FROM <table\nname>;",
    ] {
        assert_eq!(dialects(text), [Flink], "{text}");
    }
}

/// The dialects that name the file's stretches, in order.
fn stretch_names(text: &str) -> Vec<Vec<Dialect>> {
    detect_text(text)
        .stretches
        .iter()
        .map(|s| s.dialects.clone())
        .collect()
}

#[test]
fn snowflake_is_named_for_its_own_tells_and_the_shared_ones() {
    let snowflake = "CREATE OR REPLACE TABLE raw (id NUMBER(38, 0), amount NUMBER(10, 2));\n\
        SELECT id, f.value::varchar FROM raw, LATERAL FLATTEN(input => raw.items) f;\n";
    assert_eq!(stretch_names(snowflake), vec![vec![Snowflake]]);
    let copy = "COPY INTO raw FROM @my_stage FILE_FORMAT = (TYPE = 'JSON');\n";
    assert_eq!(stretch_names(copy), vec![vec![Snowflake]]);
    let warehouse = "USE WAREHOUSE compute_wh;\nCREATE STAGE my_stage URL = 's3://b/p';\n";
    assert_eq!(stretch_names(warehouse), vec![vec![Snowflake]]);
}

#[test]
fn shared_tells_alone_name_no_pair_of_databases() {
    // NUMBER (Oracle, Snowflake) in one statement, `::` (PostgreSQL, Snowflake) in the other.
    let text = "CREATE TABLE raw (id NUMBER(38, 0), amount NUMBER(10, 2));\n\
        SELECT id, amount::varchar FROM raw;\n";
    assert_eq!(stretch_names(text), vec![vec![OtherDatabase]]);
    // A database's own tell keeps its name: VARCHAR2 is Oracle's alone.
    let oracle = "CREATE TABLE raw (id NUMBER(38, 0), name VARCHAR2(10));\n\
        SELECT id, amount::varchar FROM raw;\n";
    assert_eq!(stretch_names(oracle), vec![vec![Oracle, Postgres]]);
}

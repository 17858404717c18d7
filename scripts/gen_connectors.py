#!/usr/bin/env python3
"""Generate rules/data/connectors/*.yaml and rules/data/formats/*.yaml: the option catalogs of
Flink's connectors and formats, as their factories declare them.

The built-in connectors and formats come from the Flink release itself, read through its own
classes (the release jars that PyFlink ships, `pip install apache-flink==2.3.0`):
scripts/FactoryOptionsDump.java loads every `org.apache.flink.table.factories.Factory` on the
class path (Java's ServiceLoader, as Flink's FactoryUtil discovers them) and prints what
FactoryUtil asks each factory: `factoryIdentifier()`, `requiredOptions()`, `optionalOptions()`,
`forwardOptions()`, and per ConfigOption its key, value class, list-ness, default and fallback
keys. This is exact: it is what Flink validates against.

Connectors outside the Flink release (kafka, upsert-kafka, ...) come from their own repositories'
 sources: `--sources NAME=DIR` reads the `.java` files of DIR (saved from the connector's repository
at a named commit, `--source-info NAME=REPO@COMMIT:PATH,...`), parses their `ConfigOptions.key(...)`
declarations (key, type, default, fallback and deprecated keys; enum values from enums declared
in DIR) and the factory's `requiredOptions()` / `optionalOptions()` / `forwardOptions()`, and
notes `helper.validateExcept(PREFIX)` (a family of keys the connector passes on, such as
Kafka's `properties.*`). What the parser cannot read exactly (an enum declared elsewhere) is
typed `string`: flinklint then does not check its values.

It then writes docs/connectors.md from every catalog under rules/data/ (needs PyYAML).

The catalogs read from sources, and how (each folder holds the named files, saved with
`git show COMMIT:PATH` from a clone of the repository; Flink's LookupOptions.java and
DeliveryGuarantee.java, which several factories use, from apache/flink):
    hbase-2.2   apache/flink-connector-hbase v4.0.0 (4dd85053339f3cc3990237feded646f94c2f4051):
                flink-connector-hbase-2.2/.../hbase2/HBase2DynamicTableFactory.java,
                flink-connector-hbase-base/.../hbase/table/HBaseConnectorOptions.java and
                HBaseConnectorOptionsUtil.java (PROPERTIES_PREFIX); --lookup
    opensearch  apache/flink-connector-opensearch v2.0.0 (11cde7b1526b220e2836b0492fd97bcc3c81d3bd):
                flink-connector-opensearch/.../table/OpensearchDynamicSinkFactory.java,
                flink-connector-opensearch-base/.../table/OpensearchConnectorOptions.java
    mongodb     apache/flink-connector-mongodb v2.0.0 (0192c95498d4a63e2eda285505d98e994ae480c2):
                flink-connector-mongodb/.../table/MongoDynamicTableFactory.java,
                MongoConnectorOptions.java, FilterHandlingPolicy.java,
                .../source/enumerator/splitter/PartitionStrategy.java; --lookup
e.g. python3 scripts/gen_connectors.py --sources DIR --repository apache/flink-connector-hbase
         --commit 4dd8505... --release 4.0.0 --lookup --file NAME=REPO_PATH ...

`--changelog-only` rewrites every catalog's `changelog:` block from the CHANGELOG table below.

Usage:
    python3 scripts/gen_connectors.py PYFLINK_LIB_DIR        # runs the dump (needs Java 17)
    python3 scripts/gen_connectors.py --dump dump.jsonl      # reuse a dump
    python3 scripts/gen_connectors.py --docs-only            # only docs/connectors.md
    options: --out-dir rules/data  --save-dump FILE

PYFLINK_LIB_DIR is e.g. .oracle-venv/lib/python3.11/site-packages/pyflink/lib.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Option holder classes whose static ConfigOptions the dump also lists: templates a factory
# expands itself (datagen's `fields.#.kind`: `#` is a physical column's name).
DECLARED = ["org.apache.flink.connector.datagen.table.DataGenConnectorOptions"]

# The built-in factories the catalogs cover, by identifier (connectors, then formats).
CONNECTORS = ["datagen", "print", "blackhole", "filesystem"]
FORMATS = ["csv", "json", "raw", "debezium-json", "canal-json", "maxwell-json", "ogg-json"]

# Where each factory's source lives in apache/flink (for readers; the data comes from the jar).
SOURCE_FILES = {
    "org.apache.flink.connector.datagen.table.DataGenTableSourceFactory":
        "flink-table/flink-table-api-java/src/main/java/org/apache/flink/connector/datagen/table/DataGenTableSourceFactory.java",
    "org.apache.flink.connector.print.table.PrintTableSinkFactory":
        "flink-table/flink-table-api-java/src/main/java/org/apache/flink/connector/print/table/PrintTableSinkFactory.java",
    "org.apache.flink.connector.blackhole.table.BlackHoleTableSinkFactory":
        "flink-table/flink-table-api-java/src/main/java/org/apache/flink/connector/blackhole/table/BlackHoleTableSinkFactory.java",
    "org.apache.flink.connector.file.table.FileSystemTableFactory":
        "flink-connectors/flink-connector-files/src/main/java/org/apache/flink/connector/file/table/FileSystemTableFactory.java",
    "org.apache.flink.formats.csv.CsvFormatFactory":
        "flink-formats/flink-csv/src/main/java/org/apache/flink/formats/csv/CsvFormatFactory.java",
    "org.apache.flink.formats.csv.CsvFileFormatFactory":
        "flink-formats/flink-csv/src/main/java/org/apache/flink/formats/csv/CsvFileFormatFactory.java",
    "org.apache.flink.formats.json.JsonFormatFactory":
        "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/JsonFormatFactory.java",
    "org.apache.flink.formats.raw.RawFormatFactory":
        "flink-table/flink-table-runtime/src/main/java/org/apache/flink/formats/raw/RawFormatFactory.java",
    "org.apache.flink.formats.json.debezium.DebeziumJsonFormatFactory":
        "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/debezium/DebeziumJsonFormatFactory.java",
    "org.apache.flink.formats.json.canal.CanalJsonFormatFactory":
        "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/canal/CanalJsonFormatFactory.java",
    "org.apache.flink.formats.json.maxwell.MaxwellJsonFormatFactory":
        "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/maxwell/MaxwellJsonFormatFactory.java",
    "org.apache.flink.formats.json.ogg.OggJsonFormatFactory":
        "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/ogg/OggJsonFormatFactory.java",
}

# How a factory checks its options beyond FactoryUtil's TableFactoryHelper#validate(), read from
# its source (the file named above).
VALIDATION = {
    # DataGenTableSourceFactory#createDynamicTableSource expands `fields.#.*` per physical column
    # and calls FactoryUtil.validateFactoryOptions and validateUnconsumedKeys itself.
    "datagen": "per-column",
    # FileSystemTableFactory#validate: helper.validateExcept(format + "."): every key under the
    # chosen format's prefix passes the connector's check.
    "filesystem": "format-prefix-lenient",
}

# Metadata keys, in the order the classes declare them (Flink lists them in that order), with
# their types: Kafka's from KafkaDynamicSource.ReadableMetadata and KafkaDynamicSink.
# WritableMetadata (flink-connector-kafka, the commit its catalog names; upsert-kafka reads
# through the same source); canal-json's from CanalJsonDecodingFormat.ReadableMetadata (the
# Flink release); json, csv and raw declare none.
KAFKA_METADATA = """metadata_complete: true
value_format_metadata: true
source_class: "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource"
metadata:
  - {key: "topic", type: "STRING NOT NULL"}
  - {key: "partition", type: "INT NOT NULL"}
  - {key: "headers", type: "MAP<STRING, BYTES> NOT NULL", write: true}
  - {key: "leader-epoch", type: "INT"}
  - {key: "offset", type: "BIGINT NOT NULL"}
  - {key: "timestamp", type: "TIMESTAMP_LTZ(3) NOT NULL", write: true}
  - {key: "timestamp-type", type: "STRING NOT NULL"}"""
NO_METADATA = "metadata_complete: true\nmetadata: []"
# The filesystem source's keys (FileSystemTableSource.ReadableFileInfo; verified with Flink
# 2.3.0: it offers no format keys); datagen reads no metadata (verified with Flink 2.3.0).
FILESYSTEM_METADATA = """metadata_complete: true
source_class: "org.apache.flink.connector.file.table.FileSystemTableSource"
metadata:
  - {key: "file.path", type: "STRING NOT NULL"}
  - {key: "file.name", type: "STRING NOT NULL"}
  - {key: "file.size", type: "BIGINT NOT NULL"}
  - {key: "file.modification-time", type: "TIMESTAMP_LTZ(3) NOT NULL"}"""
DATAGEN_METADATA = """metadata_complete: true
source_summary: "DataGenTableSource"
metadata: []"""
# The JSON CDC formats' keys and types as Flink 2.3.0's classes declare them
# (DebeziumJsonDecodingFormat.ReadableMetadata, MaxwellJsonDecodingFormat.ReadableMetadata,
# OggJsonDecodingFormat.ReadableMetadata, CanalJsonDecodingFormat.ReadableMetadata), printed by
# scripts/MetadataDump.java from the release jars (`--check-metadata PYFLINK_LIB_DIR` compares).
DEBEZIUM_JSON_METADATA = """metadata_complete: true
metadata:
  - {key: "schema", type: "STRING"}
  - {key: "ingestion-timestamp", type: "TIMESTAMP_LTZ(3)"}
  - {key: "source.timestamp", type: "TIMESTAMP_LTZ(3)"}
  - {key: "source.database", type: "STRING"}
  - {key: "source.schema", type: "STRING"}
  - {key: "source.table", type: "STRING"}
  - {key: "source.properties", type: "MAP<STRING, STRING>"}"""
MAXWELL_JSON_METADATA = """metadata_complete: true
metadata:
  - {key: "database", type: "STRING"}
  - {key: "table", type: "STRING"}
  - {key: "primary-key-columns", type: "ARRAY<STRING>"}
  - {key: "ingestion-timestamp", type: "TIMESTAMP_LTZ(3)"}"""
OGG_JSON_METADATA = """metadata_complete: true
metadata:
  - {key: "table", type: "STRING"}
  - {key: "primary-keys", type: "ARRAY<STRING>"}
  - {key: "ingestion-timestamp", type: "TIMESTAMP_LTZ(6)"}
  - {key: "event-timestamp", type: "TIMESTAMP_LTZ(6)"}"""
METADATA_CLASSES = {
    "debezium-json": "org.apache.flink.formats.json.debezium.DebeziumJsonDecodingFormat$ReadableMetadata",
    "canal-json": "org.apache.flink.formats.json.canal.CanalJsonDecodingFormat$ReadableMetadata",
    "maxwell-json": "org.apache.flink.formats.json.maxwell.MaxwellJsonDecodingFormat$ReadableMetadata",
    "ogg-json": "org.apache.flink.formats.json.ogg.OggJsonDecodingFormat$ReadableMetadata",
}
METADATA = {
    ("format", "debezium-json"): DEBEZIUM_JSON_METADATA,
    ("format", "maxwell-json"): MAXWELL_JSON_METADATA,
    ("format", "ogg-json"): OGG_JSON_METADATA,
    ("connector", "kafka"): KAFKA_METADATA,
    ("connector", "upsert-kafka"): KAFKA_METADATA,
    ("connector", "filesystem"): FILESYSTEM_METADATA,
    ("connector", "datagen"): DATAGEN_METADATA,
    ("format", "json"): NO_METADATA,
    ("format", "csv"): NO_METADATA,
    ("format", "raw"): NO_METADATA,
    ("format", "canal-json"): """metadata_complete: true
metadata:
  - {key: "database", type: "STRING"}
  - {key: "table", type: "STRING"}
  - {key: "sql-type", type: "MAP<STRING, INT>"}
  - {key: "pk-names", type: "ARRAY<STRING>"}
  - {key: "ingestion-timestamp", type: "TIMESTAMP_LTZ(3)"}
  - {key: "event-timestamp", type: "TIMESTAMP_LTZ(3)"}""",
}

# Connectors whose factory requires a PRIMARY KEY, with Flink's message
# (UpsertKafkaDynamicTableFactory#validatePKConstraints).
PRIMARY_KEY_REQUIRED = {
    "upsert-kafka": "'upsert-kafka' tables require to define a PRIMARY KEY constraint. "
    "The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key. "
    "The PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete on which keys.",
}

# Groups of options a factory takes all or none of, read from its source
# (JdbcDynamicTableFactory#validateConfigOptions: checkAllOrNone, in its order).
ALL_OR_NONE = {
    "jdbc": [
        ["username", "password"],
        ["scan.partition.column", "scan.partition.num", "scan.partition.lower-bound", "scan.partition.upper-bound"],
        ["lookup.cache.max-rows", "lookup.cache.ttl"],
    ],
}

# Factories that project key.fields / value.fields-include as KafkaConnectorOptionsUtil does.
KEY_VALUE_PROJECTION = {"kafka"}

# String options that a factory's own validation checks against a list, with Flink's message
# (verified with Flink 2.3.0): JsonFormatOptionsUtil#validateTimestampFormat (every JSON
# format, both sides) and #validateEncodingFormatOptions (json's map-null-key.mode, on writes),
# RawFormatFactory#validateAndGetEndianness.
TS_ACCEPTED = {
    "accepted": ["SQL", "ISO-8601"],
    "accepted_message": "Unsupported value '{value}' for timestamp-format.standard. Supported values are [SQL, ISO-8601].",
}
ACCEPTED = {
    ("json", "timestamp-format.standard"): TS_ACCEPTED,
    ("debezium-json", "timestamp-format.standard"): TS_ACCEPTED,
    ("canal-json", "timestamp-format.standard"): TS_ACCEPTED,
    ("maxwell-json", "timestamp-format.standard"): TS_ACCEPTED,
    ("ogg-json", "timestamp-format.standard"): TS_ACCEPTED,
    ("json", "map-null-key.mode"): {
        "accepted": ["LITERAL", "FAIL", "DROP"],
        "accepted_message": "Unsupported value '{value}' for option map-null-key.mode. Supported values are [LITERAL, FAIL, DROP].",
        "accepted_on": "sink",
    },
    ("raw", "endianness"): {
        "accepted": ["big-endian", "little-endian"],
        "accepted_message": "Unsupported endianness name: {value}. Valid values of 'raw.endianness' option are 'big-endian' and 'little-endian'.",
    },
    # DataGenTableSourceFactory#createContainer: a switch on the kind, case-sensitive.
    ("datagen", "fields.#.kind"): {
        "accepted": ["random", "sequence"],
        "accepted_message": "Unsupported generator kind: {value}",
        "accepted_exact": True,
    },
}

# String options that must hold a single character (CsvCommons#validateCharacterVal, both
# sides; verified with Flink 2.3.0), with Flink's message; `unescaped`: the value is read
# through StringEscapeUtils#unescapeJava first.
SINGLE_CHARACTER = {
    ("csv", key): {
        "message": f"Option 'csv.{key}' must be a string with single character, but was: {{value}}",
        "unescaped": key == "field-delimiter",
    }
    for key in ["field-delimiter", "array-element-delimiter", "quote-character", "escape-character"]
}


def accepted_lines(ident, key, indent):
    lines = []
    a = ACCEPTED.get((ident, key))
    if a:
        lines += [f"{indent}accepted: [{', '.join(q(v) for v in a['accepted'])}]", f"{indent}accepted_message: {q(a['accepted_message'])}"]
        if a.get("accepted_on"):
            lines.append(f"{indent}accepted_on: {a['accepted_on']}")
        if a.get("accepted_exact"):
            lines.append(f"{indent}accepted_exact: true")
    c = SINGLE_CHARACTER.get((ident, key))
    if c:
        lines.append(f"{indent}single_character: {q(c['message'])}")
        if c["unescaped"]:
            lines.append(f"{indent}unescaped: true")
    return lines


# Value classes as the catalog names them.
TYPES = {
    "java.lang.String": "string",
    "java.lang.Integer": "int",
    "java.lang.Long": "long",
    "java.lang.Boolean": "boolean",
    "java.lang.Float": "float",
    "java.lang.Double": "double",
    "java.time.Duration": "duration",
    "org.apache.flink.configuration.MemorySize": "memory",
    "java.util.Map": "map",
}


def run_dump(lib):
    jars = sorted(os.path.join(lib, j) for j in os.listdir(lib) if j.endswith(".jar"))
    cp = [j for j in jars if "flink-table-planner-loader" not in j]
    out = subprocess.run(
        ["java", "-cp", os.pathsep.join(cp), os.path.join(HERE, "FactoryOptionsDump.java"), *DECLARED],
        check=True,
        capture_output=True,
        text=True,
    )
    version = commit = None
    for j in jars:
        if os.path.basename(j).startswith("flink-dist"):
            with zipfile.ZipFile(j) as z:
                for line in z.read(".flink-runtime.version.properties").decode().splitlines():
                    if line.startswith("project.version="):
                        version = line.split("=", 1)[1]
                    if line.startswith("git.commit.id="):
                        commit = line.split("=", 1)[1]
    header = json.dumps({"source": "release", "version": version, "commit": commit})
    return header + "\n" + out.stdout


def q(s):
    """A YAML scalar: JSON's double-quoted string is valid YAML."""
    return json.dumps(s, ensure_ascii=False)


def option_type(o):
    if o.get("enum") is not None:
        return "enum"
    t = TYPES.get(o["class"], "unknown")
    return t


def option_lines(o, required, forwarded, indent="  "):
    t = option_type(o)
    lines = [f"{indent}- key: {q(o['key'])}"]
    p = indent + "  "
    if o["list"]:
        lines.append(f"{p}type: list")
        lines.append(f"{p}element: {t}")
    else:
        lines.append(f"{p}type: {t}")
    if t == "enum":
        # Flink parses an enum option by comparing the value with each constant's toString(),
        # ignoring case (ConfigurationUtils#convertToEnum).
        lines.append(f"{p}values: [{', '.join(q(v) for v in o['enum_strings'])}]")
        lines.append(f"{p}enum_class: {q(o['class'])}")
    lines.append(f"{p}required: {'true' if required else 'false'}")
    if o["has_default"] and o["default"] is not None:
        lines.append(f"{p}default: {q(o['default'])}")
    if o["fallback"]:
        lines.append(f"{p}fallback_keys:")
        for f in o["fallback"]:
            lines.append(f"{p}  - key: {q(f['key'])}")
            lines.append(f"{p}    deprecated: {'true' if f['deprecated'] else 'false'}")
    if forwarded:
        lines.append(f"{p}forwarded: true")
    lines.extend(accepted_lines(CURRENT[0], o["key"], p))
    return lines


def merge_options(factories, field):
    by_key = {}
    for f in factories:
        for o in f[field] or []:
            by_key.setdefault(o["key"], o)
    return [by_key[k] for k in sorted(by_key)]


# The identifier write_catalog is writing (for accepted_lines).
CURRENT = [None]
# Changelog capabilities, as the planner's changelog mode inference sees them (the source's and
# sink's getChangelogMode, the format's decoder and encoder): written as a `changelog:` block.
# Connectors: source/sink are `insert-only`, `format` (the format's mode), `upsert` (INSERT,
# UPDATE_AFTER, DELETE by key), `all` (whatever is requested), `all-but-update-before`.
# Formats: decode/encode are `insert-only` or `all`. `follows` names the Flink source read.
CHANGELOG = {
    ("connector", "datagen"): {"source": "insert-only", "follows": "flink-table/flink-table-api-java/src/main/java/org/apache/flink/connector/datagen/table/DataGenTableSource.java"},
    ("connector", "print"): {"sink": "all", "follows": "flink-table/flink-table-api-java-bridge/src/main/java/org/apache/flink/connector/print/table/PrintTableSinkFactory.java"},
    ("connector", "blackhole"): {"sink": "all-but-update-before", "follows": "flink-table/flink-table-api-java-bridge/src/main/java/org/apache/flink/connector/blackhole/table/BlackHoleTableSinkFactory.java"},
    ("connector", "filesystem"): {"source": "format", "sink": "format", "follows": "flink-connectors/flink-connector-files/src/main/java/org/apache/flink/connector/file/table/FileSystemTableSource.java, FileSystemTableSink.java"},
    ("connector", "kafka"): {"source": "format", "sink": "format", "follows": "flink-connector-kafka/src/main/java/org/apache/flink/streaming/connectors/kafka/table/KafkaDynamicSource.java, KafkaDynamicSink.java (the value format's mode)"},
    ("connector", "upsert-kafka"): {"source": "upsert", "sink": "upsert", "follows": "flink-connector-kafka/src/main/java/org/apache/flink/streaming/connectors/kafka/table/UpsertKafkaDynamicTableFactory.java"},
    # Connectors read from their own repositories, at the commits their catalogs name.
    # JdbcDynamicTableSource#getChangelogMode: insertOnly(); JdbcDynamicTableSink: INSERT,
    # UPDATE_AFTER, DELETE (a PRIMARY KEY is needed for updates: checked when the job runs).
    ("connector", "jdbc"): {"source": "insert-only", "sink": "upsert", "follows": "flink-connector-jdbc-core/src/main/java/org/apache/flink/connector/jdbc/core/table/source/JdbcDynamicTableSource.java, sink/JdbcDynamicTableSink.java"},
    # MySqlTableSource / PostgreSQLTableSource#getChangelogMode: all(), insertOnly() with
    # 'scan.read-changelog-as-append-only.enabled' = 'true'.
    ("connector", "mysql-cdc"): {"source": "all", "insert_only_when": "scan.read-changelog-as-append-only.enabled", "follows": "flink-cdc-connect/flink-cdc-source-connectors/flink-connector-mysql-cdc/src/main/java/org/apache/flink/cdc/connectors/mysql/table/MySqlTableSource.java"},
    ("connector", "postgres-cdc"): {"source": "all", "insert_only_when": "scan.read-changelog-as-append-only.enabled", "follows": "flink-cdc-connect/flink-cdc-source-connectors/flink-connector-postgres-cdc/src/main/java/org/apache/flink/cdc/connectors/postgres/table/PostgreSQLTableSource.java"},
    # ElasticsearchDynamicSink#getChangelogMode: the requested kinds but UPDATE_BEFORE.
    ("connector", "elasticsearch-7"): {"sink": "all-but-update-before", "follows": "flink-connector-elasticsearch-base/src/main/java/org/apache/flink/connector/elasticsearch/table/ElasticsearchDynamicSink.java"},
    ("connector", "hbase-2.2"): {"source": "insert-only", "sink": "all-but-update-before", "follows": "flink-connector-hbase-base/src/main/java/org/apache/flink/connector/hbase/source/AbstractHBaseDynamicTableSource.java, flink-connector-hbase-2.2/src/main/java/org/apache/flink/connector/hbase2/sink/HBaseDynamicTableSink.java"},
    ("connector", "opensearch"): {"sink": "all-but-update-before", "follows": "flink-connector-opensearch/src/main/java/org/apache/flink/connector/opensearch/table/OpensearchDynamicSink.java"},
    # MongoDynamicTableSink#getChangelogMode: upsert() with a key (PRIMARY KEY), else
    # insertOnly(): written as upsert (flinklint then says nothing on updates).
    ("connector", "mongodb"): {"source": "insert-only", "sink": "upsert", "follows": "flink-connector-mongodb/src/main/java/org/apache/flink/connector/mongodb/table/MongoDynamicTableSource.java, MongoDynamicTableSink.java"},
    ("format", "json"): {"decode": "insert-only", "encode": "insert-only", "follows": "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/JsonFormatFactory.java"},
    ("format", "avro"): {"decode": "insert-only", "encode": "insert-only", "follows": "flink-formats/flink-avro/src/main/java/org/apache/flink/formats/avro/AvroFormatFactory.java"},
    ("format", "avro-confluent"): {"decode": "insert-only", "encode": "insert-only", "follows": "flink-formats/flink-avro-confluent-registry/src/main/java/org/apache/flink/formats/avro/registry/confluent/RegistryAvroFormatFactory.java"},
    ("format", "debezium-avro-confluent"): {"decode": "all", "encode": "all", "follows": "flink-formats/flink-avro-confluent-registry/src/main/java/org/apache/flink/formats/avro/registry/confluent/debezium/DebeziumAvroFormatFactory.java"},
    ("format", "protobuf"): {"decode": "insert-only", "encode": "insert-only", "follows": "flink-formats/flink-protobuf/src/main/java/org/apache/flink/formats/protobuf/PbFormatFactory.java"},
    ("format", "parquet"): {"decode": "insert-only", "encode": "insert-only", "follows": "flink-formats/flink-parquet/src/main/java/org/apache/flink/formats/parquet/ParquetFileFormatFactory.java"},
    ("format", "orc"): {"decode": "insert-only", "encode": "insert-only", "follows": "flink-formats/flink-orc/src/main/java/org/apache/flink/orc/OrcFileFormatFactory.java"},
    ("format", "csv"): {"decode": "insert-only", "encode": "insert-only", "follows": "flink-formats/flink-csv/src/main/java/org/apache/flink/formats/csv/CsvFormatFactory.java"},
    ("format", "raw"): {"decode": "insert-only", "encode": "insert-only", "follows": "flink-table/flink-table-runtime/src/main/java/org/apache/flink/formats/raw/RawFormatFactory.java"},
    ("format", "debezium-json"): {"decode": "all", "encode": "all", "follows": "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/debezium/DebeziumJsonFormatFactory.java"},
    ("format", "canal-json"): {"decode": "all", "encode": "all", "follows": "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/canal/CanalJsonFormatFactory.java"},
    ("format", "maxwell-json"): {"decode": "all", "encode": "all", "follows": "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/maxwell/MaxwellJsonFormatFactory.java"},
    ("format", "ogg-json"): {"decode": "all", "encode": "all", "follows": "flink-formats/flink-json/src/main/java/org/apache/flink/formats/json/ogg/OggJsonFormatFactory.java"},
}


def changelog_lines(kind, ident):
    entry = CHANGELOG.get((kind, ident))
    if not entry:
        return []
    if kind == "connector":
        out = ["# What the planner's changelog mode inference sees (getChangelogMode of the source and sink).", "changelog:"]
    else:
        out = ["# The changelog modes of the format's decoder and encoder (getChangelogMode).", "changelog:"]
    for k in ("source", "sink", "decode", "encode", "insert_only_when"):
        if k in entry:
            out.append(f"  {k}: {entry[k]}")
    out.append(f"  follows: {q(entry['follows'])}")
    return out


CHANGELOG_COMMENTS = (
    "# What the planner's changelog mode inference sees",
    "# The changelog modes of the format's decoder and encoder",
)


def refresh_changelog(out_dir):
    """Rewrites the `changelog:` block (always the last one) of every catalog under out_dir from
    CHANGELOG: for catalogs read from sources that are not at hand when only this table
    changes."""
    for kind, sub in (("connector", "connectors"), ("format", "formats")):
        d = os.path.join(out_dir, sub)
        for name in sorted(os.listdir(d)):
            if not name.endswith(".yaml"):
                continue
            path = os.path.join(d, name)
            lines = open(path).read().splitlines()
            ident = json.loads(next(l for l in lines if l.startswith("name: "))[len("name: "):])
            cut = next((i for i, l in enumerate(lines) if l.startswith(CHANGELOG_COMMENTS) or l == "changelog:"), len(lines))
            lines = lines[:cut] + changelog_lines(kind, ident)
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")


def write_catalog(path, kind, ident, factories, release, declared):
    CURRENT[0] = ident
    classes = sorted(f["class"] for f in factories)
    kinds = sorted({k for f in factories for k in f["kinds"]})
    required = merge_options(factories, "required")
    optional = [o for o in merge_options(factories, "optional") if o["key"] not in {r["key"] for r in required}]
    forwarded = {o["key"] for f in factories for o in (f["forward"] or [])}
    from_sources = factories[0].get("repository")
    if from_sources:
        out = [
            "# Generated by scripts/gen_connectors.py from the connector's sources (its ConfigOption declarations and factory); do not edit.",
            f"name: {q(ident)}",
            f"kind: {kind}",
            "source:",
            f"  repository: {factories[0]['repository']}",
            *([f"  release: {q(factories[0]['release'])}"] if factories[0].get("release") else []),
            f"  commit: {q(factories[0]['commit'])}",
            *([f"  note: {q(factories[0]['note'])}"] if factories[0].get("note") else []),
            "  factories:",
        ]
    else:
        out = [
            "# Generated by scripts/gen_connectors.py from the Flink release's own factories; do not edit.",
            f"name: {q(ident)}",
            f"kind: {kind}",
            "source:",
            "  repository: apache/flink",
            f"  release: {q(release.get('version'))}",
            f"  commit: {q(release.get('commit'))}",
            "  factories:",
        ]
    for c in classes:
        f0 = next(f for f in factories if f["class"] == c)
        out.append(f"    - class: {q(c)}")
        if f0.get("jar"):
            out.append(f"      jar: {q(f0['jar'])}")
        file = f0.get("file") or SOURCE_FILES.get(c)
        if file:
            out.append(f"      file: {q(file)}")
    out.append(f"interfaces: [{', '.join(kinds)}]")
    if kind == "connector":
        out.append(f"source_table: {'true' if 'DynamicTableSourceFactory' in kinds else 'false'}")
        out.append(f"sink_table: {'true' if 'DynamicTableSinkFactory' in kinds else 'false'}")
        # Flink's LookupTableSource is a runtime interface of the source; none of the built-in
        # connectors implements it.
        out.append(f"lookup: {'true' if factories[0].get('lookup') else 'false'}")
        out.append(f"validation: {VALIDATION.get(ident, 'factory-helper')}")
        prefixes = sorted({p for f in factories for p in f.get("prefixes", [])})
        # Keys under these prefixes pass the connector's check (helper.validateExcept(prefix)).
        out.append(f"prefixes: [{', '.join(q(p) for p in prefixes)}]")
        fmt_keys = [o["key"] for o in required + optional if o["key"] == "format" or o["key"].endswith(".format")]
        out.append(f"format_options: [{', '.join(q(k) for k in fmt_keys)}]")
    else:
        out.append(f"deserialization: {'true' if any('Deserialization' in k or 'BulkReader' in k for k in kinds) else 'false'}")
        out.append(f"serialization: {'true' if any('Serialization' in k and 'De' not in k or 'BulkWriter' in k for k in kinds) else 'false'}")
    # Metadata keys come from the sources' SupportsReadingMetadata#listReadableMetadata and
    # SupportsWritingMetadata#listWritableMetadata (METADATA below, read by hand from the
    # classes named there); elsewhere they are not known (metadata_complete stays false).
    out.extend(METADATA.get((kind, ident), "metadata: []").splitlines())
    if kind == "connector" and ident in PRIMARY_KEY_REQUIRED:
        out.append(f"primary_key_required: {q(PRIMARY_KEY_REQUIRED[ident])}")
    if kind == "connector" and ident in ALL_OR_NONE:
        out.append("all_or_none:")
        out.extend(f"  - [{', '.join(q(k) for k in g)}]" for g in ALL_OR_NONE[ident])
    if kind == "connector" and ident in KEY_VALUE_PROJECTION:
        out.append("key_value_projection: true")
    out.append("options:")
    if not required and not optional:
        out[-1] = "options: []"
    templates = []
    for o in required:
        out.extend(option_lines(o, True, o["key"] in forwarded))
    for o in optional:
        if "#" in o["key"]:
            templates.append(o)
            continue
        out.extend(option_lines(o, False, o["key"] in forwarded))
    if templates:
        out.append("# `#` is the name of a physical column; the factory expands these per column.")
        out.append("templates:")
        for o in templates:
            out.extend(option_lines(o, False, o["key"] in forwarded))
    out.extend(changelog_lines(kind, ident))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


# Constants of Flink's FactoryUtil that connectors reuse (flink-table-common).
FACTORY_UTIL = {
    "FORMAT": {"key": "format", "class": "java.lang.String"},
    "SINK_PARALLELISM": {"key": "sink.parallelism", "class": "java.lang.Integer"},
    "SOURCE_PARALLELISM": {"key": "scan.parallelism", "class": "java.lang.Integer"},
}
STRING_CONSTANTS = {"FORMAT_SUFFIX": ".format", "FactoryUtil.FORMAT_SUFFIX": ".format"}
JAVA_TYPES = {
    "stringType": "java.lang.String",
    "intType": "java.lang.Integer",
    "longType": "java.lang.Long",
    "booleanType": "java.lang.Boolean",
    "floatType": "java.lang.Float",
    "doubleType": "java.lang.Double",
    "durationType": "java.time.Duration",
    "memoryType": "org.apache.flink.configuration.MemorySize",
    "mapType": "java.util.Map",
}


def java_string(expr):
    """The value of a Java string expression of literals and known constants, or None."""
    parts = []
    for piece in re.split(r"\s*\+\s*", expr.strip()):
        m = re.fullmatch(r'"((?:[^"\\]|\\.)*)"', piece)
        if m:
            parts.append(m.group(1))
        elif piece in STRING_CONSTANTS:
            parts.append(STRING_CONSTANTS[piece])
        else:
            return None
    return "".join(parts)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$", " ", text)


def parse_enums(text, java_class):
    """Enums declared in a source: name -> (Java class name, the strings Flink compares values
    with: each constant's toString())."""
    text = strip_comments(text)
    package = re.search(r"package\s+([\w.]+);", text).group(1)
    enums = {}
    for m in re.finditer(r"enum\s+(\w+)(?:\s+implements\s+[\w, ]+)?\s*\{", text):
        name, start = m.group(1), m.end()
        depth, i = 1, start
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = text[start : i - 1]
        head = body.split(";", 1)[0]
        # Constants: at the start of the body or after a comma, at nesting depth 0.
        flat, depth = [], 0
        for ch in head:
            if ch == "(":
                depth += 1
            if depth == 0 or ch in "()":
                flat.append(ch)
            elif depth == 1 and ch == '"':
                flat.append(ch)
            elif depth == 1:
                flat.append(ch if ch not in ",(" else " ")
            if ch == ")":
                depth -= 1
        head_flat = "".join(flat)
        constants = re.findall(r"(?:^|,)\s*([A-Z][A-Z0-9_]*)\s*(\(\s*\"[^\"]*\")?", head_flat)
        if not constants:
            continue
        qualified = f"{package}.{name}" if name == java_class else f"{package}.{java_class}${name}"
        overrides = re.search(r"public String toString\(\)\s*\{\s*return\s+(\w+)\s*;", body)
        if overrides:
            if not all(lit for _, lit in constants):
                continue
            enums[name] = (qualified, [re.search(r'"([^"]*)"', lit).group(1) for _, lit in constants])
        elif "toString" not in body:
            enums[name] = (qualified, [c for c, _ in constants])
    return enums


def parse_options(text, enums):
    """ConfigOption declarations: field name -> dump-shaped option."""
    out = {}
    for m in re.finditer(r"static\s+final\s+ConfigOption<[^=]*>\s+(\w+)\s*=\s*(.*?);\s*\n", text, re.S):
        field, expr = m.group(1), " ".join(m.group(2).split())
        alias = re.fullmatch(r"FactoryUtil\.(\w+)", expr)
        if alias and alias.group(1) in FACTORY_UTIL:
            o = FACTORY_UTIL[alias.group(1)]
            out[field] = {"key": o["key"], "class": o["class"], "list": False, "has_default": False, "default": None, "fallback": []}
            continue
        km = re.match(r"ConfigOptions\.key\((.*?)\)\s*\.\s*(\w+)\((.*?)\)", expr)
        if not km:
            continue
        key = java_string(km.group(1))
        if key is None:
            continue
        method, arg = km.group(2), km.group(3)
        o = {"key": key, "list": ".asList()" in expr, "has_default": False, "default": None, "fallback": []}
        if method == "enumType":
            enum = arg.replace(".class", "").split(".")[-1]
            if enum in enums:
                o["class"], o["enum"] = enums[enum]
                o["enum_strings"] = o["enum"]
            else:
                o["class"] = "java.lang.String"
        else:
            o["class"] = JAVA_TYPES.get(method, "unknown")
        dm = re.search(r"\.defaultValue\((.*?)\)\s*\.(?:with|build)", expr + ".with")
        if dm:
            value = dm.group(1).strip()
            lit = java_string(value)
            if lit is not None:
                o["has_default"], o["default"] = True, lit
            elif re.fullmatch(r"-?\d+L?|true|false", value):
                o["has_default"], o["default"] = True, value.rstrip("L")
            elif re.fullmatch(r"\w+\.\w+", value) and o.get("enum"):
                o["has_default"] = True
        for fm in re.finditer(r"\.with(Fallback|Deprecated)Keys\((.*?)\)", expr):
            for k in re.findall(r'"([^"]*)"', fm.group(2)):
                o["fallback"].append({"key": k, "deprecated": fm.group(1) == "Deprecated"})
        out[field] = o
    return out


def method_fields(text, method):
    m = re.search(method + r"\(\)\s*\{(.*?)\n    \}", text, re.S)
    if not m:
        return None
    body = m.group(1)
    # `options.add(X)`, `set.add(LookupOptions.X)`, `requiredOptions.add(X)`.
    fields = re.findall(r"(?:[oO]ptions|\bset)\.add\(\s*(?:\w+\.)?(\w+)\s*\)", body)
    sm = re.search(r"Stream\.of\((.*?)\)", body, re.S)
    if sm:
        fields += [f.split(".")[-1].strip() for f in sm.group(1).split(",") if f.strip()]
    return fields


def factories_from_sources(directory, info):
    """Dump-shaped factories read from the Java sources of `directory`."""
    texts = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".java"):
            with open(os.path.join(directory, name)) as f:
                texts[name] = f.read()
    enums = {}
    for name, t in texts.items():
        enums.update(parse_enums(t, name[: -len(".java")]))
    options = {}
    for t in texts.values():
        options.update(parse_options(t, enums))
    # FactoryUtil's own options, imported statically by a factory.
    for field, o in FACTORY_UTIL.items():
        options.setdefault(field, {"key": o["key"], "class": o["class"], "list": False, "has_default": False, "default": None, "fallback": []})
    out = []
    for name, t in texts.items():
        im = re.search(r"String IDENTIFIER\s*=\s*\"([^\"]+)\"", t)
        ident = im.group(1) if im else None
        # A base factory whose subclass passes the identifier to its constructor
        # (Elasticsearch7DynamicTableFactory: `super("elasticsearch-7", ...)`): --identifier.
        if ident is None and "requiredOptions()" in t and info.get("identifier"):
            ident = info["identifier"]
        if not ident or "requiredOptions()" not in t:
            continue
        kinds = [k for k in ("DynamicTableSourceFactory", "DynamicTableSinkFactory") if re.search(r"implements[^{]*" + k, t)]
        def pick(method):
            fields = method_fields(t, method) or []
            missing = [f for f in fields if f not in options]
            if missing:
                sys.exit(f"{name}: {method}() names options the sources do not declare: {missing}")
            return [options[f] for f in fields]
        # validateExcept(A, B, ...): each argument a (possibly qualified) String constant.
        prefixes = [a.strip().split(".")[-1] for args in re.findall(r"validateExcept\(([^)]*)\)", t) for a in args.split(",") if a.strip()]
        prefix_values = []
        for p in prefixes:
            pm = None
            for other in texts.values():
                pm = pm or re.search(p + r"\s*=\s*\"([^\"]+)\"", other)
            if pm:
                prefix_values.append(pm.group(1))
        cls = re.search(r"package\s+([\w.]+);", t).group(1) + "." + name[: -len(".java")]
        out.append({
            "identifier": ident,
            "class": cls,
            "jar": None,
            "file": info["files"].get(name),
            "kinds": kinds,
            "required": pick("requiredOptions"),
            "optional": pick("optionalOptions"),
            "forward": pick("forwardOptions"),
            "prefixes": sorted(set(prefix_values)),
            "repository": info["repository"],
            "release": info.get("release"),
            "note": info.get("note"),
            "lookup": info.get("lookup", False),
            "commit": info["commit"],
        })
    return out


def write_docs(data_dir, path):
    import yaml

    def load(kind):
        d = os.path.join(data_dir, kind)
        out = []
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if name.endswith(".yaml"):
                with open(os.path.join(d, name)) as f:
                    out.append(yaml.safe_load(f))
        return out

    def type_of(o):
        t = o["type"]
        if t == "list":
            return f"list of {o.get('element', 'string')}"
        if t == "enum":
            return "enum: " + ", ".join(f"`{v}`" for v in o.get("values", []))
        return t

    def table(options):
        rows = ["| key | type | required | default |", "|---|---|---|---|"]
        for o in options:
            default = f"`{o['default']}`" if "default" in o else ""
            fallbacks = "".join(f" (also `{f['key']}`)" for f in o.get("fallback_keys", []))
            rows.append(f"| `{o['key']}`{fallbacks} | {type_of(o)} | {'yes' if o.get('required') else ''} | {default} |")
        return rows

    def metadata(c, lead=""):
        if not c.get("metadata_complete"):
            return []
        rows = c.get("metadata") or []
        if not rows:
            return ["Offers no metadata keys.", ""]
        lines = ["Metadata keys" + (f" (offered by Kafka as `{lead}<key>`)" if lead else "") + ":", "", "| key | type | read | write |", "|---|---|---|---|"]
        for m in rows:
            lines.append(f"| `{m['key']}` | `{m['type']}` | {'yes' if m.get('read', True) else ''} | {'yes' if m.get('write') else ''} |")
        return lines + [""]

    def source(c):
        s = c["source"]
        lines = [f"Source: {s['repository']} {s.get('release') or ''} (commit `{s.get('commit')}`):"]
        if s.get("note"):
            lines = [f"{s['note']}.", ""] + lines
        for f in s.get("factories", []):
            where = f" ({f['file']})" if f.get("file") else ""
            lines.append(f"- `{f['class']}`{where}")
        return lines

    out = [
        "# Connector and format option catalogs",
        "",
        "<!-- Generated by scripts/gen_connectors.py from rules/data/connectors/ and rules/data/formats/; do not edit. -->",
        "",
        "The CO rules check a table's `WITH` options against these catalogs, as Flink's",
        "`FactoryUtil` checks them when a statement reads or writes the table. Each catalog is",
        "generated from the factories' own `ConfigOption` declarations (the built-in ones through",
        "reflection on the Flink release's jars) and names the classes and commit it was read from.",
        "A connector that is not listed here is not checked.",
        "",
    ]
    connectors, formats = load("connectors"), load("formats")
    out.append("| connector | source | sink | options |")
    out.append("|---|---|---|---|")
    for c in connectors:
        out.append(f"| [`{c['name']}`](#connector-{c['name']}) | {'yes' if c.get('source_table') else 'no'} | {'yes' if c.get('sink_table') else 'no'} | {len(c.get('options') or []) + len(c.get('templates') or [])} |")
    out.append("")
    out.append("| format | options |")
    out.append("|---|---|")
    for c in formats:
        out.append(f"| [`{c['name']}`](#format-{c['name']}) | {len(c.get('options') or [])} |")
    out.append("")
    for c in connectors:
        out += [f'<a id="connector-{c["name"]}"></a>', f"## Connector `{c['name']}`", ""]
        out += source(c) + [""]
        if c.get("validation") == "format-prefix-lenient":
            out += ["Every key under the chosen format's prefix (`<format>.`) passes the connector's check; the format reads its own options.", ""]
        if c.get("validation") == "per-column":
            out += ["`#` in a key stands for the name of a physical column; the factory expands these keys per column.", ""]
        opts = (c.get("options") or []) + (c.get("templates") or [])
        out += (table(opts) if opts else ["Takes no option but `connector`."]) + [""]
        out += metadata(c)
        if c.get("primary_key_required"):
            out += ["Requires a `PRIMARY KEY`.", ""]
    for c in formats:
        out += [f'<a id="format-{c["name"]}"></a>', f"## Format `{c['name']}`", ""]
        out += source(c) + [""]
        out += ["Keys are written under the format's prefix: `'" + c["name"] + ".<key>'`.", ""]
        opts = c.get("options") or []
        out += (table(opts) if opts else ["Takes no options."]) + [""]
        out += metadata(c, "value.")
    with open(path, "w") as f:
        f.write("\n".join(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib", nargs="?")
    ap.add_argument("--dump")
    ap.add_argument("--save-dump")
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "rules", "data"))
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs", "connectors.md"))
    ap.add_argument("--docs-only", action="store_true")
    ap.add_argument("--sources", help="a folder of a connector's Java sources")
    ap.add_argument("--repository", help="with --sources: the repository they come from")
    ap.add_argument("--commit", help="with --sources: the commit")
    ap.add_argument("--path", help="with --sources: their folder in the repository")
    ap.add_argument("--release", help="with --sources: the connector release the commit is")
    ap.add_argument("--identifier", help="with --sources: the identifier of a base factory that declares none")
    ap.add_argument("--note", help="with --sources: how the catalog was read (written into it)")
    ap.add_argument("--lookup", action="store_true", help="with --sources: the source serves lookup joins")
    ap.add_argument("--file", action="append", default=[], metavar="NAME=PATH",
                    help="with --sources: the repository path of one file of the folder (default: --path/NAME)")
    ap.add_argument("--changelog-only", action="store_true", help="only rewrite every catalog's changelog: block from CHANGELOG")
    args = ap.parse_args()
    if args.changelog_only:
        refresh_changelog(args.out_dir)
        write_docs(args.out_dir, args.docs)
        return
    if args.sources:
        files = {n: f"{args.path}/{n}" for n in os.listdir(args.sources)}
        files.update(dict(f.split("=", 1) for f in args.file))
        info = {"repository": args.repository, "commit": args.commit, "files": files, "release": args.release,
                "identifier": args.identifier, "note": args.note, "lookup": args.lookup}
        for f in factories_from_sources(args.sources, info):
            write_catalog(os.path.join(args.out_dir, "connectors", f["identifier"] + ".yaml"), "connector", f["identifier"], [f], {}, {})
        write_docs(args.out_dir, args.docs)
        return
    if args.docs_only:
        write_docs(args.out_dir, args.docs)
        return
    if args.dump:
        text = open(args.dump).read()
    elif args.lib:
        text = run_dump(args.lib)
    else:
        ap.error("give PYFLINK_LIB_DIR or --dump")
    if args.save_dump:
        with open(args.save_dump, "w") as f:
            f.write(text)
    rows = [json.loads(l) for l in text.splitlines() if l.strip()]
    release = rows[0] if rows and rows[0].get("source") == "release" else {}
    factories = [r for r in rows if "identifier" in r]
    declared = {r["declared"]: r["options"] for r in rows if "declared" in r}
    for ident in CONNECTORS:
        fs = [f for f in factories if f["identifier"] == ident and any("TableS" in k for k in f["kinds"])]
        if not fs:
            sys.exit(f"no connector factory {ident}")
        write_catalog(os.path.join(args.out_dir, "connectors", ident + ".yaml"), "connector", ident, fs, release, declared)
    for ident in FORMATS:
        fs = [f for f in factories if f["identifier"] == ident and any("Format" in k for k in f["kinds"])]
        if not fs:
            sys.exit(f"no format factory {ident}")
        write_catalog(os.path.join(args.out_dir, "formats", ident + ".yaml"), "format", ident, fs, release, declared)
    write_docs(args.out_dir, args.docs)


if __name__ == "__main__":
    main()

"""Connector options of the generated tables: Kafka, Upsert Kafka, JDBC, filesystem and
datagen, with their formats, and the topic names of a domain."""

KAFKA_SERVERS = ["kafka:9092", "kafka:9092", "broker:29092", "kafka-0.kafka:9092,kafka-1.kafka:9092"]
REGISTRY = "http://registry:8081"
JDBC_URLS = ["jdbc:postgresql://pg:5432/analytics", "jdbc:mysql://mysql:3306/ref",
             "jdbc:postgresql://dwh:5432/dwh"]
BUCKETS = ["s3://acme-lake", "s3a://lake-prod", "hdfs:///warehouse", "gs://lake-eu"]


def kafka_source_options(rng, topic, group, fmt=None):
    fmt = fmt or rng.choice(["json", "json", "json", "avro-confluent", "csv"])
    opts = [("connector", "kafka"), ("topic", topic),
            ("properties.bootstrap.servers", rng.choice(KAFKA_SERVERS))]
    mode = rng.choice(["group-offsets", "group-offsets", "earliest-offset", "latest-offset",
                       "latest-offset", "timestamp"])
    if mode == "group-offsets" or rng.random() < 0.2:
        opts.append(("properties.group.id", group))
    opts.append(("scan.startup.mode", mode))
    if mode == "group-offsets" and rng.random() < 0.3:
        opts.append(("properties.auto.offset.reset", rng.choice(["earliest", "latest"])))
    elif mode == "timestamp":
        opts.append(("scan.startup.timestamp-millis", str(1714521600000 + 86400000 * rng.randrange(300))))
    opts += format_options(rng, fmt, "")
    return opts


def format_options(rng, fmt, prefix):
    key = prefix + "format" if prefix else "format"
    opts = [(key, fmt)]
    p = prefix + fmt if prefix else fmt
    if fmt == "json":
        if rng.random() < 0.2:
            opts.append((f"{p}.ignore-parse-errors", "true"))
        if rng.random() < 0.1:
            opts.append((f"{p}.timestamp-format.standard", "ISO-8601"))
    elif fmt == "avro-confluent":
        opts.append((f"{p}.url", REGISTRY))
    elif fmt == "csv":
        opts.append((f"{p}.ignore-parse-errors", "true"))
        if rng.random() < 0.5:
            opts.append((f"{p}.field-delimiter", "|"))
    return opts


def kafka_sink_options(rng, topic):
    fmt = rng.choice(["json", "json", "avro-confluent"])
    opts = [("connector", "kafka"), ("topic", topic),
            ("properties.bootstrap.servers", rng.choice(KAFKA_SERVERS))]
    if rng.random() < 0.3:
        opts.append(("sink.delivery-guarantee", rng.choice(["at-least-once", "exactly-once"])))
        if opts[-1][1] == "exactly-once":
            opts.append(("sink.transactional-id-prefix", topic.replace(".", "-")))
    if rng.random() < 0.15:
        opts.append(("sink.partitioner", rng.choice(["default", "round-robin", "fixed"])))
    return opts + format_options(rng, fmt, "")


def upsert_kafka_options(rng, topic, except_key=None):
    fmt = rng.choice(["json", "avro-confluent"])
    opts = [("connector", "upsert-kafka"), ("topic", topic),
            ("properties.bootstrap.servers", rng.choice(KAFKA_SERVERS))]
    opts += format_options(rng, fmt, "key.")
    opts += format_options(rng, fmt, "value.")
    if except_key if except_key is not None else rng.random() < 0.4:
        opts.append(("value.fields-include", "EXCEPT_KEY"))
    if rng.random() < 0.15:
        opts.append(("sink.buffer-flush.max-rows", str(rng.choice([500, 1000, 5000]))))
        opts.append(("sink.buffer-flush.interval", rng.choice(["1s", "2s", "5s"])))
    return opts


def jdbc_options(rng, table, lookup=False, sink=False):
    opts = [("connector", "jdbc"), ("url", rng.choice(JDBC_URLS)), ("table-name", table)]
    if rng.random() < 0.35:
        opts.append(("username", rng.choice(["flink", "flink_rw", "svc_streaming"])))
        # JdbcDynamicTableFactory takes username and password together; the password is a
        # reference the deployment fills in, never a literal (CO007, CO008).
        opts.append(("password", "${secret_values.jdbc_password}"))
    if lookup and rng.random() < 0.7:
        opts.append(("lookup.cache", "PARTIAL"))
        opts.append(("lookup.partial-cache.max-rows", str(rng.choice([10000, 50000, 200000]))))
        opts.append(("lookup.partial-cache.expire-after-write", rng.choice(["10 min", "1 h", "30 min"])))
    if lookup and rng.random() < 0.2:
        opts.append(("lookup.max-retries", "3"))
    if sink and rng.random() < 0.35:
        opts.append(("sink.buffer-flush.max-rows", str(rng.choice([100, 500, 1000]))))
        opts.append(("sink.buffer-flush.interval", rng.choice(["1s", "2s", "5s"])))
        if rng.random() < 0.4:
            opts.append(("sink.max-retries", "5"))
    return opts


def filesystem_options(rng, path, streaming_sink=False, partitioned=True, fmt=None):
    fmt = fmt or rng.choice(["parquet", "parquet", "orc", "json", "avro"])
    opts = [("connector", "filesystem"), ("path", path), ("format", fmt)]
    if streaming_sink:
        if rng.random() < 0.5:
            opts.append(("sink.rolling-policy.file-size", rng.choice(["128MB", "256MB", "64MB"])))
        if rng.random() < 0.5:
            opts.append(("sink.rolling-policy.rollover-interval", rng.choice(["15 min", "30 min", "1 h"])))
        if partitioned:
            opts.append(("sink.partition-commit.policy.kind", "success-file"))
            if rng.random() < 0.5:
                opts.append(("sink.partition-commit.delay", rng.choice(["1 h", "0 s", "10 min"])))
        if rng.random() < 0.2:
            opts.append(("auto-compaction", "true"))
    return opts


def datagen_options(rng, table):
    opts = [("connector", "datagen"), ("rows-per-second", str(rng.choice([10, 100, 1000, 5000])))]
    key = table.cols[0]
    opts.append((f"fields.{key.name}.kind", "sequence"))
    opts.append((f"fields.{key.name}.start", "1"))
    opts.append((f"fields.{key.name}.end", str(rng.choice([100000, 1000000, 10000000]))))
    for c in table.cols[1:]:
        if c.kind != "physical":
            continue
        if c.type == "STRING" and rng.random() < 0.5:
            opts.append((f"fields.{c.name}.length", str(rng.choice([4, 8, 12]))))
        elif c.type in ("INT", "BIGINT") and rng.random() < 0.5:
            opts.append((f"fields.{c.name}.min", "0"))
            opts.append((f"fields.{c.name}.max", str(rng.choice([10, 100, 1000]))))
        elif c.type.startswith("TIMESTAMP") and rng.random() < 0.5:
            opts.append((f"fields.{c.name}.max-past", rng.choice(["5 s", "1 min"])))
    return opts


def topic_of(d, suffix=""):
    """The topic of the domain's events: <team>.<stream>[.<suffix>].v1."""
    return f"{d.team}.{d.stem}" + (f".{suffix}" if suffix else "") + ".v1"

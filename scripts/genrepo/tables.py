"""The CREATE TABLE statements of a domain: its event stream as a Kafka source (plain or
Debezium), its JDBC dimension tables, its versioned table, and sinks shaped by a query."""
from genrepo.connectors import jdbc_options, kafka_source_options, topic_of, upsert_kafka_options
from genrepo.sql import Col, Table, title


def event_columns(rng, d, time_kind):
    """The physical columns of the domain's events and how its event time is declared.

    time_kind: 'physical' (a TIMESTAMP(3) column), 'epoch' (BIGINT milliseconds and a computed
    TIMESTAMP_LTZ(3) column) or 'none' (no event time)."""
    cols = [Col(f.name, f.type) for f in d.fields]
    if time_kind == "physical":
        cols.append(Col(d.time, "TIMESTAMP(3)"))
    elif time_kind == "epoch":
        cols.append(Col(d.time + "_ms", "BIGINT", comment="epoch milliseconds" if rng.random() < 0.3 else None))
        cols.append(Col(d.time, kind="computed", expr=f"TO_TIMESTAMP_LTZ({d.time}_ms, 3)"))
    return cols


def event_source(env, d, name, *, time_kind="physical", proctime=None, watermark=True,
                 metadata=True, fmt=None, temporary=None, cdc=False):
    """A Kafka source of the domain's events: the domain's fields, the event time
    (`time_kind`, see event_columns) with a watermark, sometimes Kafka's metadata columns, a
    PROCTIME() column (`proctime`: True, False, or None for sometimes); with `cdc` a Debezium
    changelog keyed by the domain's key."""
    rng = env.rng
    cols = event_columns(rng, d, time_kind)
    if metadata and rng.random() < 0.2:
        cols.append(Col("kafka_ts" if rng.random() < 0.5 else "ingest_time", "TIMESTAMP_LTZ(3)",
                        "metadata", meta="timestamp", virtual=True))
        if rng.random() < 0.3:
            cols.append(Col("kafka_partition", "INT", "metadata", meta="partition", virtual=True))
            cols.append(Col("kafka_offset", "BIGINT", "metadata", meta="offset", virtual=True))
    if cdc:
        cols.append(Col("changed_at", "TIMESTAMP_LTZ(3)", "metadata", meta="value.source.timestamp",
                        virtual=True))
    pt = None
    if proctime or (proctime is None and rng.random() < 0.3):
        pt = rng.choice(["proc_time", "proc_time", "proctime", "pt"])
        cols.append(Col(pt, kind="computed", expr="PROCTIME()"))
    wm = None
    if watermark and time_kind != "none":
        wm = (d.time, rng.choice(["INTERVAL '5' SECOND", "INTERVAL '10' SECOND", "INTERVAL '30' SECOND",
                                  "INTERVAL '1' MINUTE", "INTERVAL '2' SECOND"]))
    group = f"flink-{d.stem.replace('_', '-')}-{rng.randrange(100, 999)}"
    if cdc:
        opts = kafka_source_options(rng, topic_of(d, "cdc"), group, fmt="debezium-json")
    else:
        opts = kafka_source_options(rng, topic_of(d), group, fmt=fmt)
    comment = None
    if rng.random() < 0.1:
        comment = f"{title(d.stem).capitalize()} published by the {d.team} service"
    if temporary is None:
        temporary = rng.random() < 0.2
    return Table(name, cols, opts, pk=[d.key().name] if cdc else None, watermark=wm, comment=comment,
                 temporary=temporary, proctime=pt)


def dim_table(env, d, dim, name, *, temporary=False):
    """A JDBC dimension table keyed by the dimension's key, with a lookup cache."""
    rng = env.rng
    cols = [Col(dim.key, dim.key_type)] + [Col(a, t) for a, t in dim.attrs]
    if rng.random() < 0.4:
        cols.append(Col("updated_at", "TIMESTAMP(3)"))
    opts = jdbc_options(rng, f"{d.name}.{dim.name}" if rng.random() < 0.5 else dim.name, lookup=True)
    return Table(name, cols, opts, pk=[dim.key], temporary=temporary,
                 if_not_exists=not temporary and rng.random() < 0.2)


def versioned_table(env, d, name, *, temporary=False):
    """An Upsert Kafka table with a primary key and an event time: a versioned table."""
    rng = env.rng
    v = d.versioned
    cols = [Col(v.key, v.key_type)] + [Col(a, t) for a, t in v.attrs] + [Col(v.time, "TIMESTAMP(3)")]
    opts = upsert_kafka_options(rng, f"reference.{v.name}.v1", except_key=False)
    return Table(name, cols, opts, pk=[v.key], watermark=(v.time, "INTERVAL '0' SECOND"),
                 temporary=temporary)


def sink_from(name, items, options, *, pk=None, partitions=None, temporary=False):
    """A sink table whose columns are the (name, type) pairs a query produces."""
    cols = [Col(n, t) for n, t in items]
    return Table(name, cols, options, pk=pk, partitions=partitions, temporary=temporary)

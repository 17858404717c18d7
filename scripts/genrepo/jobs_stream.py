"""Continuous jobs over a domain's event stream: window aggregations, lookup joins, event-time
temporal joins, deduplication and Top-N, fan-out through a view, and changelog aggregation of
a Debezium source. Each job_* function writes one script and returns its Job."""
from genrepo.connectors import (BUCKETS, filesystem_options, jdbc_options, kafka_sink_options,
                                upsert_kafka_options)
from genrepo.job import (WINDOWS, Job, agg_sink_options, header, maybe_comment, set_block,
                         statement_set, window_call)
from genrepo.sql import filter_clause, measure_aggs, select, select_list, sum_type, title
from genrepo.tables import dim_table, event_source, sink_from, versioned_table


def job_window_agg(env, d, name):
    """Window aggregation over the domain's events, sometimes for two window sizes at once
    (a statement set)."""
    j = Job(env, d, "aggregations", name)
    rng, st = j.rng, j.st
    wins = rng.sample(WINDOWS, 2 if rng.random() < 0.2 else 1)
    if len(wins) == 2 and wins[0][2] == wins[1][2]:
        wins = wins[:1]
    cat = rng.choice(d.of("cat"))
    sizes = " and ".join(w[2] for w in wins)
    j.add(header(rng, d, name, [f"{title(cat.name).capitalize()} statistics of {title(d.stem)} per window ({sizes})."]))
    j.add(set_block(rng, name))
    j.functions()
    src = j.source(time_kind=rng.choice(["physical", "physical", "epoch"]))
    aggs = [("COUNT(*) AS event_cnt", "event_cnt", "BIGINT")] + measure_aggs(rng, d, rng.randint(1, 2))
    if rng.random() < 0.2:
        ids = d.of("id") or [d.key()]
        aggs.append((f"COUNT(DISTINCT {ids[0].name}) AS distinct_{ids[0].name}s", f"distinct_{ids[0].name}s", "BIGINT"))
    keys = [cat]
    if rng.random() < 0.2 and len(d.of("cat")) > 1:
        keys = d.of("cat")[:2]
    items = [("window_start", "TIMESTAMP(3)"), ("window_end", "TIMESTAMP(3)")] + \
            [(k.name, k.type) for k in keys] + [(n, t) for _, n, t in aggs]
    sinks = []
    for win in wins:
        sink_name = j.names(f"{d.stem}_{keys[0].name}_{win[2]}", f"{d.stem}_{keys[0].name}_stats")
        conn, opts = agg_sink_options(rng, d, sink_name, updating=False)
        pk = ["window_start", "window_end"] + [k.name for k in keys] if conn == "upsert-kafka" or \
            (conn == "jdbc" and rng.random() < 0.5) else None
        j.table(sink_from(sink_name, items, opts, pk=pk))
        sinks.append(sink_name)
    source = src.name
    where = filter_clause(rng, d)
    if rng.random() < 0.3 and where:
        view = j.names(f"{d.stem}_filtered", f"valid_{d.stem}")
        cols = [f.name for f in d.fields] + [d.time]
        j.add(f"CREATE TEMPORARY VIEW {view} AS\n{select(cols, st)}\nFROM {src.name}\nWHERE {where};")
        source, where = view, None
    sel = ["window_start", "window_end"] + [k.name for k in keys] + [a for a, _, _ in aggs]
    group = ", ".join(["window_start", "window_end"] + [k.name for k in keys])
    inserts = []
    for win, sink_name in zip(wins, sinks):
        q = f"INSERT INTO {sink_name}\n{select(sel, st)}\nFROM {window_call(source, d.time, win)}"
        if where:
            q += f"\nWHERE {where}"
        inserts.append(q + f"\nGROUP BY {group};")
    if len(inserts) == 1:
        j.add(maybe_comment(rng, 0.15) + inserts[0])
    else:
        j.add(statement_set(inserts))
    return j


def job_enrichment(env, d, name):
    """Lookup joins of the events with dimension tables (processing time)."""
    j = Job(env, d, "enrichment", name)
    rng, st = j.rng, j.st
    refs = d.of("ref")
    j.add(header(rng, d, name, [f"Enrich {title(d.stem)} with {' and '.join(title(r.ref) for r in refs)} attributes."]))
    j.add(set_block(rng, name))
    j.functions()
    src = j.source(proctime=True)
    dims = []
    for r in refs:
        dim = d.dim(r.ref)
        use_catalog = d.name in env.histories and rng.random() < 0.7
        dname = env.histories[d.name].dims.get(dim.name) if use_catalog else None
        if not dname:
            dname = j.names(dim.name, f"{dim.name}_lookup", f"jdbc_{dim.name}")
            j.table(dim_table(env, d, dim, dname, temporary=rng.random() < 0.3))
        dims.append((r, dim, dname))
    items = [(f"e.{f.name}", f.name, f.type) for f in d.fields if f.role != "text"]
    items.append((f"e.{d.time}", d.time, "TIMESTAMP(3)"))
    for i, (r, dim, dname) in enumerate(dims):
        alias = "d" if len(dims) == 1 else f"d{i + 1}"
        for a, t in dim.attrs[:rng.randint(1, len(dim.attrs))]:
            if t == "STRING" and rng.random() < 0.4:
                items.append((f"COALESCE({alias}.{a}, 'unknown') AS {a}", a, t))
            else:
                items.append((f"{alias}.{a}", a, t))
    seen = set()
    items = [it for it in items if not (it[1] in seen or seen.add(it[1]))]
    sink_name = j.names(f"{d.stem}_enriched", f"{d.stem}_with_dims")
    if rng.random() < 0.75:
        opts = kafka_sink_options(rng, f"{d.team}.{d.stem}.enriched.v1")
    else:
        opts = filesystem_options(rng, f"{rng.choice(BUCKETS)}/{d.name}/{sink_name}", streaming_sink=True,
                                  partitioned=False)
    j.table(sink_from(sink_name, [(n, t) for _, n, t in items], opts))
    joins = []
    for i, (r, dim, dname) in enumerate(dims):
        alias = "d" if len(dims) == 1 else f"d{i + 1}"
        kw = rng.choice(["LEFT JOIN", "LEFT JOIN", "JOIN"])
        joins.append(f"{kw} {dname} FOR SYSTEM_TIME AS OF e.{src.proctime} AS {alias}\n{st.ind}ON e.{r.name} = {alias}.{dim.key}")
    where = filter_clause(rng, d, "e")
    body = f"{select([i for i, _, _ in items], st)}\nFROM {src.name} AS e\n" + "\n".join(joins)
    if where:
        body += f"\nWHERE {where}"
    if rng.random() < 0.35:
        view = j.names(f"{d.stem}_enriched_v", f"enriched_{d.stem}")
        j.add(f"CREATE TEMPORARY VIEW {view} AS\n{body};")
        j.add(f"INSERT INTO {sink_name}\nSELECT * FROM {view};")
    else:
        j.add(f"INSERT INTO {sink_name}\n{body};")
    return j


def job_temporal_join(env, d, name):
    """Event-time temporal join with the domain's versioned table."""
    j = Job(env, d, "enrichment", name)
    rng, st = j.rng, j.st
    v = d.versioned
    vf = d.of("ver")[0]
    j.add(header(rng, d, name, [f"Join {title(d.stem)} with the {title(v.name)} valid at event time."]))
    j.add(set_block(rng, name))
    src = j.source(time_kind="physical", proctime=rng.random() < 0.5)
    use_catalog = d.name in env.histories and env.histories[d.name].versioned and rng.random() < 0.5
    vname = env.histories[d.name].versioned if use_catalog else None
    if not vname:
        vname = j.names(v.name, f"{v.name}_versions", f"{v.name}_history")
        j.table(versioned_table(env, d, vname, temporary=rng.random() < 0.3))
    items = [(f"e.{f.name}", f.name, f.type) for f in d.fields if f.role not in ("text",)]
    for a, t in v.attrs:
        items.append((f"v.{a}", a, t))
    money = [f for f in d.of("measure") if f.type.startswith("DECIMAL")]
    if v.name == "fx_rates" and money:
        m = money[0]
        items.append((f"CAST(e.{m.name} * v.rate_to_eur AS DECIMAL(14, 2)) AS {m.name}_eur", f"{m.name}_eur", "DECIMAL(14, 2)"))
    items.append((f"e.{d.time}", d.time, "TIMESTAMP(3)"))
    sink_name = j.names(f"{d.stem}_with_{v.name}", f"{d.stem}_versioned_join")
    opts = kafka_sink_options(rng, f"{d.team}.{d.stem}.{v.name}.v1")
    j.table(sink_from(sink_name, [(n, t) for _, n, t in items], opts))
    q = (f"INSERT INTO {sink_name}\n{select([i for i, _, _ in items], st)}\n"
         f"FROM {src.name} AS e\n{rng.choice(['JOIN', 'LEFT JOIN'])} {vname} FOR SYSTEM_TIME AS OF e.{d.time} AS v\n"
         f"{st.ind}ON e.{vf.name} = v.{v.key}")
    where = filter_clause(rng, d, "e")
    if where:
        q += f"\nWHERE {where}"
    j.add(q + ";")
    return j


def job_dedup(env, d, name):
    """Deduplication (first row on processing time, or last row on event time), or Top-N."""
    j = Job(env, d, "dedup", name)
    rng, st = j.rng, j.st
    mode = rng.choice(["first", "first", "last", "topn", "window_topn"])
    key = d.key()
    cat = rng.choice(d.of("cat"))
    m = rng.choice(d.of("measure"))
    what = {"first": f"Keep the first copy of each {key.name}.",
            "last": f"Keep the latest state of each {key.name}.",
            "topn": f"The 5 {title(d.stem)} of highest {title(m.name)} per {title(cat.name)}, kept up to date.",
            "window_topn": f"Every hour, the 3 {title(key.name)}s of highest total {title(m.name)} per {title(cat.name)}."}[mode]
    j.add(header(rng, d, name, [what]))
    j.add(set_block(rng, name))
    j.functions()
    src = j.source(time_kind="physical", proctime=True)
    cols = [f.name for f in d.fields] + [d.time]
    types = [f.type for f in d.fields] + ["TIMESTAMP(3)"]
    rn = rng.choice(["rn", "row_num", "rownum"])
    if mode in ("first", "last"):
        order = f"{src.proctime} ASC" if mode == "first" else f"{d.time} DESC"
        inner = (f"SELECT\n{select_list(cols, st, 2)},\n{st.ind * 2}ROW_NUMBER() OVER (PARTITION BY {key.name} "
                 f"ORDER BY {order}) AS {rn}\n{st.ind}FROM {src.name}")
        if mode == "first" and rng.random() < 0.35:
            # Deduplicated once in a view, written to a topic and to the lake by one job.
            view = j.names(f"{d.stem}_deduplicated", f"unique_{d.stem}")
            j.add(maybe_comment(rng, 0.3) + f"CREATE TEMPORARY VIEW {view} AS\n{select(cols, st)}\n"
                  f"FROM (\n{st.ind}{inner}\n)\nWHERE {rn} = 1;")
            topic = j.names(f"{d.stem}_dedup", f"{d.stem}_unique")
            j.table(sink_from(topic, list(zip(cols, types)), kafka_sink_options(rng, topic)))
            lake = j.names(f"{d.stem}_dedup_lake", f"{d.stem}_unique_files")
            j.table(sink_from(lake, list(zip(cols, types)) + [("dt", "STRING")],
                              filesystem_options(rng, f"{rng.choice(BUCKETS)}/{d.name}/{lake}", streaming_sink=True),
                              partitions=["dt"]))
            j.add(statement_set([f"INSERT INTO {topic}\nSELECT * FROM {view};",
                                 f"INSERT INTO {lake}\nSELECT *, DATE_FORMAT({d.time}, 'yyyy-MM-dd') AS dt\nFROM {view};"]))
            return j
        sink_name = j.names(f"{d.stem}_dedup", f"{d.stem}_unique", f"{d.stem}_latest")
        if mode == "first":
            if rng.random() < 0.6:
                opts = kafka_sink_options(rng, f"{d.team}.{d.stem}.dedup.v1")
            else:
                opts = filesystem_options(rng, f"{rng.choice(BUCKETS)}/{d.name}/{sink_name}", streaming_sink=True,
                                          partitioned=False)
            pk = None
        else:
            opts = upsert_kafka_options(rng, f"{d.team}.{d.stem}.latest.v1")
            pk = [key.name]
        j.table(sink_from(sink_name, list(zip(cols, types)), opts, pk=pk))
        if rng.random() < 0.5:
            q = (f"INSERT INTO {sink_name}\nWITH ranked AS (\n{st.ind}{inner}\n)\n"
                 f"{select(cols, st)}\nFROM ranked\nWHERE {rn} = 1;")
        else:
            q = (f"INSERT INTO {sink_name}\n{select(cols, st)}\nFROM (\n{st.ind}{inner}\n)\n"
                 f"WHERE {rn} = 1;")
        j.add(maybe_comment(rng, 0.3) + q)
        return j
    if mode == "topn":
        sink_name = j.names(f"top_{d.stem}_by_{m.name}", f"{d.stem}_top_{m.name}")
        items = [(cat.name, cat.type), (rn, "BIGINT"), (key.name, key.type), (m.name, m.type), (d.time, "TIMESTAMP(3)")]
        conn, opts = agg_sink_options(rng, d, sink_name, updating=True)
        j.table(sink_from(sink_name, items, opts, pk=[cat.name, rn]))
        inner = (f"SELECT\n{st.ind * 2}{cat.name},\n{st.ind * 2}{key.name},\n{st.ind * 2}{m.name},\n{st.ind * 2}{d.time},\n"
                 f"{st.ind * 2}ROW_NUMBER() OVER (PARTITION BY {cat.name} ORDER BY {m.name} DESC) AS {rn}\n"
                 f"{st.ind}FROM {src.name}")
        q = (f"INSERT INTO {sink_name}\nSELECT {cat.name}, {rn}, {key.name}, {m.name}, {d.time}\n"
             f"FROM (\n{st.ind}{inner}\n)\nWHERE {rn} <= 5;")
        j.add(q)
        return j
    # Window Top-N: append-only.
    win = ("TUMBLE", ["INTERVAL '1' HOUR"], "1h")
    sink_name = j.names(f"hourly_top_{d.stem}", f"{d.stem}_top3_hourly")
    agg_t = sum_type(m.type)
    items = [("window_start", "TIMESTAMP(3)"), ("window_end", "TIMESTAMP(3)"), (cat.name, cat.type),
             (key.name, key.type), (f"total_{m.name}", agg_t), (rn, "BIGINT")]
    if rng.random() < 0.5:
        opts = jdbc_options(rng, sink_name, sink=True)
    else:
        opts = kafka_sink_options(rng, sink_name)
    j.table(sink_from(sink_name, items, opts))
    q = (f"INSERT INTO {sink_name}\nWITH per_window AS (\n"
         f"{st.ind}SELECT window_start, window_end, {cat.name}, {key.name}, SUM({m.name}) AS total_{m.name}\n"
         f"{st.ind}FROM {window_call(src.name, d.time, win)}\n"
         f"{st.ind}GROUP BY window_start, window_end, {cat.name}, {key.name}\n),\n"
         f"ranked AS (\n{st.ind}SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, {cat.name} "
         f"ORDER BY total_{m.name} DESC) AS {rn}\n{st.ind}FROM per_window\n)\n"
         f"SELECT window_start, window_end, {cat.name}, {key.name}, total_{m.name}, {rn}\nFROM ranked\nWHERE {rn} <= 3;")
    j.add(q)
    return j


def job_fanout(env, d, name):
    """One source, a cleaning view, several sinks written by one statement set."""
    j = Job(env, d, "fanout", name)
    rng, st = j.rng, j.st
    with_counts = rng.random() < 0.2
    with_alerts = rng.random() < 0.7 or not with_counts
    where_to = ["the lake"] + (["an alerts topic"] if with_alerts else []) + (["per-minute counts"] if with_counts else [])
    j.add(header(rng, d, name, [f"Route {title(d.stem)} to {', '.join(where_to[:-1])} and {where_to[-1]} in one job."]))
    j.add(set_block(rng, name))
    j.functions(0.2)
    src = j.source(time_kind="physical", proctime=rng.random() < 0.5)
    view = j.names(f"clean_{d.stem}", f"{d.stem}_clean")
    cols = [f.name for f in d.fields] + [d.time]
    types = {f.name: f.type for f in d.fields}
    types[d.time] = "TIMESTAMP(3)"
    cleaned = []
    for c in cols:
        t = types[c]
        if t == "STRING" and rng.random() < 0.25:
            cleaned.append(f"TRIM({c}) AS {c}")
        else:
            cleaned.append(c)
    j.add(f"CREATE TEMPORARY VIEW {view} AS\n{select(cleaned, st)}\nFROM {src.name}\n"
          f"WHERE {d.key().name} IS NOT NULL;")
    inserts = []
    # 1. The archive, partitioned by day (and hour).
    hourly = rng.random() < 0.5
    archive = j.names(f"{d.stem}_archive", f"{d.stem}_lake")
    parts = ["dt", "hr"] if hourly else ["dt"]
    items = [(c, types[c]) for c in cols] + [(p, "STRING") for p in parts]
    opts = filesystem_options(rng, f"{rng.choice(BUCKETS)}/{d.name}/{archive}", streaming_sink=True)
    j.table(sink_from(archive, items, opts, partitions=parts))
    sel = cols + [f"DATE_FORMAT({d.time}, 'yyyy-MM-dd') AS dt"] + ([f"DATE_FORMAT({d.time}, 'HH') AS hr"] if hourly else [])
    inserts.append(f"INSERT INTO {archive}\n{select(sel, st)}\nFROM {view};")
    # 2. A filtered topic.
    if with_alerts:
        alerts = j.names(f"{d.stem}_alerts", f"flagged_{d.stem}")
        m = rng.choice(d.of("measure"))
        acols = [d.key().name, m.name, d.time]
        items = [(c, types[c]) for c in acols] + [("reason", "STRING")]
        j.table(sink_from(alerts, items, kafka_sink_options(rng, f"{d.team}.{d.stem}.alerts.v1")))
        threshold = {"INT": "1000", "BIGINT": "1000000", "DOUBLE": "0.95"}.get(m.type, "10000")
        inserts.append(f"INSERT INTO {alerts}\nSELECT {', '.join(acols)}, 'threshold' AS reason\nFROM {view}\n"
                       f"WHERE {m.name} > {threshold};")
    # 3. Per-minute counts (window TVF over the view keeps the time attribute).
    if with_counts:
        counts = j.names(f"{d.stem}_per_minute", f"{d.stem}_minutely")
        cat = rng.choice(d.of("cat"))
        items = [("window_start", "TIMESTAMP(3)"), (cat.name, cat.type), ("event_cnt", "BIGINT")]
        j.table(sink_from(counts, items, jdbc_options(rng, counts, sink=True),
                          pk=["window_start", cat.name]))
        win = ("TUMBLE", ["INTERVAL '1' MINUTE"], "1m")
        inserts.append(f"INSERT INTO {counts}\nSELECT window_start, {cat.name}, COUNT(*) AS event_cnt\n"
                       f"FROM {window_call(view, d.time, win)}\nGROUP BY window_start, window_end, {cat.name};")
    j.add(statement_set(inserts))
    return j


def job_cdc(env, d, name):
    """A changelog (Debezium) source aggregated into an upsert sink, with a CTE."""
    j = Job(env, d, "cdc", name)
    rng, st = j.rng, j.st
    cat = rng.choice(d.of("cat"))
    j.add(header(rng, d, name, [f"Current totals per {title(cat.name)} from the {title(d.stem)} change stream (Debezium), upserted."]))
    j.add(set_block(rng, name, extra=[("table.exec.state.ttl", rng.choice(["7 d", "30 d"]))]
                    if rng.random() < 0.3 else ()))
    src = event_source(env, d, j.source_name(), time_kind="physical", proctime=False, watermark=False,
                       metadata=False, cdc=True)
    j.table(src)
    aggs = [("COUNT(*) AS row_cnt", "row_cnt", "BIGINT")] + measure_aggs(rng, d, rng.randint(1, 2))
    aggs.append((f"MAX({d.time}) AS last_{d.time}", f"last_{d.time}", "TIMESTAMP(3)"))
    sink_name = j.names(f"{d.stem}_totals_by_{cat.name}", f"{d.stem}_{cat.name}_totals")
    items = [(cat.name, cat.type)] + [(n, t) for _, n, t in aggs]
    if rng.random() < 0.5:
        opts = jdbc_options(rng, sink_name, sink=True)
    else:
        opts = upsert_kafka_options(rng, sink_name)
    j.table(sink_from(sink_name, items, opts, pk=[cat.name]))
    where = filter_clause(rng, d) or f"{cat.name} IS NOT NULL"
    cte_cols = [cat.name] + [f.name for f in d.of("measure")] + [d.time]
    if rng.random() < 0.5:
        q = (f"INSERT INTO {sink_name}\nWITH current_rows AS (\n{st.ind}SELECT {', '.join(cte_cols)}\n"
             f"{st.ind}FROM {src.name}\n{st.ind}WHERE {where}\n)\n"
             f"{select([cat.name] + [a for a, _, _ in aggs], st)}\nFROM current_rows\nGROUP BY {cat.name};")
    else:
        q = (f"INSERT INTO {sink_name}\n{select([cat.name] + [a for a, _, _ in aggs], st)}\nFROM {src.name}\n"
             f"WHERE {where}\nGROUP BY {cat.name};")
    j.add(q)
    return j

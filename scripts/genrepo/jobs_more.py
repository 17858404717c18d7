"""The other kinds of job: batch backfills of the lake, copies declared with
CREATE TABLE ... LIKE, Java functions applied to the events, load tests with generated rows,
and reports that read the persistent catalog. Each job_* function writes one script and
returns its Job."""
from genrepo.connectors import (BUCKETS, datagen_options, filesystem_options, jdbc_options,
                                kafka_sink_options)
from genrepo.job import WINDOWS, Job, header, set_block, window_call
from genrepo.sql import Col, Table, create_function, filter_clause, measure_aggs, select, title
from genrepo.tables import event_source, sink_from


def job_backfill(env, d, name):
    """A batch job that rewrites partitions of the lake from raw files."""
    j = Job(env, d, "backfill", name)
    rng, st = j.rng, j.st
    day = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    j.add(header(rng, d, name, [f"Batch: rebuild the daily {title(d.stem)} partition {day} from the raw files.",
                                "Run by the scheduler with the day as a parameter; the day below is the last manual run."]))
    j.add(set_block(rng, name, batch=True))
    raw = j.names(f"{d.stem}_raw_files", f"raw_{d.stem}_files")
    cols = [Col(f.name, f.type) for f in d.fields] + [Col(d.time, "TIMESTAMP(3)"), Col("dt", "STRING")]
    j.table(Table(raw, cols, filesystem_options(rng, f"{rng.choice(BUCKETS)}/raw/{d.name}/{d.stem}",
                                                fmt=rng.choice(["json", "parquet"])), partitions=["dt"]))
    daily = j.names(f"{d.stem}_daily", f"{d.stem}_curated")
    keep = [f for f in d.fields if f.role != "text"]
    items = [(f.name, f.type) for f in keep] + [(d.time, "TIMESTAMP(3)"), ("dt", "STRING")]
    j.table(sink_from(daily, items, filesystem_options(rng, f"{rng.choice(BUCKETS)}/curated/{d.name}/{daily}",
                                                       fmt="parquet"), partitions=["dt"]))
    sel = [f.name for f in keep] + [d.time]
    where = filter_clause(rng, d)
    cond = f"dt = '{day}'" + (f"\n{st.ind}AND {where}" if where else "")
    if rng.random() < 0.7:
        q = (f"INSERT OVERWRITE {daily} PARTITION (dt = '{day}')\n{select(sel, st)}\n"
             f"FROM {raw}\nWHERE {cond};")
    else:
        q = (f"INSERT OVERWRITE {daily}\n{select(sel + ['dt'], st)}\nFROM {raw}\nWHERE {cond};")
    j.add(q)
    return j


def job_archive_like(env, d, name):
    """A copy of the events, to the lake or to another topic, whose schema is the source's
    (CREATE TABLE ... LIKE)."""
    rng = env.rng
    to_lake = rng.random() < 0.5
    j = Job(env, d, "archive" if to_lake else "mirror", name)
    st = j.st
    if to_lake:
        what = f"Archive {title(d.stem)} to the lake, partitioned by day; the columns are the source's (LIKE)."
    else:
        what = f"Mirror {title(d.stem)} to the replay topic; the schema is the source's (LIKE)."
    j.add(header(rng, d, name, [what]))
    j.add(set_block(rng, name, extra=[("execution.checkpointing.interval", "1 min")]))
    src = event_source(env, d, j.source_name(), time_kind="physical", proctime=rng.random() < 0.5)
    j.table(src)
    physical = [f.name for f in d.fields] + [d.time]
    if to_lake:
        # The physical columns only (EXCLUDING ALL), plus the partition column.
        target = j.names(f"{d.stem}_archive", f"{d.stem}_lake")
        path = f"{rng.choice(BUCKETS)}/archive/{d.name}/{d.stem}"
        j.table(Table(target, [Col("dt", "STRING")], filesystem_options(rng, path, streaming_sink=True),
                      partitions=["dt"], like=f"{src.name} (EXCLUDING ALL)"))
        sel = physical + [f"DATE_FORMAT({d.time}, 'yyyy-MM-dd') AS dt"]
    else:
        # The same columns (computed and VIRTUAL metadata columns are inherited but not
        # written), the watermark, the options of the other topic.
        target = j.names(f"{d.stem}_replay", f"{d.stem}_mirror")
        like = rng.choice(["EXCLUDING OPTIONS", "INCLUDING ALL EXCLUDING OPTIONS",
                           "EXCLUDING METADATA EXCLUDING OPTIONS"])
        j.table(Table(target, [], kafka_sink_options(rng, f"{d.team}.{d.stem}.replay.v1"),
                      like=f"{src.name} ({like})"))
        sel = physical
    if rng.random() < 0.3 and not src.temporary:  # Flink alters no temporary table
        j.add(f"-- a rebuild reads the topic from the beginning\n"
              f"ALTER TABLE {src.name} SET ('scan.startup.mode' = 'earliest-offset');")
    j.add(f"INSERT INTO {target}\n{select(sel, st)}\nFROM {src.name};")
    return j


def job_udf(env, d, name):
    """User-defined functions (Java) applied to the events."""
    j = Job(env, d, "udf", name)
    rng, st = j.rng, j.st
    j.add(header(rng, d, name, [f"Apply the {d.team} team's functions to {title(d.stem)}."]))
    j.add(set_block(rng, name))
    udfs = rng.sample(d.udfs, len(d.udfs))
    for u in udfs:
        j.add(create_function(rng, u))
    src = event_source(env, d, j.source_name(), time_kind="physical", proctime=rng.random() < 0.5)
    j.table(src)
    items = [(d.key().name, d.key().type)]
    exprs = [d.key().name]
    for fname, _, args, out, typ in udfs:
        items.append((out, typ))
        exprs.append(f"{fname}({args}) AS {out}")
    cat = d.of("cat")[0]
    items += [(cat.name, cat.type), (d.time, "TIMESTAMP(3)")]
    exprs += [cat.name, d.time]
    if rng.random() < 0.5 and d.of("measure"):
        m = rng.choice(d.of("measure"))
        items.append((f"{m.name}_band", "STRING"))
        exprs.append(f"CASE WHEN {m.name} IS NULL THEN 'none' WHEN {m.name} > 100 THEN 'high' ELSE 'low' END AS {m.name}_band")
    sink_name = j.names(f"{d.stem}_processed", f"{d.stem}_udf_out")
    j.table(sink_from(sink_name, items, kafka_sink_options(rng, f"{d.team}.{d.stem}.processed.v1")))
    j.add(f"INSERT INTO {sink_name}\n{select(exprs, st)}\nFROM {src.name};")
    return j


def job_smoke(env, d, name):
    """A load test: generated rows into print or blackhole."""
    j = Job(env, d, "smoke", name)
    rng, st = j.rng, j.st
    j.add(header(rng, d, name, [f"Load test of the {title(d.stem)} schema with generated rows; not deployed to production."]))
    j.add(set_block(rng, name))
    gen = j.names(f"{d.stem}_gen", f"datagen_{d.stem}")
    cols = [Col(f.name, f.type) for f in d.fields] + [Col(d.time, "TIMESTAMP(3)")]
    t = Table(gen, cols, [], watermark=(d.time, "INTERVAL '1' SECOND") if rng.random() < 0.5 else None,
              temporary=True)
    t.options = datagen_options(rng, t)
    j.table(t)
    out = j.names(f"{d.stem}_out", f"{d.stem}_sink")
    conn = rng.choice(["print", "blackhole"])
    opts = [("connector", conn)] + ([("print-identifier", d.stem)] if conn == "print" and rng.random() < 0.5 else [])
    items = [(f.name, f.type) for f in d.fields] + [(d.time, "TIMESTAMP(3)")]
    j.table(sink_from(out, items, opts, temporary=True))
    j.add(f"INSERT INTO {out}\nSELECT * FROM {gen};")
    return j


def job_reporting(env, d, name):
    """Reads the persistent catalog that the migrations build."""
    h = env.histories[d.name]
    j = Job(env, d, "reporting", name)
    rng, st = j.rng, j.st
    choice = rng.random()
    if h.mts and choice < 0.5:
        mt = env.catalog[rng.choice(h.mts)]
        j.add(header(rng, d, name, [f"Export the materialized table {mt.name} to the reporting database."]))
        j.add(set_block(rng, name))
        sink_name = j.names(f"{mt.name}_export", f"report_{mt.name}")
        keys = mt.keys
        j.table(sink_from(sink_name, mt.cols, jdbc_options(rng, f"reporting.{mt.name}", sink=True), pk=keys))
        j.add(f"INSERT INTO {sink_name}\n{select([n for n, _ in mt.cols], st)}\nFROM {mt.name};")
        return j
    events = env.catalog[h.events]
    win = rng.choice(WINDOWS)
    cat = rng.choice(d.of("cat"))
    j.add(header(rng, d, name, [f"{win[2]} counts of {events.name} (catalog table) per {title(cat.name)}."]))
    j.add(set_block(rng, name))
    aggs = [("COUNT(*) AS event_cnt", "event_cnt", "BIGINT")] + measure_aggs(rng, d, 2)
    sink_name = j.names(f"{d.stem}_{cat.name}_{win[2]}_report", f"report_{d.stem}_{cat.name}")
    items = [("window_start", "TIMESTAMP(3)"), ("window_end", "TIMESTAMP(3)"), (cat.name, cat.type)] + \
            [(n, t) for _, n, t in aggs]
    j.table(sink_from(sink_name, items, jdbc_options(rng, f"reporting.{sink_name}", sink=True)))
    sel = ["window_start", "window_end", cat.name] + [a for a, _, _ in aggs]
    j.add(f"INSERT INTO {sink_name}\n{select(sel, st)}\nFROM {window_call(events.name, d.time, win)}\n"
          f"GROUP BY window_start, window_end, {cat.name};")
    return j

"""Migration histories, migrations/<domain>/V<n>__<what>.sql: the persistent catalog that
jobs read, created and then evolved one version at a time (ALTER TABLE, views, derived tables,
catalog functions, materialized tables)."""
import re

from genrepo.connectors import BUCKETS, filesystem_options
from genrepo.sql import (Col, Style, Table, create_function, measure_aggs, render_table, select,
                         sum_type, title)
from genrepo.tables import dim_table, event_source, versioned_table

# The freshness of continuous materialized tables.
FRESHNESS = ["'30' SECOND", "'1' MINUTE", "'1' MINUTE", "'5' MINUTE", "'10' MINUTE", "'1' HOUR"]

# Columns that migrations add to an event table (and sometimes drop again).
NEW_COLUMNS = [("source_system", "STRING"), ("schema_version", "INT"), ("trace_id", "STRING"),
               ("region_hint", "STRING"), ("batch_tag", "STRING"), ("producer_host", "STRING"),
               ("is_replayed", "BOOLEAN"), ("tenant_id", "STRING"), ("retry_count", "INT"),
               ("client_version", "STRING")]


class MatTable:
    """A materialized table of the catalog: its query's columns and clauses."""

    def __init__(self, name, cols, keys, clauses, select, source, group):
        self.name, self.cols, self.keys, self.clauses = name, cols, keys, clauses
        self.select, self.source, self.group = select, source, group


class History:
    """The migration history of one domain, migrations/<domain>/: the catalog objects it has
    created so far (registered in the repository's catalog) and the files written."""

    def __init__(self, env, d):
        self.env, self.d, self.rng = env, d, env.rng
        self.events = None  # name of the event table
        self.dims = {}  # dimension name -> table name
        self.versioned = None
        self.mts = []
        self.views = []
        self.added = []  # columns added by ALTER TABLE that nothing reads
        self.ever_added = []  # and the dropped ones: a name is never reused
        self.files = []  # (file name, text)
        self.version = 0
        self.pending = []  # the steps of the next migration file: (what, statements, note)

    def write(self, what, statements, note):
        """Adds a step to the next migration file; a statement is text or a function of the
        file's Style."""
        self.pending.append((what, statements, note))

    def flush(self):
        """Writes the pending steps as one migration file, V<n>__<first step>.sql."""
        if not self.pending:
            return
        self.version += 1
        st = Style(self.rng)
        parts = []
        for i, (_, statements, note) in enumerate(self.pending):
            texts = [s(st) if callable(s) else s for s in statements]
            if i == 0:
                parts.append(f"-- V{self.version:03d}: {note}")
            else:
                texts[0] = f"-- {note}\n{texts[0]}"
            parts += texts
        name = f"V{self.version:03d}__{self.pending[0][0]}.sql"
        self.files.append((name, st.finish("\n\n".join(parts) + "\n")))
        self.pending = []

    def register(self, t):
        """Makes `t` an object of the persistent catalog, which jobs may read."""
        self.env.catalog[t.name] = t

    def create_events(self):
        d = self.d
        t = event_source(self.env, d, f"{d.stem}_log", time_kind="physical", proctime=True, temporary=False)
        t.comment = t.comment or f"{title(d.stem).capitalize()} as published, one row per event"
        self.events = t.name
        self.register(t)
        self.write(f"create_{t.name}", [lambda st: render_table(t, st)], f"the {title(d.stem)} topic.")

    def create_dims(self):
        d = self.d
        stmts = []
        for dim in d.dims:
            t = dim_table(self.env, d, dim, f"{d.name}_{dim.name}_dim")
            self.dims[dim.name] = t.name
            self.register(t)
            stmts.append(lambda st, t=t: render_table(t, st))
        vt = versioned_table(self.env, d, f"{d.name}_{d.versioned.name}")
        self.versioned = vt.name
        self.register(vt)
        stmts.append(lambda st: render_table(vt, st))
        self.write("reference_tables", stmts, "reference data: dimensions (JDBC) and the versioned table.")

    def add_column(self):
        """ALTER TABLE ... ADD of a column that nothing reads yet (appended after the computed
        columns, which Flink allows)."""
        t = self.env.catalog[self.events]
        unused = [c for c in NEW_COLUMNS if c[0] not in self.ever_added]
        if not unused:
            return self.set_options()
        name, typ = self.rng.choice(unused)
        self.ever_added.append(name)
        self.added.append(name)
        t.cols.append(Col(name, typ))
        v = self.version + 1
        self.write(f"add_{name}", [f"ALTER TABLE {t.name} ADD ({name} {typ} COMMENT 'since V{v:03d}');"],
                   f"{t.name} gets {name}.")

    def drop_column(self):
        if not self.added:
            return self.add_column()
        t = self.env.catalog[self.events]
        name = self.added.pop(0)
        t.cols = [c for c in t.cols if c.name != name]
        self.write(f"drop_{name}", [f"ALTER TABLE {t.name} DROP ({name});"], f"{name} was never filled.")

    def set_options(self):
        rng = self.rng
        t = self.env.catalog[self.events]
        group = f"flink-{self.d.stem.replace('_', '-')}-{rng.randrange(100, 999)}"
        opts = [("properties.group.id", group)]
        if rng.random() < 0.5:
            opts.append(("properties.max.poll.records", str(rng.choice([500, 1000, 2000]))))
        t.options = [(k, v) for k, v in t.options if k not in dict(opts)] + opts
        body = ",\n".join(f"    '{k}' = '{v}'" for k, v in opts)
        self.write("consumer_group", [f"ALTER TABLE {t.name} SET (\n{body}\n);"],
                   f"{t.name} reads with a new consumer group.")

    def derived_table(self):
        rng = self.rng
        d = self.d
        src = self.env.catalog[self.events]
        name = f"{d.stem}_archive"
        if name in self.env.catalog:
            return self.add_column()
        path = f"{rng.choice(BUCKETS)}/catalog/{d.name}/{name}"
        t = Table(name, [Col("dt", "STRING")], filesystem_options(rng, path, streaming_sink=True),
                  partitions=["dt"], like=f"{src.name} (EXCLUDING ALL)")
        phys = [Col(c.name, c.type) for c in src.cols if c.kind == "physical"]
        self.register(Table(name, phys + [Col("dt", "STRING")], t.options, partitions=["dt"]))
        self.write(f"create_{name}", [lambda st: render_table(t, st)],
                   f"the lake copy of {src.name}, same physical columns (LIKE).")

    def create_view(self):
        rng = self.rng
        d = self.d
        cat = rng.choice(d.of("cat"))
        vals = d.values.get(cat.name) or ["x"]
        val = rng.choice(vals)
        name = f"{d.stem}_{re.sub('[^a-z0-9]', '_', val.lower())}_v"
        if name in self.env.catalog:
            return self.add_column()
        cols = [f.name for f in d.fields] + [d.time]
        self.views.append(name)
        self.env.catalog[name] = "view"

        def render(st):
            return f"CREATE VIEW {name} AS\n{select(cols, st)}\nFROM {self.events}\nWHERE {cat.name} = '{val}';"
        self.write(f"create_{name}", [render], f"{title(d.stem)} with {cat.name} {val}.")

    def create_mt(self):
        rng = self.rng
        d = self.d
        cat = rng.choice(d.of("cat"))
        name = f"{d.stem}_{cat.name}_stats"
        if name in self.env.catalog:
            return self.evolve_mt()
        daily = rng.random() < 0.4
        source = self.events
        keys = ([("ds", "STRING")] if daily else []) + [(cat.name, cat.type)]
        select = ([f"DATE_FORMAT({d.time}, 'yyyy-MM-dd') AS ds"] if daily else []) + [cat.name]
        group = ([f"DATE_FORMAT({d.time}, 'yyyy-MM-dd')"] if daily else []) + [cat.name]
        cols = list(keys)
        select.append("COUNT(*) AS event_cnt")
        cols.append(("event_cnt", "BIGINT"))
        for a, n, t in measure_aggs(rng, d, 1):
            select.append(a)
            cols.append((n, t))
        clauses = []
        clauses.append(f"COMMENT '{title(d.stem).capitalize()} per {title(cat.name)}{' and day' if daily else ''}'")
        if daily:
            clauses.append("PARTITIONED BY (ds)")
            clauses.append("WITH (\n    'partition.fields.ds.date-formatter' = 'yyyy-MM-dd'\n)")
        start = rng.choice(["FROM_BEGINNING", f"FROM_TIMESTAMP(TIMESTAMP '2025-0{rng.randint(1, 9)}-01 00:00:00')"])
        clauses_start = f"START_MODE = {start}" if rng.random() < 0.6 else None
        if daily:
            tail = ["FRESHNESS = INTERVAL '1' DAY", "REFRESH_MODE = FULL"]
        else:
            tail = [f"FRESHNESS = INTERVAL {rng.choice(FRESHNESS)}"]
        mt = MatTable(name, cols, [k for k, _ in keys], (clauses, tail), select, source, group)
        self.env.catalog[name] = mt
        self.mts.append(name)
        first = clauses + ([clauses_start] if clauses_start else []) + tail
        self.write(f"create_{name}", [lambda st: self.render_mt("CREATE MATERIALIZED TABLE", mt, first)],
                   f"materialized table {name}, refreshed by the SQL gateway.")

    def render_mt(self, head, mt, clauses):
        sel = ",\n".join("    " + s for s in mt.select)
        return (f"{head} {mt.name}\n" + "\n".join(clauses) +
                f"\nAS SELECT\n{sel}\nFROM {mt.source}\nGROUP BY {', '.join(mt.group)};")

    def evolve_mt(self):
        """CREATE OR ALTER with an appended column and an explicit start mode."""
        rng = self.rng
        d = self.d
        if not self.mts:
            return self.create_mt()
        mt = self.env.catalog[rng.choice(self.mts)]
        have = {n for n, _ in mt.cols}
        options = []
        for f in d.of("measure"):
            for kind, prefix in (("MAX", "max_"), ("MIN", "min_"), ("SUM", "total_")):
                if prefix + f.name not in have:
                    t = sum_type(f.type) if kind == "SUM" else f.type
                    options.append((f"{kind}({f.name}) AS {prefix}{f.name}", prefix + f.name, t))
        for f in d.of("id") + [d.key()]:
            if f"distinct_{f.name}s" not in have:
                options.append((f"COUNT(DISTINCT {f.name}) AS distinct_{f.name}s", f"distinct_{f.name}s", "BIGINT"))
        if f"last_{d.time}" not in have:
            options.append((f"MAX({d.time}) AS last_{d.time}", f"last_{d.time}", "TIMESTAMP(3)"))
        if not options:
            return self.add_column()
        a, n, t = rng.choice(options)
        mt.select.append(a)
        mt.cols.append((n, t))
        clauses, tail = mt.clauses
        start = rng.choice(["RESUME_OR_FROM_BEGINNING", "RESUME_OR_FROM_NOW",
                            f"RESUME_OR_FROM_TIMESTAMP(TIMESTAMP '2025-1{rng.randint(0, 2)}-01 00:00:00')"])
        stmts = []
        suspend = rng.random() < 0.3
        if suspend:
            stmts.append(f"ALTER MATERIALIZED TABLE {mt.name} SUSPEND;")
        stmts.append(lambda st: self.render_mt("CREATE OR ALTER MATERIALIZED TABLE", mt,
                                               clauses + [f"START_MODE = {start}"] + tail))
        if suspend:
            stmts.append(f"ALTER MATERIALIZED TABLE {mt.name} RESUME;")
        self.write(f"{mt.name}_add_{n}", stmts, f"{mt.name} gets {n} (columns are only appended).")

    def create_function(self):
        d = self.d
        udf = self.rng.choice(d.udfs)
        key = f"function:{udf[0]}"
        if key in self.env.catalog:
            return self.add_column()
        self.env.catalog[key] = "function"
        self.write(f"function_{udf[0]}", [create_function(self.rng, udf, catalog=True)],
                   f"the catalog function {udf[0]}.")

    def drop_view(self):
        if len(self.views) < 2:
            return self.create_view()
        name = self.views.pop(0)
        del self.env.catalog[name]
        self.write(f"drop_{name}", [f"DROP VIEW IF EXISTS {name};"], f"{name} has no readers left.")


def build_history(env, d, n):
    """n migration files for domain d: the event table, the reference tables, then 1 to 4
    random evolution steps per file."""
    h = History(env, d)
    env.histories[d.name] = h
    h.create_events()
    h.flush()
    if n > 1:
        h.create_dims()
        h.flush()
    steps = [(h.add_column, 5), (h.set_options, 3), (h.create_mt, 3), (h.evolve_mt, 4),
             (h.create_view, 2), (h.derived_table, 1), (h.create_function, 1), (h.drop_column, 1),
             (h.drop_view, 1)]
    fns, weights = zip(*steps)
    while len(h.files) < n:
        for _ in range(env.rng.choice([1, 2, 2, 3, 3, 4])):
            env.rng.choices(fns, weights)[0]()
        h.flush()
    return h

"""A job being written (one script under pipelines/<domain>/<kind>/) and the pieces the
kinds of job share: the header comment, SET statements, window calls, statement sets, sink
options for aggregates, unique names."""
from genrepo.connectors import jdbc_options, kafka_sink_options, upsert_kafka_options
from genrepo.sql import Style, create_function, render_table
from genrepo.tables import event_source

# (function, interval literals) of the window table functions; sizes divide evenly.
WINDOWS = [
    ("TUMBLE", ["INTERVAL '1' MINUTE"], "1m"), ("TUMBLE", ["INTERVAL '5' MINUTE"], "5m"),
    ("TUMBLE", ["INTERVAL '15' MINUTE"], "15m"), ("TUMBLE", ["INTERVAL '1' HOUR"], "1h"),
    ("HOP", ["INTERVAL '1' MINUTE", "INTERVAL '10' MINUTE"], "10m_sliding"),
    ("HOP", ["INTERVAL '5' MINUTE", "INTERVAL '1' HOUR"], "1h_sliding"),
    ("HOP", ["INTERVAL '30' SECOND", "INTERVAL '5' MINUTE"], "5m_sliding"),
    ("CUMULATE", ["INTERVAL '1' MINUTE", "INTERVAL '1' HOUR"], "hour_to_date"),
    ("CUMULATE", ["INTERVAL '1' HOUR", "INTERVAL '1' DAY"], "day_to_date"),
    ("CUMULATE", ["INTERVAL '10' MINUTE", "INTERVAL '1' DAY"], "day_to_date"),
]

# Session options a job sets, with plausible values.
SET_OPTIONS = [
    ("parallelism.default", ["1", "2", "4", "8", "12"]),
    ("table.exec.state.ttl", ["1 h", "12 h", "1 d", "36 h", "7 d"]),
    ("execution.checkpointing.interval", ["30 s", "1 min", "5 min", "10 min"]),
    ("table.exec.source.idle-timeout", ["30 s", "1 min", "5 min"]),
    ("table.optimizer.agg-phase-strategy", ["TWO_PHASE", "ONE_PHASE", "AUTO"]),
    ("table.exec.sink.not-null-enforcer", ["DROP", "ERROR"]),
    ("table.local-time-zone", ["UTC", "Europe/Berlin", "Europe/Amsterdam"]),
    ("execution.checkpointing.mode", ["EXACTLY_ONCE", "AT_LEAST_ONCE"]),
    ("table.exec.sink.upsert-materialize", ["NONE", "AUTO"]),
    ("pipeline.operator-chaining.enabled", ["true", "false"]),
]
BATCH_SET_OPTIONS = [
    ("parallelism.default", ["4", "8", "16"]),
    ("table.optimizer.agg-phase-strategy", ["TWO_PHASE", "AUTO"]),
    ("table.local-time-zone", ["UTC", "Europe/Berlin"]),
    ("table.exec.resource.default-parallelism", ["8", "16", "32"]),
]

LINE_COMMENTS = [
    "the producer retries, so the same event can arrive twice",
    "late events beyond the watermark are dropped by the window",
    "keep the first copy of each event",
    "amounts are converted at the rate valid when the event happened",
    "the dimension is cached for ten minutes; changes show up with that delay",
    "rows without a key would be rejected by the upsert sink",
    "one row per key and window",
    "partition by day so that the lake can prune",
    "test traffic is tagged by the load generator",
    "the consumer group is shared with the replay job: do not change it",
]


class Namer:
    """Unique names inside one script, never one of the persistent catalog."""

    def __init__(self, env):
        self.env, self.used = env, set()

    def __call__(self, *candidates):
        for c in candidates:
            if c not in self.used and c not in self.env.catalog:
                self.used.add(c)
                return c
        base = candidates[-1]
        n = 2
        while f"{base}_{n}" in self.used or f"{base}_{n}" in self.env.catalog:
            n += 1
        self.used.add(f"{base}_{n}")
        return f"{base}_{n}"


def header(rng, d, job, lines):
    """The comment at the top of a job: what it does, its owner, sometimes its runbook."""
    out = [f"-- {line}" for line in lines]
    if rng.random() < 0.75:
        out.append(f"-- Owner: team-{d.team}")
    if rng.random() < 0.1:
        out.append(f"-- Runbook: https://wiki.acme.internal/data/{d.name}/{job.replace('_', '-')}")
    return "\n".join(out)


def set_block(rng, job, batch=False, extra=()):
    """The job's SET statements: its name, a few session options, the `extra` ones."""
    opts = [("pipeline.name", job.replace("_", "-"))] if rng.random() < 0.6 else []
    if batch:
        opts.append(("execution.runtime-mode", "batch"))
    given = [k for k, _ in extra]
    pool = [o for o in (BATCH_SET_OPTIONS if batch else SET_OPTIONS) if o[0] not in given]
    picked = rng.sample(pool, min(len(pool), rng.choice([0, 0, 1, 1, 2])))
    for k, vals in picked:
        opts.append((k, rng.choice(vals)))
    opts += list(extra)
    if not batch and rng.random() < 0.08:
        opts.append(("table.exec.mini-batch.enabled", "true"))
        opts.append(("table.exec.mini-batch.allow-latency", rng.choice(["2 s", "5 s"])))
        opts.append(("table.exec.mini-batch.size", str(rng.choice([1000, 5000, 10000]))))
    stmts = [f"SET '{k}' = '{v}';" for k, v in opts]
    if rng.random() < 0.05:
        stmts.append(f"RESET '{picked[0][0]}';" if picked else "RESET 'table.exec.state.ttl';")
    return "\n".join(stmts)


def window_call(src, time_col, win):
    fn, args, _ = win
    return f"TABLE({fn}(TABLE {src}, DESCRIPTOR({time_col}), {', '.join(args)}))"


def maybe_comment(rng, p=0.2):
    """Sometimes a comment line to put before a statement."""
    if rng.random() < p:
        return f"-- {rng.choice(LINE_COMMENTS)}\n"
    return ""


class Job:
    """A script being written: its statements, its style, the names it uses."""

    def __init__(self, env, d, kind, name):
        self.env, self.d, self.rng = env, d, env.rng
        self.st = Style(env.rng)
        self.kind, self.name = kind, name
        self.names = Namer(env)
        self.parts = []

    def add(self, text):
        self.parts.append(text)

    def table(self, t):
        self.add(render_table(t, self.st))

    def text(self):
        return self.st.finish("\n\n".join(self.parts) + "\n")

    def source_name(self):
        s = self.d.stem
        return self.names(*self.rng.sample([s, f"{s}_src", f"{s}_source", f"kafka_{s}", f"raw_{s}"], 3))

    def source(self, p_catalog=0.3, **kw):
        """The job's Kafka source: declared here, or sometimes the domain's event table of the
        persistent catalog (which has an event time, a watermark and a processing time)."""
        h = self.env.histories.get(self.d.name)
        if h and self.rng.random() < p_catalog and kw.get("time_kind", "physical") == "physical":
            self.add(f"-- {h.events} is defined by migrations/{self.d.name}")
            return self.env.catalog[h.events]
        t = event_source(self.env, self.d, self.source_name(), **kw)
        self.table(t)
        return t

    def functions(self, p=0.15):
        """Sometimes the team's preamble that registers one of its functions, used or not."""
        if self.rng.random() < p:
            udf = self.rng.choice(self.d.udfs)
            self.add(f"-- team preamble\n{create_function(self.rng, udf)}")


def agg_sink_options(rng, d, name, updating):
    """Options of a sink for aggregates; updating queries need a primary key."""
    r = rng.random()
    if r < 0.45:
        return "jdbc", jdbc_options(rng, name, sink=True)
    if r < 0.8 or updating:
        return "upsert-kafka", upsert_kafka_options(rng, name)
    return "kafka", kafka_sink_options(rng, name)


def statement_set(inserts):
    return "EXECUTE STATEMENT SET\nBEGIN\n\n" + "\n\n".join(inserts) + "\n\nEND;"

"""Small pieces of Flink SQL shared by jobs and migration histories: result types of
aggregates, the CREATE TABLE model (Col, Table) and its rendering, a file's Style, SELECT lists,
WHERE conditions, aggregate expressions and CREATE FUNCTION."""
import re


def title(s):
    return s.replace("_", " ")


def sum_type(t):
    """Flink's result type of SUM over a column of type t."""
    if t.startswith("DECIMAL"):
        scale = t.split(",")[1].strip(" )")
        return f"DECIMAL(38, {scale})"
    return t


def avg_ok(t):
    return not t.startswith("DECIMAL")


class Col:
    """A column of a CREATE TABLE: physical, metadata or computed."""

    def __init__(self, name, type_=None, kind="physical", expr=None, meta=None, virtual=False,
                 comment=None):
        self.name, self.type, self.kind, self.expr = name, type_, kind, expr
        self.meta, self.virtual, self.comment = meta, virtual, comment


class Table:
    """A CREATE TABLE statement and what the queries need to know about the table."""

    def __init__(self, name, cols, options, pk=None, watermark=None, partitions=None,
                 comment=None, temporary=False, if_not_exists=False, like=None, proctime=None):
        self.name, self.cols, self.options, self.pk = name, cols, options, pk or []
        self.watermark, self.partitions, self.comment = watermark, partitions or [], comment
        self.temporary, self.if_not_exists, self.like = temporary, if_not_exists, like
        self.proctime = proctime  # the name of the PROCTIME() column, if any


class Style:
    """How one file is written: indentation, alignment, letter case of keywords."""

    def __init__(self, rng):
        self.ind = " " * rng.choice([4, 4, 4, 2])
        self.with_on_close = rng.random() < 0.5  # `) WITH (` rather than `)` and `WITH (`
        self.compact = rng.random() < 0.5  # short SELECT lists on one line
        self.align = rng.random() < 0.2
        self.lower = rng.random() < 0.08

    def finish(self, text):
        """The file's text in its letter case: the lower-case style writes every keyword and
        type in lower case (names are lower case already; string literals and comments keep
        theirs)."""
        if not self.lower:
            return text
        return re.sub(r"'[^']*'|`[^`]*`|--[^\n]*|\b[A-Z][A-Z0-9_]*\b",
                      lambda m: m.group(0) if m.group(0)[0] in "'`-" else m.group(0).lower(), text)


def render_col(c, width):
    name = c.name.ljust(width) if width else c.name
    if c.kind == "computed":
        return f"{name} AS {c.expr}" + (f" COMMENT '{c.comment}'" if c.comment else "")
    out = f"{name} {c.type}"
    if c.kind == "metadata":
        out += " METADATA"
        if c.meta != c.name:
            out += f" FROM '{c.meta}'"
        if c.virtual:
            out += " VIRTUAL"
    if c.comment:
        out += f" COMMENT '{c.comment}'"
    return out


def render_options(options, st):
    inner = (",\n").join(f"{st.ind}'{k}' = '{v}'" for k, v in options)
    return f"WITH (\n{inner}\n)"


def render_table(t, st):
    head = "CREATE " + ("TEMPORARY " if t.temporary else "") + "TABLE " + \
           ("IF NOT EXISTS " if t.if_not_exists else "") + t.name
    lines = []
    width = max((len(c.name) for c in t.cols), default=0) if st.align else 0
    for c in t.cols:
        lines.append(st.ind + render_col(c, width))
    if t.watermark:
        col, delay = t.watermark
        lines.append(f"{st.ind}WATERMARK FOR {col} AS {col} - {delay}")
    if t.pk:
        lines.append(f"{st.ind}PRIMARY KEY ({', '.join(t.pk)}) NOT ENFORCED")
    out = head
    if lines:
        out += " (\n" + ",\n".join(lines) + "\n)"
    if t.comment:
        out += f"\nCOMMENT '{t.comment}'"
    if t.partitions:
        out += f"\nPARTITIONED BY ({', '.join(t.partitions)})"
    if t.options:
        glue = " " if st.with_on_close and lines and not t.comment and not t.partitions else "\n"
        out += glue + render_options(t.options, st)
    if t.like:
        out += f"\nLIKE {t.like}"
    return out + ";"


def select_list(items, st, indent=1):
    """items: SQL expressions (already aliased where needed), one a line."""
    pad = st.ind * indent
    return ",\n".join(pad + i for i in items)


def select(items, st):
    """`SELECT` and its items: on one line when they are few and short and the file's style
    is compact, else one a line."""
    one = "SELECT " + ", ".join(items)
    if st.compact and len(items) <= 6 and len(one) <= 90:
        return one
    return "SELECT\n" + select_list(items, st)


def filter_clause(rng, d, alias=""):
    """A WHERE condition on the domain's columns (or None)."""
    p = f"{alias}." if alias else ""
    r = rng.random()
    cats = d.of("cat")
    if r < 0.35 and cats:
        f = rng.choice(cats)
        vals = d.values.get(f.name)
        if vals:
            if rng.random() < 0.5:
                return f"{p}{f.name} = '{rng.choice(vals)}'"
            picked = rng.sample(vals, min(len(vals), rng.randint(2, 3)))
            return f"{p}{f.name} IN ({', '.join(repr_str(v) for v in picked)})"
        return f"{p}{f.name} IS NOT NULL"
    if r < 0.55 and d.of("measure"):
        m = rng.choice(d.of("measure"))
        return f"{p}{m.name} > 0"
    if r < 0.7:
        return f"{p}{d.key().name} IS NOT NULL"
    return None


def repr_str(v):
    return "'" + v.replace("'", "''") + "'"


def measure_aggs(rng, d, n, alias=""):
    """n aggregate expressions over the domain's measures: (sql, name, type)."""
    p = f"{alias}." if alias else ""
    out = []
    ms = d.of("measure")
    picked = rng.sample(ms, min(n, len(ms)))
    for m in picked:
        kind = rng.choice(["SUM", "SUM", "MAX", "AVG", "MIN"])
        if kind == "AVG" and not avg_ok(m.type):
            kind = "SUM"
        t = sum_type(m.type) if kind == "SUM" else m.type
        name = {"SUM": "total_", "MAX": "max_", "AVG": "avg_", "MIN": "min_"}[kind] + m.name
        out.append((f"{kind}({p}{m.name}) AS {name}", name, t))
    return out


def create_function(rng, udf, catalog=False):
    """CREATE [TEMPORARY [SYSTEM]] FUNCTION of a Java class, sometimes from a JAR."""
    name, cls = udf[0], udf[1]
    r = rng.random()
    if catalog or r >= 0.8:
        # A catalog function may exist already (a migration registers it).
        kind = "FUNCTION IF NOT EXISTS"
    elif r < 0.5:
        kind = "TEMPORARY FUNCTION"
    else:
        kind = "TEMPORARY SYSTEM FUNCTION"
    out = f"CREATE {kind} {name} AS '{cls}' LANGUAGE JAVA"
    if rng.random() < 0.3:
        out += f"\nUSING JAR 's3://acme-artifacts/flink-udfs/acme-udfs-{rng.choice(['1.4.2', '1.5.0', '2.0.1'])}.jar'"
    return out + ";"

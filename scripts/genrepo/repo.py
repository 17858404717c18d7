"""The whole repository: the state its files share (Env), the kinds of job and their
weights, and generate(), which writes the migration histories and then the jobs."""
import random

from genrepo.domains import DOMAINS
from genrepo.history import build_history
from genrepo.jobs_more import job_archive_like, job_backfill, job_reporting, job_smoke, job_udf
from genrepo.jobs_stream import (job_cdc, job_dedup, job_enrichment, job_fanout, job_temporal_join,
                                 job_window_agg)


class Env:
    """What a whole repository shares: the random source, the names in the persistent catalog,
    counters for unique names."""

    def __init__(self, rng):
        self.rng = rng
        # The persistent catalog as the histories leave it: name -> Table or MatTable, "view"
        # for a view, "function" under "function:<name>" for a function.
        self.catalog = {}
        self.histories = {}  # domain name -> History
        self.seq = 0

    def next_seq(self):
        self.seq += 1
        return self.seq


JOB_KINDS = [
    (job_window_agg, 17), (job_enrichment, 11), (job_temporal_join, 8), (job_dedup, 11),
    (job_fanout, 7), (job_cdc, 9), (job_backfill, 5), (job_archive_like, 9), (job_udf, 6),
    (job_smoke, 4), (job_reporting, 14),
]

# The roles of the fields each kind of job reads; it declares those and a few others. The
# other kinds declare every field.
NEEDS = {
    job_window_agg: ("cat", "measure"), job_enrichment: ("ref",), job_temporal_join: ("ver",),
    job_dedup: ("cat", "measure"), job_fanout: ("cat", "measure"), job_cdc: ("cat", "measure"),
    job_backfill: ("cat", "measure"), job_archive_like: (), job_smoke: (),
}


def generate(files, seed):
    """Returns [(relative path, text)] of a repository of `files` SQL files."""
    rng = random.Random(seed)
    env = Env(rng)
    n_mig = max(2, files // 20) if files >= 20 else 0
    n_hist = min(len(DOMAINS), max(1, n_mig // 10)) if n_mig else 0
    out = []
    hist_domains = rng.sample(DOMAINS, n_hist)
    for i, d in enumerate(hist_domains):
        n = n_mig // n_hist + (1 if i < n_mig % n_hist else 0)
        h = build_history(env, d, n)
        for fname, text in h.files[:n]:
            out.append((f"migrations/{d.name}/{fname}", text))
    kinds, weights = zip(*JOB_KINDS)
    used = set()
    while len(out) < files:
        d = rng.choice(DOMAINS)
        kind = rng.choices(kinds, weights)[0]
        if kind is job_reporting and d.name not in env.histories:
            kind = job_window_agg
        if kind is job_udf:
            # The columns the domain's functions take, and one category.
            args = [a for u in d.udfs for a in u[2].split(", ")]
            d = d.subset(rng, ("cat", *args))
        elif kind in NEEDS:
            d = d.subset(rng, NEEDS[kind])
        seq = env.next_seq()
        job_name = f"{d.name}_{kind.__name__[4:]}_{seq:05d}"
        j = kind(env, d, job_name)
        path = f"pipelines/{d.name}/{j.kind}/{job_name}.sql"
        assert path not in used
        used.add(path)
        out.append((path, j.text()))
    return out

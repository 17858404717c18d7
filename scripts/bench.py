#!/usr/bin/env python3
"""Benchmark: lex+parse throughput and whole-run time of `flinklint check`, against `cat`.

Generates a repository of Flink SQL with scripts/gen_repo.py into bench-out/corpus (2,000
files by default: jobs under pipelines/<domain>/<kind>/ and migration histories under
migrations/<domain>/; the same bytes for the same --files and --seed; regenerated when the
arguments or the generator change), builds the release binary, then prints:
  - lex and lex+parse throughput on one core (benches/throughput.rs);
  - the best-of-N wall time of `flinklint check --format json` over the repository and of
    `cat` over the same files, measured in the same run, and their ratio;
  - what the catalog pass adds to that whole run (budget: at most 20 %): runs with and
    without it (the benchmark binary runs the library with the pass off), interleaved, medians;
    and what validating every query's names adds (budget: at most 15 %): runs with the catalog
    pass but without query validation, interleaved with the others; what the connector
    option checks add (budget: at most 5 %): runs without them (the CO rules ignored); and what
    planning every pipeline adds (the streaming checks; budget: at most 15 %): runs without the
    plan pass;
  - startup cost: `flinklint check` on an empty folder (process start, config discovery and
    parsing, rule registry, thread pool), with and without a `.flinklint.yaml`, against
    `true`, as the median and best of many runs, and the in-process time of config discovery
    plus the rule registry read from FLINKLINT_TIMINGS (target: under 5 ms).

With --scales (the acceptance run of scaling, e.g. `--scales 2000,20000,100000`), it prints
instead, in one run: lex+parse throughput on the first scale's repository; for each scale, the
whole run of `check` against `cat` over the same files, one of each a round (best of --runs,
fewer at large scales, and the median of the rounds' ratios) with the peak RSS of `check`;
and, in the first scale's repository made a git work tree, one staged file checked alone (`flinklint check FILE`, the rest of the repository its context):
cold (no context cache: each run after deleting `.flinklint_cache/`), warm (the cache
written) and with `--no-cache`, medians and best of --runs.

Usage (from the repository root):  python3 scripts/bench.py [--files 2000] [--runs 10] [--seed 7]
                                   python3 scripts/bench.py --scales 2000,20000,100000 [--runs 10]
                                       [--out /tmp/flinklint-bench] [--quick] [--bin PATH]
                                   python3 scripts/bench.py --startup-only [--startup-runs 200]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def best_of(cmd, runs, **kw):
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        best = min(best, time.perf_counter() - t)
    return best


def times_ms(cmd, runs, **kw):
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        out.append((time.perf_counter() - t) * 1e3)
    return out


def startup(binary, runs):
    """Prints the startup cost of `flinklint check` on an empty folder, against `true`."""
    binary = os.path.abspath(binary)
    tmp = tempfile.mkdtemp(prefix="flinklint-startup-")
    try:
        bare = os.path.join(tmp, "bare")
        configured = os.path.join(tmp, "configured")
        os.makedirs(bare)
        os.makedirs(os.path.join(configured, "jobs"))
        shutil.copy(os.path.join("fixtures", "config", "ok_full.yaml"), os.path.join(configured, ".flinklint.yaml"))
        shutil.copy(os.path.join("fixtures", "config", "order.txt"), configured)
        cases = [
            ("true", ["true"], bare),
            ("check, no config", [binary, "check", "."], bare),
            ("check, .flinklint.yaml (every key)", [binary, "check", "jobs"], configured),
        ]
        for _, cmd, cwd in cases:  # warm up
            times_ms(cmd, 3, cwd=cwd)
        base = None
        print(f"startup ({runs} runs each; median / best):")
        for name, cmd, cwd in cases:
            t = times_ms(cmd, runs, cwd=cwd)
            med, best = statistics.median(t), min(t)
            if base is None:
                base = med
                print(f"  {name:38s} {med:6.2f} ms / {best:6.2f} ms")
            else:
                print(f"  {name:38s} {med:6.2f} ms / {best:6.2f} ms  (+{med - base:.2f} ms over true)")
        # In process (FLINKLINT_TIMINGS): config discovery + reading + resolution, and the rule
        # registry pass (every rule's level checked, nothing to lint), without process start.
        inproc = []
        env = dict(os.environ, FLINKLINT_TIMINGS="1")
        for _ in range(runs):
            err = subprocess.run([binary, "check", "jobs"], cwd=configured, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
            config = re.search(r"timings: config ([0-9.]+) ms", err)
            rules = re.search(r"rules ([0-9.]+) ms", err)
            if config and rules:
                inproc.append(float(config.group(1)) + float(rules.group(1)))
        if inproc:
            inproc.sort()
            p90 = inproc[min(len(inproc) - 1, int(len(inproc) * 0.9))]
            print(f"  {'in process: config + rule registry':38s} {statistics.median(inproc):6.3f} ms / "
                  f"p90 {p90:6.3f} ms  (target: under 5 ms)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def catalog_share(corpus, runs):
    """Prints what the catalog pass adds to the whole run of `check` (budget: at most 20 %):
    the benchmark binary checks the repository as the command line does (discovery, reading,
    parsing on all cores, rules, the JSON report) with and without the pass (the library's
    `Passes { catalog: false }`), interleaved, medians."""
    out = subprocess.run(["cargo", "bench", "--quiet", "--bench", "throughput", "--", "--catalog-share", str(runs), corpus],
                         check=True, capture_output=True, text=True).stdout
    print(out.strip())


def generate(corpus, files, seed):
    """Writes the benchmark's repository with scripts/gen_repo.py into `corpus`, unless the
    repository there was written by the same generator (no file of it changed since: the
    script and its package scripts/genrepo/) with the same arguments."""
    gen = os.path.join("scripts", "gen_repo.py")
    pkg = os.path.join("scripts", "genrepo")
    sources = [gen] + [os.path.join(pkg, f) for f in sorted(os.listdir(pkg)) if f.endswith(".py")]
    readme = os.path.join(corpus, "README.md")
    try:
        with open(readme, encoding="utf-8") as f:
            first = f.readline()
        current = f"--files {files} --seed {seed}:" in first and \
            os.path.getmtime(readme) >= max(os.path.getmtime(s) for s in sources)
    except OSError:
        current = False
    if not current:
        shutil.rmtree(corpus, ignore_errors=True)  # bench-out/ is this script's own folder
        subprocess.run([sys.executable, gen, "--out", corpus, "--files", str(files), "--seed", str(seed)],
                       check=True, stdout=subprocess.DEVNULL)


def run_rss(cmd, **kw):
    """Runs `cmd`; returns (seconds, peak RSS in MB) of that process alone (wait4)."""
    took, rss, _ = run_usage(cmd, **kw)
    return took, rss


def run_usage(cmd, **kw):
    """Runs `cmd`; returns (wall seconds, peak RSS in MB, CPU seconds: user + system) of that
    process alone (wait4). On a loaded machine the CPU time is the steadier figure."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    _, _, usage = os.wait4(p.pid, 0)
    took = time.perf_counter() - t
    p.returncode = 0
    return took, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime


def mark_project(corpus):
    """Makes `corpus` a project of its own with a `.flinklint.yaml`: inside this repository, the
    nearest `.flinklint.yaml` above would be this repository's own (a config file marks the root
    before a git work tree does); and in an unmarked folder (one with neither a config file nor a
    git work tree, as under /tmp) flinklint keeps no context cache, so every run of a large
    repository would be a first run."""
    config = os.path.join(corpus, ".flinklint.yaml")
    if not os.path.exists(config):
        with open(config, "w", encoding="utf-8") as f:
            f.write("# The benchmark's repository (scripts/bench.py).\ncatalog: auto\n")


def one_file(binary, corpus, runs):
    """Prints one staged file checked alone in `corpus` (made a git work tree): cold, warm and
    without the cache."""
    if not os.path.isdir(os.path.join(corpus, ".git")):
        subprocess.run(["git", "init", "-q", corpus], check=True)
    mark_project(corpus)
    files = sorted(os.path.relpath(os.path.join(d, f), corpus)
                   for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".sql"))
    # A job of the middle of the repository (deterministic for a given repository).
    jobs = [f for f in files if f.startswith("pipelines")]
    staged = jobs[len(jobs) // 2] if jobs else files[len(files) // 2]
    binary = os.path.abspath(binary)
    cache = os.path.join(corpus, ".flinklint_cache")
    cmd = [binary, "check", "--format", "json", "--exit-zero", staged]

    def cold():
        shutil.rmtree(cache, ignore_errors=True)
        return run_usage(cmd, cwd=corpus)

    def show(name, runs_):
        wall = [r[0] * 1e3 for r in runs_]
        cpu = [r[2] * 1e3 for r in runs_]
        print(f"  {name:34s} wall median {statistics.median(wall):7.1f} ms, best {min(wall):7.1f} ms; "
              f"CPU (user+sys) median {statistics.median(cpu):6.1f} ms, best {min(cpu):6.1f} ms")

    print(f"one file in the {len(files)}-file repository ({staged}; {runs} runs each):")
    cold()
    show("cold (no cache)", [cold() for _ in range(runs)])
    run_usage(cmd, cwd=corpus)
    show("warm (cache written)", [run_usage(cmd, cwd=corpus) for _ in range(runs)])
    show("--no-cache (every context file)",
         [run_usage(cmd + ["--no-cache"], cwd=corpus) for _ in range(runs)])
    show("true", [run_usage(["true"]) for _ in range(runs)])
    err = subprocess.run(cmd + ["--verbose"], cwd=corpus, capture_output=True, text=True).stderr
    for line in err.splitlines():
        if "context cache" in line:
            print("  " + line.replace("flinklint: ", ""))


def scales(args, target_dir):
    """The acceptance run of scaling: see the module's docstring."""
    sizes = [int(s) for s in args.scales.split(",") if s.strip()]
    if args.bin:
        binary = args.bin
    else:
        subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
        binary = os.path.join(target_dir, "release", "flinklint")
    binary = os.path.abspath(binary)
    first = None
    rows = []
    for n in sizes:
        corpus = os.path.join(args.out, f"corpus-{n}")
        generate(corpus, n, args.seed)
        # A marked project: the runs after the first read the context cache, as they do in a
        # git work tree (a large repository is checked in chunks, summed up from the cache).
        mark_project(corpus)
        if first is None:
            first = corpus
        if corpus == first and not args.no_throughput:
            out = subprocess.run(["cargo", "bench", "--quiet", "--bench", "throughput", "--", corpus],
                                 check=True, capture_output=True, text=True).stdout
            for line in out.splitlines():
                if "MB/s" in line:
                    print(line.strip())
        # Paths relative to the repository, which is the working directory of both commands
        # (a large repository is checked in chunks, with the context cache in its own
        # `.flinklint_cache/`).
        files = sorted(os.path.relpath(os.path.join(d, f), corpus)
                       for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".sql"))
        size = sum(os.path.getsize(os.path.join(corpus, f)) for f in files)
        runs = max(2, args.runs if n <= 20000 else args.runs // 3)
        cmd = [binary, "check", "--format", "json", "--exit-zero", "."]
        shutil.rmtree(os.path.join(corpus, ".flinklint_cache"), ignore_errors=True)
        # `cat` of every file, through xargs (100,000 paths are more than one command line
        # holds; at 20,000 files and below xargs runs one `cat`).
        listing = os.path.abspath(os.path.join(args.out, f"files-{n}.txt"))
        with open(listing, "wb") as f:
            f.write(b"\0".join(p.encode() for p in files))
        cat_cmd = ["xargs", "-0", "-a", listing, "cat"]
        subprocess.run(cat_cmd, cwd=corpus, stdout=subprocess.DEVNULL)  # page cache
        cold, cold_rss, _ = run_usage(cmd, cwd=corpus)  # no context cache yet
        # `check` and `cat` alternate, one of each a round: a machine whose speed drifts
        # over minutes (a shared VM) moves both alike, and each round gives a ratio of its own.
        timed, cats = [], []
        for _ in range(runs):
            timed.append(run_usage(cmd, cwd=corpus))
            cats.append(run_usage(cat_cmd, cwd=corpus)[0])
        lint = min(t for t, _, _ in timed)
        cpu = min(c for _, _, c in timed)
        rss = max([r for _, r, _ in timed] + [cold_rss])
        cat = min(cats)
        paired = statistics.median(t / c for (t, _, _), c in zip(timed, cats))
        rows.append((n, size, lint, cat, rss, cold, cpu, paired))
    print("whole run of `check .` against `cat` of the same files, alternated (best of --runs "
          "each, and the median of each round's ratio; the first run, with no context cache, "
          "apart; peak RSS of check, all runs; CPU: user + system, best, per file):")
    print(f"  {'files':>7s} {'MB':>7s} {'check ms':>9s} {'cat ms':>8s} {'ratio':>6s} {'rounds':>6s} "
          f"{'us/file':>8s} {'CPU us/file':>11s} {'RSS MB':>7s} {'1st run ms':>10s}")
    for n, size, lint, cat, rss, cold, cpu, paired in rows:
        print(f"  {n:7d} {size / 1e6:7.1f} {lint * 1e3:9.1f} {cat * 1e3:8.1f} {lint / cat:5.2f}x "
              f"{paired:5.2f}x {lint * 1e6 / max(n, 1):8.1f} {cpu * 1e6 / max(n, 1):11.1f} "
              f"{rss:7.1f} {cold * 1e3:10.1f}")
    one_file(binary, first, args.runs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--startup-runs", type=int, default=200)
    ap.add_argument("--startup-only", action="store_true", help="measure only the startup cost")
    ap.add_argument("--bin", help="with --scales: the flinklint binary to measure (default: build it)")
    ap.add_argument("--no-throughput", action="store_true",
                    help="with --scales: skip lex+parse throughput (it builds the benchmark binary)")
    ap.add_argument("--out", default="bench-out",
                    help="with --scales: the folder of the generated repositories (e.g. under /tmp: "
                    "the 100,000-file one takes 135 MB)")
    ap.add_argument("--quick", action="store_true",
                    help="with --scales: at most 20,000 files and 3 runs")
    ap.add_argument("--scales", help="comma-separated repository sizes (e.g. 2000,20000,100000): "
                    "ratio to cat and peak RSS at each, one file cold and warm, lex+parse MB/s")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    target_dir = os.environ.get("CARGO_TARGET_DIR", "target")
    if args.scales:
        if args.quick:
            args.scales = ",".join(x for x in args.scales.split(",") if x.strip() and int(x) <= 20000)
            args.runs = min(args.runs, 3)
        scales(args, target_dir)
        return
    if args.startup_only:
        subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
        startup(os.path.join(target_dir, "release", "flinklint"), args.startup_runs)
        return
    corpus = os.path.join("bench-out", "corpus")
    generate(corpus, args.files, args.seed)
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".sql"))
    size = sum(os.path.getsize(f) for f in files)
    print(f"repository: {len(files)} files, {size / 1e6:.2f} MB (scripts/gen_repo.py --files {args.files} --seed {args.seed})")
    out = subprocess.run(["cargo", "bench", "--quiet", "--bench", "throughput", "--", corpus], check=True, capture_output=True, text=True).stdout
    print(out.strip())
    binary = os.path.join(target_dir, "release", "flinklint")
    best_of([binary, "check", corpus], 2)  # warm the page cache
    lint = best_of([binary, "check", "--format", "json", "--exit-zero", corpus], args.runs)
    cat = best_of(["cat", *files], args.runs)
    print(f"flinklint check: {lint * 1e3:8.1f} ms  (best of {args.runs})")
    print(f"cat (same files): {cat * 1e3:7.1f} ms  (best of {args.runs})")
    print(f"ratio check/cat: {lint / cat:8.1f}x")
    catalog_share(corpus, max(args.runs, 25))
    startup(binary, args.startup_runs)


if __name__ == "__main__":
    main()

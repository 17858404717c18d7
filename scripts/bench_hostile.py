#!/usr/bin/env python3
"""Benchmark of hostile input: time, peak memory and output size of `flinklint check` on files
made to be expensive, at three sizes each, to show that cost grows linearly with the input and
that reports stay bounded (docs/performance.md, "Hostile input").

Cases (each file alone in a temporary folder, checked as a folder so that no context is read):
  - lexical errors on one line: `SELECT ` and N unknown characters `~` (N = 10k, 100k, 1M),
    in the concise, human and json formats: after the first 100 lexical errors of a file, one
    finding counts the rest, so output stays the same size while the time grows with N;
  - columns of one CREATE TABLE (N = 1k, 10k, 100k): table building is linear;
  - findings: N tables, each with a primary key Flink rejects (TB001; N = 10k, 100k, 300k), in
    the human and json formats: a report shows at most 1,000 (human) or 10,000 (json) of them;
  - suppression comments: the same tables, each finding silenced by its own comment.

Usage (from the repository root):
    python3 scripts/bench_hostile.py [--binary PATH] [--runs 3] [--quick]

Without --binary it builds the release binary with `cargo build --release` and uses it
(CARGO_TARGET_DIR is honoured). --quick leaves out the largest size of each case. Timings are
the best of --runs runs (wall clock); peak memory is the resident set of that process.
Machines here are noisy: read the ratios between sizes, not absolute times across runs.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def build():
    """Builds the release binary and returns its path."""
    out = subprocess.run(
        ["cargo", "build", "--release", "--message-format=json-render-diagnostics"],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            if msg["target"]["name"] == "flinklint":
                return msg["executable"]
    sys.exit("cargo did not report the flinklint binary")


def run_once(cmd):
    """Runs cmd, returns (seconds, peak RSS in MB, output bytes, exit code)."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        size = out.seek(0, os.SEEK_END)
    return took, usage.ru_maxrss / 1024, size, proc.returncode


def measure(binary, text, fmt, runs):
    """Best time of `runs` runs of `check --format fmt` on a folder holding only `text`."""
    folder = tempfile.mkdtemp(prefix="flinklint-hostile-")
    try:
        with open(os.path.join(folder, "input.sql"), "w", encoding="utf-8") as f:
            f.write(text)
        cmd = [binary, "check", "--format", fmt, folder]
        results = [run_once(cmd) for _ in range(runs)]
        return min(results, key=lambda r: r[0])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def human_size(n):
    for unit in ["B", "KB", "MB", "GB"]:
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


CASES = [
    (
        "lexical errors on one line",
        "errors",
        [10_000, 100_000, 1_000_000],
        lambda n: "SELECT " + "~" * n + ";\n",
        ["concise", "human", "json"],
    ),
    (
        "columns in one CREATE TABLE",
        "columns",
        [1_000, 10_000, 100_000],
        lambda n: "CREATE TABLE t ("
        + ", ".join(f"c{i} INT" for i in range(n))
        + ") WITH ('connector' = 'datagen');\n",
        ["concise"],
    ),
    (
        "ALTER TABLE ADD + MODIFY of n columns, ROW of n fields, CASE of n results",
        "alter",
        [1_000, 10_000, 100_000],
        lambda n: "CREATE TABLE t (id INT) WITH ('connector' = 'datagen');\n"
        + "ALTER TABLE t ADD ("
        + ", ".join(f"c{i} INT" for i in range(n))
        + ");\nALTER TABLE t MODIFY ("
        + ", ".join(f"c{i} BIGINT" for i in range(n))
        + ");\nSELECT CAST(NULL AS ROW<"
        + ", ".join(f"f{i} INT" for i in range(n))
        + ">), CASE "
        + " ".join(f"WHEN id = {i} THEN c{i}" for i in range(n))
        + " END FROM t;\n",
        ["concise"],
    ),
    (
        "tables with one finding each",
        "findings",
        [10_000, 100_000, 300_000],
        lambda n: "".join(
            f"CREATE TABLE t{i} (a INT NOT NULL PRIMARY KEY) WITH ('connector' = 'datagen');\n"
            for i in range(n)
        ),
        ["human", "json"],
    ),
    (
        "tables silenced by a suppression comment each",
        "comments",
        [10_000, 100_000, 300_000],
        lambda n: "".join(
            "-- flinklint: ignore TB001\n"
            f"CREATE TABLE t{i} (a INT NOT NULL PRIMARY KEY) WITH ('connector' = 'datagen');\n"
            for i in range(n)
        ),
        ["concise"],
    ),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="a flinklint binary (default: build the release one)")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (best is kept)")
    parser.add_argument("--quick", action="store_true", help="leave out the largest size")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary) if args.binary else build()
    print(f"binary: {binary}")
    print(f"{'case':<52} {'N':>9} {'format':<8} {'time':>9} {'per 1k N':>10} {'peak RSS':>9} {'output':>10}")
    for title, unit, sizes, make, formats in CASES:
        if args.quick:
            sizes = sizes[:-1]
        for fmt in formats:
            for n in sizes:
                took, rss, size, code = measure(binary, make(n), fmt, args.runs)
                if code not in (0, 1):
                    print(f"  exit code {code}: the run failed", file=sys.stderr)
                per = took / n * 1000 * 1000
                print(
                    f"{title:<52} {n:>9,} {fmt:<8} {took:>8.3f}s {per:>8.1f}ms {rss:>7.0f}MB {human_size(size):>10}"
                )
                sys.stdout.flush()


if __name__ == "__main__":
    main()

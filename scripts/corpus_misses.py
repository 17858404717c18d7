#!/usr/bin/env python3
"""List the corpus rejections that flinklint's query validation misses, grouped by message.

The corpus (`../shared/corpus/`, beside the project) holds real Flink SQL files and, in
`validation-verdicts.jsonl`, Flink 2.3's verdict on every statement after its parser: the
stage where Flink rejected it (`convert`: validation and conversion, `explain`: planning) and
whether that verdict is `knowable` from the file alone. `tests/corpus.rs`
(`no_query_validation_error_where_flink_accepts_the_statement`) counts a knowable
convert/explain rejection as flagged when an error-level finding other than a syntax error
(`SY...`) starts inside the statement. This script applies the same rule with the built
binary (`flinklint check --format json`, one file at a time, as the test checks each file
alone with the default settings) and prints the rejections no such finding flags, with
Flink's first message line, grouped by the message's pattern (names, numbers and quoted
text replaced by placeholders), largest group first.

Usage:
    cargo build --release
    python3 scripts/corpus_misses.py [--bin PATH] [--corpus DIR] [--jobs N] [--flat] [--json]

`--flat` lists the misses one per line (file:line: message) instead of grouping them;
`--json` prints them as JSON lines. Exit status 0; the figures go to standard error.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)


def default_bin():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(PROJECT, "target"))
    return os.path.join(target, "release", "flinklint")


def pattern(message):
    """The shape of a Flink message: quoted names, numbers and type lists made generic."""
    m = message
    m = re.sub(r"'[^']*'", "'_'", m)
    m = re.sub(r"`[^`]*`", "`_`", m)
    m = re.sub(r'"[^"]*"', '"_"', m)
    m = re.sub(r"\bline \d+, column \d+", "line N, column N", m)
    m = re.sub(r"\b\d+\b", "N", m)
    m = re.sub(r"\[[^\]]*\]", "[...]", m)
    m = re.sub(r"<[^<>]*>", "<...>", m)
    return m[:160]


def check(binary, path, workdir):
    """Error findings (not SY) of one file: list of (line, column, code, message)."""
    out = subprocess.run(
        [binary, "check", "--format", "json", path],
        cwd=workdir,
        capture_output=True,
        text=True,
    )
    try:
        report = json.loads(out.stdout)
    except json.JSONDecodeError:
        print(f"{path}: no JSON output: {out.stderr.strip()[:200]}", file=sys.stderr)
        return []
    return [
        (d["line"], d["column"], d["code"], d["message"])
        for d in report.get("diagnostics", [])
        if d["severity"] == "error" and not d["code"].startswith("SY")
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=default_bin())
    parser.add_argument("--corpus", default=os.path.join(PROJECT, "..", "shared", "corpus"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--flat", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    # Without `..`: flinklint looks for `.flinklint.yaml` in the folders of the path as
    # written, and `PROJECT/../shared` would find the project's own configuration.
    args.corpus = os.path.realpath(args.corpus)

    by_file = defaultdict(list)
    with open(os.path.join(args.corpus, "validation-verdicts.jsonl")) as f:
        for line in f:
            if line.strip():
                v = json.loads(line)
                by_file[v["file"]].append(v)
    wanted = {
        file: sorted(vs, key=lambda v: (v["line"], v["col"]))
        for file, vs in by_file.items()
        if any(
            not v["ok"] and v.get("knowable") is True and v.get("stage") in ("convert", "explain")
            for v in vs
        )
    }
    # An empty working directory: no `.flinklint.yaml` is found above it.
    workdir = tempfile.mkdtemp(prefix="corpus-misses-")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        findings = dict(
            zip(
                wanted,
                pool.map(
                    lambda f: check(args.bin, os.path.join(args.corpus, f), workdir), wanted
                ),
            )
        )
    # The binary may leave its cache (`.flinklint_cache`) there.
    shutil.rmtree(workdir, ignore_errors=True)

    knowable, misses = 0, []
    for file, verdicts in wanted.items():
        flagged = [False] * len(verdicts)
        for line, column, _code, _message in findings[file]:
            index = None
            for i, v in enumerate(verdicts):
                if (v["line"], v["col"]) <= (line, column):
                    index = i
            if index is not None:
                flagged[index] = True
        for v, hit in zip(verdicts, flagged):
            if not v["ok"] and v.get("knowable") is True and v.get("stage") in ("convert", "explain"):
                knowable += 1
                if not hit:
                    misses.append(v)

    print(
        f"knowable convert/explain rejections: {knowable}; flagged: {knowable - len(misses)}; "
        f"missed: {len(misses)}",
        file=sys.stderr,
    )
    if args.json:
        for v in misses:
            print(json.dumps({k: v.get(k) for k in ("file", "line", "end_line", "stage",
                                                    "flink_message_first_line")}))
        return
    if args.flat:
        for v in misses:
            print(f"{v['file']}:{v['line']}: [{v['stage']}] {v['flink_message_first_line']}")
        return
    groups = defaultdict(list)
    for v in misses:
        groups[pattern(v["flink_message_first_line"] or "")].append(v)
    for key, vs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"\n## {len(vs)}  {key}")
        for v in vs:
            print(f"   {v['file']}:{v['line']}-{v['end_line']}: {v['flink_message_first_line'][:200]}")


if __name__ == "__main__":
    main()

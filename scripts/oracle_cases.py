#!/usr/bin/env python3
"""Runs differential-test cases through real Apache Flink and records Flink's verdicts.

Each case is one `.sql` file under `fixtures/oracle/<area>/`, run in a fresh Flink session
(a new TableEnvironment) by `../shared/oracle/flink_oracle.py`. Flink's output is written
beside the case as `<case>.flink.jsonl`: one JSON object per statement with the fields the
tests compare (`index`, `line`, `col`, `ok`, `stage`, `action`, `error_message`,
`show_create`, and `rows` for SHOW and DESCRIBE). The expected files are Flink's words, committed; the oracle is not.

Usage (from the repository root; the oracle's virtualenv is described in its README):

    FLINK_ORACLE_PYTHON=/path/to/.oracle-venv/bin/python \
        python3 scripts/oracle_cases.py fixtures/oracle/like/*.sql

Without arguments every case under fixtures/oracle/ is run. `--check` only reports cases
whose recorded verdict is missing or differs from a fresh run (exit 1), writing nothing.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

KEEP = ("index", "line", "col", "statement_head", "ok", "stage", "action",
        "error_message", "show_create")


def oracle_path():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "shared", "oracle", "flink_oracle.py"))


def run(files, extra):
    python = os.environ.get("FLINK_ORACLE_PYTHON", "python3")
    cmd = [python, oracle_path(), "--msg-lines", "20", *extra, *files]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    by_file = {}
    for line in out.splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        kept = {k: rec.get(k) for k in KEEP}
        if "rows" in rec:
            kept["rows"] = rec["rows"]
        by_file.setdefault(rec["file"], []).append(kept)
    return by_file


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases", nargs="*")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--conf", action="append", default=[])
    args = ap.parse_args()
    cases = args.cases or sorted(glob.glob("fixtures/oracle/**/*.sql", recursive=True))
    extra = [x for c in args.conf for x in ("--conf", c)]
    by_file = run(cases, extra)
    stale = 0
    for case in cases:
        records = by_file.get(case) or by_file.get(os.path.abspath(case)) or []
        text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
        target = case[: -len(".sql")] + ".flink.jsonl"
        if args.check:
            old = open(target).read() if os.path.exists(target) else None
            if old != text:
                print(f"stale: {target}")
                stale += 1
        else:
            with open(target, "w") as f:
                f.write(text)
    if args.check and stale:
        sys.exit(1)


if __name__ == "__main__":
    main()

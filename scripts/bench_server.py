#!/usr/bin/env python3
"""Latency and memory of the language server (`flinklint server`) on the generated repository.

Generates the 2,000-file repository (scripts/gen_repo.py) unless --repo names one, adds a file
of 1,000 lines to it (pipelines/bench/wide.sql: 100 tables of 8 columns), starts the server
on it as an editor would (initialize with the repository as the workspace folder), opens the
file and sends --edits changes of it, each one adding or removing a finding (a double-quoted
literal, SY003), so that each change must publish the file's diagnostics. It prints:

- the time from start to the first diagnostics of the opened file, with the context cache
  (`.flinklint_cache/`) cold (removed first) and warm (as the first run's server left it): with
  a warm cache the server checks the opened file with the context files the cache says it
  needs before it checks the whole repository;
- the time from start to the first check of the whole repository answered;
- per change: the time from sending `textDocument/didChange` to receiving the file's
  `textDocument/publishDiagnostics` (median, p90, max), the server's debounce included;
- the server's peak resident memory (VmHWM of /proc/PID/status, Linux).

Usage: python3 scripts/bench_server.py [--bin target/release/flinklint] [--repo DIR]
       [--edits 40]

A benchmark, not a test: it prints figures (docs/performance.md records them) and asserts
nothing about time.
"""
import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def reader(stream, out):
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                out.put(None)
                return
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = stream.read(length)
        out.put((time.perf_counter(), json.loads(body)))


def wide_file(tables=100):
    lines = []
    for t in range(tables):
        lines.append(f"CREATE TABLE wide_{t} (")
        for c in range(7):
            lines.append(f"  c{c} BIGINT,")
        lines.append("  c7 STRING")
        lines.append(") WITH ('connector' = 'datagen');")
    return "\n".join(lines) + "\n"


def session(binary, repo, wide, text, edits):
    """Starts the server on `repo`, opens `wide` (its text with two findings), sends `edits`
    changes; returns the figures."""
    server = subprocess.Popen([binary, "server"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    inbox = queue.Queue()
    threading.Thread(target=reader, args=(server.stdout, inbox), daemon=True).start()

    def send(message):
        server.stdin.write(frame(message))
        server.stdin.flush()

    def wait_for(predicate, timeout=120):
        end = time.perf_counter() + timeout
        while True:
            item = inbox.get(timeout=max(0.0, end - time.perf_counter()))
            if item is None:
                raise SystemExit("the server stopped")
            if predicate(item[1]):
                return item

    uri = "file://" + wide
    opened = text + 'SELECT "y";\nSELECT "y";\n'
    with open(wide, "w") as f:
        f.write(opened)
    start = time.perf_counter()
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "rootUri": None, "capabilities": {},
        "workspaceFolders": [{"uri": "file://" + repo, "name": "repo"}]}})
    wait_for(lambda m: m.get("id") == 1)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "sql", "version": 1, "text": opened}}})
    t, m = wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri)
    if len(m["params"]["diagnostics"]) != 2:
        raise SystemExit(f"first diagnostics: {m['params']['diagnostics']}")
    first = (t - start) * 1e3
    # A request is answered after the pending check of the whole repository.
    send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
          "params": {"textDocument": {"uri": uri}}})
    t, _ = wait_for(lambda m: m.get("id") == 2)
    whole = (t - start) * 1e3

    latencies = []
    for i in range(edits):
        finding = i % 2 == 0
        new = text + ('SELECT "x";\n' if finding else "")
        sent = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": i + 2},
            "contentChanges": [{"text": new}]}})
        t, m = wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == uri)
        got = len(m["params"]["diagnostics"])
        if (got > 0) != finding:
            raise SystemExit(f"edit {i}: {got} diagnostics, expected {'some' if finding else 'none'}")
        latencies.append((t - sent) * 1e3)
        time.sleep(0.05)

    peak = None
    try:
        with open(f"/proc/{server.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) / 1024
    except OSError:
        pass
    send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    wait_for(lambda m: m.get("id") == 3)
    send({"jsonrpc": "2.0", "method": "exit"})
    server.wait(timeout=30)
    return {"first": first, "whole": whole, "latencies": latencies, "peak": peak}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/flinklint")
    ap.add_argument("--repo")
    ap.add_argument("--edits", type=int, default=40)
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = None
    repo = args.repo
    if repo is None:
        tmp = tempfile.mkdtemp(prefix="flinklint-bench-server-")
        repo = os.path.join(tmp, "repo")
        subprocess.run([sys.executable, os.path.join(here, "gen_repo.py"), "--out", repo],
                       check=True, stdout=subprocess.DEVNULL)
    repo = os.path.abspath(repo)
    wide = os.path.join(repo, "pipelines", "bench", "wide.sql")
    os.makedirs(os.path.dirname(wide), exist_ok=True)
    text = wide_file()
    with open(wide, "w") as f:
        f.write(text)
    files = sum(1 for _, _, fs in os.walk(repo) for n in fs if n.endswith(".sql"))
    print(f"repository: {files} .sql files; wide.sql: {text.count(chr(10))} lines")

    cache = os.path.join(repo, ".flinklint_cache")
    shutil.rmtree(cache, ignore_errors=True)
    cold = session(args.bin, repo, wide, text, 0)
    warm = session(args.bin, repo, wide, text, args.edits)
    print(f"start to the first diagnostics of the opened file: cold cache {cold['first']:.0f} ms, "
          f"warm cache {warm['first']:.0f} ms")
    print(f"start to the first check of the whole repository answered: cold cache "
          f"{cold['whole']:.0f} ms, warm cache {warm['whole']:.0f} ms")
    latencies = warm["latencies"]
    peak = warm["peak"]
    latencies.sort()
    p90 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.9))]
    print(f"didChange -> publishDiagnostics over {len(latencies)} edits: "
          f"median {statistics.median(latencies):.1f} ms, p90 {p90:.1f} ms, "
          f"min {latencies[0]:.1f} ms, max {latencies[-1]:.1f} ms")
    if peak is not None:
        print(f"peak RSS of the server: {peak:.1f} MiB")
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

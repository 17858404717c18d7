#!/usr/bin/env python3
"""Before/after table for the real repositories (issue: real repositories).

    python3 summarize.py BEFORE_DIR AFTER_DIR BINARY > table.md

BEFORE_DIR/AFTER_DIR are measure.py output folders (classified.json, <repo>.json, .meta.json).
BINARY runs `files --format json .` in each repository for the dialect verdicts."""
import collections, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
before_dir, after_dir, binary = sys.argv[1:4]
repos = [l.split("\t") for l in open(os.path.join(HERE, "repos.tsv")).read().splitlines()[1:] if l.strip()]

def load(d):
    cls = json.load(open(os.path.join(d, "classified.json")))
    by = collections.defaultdict(list)
    for c in cls:
        by[c["repo"]].append(c)
    return by

B, A = load(before_dir), load(after_dir)

def key(c):
    return (c["rel"].lstrip("./") if c["rel"].startswith("./") else c["rel"], c["line"], c["code"])

def doc(d, repo):
    text = open(os.path.join(d, repo.replace("/", "+") + ".json")).read()
    return json.loads(text) if text.strip() else {"files_checked": 0}

def meta(d, repo):
    return json.load(open(os.path.join(d, repo.replace("/", "+") + ".meta.json")))

rows = []
tot = collections.Counter()
for r in repos:
    repo, kind, commit = r[0], r[1], r[2]
    b, a = B.get(repo, []), A.get(repo, [])
    src = os.path.join(HERE, "src", repo.replace("/", "+"))
    p = subprocess.run([binary, "files", "--format", "json", "."], cwd=src, capture_output=True, text=True)
    other_files = mixed_files = 0
    try:
        fj = json.loads(p.stdout)
        for f in fj.get("files", []):
            v = f.get("verdict")
            if v in ("not-flink", "not_flink", "other", "NotFlink", "not Flink SQL"):
                other_files += 1
            elif v in ("mixed", "Mixed"):
                mixed_files += 1
    except Exception:
        fj = None
    def count(lst, pred):
        return sum(1 for c in lst if pred(c))
    nb = lambda c: c["code"] != "SY006"
    real_b = {key(c) for c in b if c["cls"] == "real"}
    real_a = {key(c) for c in a if c["cls"] == "real"}
    row = dict(
        repo=repo, commit=commit[:10],
        files_b=doc(before_dir, repo).get("files_checked"), files_a=doc(after_dir, repo).get("files_checked"),
        other=other_files, mixed=mixed_files,
        sy006=count(a, lambda c: c["code"] == "SY006"),
        err_b=count(b, lambda c: c["severity"] == "error"), err_a=count(a, lambda c: c["severity"] == "error"),
        warn_b=count(b, lambda c: c["severity"] == "warning"), warn_a=count(a, lambda c: c["severity"] == "warning"),
        nonflink_b=count(b, lambda c: c["cls"] == "nonflink"), nonflink_a=count(a, lambda c: c["cls"] == "nonflink" and nb(c)),
        cross_b=count(b, lambda c: c["cls"] == "crossfile"), cross_a=count(a, lambda c: c["cls"] == "crossfile"),
        real_b=len(real_b), real_a=len(real_a), lost=len(real_b - real_a),
        unclass_a=count(a, lambda c: c["cls"] == "unclassified" and nb(c)),
        exit_b=meta(before_dir, repo)["exit"], exit_a=meta(after_dir, repo)["exit"],
    )
    rows.append(row)
    for k, v in row.items():
        if isinstance(v, int):
            tot[k] += v

cols = [("repository", "repo"), ("commit", "commit"), ("files checked", "files"), ("files other dialect / mixed", None),
        ("SY006 notes", "sy006"), ("errors", "err"), ("warnings", "warn"), ("on non-Flink SQL", "nonflink"),
        ("cross-file false alarms", "cross"), ("real Flink findings", "real"), ("real lost", "lost"), ("exit", "exit")]
print("| repository | commit | files checked | other dialect / mixed files (after) | SY006 notes (after) | errors | warnings | findings on non-Flink SQL | cross-file false alarms | real Flink findings | real lost | unclassified (after) | exit |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
def ba(r, k):
    return f"{r[k+'_b']} → {r[k+'_a']}"
for r in rows + [dict(repo="**total**", commit="", **{k: tot[k] for k in tot})]:
    print(f"| {r['repo']} | {r['commit']} | {ba(r,'files')} | {r['other']} / {r['mixed']} | {r['sy006']} | {ba(r,'err')} | {ba(r,'warn')} | {ba(r,'nonflink')} | {ba(r,'cross')} | {ba(r,'real')} | {r['lost']} | {r['unclass_a']} | {ba(r,'exit') if r['commit'] else ''} |")

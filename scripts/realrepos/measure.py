#!/usr/bin/env python3
"""Run a flinklint binary over the real repositories and tabulate what it reports.

    python3 measure.py BINARY OUTDIR [--md OUT.md] [--repos repos.tsv] [--src src]
                       [--classification classification.md] [--timeout 600] [--no-run]
                       [--list-unclassified]

For every repository of repos.tsv (extracted under src/<owner>+<name>) it runs
`BINARY check --format json .` from the repository root with no configuration, keeps
OUTDIR/<repo>.json (+ .stderr, .meta.json) and checks that no file of the tree changed.
Each finding is then classified with the hand judgements of classification.md:

  nonflink   the file (or the line range, or the Hive-dialect region) is not Flink SQL
  crossfile  CT002 / LK003 / LK004 / MT009 on a name that another file of the repository
             creates (computed), or CT001 whose earlier definition is in another file
  external   CT002 / LK003 on a name that no file of the repository creates (a table of a
             persistent catalog: Confluent Cloud topic, Hive metastore, JDBC catalog ...)
  real       a genuine problem in Flink SQL (Flink 2.3 rejects it / it would fail)
  notes      a Flink SQL notes or scratch file: the finding is caused by prose, shell
             commands, SQL-client transcripts or missing `;` between copied snippets
  platform   valid only on a vendor platform (Confluent Cloud / a company fork) and
             reported against open-source Flink 2.3
  fp         a false alarm of flinklint on valid Flink SQL (checked with the Flink oracle)
  unclassified  nothing in classification.md covers it: classify by hand

The Markdown table goes to --md (default: OUTDIR with a .md suffix).  Markdown files with
```sql fences (and the number of fenced blocks) are counted too.
"""
import argparse, collections, fnmatch, hashlib, json, os, re, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
XREF_CODES = {"CT002", "LK003", "LK004", "MT009"}
CLASSES = ["nonflink", "crossfile", "external", "real", "notes", "platform", "fp", "unclassified"]
SQL_FENCE_LANGS = {"sql", "flinksql", "flink-sql", "flink", "sql-client"}
BARE_SQL_RE = re.compile(r'^\s*(?:Flink SQL>\s*)?(CREATE\s+(TEMPORARY\s+)?(TABLE|VIEW|CATALOG|FUNCTION)|SELECT\s|INSERT\s+INTO)', re.I | re.M)


# ----------------------------------------------------------------------------- helpers
def tree_digest(root):
    """sha1 of every regular file under root (to detect a linter writing to the tree)."""
    out = {}
    for dp, dn, fn in os.walk(root):
        dn[:] = [d for d in dn if d != ".git"]
        for f in fn:
            p = os.path.join(dp, f)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            h = hashlib.sha1()
            with open(p, "rb") as fh:
                h.update(fh.read())
            out[os.path.relpath(p, root)] = h.hexdigest()
    return out


def run_linter(binary, cwd, timeout):
    """Run `binary check --format json .`; return (exit, stdout, stderr, seconds, maxrss_kb)."""
    t0 = time.time()
    p = subprocess.Popen([binary, "check", "--format", "json", "."], cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        rc = "timeout"
    secs = time.time() - t0
    return rc, out, err, secs


def fix_diff(binary, root, timeout):
    """Run `check --fix --diff .` on a throw-away copy of root; return the files a safe --fix
    would change (None if the run failed)."""
    import shutil, tempfile
    tmp = tempfile.mkdtemp(prefix="flinklint-fixdiff-")
    try:
        dst = os.path.join(tmp, "repo")
        shutil.copytree(root, dst, symlinks=True)
        try:
            p = subprocess.run([binary, "check", "--fix", "--diff", "--format", "concise", "."], cwd=dst,
                               capture_output=True, timeout=timeout, env={**os.environ, "NO_COLOR": "1"})
        except subprocess.TimeoutExpired:
            return None
        out = p.stdout.decode("utf-8", "replace")
        changed = tree_digest(dst) != tree_digest(root)
        files = sorted({norm_path(m.group(1)[2:] if m.group(1).startswith("b/") else m.group(1))
                        for m in re.finditer(r'^\+\+\+ (\S.*?)\s*$', out, re.M)})
        return dict(files=files, wrote=changed, exit=p.returncode)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def norm_path(p):
    p = p.replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p


IDENT = r'(?:`[^`]+`|"[^"]+"|[\w$\-]+)'
QNAME = IDENT + r'(?:\s*\.\s*' + IDENT + r')*'
CREATE_RE = re.compile(
    r'\bCREATE\s+(?:OR\s+(?:REPLACE|ALTER)\s+)?(?:TEMPORARY\s+|TEMP\s+|EXTERNAL\s+)?'
    r'(?:MATERIALIZED\s+)?(?:TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?(' + QNAME + ')', re.I)


def last_name(qname):
    parts = re.findall(IDENT, qname)
    if not parts:
        return None
    n = parts[-1]
    if n[0] in '`"':
        n = n[1:-1]
    return n.lower()


def strip_comments(t):
    t = re.sub(r'/\*.*?\*/', ' ', t, flags=re.S)
    return re.sub(r'--[^\n]*', ' ', t)


def md_fences(text):
    """Yield (lang, start_line, body) of fenced blocks."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r'^([ \t]*)(`{3,}|~{3,})[ \t]*\{?\.?([^\s`{}]*)', lines[i])
        if m:
            fence, lang = m.group(2), m.group(3).lower()
            j = i + 1
            while j < len(lines) and not re.match(r'^[ \t]*' + re.escape(fence[0]) + '{%d,}[ \t]*$' % len(fence), lines[j]):
                j += 1
            yield lang, i + 1, "\n".join(lines[i + 1:j])
            i = j + 1
        else:
            i += 1


def scan_repo(root):
    """Definitions of tables/views per file (.sql files and ```sql fences of Markdown) and
    Markdown fence statistics."""
    defs = collections.defaultdict(set)     # name -> {relpath}
    md = {"md_files": 0, "md_files_sql": 0, "sql_fences": 0, "sql_fence_lines": 0, "bare_sql_fences": 0}
    for dp, dn, fn in os.walk(root):
        dn[:] = [d for d in dn if d not in (".git",)]
        for f in fn:
            p = os.path.join(dp, f)
            rel = os.path.relpath(p, root)
            low = f.lower()
            if low.endswith(".sql"):
                try:
                    t = open(p, encoding="utf-8", errors="replace").read()
                except OSError:
                    continue
                for m in CREATE_RE.finditer(strip_comments(t)):
                    n = last_name(m.group(1))
                    if n:
                        defs[n].add(rel)
            elif low.endswith((".md", ".markdown", ".mdx")):
                md["md_files"] += 1
                try:
                    t = open(p, encoding="utf-8", errors="replace").read()
                except OSError:
                    continue
                nblocks = 0
                for lang, line, body in md_fences(t):
                    if lang == "" and BARE_SQL_RE.search(body):
                        md["bare_sql_fences"] += 1
                    if lang in SQL_FENCE_LANGS:
                        nblocks += 1
                        md["sql_fence_lines"] += body.count("\n") + 1
                        for m in CREATE_RE.finditer(strip_comments(body)):
                            n = last_name(m.group(1))
                            if n:
                                defs[n].add(rel)
                if nblocks:
                    md["md_files_sql"] += 1
                    md["sql_fences"] += nblocks
    return defs, md


def hive_regions(text):
    """Line ranges (1-based, inclusive) after `SET table.sql-dialect = hive` up to the next
    `SET table.sql-dialect = default` (or the end of the file)."""
    regions, start = [], None
    for i, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if s.startswith("--"):
            continue
        m = re.match(r"""set\s+'?table\.sql-dialect'?\s*=\s*'?(\w+)'?""", s, re.I)
        if m:
            if m.group(1).lower() == "hive" and start is None:
                start = i + 1
            elif m.group(1).lower() != "hive" and start is not None:
                regions.append((start, i))
                start = None
    if start is not None:
        regions.append((start, 10 ** 9))
    return regions


# ----------------------------------------------------------------------------- classification
def parse_classification(path):
    """Read the ```files and ```findings TSV blocks of classification.md."""
    files, findings = [], []
    if not os.path.exists(path):
        return files, findings
    text = open(path, encoding="utf-8").read()
    for lang, _, body in md_fences(text):
        if lang not in ("files", "findings"):
            continue
        for row in body.split("\n"):
            if not row.strip() or row.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in row.split("\t")]
            if lang == "files":
                cols += [""] * (6 - len(cols))
                repo, glob, lines, cls, dialect, note = cols[:6]
                files.append(dict(repo=repo, glob=glob, lines=lines or "*", cls=cls, dialect=dialect, note=note))
            else:
                cols += [""] * (6 - len(cols))
                repo, path_, line, code, verdict, note = cols[:6]
                findings.append(dict(repo=repo, path=path_, line=line or "*", code=code or "*", verdict=verdict, note=note))
    return files, findings


def in_lines(spec, line, text_cache, path):
    if spec in ("*", ""):
        return True
    if spec == "hive-dialect":
        return any(a <= line <= b for a, b in hive_regions(text_cache(path)))
    for part in spec.split(","):
        part = part.strip()
        if "-" in part:
            a, b = part.split("-", 1)
            if int(a) <= line <= (int(b) if b else 10 ** 9):
                return True
        elif part and int(part) == line:
            return True
    return False


def classify(repo, root, diags, files_rules, finding_rules, defs):
    cache = {}

    def text_of(rel):
        if rel not in cache:
            try:
                cache[rel] = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read()
            except OSError:
                cache[rel] = ""
        return cache[rel]

    out = []
    for d in diags:
        rel = norm_path(d.get("file") or "")
        line = d.get("line") or 0
        code = d.get("code")
        cls, why = None, ""
        # 1. a verdict for this very finding (or for every finding of that code in the file)
        for r in finding_rules:
            if r["repo"] == repo and fnmatch.fnmatchcase(rel, r["path"]) and r["code"] in ("*", code) \
                    and (r["line"] == "*" or str(line) == r["line"]):
                cls, why = r["verdict"], r["note"]
                break
        # 2. the file / region is not Flink SQL
        if cls is None:
            for r in files_rules:
                if r["repo"] == repo and r["cls"] == "nonflink" and fnmatch.fnmatchcase(rel, r["glob"]) \
                        and in_lines(r["lines"], line, text_of, rel):
                    cls, why = "nonflink", r["dialect"]
                    break
        # 3. cross-file references (computed)
        if cls is None and code in XREF_CODES:
            m = re.search(r'`([^`]+)`', d.get("message", ""))
            name = last_name("`" + m.group(1).split(".")[-1] + "`") if m else None
            where = {w for w in defs.get(name, set()) if w != rel} if name else set()
            if where:
                cls, why = "crossfile", "%s created in %s" % (name, sorted(where)[0])
            elif name and rel in defs.get(name, set()) and m and not m.group(1).startswith("default_catalog."):
                cls, why = "external", "%s: a table of another catalog (same name created in this file)" % m.group(1)
            elif name and rel in defs.get(name, set()):
                cls, why = None, "defined later in the same file"
            else:
                cls, why = "external", "%s is created by no file of the repository" % name
        if cls is None and code == "CT001":
            m = re.search(r'defined at (\S+?)(?::\d+:\d+)?(?:\s|$)', d.get("message", ""))
            if m and norm_path(m.group(1)) != rel:
                cls, why = "crossfile", "first defined in " + norm_path(m.group(1))
        # 4. file-level default class (notes, platform ...)
        if cls is None:
            for r in files_rules:
                if r["repo"] == repo and r["cls"] != "nonflink" and fnmatch.fnmatchcase(rel, r["glob"]) \
                        and in_lines(r["lines"], line, text_of, rel):
                    cls, why = r["cls"], r["dialect"] or r["note"]
                    break
        out.append(dict(d, rel=rel, cls=cls or "unclassified", why=why))
    return out


# ----------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("outdir")
    ap.add_argument("--md", help="Markdown table to write (default: OUTDIR.md)")
    ap.add_argument("--repos", default=os.path.join(HERE, "repos.tsv"))
    ap.add_argument("--src", default=os.path.join(HERE, "src"))
    ap.add_argument("--classification", default=os.path.join(HERE, "classification.md"))
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--no-run", action="store_true", help="reuse OUTDIR/<repo>.json")
    ap.add_argument("--list-unclassified", action="store_true")
    ap.add_argument("--only", help="comma-separated repos (owner/name) to measure")
    ap.add_argument("--fix-diff", action="store_true",
                    help="also run `check --fix --diff .` on a copy and count the files a safe --fix would "
                         "rewrite (and how many of them are not Flink SQL)")
    a = ap.parse_args()

    binary = os.path.abspath(a.binary)
    outdir = os.path.abspath(a.outdir)
    os.makedirs(outdir, exist_ok=True)
    md_out = a.md or outdir.rstrip("/") + ".md"
    files_rules, finding_rules = parse_classification(a.classification)

    repos = []
    with open(a.repos, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        for row in fh:
            if row.strip():
                repos.append(dict(zip(header, row.rstrip("\n").split("\t"))))
    if a.only:
        keep = set(a.only.split(","))
        repos = [r for r in repos if r["repo"] in keep]

    rows, all_cls = [], []
    for r in repos:
        repo = r["repo"]
        key = repo.replace("/", "+")
        root = os.path.join(a.src, key)
        jpath = os.path.join(outdir, key + ".json")
        meta_path = os.path.join(outdir, key + ".meta.json")
        if not a.no_run:
            before = tree_digest(root)
            rc, out, err, secs = run_linter(binary, root, a.timeout)
            after = tree_digest(root)
            changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
            open(jpath, "wb").write(out)
            open(os.path.join(outdir, key + ".stderr"), "wb").write(err)
            meta = dict(repo=repo, binary=binary, exit=rc, seconds=round(secs, 3), changed_files=changed,
                        stderr_bytes=len(err), commit=r.get("commit"))
            if a.fix_diff:
                meta["fix_diff"] = fix_diff(binary, root, a.timeout)
            json.dump(meta, open(meta_path, "w"), indent=1)
        meta = json.load(open(meta_path)) if os.path.exists(meta_path) else dict(exit="?", seconds=None, changed_files=[])
        try:
            doc = json.load(open(jpath, encoding="utf-8"))
            diags, checked, crash = doc.get("diagnostics", []), doc.get("files_checked"), None
        except (OSError, ValueError) as e:
            diags, checked, crash = [], None, "no JSON output (%s)" % e.__class__.__name__
        errtxt = open(os.path.join(outdir, key + ".stderr"), encoding="utf-8", errors="replace").read() \
            if os.path.exists(os.path.join(outdir, key + ".stderr")) else ""
        if "panicked" in errtxt or (isinstance(meta.get("exit"), int) and meta["exit"] not in (0, 1)):
            crash = (crash + "; " if crash else "") + "exit %s: %s" % (meta.get("exit"), errtxt.strip()[:200])
        defs, md = scan_repo(root)
        cls = classify(repo, root, diags, files_rules, finding_rules, defs)
        all_cls += [dict(c, repo=repo) for c in cls]
        sev = collections.Counter(d.get("severity") for d in diags)
        cc = collections.Counter(c["cls"] for c in cls)
        nf_files = {c["rel"] for c in cls if c["cls"] == "nonflink"}
        fd = meta.get("fix_diff")
        nonflink_whole = [fr for fr in files_rules if fr["repo"] == repo and fr["cls"] == "nonflink" and fr["lines"] == "*"]
        fd_nf = [f for f in (fd or {}).get("files", []) if any(fnmatch.fnmatchcase(f, fr["glob"]) for fr in nonflink_whole)]
        rows.append(dict(fix_files=len(fd["files"]) if fd else None, fix_nf=fd_nf, fix_wrote=(fd or {}).get("wrote"),
                         repo=repo, kind=r.get("kind", ""), commit=(r.get("commit") or "")[:10], checked=checked,
                         errors=sev.get("error", 0), warnings=sev.get("warning", 0), infos=sev.get("info", 0),
                         total=len(diags), exit=meta.get("exit"), seconds=meta.get("seconds"),
                         changed=len(meta.get("changed_files") or []), crash=crash, cls=cc, nf_files=len(nf_files),
                         codes=collections.Counter(d.get("code") for d in diags), **md))

    # ------------------------------------------------------------------ Markdown
    L = []
    L.append("# flinklint on real repositories: `%s`\n" % binary)
    L.append("Generated by `measure.py %s %s` on %s. Findings are classified with the hand "
             "judgements of `classification.md` (see measure.py for the classes).\n"
             % (a.binary, a.outdir, time.strftime("%Y-%m-%d")))
    hdr = ["repository", "kind", "files checked", "errors", "warnings", "infos", "exit", "time s",
           "non-Flink (files)", "cross-file", "external name", "real Flink", "notes/scratch", "platform",
           "flinklint FP", "unclassified", "md files with sql fences", "sql fences"]
    L.append("| " + " | ".join(hdr) + " |")
    L.append("|" + "---|" * len(hdr))
    tot = collections.Counter()
    for x in rows:
        c = x["cls"]
        cells = [x["repo"], x["kind"], x["checked"], x["errors"], x["warnings"], x["infos"], x["exit"],
                 x["seconds"], "%d (%d)" % (c["nonflink"], x["nf_files"]), c["crossfile"], c["external"], c["real"],
                 c["notes"], c["platform"], c["fp"], c["unclassified"], x["md_files_sql"], x["sql_fences"]]
        L.append("| " + " | ".join(str(v) for v in cells) + " |")
        for k in ("checked", "errors", "warnings", "infos", "nf_files", "md_files_sql", "sql_fences"):
            tot[k] += x[k] or 0
        for k in CLASSES:
            tot[k] += c[k]
        tot["seconds"] += x["seconds"] or 0
    L.append("| **total** | | %d | %d | %d | %d | | %.2f | %d (%d) | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
        tot["checked"], tot["errors"], tot["warnings"], tot["infos"], tot["seconds"], tot["nonflink"], tot["nf_files"],
        tot["crossfile"], tot["external"], tot["real"], tot["notes"], tot["platform"], tot["fp"], tot["unclassified"],
        tot["md_files_sql"], tot["sql_fences"]))
    L.append("")
    L.append("## Codes per repository\n")
    L.append("| repository | commit | findings by code | tree modified by check | crash | files `--fix` would rewrite (non-Flink) | bare ``` fences with SQL |")
    L.append("|---|---|---|---|---|---|---|")
    for x in rows:
        fx = "-" if x["fix_files"] is None else "%d (%d%s)" % (x["fix_files"], len(x["fix_nf"]),
                                                              ": " + ", ".join(x["fix_nf"][:4]) + (" ..." if len(x["fix_nf"]) > 4 else "") if x["fix_nf"] else "")
        L.append("| %s | %s | %s | %s | %s | %s | %s |" % (x["repo"], x["commit"],
                 ", ".join("%s %d" % kv for kv in sorted(x["codes"].items(), key=lambda kv: -kv[1])) or "-",
                 x["changed"] or 0, x["crash"] or "-", fx, x["bare_sql_fences"]))
    L.append("")
    L.append("## Findings by class and code (all repositories)\n")
    bycc = collections.defaultdict(collections.Counter)
    for c in all_cls:
        bycc[c["cls"]][c["code"]] += 1
    L.append("| class | findings | codes |")
    L.append("|---|---|---|")
    for k in CLASSES:
        if bycc[k]:
            L.append("| %s | %d | %s |" % (k, sum(bycc[k].values()),
                     ", ".join("%s %d" % kv for kv in bycc[k].most_common())))
    L.append("")
    L.append("## Findings by class and severity (all repositories)\n")
    bys = collections.defaultdict(collections.Counter)
    files_by = collections.defaultdict(set)
    for c in all_cls:
        bys[c["cls"]][c.get("severity")] += 1
        files_by[c["cls"]].add((c["repo"], c["rel"]))
    L.append("| class | errors | warnings | infos | files |")
    L.append("|---|---|---|---|---|")
    for k in CLASSES:
        if bys[k]:
            L.append("| %s | %d | %d | %d | %d |" % (k, bys[k]["error"], bys[k]["warning"], bys[k]["info"], len(files_by[k])))
    L.append("")
    open(md_out, "w", encoding="utf-8").write("\n".join(L))
    json.dump([{k: v for k, v in c.items() if k in ("repo", "rel", "line", "column", "code", "severity", "message", "cls", "why")}
               for c in all_cls], open(os.path.join(outdir, "classified.json"), "w"), indent=1, ensure_ascii=False)
    print("\n".join(L))
    if a.list_unclassified:
        print("\n## unclassified")
        for c in all_cls:
            if c["cls"] == "unclassified":
                print("%s\t%s\t%s\t%s\t%s" % (c["repo"], c["rel"], c["line"], c["code"], c["message"][:120]))


if __name__ == "__main__":
    main()

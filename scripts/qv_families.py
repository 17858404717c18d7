#!/usr/bin/env python3
"""Counts the query validator's oracle cases (`fixtures/oracle/qv-*`) per family of the
acceptance: unknown names, grouping and aggregates, functions and arguments, types and casts,
set operations, INSERT schemas; rejected cases and accepted near misses (`-- expect: ok`).

A rejected case's family is its expected rule's; an accepted case's family is read from its
file name and statement (the mistake it nearly makes). Usage: python3 scripts/qv_families.py
"""
import glob
import os
import re
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

BY_CODE = {
    **{c: "names" for c in ("QV001", "QV002", "QV003", "QV004", "QV010", "QV011", "QV012",
                            "QV013", "QV014", "QV015", "QV016", "QV017")},
    **{c: "grouping" for c in ("QV005", "QV006", "QV007", "QV008", "QV009")},
    **{c: "functions" for c in ("QV020", "QV021", "QV022")},
    **{c: "types" for c in ("QV023", "QV024", "QV025", "QV026", "QV027")},
    **{c: "set operations" for c in ("QV028", "QV029")},
    **{c: "insert" for c in ("QV040", "QV041", "QV042", "QV043", "QV044", "QV045", "CL011")},
}

FAMILIES = ["names", "grouping", "functions", "types", "set operations", "insert"]


def accepted_family(area, slug, subject):
    s = slug.lower()
    q = subject.upper()
    if area == "qv-insert":
        return "insert"
    if re.search(r"union|intersect|except", s):
        return "set operations"
    if re.search(r"group|having|aggregate|distinct|grouped|sum_|count_ok|over_", s):
        return "grouping"
    if re.search(r"cast|compare|widening|null|where|boolean|ltz|unnest|type", s):
        return "types"
    if area == "qv-types":
        return "functions"
    if re.search(r"\b(UPPER|LOWER|ABS|CONCAT|SUBSTRING|ROUND|COALESCE)\s*\(", q) and area != "qv-names":
        return "functions"
    return "names"


def main():
    counts = {f: Counter() for f in FAMILIES}
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures/oracle/qv-*/*.sql"))):
        area = os.path.basename(os.path.dirname(path))
        if area == "qv-statements":
            continue
        text = open(path).read()
        m = re.search(r"^-- expect: (\S+)", text, re.M)
        if not m:
            continue
        expect = m.group(1)
        slug = os.path.basename(path)[4:-4]
        statements = [s for s in text.split(";") if s.strip()]
        subject = statements[-1] if statements else ""
        if expect == "ok":
            counts[accepted_family(area, slug, subject)]["accepted"] += 1
        elif expect in BY_CODE:
            counts[BY_CODE[expect]]["rejected"] += 1
    print(f"{'family':16} {'rejected':>9} {'accepted':>9} {'total':>6}")
    for f in FAMILIES:
        c = counts[f]
        print(f"{f:16} {c['rejected']:9} {c['accepted']:9} {c['rejected'] + c['accepted']:6}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Write the SQL of the function-call cases checked against Flink (fixtures/functions/).

Two checks. `count`: for every scalar or aggregate function of src/semantic/functions/catalog.rs
written f(args) (and the window table functions), one call with its fewest arguments and calls
with one argument too few and one too many, each argument a literal of the family the catalog
records (1 where unclassified). `name`: for the functions with their own grammar, without
parentheses, or of table kinds, one call written as Flink's grammar wants. Run the statements
through real Flink (the project's ground truth) in one shared environment and keep its verdicts:

    python3 scripts/gen_function_cases.py > /tmp/cases.sql
    python flink_oracle.py --shared-env --no-explain /tmp/cases.sql -o /tmp/out.jsonl
    python3 scripts/gen_function_cases.py --verdicts /tmp/out.jsonl \
        > fixtures/functions/oracle-calls.jsonl
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LITERALS = {
    "Decimal": "CAST(1 AS DECIMAL(10, 2))",
    "ApproximateNumeric": "CAST(1.5 AS DOUBLE)",
    "Character": "'a'",
    "String": "'a'",
    "Binary": "X'01'",
    "Boolean": "TRUE",
    "Date": "DATE '2024-01-01'",
    "Time": "TIME '10:00:00'",
    "Timestamp": "TIMESTAMP '2024-01-01 00:00:00'",
    "Datetime": "TIMESTAMP '2024-01-01 00:00:00'",
    "Interval": "INTERVAL '1' SECOND",
    "Array": "ARRAY[1]",
    "Map": "MAP['a', 1]",
    "Row": "ROW(1, 'a')",
    "Bitmap": "BITMAP_BUILD(ARRAY[1])",
}


def catalog():
    text = open(os.path.join(ROOT, "src/semantic/functions/catalog.rs"), encoding="utf-8").read()
    out = []
    for block in re.findall(r"FunctionDef \{(.*?)\n    \},", text, re.S):
        f = dict(re.findall(r"(\w+): (.*),", block))
        f["name"] = f["name"].strip('"')
        f["min_args"] = int(f["min_args"])
        m = re.fullmatch(r"Some\((\d+)\)", f["max_args"])
        f["max_args"] = int(m.group(1)) if m else None
        fams = re.findall(r"F::(\w+)", f["arg_types"])
        if f["arg_types"].startswith("ArgTypes::Variadic"):
            f["families"] = lambda i, fams=fams: fams[i] if i < len(fams) - 1 else fams[-1]
        else:
            f["families"] = lambda i, fams=fams: fams[i] if i < len(fams) else "Unknown"
        out.append(f)
    return out


SETUP = (
    "CREATE TABLE fn_src (x INT, s STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
    "WITH ('connector' = 'datagen')"
)
FROM = " FROM (VALUES (1)) AS t(x)"
MATCH = (
    "SELECT * FROM fn_src MATCH_RECOGNIZE (ORDER BY ts MEASURES {m} AS m "
    "PATTERN (A B) DEFINE B AS {d})"
)

# One accepted-looking call for each function with its own grammar, written as that grammar
# wants (Calcite's Parser.jj); Flink may still reject some for other reasons, never as unknown.
SPECIAL_CALLS = {
    "CAST": "SELECT CAST(1 AS STRING)",
    "TRY_CAST": "SELECT TRY_CAST('1' AS INT)",
    "EXTRACT": "SELECT EXTRACT(YEAR FROM DATE '2024-01-01')",
    "POSITION": "SELECT POSITION('a' IN 'abc')",
    "CONVERT": "SELECT CONVERT('a' USING utf8)",
    "TRANSLATE": "SELECT TRANSLATE('abc', 'a', 'b')",
    "OVERLAY": "SELECT OVERLAY('abc' PLACING 'x' FROM 2)",
    "FLOOR": "SELECT FLOOR(TIMESTAMP '2024-01-01 10:30:00' TO HOUR)",
    "CEIL": "SELECT CEIL(TIMESTAMP '2024-01-01 10:30:00' TO HOUR)",
    "CEILING": "SELECT CEILING(1.5)",
    "SUBSTRING": "SELECT SUBSTRING('abc' FROM 2 FOR 1)",
    "TRIM": "SELECT TRIM(BOTH 'a' FROM 'abc')",
    "TIMESTAMPADD": "SELECT TIMESTAMPADD(DAY, 1, TIMESTAMP '2024-01-01 00:00:00')",
    "TIMESTAMPDIFF": "SELECT TIMESTAMPDIFF(DAY, TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-02 00:00:00')",
    "CLASSIFIER": MATCH.format(m="CLASSIFIER()", d="B.x > 0"),
    "MATCH_ROWTIME": MATCH.format(m="MATCH_ROWTIME()", d="B.x > 0"),
    "MATCH_PROCTIME": MATCH.format(m="MATCH_PROCTIME()", d="B.x > 0"),
    "FIRST": MATCH.format(m="FIRST(A.x)", d="B.x > 0"),
    "LAST": MATCH.format(m="LAST(A.x)", d="B.x > 0"),
    "PREV": MATCH.format(m="A.x", d="B.x > PREV(B.x)"),
    "NEXT": MATCH.format(m="A.x", d="B.x > NEXT(B.x)"),
    "JSON_EXISTS": "SELECT JSON_EXISTS('{}', '$.a')",
    "JSON_VALUE": "SELECT JSON_VALUE('{}', '$.a')",
    "JSON_QUERY": "SELECT JSON_QUERY('{}', '$.a')",
    "JSON_OBJECT": "SELECT JSON_OBJECT(KEY 'a' VALUE 1)",
    "JSON_ARRAY": "SELECT JSON_ARRAY(1, 2)",
    "JSON_OBJECTAGG": "SELECT JSON_OBJECTAGG(KEY 'a' VALUE x)" + FROM,
    "JSON_ARRAYAGG": "SELECT JSON_ARRAYAGG(x)" + FROM,
    "ARRAY_AGG": "SELECT ARRAY_AGG(x)" + FROM,
    "TUMBLE": "SELECT * FROM TABLE(TUMBLE(TABLE fn_src, DESCRIPTOR(ts), INTERVAL '1' MINUTE))",
    "HOP": "SELECT * FROM TABLE(HOP(TABLE fn_src, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2' MINUTE))",
    "CUMULATE": "SELECT * FROM TABLE(CUMULATE(TABLE fn_src, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2' MINUTE))",
    "SESSION": "SELECT * FROM TABLE(SESSION(TABLE fn_src, DESCRIPTOR(ts), INTERVAL '1' MINUTE))",
    "TO_CHANGELOG": "SELECT * FROM TO_CHANGELOG(input => TABLE fn_src)",
    "FROM_CHANGELOG": "SELECT * FROM FROM_CHANGELOG(input => TABLE fn_src)",
    "ML_PREDICT": "SELECT * FROM ML_PREDICT(TABLE fn_src, MODEL no_model, DESCRIPTOR(x))",
    "ML_EVALUATE": "SELECT * FROM ML_EVALUATE(TABLE fn_src, MODEL no_model, DESCRIPTOR(x), DESCRIPTOR(s), 'classification')",
    "VECTOR_SEARCH": "SELECT * FROM VECTOR_SEARCH(TABLE fn_src, DESCRIPTOR(x), 1, 1)",
}

# Misspellings: names no function has.
MISSPELT = ["SUBSTRNG", "DATE_FROMAT", "CONCATT", "COUNTT", "TO_TIMESTAMPS", "JSONVALUE"]

WINDOW_TVF_ARGS = ["TABLE fn_src", "DESCRIPTOR(ts)"]


def call(f, n):
    args = ", ".join(LITERALS.get(f["families"](i), "1") for i in range(n))
    return f"{f['name']}({args})"


def cases():
    yield {"check": "setup", "sql": SETUP}
    for f in catalog():
        name = f["name"]
        if f["syntax"] == "Syntax::NoParens" and f["min_args"] == 0:
            yield {"check": "name", "function": name, "sql": f"SELECT {name}"}
        if name in SPECIAL_CALLS:
            yield {"check": "name", "function": name, "sql": SPECIAL_CALLS[name]}
        if f["syntax"] == "Syntax::Special":
            continue
        counts = [f["min_args"]]
        if f["min_args"] > 0:
            counts.append(f["min_args"] - 1)
        if f["max_args"] is not None:
            counts.append(f["max_args"] + 1)
        if f["kind"] in ("K::Scalar", "K::Aggregate"):
            for n in counts:
                yield {"check": "count", "function": name, "args": n, "sql": f"SELECT {call(f, n)}{FROM}"}
        elif name in ("TUMBLE", "HOP", "CUMULATE", "SESSION"):
            for n in counts:
                args = (WINDOW_TVF_ARGS + ["INTERVAL '1' MINUTE"] * n)[:n]
                yield {
                    "check": "count",
                    "function": name,
                    "args": n,
                    "sql": f"SELECT * FROM TABLE({name}({', '.join(args)}))",
                }
    # Names SHOW FUNCTIONS lists that the catalog does not have (Table API expressions and
    # operators without a runtime implementation), and misspellings: Flink must reject a call.
    names = {f["name"] for f in catalog()}
    show = open(os.path.join(ROOT, "fixtures/functions/show-functions.txt"), encoding="utf-8").read().split()
    for name in [n for n in show if n.upper() not in names] + MISSPELT:
        yield {"check": "absent", "function": name, "sql": f"SELECT {name}(1){FROM}"}


def main():
    all_cases = list(cases())
    if len(sys.argv) == 3 and sys.argv[1] == "--verdicts":
        verdicts = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8")]
        if len(verdicts) != len(all_cases):
            sys.exit(f"{len(verdicts)} verdicts for {len(all_cases)} cases")
        for c, v in zip(all_cases, verdicts):
            assert v["index"] == all_cases.index(c), (c, v)
            msg = (v.get("error_message") or "").splitlines()
            c["flink_ok"] = v["ok"]
            c["flink_stage"] = v["stage"]
            c["flink_message"] = msg[0] if msg else None
            print(json.dumps(c, ensure_ascii=False))
    else:
        for c in all_cases:
            print(c["sql"] + ";")


if __name__ == "__main__":
    main()

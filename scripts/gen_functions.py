#!/usr/bin/env python3
"""Generate src/semantic/functions/catalog.rs: Flink's built-in SQL functions as static data.

The data comes from the Flink release itself, read through its own classes (the release jars
that PyFlink ships, `pip install apache-flink==2.3.0`), not from a hand-written list:

  * org.apache.flink.table.functions.BuiltInFunctionDefinitions (flink-table-common): the
    functions of Flink's type-inference stack, reachable from SQL through the CoreModule when
    they have a runtime implementation (FunctionCatalogOperatorTable#verifyFunctionKind);
  * org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable (flink-table-planner),
    streaming mode, including the operators it re-exports from Calcite's SqlStdOperatorTable.

scripts/FunctionCatalogDump.java walks both through reflection (argument counts, expected
signatures, Calcite operand families, return-type strategies, determinism) and prints one JSON
object per definition; this script classifies those facts and writes the Rust table. Where a
strategy is too complex to classify it records `Unknown`, never a guess.

Usage:
    python3 scripts/gen_functions.py PYFLINK_LIB_DIR            # runs the dump (needs Java 17)
    python3 scripts/gen_functions.py --dump dump.jsonl          # reuse a dump
    options: --out src/semantic/functions/catalog.rs  --save-dump FILE

PYFLINK_LIB_DIR is e.g. .oracle-venv/lib/python3.11/site-packages/pyflink/lib.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# --------------------------------------------------------------------------------------------
# Running the dump


def run_dump(lib):
    jars = sorted(os.path.join(lib, j) for j in os.listdir(lib) if j.endswith(".jar"))
    loader = [j for j in jars if "flink-table-planner-loader" in j]
    if not loader:
        sys.exit(f"no flink-table-planner-loader jar in {lib}")
    tmp = tempfile.mkdtemp(prefix="flink-functions-")
    # The planner (with Calcite) is a jar inside the loader jar.
    with zipfile.ZipFile(loader[0]) as z:
        z.extract("flink-table-planner.jar", tmp)
    cp = [j for j in jars if j not in loader] + [os.path.join(tmp, "flink-table-planner.jar")]
    out = subprocess.run(
        ["java", "-cp", os.pathsep.join(cp), os.path.join(HERE, "FunctionCatalogDump.java")],
        check=True,
        capture_output=True,
        text=True,
    )
    version = commit = None
    for j in jars:
        if os.path.basename(j).startswith("flink-dist"):
            with zipfile.ZipFile(j) as z:
                for line in z.read(".flink-runtime.version.properties").decode().splitlines():
                    if line.startswith("project.version="):
                        version = line.split("=", 1)[1]
                    if line.startswith("git.commit.id="):
                        commit = line.split("=", 1)[1]
    header = json.dumps({"source": "release", "version": version, "commit": commit})
    return header + "\n" + out.stdout


# --------------------------------------------------------------------------------------------
# Classification

# Type families of Flink's type-inference stack, as its expected signatures print them.
NEW_STACK_FAMILIES = {
    "<ANY>": "Any",
    "<COMMON>": "Common",
    "<COMPARABLE>": "Comparable",
    "<CHARACTER_STRING>": "Character",
    "STRING": "Character",
    "<BINARY_STRING>": "Binary",
    "<NUMERIC>": "Numeric",
    "<INTEGER_NUMERIC>": "Integer",
    "<EXACT_NUMERIC>": "ExactNumeric",
    "<DECIMAL>": "Decimal",
    "<BOOLEAN>": "Boolean",
    "<ARRAY>": "Array",
    "ARRAY": "Array",
    "<MAP>": "Map",
    "MAP": "Map",
    "ROW": "Row",
    "<BITMAP>": "Bitmap",
}

# Calcite's SqlTypeFamily names.
CALCITE_FAMILIES = {
    "ANY": "Any",
    "NUMERIC": "Numeric",
    "INTEGER": "Integer",
    "EXACT_NUMERIC": "ExactNumeric",
    "APPROXIMATE_NUMERIC": "ApproximateNumeric",
    "DECIMAL": "Decimal",
    "CHARACTER": "Character",
    "BINARY": "Binary",
    "STRING": "String",
    "BOOLEAN": "Boolean",
    "DATETIME": "Datetime",
    "DATE": "Date",
    "TIME": "Time",
    "TIMESTAMP": "Timestamp",
    "DATETIME_INTERVAL": "Interval",
    "ARRAY": "Array",
    "MAP": "Map",
    "MULTISET": "Multiset",
}

KINDS = {
    "SCALAR": "Scalar",
    "AGGREGATE": "Aggregate",
    "TABLE": "Table",
    "TABLE_AGGREGATE": "TableAggregate",
    "PROCESS_TABLE": "ProcessTable",
    "ASYNC_SCALAR": "Scalar",
    "ASYNC_TABLE": "Table",
    "OTHER": "Other",
}


def family(s, table):
    return table.get(s, "Unknown")


def classify_args(signatures, min_args, max_args, table):
    """ArgTypes from the accepted signatures: one family per position, or Unknown."""
    if signatures is None or len(signatures) == 0:
        return ("Unknown",)
    variadic = [s for s in signatures if s and s[-1].endswith("...")]
    if variadic:
        if len(signatures) != 1:
            return ("Unknown",)
        sig = signatures[0]
        fixed = [family(x, table) for x in sig[:-1]]
        rest = family(sig[-1][: -len("...")], table)
        if rest == "Unknown" and all(f == "Unknown" for f in fixed):
            return ("Unknown",)
        return ("Variadic", fixed, rest)
    if max_args is None:
        return ("Unknown",)
    if any(len(s) > max_args for s in signatures):
        return ("Unknown",)
    positions = []
    for i in range(max_args):
        fams = {family(s[i], table) for s in signatures if len(s) > i}
        positions.append(fams.pop() if len(fams) == 1 else "Unknown")
    if max_args > 0 and all(f == "Unknown" for f in positions):
        return ("Unknown",)
    return ("Positional", positions)


def flink_type(t):
    t = t.strip()
    if t.startswith("type:"):
        return t[len("type:"):]
    m = re.match(r"CollectionDataType\(.*logicalType=type:([^,]+(?:<[^>]*>)?)", t)
    if m:
        return m.group(1)
    return None


def classify_new_stack_return(out):
    """(ReturnType, Nullability) from a printed Flink TypeStrategy."""
    nullability = "Declared"
    all_args = "includedArguments=ConstantArgumentCount(minCount=0, maxCount=-1)"
    m = re.fullmatch(r"NullableIfArgsTypeStrategy\((.*), nullableIfAllArgsNullable=(true|false)\)", out)
    if m:
        inner = m.group(1)
        if inner.startswith("includedArguments="):
            if not inner.startswith(all_args + ", "):
                return ("Unknown",), "Unknown"
            inner = inner[len(all_args) + 2:]
        inner = inner[len("initialStrategy="):]
        nullability = "IfAllArgsNullable" if m.group(2) == "true" else "IfAnyArgNullable"
        ret, inner_null = classify_new_stack_return(inner)
        if inner_null not in ("Declared", nullability):
            nullability = "Unknown"
        return ret, nullability
    m = re.fullmatch(r"ForceNullableTypeStrategy\(initialStrategy=(.*)\)", out)
    if m:
        ret, _ = classify_new_stack_return(m.group(1))
        return ret, "Always"
    m = re.fullmatch(r"ExplicitTypeStrategy\(explicitDataType=(.*)\)", out)
    if m:
        t = flink_type(m.group(1))
        return (("Fixed", t) if t else ("Unknown",)), "Declared"
    m = re.fullmatch(r"ArgumentMappingTypeStrategy\(pos=(\d+), mapper=.*\)", out)
    if m:
        return ("SameAsArg", int(m.group(1))), "Declared"
    if out == "TypeStrategies.COMMON" or out.startswith("CommonTypeStrategy("):
        return ("Common",), "Declared"
    return ("Unknown",), "Unknown"


# Calcite's ReturnTypes / Flink's FlinkReturnTypes constants.
CALCITE_FIXED = {
    "BOOLEAN": "BOOLEAN",
    "BIGINT": "BIGINT",
    "INTEGER": "INT",
    "DOUBLE": "DOUBLE",
    "DATE": "DATE",
    "VARCHAR_2000": "VARCHAR(2000)",
}


def calcite_explicit(s):
    """The type of an ExplicitReturnTypeInference over a SqlTypeName, or None."""
    m = re.fullmatch(r"ExplicitReturnTypeInference\(protoType=RelDataTypeImpl\$\$Lambda\S*\(arg\$1=(\w+)(?:, arg\$2=(\d+))?(?:, arg\$3=\w+)?(?:, arg\$2=false)?\)\)", s)
    if not m:
        return None
    name = {"INTEGER": "INT", "TIMESTAMP_WITH_LOCAL_TIME_ZONE": "TIMESTAMP_LTZ"}.get(m.group(1), m.group(1))
    if m.group(2):
        return f"{name}({m.group(2)})"
    # Flink's type factory gives a VARCHAR / VARBINARY without precision its largest length.
    return {"VARCHAR": "STRING", "VARBINARY": "BYTES"}.get(name, name)


# Calcite's SqlTypeTransforms applied to a return type.
TRANSFORMS = {
    "SqlTypeTransforms.TO_NULLABLE": "IfAnyArgNullable",
    "SqlTypeTransforms.FORCE_NULLABLE": "Always",
    "SqlTypeTransforms.TO_NOT_NULLABLE": "Declared",
}


def classify_calcite_return(ret):
    if ret is None or ret == "null":
        return ("Unknown",), "Unknown"
    m = re.fullmatch(r"(ReturnTypes|FlinkReturnTypes)\.(\w+)", ret)
    if m:
        name = m.group(2)
        base = re.sub(r"_(NULLABLE|FORCE_NULLABLE|NOT_NULL)$", "", name)
        nullability = "Declared"
        if name.endswith("_FORCE_NULLABLE"):
            nullability = "Always"
        elif name.endswith("_NULLABLE"):
            nullability = "IfAnyArgNullable"
        if m.group(1) == "FlinkReturnTypes":
            if base == "VARCHAR":
                return ("Fixed", "STRING NOT NULL" if name.endswith("NOT_NULL") else "STRING"), nullability
            return ("Unknown",), "Unknown"
        am = re.fullmatch(r"ARG(\d)", base)
        if am:
            return ("SameAsArg", int(am.group(1))), nullability
        if base in CALCITE_FIXED:
            t = CALCITE_FIXED[base]
            return ("Fixed", t if nullability != "Declared" else t + " NOT NULL"), nullability
        return ("Unknown",), "Unknown"
    t = calcite_explicit(ret)
    if t:
        return ("Fixed", t + " NOT NULL"), "Declared"
    m = re.fullmatch(r"SqlTypeTransformCascade\(rule=(.*), transforms=\[(SqlTypeTransforms\.\w+)\]\)", ret)
    if m:
        inner, _ = classify_calcite_return(m.group(1))
        nullability = TRANSFORMS.get(m.group(2), "Unknown")
        if inner[0] == "Fixed" and inner[1].endswith(" NOT NULL"):
            inner = ("Fixed", inner[1][: -len(" NOT NULL")])
        if inner[0] == "Unknown":
            nullability = "Unknown"
        return inner, nullability
    return ("Unknown",), "Unknown"


def calcite_kind(r):
    if r["is_agg"]:
        return "Aggregate"
    if r["is_table"]:
        return "Table"
    return "Scalar"


SYNTAX = {"FUNCTION": "Function", "FUNCTION_ID": "NoParens", "FUNCTION_STAR": "Star", "SPECIAL": "Special"}

# Functions with their own grammar in Calcite's parser (Parser.jj: BuiltinFunctionCall and the
# productions it calls: SqlExtractFromDateTime, FloorCeilOptions, TimestampAddFunctionCall,
# TimestampDiffFunctionCall, MatchRecognizeFunctionCall and its navigation calls, the Json*
# function calls) or in Flink's (TRY_CAST): their argument count is the number of operands the
# parser builds (TRIM's flag, JSON_VALUE's ON EMPTY behaviour, ...), not of comma-separated
# arguments. Calls written with commas where the grammar wants keywords fail in the parser.
PARSER_GRAMMAR = {
    "CAST", "TRY_CAST", "EXTRACT", "POSITION", "CONVERT", "TRANSLATE", "OVERLAY", "FLOOR", "CEIL",
    "CEILING", "SUBSTRING", "TRIM", "TIMESTAMPADD", "TIMESTAMPDIFF", "CLASSIFIER", "MATCH_NUMBER",
    "FIRST", "LAST", "PREV", "NEXT", "JSON_EXISTS", "JSON_VALUE", "JSON_QUERY", "JSON_OBJECT",
    "JSON_OBJECTAGG", "JSON_ARRAY", "JSON_ARRAYAGG", "ARRAY_AGG",
}

# Names the parser turns into a call of another operator (Parser.jj): the entry is a copy of the
# operator's, with special syntax; None where the parser builds a call no operator table
# resolves (argument counts then unknown).
GRAMMAR_ALIASES = {
    "CEILING": ("Scalar", "CEIL"),
    "TRANSLATE": ("Scalar", "TRANSLATE3"),
    "CONVERT": ("Scalar", None),
    "JSON_OBJECTAGG": ("Aggregate", None),
    "JSON_ARRAYAGG": ("Aggregate", None),
}


def build(rows):
    release = rows[0] if rows and rows[0].get("source") == "release" else {}
    builtin = [
        r
        for r in rows
        if r.get("source") == "builtin" and r["runtime_impl"] and not r["internal"] and not r["name"].startswith("$")
    ]
    calcite = [
        r
        for r in rows
        if r.get("source") == "calcite"
        and r["is_function"]
        and not r["name"].startswith("$")
        and r["syntax"] in SYNTAX
        and re.fullmatch(r"[A-Z_][A-Z0-9_]*", r["name"])
    ]
    entries = {}
    for r in builtin:
        name = r["name"].upper()
        ret, nullability = classify_new_stack_return(r.get("output") or "")
        entries[name] = {
            "name": name,
            "kind": KINDS.get(r["kind"], "Other"),
            "origin": "BuiltInFunctionDefinitions",
            "syntax": "Function",
            "min": r.get("min") or 0,
            "max": r.get("max"),
            "args": classify_args(r.get("signatures"), r.get("min") or 0, r.get("max"), NEW_STACK_FAMILIES),
            "ret": ret,
            "nullability": nullability,
            "deterministic": r["deterministic"],
        }
    shadowed = []
    by_name = {}
    for r in calcite:
        by_name.setdefault(r["name"], []).append(r)
    for name, ops in sorted(by_name.items()):
        if name in entries:
            shadowed.append(name)
            continue
        mins = [o["min"] for o in ops if o["min"] is not None]
        maxs = [o["max"] for o in ops]
        if len(mins) != len(ops):
            lo, hi = 0, None
        else:
            lo = min(mins)
            hi = None if any(m is None or m < 0 for m in maxs) else max(maxs)
        if len(ops) == 1:
            o = ops[0]
            args = classify_args(o.get("signatures"), lo, hi, CALCITE_FAMILIES)
            ret, nullability = classify_calcite_return(o.get("ret"))
        else:
            args, ret, nullability = ("Unknown",), ("Unknown",), "Unknown"
        kinds = {calcite_kind(o) for o in ops}
        syntaxes = {SYNTAX[o["syntax"]] for o in ops}
        if syntaxes == {"Function", "NoParens"}:
            syntaxes = {"NoParens"}
        entries[name] = {
            "name": name,
            "kind": kinds.pop() if len(kinds) == 1 else "Other",
            "origin": "FlinkSqlOperatorTable",
            "syntax": syntaxes.pop() if len(syntaxes) == 1 else "Special",
            "min": lo,
            "max": hi,
            "args": args,
            "ret": ret,
            "nullability": nullability,
            # Streaming mode: Flink evaluates CURRENT_TIMESTAMP and the like per record, so no
            # operator is a dynamic function there (isDynamicFunction); they are not
            # deterministic.
            "deterministic": all(o["deterministic"] and not o["dynamic"] for o in ops),
        }
    for name, (kind, target) in GRAMMAR_ALIASES.items():
        if name in entries:
            continue
        if target is not None:
            entries[name] = dict(entries[target], name=name)
        else:
            entries[name] = {
                "name": name,
                "kind": kind,
                "origin": "Parser",
                "syntax": "Special",
                "min": 0,
                "max": None,
                "args": ("Unknown",),
                "ret": ("Unknown",),
                "nullability": "Unknown",
                "deterministic": True,
                }
    for name in PARSER_GRAMMAR & set(entries):
        entries[name]["syntax"] = "Special"
    return release, [entries[k] for k in sorted(entries)], shadowed


# --------------------------------------------------------------------------------------------
# Rust output


def rust_args(a):
    if a[0] == "Unknown":
        return "ArgTypes::Unknown"
    if a[0] == "Positional":
        return "ArgTypes::Positional(&[" + ", ".join(f"F::{f}" for f in a[1]) + "])"
    return "ArgTypes::Variadic(&[" + ", ".join(f"F::{f}" for f in a[1]) + f"], F::{a[2]})"


def rust_ret(r):
    if r[0] == "Fixed":
        return f'ReturnType::Fixed("{r[1]}")'
    if r[0] == "SameAsArg":
        return f"ReturnType::SameAsArg({r[1]})"
    return f"ReturnType::{r[0]}"


def render(release, entries):
    lines = [
        "// @generated by scripts/gen_functions.py; do not edit by hand.",
        f"// Source: Apache Flink {release.get('version')} (commit {release.get('commit')}),",
        "// org.apache.flink.table.functions.BuiltInFunctionDefinitions (flink-table-common) and",
        "// org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable (flink-table-planner,",
        "// streaming mode, with the operators it re-exports from Calcite's SqlStdOperatorTable),",
        "// read through scripts/FunctionCatalogDump.java.",
        "",
        "use super::{ArgTypes, FunctionDef, FunctionKind as K, Nullability as N, Origin, ReturnType, Syntax};",
        "use super::TypeFamily as F;",
        "",
        f'/// The Flink release the table was generated from.',
        f'pub const FLINK_VERSION: &str = "{release.get("version")}";',
        "",
        f'/// The commit of that release.',
        f'pub const FLINK_COMMIT: &str = "{release.get("commit")}";',
        "",
        "/// Every built-in function callable by name in Flink SQL, sorted by name (upper case).",
        "pub static FUNCTIONS: &[FunctionDef] = &[",
    ]
    for e in entries:
        mx = "None" if e["max"] is None else f"Some({e['max']})"
        lines.append("    FunctionDef {")
        lines.append(f'        name: "{e["name"]}",')
        lines.append(f"        kind: K::{e['kind']},")
        lines.append(f"        origin: Origin::{e['origin']},")
        lines.append(f"        syntax: Syntax::{e['syntax']},")
        lines.append(f"        min_args: {e['min']},")
        lines.append(f"        max_args: {mx},")
        lines.append(f"        arg_types: {rust_args(e['args'])},")
        lines.append(f"        returns: {rust_ret(e['ret'])},")
        lines.append(f"        nullability: N::{e['nullability']},")
        lines.append(f"        deterministic: {'true' if e['deterministic'] else 'false'},")
        lines.append("    },")
    lines.append("];")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lib", nargs="?", help="PyFlink's lib directory (the Flink release jars)")
    ap.add_argument("--dump", help="reuse a dump written by --save-dump")
    ap.add_argument("--save-dump", help="also write the raw dump here")
    ap.add_argument("--out", default=os.path.join(ROOT, "src/semantic/functions/catalog.rs"))
    a = ap.parse_args()
    if a.dump:
        text = open(a.dump, encoding="utf-8").read()
    elif a.lib:
        text = run_dump(a.lib)
    else:
        ap.error("give PyFlink's lib directory or --dump")
    if a.save_dump:
        with open(a.save_dump, "w", encoding="utf-8") as f:
            f.write(text)
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    release, entries, shadowed = build(rows)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(render(release, entries))
    classified_args = sum(1 for e in entries if e["args"][0] != "Unknown")
    classified_ret = sum(1 for e in entries if e["ret"][0] != "Unknown")
    print(
        f"{len(entries)} functions ({sum(e['origin'] == 'BuiltInFunctionDefinitions' for e in entries)} "
        f"from BuiltInFunctionDefinitions), argument types classified for {classified_args}, "
        f"return type for {classified_ret}; FlinkSqlOperatorTable names shadowed by a "
        f"BuiltInFunctionDefinition: {', '.join(shadowed) or 'none'}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()

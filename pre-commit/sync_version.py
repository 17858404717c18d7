#!/usr/bin/env python3
"""Sets the flinklint version of the pre-commit mirror (this folder) to a release's version.

    python3 pre-commit/sync_version.py            # the version of ../Cargo.toml
    python3 pre-commit/sync_version.py 0.2.0      # a given version
    python3 pre-commit/sync_version.py --check [VERSION]

Rewrites the pin `flinklint==VERSION` and the package version in pyproject.toml, and the
`rev: vVERSION` of README.md's example. `--check` changes nothing and exits with 1, naming
each file that is not at the version. Run it when the version in Cargo.toml changes (the
release workflow checks that the tag, Cargo.toml and this folder agree, then publishes this
folder as the mirror repository, tagged `vVERSION`).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSION_RE = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+(?:[-.+]?[0-9A-Za-z.]+)?$")

# (file, pattern, replacement): each pattern must match exactly once.
EDITS = [
    ("pyproject.toml", r'(?m)^version = "[^"]*"$', 'version = "{v}"'),
    ("pyproject.toml", r'"flinklint==[^"]*"', '"flinklint=={v}"'),
    ("README.md", r"(?m)^(\s*rev: )v\S+$", r"\g<1>v{v}"),
]


def cargo_version() -> str:
    """The `version` of the `[package]` table of the repository's Cargo.toml."""
    text = (HERE.parent / "Cargo.toml").read_text(encoding="utf-8")
    in_package = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            in_package = stripped == "[package]"
        elif in_package:
            match = re.match(r'version\s*=\s*"([^"]+)"', stripped)
            if match:
                return match.group(1)
    raise SystemExit("sync_version.py: no [package] version in Cargo.toml")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("version", nargs="?", help="default: the version of Cargo.toml")
    parser.add_argument("--check", action="store_true", help="only check, change nothing")
    args = parser.parse_args()
    version = args.version or cargo_version()
    if version.startswith("v"):
        version = version[1:]
    if not VERSION_RE.match(version):
        print(f"sync_version.py: not a version number: {version!r}", file=sys.stderr)
        return 2
    stale = []
    texts = {}
    for name, pattern, replacement in EDITS:
        path = HERE / name
        text = texts.get(name, path.read_text(encoding="utf-8"))
        new, count = re.subn(pattern, replacement.replace("{v}", version), text)
        if count != 1:
            print(f"sync_version.py: {name}: expected one match of {pattern}, found {count}",
                  file=sys.stderr)
            return 2
        texts[name] = new
    for name, new in texts.items():
        path = HERE / name
        if path.read_text(encoding="utf-8") != new:
            stale.append(name)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    if args.check:
        for name in stale:
            print(f"sync_version.py: pre-commit/{name} is not at version {version}",
                  file=sys.stderr)
        return 1 if stale else 0
    for name in stale:
        print(f"pre-commit/{name}: version {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

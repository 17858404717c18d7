#!/usr/bin/env bash
# The Python wheel and the pre-commit mirror (pre-commit/), for real:
#
#   1. maturin (from PyPI, in a temporary virtualenv) builds the wheel of pyproject.toml, a
#      release build in the same cargo target folder and profile as `cargo test --release`
#      (run after it, the binary is already built and only packed);
#   2. the wheel is installed into a fresh virtualenv, without an index: `flinklint --version`
#      and `python -m flinklint --version` give Cargo.toml's version, and `flinklint check` on
#      examples/flink-project reports its intentional mistakes (exit code 1);
#   3. the mirror's hooks are those of .pre-commit-hooks.yaml but for the language, and
#      `pre-commit try-repo` runs them (language: python, pinning
#      flinklint==VERSION) on a throwaway repository, with pip pointed at the wheel just built
#      (PIP_FIND_LINKS, PIP_NO_INDEX): a staged file with a mistake fails `flinklint`, and
#      `flinklint-fix` fixes it; then staged clean files (and a Markdown file the project does
#      not check) pass both hooks. Each try-repo run installs the hook environment from scratch
#      (a new store per run): its time is the cold install time of the hook.
#
# Skips (exit 0, with a message) when maturin or pre-commit cannot be installed because PyPI is
# not reachable; any other failure fails.
# Environment: PYTHON (default python3); CARGO_TARGET_DIR and CARGO_PROFILE_* as for cargo
# (.ci/run sets CARGO_PROFILE_RELEASE_LTO=false).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
NAME="wheel try"
skip() {
  echo "$NAME: SKIPPED: $*"
  exit 0
}
fail() {
  echo "$NAME: FAILED: $*" >&2
  exit 1
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flinklint-wheel-try.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="flinklint tests" GIT_AUTHOR_EMAIL="tests@flinklint.invalid"
export GIT_COMMITTER_NAME="flinklint tests" GIT_COMMITTER_EMAIL="tests@flinklint.invalid"
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GITHUB_ACTIONS PIP_NO_INDEX PIP_REQUIRE_VIRTUALENV
export NO_COLOR=1 CARGO_TERM_COLOR=never PRE_COMMIT_COLOR=never

VERSION=$(sed -n '/^\[package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' "$ROOT/Cargo.toml" | head -n 1)
[ -n "$VERSION" ] || fail "no version in Cargo.toml"

# --- 1. maturin and pre-commit, from PyPI, in a virtualenv ----------------------------------
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || skip "$PYTHON not found"
"$PYTHON" -m venv "$WORK/tools" >"$WORK/venv.log" 2>&1 ||
  { cat "$WORK/venv.log"; skip "$PYTHON cannot create a virtualenv"; }
# The wheels folder also gets setuptools, which pip needs to install the mirror's package
# (its build backend) when it may not reach an index.
WHEELS="$WORK/wheels"
mkdir -p "$WHEELS"
pip_from_pypi() {
  if ! "$WORK/tools/bin/python" -m pip "$@" --disable-pip-version-check --timeout 30 \
    --retries 2 >"$WORK/pip.log" 2>&1; then
    tail -n 20 "$WORK/pip.log"
    if grep -qiE 'connection|network|resolution|timed out|timeout|unreachable|no matching distribution|could not find a version|proxy|ssl' "$WORK/pip.log"; then
      skip "pip $1 could not reach PyPI (offline or unreachable)"
    fi
    fail "pip $* failed (not a network error: see above)"
  fi
}
pip_from_pypi install "maturin>=1.9,<2" pre-commit
pip_from_pypi download --only-binary :all: --dest "$WHEELS" "setuptools>=70.1"
echo "$NAME: using maturin $("$WORK/tools/bin/maturin" --version | cut -d' ' -f2), $("$WORK/tools/bin/pre-commit" --version)"

# --- 2. the wheel -----------------------------------------------------------------------------
started=$(date +%s)
(cd "$ROOT" && "$WORK/tools/bin/maturin" build --release --locked --out "$WHEELS") \
  >"$WORK/maturin.log" 2>&1 || { cat "$WORK/maturin.log"; fail "maturin build failed"; }
echo "$NAME: maturin built the wheel in $(($(date +%s) - started)) s:"
sed 's/^/  | /' "$WORK/maturin.log" | tail -n 4
wheels=("$WHEELS"/flinklint-"$VERSION"-*.whl)
[ -f "${wheels[0]}" ] || fail "no flinklint-$VERSION wheel in $WHEELS"
[ "${#wheels[@]}" -eq 1 ] || fail "more than one wheel: ${wheels[*]}"
echo "$NAME: $(basename "${wheels[0]}"), $(($(wc -c <"${wheels[0]}") / 1024)) KiB"

problems=0
expect() { # expect DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then
    echo "ok:   $what"
  else
    echo "FAIL: $what" >&2
    problems=$((problems + 1))
  fi
}

"$PYTHON" -m venv "$WORK/user" >"$WORK/venv.log" 2>&1 || { cat "$WORK/venv.log"; fail "virtualenv"; }
started=$(date +%s)
PIP_NO_INDEX=1 PIP_FIND_LINKS="$WHEELS" "$WORK/user/bin/python" -m pip install \
  --disable-pip-version-check "flinklint==$VERSION" >"$WORK/install.log" 2>&1 ||
  { cat "$WORK/install.log"; fail "pip install flinklint==$VERSION (from the wheel)"; }
echo "$NAME: pip installed the wheel in $(($(date +%s) - started)) s"
expect "the wheel puts flinklint on the virtualenv's PATH" test -x "$WORK/user/bin/flinklint"
expect "flinklint --version" test "$("$WORK/user/bin/flinklint" --version)" = "flinklint $VERSION"
expect "python -m flinklint --version" \
  test "$("$WORK/user/bin/python" -m flinklint --version)" = "flinklint $VERSION"
set +e
(cd "$ROOT" && PATH="$WORK/user/bin:$PATH" flinklint check --format concise examples/flink-project) \
  >"$WORK/check.out" 2>&1
status=$?
set -e
expect "flinklint check examples/flink-project exits with 1 (its intentional mistakes)" \
  test "$status" -eq 1
for code in TB001 LK005 SY003 MT001; do
  expect "flinklint check examples/flink-project reports $code" grep -q "$code" "$WORK/check.out"
done

# --- 3. the pre-commit mirror ----------------------------------------------------------------
expect "pre-commit/ pins flinklint==$VERSION" "$PYTHON" "$ROOT/pre-commit/sync_version.py" --check
# The mirror's hooks are this repository's, but for the language (PyYAML comes with pre-commit).
same_hooks() {
  "$WORK/tools/bin/python" - "$ROOT/.pre-commit-hooks.yaml" "$ROOT/pre-commit/.pre-commit-hooks.yaml" <<'PY'
import sys, yaml
rust, python = (yaml.safe_load(open(path, encoding="utf-8")) for path in sys.argv[1:])
assert [h.pop("language") for h in rust] == ["rust"] * len(rust), rust
assert [h.pop("language") for h in python] == ["python"] * len(python), python
assert rust == python, (rust, python)
PY
}
expect "pre-commit/ has the hooks of .pre-commit-hooks.yaml (ids, entries, files), language: python" same_hooks
MIRROR="$WORK/mirror"
cp -R "$ROOT/pre-commit" "$MIRROR"
rm -rf "$MIRROR/__pycache__"
git -C "$MIRROR" init -q
git -C "$MIRROR" add -A
git -C "$MIRROR" commit -q -m "flinklint-pre-commit snapshot"

PROJECT="$WORK/project"
mkdir -p "$PROJECT/jobs"
cd "$PROJECT"
git init -q
cat >jobs/orders.sql <<'SQL'
CREATE TABLE orders (
    order_id BIGINT,
    amount DOUBLE
) WITH (
    'connector' = 'datagen'
);
CREATE TABLE big_orders (
    order_id BIGINT,
    amount DOUBLE
) WITH (
    'connector' = 'blackhole'
);
SQL
git add jobs/orders.sql
git commit -q -m "orders"
cat >jobs/broken.sql <<'SQL'
INSERT INTO big_orders SELECT order_id, amount FROM orders WHERE amount > ‘10’;
SQL
git add jobs/broken.sql

# try_repo LABEL: one cold `pre-commit try-repo` of the mirror's hooks, output in $WORK/LABEL.
try_repo() {
  local started
  started=$(date +%s)
  set +e
  PIP_NO_INDEX=1 PIP_FIND_LINKS="$WHEELS" PRE_COMMIT_HOME="$WORK/store-$1" \
    "$WORK/tools/bin/pre-commit" try-repo "$MIRROR" --color never >"$WORK/$1" 2>&1
  try_status=$?
  set -e
  try_seconds=$(($(date +%s) - started))
  echo "$NAME: pre-commit try-repo ($1) exited with $try_status after $try_seconds s (cold: a new hook environment); its output:"
  sed 's/^/  | /' "$WORK/$1"
}
# The output of one hook: from its status line to the next hook's.
section() { awk -v id="$2" '/^- hook id: /{on = ($4 == id)} on' "$WORK/$1"; }

try_repo failing
cold_failing=$try_seconds
expect "failing: pre-commit exits with 1" test "$try_status" -eq 1
expect "failing: the environment was installed" grep -qF "Installing environment for" "$WORK/failing"
expect "failing: no unexpected pre-commit error" \
  test -z "$(grep -F "An unexpected error has occurred" "$WORK/failing")"
expect "failing: hook flinklint failed" grep -qE '^flinklint\.+Failed$' "$WORK/failing"
expect "failing: SY002 in jobs/broken.sql" \
  grep -qE '^SY002 ' <(section failing flinklint)
expect "failing: the finding points at jobs/broken.sql" \
  grep -qF "[jobs/broken.sql:1:" <(section failing flinklint)
expect "failing: hook flinklint-fix failed (files modified)" \
  grep -qF "files were modified by this hook" <(section failing flinklint-fix)
expect "failing: flinklint-fix fixed the quotes" grep -qF "amount > '10'" jobs/broken.sql

# The fixed file, a new clean job and a Markdown file (not checked: `extensions` is sql).
cat >jobs/clean.sql <<'SQL'
INSERT INTO big_orders SELECT order_id, amount FROM orders WHERE amount > 10;
SQL
cat >README.md <<'MD'
# Jobs

```sql
SELECT ‘x’;
```
MD
git add jobs/broken.sql jobs/clean.sql README.md
# The empty run the hooks rely on: only files that flinklint skips (a Markdown file, the project
# not checking Markdown) pass, rather than failing with "nothing to check".
markdown_only() { "$WORK/user/bin/flinklint" check --force-exclude README.md >"$WORK/md.out" 2>&1; }
expect "the hooks' command on a Markdown file only exits with 0" markdown_only
cp jobs/broken.sql "$WORK/broken.before"
try_repo clean
cold_clean=$try_seconds
expect "clean: pre-commit exits with 0" test "$try_status" -eq 0
expect "clean: hook flinklint passed" grep -qE '^flinklint\.+Passed$' "$WORK/clean"
expect "clean: hook flinklint-fix passed" grep -qE '^flinklint \(fix\)\.+Passed$' "$WORK/clean"
expect "clean: the fixed file is unchanged" cmp -s jobs/broken.sql "$WORK/broken.before"

if [ "$problems" -ne 0 ]; then
  fail "$problems expectation(s) not met (output above)"
fi
echo "$NAME: cold install and run of the wheel-based hooks: $cold_failing s and $cold_clean s"
echo "$NAME: all expectations met"

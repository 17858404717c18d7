#!/usr/bin/env bash
# The pre-commit hooks of .pre-commit-hooks.yaml, for real: installs pre-commit from PyPI into
# a temporary virtualenv and runs ONE `pre-commit try-repo` (both hooks, on staged files)
# against a throwaway git repository. `language: rust` makes pre-commit `cargo install` this
# repository, a release build that takes minutes; everything is checked from that one run:
#
#   - `flinklint` fails, with the diagnostics of the staged files: a syntax mistake, and LIKE
#     conflicts (LK005) that are found only when the parent tables are read from a committed
#     file and from an untracked one that are not passed to the hook;
#   - the staged clean file is checked (the summary counts it) and has no finding;
#   - `flinklint-fix` rewrites the fixable mistake, leaves the clean file and the files that
#     are not staged untouched, and fails because files changed and findings remain.
#
# try-repo clones the HEAD commit of the hook repository, so uncommitted changes would not be
# seen: the work tree (tracked and untracked files that git does not ignore) is copied into a
# temporary repository and committed there first.
#
# Skips (exit 0, with a message) when pre-commit cannot be installed because PyPI is not
# reachable; any other failure, and any hook result other than the expected one, fails.
# Environment: PYTHON (default python3); FLINKLINT_TRY_REPO_TARGET_DIR, the cargo target
# folder of the hook's build (default target/pre-commit-try-repo).
#
# The hook's build compiles every dependency again, whatever the target folder: pre-commit
# sets CARGO_HOME to a folder of its store, which try-repo creates anew for each run, so the
# registry's sources are unpacked under another path each time, and cargo's fingerprint of a
# registry crate includes the path of its sources. The build therefore cannot reuse the
# artifacts of `cargo test --release` either; its own target folder keeps the two builds from
# overwriting each other's artifacts.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
NAME="pre-commit try-repo"
skip() {
  echo "$NAME: SKIPPED: $*"
  exit 0
}
fail() {
  echo "$NAME: FAILED: $*" >&2
  exit 1
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flinklint-try-repo.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Git as configured here only: no user or system settings, no enclosing repository (a git
# hook running this script sets GIT_DIR), a fixed identity for the commits.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="flinklint tests" GIT_AUTHOR_EMAIL="tests@flinklint.invalid"
export GIT_COMMITTER_NAME="flinklint tests" GIT_COMMITTER_EMAIL="tests@flinklint.invalid"
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GITHUB_ACTIONS
export NO_COLOR=1 CARGO_TERM_COLOR=never PRE_COMMIT_COLOR=never

# --- 1. pre-commit, from PyPI, in a virtualenv ---------------------------------------------
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || skip "$PYTHON not found"
"$PYTHON" -m venv "$WORK/venv" >"$WORK/venv.log" 2>&1 ||
  { cat "$WORK/venv.log"; skip "$PYTHON cannot create a virtualenv"; }
# Short timeouts: an offline machine answers "no" quickly or not at all.
if ! "$WORK/venv/bin/python" -m pip install --disable-pip-version-check --timeout 30 \
  --retries 2 pre-commit >"$WORK/pip.log" 2>&1; then
  tail -n 20 "$WORK/pip.log"
  if grep -qiE 'connection|network|resolution|timed out|timeout|unreachable|no matching distribution|could not find a version|proxy|ssl' "$WORK/pip.log"; then
    skip "pre-commit could not be installed from PyPI (offline or unreachable)"
  fi
  fail "pip could not install pre-commit (not a network error: see above)"
fi
PRE_COMMIT="$WORK/venv/bin/pre-commit"
echo "$NAME: using $("$PRE_COMMIT" --version)"

# --- 2. the hook repository: this work tree, committed ---------------------------------------
HOOKS="$WORK/hook-repo"
mkdir -p "$HOOKS"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked files that still exist, and untracked files that are not ignored.
  git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do
      if [ -f "$ROOT/$f" ] || [ -L "$ROOT/$f" ]; then printf '%s\0' "$f"; fi
    done >"$WORK/files"
  tar -C "$ROOT" --null -T "$WORK/files" -cf - | tar -C "$HOOKS" -xf -
else
  tar -C "$ROOT" --exclude=./target --exclude=./.git -cf - . | tar -C "$HOOKS" -xf -
fi
[ -f "$HOOKS/.pre-commit-hooks.yaml" ] || fail ".pre-commit-hooks.yaml is missing"
git -C "$HOOKS" init -q
git -C "$HOOKS" add -A
git -C "$HOOKS" commit -q -m "flinklint work tree snapshot"

# --- 3. the project the hooks run on ---------------------------------------------------------
PROJECT="$WORK/project"
mkdir -p "$PROJECT/catalog" "$PROJECT/jobs"
cd "$PROJECT"
git init -q
cat >catalog/V1__orders.sql <<'SQL'
CREATE TABLE orders (
    order_id BIGINT,
    amount DOUBLE
) WITH (
    'connector' = 'kafka',
    'topic' = 'orders',
    'properties.bootstrap.servers' = 'localhost:9092',
    'format' = 'json',
    'scan.startup.mode' = 'group-offsets'
);
SQL
git add catalog/V1__orders.sql
git commit -q -m "orders"
# Untracked (never staged): the parent of V4.
cat >catalog/V3__payments.sql <<'SQL'
CREATE TABLE payments (
    payment_id BIGINT,
    order_id BIGINT
) WITH (
    'connector' = 'kafka',
    'topic' = 'payments',
    'properties.bootstrap.servers' = 'localhost:9092',
    'format' = 'json'
);
SQL
# Staged: two LIKE conflicts (LK005) that need the parents' options, a fixable mistake
# (SY002, typographic quotes), and a clean job that needs `orders` from V1.
cat >catalog/V2__orders_replay.sql <<'SQL'
CREATE TABLE orders_replay
WITH (
    'scan.startup.mode' = 'latest-offset'
)
LIKE orders (INCLUDING OPTIONS);
SQL
cat >catalog/V4__payments_avro.sql <<'SQL'
CREATE TABLE payments_avro
WITH (
    'format' = 'avro'
)
LIKE payments (INCLUDING OPTIONS);
SQL
cat >jobs/broken.sql <<'SQL'
INSERT INTO orders SELECT order_id, amount FROM orders WHERE amount > ‘10’;
SQL
cat >jobs/clean.sql <<'SQL'
INSERT INTO orders SELECT order_id, amount FROM orders WHERE amount > 10;
SQL
git add catalog/V2__orders_replay.sql catalog/V4__payments_avro.sql jobs/broken.sql jobs/clean.sql
cp jobs/clean.sql "$WORK/clean.before"
cp catalog/V1__orders.sql "$WORK/v1.before"
cp catalog/V3__payments.sql "$WORK/v3.before"

# --- 4. one try-repo run: both hooks, on the staged files ------------------------------------
export CARGO_TARGET_DIR="${FLINKLINT_TRY_REPO_TARGET_DIR:-$ROOT/target/pre-commit-try-repo}"
echo "$NAME: pre-commit builds the hooks with cargo install (release; target $CARGO_TARGET_DIR)"
started=$(date +%s)
set +e
"$PRE_COMMIT" try-repo "$HOOKS" --color never >"$WORK/out" 2>&1
status=$?
set -e
echo "$NAME: pre-commit exited with $status after $(($(date +%s) - started)) s; its output:"
sed 's/^/  | /' "$WORK/out"

# --- 5. what must have happened ------------------------------------------------------------
OUT="$WORK/out"
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
has() { grep -qF -- "$1" "$OUT"; }
lacks() { ! grep -qF -- "$1" "$OUT"; }
# The output of one hook: from its status line to the next hook's.
section() { awk -v id="$1" '/^- hook id: /{on = ($4 == id)} on' "$OUT"; }
in_section() { section "$1" | grep -qF -- "$2"; }

expect "pre-commit exits with 1 (hooks failed)" test "$status" -eq 1
expect "the hook environment was installed (cargo install)" has "Installing environment for"
expect "no unexpected pre-commit error" lacks "An unexpected error has occurred"
expect "hook flinklint failed" grep -qE '^flinklint\.+Failed$' "$OUT"
expect "hook flinklint-fix failed" grep -qE '^flinklint \(fix\)\.+Failed$' "$OUT"
expect "flinklint exit code 1" in_section flinklint "- exit code: 1"
expect "flinklint: SY002 in jobs/broken.sql" in_section flinklint "[jobs/broken.sql:1:"
expect "flinklint: SY002 reported" in_section flinklint "SY002"
expect "flinklint: LK005 against the committed parent" in_section flinklint "[catalog/V2__orders_replay.sql:3:5]"
expect "flinklint: LK005 against the untracked parent" in_section flinklint "[catalog/V4__payments_avro.sql:3:5]"
expect "flinklint: parents' options shown" in_section flinklint "already set by \`payments\` to 'json'"
expect "flinklint: all four staged files checked" in_section flinklint "Found 3 errors in 4 files."
expect "nothing reported in the clean file" lacks "jobs/clean.sql"
expect "exactly these findings, in staged files only" \
  test "$(section flinklint | grep -oE '^[A-Z]{2}[0-9]{3} ' | tr -d ' ' | sort | tr '\n' ' ')" = "LK005 LK005 SY002 "
expect "no unknown table (the context was read)" lacks "CT002"
expect "no unknown LIKE source (the context was read)" lacks "LK003"
expect "flinklint-fix: files were modified" in_section flinklint-fix "files were modified by this hook"
expect "flinklint-fix: applied the fix" in_section flinklint-fix "applied 1 fix(es) in 1 file(s)"
expect "flinklint-fix: LK005 remains" in_section flinklint-fix "Found 2 errors in 4 files."
expect "flinklint-fix: the quotes are fixed" grep -qF "amount > '10'" jobs/broken.sql
expect "flinklint-fix: the clean file is untouched" cmp -s jobs/clean.sql "$WORK/clean.before"
expect "flinklint-fix: the committed parent is untouched" cmp -s catalog/V1__orders.sql "$WORK/v1.before"
expect "flinklint-fix: the untracked parent is untouched" cmp -s catalog/V3__payments.sql "$WORK/v3.before"

if [ "$problems" -ne 0 ]; then
  fail "$problems expectation(s) not met (pre-commit output above)"
fi
echo "$NAME: all expectations met"

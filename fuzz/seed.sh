#!/usr/bin/env bash
# Fills the seed corpora fuzz/corpus/<target>/ from the repository's fixtures (not committed:
# the corpora are made anew from fixtures/ before each run, and what the fuzzer adds stays
# local). Every fixture `.sql` file and every kept regression (fuzz/regressions/) seeds every
# target; a fixture case made of several files (a history and the scripts that read it) becomes
# one input, each file after a `-- file: PATH` line, which the `check` and `fix` targets split at.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(parse check fix)
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
done
count=0
while IFS= read -r -d '' f; do
  name="fixture-$(printf '%s' "${f#fixtures/}" | tr '/ ' '__')"
  for t in "${targets[@]}"; do
    cp "$f" "fuzz/corpus/$t/$name"
  done
  count=$((count + 1))
done < <(find fixtures -type f -name '*.sql' -print0 | sort -z)
for f in fuzz/regressions/*.sql; do
  for t in "${targets[@]}"; do
    cp "$f" "fuzz/corpus/$t/regression-$(basename "$f")"
  done
done
cases=0
while IFS= read -r -d '' dir; do
  files=()
  while IFS= read -r -d '' f; do
    files+=("$f")
  done < <(find "$dir" -type f -name '*.sql' -print0 | sort -z)
  [ "${#files[@]}" -ge 2 ] || continue
  name="case-$(printf '%s' "${dir#fixtures/}" | tr '/ ' '__')"
  for f in "${files[@]}"; do
    printf -- '-- file: %s\n' "${f#"$dir"/}"
    cat "$f"
    printf '\n'
  done > "fuzz/corpus/check/$name"
  cp "fuzz/corpus/check/$name" "fuzz/corpus/fix/$name"
  cases=$((cases + 1))
done < <(find fixtures/rules -mindepth 2 -maxdepth 2 -type d ! -name snapshots -print0 | sort -z)
echo "seeded ${targets[*]} with $count fixture files and $cases several-file cases"

#!/usr/bin/env bash
# Runs every fuzz target for a bounded time, as CI does: `bash fuzz/run.sh [SECONDS] [SEED]`
# (60 seconds per target and seed 1 by default). Needs the nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz --locked`); `.ci/run` installs cargo-fuzz when it is missing.
#
# The targets are built once (optimised, with debug assertions and overflow checks, without a
# sanitizer: the crate has no unsafe code), then each runs from its seed corpus (the fixtures,
# `fuzz/seed.sh`) with the dictionary of Flink SQL words. A crash, a broken invariant or an input
# slower than 30 seconds stops the run with a non-zero exit; the input is kept under
# fuzz/artifacts/<target>/ and `cargo +nightly fuzz fmt <target> <file>` shows it.
# FUZZ_TARGET_DIR sets cargo's target folder (default fuzz/target).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
seed=${2:-1}
target_dir=${FUZZ_TARGET_DIR:-fuzz/target}
flags=(--sanitizer none --target-dir "$target_dir")

bash fuzz/seed.sh
start=$(date +%s)
cargo +nightly fuzz build "${flags[@]}"
echo "fuzz: built the targets in $(($(date +%s) - start)) s"
for target in parse check fix; do
  log="$target_dir/fuzz-$target.log"
  mkdir -p "$target_dir"
  start=$(date +%s)
  status=0
  cargo +nightly fuzz run "${flags[@]}" "$target" -- \
    -max_total_time="$seconds" -seed="$seed" -dict=fuzz/flink.dict -timeout=30 \
    -rss_limit_mb=4096 -print_final_stats=1 >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  corpus=$(find "fuzz/corpus/$target" -type f | wc -l)
  echo "fuzz: $target: ${runs:-?} executions in $(($(date +%s) - start)) s, corpus $corpus inputs, exit $status"
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$log"
    exit "$status"
  fi
done

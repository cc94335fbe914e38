#!/usr/bin/env bash
# Builds the libFuzzer targets (preset fuzz: clang, ASan, UBSan) and runs each from
# its committed seed corpus for SECONDS (default 60). New inputs go to a scratch
# copy, so the committed corpus only changes when you copy findings in by hand.
# A finding stops the script with the target's exit code; the crashing input is
# left in build/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
case "$seconds" in ''|*[!0-9]*) echo "run-fuzz: SECONDS must be a whole number, got '$seconds'" >&2; exit 2 ;; esac
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
mkdir -p build/fuzz/artifacts
for target in fuzz_csv fuzz_cli fuzz_neighbors fuzz_flock_step fuzz_snapshot fuzz_walls fuzz_obstacles; do
  work=build/fuzz/corpus-$target
  rm -rf "$work" && mkdir -p "$work" && cp fuzz/corpus/$target/* "$work"/
  echo "== $target for ${seconds}s"
  rc=0
  build/fuzz/fuzz/$target "$work" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix=build/fuzz/artifacts/$target- > build/fuzz/$target.log 2>&1 || rc=$?
  grep -E "^(stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)|Test unit written" build/fuzz/$target.log || true
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: $target found a problem (exit $rc); log: build/fuzz/$target.log" >&2
    exit "$rc"
  fi
done
echo "fuzz: every target ran ${seconds}s without a finding"

#!/usr/bin/env bash
# Runs RVO2's Circle (250 and 1,000 agents, and the first 2,000 steps of 10,000) and Blocks scenarios in RVO2 itself and in
# boids-lab crowd, one after the other on this machine, with the same compiler and
# flags, and prints both JSON lines per scenario: the table in docs/crowds.md.
# Usage: scripts/compare-rvo2.sh RVO2_SOURCE_DIR   (a checkout of github.com/snape/RVO2)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 1 ] || [ ! -f "$1/src/RVOSimulator.cc" ]; then
  echo "usage: scripts/compare-rvo2.sh RVO2_SOURCE_DIR (the folder with src/RVOSimulator.cc)" >&2
  exit 2
fi
rvo2=$(cd "$1" && pwd)
out=build/rvo2-compare
mkdir -p "$out"
flags=(-std=c++17 -O3 -DNDEBUG)
if [ ! -x "$out/rvo2-compare" ] || [ bench/rvo2/compare.cpp -nt "$out/rvo2-compare" ]; then
  g++ "${flags[@]}" -I"$rvo2/src" -Iinclude bench/rvo2/compare.cpp "$rvo2"/src/*.cc -o "$out/rvo2-compare"
fi
cmake --preset release >/dev/null
cmake --build --preset release --target boids-lab >/dev/null
for run in "circle 250 100000000" "circle 1000 100000000" "circle 10000 2000" "blocks 100 100000000"; do
  set -- $run
  echo "$1 $2"
  echo "  RVO2:  $("$out/rvo2-compare" "$1" "$2" "$3")"
  echo "  boids: $(build/release/examples/boids-lab crowd --scenario="$1" --agents="$2" --max-steps="$3" --json | tail -1)"
done

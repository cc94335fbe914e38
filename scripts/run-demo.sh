#!/usr/bin/env bash
# The demo: installs what is missing, builds, and runs the lesson's labs on the command line.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
lab=build/release/examples/boids-lab

echo "== Warm-up: one vehicle, 60 steps (1 s) from (120, 225) toward (470, 225)"
for mode in seek flee arrive; do
  "$lab" vehicle --mode=$mode --steps=60
done
echo "== ... and after 10 s"
for mode in seek flee arrive; do
  "$lab" vehicle --mode=$mode --steps=600
done

echo
echo "== Flock and Hawk: the lesson's table, seed 7 (tests/fixtures/lesson/seed7_all_60_initial.csv), 10 s"
init=tests/fixtures/lesson/seed7_all_60_initial.csv
printf '%-18s %s\n' "all rules"      "$("$lab" flock --init=$init | tail -1)"
printf '%-18s %s\n' "separation off"  "$("$lab" flock --init=$init --rules=alignment,cohesion | tail -1)"
printf '%-18s %s\n' "alignment off"   "$("$lab" flock --init=$init --rules=separation,cohesion | tail -1)"
printf '%-18s %s\n' "cohesion off"    "$("$lab" flock --init=$init --rules=separation,alignment | tail -1)"
printf '%-18s %s\n' "hawk at centre"  "$("$lab" flock --init=$init --hawk=450,270 | tail -1)"
echo
echo "== The same flock written as a user's own loop (examples/own_loop.cpp, float, our seed 7)"
build/release/examples/boids-example-own-loop

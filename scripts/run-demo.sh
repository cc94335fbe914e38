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

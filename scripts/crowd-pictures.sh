#!/usr/bin/env bash
# Makes docs/images/crowd-*.svg: boids-lab crowd traces of four scenes, drawn by
# scripts/plot-crowd.py (needs python3). Run after building (scripts/run-tests.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
lab=${BOIDS_LAB:-build/release/examples/boids-lab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$lab" crowd --scenario=circle --agents=250 --trace="$tmp/circle.csv" >/dev/null
python3 scripts/plot-crowd.py "$tmp/circle.csv" docs/images/crowd-circle.svg --radius=1.5 --every=20 \
  --title="circle: 250 agents cross to the opposite point, passing on the right"
"$lab" crowd --scenario=blocks --trace="$tmp/blocks.csv" >/dev/null
python3 scripts/plot-crowd.py "$tmp/blocks.csv" docs/images/crowd-blocks.svg --radius=2 --every=40 \
  --title="blocks: four groups cross between RVO2's four obstacles" \
  --polygons="-40,10 -10,10 -10,40 -40,40;10,10 40,10 40,40 10,40;10,-40 40,-40 40,-10 10,-10;-40,-40 -10,-40 -10,-10 -40,-10"
"$lab" crowd --scenario=doorway --trace="$tmp/doorway.csv" >/dev/null
python3 scripts/plot-crowd.py "$tmp/doorway.csv" docs/images/crowd-doorway.svg --radius=1.5 --every=4 \
  --title="doorway: two groups of 10 swap sides through a gap two agents wide" \
  --polygons="-0.5,3 0.5,3 0.5,30 -0.5,30;-0.5,-30 0.5,-30 0.5,-3 -0.5,-3"
"$lab" crowd --scenario=pillars --swap --agents=100 --trace="$tmp/pillars.csv" >/dev/null
python3 scripts/plot-crowd.py "$tmp/pillars.csv" docs/images/crowd-pillars.svg --radius=1.5 --every=8 \
  --title="pillars: two groups of 50 swap sides round two pillars, on navigation fields" \
  --polygons="-3,12 3,12 3,18 -3,18;-3,-18 3,-18 3,-12 -3,-12;-61,-30 61,-30 61,30 -61,30"
ls docs/images/crowd-*.svg

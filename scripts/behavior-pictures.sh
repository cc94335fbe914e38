#!/usr/bin/env bash
# Makes docs/images/behavior-*.svg: boids-lab traces of each behaviour, drawn by
# scripts/plot-trace.py (needs python3). Run after building (scripts/run-tests.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
lab=${BOIDS_LAB:-build/release/examples/boids-lab}
out=docs/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
draw() {  # name title [plot flags...] -- [lab flags...]
  local name=$1 title=$2; shift 2
  local plot=()
  while [ "$1" != "--" ]; do plot+=("$1"); shift; done
  shift
  "$lab" vehicle "$@" --trace="$tmp/$name.csv" >/dev/null
  python3 scripts/plot-trace.py "$tmp/$name.csv" "$out/behavior-$name.svg" --title="$title" "${plot[@]}"
  echo "$out/behavior-$name.svg"
}
draw pursue "pursue (blue) a target moving in a straight line (orange: predicted position)" -- \
  --mode=pursue --no-wrap --pos=100,400 --vel=0,0 --target=400,100 --target-vel=-60,40 --steps=240
draw evade "evade: the pursuer (orange) comes straight on; the vehicle slips sideways" -- \
  --mode=evade --no-wrap --pos=300,200 --vel=0,0 --target=0,205 --target-vel=150,0 --steps=180 --panic-radius=250
draw wander "wander, seed 3" --no-target -- \
  --mode=wander --no-wrap --pos=400,225 --vel=100,0 --seed=3 --steps=600
draw follow-path "follow-path: corrects only when it would leave the corridor, arrives at the end" \
  --path="100,100;400,120;500,350;700,300" --path-radius=20 -- \
  --mode=follow-path --no-wrap --path="100,100;400,120;500,350;700,300" --path-radius=20 --pos=60,160 --vel=60,0 --steps=900
draw avoid "avoid: arrive at the target around the obstacles" --obstacles="300,225,40;420,200,25;520,260,30" -- \
  --mode=avoid --no-wrap --pos=100,225 --vel=0,0 --target=650,230 --obstacles="300,225,40;420,200,25;520,260,30" --steps=600
draw contain "contain: wander kept inside the box" --no-target --bounds=100,100,500,350 -- \
  --mode=contain --no-wrap --pos=300,225 --vel=150,40 --bounds=100,100,500,350 --seed=5 --steps=1200
draw face "face: drifting past at a constant velocity, turning to keep the target in view (red: orientation)" -- \
  --mode=face --no-wrap --pos=100,380 --vel=90,-45 --target=380,200 --heading=3 --steps=420
draw look-where-going "look-where-going: wandering, the orientation follows the heading within its angular limits" \
  --no-target -- --mode=look-where-going --no-wrap --pos=300,225 --vel=0,-60 --heading=0 --seed=4 --steps=360
draw turn-limited "turn-limited: a car (lock 60 px, never below 80 px/s) reaches a target behind it" -- \
  --mode=turn-limited --no-wrap --pos=400,225 --vel=150,0 --target=300,225 --turn-radius=60 --min-speed=80 --steps=250
# A formation crossing a wall through a gap (boids-lab formation), drawn by plot-crowd.py.
"$lab" formation --pattern=wedge --members=24 --gap=4.5 --trace="$tmp/formation.csv" >/dev/null
python3 scripts/plot-crowd.py "$tmp/formation.csv" "$out/behavior-formation.svg" --id=member --radius=0.5 --every=5 \
  --at=150,300,450 --title="formation: a wedge of 24 narrows to three abreast through a 4.5 m gap and widens again" \
  --polygons="-0.5,2.25 0.5,2.25 0.5,14 -0.5,14;-0.5,-14 0.5,-14 0.5,-2.25 -0.5,-2.25"
echo "$out/behavior-formation.svg"

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
echo "== The starling model: 3,000 birds for 20 s (full scene: --seconds=60; docs/starlings.md)"
"$lab" starlings --birds=3000 --seconds=20 --json | tail -1

echo
echo "== Crowds: RVO2's Circle at 250 agents (ORCA, no overlap; docs/crowds.md)"
"$lab" crowd --scenario=circle --agents=250 --json | tail -1
echo "== A squad of 24 in a wedge through a gap three slots wide (docs/behaviors.md)"
"$lab" formation --pattern=wedge --members=24 --gap=4.5 --json | tail -1

echo
echo "== The same flock written as a user's own loop (examples/own_loop.cpp, float, our seed 7)"
build/release/examples/boids-example-own-loop

echo
echo "== 200,000 boids on a thread pool, arrays kept in cell order (examples/large_flock.cpp)"
build/release/examples/boids-example-large-flock

echo
echo "== All-pairs against grid at 100, 300 and 500 boids (one lesson step; median of 3, this machine)"
bench=build/release/bench/boids-bench
if [ -x "$bench" ]; then
  "$bench" --benchmark_filter='step/lesson/(all_pairs|grid)/(100|300|500)/' --benchmark_min_time=0.05 \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_format=csv 2>/dev/null \
  | awk -F, '/_median/ { gsub(/"/, "", $1); split($1, p, "/"); t[p[3] "," p[4]] = $3; u = $5 }
             END { printf "%-8s %14s %14s %8s\n", "boids", "all-pairs (" u ")", "grid (" u ")", "ratio";
                   n[1] = 100; n[2] = 300; n[3] = 500;
                   for (i = 1; i <= 3; i++) printf "%-8d %14.1f %14.1f %8.2f\n", n[i], t["all_pairs," n[i]], t["grid," n[i]], t["all_pairs," n[i]] / t["grid," n[i]] }'
else
  echo "(boids-bench not built: Google Benchmark missing)"
fi

echo
demo=build/release/examples/boids-demo
if [ ! -x "$demo" ]; then
  echo "== boids-demo not built (needs libsdl2-dev libimgui-dev libgl-dev libstb-dev)"
elif [ -n "${DISPLAY:-}" ] && [ -z "${CI:-}" ]; then
  echo "== boids-demo: close the window to finish (the mouse is the hawk; 1/2/3 toggle rules; R resets)"
  "$demo" --scene=flock --boids=300
elif command -v xvfb-run >/dev/null; then
  echo "== boids-demo without a display: 180 frames of each scene under Xvfb, pictures in build/release/"
  for scene in warmup flock starlings; do
    xvfb-run -a -s "-screen 0 1280x720x24" "$demo" --scene=$scene --boids=300 --frames=180 \
      --screenshot=build/release/demo-$scene.png
  done
  echo "   build/release/demo-warmup.png, build/release/demo-flock.png, build/release/demo-starlings.png"
fi

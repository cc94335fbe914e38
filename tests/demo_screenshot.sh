#!/usr/bin/env bash
# Runs boids-demo headless under Xvfb for 180 frames, saves a screenshot and checks
# that it shows the scene and the panel. Exit 77 (skipped) without xvfb-run.
# Usage: demo_screenshot.sh DEMO CHECK SCENE OUT.png
set -euo pipefail
demo=$1 check=$2 scene=$3 out=$4
if ! command -v xvfb-run >/dev/null; then
  echo "demo_screenshot: xvfb-run not found: skipped (apt-get install xvfb xauth libgl1-mesa-dri)"
  exit 77
fi
rm -f "$out"
xvfb-run -a -s "-screen 0 1280x720x24" "$demo" --scene="$scene" --boids=300 --frames=180 --screenshot="$out"
"$check" "$out" "$scene"

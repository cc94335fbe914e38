#!/usr/bin/env bash
# A run of 20 s (600 steps) equals a run of 10 s (300), saved, loaded and run on,
# byte for byte: boids-lab starlings and boids-lab vehicle --mode=wander.
# Usage: save_load_runs.sh BOIDS_LAB WORK_DIR
set -euo pipefail
lab=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
status=0
same() {  # NAME FILE_A FILE_B
    if cmp -s "$2" "$3"; then echo "$1: same bytes"; else echo "$1: DIFFERENT"; status=1; fi
}
"$lab" starlings --seconds=20 --seed=2 --threads=2 --out=full.csv --save-at=10 --save=at10.snap >/dev/null
"$lab" starlings --seconds=10 --seed=2 --out=first.csv >/dev/null
"$lab" starlings --seconds=20 --load=at10.snap --out=resumed.csv >/dev/null
same "starlings, 20 s against 10 s + saved + 10 s" full.csv resumed.csv
"$lab" starlings --seconds=10 --load=at10.snap --out=at10.csv >/dev/null  # loaded at its own time: no step
same "starlings, the snapshot's arrays against a 10 s run" first.csv at10.csv

"$lab" vehicle --mode=wander --seed=9 --steps=600 --trace=full.csv --out=vfull.csv --save-at=300 --save=w300.snap >/dev/null
"$lab" vehicle --mode=wander --seed=9 --steps=600 --trace=rest.csv --out=vrest.csv --load=w300.snap >/dev/null
same "wander, 600 steps against 300 + saved + 300" vfull.csv vrest.csv
same "wander, the trace's last 300 steps" <(tail -n 300 full.csv) <(tail -n 300 rest.csv)
[ "$(wc -l < rest.csv)" = 301 ] || { echo "wander: the resumed trace should hold 300 steps"; status=1; }
exit $status

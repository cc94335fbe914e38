#!/usr/bin/env bash
# Builds boids-lab with another compiler and optimisation level, runs the same
# seeded scenes with it and with the project's own boids-lab, and compares the
# output files byte for byte (docs/determinism.md).
# Usage: same_bits_across_compilers.sh REFERENCE_LAB BOIDS_ROOT WORK_DIR CXX "FLAGS"
set -euo pipefail
ref_lab=$1 root=$2 work=$3 cxx=$4 flags=$5
rm -rf "$work"
mkdir -p "$work/ref" "$work/other"
cmake -S "$root/tests/cross_compiler" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE= \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" -DBOIDS_ROOT="$root" >/dev/null
cmake --build "$work/build" >/dev/null
other_lab=$work/build/boids-lab

run_scenes() {  # LAB DIR
    "$1" flock --seed=3 --boids=500 --steps=300 --neighbors=grid --out="$2/flock-wrap.csv" >/dev/null
    "$1" flock --seed=3 --boids=500 --steps=300 --neighbors=grid --edges=toroidal --out="$2/flock-torus.csv" >/dev/null
    "$1" vehicle --mode=wander --seed=9 --steps=600 --trace="$2/wander.csv" >/dev/null
    "$1" starlings --birds=3000 --seconds=10 --seed=2 --out="$2/starlings.csv" >/dev/null
}
run_scenes "$ref_lab" "$work/ref"
run_scenes "$other_lab" "$work/other"

status=0
for f in flock-wrap flock-torus wander starlings; do
    if cmp -s "$work/ref/$f.csv" "$work/other/$f.csv"; then
        echo "$f: same bits ($(wc -l < "$work/ref/$f.csv") lines)"
    else
        echo "$f: DIFFERENT with $cxx $flags ($(cmp "$work/ref/$f.csv" "$work/other/$f.csv" | head -1))"
        status=1
    fi
done
exit $status

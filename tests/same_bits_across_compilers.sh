#!/usr/bin/env bash
# Builds cross_compiler/scenes_digest.cpp with another compiler and optimisation
# level and requires it to print the same digests of every seeded scene as the
# project's own build (docs/determinism.md).
# Usage: same_bits_across_compilers.sh REFERENCE_DIGEST BOIDS_ROOT WORK_DIR CXX "FLAGS"
set -euo pipefail
ref=$1 root=$2 work=$3 cxx=$4 flags=$5
rm -rf "$work"
mkdir -p "$work"
cmake -S "$root/tests/cross_compiler" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE= \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" -DBOIDS_ROOT="$root" >/dev/null
cmake --build "$work/build" >/dev/null
"$ref" > "$work/ref.txt"
"$work/build/scenes-digest" > "$work/other.txt"
if diff "$work/ref.txt" "$work/other.txt"; then
    echo "same bits with $cxx $flags:"
    cat "$work/ref.txt"
else
    echo "DIFFERENT with $cxx $flags (< the project's build, > this one)"
    exit 1
fi

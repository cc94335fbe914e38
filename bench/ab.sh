#!/usr/bin/env bash
# bench/ab.sh REV_A REV_B [BOIDS STEPS DIM[:DIM_B] [VIEW_ANGLE[:VIEW_ANGLE_B] [metric|topological|crowd [THREADS_A THREADS_B]]]]
#
# Two versions of the headers in one program, stepped in turn on the standard scene:
# prints each side's median step and the median of B/A, step by step, and whether
# both end with the same bits. On a shared machine a ratio taken this way holds
# still where separate runs drift by 30% (A against A reads 0.97-1.03 here: changes
# smaller than that cannot be told). REV: a git revision, or "worktree" for the
# headers as they are in this checkout. Defaults: 10000 400 2 360 metric 1 1. Each side
# steps on a thread_pool of its own; `bench/ab.sh HEAD HEAD 10000 400 2 360 metric 1 2`
# gives one thread against two in one process, `... 10000 400 2 360:270` what a
# 270-degree cone costs, and `... 10000 200 2:3` 3D against 2D. `crowd` steps
# crowd_step on RVO2's circle of BOIDS agents instead (AB_SETTLE=400: in the crush
# at the centre).
# AB_BLOCK=K steps each side K times in a row with a pause between sides (B/A block
# by block): for threaded steps, where the idle side's pool would spin beside the other.
# AB_SETTLE=K first steps each side's flock K times, untimed, and restarts it from
# there (a settled flock, with crowded groups, as step/standard2d_settled has it).
# CXX and CXXFLAGS choose the compiler (g++) and flags (-O3 -DNDEBUG).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bench/ab.sh REV_A REV_B [BOIDS STEPS DIM[:DIM_B] [VIEW_ANGLE[:VIEW_ANGLE_B] [metric|topological|crowd [THREADS_A THREADS_B]]]]" >&2
  exit 2
fi
rev_a=$1 rev_b=$2
if [ -n "${AB_BLOCK+set}" ] && ! [[ "$AB_BLOCK" =~ ^[1-9][0-9]{0,4}$ ]]; then
  echo "bench/ab.sh: AB_BLOCK must be a whole number from 1 to 99999, got '$AB_BLOCK'" >&2
  exit 2
fi
if [ -n "${AB_SETTLE+set}" ] && ! [[ "$AB_SETTLE" =~ ^[0-9]{1,7}$ ]]; then
  echo "bench/ab.sh: AB_SETTLE must be a whole number from 0 to 1000000, got '$AB_SETTLE'" >&2
  exit 2
fi
shift 2
args=("${1:-10000}" "${2:-400}" "${3:-2}" "${4:-360}" "${5:-metric}" "${6:-1}" "${7:-1}")
cxx=${CXX:-g++}
flags=${CXXFLAGS:--O3 -DNDEBUG}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The headers of one revision, their namespace renamed (boids -> NAME).
headers() {
  local rev=$1 name=$2 dir=$work/$2
  mkdir -p "$dir"
  if [ "$rev" = worktree ]; then
    cp -r include "$dir/"
  elif ! git rev-parse --verify --quiet "$rev^{commit}" >/dev/null; then
    echo "bench/ab.sh: '$rev' is not a revision of this repository" >&2
    exit 2
  else
    git archive "$rev" include | tar -x -C "$dir"
  fi
  if [ ! -f "$dir/include/boids/boids.hpp" ]; then
    echo "bench/ab.sh: '$rev' has no include/boids/boids.hpp" >&2
    exit 2
  fi
  find "$dir/include" -type f -exec sed -i -e "s/namespace boids\b/namespace $name/g" -e "s/\bboids::/$name::/g" {} +
}
headers "$rev_a" boids_side_a
headers "$rev_b" boids_side_b

side() {  # side NAME MAKE
  # shellcheck disable=SC2086
  "$cxx" -std=c++17 $flags -DBOIDS_AB_NS="$1" -DBOIDS_AB_MAKE="$2" -I"$work/$1/include" \
    -c bench/ab/ab_side.cpp -o "$work/$1.o"
}
side boids_side_a make_side_a &
pid_a=$!
side boids_side_b make_side_b &
pid_b=$!
built=yes
wait "$pid_a" || built=no
wait "$pid_b" || built=no
if [ "$built" = no ]; then
  echo "bench/ab.sh: a side did not compile (the compiler's messages are above)" >&2
  exit 1
fi
# shellcheck disable=SC2086
"$cxx" -std=c++17 $flags bench/ab/ab_main.cpp "$work/boids_side_a.o" "$work/boids_side_b.o" -o "$work/ab" -pthread
echo "A = $rev_a, B = $rev_b"
"$work/ab" "${args[@]}"

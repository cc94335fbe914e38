#!/usr/bin/env bash
# scripts/compile-time.sh [CXX] - what a translation unit pays for the library: the
# seconds (best of 3, -O2, C++17) to compile
#   - <glm/glm.hpp> alone (the reference: what any GLM user pays already),
#   - <boids/boids.hpp> alone,
#   - <boids/behaviors/seek_flee_arrive.hpp> alone, and the boids headers it pulls in,
#   - a file with one flock_step over GLM vectors (the kernel instantiated once),
#   - a file with one flock_step and a blend of your own,
# each of the last two also as a program linked with boids::prebuilt compiles it
# (-DBOIDS_PREBUILT: the step, or the kernel, taken from the library).
# Timings are of this machine as it is now: compare them within one run.
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=${1:-${CXX:-g++}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <glm/glm.hpp>\nint main() { return 0; }\n' > "$tmp/glm_only.cpp"
printf '#include <boids/boids.hpp>\nint main() { return 0; }\n' > "$tmp/umbrella.cpp"
printf '#include <boids/behaviors/seek_flee_arrive.hpp>\nint main() { return 0; }\n' > "$tmp/one_behaviour.cpp"
cat > "$tmp/one_step.cpp" <<'CPP'
#include <boids/flock/step.hpp>
#include <boids/glm.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include <vector>
int main() {
    std::vector<glm::vec2> p(100), v(100);
    boids::flock_config<glm::vec2> cfg;
    boids::uniform_grid<glm::vec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<glm::vec2> ws;
    boids::flock_step(p, v, cfg, grid, ws, 0.016f);
    return p.empty() ? 1 : 0;
}
CPP
# The same step with a blend of your own instead of the ready-made rules.
sed 's|ws, 0.016f);|ws, 0.016f, [](const boids::boid_view<glm::vec2>\& b, const boids::neighborhood_summary<glm::vec2>\& s) { return s.push + s.mean_velocity() - b.velocity; });|' \
  "$tmp/one_step.cpp" > "$tmp/own_blend.cpp"
grep -q 'boid_view' "$tmp/own_blend.cpp"
best() {
  local best=""
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s.%N)
    "$cxx" -std=c++17 -O2 -Iinclude ${2:-} -c "$1" -o "$tmp/out.o"
    t1=$(date +%s.%N)
    best=$(python3 -c "import sys; a=float(sys.argv[1]); b=sys.argv[2]; print('%.2f' % (a if b == '' else min(a, float(b))))" "$(python3 -c "print($t1 - $t0)")" "$best")
  done
  echo "$best"
}
printf '%-44s %s\n' "translation unit ($cxx -O2)" "seconds (best of 3)"
for tu in glm_only umbrella one_behaviour one_step own_blend; do
  printf '%-44s %s\n' "$tu.cpp" "$(best "$tmp/$tu.cpp")"
done
for tu in one_step own_blend; do
  printf '%-44s %s\n' "$tu.cpp with boids::prebuilt" "$(best "$tmp/$tu.cpp" -DBOIDS_PREBUILT)"
done
echo "boids headers behind seek_flee_arrive.hpp:" \
  "$("$cxx" -std=c++17 -Iinclude -M "$tmp/one_behaviour.cpp" | tr ' \\' '\n\n' | grep -o 'boids/[a-z_/.]*\.hpp' | sed 's|boids/behaviors/\.\./|boids/|' | sort -u | tr '\n' ' ')"

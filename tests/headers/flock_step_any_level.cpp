// A flock step in 2D and 3D, compiled at every optimisation level under -Werror: the
// kernel's unroll hints must not warn where the optimiser declines them (clang -O1).
#include <boids/flock/step.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include <vector>

namespace {
struct vec2 {
    float x, y;
};
struct vec3 {
    float x, y, z;
};
}  // namespace
BOIDS_REGISTER_VECTOR2(vec2, float, x, y)
BOIDS_REGISTER_VECTOR3(vec3, float, x, y, z)

template <class V>
float one_step(const V& start) {
    boids::flock_config<V> cfg;
    std::vector<V> p(64, start), v(64, start);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    boids::flock_step(p, v, cfg, grid, ws, 0.016f);
    return boids::length(p[0]);
}

float steps() { return one_step(vec2{1, 2}) + one_step(vec3{1, 2, 3}); }

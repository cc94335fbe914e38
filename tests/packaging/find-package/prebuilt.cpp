// A consumer of boids::prebuilt: one flock step over GLM, compiled in the library.
#include <boids/flock/step.hpp>
#include <boids/glm.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include <cstdio>
#include <vector>

#if !defined(BOIDS_PREBUILT)
#  error "boids::prebuilt defines BOIDS_PREBUILT"
#endif

int main() {
    boids::flock_config<glm::vec2> cfg;
    std::vector<glm::vec2> p{{100.f, 100.f}, {110.f, 100.f}}, v{{10.f, 0.f}, {10.f, 0.f}};
    boids::uniform_grid<glm::vec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<glm::vec2> ws;
    boids::flock_step(p, v, cfg, grid, ws, 0.016f);
    std::printf("consumer_prebuilt: %.3f %.3f\n", static_cast<double>(p[0].x), static_cast<double>(p[0].y));
    return p[0].x > 100.f ? 0 : 1;
}

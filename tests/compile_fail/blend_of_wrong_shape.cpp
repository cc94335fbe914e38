// Must not compile, with one clear message: a blend that takes (position, velocity)
// where flock_step asks for (const boid_view<V>&, const neighborhood_summary<V>&).
// tests/CMakeLists.txt (flock.blend-of-wrong-shape-is-named) compiles it and looks for
// the message.
#include <boids/flock/step.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include <vector>
#include "plain_vectors.hpp"

int main() {
    using V = test::fvec2;
    std::vector<V> p(10), v(10);
    boids::flock_config<V> cfg;
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    boids::flock_step(p, v, cfg, grid, ws, 0.016f, [](const V& position, const V& velocity) {
        return V{position.x - velocity.x, position.y - velocity.y};
    });
    return 0;
}

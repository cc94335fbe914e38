// mixed_build_run.hpp - one flock run, digested, for tests/prebuilt_mixed_*.cpp: two
// translation units, one built with BOIDS_PREBUILT and one without, each include it
// and step the same flock with the same blend type.
#pragma once
#include <boids/boids.hpp>
#include <cstdint>
#include <vector>
#include "bits_digest.hpp"

namespace test {
// A blend of one's own, one type for both translation units.
struct mixed_build_blend {
    boids::flock_rules<glm::vec2> rules;
    glm::vec2 operator()(const boids::boid_view<glm::vec2>& b, const boids::neighborhood_summary<glm::vec2>& s) const {
        return rules(b, s) * 0.75f;
    }
};
}  // namespace test

namespace {  // each translation unit its own copy: it calls that unit's step
std::uint64_t mixed_build_digest(bool own_blend) {
    boids::flock_config<glm::vec2> cfg;
    std::vector<glm::vec2> p, v;
    boids::lesson::scatter(11, cfg, p, v, 500);
    boids::uniform_grid<glm::vec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<glm::vec2> ws;
    const test::mixed_build_blend blend{boids::flock_rules<glm::vec2>(cfg)};
    for (int s = 0; s < 30; ++s) {
        if (own_blend)
            boids::flock_step(boids::span<glm::vec2>(p), boids::span<glm::vec2>(v), cfg, grid, ws, 0.05f, blend);
        else boids::flock_step(boids::span<glm::vec2>(p), boids::span<glm::vec2>(v), cfg, grid, ws, 0.05f);
    }
    return test::bits_digest{}.eat(p).eat(v).value();
}
}  // namespace

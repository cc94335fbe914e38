// fuzz_flock_step: a flock step fed arbitrary floats (NaN, infinities, denormals,
// huge values, zero and negative parameters). Properties: parameters that fail
// validate() are never run; with valid parameters every boid whose state was finite
// stays finite and inside the speed band; grid and all-pairs give the same flock.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>
#include <boids/flock/step.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "fuzz_input.hpp"
#include "lab_vector.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using V = lab::vec2;
    fuzz::input in(data, size);
    boids::flock_config<V> cfg;
    cfg.world = {static_cast<boids::edges>(in.small(3)), {in.any_double(), in.any_double()}};
    cfg.limits = {in.any_double(), in.any_double(), in.any_double(), in.any_double()};
    cfg.neighbors = in.small(1) ? boids::neighborhood_kind::topological : boids::neighborhood_kind::metric;
    cfg.view_radius = in.any_double();
    cfg.view_angle = in.any_double();
    cfg.k = in.small(10);
    cfg.separate = {in.any_double(), static_cast<boids::separation_falloff>(in.small(2)), in.any_double(), 1};
    cfg.align.form = static_cast<boids::social_form>(in.small(1));
    cfg.align.gain = in.any_double();
    cfg.cohere.form = static_cast<boids::social_form>(in.small(1));
    cfg.cohere.gain = in.any_double();
    cfg.separation_weight = in.any_double();
    cfg.alignment_weight = in.any_double();
    cfg.cohesion_weight = in.any_double();
    cfg.has_predator = in.small(1) == 1;
    cfg.predator = V{in.any_double(), in.any_double()};
    cfg.panic_radius = in.any_double();
    cfg.flee_weight = in.any_double();
    cfg.order = boids::neighbor_order::by_index;
    const double dt = in.any_double();
    if (!cfg.validate().ok() || !(dt >= 0 && dt <= 1e6)) return 0;  // refused up front
    if (cfg.world.has_box() && cfg.view_radius * 1e-6 > cfg.world.size[0] + cfg.world.size[1]) return 0;

    std::vector<V> pos, vel;
    while (in.left() >= 32 && pos.size() < 48) {
        pos.push_back(V{in.any_double(), in.any_double()});
        vel.push_back(V{in.any_double(), in.any_double()});
    }
    std::vector<bool> finite(pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i) finite[i] = boids::is_finite(pos[i]) && boids::is_finite(vel[i]);
    auto p2 = pos, v2 = vel;
    boids::all_pairs<V> pairs(cfg.world);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws1, ws2;
    for (int s = 0; s < 3; ++s) {
        boids::flock_step(boids::span<V>(pos), boids::span<V>(vel), cfg, pairs, ws1, dt);
        boids::flock_step(boids::span<V>(p2), boids::span<V>(v2), cfg, grid, ws2, dt);
    }
    for (std::size_t i = 0; i < pos.size(); ++i) {
        if (!finite[i]) continue;
        // A finite boid may only overflow if dt * speed does: the speed band holds.
        FUZZ_CHECK(boids::is_finite(vel[i]));
        const double speed = boids::length(vel[i]);
        FUZZ_CHECK(speed <= cfg.limits.max_speed * (1 + 1e-9) + 1e-300);
        // A subnormal min_speed has few digits: the band's nearest vector may fall a
        // unit in the last place short (found by this target, min_speed 2.5e-316).
        const double last_place = 4 * std::numeric_limits<double>::denorm_min();
        FUZZ_CHECK(speed >= cfg.limits.min_speed * (1 - 1e-9) - last_place || cfg.limits.min_speed == 0);
        if (boids::is_finite(pos[i])) {
            FUZZ_CHECK(pos[i].x == p2[i].x && pos[i].y == p2[i].y);
            FUZZ_CHECK(vel[i].x == v2[i].x && vel[i].y == v2[i].y);
        }
    }
    return 0;
}

// fuzz_flock_step: a flock step fed arbitrary floats (NaN, infinities, denormals,
// huge values, zero and negative parameters). Properties: parameters that fail
// validate() are never run; with valid parameters every boid whose state was finite
// stays finite and inside the speed band; grid and all-pairs give the same flock.
// One input in eight adds a crowd of 600 around one boid (at a spread the input picks)
// and a cap on neighbours: the grid's step in its own order (the fused kernel, reading
// the sub-cells of crowded cells) gives every boid all-pairs' neighbour count, and its
// sums within rounding.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>
#include <boids/flock/step.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "fuzz_input.hpp"
#include "lab_vector.hpp"

namespace {
using V = lab::vec2;

// The crowd's property (see the top): metric neighbours, moderate values only (the
// kernel's and all-pairs' offsets agree to the last bit there, not across 1e300).
void crowd_property(boids::flock_config<V> cfg, std::vector<V> pos, std::size_t cap, double spread,
                    std::uint64_t state) {
    cfg.neighbors = boids::neighborhood_kind::metric;
    cfg.max_neighbors = cap;
    cfg.order = boids::neighbor_order::finder;
    const bool tame = cfg.view_radius > 1e-3 && cfg.view_radius < 1e3 &&
                      (!cfg.world.has_box() || (cfg.world.size[0] < 1e4 && cfg.world.size[1] < 1e4));
    if (pos.empty() || !tame || !cfg.validate().ok()) return;
    auto inside = [&](double x, std::size_t d) {  // a box world's positions in [0, size)
        if (!cfg.world.has_box()) return x;
        x = std::fmod(x, cfg.world.size[d]);
        x = x < 0 ? x + cfg.world.size[d] : x;
        return x < cfg.world.size[d] ? x : 0.0;
    };
    for (auto& p : pos) {
        if (!(std::fabs(p.x) < 1e4 && std::fabs(p.y) < 1e4)) p = V{0.0, 0.0};
        p = V{inside(p.x, 0), inside(p.y, 1)};
    }
    auto unit = [&] {  // (-1, 1), from a fixed generator: the input picks its seed
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(state >> 11) * 0x1.0p-52 - 1.0;
    };
    const V at = pos[0];
    for (int c = 0; c < 600; ++c) {
        pos.push_back(V{inside(at.x + spread * unit(), 0), inside(at.y + spread * unit(), 1)});
    }
    std::vector<V> vel;
    for (std::size_t i = 0; i < pos.size(); ++i) vel.push_back(V{unit(), unit()});
    auto summaries = [&](auto& finder) {
        std::vector<boids::neighborhood_summary<V>> seen(pos.size());
        auto record = [&](const boids::boid_view<V>& b, const boids::neighborhood_summary<V>& s) {
            seen[b.index] = s;
            return boids::zero<V>();
        };
        auto p = pos, v = vel;
        boids::flock_workspace<V> ws;
        boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, finder, ws, 0.0, record);
        return seen;
    };
    boids::all_pairs<V> pairs(cfg.world);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    const auto want = summaries(pairs), got = summaries(grid);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const double scale = 1.0 + static_cast<double>(want[i].count);
        FUZZ_CHECK(got[i].count == want[i].count);
        FUZZ_CHECK(boids::distance(got[i].offset_sum, want[i].offset_sum) <= 1e-9 * scale * cfg.view_radius);
        FUZZ_CHECK(boids::distance(got[i].velocity_sum, want[i].velocity_sum) <= 1e-9 * scale);
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
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
    // The crowd's choices come last, from the bytes the boids leave (the inputs of the
    // corpus keep their meaning).
    const bool crowd = in.small(7) == 7;
    const double spread = in.finite(1e3) * std::pow(10.0, -static_cast<double>(in.small(12)));
    const std::size_t cap = 1 + in.small(300);
    std::uint64_t state = in.small(1000) + 1;
    if (crowd) return crowd_property(cfg, pos, cap, spread, state), 0;
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

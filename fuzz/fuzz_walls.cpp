// fuzz_walls: arbitrary walls (posts, shared ends, NaN and infinite ends, tiny and vast),
// buckets, query points and radii for wall_grid, and agents among the walls.
// Properties: no crash or out-of-bounds access (run under ASan); a query selects exactly
// the finite walls within its radius, ascending, once each; where every wall is finite
// and of a size a level has, avoid_walls and follow_wall given the walls within
// their wall_range() answer with the same bits as given all of them, and finitely.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>
#include <boids/behaviors/follow_wall.hpp>
#include <boids/behaviors/wall_grid.hpp>
#include "fuzz_input.hpp"
#include "lab_vector.hpp"

namespace {
using V = lab::vec2;
using wall = boids::wall<V>;

bool same_bits(const V& a, const V& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <class Behavior>
V answer_near(const boids::wall_grid<V>& grid, Behavior behavior, const V& p, const V& v,
              boids::wall_selection<V>& near) {
    grid.near(p, behavior.wall_range(), near);
    behavior.walls = near.view();
    return behavior(p, v);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::input in(data, size);
    const double bucket = in.finite(1e4);                                       // zero or negative: the grid picks
    const double scale = std::pow(10.0, static_cast<double>(in.small(8)) - 4);  // 1e-4 to 1e4
    std::vector<wall> walls;
    bool all_finite = true;
    const std::size_t count = in.small(48);
    while (walls.size() < count) {
        const std::size_t kind = in.small(15);
        V a{in.finite(1e3) * scale, in.finite(1e3) * scale};
        V b{in.finite(1e3) * scale, in.finite(1e3) * scale};
        if (kind == 0 && !walls.empty()) a = walls.back().b;  // a corner
        if (kind == 1) b = a;                                 // a post
        if (kind == 2) a.x = std::numeric_limits<double>::quiet_NaN();
        if (kind == 3) b.y = -std::numeric_limits<double>::infinity();
        if (kind == 4) b.x = in.finite(1e300);  // vast: only the selection is checked
        all_finite = all_finite && kind != 2 && kind != 3 && kind != 4;
        walls.push_back({a, b});
    }
    const boids::wall_grid<V> grid(boids::span<const wall>(walls), bucket);
    FUZZ_CHECK(grid.bucket() > 0 && std::isfinite(grid.bucket()));
    boids::wall_selection<V> got;
    for (int q = 0; q < 4; ++q) {
        const V p{in.finite(2e3) * scale, in.finite(2e3) * scale};
        double radius = std::fabs(in.finite(2e3)) * scale;
        const std::size_t odd = in.small(15);
        if (odd == 0) radius = std::numeric_limits<double>::infinity();
        if (odd == 1) radius = std::numeric_limits<double>::quiet_NaN();
        if (odd == 2) radius = -radius - 1;
        grid.near(p, radius, got);
        std::vector<std::uint32_t> want;
        for (std::size_t i = 0; i < walls.size(); ++i) {
            const bool finite = boids::is_finite(walls[i].a) && boids::is_finite(walls[i].b);
            if (finite && boids::distance(p, boids::detail::nearest_on_wall(walls[i], p)) <= radius)
                want.push_back(static_cast<std::uint32_t>(i));
        }
        FUZZ_CHECK(got.indices == want);
        FUZZ_CHECK(got.walls.size() == want.size());
        for (std::size_t k = 0; k < want.size(); ++k)
            FUZZ_CHECK(same_bits(got.walls[k].a, walls[want[k]].a) && same_bits(got.walls[k].b, walls[want[k]].b));
    }
    if (!all_finite) return 0;
    // Agents among the walls: within range of the docs' bounds on the limits.
    const double distance = (std::fabs(in.finite(50)) + 0.5) * scale;
    boids::steering_limits<double> limits;
    limits.max_speed = distance * (std::fabs(in.finite(4)) + 0.1);
    limits.reaction_time = std::fabs(in.finite(1)) + 0.01;
    limits.max_force = limits.max_speed / limits.reaction_time;
    boids::avoid_walls<V> avoid{boids::span<const wall>(walls), limits, distance * 3};
    boids::follow_wall<V> follow{boids::span<const wall>(walls),
                                 distance,
                                 limits,
                                 static_cast<boids::wall_side>(in.small(2)),
                                 in.finite(2),
                                 distance * 5};
    if (!follow.validate().ok()) return 0;
    for (int q = 0; q < 6; ++q) {
        const V p{in.finite(2e3) * scale, in.finite(2e3) * scale};
        const V v{in.finite(2) * limits.max_speed, in.finite(2) * limits.max_speed};
        const V want_avoid = avoid(p, v), want_follow = follow(p, v);
        FUZZ_CHECK(boids::is_finite(want_avoid) && boids::is_finite(want_follow));
        FUZZ_CHECK(same_bits(answer_near(grid, avoid, p, v, got), want_avoid));
        FUZZ_CHECK(same_bits(answer_near(grid, follow, p, v, got), want_follow));
    }
    return 0;
}

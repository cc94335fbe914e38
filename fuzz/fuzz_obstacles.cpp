// fuzz_obstacles: arbitrary round obstacles in 2D and 3D (points, negative and vast
// radii, NaN and infinite centres and radii, tiny and vast levels), buckets, query points
// and ranges for obstacle_grid, and agents among the obstacles.
// Properties: no crash or out-of-bounds access (run under ASan); a query selects exactly
// the finite obstacles within its range, ascending, once each; where every obstacle is
// finite and of a size a level has, avoid_obstacles and context_steering given the
// obstacles within their obstacle_range() answer with the same bits as given all of
// them, and finitely.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>
#include <boids/behaviors/avoid_obstacles.hpp>
#include <boids/behaviors/context.hpp>
#include <boids/behaviors/obstacle_grid.hpp>
#include "fuzz_input.hpp"
#include "lab_vector.hpp"

namespace {
template <class V>
bool same_bits(const V& a, const V& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class V>
V point(fuzz::input& in, double limit) {
    return boids::generate<V>([&](std::size_t) { return in.finite(limit); });  // x first: generate's order
}

template <class V>
void run(fuzz::input& in) {
    using sphere = boids::sphere<V>;
    const double bucket = in.finite(1e4);                                       // zero or negative: the grid picks
    const double scale = std::pow(10.0, static_cast<double>(in.small(8)) - 4);  // 1e-4 to 1e4
    std::vector<sphere> obstacles;
    bool all_finite = true;
    const std::size_t count = in.small(48);
    while (obstacles.size() < count) {
        const std::size_t kind = in.small(15);
        sphere o{point<V>(in, 1e3 * scale), std::fabs(in.finite(1e2)) * scale};
        if (kind == 0 && !obstacles.empty()) o.centre = obstacles.back().centre;  // on the same spot
        if (kind == 1) o.radius = 0;                                              // a point
        if (kind == 2) o.radius = -o.radius;                                      // none at all
        if (kind == 3)
            o.centre = boids::generate<V>([&](std::size_t d) {
                return d == 0 ? std::numeric_limits<double>::quiet_NaN() : boids::get(o.centre, d);
            });
        if (kind == 4) o.radius = std::numeric_limits<double>::infinity();
        if (kind == 5) o.radius = in.finite(1e300);  // vast: only the selection is checked
        all_finite = all_finite && kind != 3 && kind != 4 && kind != 5;
        obstacles.push_back(o);
    }
    const boids::obstacle_grid<V> grid(boids::span<const sphere>(obstacles), bucket);
    FUZZ_CHECK(grid.bucket() > 0 && std::isfinite(grid.bucket()));
    boids::obstacle_selection<V> got;
    for (int q = 0; q < 4; ++q) {
        const V p = point<V>(in, 2e3 * scale);
        boids::sphere_range<double> range{std::fabs(in.finite(2e3)) * scale, std::fabs(in.finite(4))};
        const std::size_t odd = in.small(15);
        if (odd == 0) range.distance = std::numeric_limits<double>::infinity();
        if (odd == 1) range.distance = std::numeric_limits<double>::quiet_NaN();
        if (odd == 2) range.distance = -range.distance - 1;
        if (odd == 3) range.per_radius = 0;
        if (odd == 4) range.per_radius = std::numeric_limits<double>::infinity();
        grid.near(p, range, got);
        std::vector<std::uint32_t> want;
        const bool any = range.distance >= 0 && range.per_radius >= 0 && boids::is_finite(p);
        for (std::size_t i = 0; i < obstacles.size() && any; ++i) {
            const sphere& o = obstacles[i];
            const bool finite = boids::is_finite(o.centre) && std::isfinite(o.radius);
            if (finite &&
                boids::distance(p, o.centre) - o.radius <= range.distance + range.per_radius * std::fmax(o.radius, 0.0))
                want.push_back(static_cast<std::uint32_t>(i));
        }
        FUZZ_CHECK(got.indices == want);
        FUZZ_CHECK(got.obstacles.size() == want.size());
        for (std::size_t k = 0; k < want.size(); ++k)
            FUZZ_CHECK(same_bits(got.obstacles[k].centre, obstacles[want[k]].centre) &&
                       got.obstacles[k].radius == obstacles[want[k]].radius);
    }
    if (!all_finite) return;
    // Agents among the obstacles: speeds and forces of the same scale as the level.
    boids::steering_limits<double> limits;
    limits.max_speed = scale * (std::fabs(in.finite(100)) + 0.1);
    limits.reaction_time = std::fabs(in.finite(1)) + 0.01;
    limits.max_force = limits.max_speed / limits.reaction_time;
    boids::avoid_obstacles<V> avoid{boids::span<const sphere>(obstacles), in.finite(20) * scale, limits};
    avoid.look_ahead = in.finite(2);
    avoid.clearance = in.finite(3);
    boids::context_steering<V> context{boids::span<const sphere>(obstacles), avoid.agent_radius, in.finite(200) * scale,
                                       limits};
    context.goal = point<V>(in, 2e3 * scale);
    for (int q = 0; q < 6; ++q) {
        const V p = point<V>(in, 2e3 * scale);
        const V v = point<V>(in, 2 * limits.max_speed);
        const V want_avoid = avoid(p, v), want_context = context(p, v);
        FUZZ_CHECK(boids::is_finite(want_avoid) && boids::is_finite(want_context));
        grid.near(p, avoid.obstacle_range(v), got);
        boids::avoid_obstacles<V> near_avoid = avoid;
        near_avoid.obstacles = got.view();
        FUZZ_CHECK(same_bits(near_avoid(p, v), want_avoid));
        grid.near(p, context.obstacle_range(), got);
        boids::context_steering<V> near_context = context;
        near_context.obstacles = got.view();
        FUZZ_CHECK(same_bits(near_context(p, v), want_context));
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::input in(data, size);
    if (in.small(1) == 0) run<lab::vec2>(in);
    else run<lab::vec3>(in);
    return 0;
}

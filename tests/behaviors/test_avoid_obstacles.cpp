// Tests of boids/behaviors/avoid_obstacles.hpp.
#include "agent_sim.hpp"
#include <boids/behaviors/avoid_obstacles.hpp>
#include <boids/blend.hpp>
#include <boids/random.hpp>
#include <vector>

TEMPLATE_TEST_CASE("obstacle avoidance never enters an obstacle and still reaches its target", "[obstacles]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{8, 24, S(0.2), 0};
    const std::vector<boids::sphere<V>> rocks{
        {test::make<V>(20, 0.2, 0.1), S(4)}, {test::make<V>(35, -3), S(3)}, {test::make<V>(28, 8), S(2)}};
    const V target = test::make<V>(50, 0);
    const boids::avoid_obstacles<V> avoid{boids::span<const boids::sphere<V>>(rocks), S(0.5), lim};
    const boids::arrive<V> go{target, S(4), lim};
    double closest = 1e9;
    const auto end = test::run<V>(
        {test::make<V>(0, 0), test::make<V>(8, 0)}, lim, 30, 1.0 / 60,
        [&](const V& p, const V& v, double) {
            return boids::blend_priority(lim.max_force, S(1e-3), avoid(p, v), go(p, v));
        },
        [&](const test::agent<V>& a, double) {
            for (const auto& r : rocks)
                closest = std::min(closest, test::len(boids::sub(a.p, r.centre)) - static_cast<double>(r.radius));
        });
    CAPTURE(closest);
    CHECK(closest >= 0.5);  // its own radius: never inside
    CHECK(test::len(boids::sub(end.p, target)) < 1.0);
}

TEST_CASE("wall avoidance keeps a vehicle on its side of a wall", "[obstacles]") {
    struct v2 {
        double x, y;
    };
    using V = plain_vec2;
    const boids::steering_limits<float> lim{8, 30, 0.2f, 0};
    const boids::wall<V> walls[] = {{{10, -20}, {10, 20}}};
    const boids::avoid_walls<V> avoid{boids::span<const boids::wall<V>>(walls, 1), lim, 6.f};
    const boids::seek<V> go{{30, 0}, lim};  // the target is behind the wall
    double max_x = -1e9;
    test::run<V>(
        {{0, 0}, {8, 0}}, lim, 10, 1.0 / 60,
        [&](const V& p, const V& v, double) {
            return boids::blend_priority(lim.max_force, 1e-3f, avoid(p, v), go(p, v));
        },
        [&](const test::agent<V>& a, double) { max_x = std::max(max_x, static_cast<double>(a.p.x)); });
    CHECK(max_x < 10.0);
    (void)sizeof(v2);
}

TEMPLATE_TEST_CASE("containment never leaves its box", "[obstacles][containment]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{6, 12, S(0.25), 0};
    const V lo = test::make<V>(0, 0, 0), hi = test::make<V>(20, 10, 10);
    const boids::stay_within<V> box{lo, hi, lim};
    // Head straight for a wall at full speed, then bounce around with random pushes.
    bool inside = true;
    boids::random_stream rng(5);
    test::run<V>(
        {test::make<V>(10, 5, 5), test::make<V>(6, 1, -1)}, lim, 60, 1.0 / 60,
        [&](const V& p, const V& v, double) {
            const V noise = boids::scale(boids::unit_direction<V>(rng.next()), S(12));
            return boids::blend_priority(lim.max_force, S(1e-3), box(p, v), noise);
        },
        [&](const test::agent<V>& a, double) {
            for (std::size_t d = 0; d < boids::dimension_v<V>; ++d)
                inside = inside && boids::get(a.p, d) >= boids::get(lo, d) && boids::get(a.p, d) <= boids::get(hi, d);
        });
    CHECK(inside);
}

TEMPLATE_TEST_CASE("obstacle behaviours on degenerate input", "[obstacles][contract]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{6, 12, S(0.25), 0};
    const boids::sphere<V> rock{boids::zero<V>(), S(0)};
    const V z = boids::zero<V>();
    // Exactly on the centre of a zero-size obstacle, at rest: a finite push.
    CHECK(boids::is_finite(boids::avoid_obstacles<V>{boids::span<const boids::sphere<V>>(&rock, 1), S(0), lim}(z, z)));
    CHECK(boids::is_finite(boids::stay_within<V>{z, z, lim}(z, z)));
}

// Tests of boids/behaviors/path.hpp.
#include "agent_sim.hpp"
#include <boids/behaviors/path.hpp>
#include <vector>

TEMPLATE_TEST_CASE("path following stays within the radius once on the path and stops at the end", "[path]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const std::vector<V> pts{test::make<V>(0, 0), test::make<V>(20, 0), test::make<V>(20, 15, 5),
                             test::make<V>(40, 15, 5)};
    const boids::polyline_path<V> path{boids::span<const V>(pts), S(1.5), false};
    const boids::steering_limits<S> lim{6, 12, S(0.25), 0};
    const boids::follow_path<V> follow{path, lim, S(0.4)};
    bool on = false;
    double worst = 0;
    const auto end = test::run<V>(
        {test::make<V>(-3, 2), test::make<V>(1, 0)}, lim, 40, 1.0 / 60,
        [&](const V& p, const V& v, double) { return follow(p, v); },
        [&](const test::agent<V>& a, double) {
            const double d = static_cast<double>(path.nearest(a.p).distance);
            if (d < 0.5 * 1.5) on = true;
            if (on) worst = std::max(worst, d);
        });
    CHECK(on);
    CAPTURE(worst);
    CHECK(worst <= 1.5);
    CHECK(test::len(boids::sub(end.p, pts.back())) < 0.5);
    CHECK(test::len(end.v) < 0.5);
}

TEMPLATE_TEST_CASE("a closed path is followed round and round", "[path]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const std::vector<V> square{test::make<V>(0, 0), test::make<V>(20, 0), test::make<V>(20, 20), test::make<V>(0, 20)};
    const boids::polyline_path<V> path{boids::span<const V>(square), S(2), true};
    const boids::steering_limits<S> lim{6, 12, S(0.25), 0};
    const boids::follow_path<V> follow{path, lim, S(0.4)};
    double travelled = 0, worst = 0;
    test::run<V>(
        {test::make<V>(0, 0), test::make<V>(3, 0)}, lim, 60, 1.0 / 60,
        [&](const V& p, const V& v, double) { return follow(p, v); },
        [&](const test::agent<V>& a, double t) {
            travelled += test::len(a.v) / 60;
            if (t > 5) worst = std::max(worst, static_cast<double>(path.nearest(a.p).distance));
        });
    CHECK(travelled > 3 * 80);  // more than three laps
    CHECK(worst <= 2.0);
}

TEMPLATE_TEST_CASE("path following on degenerate paths is finite", "[path][contract]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{6, 12, S(0.25), 0};
    const std::vector<V> one{test::make<V>(3, 3)}, twin{test::make<V>(1, 1), test::make<V>(1, 1)};
    CHECK(boids::is_finite(boids::follow_path<V>{{}, lim}(boids::zero<V>(), boids::zero<V>())));
    CHECK(boids::is_finite(
        boids::follow_path<V>{{boids::span<const V>(one), S(0)}, lim}(boids::zero<V>(), boids::zero<V>())));
    CHECK(boids::is_finite(
        boids::follow_path<V>{{boids::span<const V>(twin), S(1)}, lim}(test::make<V>(1, 1), boids::zero<V>())));
}

// Tests of boids/behaviors/turning.hpp: movers that turn no tighter than allowed and still
// reach what they aim at.
#include "test_support.hpp"
#include <boids/behaviors/frame.hpp>
#include <boids/behaviors/path.hpp>
#include <boids/behaviors/seek_flee_arrive.hpp>
#include <boids/behaviors/turning.hpp>
#include <vector>

namespace {
// Angles measured from float vectors a step apart (0.02 rad) carry ~1e-3 of rounding.
template <class V>
constexpr double tolerance() {
    return sizeof(boids::scalar_t<V>) == 4 ? 5e-3 : 1e-6;
}
template <class V>
double angle_between(const V& a, const V& b) {
    const double c = static_cast<double>(boids::dot(boids::normalized_or_zero(a), boids::normalized_or_zero(b)));
    return std::acos(std::clamp(c, -1.0, 1.0));
}

// Drives a turn-limited mover with `steer` until it comes within `reach` of `target`
// or `seconds` pass. Returns the time it came within reach (or +inf) and the worst
// curvature (heading change over distance driven) and turn rate seen.
struct drive_result {
    double reached_at = std::numeric_limits<double>::infinity();
    double worst_curvature = 0, worst_rate = 0, slowest = std::numeric_limits<double>::infinity();
};
template <class V, class Steer>
drive_result drive(V p, V v, const V& target, double reach, const boids::steering_limits<boids::scalar_t<V>>& lim,
                   const boids::turning_limits<boids::scalar_t<V>>& turn, double seconds, double dt, Steer&& steer) {
    using S = boids::scalar_t<V>;
    drive_result r;
    boids::turning_state state;
    const long steps = static_cast<long>(seconds / dt + 0.5);
    for (long i = 0; i < steps; ++i) {
        const V before = v;
        boids::integrate(p, v, steer(p, v, state), static_cast<S>(dt), lim, turn);
        const double turned = angle_between(before, v), moved = test::len(v) * dt;
        if (moved > 0) r.worst_curvature = std::max(r.worst_curvature, turned / moved);
        r.worst_rate = std::max(r.worst_rate, turned / dt);
        r.slowest = std::min(r.slowest, test::len(v));
        if (test::len(boids::sub(p, target)) <= reach) {
            r.reached_at = static_cast<double>(i + 1) * dt;
            break;
        }
    }
    return r;
}
}  // namespace

TEST_CASE("turning_limits name the field that is wrong and give the turn allowed", "[turning]") {
    boids::turning_limits<double> t;
    CHECK(t.validate());
    CHECK(t.max_turn(10, 0.1) == Approx(3.141592653589793));  // no limit: any turn (at most half a circle)
    t.min_turn_radius = 5;
    CHECK(t.max_turn(10, 0.1) == Approx(0.2));  // 10 / 5 rad/s
    CHECK(t.turn_radius(10, 1000) == Approx(5));
    CHECK(t.turn_radius(10, 10) == Approx(10));  // v^2 / a_max: the force runs out first
    t.max_turn_rate = 0.5;
    CHECK(t.max_turn(10, 0.1) == Approx(0.05));
    CHECK(t.turn_radius(10, 1000) == Approx(20));
    t.min_turn_radius = -1;
    CHECK(std::string(t.validate().field) == "min_turn_radius");
    t = {};
    t.max_turn_rate = 0;
    CHECK(std::string(t.validate().field) == "max_turn_rate");
}

TEMPLATE_TEST_CASE("limit_turn caps the angle and keeps the speed", "[turning]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V from = test::make<V>(3, 0), to = test::make<V>(0, 5);
    const V got = boids::limit_turn(from, to, S(0.25));
    CHECK(angle_between(from, got) == Approx(0.25).epsilon(1e-5));
    CHECK(test::len(got) == Approx(5).epsilon(1e-5));
    CHECK(test::near(boids::limit_turn(from, to, S(2)), to, 1e-6));  // within the cap: unchanged
    // Straight behind: to the left; at rest: free.
    const V back = boids::limit_turn(from, test::make<V>(-2, 0), S(0.5));
    CHECK(static_cast<double>(boids::dot(back, boids::local_frame<V>::from_heading(from).side)) > 0.9);
    CHECK(test::near(boids::limit_turn(boids::zero<V>(), to, S(0.1)), to, 0));
    CHECK(boids::is_zero(boids::limit_turn(from, boids::zero<V>(), S(0.1))));
}

TEMPLATE_TEST_CASE("a car reaches targets behind and beside it without turning tighter than its lock",
                   "[turning][scene]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{10, 40, S(0.25), 4};  // never slower than 4: no turning on the spot
    const boids::turning_limits<S> car{std::numeric_limits<S>::infinity(), 8};
    const V start = test::make<V>(0, 0), heading = test::make<V>(10, 0);
    for (const V target : {test::make<V>(-20, 0), test::make<V>(-3, 0.5), test::make<V>(0, 6), test::make<V>(2, -9),
                           test::make<V>(4, 3, 2), test::make<V>(60, 1)}) {
        CAPTURE(test::show(target));
        const boids::seek_turning<V> go{target, lim, car};
        const auto r = drive(start, heading, target, 0.5, lim, car, 60, 1.0 / 60, go);
        CHECK(r.reached_at < 30);
        CHECK(r.worst_curvature <= 1.0 / 8 * (1 + tolerance<V>()));
        CHECK(r.slowest >= 4 * (1 - 1e-5));
    }
}

TEMPLATE_TEST_CASE("plain seek circles a target inside the turning circle; seek_turning reaches it", "[turning][scene]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{10, 100, S(0.1), 10};  // a constant speed of 10
    const boids::turning_limits<S> car{std::numeric_limits<S>::infinity(), 8};
    const V target = test::make<V>(0, 6);  // beside the car, well inside its turning circle
    const boids::seek<V> plain{target, lim};
    const auto seek = drive(test::make<V>(0, 0), test::make<V>(10, 0), target, 0.5, lim, car, 60, 1.0 / 60,
                            [&](const V& p, const V& v, boids::turning_state&) { return plain(p, v); });
    CHECK(seek.reached_at == std::numeric_limits<double>::infinity());
    const auto turning = drive(test::make<V>(0, 0), test::make<V>(10, 0), target, 0.5, lim, car, 60, 1.0 / 60,
                               boids::seek_turning<V>{target, lim, car});
    CHECK(turning.reached_at < 10);
}

TEMPLATE_TEST_CASE("a tank turns no faster than its turn rate", "[turning]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{5, 50, S(0.2), 0};
    const boids::turning_limits<S> tank{S(0.8), 0};
    const V target = test::make<V>(-30, 10, -5);
    const auto r = drive(test::make<V>(0, 0), test::make<V>(5, 0), target, 0.5, lim, tank, 60, 1.0 / 60,
                         boids::seek_turning<V>{target, lim, tank});
    CHECK(r.worst_rate <= 0.8 * (1 + tolerance<V>()));
    CHECK(r.reached_at < 30);
}

TEMPLATE_TEST_CASE("path following with a turn limit drives arcs no tighter than allowed", "[turning][path]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{8, 40, S(0.25), 3};
    const boids::turning_limits<S> car{std::numeric_limits<S>::infinity(), 6};
    const std::vector<V> pts{test::make<V>(0, 0), test::make<V>(40, 0), test::make<V>(40, 40), test::make<V>(0, 40)};
    const boids::polyline_path<V> path{boids::span<const V>(pts), S(2), false};
    const boids::follow_path<V> follow{path, lim};
    const auto r = drive(test::make<V>(0, 0), test::make<V>(8, 0), test::make<V>(0, 40), 2.0, lim, car, 60, 1.0 / 60,
                         [&](const V& p, const V& v, boids::turning_state&) { return follow(p, v); });
    CHECK(r.worst_curvature <= 1.0 / 6 * (1 + tolerance<V>()));
    CHECK(r.worst_curvature > 1.0 / 6 * 0.9);  // the corners needed the full lock
    CHECK(r.reached_at < 40);
}

TEMPLATE_TEST_CASE("a turn-limited step is finite at rest, at dt = 0 and with a NaN force", "[turning]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{5, 10, S(0.2), 1};
    const boids::turning_limits<S> car{S(1), S(3)};
    V p = test::make<V>(1, 2), v = boids::zero<V>();
    boids::integrate(p, v, boids::zero<V>(), S(0.1), lim, car);  // at rest with a minimum speed: +x at 1
    CHECK(test::near(v, test::make<V>(1, 0), 1e-6));
    const V was = p;
    boids::integrate(p, v, test::make<V>(0, 50), S(0), lim, car);
    CHECK(test::near(p, was, 0));
    boids::turning_state st;
    CHECK(boids::is_finite(boids::seek_turning<V>{p, lim, car}(p, v, st)));
    CHECK(boids::is_finite(boids::seek_turning<V>{p, lim, car}(p, boids::zero<V>(), st)));
    CHECK(boids::is_finite(boids::seek_turning<V>{test::make<V>(-5, 0), lim, car}(p, test::make<V>(1e-30, 0), st)));
}

// Tests of boids/behaviors/seek_flee_arrive.hpp: what each behaviour is for.
#include "test_support.hpp"
#include <boids/behaviors/seek_flee_arrive.hpp>

namespace {
template <class V>
boids::steering_limits<boids::scalar_t<V>> warmup_limits() {
    return {220, 440, boids::scalar_t<V>(0.2), 0};
}
}  // namespace

TEMPLATE_TEST_CASE("seek steers at full speed toward the target", "[seek]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto lim = warmup_limits<V>();
    const boids::seek<V> s{test::make<V>(100, 0), lim};
    // At rest: desired (220, 0), gap / 0.2 = 1100, clamped to 440.
    CHECK(test::near(s(test::make<V>(0, 0), boids::zero<V>()), test::make<V>(440, 0), 1e-3));
    // Already at full speed toward it: nothing to change.
    CHECK(test::len(s(test::make<V>(0, 0), test::make<V>(220, 0))) < 1e-3);
    // On the target: no force, no NaN.
    CHECK(boids::is_zero(s(test::make<V>(100, 0), test::make<V>(5, 5))));
    (void)S(0);
}

TEMPLATE_TEST_CASE("flee turns away from a threat it is heading straight at; -seek would not", "[flee]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto lim = warmup_limits<V>();
    const V p = test::make<V>(0, 0), threat = test::make<V>(50, 0);
    const V v = test::make<V>(220, 0);  // full speed, straight at the threat
    const boids::flee<V> f{threat, S(200), lim};
    const V a = f(p, v);
    CHECK(static_cast<double>(boids::get(a, 0)) < -400);  // brakes hard, then reverses
    const V minus_seek = boids::negate(boids::seek<V>{threat, lim}(p, v));
    CHECK(test::len(minus_seek) < 1e-3);  // -seek: no force, it would fly into the threat
}

TEMPLATE_TEST_CASE("flee outside the panic radius: brake or ignore", "[flee]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto lim = warmup_limits<V>();
    const V p = test::make<V>(0, 0), v = test::make<V>(10, 0), threat = test::make<V>(500, 0);
    const boids::flee<V> brake{threat, S(200), lim, boids::flee_outside::brake};
    CHECK(test::near(brake(p, v), test::make<V>(-50, 0), 1e-3));  // toward rest: -v / 0.2
    const boids::flee<V> ignore{threat, S(200), lim, boids::flee_outside::ignore};
    CHECK(boids::is_zero(ignore(p, v)));
    // On the threat itself: treated as outside (no direction to flee), finite.
    CHECK(boids::is_zero(boids::flee<V>{p, S(200), lim, boids::flee_outside::ignore}(p, v)));
}

TEMPLATE_TEST_CASE("arrive stops within 1 px at under 1 px/s without passing the target", "[arrive]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto lim = warmup_limits<V>();
    const V target = test::make<V>(350, 0, 0);
    const boids::arrive<V> arr{target, S(140), lim};
    V p = test::make<V>(0, 0), v = test::make<V>(0, 0);
    double max_x = 0;
    for (int i = 0; i < 600; ++i) {
        boids::integrate(p, v, arr(p, v), S(1) / S(60), lim);
        max_x = std::max(max_x, static_cast<double>(boids::get(p, 0)));
    }
    CHECK(test::len(boids::sub(target, p)) < 1.0);
    CHECK(test::len(v) < 1.0);
    CHECK(max_x <= 350.0 + 1e-3);  // never overshoots
}

TEMPLATE_TEST_CASE("arrive inside the slowing radius asks for a proportional speed", "[arrive]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{220, 1e6, 1, 0};
    const boids::arrive<V> arr{test::make<V>(70, 0), S(140), lim, S(1), boids::arrive_ramp::linear};
    // d = 70 of 140: desired speed 110; at rest with reaction time 1 the force is 110.
    CHECK(test::near(arr(test::make<V>(0, 0), boids::zero<V>()), test::make<V>(110, 0), 1e-3));
    // Within the arrival radius: desired 0, so it brakes.
    CHECK(test::near(arr(test::make<V>(69.5, 0), test::make<V>(3, 0)), test::make<V>(-3, 0), 1e-4));
    // Zero slowing radius: plain seek speed, finite.
    const boids::arrive<V> sharp{test::make<V>(70, 0), S(0), lim, S(1), boids::arrive_ramp::linear};
    CHECK(test::near(sharp(test::make<V>(0, 0), boids::zero<V>()), test::make<V>(220, 0), 1e-3));
}

TEMPLATE_TEST_CASE("the lesson's linear ramp overshoots slightly; no_overshoot widens it", "[arrive]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto lim = warmup_limits<V>();
    const V target = test::make<V>(350, 0);
    auto run = [&](boids::arrive_ramp ramp) {
        const boids::arrive<V> arr{target, S(140), lim, S(1), ramp};
        V p = test::make<V>(0, 0), v = test::make<V>(0, 0);
        double max_x = 0;
        for (int i = 0; i < 600; ++i) {
            boids::integrate(p, v, arr(p, v), S(1) / S(60), lim);
            max_x = std::max(max_x, static_cast<double>(boids::get(p, 0)));
        }
        return max_x;
    };
    const double linear = run(boids::arrive_ramp::linear);
    CHECK(linear > 350.0);  // underdamped: 140 px < 4 * 0.2 s * 220 px/s = 176 px
    CHECK(linear < 350.2);
    CHECK(run(boids::arrive_ramp::no_overshoot) <= 350.0);
    const boids::arrive<V> arr{target, S(140), lim};
    CHECK(static_cast<double>(arr.effective_slowing_radius()) == Approx(176.0).epsilon(1e-6));
}

TEMPLATE_TEST_CASE("match_velocity takes on the target velocity, at most max_speed of it", "[match_velocity]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto lim = warmup_limits<V>();
    const boids::match_velocity<V> m{test::make<V>(0, 60, 30), lim};
    // Matched: no force; the position plays no part.
    CHECK(test::len(m(test::make<V>(5, 5, 5), test::make<V>(0, 60, 30))) < 1e-4);
    // From rest: the gap / 0.2 s, 300 (2D) or 335 (3D) px/s^2, under the 440 clamp.
    const V a = m(test::make<V>(-7, 3, 1), boids::zero<V>());
    CHECK(test::near(a, boids::scale(m.target_velocity, S(5)), 1e-2));
    // A target faster than max_speed is matched at max_speed, in its direction.
    const boids::match_velocity<V> fast{test::make<V>(1000, 0, 0), lim};
    CHECK(test::len(fast(boids::zero<V>(), test::make<V>(220, 0, 0))) < 1e-3);
    CHECK(boids::is_zero(boids::match_velocity<V>{boids::zero<V>(), lim}(boids::zero<V>(), boids::zero<V>())));
}

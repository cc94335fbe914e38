// Tests of boids/steer.hpp: steer_toward, the speed band and the integrator.
#include "test_support.hpp"
#include <cmath>
#include <limits>
#include <boids/steer.hpp>

TEMPLATE_TEST_CASE("steer_toward closes the velocity gap within the reaction time", "[steer]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V desired = test::make<V>(10, 0);
    const V v = test::make<V>(0, 0);
    SECTION("unclamped: (desired - v) / reaction_time") {
        const V a = boids::steer_toward(desired, v, S(0.5), S(1000));
        CHECK(test::near(a, test::make<V>(20, 0), test::eps<V>()));
    }
    SECTION("clamped to max_force, same direction") {
        const V a = boids::steer_toward(desired, v, S(0.5), S(5));
        CHECK(test::near(a, test::make<V>(5, 0), test::eps<V>()));
    }
    SECTION("already at the desired velocity: no force") {
        CHECK(boids::is_zero(boids::steer_toward(desired, desired, S(0.5), S(5))));
    }
}

TEMPLATE_TEST_CASE("steering_limits::validate names the field", "[steer]", float, double) {
    boids::steering_limits<TestType> ok{10, 20, TestType(0.2), 1};
    CHECK(ok.validate().ok());
    auto bad = ok;
    bad.reaction_time = 0;
    CHECK(std::string(bad.validate().field) == "reaction_time");
    bad = ok;
    bad.min_speed = 11;
    CHECK(std::string(bad.validate().field) == "min_speed");
    CHECK(std::string(bad.validate().reason) == "must not exceed max_speed");
    bad = ok;
    bad.max_force = std::numeric_limits<TestType>::quiet_NaN();
    CHECK(std::string(bad.validate().field) == "max_force");
}

TEMPLATE_TEST_CASE("integrate is semi-implicit Euler", "[steer]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    V p = test::make<V>(0, 0);
    V v = test::make<V>(1, 0);
    boids::integrate(p, v, test::make<V>(0, 10), S(0.1), S(100));
    // velocity first (1, 1), then the position moves with the new velocity.
    CHECK(test::near(v, test::make<V>(1, 1), test::eps<V>()));
    CHECK(test::near(p, test::make<V>(0.1, 0.1), test::eps<V>()));
}

TEMPLATE_TEST_CASE("the speed band", "[steer]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    V p = test::make<V>(5, 5);
    SECTION("a zero velocity gets a defined heading at min speed, never NaN") {
        V v = boids::zero<V>();
        boids::integrate(p, v, boids::zero<V>(), S(0.5), S(10), S(2));
        CHECK(test::near(v, test::make<V>(2, 0), 0));
        CHECK(test::near(p, test::make<V>(6, 5), test::eps<V>()));
    }
    SECTION("too slow is sped up, too fast is slowed, direction kept") {
        V v = test::make<V>(0, 1);
        boids::integrate(p, v, boids::zero<V>(), S(0), S(10), S(2));
        CHECK(test::near(v, test::make<V>(0, 2), test::eps<V>()));
        v = test::make<V>(0, -50);
        boids::integrate(p, v, boids::zero<V>(), S(0), S(10), S(2));
        CHECK(test::near(v, test::make<V>(0, -10), test::eps<V>()));
    }
    SECTION("speeds whose square is not a normal number keep their direction in the band") {
        const S tiny = std::sqrt(std::numeric_limits<S>::min()) * S(0.01);  // its square is subnormal
        const S huge = std::sqrt(std::numeric_limits<S>::max()) * S(10);    // its square overflows
        CHECK(test::near(boids::apply_speed_band(test::make<V>(0, tiny), S(2), S(10)), test::make<V>(0, 2),
                         test::eps<V>()));
        CHECK(test::near(boids::apply_speed_band(test::make<V>(3 * huge, -4 * huge), S(0), S(10)), test::make<V>(6, -8),
                         test::eps<V>()));
        CHECK(test::near(boids::apply_speed_band(test::make<V>(tiny, 0), S(0), S(10)), test::make<V>(tiny, 0), 0));
        CHECK(test::near(boids::apply_speed_band(boids::zero<V>(), S(0), S(10)), boids::zero<V>(), 0));
        CHECK_FALSE(boids::is_finite(boids::apply_speed_band(test::make<V>(std::numeric_limits<S>::quiet_NaN(), 0),
                                                             S(1), S(10))));  // not made up
    }
    SECTION("dt = 0 moves nothing") {
        V v = test::make<V>(3, 0);
        const V before = p;
        boids::integrate(p, v, test::make<V>(100, 100), S(0), S(10), S(0));
        CHECK(test::near(p, before, 0));
        CHECK(test::near(v, test::make<V>(3, 0), 0));
    }
}

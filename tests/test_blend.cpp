// Tests of boids/blend.hpp.
#include "test_support.hpp"
#include <boids/behaviors/seek_flee_arrive.hpp>
#include <boids/blend.hpp>

TEMPLATE_TEST_CASE("blend_weighted sums and clamps", "[blend]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V a = test::make<V>(1, 0), b = test::make<V>(0, 1);
    const V sum = boids::blend_weighted(S(100), boids::weighted<V>{S(2), a}, boids::weighted<V>{S(3), b});
    CHECK(test::near(sum, test::make<V>(2, 3), test::eps<V>()));
    const V clamped = boids::blend_weighted(S(1), boids::weighted<V>{S(3), a}, boids::weighted<V>{S(4), b});
    CHECK(test::near(clamped, test::make<V>(0.6, 0.8), test::eps<V>()));
    CHECK(test::near(boids::blend_weighted(S(1), boids::weighted<V>{S(0), a}), boids::zero<V>(), 0));
}

TEMPLATE_TEST_CASE("make_weighted_blend composes behaviour functors", "[blend]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{10, 1000, 1, 0};
    const V p = test::make<V>(0, 0), v = test::make<V>(0, 0);
    const boids::seek<V> right{test::make<V>(10, 0), lim};
    const boids::seek<V> up{test::make<V>(0, 10), lim};
    const auto blend = boids::make_weighted_blend(S(1000), boids::weight(S(1), right), boids::weight(S(0.5), up));
    const V a = blend(p, v);
    const V expected = boids::add_scaled(right(p, v), up(p, v), S(0.5));
    CHECK(test::near(a, expected, test::eps<V>()));
    const auto tight = boids::make_weighted_blend(S(2), boids::weight(S(1), right), boids::weight(S(1), up));
    CHECK(test::len(tight(p, v)) == Approx(2).epsilon(test::eps<V>()));
}

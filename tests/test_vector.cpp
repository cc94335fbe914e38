// Tests of boids/vector.hpp: the policy and the math written on top of it.
#include "test_support.hpp"
#include <limits>

TEMPLATE_TEST_CASE("vector math on hand-checked values", "[vector]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V a = test::make<V>(3, 4);
    const V b = test::make<V>(1, -2);
    CHECK(boids::dot(a, b) == S(-5));
    CHECK(boids::length_squared(a) == S(25));
    CHECK(boids::length(a) == S(5));
    CHECK(test::near(boids::sub(a, b), test::make<V>(2, 6), 0));
    CHECK(test::near(boids::add_scaled(a, b, S(2)), test::make<V>(5, 0), 0));
    CHECK(boids::distance(a, b) == Approx(std::sqrt(40.0)).epsilon(test::eps<V>()));
    CHECK(test::near(boids::normalized_or_zero(a), test::make<V>(0.6, 0.8), test::eps<V>()));
}

TEMPLATE_TEST_CASE("zero vectors have defined results", "[vector]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V z = boids::zero<V>();
    CHECK(boids::is_zero(z));
    CHECK(boids::length(z) == S(0));
    CHECK(boids::is_zero(boids::normalized_or_zero(z)));
    CHECK(boids::is_zero(boids::clamp_magnitude(z, S(5))));
    CHECK(boids::is_zero(boids::clamp_magnitude(z, S(1), S(5))));
}

TEMPLATE_TEST_CASE("clamp_magnitude keeps direction and limits length", "[vector]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V a = test::make<V>(30, 40);
    SECTION("above the maximum: scaled down to it") {
        const V c = boids::clamp_magnitude(a, S(10));
        CHECK(test::len(c) == Approx(10).epsilon(test::eps<V>()));
        CHECK(test::near(c, test::make<V>(6, 8), 1e-4));
    }
    SECTION("below the maximum: untouched") { CHECK(test::near(boids::clamp_magnitude(a, S(100)), a, 0)); }
    SECTION("the band [min, max]") {
        CHECK(test::len(boids::clamp_magnitude(a, S(60), S(80))) == Approx(60).epsilon(test::eps<V>()));
        CHECK(test::len(boids::clamp_magnitude(a, S(10), S(20))) == Approx(20).epsilon(test::eps<V>()));
        CHECK(test::near(boids::clamp_magnitude(a, S(10), S(80)), a, 0));
    }
    SECTION("a zero maximum gives zero") { CHECK(boids::is_zero(boids::clamp_magnitude(a, S(0)))); }
}

TEMPLATE_TEST_CASE("huge and tiny vectors stay finite", "[vector]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const S big = std::numeric_limits<S>::max() / S(2);
    const V h = test::make<V>(static_cast<double>(big), static_cast<double>(big));
    CHECK(std::isfinite(boids::length(h)));
    const V n = boids::normalized_or_zero(h);
    CHECK(test::len(n) == Approx(1).epsilon(1e-5));
    const V c = boids::clamp_magnitude(h, S(3));
    CHECK(test::len(c) == Approx(3).epsilon(1e-5));
    const S tiny = std::numeric_limits<S>::denorm_min();
    const V t = test::make<V>(static_cast<double>(tiny), 0);
    const V tn = boids::normalized_or_zero(t);
    CHECK(test::near(tn, test::make<V>(1, 0), 1e-6));
}

TEST_CASE("registration is detected and the traits are complete", "[vector]") {
    STATIC_REQUIRE(boids::is_vector_v<plain_vec2>);
    STATIC_REQUIRE(boids::is_vector_v<plain_dvec3>);
    STATIC_REQUIRE_FALSE(boids::is_vector_v<int>);
    STATIC_REQUIRE(boids::dimension_v<plain_vec2> == 2);
    STATIC_REQUIRE(boids::dimension_v<plain_dvec3> == 3);
    STATIC_REQUIRE(std::is_same_v<boids::scalar_t<plain_vec2>, float>);
    constexpr plain_vec2 c = boids::vector_traits<plain_vec2>::make(1.f, 2.f);
    STATIC_REQUIRE(boids::vector_traits<plain_vec2>::get(c, 1) == 2.f);
}

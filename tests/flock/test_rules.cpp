// Tests of boids/flock/rules.hpp: each rule on hand-checked neighbourhoods.
#include "test_support.hpp"
#include <vector>
#include <boids/flock/rules.hpp>

namespace {
template <class V>
boids::neighbor<boids::scalar_t<V>, boids::dimension_v<V>> nb(std::size_t j, const V& off) {
    boids::neighbor<boids::scalar_t<V>, boids::dimension_v<V>> n{j, boids::length_squared(off), {}};
    for (std::size_t d = 0; d < boids::dimension_v<V>; ++d) n.offset[d] = boids::get(off, d);
    return n;
}
}  // namespace

TEMPLATE_TEST_CASE("separation: three falloffs", "[flocking]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{10, 1000, 1, 0};
    // Neighbours at +2 x (d^2 = 4) and +4 y (d^2 = 16); radius 5.
    std::vector<boids::neighbor<S, boids::dimension_v<V>>> n{nb<V>(1, test::make<V>(2, 0)),
                                                             nb<V>(2, test::make<V>(0, 4))};
    const boids::neighborhood<V> hood(n.data(), n.size());
    SECTION("lesson: normalised sum of -offset/d^2, steered at full speed") {
        // push = (-0.5, -0.25): unit (-0.894, -0.447) * 10, minus v = 0.
        const V a = boids::separation<V>{S(5), boids::separation_falloff::lesson}(0, boids::zero<V>(), hood, lim);
        CHECK(test::near(a, test::make<V>(-8.94427191, -4.47213595), 1e-4));
    }
    SECTION("inverse square: unnormalised, closer = pushier") {
        const V a =
            boids::separation<V>{S(5), boids::separation_falloff::inverse_square, S(2)}(0, boids::zero<V>(), hood, lim);
        CHECK(test::near(a, test::make<V>(-1, -0.5), 1e-5));
    }
    SECTION("linear: S (1 - d/r0) along the unit offset") {
        const V a =
            boids::separation<V>{S(5), boids::separation_falloff::linear, S(10)}(0, boids::zero<V>(), hood, lim);
        CHECK(test::near(a, test::make<V>(-6, -2), 1e-5));  // 10*(1-2/5), 10*(1-4/5)
    }
    SECTION("outside the radius: nothing") {
        const V a =
            boids::separation<V>{S(1.5), boids::separation_falloff::linear, S(10)}(0, boids::zero<V>(), hood, lim);
        CHECK(boids::is_zero(a));
    }
}

TEMPLATE_TEST_CASE("coincident boids are pushed apart in opposite seeded directions", "[flocking]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{10, 1000, 1, 0};
    std::vector<boids::neighbor<S, boids::dimension_v<V>>> to1{nb<V>(1, boids::zero<V>())},
        to0{nb<V>(0, boids::zero<V>())};
    for (auto falloff : {boids::separation_falloff::lesson, boids::separation_falloff::inverse_square,
                         boids::separation_falloff::linear}) {
        const boids::separation<V> sep{S(5), falloff, S(1), 42};
        const V a0 = sep(0, boids::zero<V>(), boids::neighborhood<V>(to1.data(), 1), lim);
        const V a1 = sep(1, boids::zero<V>(), boids::neighborhood<V>(to0.data(), 1), lim);
        CHECK(test::len(a0) > 0);
        CHECK(test::near(a0, boids::negate(a1), 1e-6 * (1 + test::len(a0))));
        CHECK(boids::is_finite(a0));
        // Reproducible, and another seed picks another direction.
        CHECK(test::near(a0, sep(0, boids::zero<V>(), boids::neighborhood<V>(to1.data(), 1), lim), 0));
        const boids::separation<V> other{S(5), falloff, S(1), 43};
        CHECK_FALSE(test::near(a0, other(0, boids::zero<V>(), boids::neighborhood<V>(to1.data(), 1), lim), 1e-6));
    }
}

TEMPLATE_TEST_CASE("alignment and cohesion", "[flocking]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{10, 1000, 1, 0};
    std::vector<V> vel{test::make<V>(0, 0), test::make<V>(2, 0), test::make<V>(0, 2)};
    std::vector<boids::neighbor<S, boids::dimension_v<V>>> n{nb<V>(1, test::make<V>(4, 0)),
                                                             nb<V>(2, test::make<V>(0, -2))};
    const boids::neighborhood<V> hood(n.data(), n.size());
    const boids::span<const V> vs(vel.data(), vel.size());
    // Mean velocity (1, 1): lesson steers to full speed along it; linear J (mean - v).
    CHECK(
        test::near(boids::alignment<V>{}(boids::zero<V>(), hood, vs, lim), test::make<V>(7.0710678, 7.0710678), 1e-4));
    CHECK(test::near(boids::alignment<V>{boids::social_form::linear, S(3)}(test::make<V>(1, 0), hood, vs, lim),
                     test::make<V>(0, 3), 1e-5));
    // Centre offset (2, -1): lesson at full speed toward it; linear C (centre - x).
    const double inv = 1.0 / std::sqrt(5.0);
    CHECK(test::near(boids::cohesion<V>{}(boids::zero<V>(), hood, lim), test::make<V>(20 * inv, -10 * inv), 1e-4));
    CHECK(test::near(boids::cohesion<V>{boids::social_form::linear, S(0.5)}(boids::zero<V>(), hood, lim),
                     test::make<V>(1, -0.5), 1e-6));
    // No neighbours: no force, no NaN.
    CHECK(boids::is_zero(boids::alignment<V>{}(test::make<V>(1, 0), boids::neighborhood<V>{}, vs, lim)));
    CHECK(boids::is_zero(boids::cohesion<V>{}(test::make<V>(1, 0), boids::neighborhood<V>{}, lim)));
}

// Tests of boids/neighbors/world.hpp.
#include "test_support.hpp"
#include <boids/neighbors/world.hpp>

TEMPLATE_TEST_CASE("worlds measure offsets and confine positions", "[world]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    auto w = boids::world_for<V>::box(boids::edges::toroidal, {S(100), S(50)});
    CHECK(test::near(boids::offset(w, test::make<V>(5, 5), test::make<V>(95, 45)), test::make<V>(-10, -10), 1e-4));
    w.kind = boids::edges::wrap;  // the lesson: straight across
    CHECK(test::near(boids::offset(w, test::make<V>(5, 5), test::make<V>(95, 45)), test::make<V>(90, 40), 1e-4));
    V p = test::make<V>(-1, 51), v = test::make<V>(1, 1);
    boids::confine(w, p, v);
    CHECK(test::near(p, test::make<V>(99, 1), 1e-4));
    // A tiny negative wraps to [0, W), never to W itself.
    p = test::make<V>(-1e-30, 0);
    boids::confine(w, p, v);
    CHECK(static_cast<double>(boids::get(p, 0)) < 100.0);
    CHECK(static_cast<double>(boids::get(p, 0)) >= 0.0);
    w.kind = boids::edges::bounded;
    p = test::make<V>(-3, 20);
    v = test::make<V>(-2, 1);
    boids::confine(w, p, v);
    CHECK(test::near(p, test::make<V>(0, 20), 0));
    CHECK(test::near(v, test::make<V>(2, 1), 0));  // reflected
    CHECK(std::string(boids::world_for<V>::box(boids::edges::wrap, {S(0), S(1)}).validate().field) == "world.size");
}

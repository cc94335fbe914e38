// Tests of boids/random.hpp: the stream, its uniform draws in the bounds' type, normals.
#include "test_support.hpp"
#include <boids/random.hpp>
#include <type_traits>

TEST_CASE("uniform draws lie between the bounds and come back in the bounds' type", "[random]") {
    boids::random_stream a(7), b(7);
    static_assert(std::is_same_v<decltype(a.uniform(0.f, 1.f)), float>, "float bounds: a float");
    static_assert(std::is_same_v<decltype(a.uniform(0, 1)), double>, "int bounds: a double");
    static_assert(std::is_same_v<decltype(a.uniform(0.f, 1.0)), double>, "mixed bounds: a double");
    static_assert(std::is_same_v<decltype(a.uniform()), double>, "no bounds: a double in [0, 1)");
    for (int i = 0; i < 1000; ++i) {
        const float f = a.uniform(-3.f, 5.f);
        const double d = b.uniform(-3.0, 5.0);
        CHECK(f >= -3.f);
        CHECK(f <= 5.f);
        CHECK(d >= -3.0);
        CHECK(d < 5.0);
        CHECK(f == static_cast<float>(d));  // the same draw, in float
    }
    // A brace-initialised float vector takes two float draws without narrowing.
    struct v2 {
        float x, y;
    };
    boids::random_stream c(1);
    const v2 p{c.uniform(0.f, 800.f), c.uniform(0.f, 450.f)};
    CHECK(p.x >= 0.f);
    CHECK(p.y < 450.f);
    boids::random_stream d(3), e(3);
    CHECK(d.uniform() == e.uniform(0.0, 1.0));
}

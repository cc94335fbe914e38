// Tests of boids/random.hpp: the stream, its uniform draws in the bounds' type, normals,
// exact unit directions.
#include "test_support.hpp"
#include <boids/random.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include "plain_vectors.hpp"

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

TEST_CASE("exact_unit_direction: unit length, uniform over the circle and the sphere, a pure function of its bits",
          "[random]") {
    constexpr int draws = 80000;
    // 2D: eight sectors of the circle, each an eighth of the draws within 4%.
    int sectors[8] = {};
    double off_unit = 0;  // the largest |length - 1|
    for (int i = 0; i < draws; ++i) {
        const auto u = boids::exact_unit_direction<test::dvec2>(static_cast<std::uint64_t>(i));
        off_unit = std::max(off_unit, std::fabs(boids::length(u) - 1.0));
        const double a = std::atan2(u.y, u.x) + boids::pi<double>;  // [0, 2 pi]
        ++sectors[std::min(7, static_cast<int>(a / (boids::pi<double> / 4)))];
    }
    for (int s : sectors) CHECK(std::abs(s - draws / 8) <= draws / 8 / 25);
    // 3D: the octants alike, and z uniform in [-1, 1] (a mean of z^2 of 1/3), as on a sphere.
    int octants[8] = {};
    double z2 = 0;
    for (int i = 0; i < draws; ++i) {
        const auto u = boids::exact_unit_direction<test::dvec3>(static_cast<std::uint64_t>(i) * 977);
        off_unit = std::max(off_unit, std::fabs(boids::length(u) - 1.0));
        ++octants[(u.x < 0 ? 1 : 0) + (u.y < 0 ? 2 : 0) + (u.z < 0 ? 4 : 0)];
        z2 += u.z * u.z;
    }
    for (int o : octants) CHECK(std::abs(o - draws / 8) <= draws / 8 / 25);
    CHECK(z2 / draws == Approx(1.0 / 3.0).epsilon(0.01));
    CHECK(off_unit <= 4e-16);
    // The same bits give the same direction, in float the double's rounded; others another.
    const auto a = boids::exact_unit_direction<test::dvec3>(42), b = boids::exact_unit_direction<test::dvec3>(42);
    CHECK((a.x == b.x && a.y == b.y && a.z == b.z));
    const auto f = boids::exact_unit_direction<test::fvec3>(42);
    CHECK((f.x == static_cast<float>(a.x) && f.y == static_cast<float>(a.y) && f.z == static_cast<float>(a.z)));
    const auto c = boids::exact_unit_direction<test::dvec3>(43);
    CHECK_FALSE((a.x == c.x && a.y == c.y && a.z == c.z));
}

// Tests of boids/gauges.hpp.
#include "test_support.hpp"
#include <vector>
#include <boids/gauges.hpp>
#include <boids/neighbors/uniform_grid.hpp>

TEMPLATE_TEST_CASE("gauges on hand-checked flocks", "[gauges]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    std::vector<V> p{test::make<V>(0, 0), test::make<V>(3, 0), test::make<V>(3, 4)};
    // Nearest distances 3, 3, 4.
    CHECK(static_cast<double>(boids::mean_nearest_distance(boids::span<const V>(p))) == Approx(10.0 / 3).epsilon(1e-6));
    boids::uniform_grid<V> grid(boids::world_for<V>{}, S(2));
    CHECK(static_cast<double>(boids::mean_nearest_distance(boids::span<const V>(p), grid)) ==
          Approx(10.0 / 3).epsilon(1e-6));
    // On a 10-wide torus, 0 and 9 are 1 apart.
    std::vector<V> q{test::make<V>(0, 0), test::make<V>(9, 0)};
    auto torus = boids::world_for<V>::unbounded();
    torus.kind = boids::edges::toroidal;
    torus.size.fill(S(10));
    CHECK(static_cast<double>(boids::mean_nearest_distance(boids::span<const V>(q), torus)) ==
          Approx(1.0).epsilon(1e-6));
    // Order and polarization.
    std::vector<V> v{test::make<V>(2, 0), test::make<V>(0, 2)};
    CHECK(static_cast<double>(boids::heading_order(boids::span<const V>(v))) ==
          Approx(std::sqrt(2.0) / 2).epsilon(1e-6));
    std::vector<V> w{test::make<V>(1, 0), test::make<V>(5, 0), boids::zero<V>()};
    CHECK(static_cast<double>(boids::polarization(boids::span<const V>(w))) == Approx(1.0).epsilon(1e-6));
    CHECK(static_cast<double>(boids::heading_order(boids::span<const V>(w))) == Approx(1.0).epsilon(1e-6));
    // Degenerate: empty, one boid, all at rest.
    CHECK(boids::mean_nearest_distance(boids::span<const V>()) == S(0));
    CHECK(boids::mean_nearest_distance(boids::span<const V>(p.data(), 1)) == S(0));
    std::vector<V> rest(3, boids::zero<V>());
    CHECK(boids::heading_order(boids::span<const V>(rest)) == S(0));
    CHECK(boids::polarization(boids::span<const V>(rest)) == S(0));
}

TEST_CASE("a gauge takes the vector type named first, or none, with a vector of velocities", "[gauges]") {
    using V = plain_vec2;
    const std::vector<V> v{test::make<V>(1, 0), test::make<V>(1, 0), test::make<V>(-1, 0), test::make<V>(0, 0)};
    // |sum| / sum of speeds = 1 / 3, the same whichever way the call is spelled.
    CHECK(boids::heading_order<V>(v) == Approx(1.0 / 3));
    CHECK(boids::heading_order(v) == Approx(1.0 / 3));
    CHECK(boids::heading_order<std::vector<V>>(v) == Approx(1.0 / 3));
    CHECK(boids::polarization<V>(v) == Approx(1.0 / 3));
    const std::vector<V> p{test::make<V>(0, 0), test::make<V>(3, 0), test::make<V>(3, 4)};
    CHECK(boids::mean_nearest_distance<V>(p) == Approx(10.0 / 3));
}

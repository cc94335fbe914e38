// Tests of boids/neighbors/auto_finder.hpp: picks by size, answers like all_pairs.
#include "neighbor_check.hpp"
#include <boids/neighbors/auto_finder.hpp>

TEMPLATE_TEST_CASE("auto_finder switches at the crossover and agrees with all_pairs", "[auto_finder]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto world = test::box<V>(boids::edges::toroidal, 100, 70);
    test::check_against_all_pairs<V, boids::auto_finder<V>>(
        world, [&](S radius) { return boids::auto_finder<V>(world, radius, 40); }, 5);
    std::vector<V> p, v;
    test::random_flock(1, 39, world, p, v);
    boids::auto_finder<V> f(world, S(5), 40);
    f.build(boids::span<const V>(p));
    CHECK_FALSE(f.using_grid());
    test::random_flock(1, 40, world, p, v);
    f.build(boids::span<const V>(p));
    CHECK(f.using_grid());
}

// Tests of boids/neighbors/hashed_grid.hpp: unbounded space, memory that follows N.
#include "neighbor_check.hpp"
#include <boids/neighbors/hashed_grid.hpp>

TEMPLATE_TEST_CASE("hashed_grid agrees with all_pairs on random flocks", "[hashed_grid][property]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto kind = GENERATE(boids::edges::open, boids::edges::bounded, boids::edges::wrap);
    const auto seed = GENERATE(range<std::uint64_t>(1, 3));
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 100, 70, 40);
    test::check_against_all_pairs<V, boids::hashed_grid<V>>(
        world, [&](S radius) { return boids::hashed_grid<V>(world, radius); }, seed);
}

TEMPLATE_TEST_CASE("hashed_grid: a flock far from the origin and spread wide", "[hashed_grid]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    std::vector<V> pos{test::make<V>(1e6, -1e6), test::make<V>(1e6 + 1, -1e6), test::make<V>(-5e5, 3e5),
                       test::make<V>(0, 0)};
    boids::hashed_grid<V> g(boids::world_for<V>{}, S(2));
    g.build(boids::span<const V>(pos));
    CHECK(g.bucket_count() == 16);  // memory follows N, not the ground covered
    boids::all_pairs<V> ref{};
    ref.build(boids::span<const V>(pos));
    for (std::size_t i = 0; i < pos.size(); ++i) {
        CHECK(test::metric_set<V>(g, i, S(2), {}) == test::metric_set<V>(ref, i, S(2), {}));
        CHECK(test::knn_list<V>(g, i, 3, std::numeric_limits<S>::infinity()) ==
              test::knn_list<V>(ref, i, 3, std::numeric_limits<S>::infinity()));
    }
}

// Tests of boids/neighbors/hashed_grid.hpp: unbounded space, memory that follows N.
#include "neighbor_check.hpp"
#include <boids/neighbors/hashed_grid.hpp>
#include <boids/neighbors/uniform_grid.hpp>

TEMPLATE_TEST_CASE("hashed_grid agrees with all_pairs on random flocks", "[hashed_grid][property]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto kind = GENERATE(boids::edges::open, boids::edges::bounded, boids::edges::wrap, boids::edges::toroidal);
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

TEMPLATE_TEST_CASE("hashed_grid over a torus finds every pair uniform_grid finds", "[hashed_grid][toroidal]",
                   BOIDS_ALL_VEC_TYPES) {
    // A 10-cell torus at cell size 1: pairs across the seam are in cells at opposite
    // ends of the box, which a hashed grid reaches only by wrapping cell coordinates.
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto world = test::box<V>(boids::edges::toroidal, 10, 10, 10);
    std::vector<V> pos, vel;
    test::random_flock<V>(11, boids::dimension_v<V> == 2 ? 600 : 1500, world, pos, vel);
    boids::uniform_grid<V> dense(world, S(1));
    boids::hashed_grid<V> hashed(world, S(1));
    dense.build(boids::span<const V>(pos));
    hashed.build(boids::span<const V>(pos));
    std::size_t pairs = 0, across_seam = 0;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const auto expected = test::metric_set<V>(dense, i, S(1), {});
        REQUIRE(test::metric_set<V>(hashed, i, S(1), {}) == expected);
        REQUIRE(test::knn_list<V>(hashed, i, 7, S(1.5)) == test::knn_list<V>(dense, i, 7, S(1.5)));
        pairs += expected.size();
        for (const auto& r : expected) {
            const V& a = pos[i];
            const V& b = pos[std::get<0>(r)];
            for (std::size_t d = 0; d < boids::dimension_v<V>; ++d)
                if (std::fabs(boids::get(a, d) - boids::get(b, d)) > S(5)) {
                    ++across_seam;
                    break;
                }
        }
    }
    CHECK(pairs > 1000);
    CHECK(across_seam > 50);  // the pairs the unwrapped cells lost
}

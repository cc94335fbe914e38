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

TEMPLATE_TEST_CASE("hashed_grid over a torus much larger than its flock keeps the cell size asked",
                   "[hashed_grid][toroidal][property]", BOIDS_ALL_VEC_TYPES) {
    // Its cells live only in buckets, so a large torus costs no memory: the cells tile
    // it at the radius (within rounding), not widened to a few per boid (which made
    // every boid of a compact flock read most of the others), and a flock across the
    // seams keeps all_pairs' neighbours.
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t dim = boids::dimension_v<V>;
    const S radius = S(3);
    const double patch = dim == 2 ? 40.0 : 15.0;  // the flock's side: a few neighbours each
    const auto world = test::box<V>(boids::edges::toroidal, 3000, 2100, 1200);
    for (double start : {0.3, 0.997}) {  // in box sizes: the second one across the seams
        boids::random_stream rng(static_cast<std::uint64_t>(start * 100) + 5);
        std::vector<V> pos(400), vel(400);
        for (std::size_t i = 0; i < pos.size(); ++i) {
            pos[i] = boids::generate<V>([&](std::size_t d) {
                const double x = start * static_cast<double>(world.size[d]) + patch * rng.uniform(0, 1);
                return boids::world_for<V>::wrap_scalar(static_cast<S>(x), world.size[d]);
            });
            vel[i] = boids::unit_direction<V>(rng.next());
        }
        boids::all_pairs<V> ref(world);
        ref.build(boids::span<const V>(pos));
        boids::hashed_grid<V> g(world, radius);
        g.build(boids::span<const V>(pos));
        CAPTURE(start);
        CHECK(g.bucket_count() < 2048);  // memory follows the flock
        for (std::size_t d = 0; d < dim; ++d)
            CHECK(static_cast<double>(g.cells_per_axis()[d]) >=
                  std::floor(static_cast<double>(world.size[d]) / 3.0 * 0.98));
        std::size_t across_seam = 0;
        for (std::size_t i = 0; i < pos.size(); i += 5) {
            const auto cone = boids::vision_cone<S, dim>::from(vel[i], S(270));
            const boids::vision_cone<S, dim> all{};
            const auto expected = test::metric_set<V>(ref, i, radius, all);
            REQUIRE(test::metric_set<V>(g, i, radius, all) == expected);
            REQUIRE(test::metric_set<V>(g, i, radius, cone) == test::metric_set<V>(ref, i, radius, cone));
            for (std::size_t k : {std::size_t(1), std::size_t(7), std::size_t(500)})
                REQUIRE(test::knn_list<V>(g, i, k, std::numeric_limits<S>::infinity()) ==
                        test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
            for (const auto& r : expected)
                if (std::fabs(boids::get(pos[i], 0) - boids::get(pos[std::get<0>(r)], 0)) > S(100)) ++across_seam;
        }
        if (start > 0.9) CHECK(across_seam > 10);
    }
}

// Tests of boids/neighbors/uniform_grid.hpp: the same neighbours as all_pairs, for
// every kind of world, in 2D and 3D, metric (with and without the cone) and topological.
#include "neighbor_check.hpp"
#include <boids/neighbors/uniform_grid.hpp>

TEMPLATE_TEST_CASE("uniform_grid agrees with all_pairs on random flocks", "[uniform_grid][property]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto kind = GENERATE(boids::edges::bounded, boids::edges::wrap, boids::edges::toroidal, boids::edges::open);
    const auto seed = GENERATE(range<std::uint64_t>(1, 4));
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 100, 70, 40);
    CAPTURE(static_cast<int>(kind));
    test::check_against_all_pairs<V, boids::uniform_grid<V>>(
        world, [&](S radius) { return boids::uniform_grid<V>(world, radius); }, seed);
}

TEMPLATE_TEST_CASE("uniform_grid in a world only a cell or two wide", "[uniform_grid][property]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    // Radius 9 in a 10 x 25 torus: one cell across, two down; no boid may be seen twice.
    const auto world = test::box<V>(boids::edges::toroidal, 10, 25);
    test::check_against_all_pairs<V, boids::uniform_grid<V>>(
        world, [&](S) { return boids::uniform_grid<V>(world, S(9)); }, 11);
}

TEST_CASE("uniform_grid lays out whole cells a little larger than asked", "[uniform_grid]") {
    std::vector<plain_vec2> none;
    boids::uniform_grid<plain_vec2> g(boids::world<float, 2>::box(boids::edges::wrap, {900.f, 540.f}), 60.f);
    g.build(boids::span<const plain_vec2>(none));
    // Cells at least 60 px plus a 1/64 margin for rounding: 900 / 60.9375 -> 14, 540 -> 8.
    CHECK(g.cells_per_axis()[0] == 14);
    CHECK(g.cells_per_axis()[1] == 8);
    CHECK(g.bucket_count() == 112);
}

TEMPLATE_TEST_CASE("uniform_grid k nearest in dense clouds and uneven flocks equal all_pairs", "[uniform_grid][property]",
                   BOIDS_ALL_VEC_TYPES) {
    // The by-distance query guesses a radius from the local density and widens it when
    // too few fall inside: a Gaussian cloud (dense core, sparse edge), a torus, and
    // cells far smaller and far larger than the neighbours' distances.
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const auto kind = GENERATE(boids::edges::open, boids::edges::toroidal);
    const double cell = GENERATE(0.3, 1.0, 4.0);
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 30, 30, 30);
    boids::random_stream rng(77);
    std::vector<V> pos(1500);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        if (kind == boids::edges::open) {
            pos[i] = boids::generate<V>([&](std::size_t) { return S(4.0 * rng.normal()); });
        } else {
            pos[i] = boids::generate<V>([&](std::size_t) { return S(rng.uniform(0, 30)); });
        }
        if (i % 97 == 5) pos[i] = pos[i - 1];  // a few on the same spot
    }
    boids::all_pairs<V> ref(world);
    ref.build(boids::span<const V>(pos));
    boids::uniform_grid<V> grid(world, S(cell));
    grid.build(boids::span<const V>(pos));
    CAPTURE(static_cast<int>(kind), cell, D);
    for (std::size_t i = 0; i < pos.size(); i += 7) {
        CAPTURE(i);
        for (std::size_t k : {std::size_t(7), std::size_t(24), std::size_t(64), std::size_t(80)}) {
            REQUIRE(test::knn_list<V>(grid, i, k, std::numeric_limits<S>::infinity()) ==
                    test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
            REQUIRE(test::knn_list<V>(grid, i, k, S(1.5)) == test::knn_list<V>(ref, i, k, S(1.5)));
        }
    }
}

TEMPLATE_TEST_CASE("uniform_grid k nearest when boids stray outside a box world", "[uniform_grid][property]",
                   BOIDS_VEC2_TYPES) {
    // Boids beyond the box sit in its edge cells (found by fuzzing: a boid above the
    // box, with twins on the same spot, was not given its twins).
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto kind = GENERATE(boids::edges::bounded, boids::edges::wrap);
    const auto world = test::box<V>(kind, 100, 70);
    boids::random_stream rng(5);
    std::vector<V> pos;
    for (int i = 0; i < 400; ++i) {
        const double x = rng.uniform(-30, 130), y = rng.uniform(-30, 100);
        pos.push_back(boids::generate<V>([&](std::size_t d) { return S(d == 0 ? x : y); }));
        if (i % 9 == 0) pos.push_back(pos.back());
    }
    boids::all_pairs<V> ref(world);
    ref.build(boids::span<const V>(pos));
    boids::uniform_grid<V> grid(world, S(1));
    grid.build(boids::span<const V>(pos));
    for (std::size_t i = 0; i < pos.size(); ++i) {
        CAPTURE(static_cast<int>(kind), i);
        for (std::size_t k : {std::size_t(1), std::size_t(2), std::size_t(7)}) {
            REQUIRE(test::knn_list<V>(grid, i, k, std::numeric_limits<S>::infinity()) ==
                    test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
            REQUIRE(test::knn_list<V>(grid, i, k, S(1)) == test::knn_list<V>(ref, i, k, S(1)));
        }
    }
}

// Tests of boids/neighbors/all_pairs.hpp (the reference the grids are held to).
#include "neighbor_check.hpp"

TEMPLATE_TEST_CASE("all_pairs: metric finds exactly the boids within the radius and the cone", "[all_pairs]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    std::vector<V> pos{test::make<V>(0, 0), test::make<V>(1, 0), test::make<V>(-1, 0), test::make<V>(0, 3),
                       test::make<V>(0, 0)};
    boids::all_pairs<V> f(boids::world_for<V>{});
    f.build(boids::span<const V>(pos));
    auto all = test::metric_set<V>(f, 0, S(2), {});
    REQUIRE(all.size() == 3);  // 1, 2 and the coincident 4; not 3 (too far), not itself
    CHECK(std::get<0>(all[0]) == 1);
    CHECK(std::get<0>(all[1]) == 2);
    CHECK(std::get<0>(all[2]) == 4);
    // Heading +x with a 90 degree cone: sees ahead (1) and the coincident boid, not behind (2).
    const auto cone = boids::vision_cone<S, boids::dimension_v<V>>::from(test::make<V>(5, 0), S(90));
    auto ahead = test::metric_set<V>(f, 0, S(2), cone);
    REQUIRE(ahead.size() == 2);
    CHECK(std::get<0>(ahead[0]) == 1);
    CHECK(std::get<0>(ahead[1]) == 4);
    // A zero velocity sees all around; so does a 360 degree cone.
    CHECK(test::metric_set<V>(f, 0, S(2), boids::vision_cone<S, boids::dimension_v<V>>::from(boids::zero<V>(), S(90)))
              .size() == 3);
    CHECK(
        test::metric_set<V>(f, 0, S(2), boids::vision_cone<S, boids::dimension_v<V>>::from(test::make<V>(1, 0), S(360)))
            .size() == 3);
    // A cone of 0 degrees sees only what is dead ahead (and on the same spot).
    CHECK(test::metric_set<V>(f, 0, S(2), boids::vision_cone<S, boids::dimension_v<V>>::from(test::make<V>(1, 0), S(0)))
              .size() == 2);
    // Radius 0: only the coincident boid.
    CHECK(test::metric_set<V>(f, 0, S(0), {}).size() == 1);
}

TEMPLATE_TEST_CASE("all_pairs: topological returns exactly the k nearest, ties by index", "[all_pairs]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        std::vector<V> pos, vel;
        const auto world = test::box<V>(boids::edges::toroidal, 50, 50, 50);
        test::random_flock(seed, 60, world, pos, vel);
        boids::all_pairs<V> f(world);
        f.build(boids::span<const V>(pos));
        for (std::size_t i = 0; i < pos.size(); i += 7) {
            // Brute force: every other boid, sorted by (distance, index).
            std::vector<std::pair<S, std::size_t>> all;
            for (std::size_t j = 0; j < pos.size(); ++j)
                if (j != i) all.emplace_back(boids::length_squared(boids::offset(world, pos[i], pos[j])), j);
            std::sort(all.begin(), all.end());
            for (std::size_t k : {std::size_t(1), std::size_t(7), std::size_t(100)}) {
                const auto got = test::knn_list<V>(f, i, k, std::numeric_limits<S>::infinity());
                REQUIRE(got.size() == std::min(k, all.size()));
                for (std::size_t m = 0; m < got.size(); ++m) CHECK(std::get<0>(got[m]) == all[m].second);
            }
        }
    }
}

TEST_CASE("k_nearest keeps the k smallest with ties broken by index", "[all_pairs][sink]") {
    std::vector<boids::neighbor<double, 2>> storage(3);
    boids::k_nearest<double, 2> knn(boids::span<boids::neighbor<double, 2>>(storage), 3);
    for (std::size_t j : {9u, 4u, 7u, 1u, 8u}) knn({j, j == 1 ? 5.0 : 2.0, {}});
    REQUIRE(knn.size() == 3);
    CHECK(knn[0].index == 4);
    CHECK(knn[1].index == 7);
    CHECK(knn[2].index == 8);
    CHECK(knn.worst_distance_squared() == 2.0);
    // A finder that ranks its own candidates writes them in place, in order; the sink
    // then reads as if they had been offered one by one.
    knn.clear();
    for (std::size_t j : {3u, 5u}) {
        auto& nb = knn.append_ranked();
        nb.index = j;
        nb.distance_squared = double(j);
        nb.offset = {double(j), 0.0};
    }
    REQUIRE(knn.size() == 2);
    CHECK(knn[1].index == 5);
    CHECK(knn.worst_distance_squared() == std::numeric_limits<double>::infinity());  // not full yet
    knn({4u, 4.0, {}});
    REQUIRE(knn.size() == 3);
    CHECK(knn[1].index == 4);
    CHECK(knn[2].offset[0] == 5.0);
    CHECK(knn.worst_distance_squared() == 5.0);
    boids::buffer_sink<double, 2> buf{boids::span<boids::neighbor<double, 2>>(storage)};
    for (std::size_t j = 0; j < 5; ++j) buf({j, 1.0, {}});
    CHECK(buf.size == 3);
    CHECK(buf.dropped == 2);
}

TEMPLATE_TEST_CASE("all_pairs counts the candidates its k-nearest queries look at", "[all_pairs][sink]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    std::vector<V> pos;
    for (int i = 0; i < 50; ++i) pos.push_back(test::make<V>(i % 7, i / 7));
    boids::all_pairs<V> finder(boids::world_for<V>{});
    finder.build(boids::span<const V>(pos));
    std::vector<boids::neighbor<S, 2>> storage(3);
    boids::k_nearest<S, 2> knn(boids::span<boids::neighbor<S, 2>>(storage), 3);
    CHECK(knn.candidates() == 0);
    for (std::size_t i = 0; i < 5; ++i) finder.nearest(i, knn);
    CHECK(knn.candidates() == 5 * pos.size());  // every boid, its own among them, per query
    knn.clear();                                // the result, not the count
    CHECK(knn.candidates() == 5 * pos.size());
    knn.reset_candidates();
    CHECK(knn.candidates() == 0);
    finder.for_each_within(0, S(2), knn);  // a metric query into a k_nearest counts nothing
    CHECK(knn.size() == 3);
    CHECK(knn.candidates() == 0);
}

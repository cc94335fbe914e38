// Tests of boids/strided.hpp: the flock step, the finders and the gauges over
// members of the user's own structs.
#include "test_support.hpp"
#include <cstring>
#include <string>
#include <vector>
#include <boids/boids.hpp>
#include "plain_vectors.hpp"

namespace {
struct entity {
    int id;
    float hp;
    test::dvec2 pos;
    char tag[5];
    test::dvec2 vel;
    double mass;
};
}  // namespace

TEST_CASE("strided_span: a member of every struct", "[strided]") {
    std::vector<entity> e(3);
    for (int i = 0; i < 3; ++i) e[static_cast<std::size_t>(i)].pos = {double(i), 10.0 * i};
    const auto pos = boids::members(e, &entity::pos);
    REQUIRE(pos.size() == 3);
    CHECK(pos.stride() == sizeof(entity));
    CHECK((pos[2].x == 2 && pos[2].y == 20));
    pos[1].x = 7;
    CHECK(e[1].pos.x == 7);
    const std::vector<entity>& ce = e;
    const boids::strided_span<const test::dvec2> read = boids::members(ce, &entity::pos);
    CHECK(read[1].x == 7);
    std::vector<entity> none;
    CHECK(boids::members(none, &entity::vel).empty());
    std::vector<test::dvec2> flat{{1, 2}, {3, 4}};
    const boids::strided_span<test::dvec2> as_strided{boids::span<test::dvec2>(flat)};
    CHECK((as_strided[1].y == 4 && as_strided.stride() == sizeof(test::dvec2)));
}

TEST_CASE("the step over members of structs equals the step over arrays, bit for bit, and touches nothing else",
          "[strided][flock]") {
    using V = test::dvec2;
    auto cfg = boids::lesson::config<V>();
    SECTION("metric, the fused kernel") {}
    SECTION("topological") {
        cfg.neighbors = boids::neighborhood_kind::topological;
        cfg.k = 7;
    }
    std::vector<V> p, v;
    boids::lesson::scatter(9, cfg, p, v, 500);
    std::vector<entity> e(p.size());
    for (std::size_t i = 0; i < e.size(); ++i)
        e[i] = entity{static_cast<int>(i), 0.5f, p[i], "abcd", v[i], 1.25 * double(i)};
    boids::uniform_grid<V> g1(cfg.world, cfg.view_radius), g2(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> w1, w2;
    boids::thread_count two{2};
    for (int s = 0; s < 40; ++s) {
        boids::flock_step(p, v, cfg, g1, w1, 1.0 / 60);
        boids::flock_step(boids::members(e, &entity::pos), boids::members(e, &entity::vel), cfg, g2, w2, 1.0 / 60, two);
    }
    bool same = true, untouched = true;
    for (std::size_t i = 0; i < e.size(); ++i) {
        same = same && std::memcmp(&p[i], &e[i].pos, sizeof(V)) == 0 && std::memcmp(&v[i], &e[i].vel, sizeof(V)) == 0;
        untouched = untouched && e[i].id == static_cast<int>(i) && e[i].hp == 0.5f && std::string(e[i].tag) == "abcd" &&
                    e[i].mass == 1.25 * double(i);
    }
    CHECK(same);
    CHECK(untouched);
    // The gauges and the finders read the members too.
    const auto pos = boids::members(e, &entity::pos);
    CHECK(boids::mean_nearest_distance(pos, cfg.world) == boids::mean_nearest_distance(p, cfg.world));
    CHECK(boids::heading_order(boids::members(e, &entity::vel)) == boids::heading_order(v));
    CHECK(boids::polarization(boids::members(e, &entity::vel)) == boids::polarization(boids::span<const V>(v)));
    boids::hashed_grid<V> h(cfg.world, cfg.view_radius);
    CHECK(boids::mean_nearest_distance(pos, h) == boids::mean_nearest_distance(p, cfg.world));
    boids::all_pairs<V> ref(cfg.world);
    ref.build(boids::strided_span<const V>(pos));
    std::size_t found = 0;
    ref.for_each_within(3, cfg.view_radius, [&](const auto&) { ++found; });
    std::size_t expected = 0;
    g1.build(boids::span<const V>(p));
    g1.for_each_within(3, cfg.view_radius, [&](const auto&) { ++expected; });
    CHECK(found == expected);
}

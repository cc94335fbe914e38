// Tests of boids/neighbors/cell_order.hpp: apply_order puts the caller's arrays in a
// grid's cell order, alike for every array, reusing its scratch; a flock so reordered
// steps as the original does, boid for boid.
#include "test_support.hpp"
#include <cstring>
#include <vector>
#include <boids/flock/step.hpp>
#include <boids/models/lesson.hpp>
#include <boids/neighbors/cell_order.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "plain_vectors.hpp"

namespace {
template <class V>
bool same_bits(const V& a, const V& b) {
    return std::memcmp(&a, &b, sizeof(V)) == 0;
}
template <class V>
boids::flock_config<V> torus_scene(double side) {
    using S = boids::scalar_t<V>;
    boids::flock_config<V> c;
    c.world.kind = boids::edges::toroidal;
    c.world.size.fill(S(side));
    c.limits = {S(1.0), S(2.0), S(0.5), S(0.3)};
    c.view_radius = S(2.2);
    c.separate = {S(1.1), boids::separation_falloff::inverse_square, S(0.05)};
    c.align = {boids::social_form::linear, S(1.0)};
    c.cohere = {boids::social_form::linear, S(0.2)};
    return c;
}
}  // namespace

TEST_CASE("apply_order puts every array in the grid's order and reuses its scratch", "[cell_order]") {
    using V = plain_vec2;
    const auto cfg = torus_scene<V>(40);
    std::vector<V> pos, vel;
    boids::lesson::scatter(4, cfg, pos, vel, 1500);
    std::vector<std::size_t> id(pos.size());
    for (std::size_t i = 0; i < id.size(); ++i) id[i] = i;
    const auto pos0 = pos;
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    grid.build(boids::span<const V>(pos));
    const std::vector<std::size_t> order(grid.order().begin(), grid.order().end());
    std::vector<V> scratch;
    std::vector<std::size_t> id_scratch;
    REQUIRE(boids::apply_order(grid.order(), pos, scratch));
    REQUIRE(boids::apply_order(grid.order(), id, id_scratch));
    bool moved_alike = true;
    for (std::size_t s = 0; s < pos.size(); ++s)
        moved_alike = moved_alike && id[s] == order[s] && same_bits(pos[s], pos0[order[s]]);
    REQUIRE(moved_alike);
    // In cell order now: a build on them keeps every boid where it is.
    grid.build(boids::span<const V>(pos));
    bool identity = true;
    for (std::size_t s = 0; s < pos.size(); ++s) identity = identity && grid.order()[s] == s;
    CHECK(identity);
    // Again (the identity now): nothing moves, and the scratch is not reallocated.
    const V* buffer = scratch.data();
    const auto before = pos;
    boids::apply_order(grid.order(), boids::span<V>(pos), scratch);
    CHECK(scratch.data() == buffer);
    bool unchanged = true;
    for (std::size_t s = 0; s < pos.size(); ++s) unchanged = unchanged && same_bits(pos[s], before[s]);
    CHECK(unchanged);
}

TEST_CASE("apply_order refuses an order that does not fit the array, changing nothing", "[cell_order]") {
    // Assertions are off here (Release), so the refusal is what the caller sees.
    std::vector<int> data{10, 11, 12, 13};
    std::vector<int> scratch;
    const std::vector<std::size_t> shorter{1, 0, 2};
    const std::vector<std::size_t> out_of_range{3, 2, 7, 0};
    const std::vector<std::size_t> reverse{3, 2, 1, 0};
#if defined(NDEBUG)
    CHECK_FALSE(boids::apply_order(boids::span<const std::size_t>(shorter.data(), shorter.size()), data, scratch));
    CHECK(data == std::vector<int>{10, 11, 12, 13});
    CHECK_FALSE(
        boids::apply_order(boids::span<const std::size_t>(out_of_range.data(), out_of_range.size()), data, scratch));
    CHECK(data == std::vector<int>{10, 11, 12, 13});
#endif
    CHECK(boids::apply_order(boids::span<const std::size_t>(reverse.data(), reverse.size()), data, scratch));
    CHECK(data == std::vector<int>{13, 12, 11, 10});
}

TEMPLATE_TEST_CASE("a flock put in cell order steps as the original, boid for boid, bit for bit", "[cell_order][flock]",
                   plain_vec2, test::dvec3) {
    // The grid orders a cell's boids by index; reordered by that grid's order, they keep
    // the same sequence within every cell, so every sum runs in the same order.
    using V = TestType;
    auto cfg = torus_scene<V>(boids::dimension_v<V> == 2 ? 40.0 : 14.0);
    SECTION("metric: the fused kernel") {}
    SECTION("topological, k = 7") {
        cfg.neighbors = boids::neighborhood_kind::topological;
        cfg.k = 7;
    }
    SECTION("metric with a cone, by index: the general path") {
        cfg.view_angle = 270;
        cfg.order = boids::neighbor_order::by_index;  // the sums then follow the indices: only equal up to rounding
    }
    std::vector<V> p0, v0;
    boids::lesson::scatter(11, cfg, p0, v0, 2000);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    grid.build(boids::span<const V>(p0));
    const std::vector<std::size_t> order(grid.order().begin(), grid.order().end());
    auto step = [&](std::vector<V> p, std::vector<V> v) {
        boids::uniform_grid<V> g(cfg.world, cfg.view_radius);
        boids::flock_workspace<V> ws;
        boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, g, ws, boids::scalar_t<V>(0.1));
        return std::make_pair(p, v);
    };
    const auto plain = step(p0, v0);
    auto p1 = p0, v1 = v0;
    std::vector<V> scratch;
    boids::apply_order(boids::span<const std::size_t>(order.data(), order.size()), p1, scratch);
    boids::apply_order(boids::span<const std::size_t>(order.data(), order.size()), v1, scratch);
    const auto reordered = step(p1, v1);
    std::size_t differ = 0;
    double worst = 0;
    for (std::size_t s = 0; s < order.size(); ++s) {
        const V& a = reordered.first[s];
        const V& b = plain.first[order[s]];
        if (!same_bits(a, b) || !same_bits(reordered.second[s], plain.second[order[s]])) ++differ;
        worst = std::max(worst, double(boids::distance(a, b)));
    }
    if (cfg.order == boids::neighbor_order::finder) {
        CHECK(differ == 0);
    } else {
        CHECK(worst < 1e-4);
    }
}

// neighbor_check.hpp - random flocks and the comparison of two finders, shared by
// the finder tests.
#pragma once
#include "test_support.hpp"
#include <algorithm>
#include <initializer_list>
#include <limits>
#include <tuple>
#include <vector>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/random.hpp>

namespace test {

// A box world of the vector's dimension (sizes beyond it ignored).
template <class V>
boids::world_for<V> box(boids::edges kind, double x, double y, double z = 1) {
    boids::world_for<V> w;
    w.kind = kind;
    for (std::size_t d = 0; d < boids::dimension_v<V>; ++d)
        w.size[d] = static_cast<boids::scalar_t<V>>(d == 0 ? x : (d == 1 ? y : z));
    return w;
}

// A flock of n boids in `world` (or a 100-wide region when open): uniform, with
// every fifth boid dropped on top of an earlier one and a few outside the box.
template <class V>
void random_flock(std::uint64_t seed, std::size_t n, const boids::world_for<V>& world, std::vector<V>& pos,
                  std::vector<V>& vel) {
    boids::random_stream rng(seed);
    pos.resize(n);
    vel.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        pos[i] = boids::generate<V>([&](std::size_t d) {
            const double w = world.has_box() ? static_cast<double>(world.size[d]) : 100.0;
            return static_cast<boids::scalar_t<V>>(rng.uniform(0, w));
        });
        if (i > 0 && i % 5 == 0) pos[i] = pos[static_cast<std::size_t>(rng.next() % i)];
        vel[i] = (i % 7 == 3) ? boids::zero<V>() : boids::unit_direction<V>(rng.next());
    }
}

// How many cells of a dense grid's last build hold boids (its runs of slots).
template <class Grid>
std::size_t cells_held(const Grid& grid) {
    const auto runs = grid.runs();
    std::size_t held = 0;
    for (std::size_t s = 0; s < grid.size(); s = runs.cell_end_of(s)) ++held;
    return held;
}

template <class S, std::size_t D>
using record = std::tuple<std::size_t, S, std::array<S, D>>;

template <class V, class Finder>
std::vector<record<boids::scalar_t<V>, boids::dimension_v<V>>> metric_set(
    const Finder& f, std::size_t i, boids::scalar_t<V> radius,
    const boids::vision_cone<boids::scalar_t<V>, boids::dimension_v<V>>& cone) {
    std::vector<record<boids::scalar_t<V>, boids::dimension_v<V>>> out;
    f.for_each_within(i, radius, cone, [&](const auto& n) { out.emplace_back(n.index, n.distance_squared, n.offset); });
    std::sort(out.begin(), out.end());
    return out;
}

template <class V, class Finder>
std::vector<record<boids::scalar_t<V>, boids::dimension_v<V>>> knn_list(const Finder& f, std::size_t i, std::size_t k,
                                                                        boids::scalar_t<V> max_radius) {
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    std::vector<boids::neighbor<S, D>> storage(k);
    boids::k_nearest<S, D> knn(boids::span<boids::neighbor<S, D>>(storage), k);
    f.nearest(i, knn, max_radius);
    std::vector<record<S, D>> out;
    for (const auto& n : knn.result()) out.emplace_back(n.index, n.distance_squared, n.offset);
    return out;
}

// Boid i's answers from `f` as from `ref`: within `radius` (all round, and in a
// 270-degree cone about `heading`), within `wide`, and its k nearest for each k.
template <class V, class F, class R>
void require_same_answers(const F& f, const R& ref, std::size_t i, boids::scalar_t<V> radius, boids::scalar_t<V> wide,
                          const V& heading, std::initializer_list<std::size_t> ks) {
    using S = boids::scalar_t<V>;
    const auto cone = boids::vision_cone<S, boids::dimension_v<V>>::from(heading, S(270));
    const boids::vision_cone<S, boids::dimension_v<V>> all{};
    REQUIRE(metric_set<V>(f, i, radius, all) == metric_set<V>(ref, i, radius, all));
    REQUIRE(metric_set<V>(f, i, radius, cone) == metric_set<V>(ref, i, radius, cone));
    REQUIRE(metric_set<V>(f, i, wide, all) == metric_set<V>(ref, i, wide, all));
    for (std::size_t k : ks)
        REQUIRE(knn_list<V>(f, i, k, std::numeric_limits<S>::infinity()) ==
                knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
}

// Checks that `finder` agrees with all_pairs on every query of a batch of random flocks.
template <class V, class Finder, class Make>
void check_against_all_pairs(const boids::world_for<V>& world, Make&& make_finder, std::uint64_t seed) {
    using S = boids::scalar_t<V>;
    for (std::size_t n :
         {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(40), std::size_t(250)}) {
        std::vector<V> pos, vel;
        random_flock(seed * 1000 + n, n, world, pos, vel);
        const S radius = S(world.has_box() ? world.size[0] * S(0.09) : S(9));
        boids::all_pairs<V> ref(world);
        ref.build(boids::span<const V>(pos));
        Finder f = make_finder(radius);
        f.build(boids::span<const V>(pos));
        for (std::size_t i = 0; i < n; ++i) {
            CAPTURE(n, i, seed);
            const auto cone = boids::vision_cone<S, boids::dimension_v<V>>::from(vel[i], S(270));
            const boids::vision_cone<S, boids::dimension_v<V>> all{};
            REQUIRE(metric_set<V>(f, i, radius, all) == metric_set<V>(ref, i, radius, all));
            REQUIRE(metric_set<V>(f, i, radius, cone) == metric_set<V>(ref, i, radius, cone));
            REQUIRE(metric_set<V>(f, i, radius * S(2.5), all) == metric_set<V>(ref, i, radius * S(2.5), all));
            for (std::size_t k : {std::size_t(1), std::size_t(7), n + 3}) {
                REQUIRE(knn_list<V>(f, i, k, std::numeric_limits<S>::infinity()) ==
                        knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
                REQUIRE(knn_list<V>(f, i, k, radius) == knn_list<V>(ref, i, k, radius));
            }
        }
    }
}

}  // namespace test

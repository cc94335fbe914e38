// fuzz_neighbors: arbitrary points (coincident, huge, NaN), radii, k and worlds.
// Properties: no crash or out-of-bounds access (run under ASan); uniform and hashed
// grids report exactly the all-pairs neighbours, metric (with and without a cone)
// and topological (per boid, and as uniform_grid's batch over all slots); every
// reported offset and distance is finite.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/hashed_grid.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "fuzz_input.hpp"
#include "lab_vector.hpp"

namespace {
using V = lab::vec2;
using rec = std::tuple<std::size_t, double, double, double>;

template <class F>
std::vector<rec> metric(const F& f, std::size_t i, double r, const boids::vision_cone<double, 2>& cone) {
    std::vector<rec> out;
    f.for_each_within(i, r, cone, [&](const boids::neighbor<double, 2>& n) {
        FUZZ_CHECK(std::isfinite(n.distance_squared) && n.distance_squared <= r * r);
        out.emplace_back(n.index, n.distance_squared, n.offset[0], n.offset[1]);
    });
    std::sort(out.begin(), out.end());
    return out;
}
template <class F>
std::vector<rec> nearest(const F& f, std::size_t i, std::size_t k, double max_r) {
    std::vector<boids::neighbor<double, 2>> buf(k);
    boids::k_nearest<double, 2> knn(boids::span<boids::neighbor<double, 2>>(buf), k);
    f.nearest(i, knn, max_r);
    std::vector<rec> out;
    for (const auto& n : knn.result()) out.emplace_back(n.index, n.distance_squared, n.offset[0], n.offset[1]);
    return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::input in(data, size);
    const auto kind = static_cast<boids::edges>(in.small(3));
    boids::world<double, 2> world{kind, {std::fabs(in.finite(1e6)) + 1, std::fabs(in.finite(1e6)) + 1}};
    if (kind == boids::edges::open) world.size = {};
    const double radius = std::fabs(in.finite(1e4));
    const double cell = std::max(radius, 1e-3);
    const std::size_t k = in.small(12);
    const double angle = in.finite(720);
    // A crowd: 600 more boids around one of them, more than a cell's sub-cells start at.
    const bool crowd = in.small(7) == 0;
    const double spread = in.finite(1e3) * std::pow(10.0, -static_cast<double>(in.small(12)));
    std::uint64_t state = in.small(1000) + 1;
    const bool serve = in.small(1) == 0;  // the cells a topological step picks
    std::vector<V> pos;
    std::vector<V> vel;
    while (in.left() >= 16 && pos.size() < 64) {
        const bool copy = !pos.empty() && in.small(3) == 0;
        if (copy) pos.push_back(pos[in.small(1000) % pos.size()]);
        else pos.push_back(V{in.finite(1e300), in.finite(1e300)});
        vel.push_back(V{in.finite(10), in.finite(10)});
    }
    if (in.small(7) == 0 && !pos.empty()) pos[0].x = std::numeric_limits<double>::quiet_NaN();
    const std::size_t picked = pos.size();
    if (crowd && !pos.empty()) {
        const V at = pos[in.small(1000) % pos.size()];
        auto unit = [&] {  // (-1, 1), from a fixed generator: the input picks its seed
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return static_cast<double>(state >> 11) * 0x1.0p-52 - 1.0;
        };
        for (int c = 0; c < 600; ++c) {
            pos.push_back(V{at.x + spread * unit(), at.y + spread * unit()});
            vel.push_back(V{unit(), unit()});
        }
    }
    auto checked = [&](std::size_t i) { return i < picked || (i - picked) % 37 == 0; };

    boids::all_pairs<V> ref(world);
    boids::uniform_grid<V> grid(world, cell);
    if (serve) grid.serve_queries(cell, k, 1.0, false);
    ref.build(boids::span<const V>(pos));
    grid.build(boids::span<const V>(pos));
    boids::hashed_grid<V> hashed(world, cell);
    hashed.build(boids::span<const V>(pos));
    for (std::size_t i = 0; i < pos.size(); ++i) {
        if (!checked(i)) continue;
        const auto cone = boids::vision_cone<double, 2>::from(vel[i], angle);
        const auto expected = metric(ref, i, radius, cone);
        FUZZ_CHECK(metric(grid, i, radius, cone) == expected);
        const auto knn = nearest(ref, i, k, radius);
        FUZZ_CHECK(nearest(grid, i, k, radius) == knn);
        FUZZ_CHECK(knn.size() <= k);
        FUZZ_CHECK(metric(hashed, i, radius, cone) == expected);
        FUZZ_CHECK(nearest(hashed, i, k, radius) == knn);
    }
    // The batch query: every slot's answer is the per-boid query's, so all-pairs'.
    std::vector<boids::neighbor<double, 2>> buf(k);
    boids::k_nearest<double, 2> batch(boids::span<boids::neighbor<double, 2>>(buf), k);
    std::size_t visited = 0;
    grid.nearest_in_slots(0, pos.size(), batch, radius, [&](std::size_t s, const boids::k_nearest<double, 2>& got) {
        std::vector<rec> out;
        for (const auto& n : got.result()) out.emplace_back(n.index, n.distance_squared, n.offset[0], n.offset[1]);
        FUZZ_CHECK(s == visited);
        if (checked(grid.order()[s])) FUZZ_CHECK(out == nearest(ref, grid.order()[s], k, radius));
        ++visited;
    });
    FUZZ_CHECK(visited == pos.size());
    return 0;
}

// boids/detail/flock_kernel.hpp - the metric flock step's inner loop over a dense
// grid's candidates, shaped so compilers vectorise it.
//
// The rules only need sums over the neighbourhood (count, offsets, velocities,
// separation push), so the kernel never materialises neighbour records. A cell's
// candidates are copied into one block; each boid of the cell reads it in packs of
// `lanes` with bitwise masks for the block's end, the radius and the cone. Every
// lane keeps its own partial sums, added in a fixed order at the end. No
// reassociation is needed (so no -ffast-math) and the result does not depend on
// threads. It does depend on the block's order, so it differs in the last bits
// from the index-ordered generic path.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include "pack.hpp"
#include "../flocking.hpp"
#include "../neighbors/query.hpp"
#include "../neighbors/world.hpp"

namespace boids {
namespace detail {

// The kernel's logical width: 32 bytes of lanes, whatever the pack width (see block_sums).
template <class S>
inline constexpr std::size_t block_lanes = 32 / sizeof(S);
// The most candidates a block may hold, so that counts stay exact in S.
template <class S>
inline constexpr std::size_t block_capacity_limit = 4096;

template <class S, std::size_t D>
struct neighborhood_sums {
    std::size_t count = 0;
    std::size_t coincident = 0;  // neighbours on exactly the same spot
    std::array<S, D> offset{};   // sum of offsets (cohesion)
    std::array<S, D> velocity{}; // sum of velocities (alignment)
    std::array<S, D> push{};     // separation push, coincident neighbours excluded
};

// The candidates of one cell's boids, copied once per cell from the grid's runs
// into one contiguous block (structure of arrays): every boid of the cell then
// scans the same block in a single loop, whose trip count the CPU learns after the
// cell's first boid. `shift` holds, per candidate, the torus image of its run.
template <class S, std::size_t D>
struct candidate_block {
    S* pos[D];
    S* vel[D];
    S* shift[D];
    std::size_t size = 0, capacity = 0;
    bool shifted = false;  // some candidate's shift is not zero
};

// One boid's query: its position, the cone, the radii and the world's sizes.
template <class S, std::size_t D>
struct kernel_query {
    std::array<S, D> p, heading, size, half;
    S r2, sep_r2, sep_radius, cos_half;
};

// How the kernel finds a candidate's offset.
enum class wrap_mode {
    none,       // a box or an open world, or a block that does not wrap: x_j - p
    per_shift,  // (x_j - p) + shift_j: for a candidate within the radius, the minimum image,
                // by the very operation offset_component performs
    per_lane    // the minimum image lane by lane (small tori, where one cell can be two images)
};

// Sums over a block of candidates, eight floats (four doubles) at a time: one pack
// under AVX, two under SSE2 or NEON, eight scalar steps without vector extensions.
// Every one of those eight logical lanes keeps its own partial sums, reduced by one
// fixed tree at the end, so the result is the same bits whatever the pack width
// (flags that contract a * b + c into one fused operation aside). Masks are bitwise:
// a lane that does not count adds +0, which leaves every sum bit for bit as it was
// (sums start at +0 and so are never -0). All inputs are finite here (checked when
// the block was filled; lanes past its end hold finite leftovers, masked out).
//
// The boid itself is not told apart by its slot: it is the lane at distance 0, as a
// boid on exactly the same spot would be. Lanes at distance 0 are left out of the
// sums and counted (the boid itself included); more than one sends the caller to
// the exact general path, which handles coincident boids.
template <wrap_mode Wrap, bool Cone, bool Linear, class S, std::size_t D>
void block_sums(const kernel_query<S, D>& q, const candidate_block<S, D>& block, neighborhood_sums<S, D>& out) noexcept {
    using P = pack<S>;
    using F = typename P::f;
    using M = typename P::mask;
    constexpr std::size_t logical = block_lanes<S>;
    constexpr std::size_t R = logical / P::lanes;  // packs per step
    F p[D], size[D], half[D], neg_half[D], heading[D];
    const F zero = P::splat(S(0)), one = P::splat(S(1)), minus_one = P::splat(S(-1));
    // One counter for two counts, both small integers (exact in any float):
    // + 1 per neighbour, + zero_weight per lane at distance 0.
    const S zero_weight = S(block_capacity_limit<S> + 1);
    const F at_zero_weight = P::splat(zero_weight);
    F counts[R], offset[R][D], velocity[R][D], push[R][D];
    for (std::size_t r = 0; r < R; ++r) {
        counts[r] = zero;
        for (std::size_t d = 0; d < D; ++d) offset[r][d] = velocity[r][d] = push[r][d] = zero;
    }
    for (std::size_t d = 0; d < D; ++d) {
        p[d] = P::splat(q.p[d]);
        size[d] = P::splat(q.size[d]);
        half[d] = P::splat(q.half[d]);
        neg_half[d] = P::splat(-q.half[d]);
        heading[d] = P::splat(q.heading[d]);
    }
    const F r2 = P::splat(q.r2), sep_r2 = P::splat(q.sep_r2), sep_radius = P::splat(q.sep_radius);
    const F cos2 = P::splat(q.cos_half * q.cos_half);
    const bool cos_positive = q.cos_half >= S(0);

    auto lanes = [&](std::size_t t, M valid, std::size_t r) {
        F dx[D];
        F d2{};
        for (std::size_t d = 0; d < D; ++d) {
            F x = P::load(block.pos[d] + t) - p[d];
            if constexpr (Wrap == wrap_mode::per_shift) {
                x = x + P::load(block.shift[d] + t);
            } else if constexpr (Wrap == wrap_mode::per_lane) {
                x = x - P::keep(x > half[d], size[d]);
                x = x + P::keep(x < neg_half[d], size[d]);
            }
            dx[d] = x;
            d2 = d == 0 ? x * x : d2 + x * x;  // +0 + x*x would be x*x: the same bits
        }
        M in = P::both(valid, d2 <= r2);
        if constexpr (Cone) {  // dot >= cos * |x|, in squares (see cone_sees)
            F dot = dx[0] * heading[0];
            for (std::size_t d = 1; d < D; ++d) dot = dot + dx[d] * heading[d];
            const M ahead = dot >= zero;
            const F lhs = dot * dot, rhs = cos2 * d2;
            if (cos_positive) in = P::both(in, P::both(ahead, lhs >= rhs));
            else in = P::but_not(in, P::but_not(lhs > rhs, ahead));
        }
        const M apart = d2 > zero;
        const M m = P::both(in, apart);
        const F safe = d2 + P::keep_unless(apart, one);  // d2 where apart, 1 at distance 0
        F w;
        if constexpr (Linear) {
            F dist = safe;
            for (std::size_t k = 0; k < P::lanes; ++k) P::set(dist, k, std::sqrt(P::get(safe, k)));
            w = (one - dist / sep_radius) / dist * minus_one;
        } else {
            w = minus_one / safe;
        }
        w = P::keep(P::both(m, d2 < sep_r2), w);
        counts[r] = counts[r] + P::keep(in, P::select(apart, one, at_zero_weight));
        for (std::size_t d = 0; d < D; ++d) {
            offset[r][d] = offset[r][d] + P::keep(m, dx[d]);
            velocity[r][d] = velocity[r][d] + P::keep(m, P::load(block.vel[d] + t));
            push[r][d] = push[r][d] + w * dx[d];
        }
    };
    std::size_t t = 0;
    for (; t + logical <= block.size; t += logical)
        for (std::size_t r = 0; r < R; ++r) lanes(t + r * P::lanes, P::all(), r);
    for (std::size_t r = 0; r < R && t + r * P::lanes < block.size; ++r)  // lanes past the end are read, not counted
        lanes(t + r * P::lanes, P::first(std::min(P::lanes, block.size - t - r * P::lanes)), r);

    // The tree: logical lane l = r * P::lanes + k; first l + (l + logical/2), and so on.
    auto reduce = [](F* acc, std::size_t stride) {
        for (std::size_t width = R / 2; width > 0; width /= 2)
            for (std::size_t r = 0; r < width; ++r) acc[r * stride] = acc[r * stride] + acc[(r + width) * stride];
        return P::sum(acc[0]);
    };
    const auto both = static_cast<std::size_t>(reduce(counts, 1));
    const std::size_t zeros = both / static_cast<std::size_t>(zero_weight);
    out.count = both % static_cast<std::size_t>(zero_weight);
    out.coincident = zeros > 0 ? zeros - 1 : 0;  // less the boid itself
    for (std::size_t d = 0; d < D; ++d) {
        out.offset[d] = reduce(&offset[0][d], D);
        out.velocity[d] = reduce(&velocity[0][d], D);
        out.push[d] = reduce(&push[0][d], D);
    }
}

// Fills `block` with the candidates of the boid in `slot` (and of every boid in its
// cell): the grid's runs in their order, positions from `axes` and velocities from
// `vels` (per axis, n apart, in slot order). False when they do not fit.
template <class S, std::size_t D, class Grid>
bool fill_block(const Grid& grid, const typename Grid::run_plan& plan, bool one_image, std::size_t slot,
                const S* axes, const S* vels, std::size_t n, candidate_block<S, D>& block) noexcept {
    block.size = 0;
    block.shifted = false;
    bool fits = true;
    auto add = [&](std::size_t s0, std::size_t s1, const S* shift) {
        const std::size_t m = s1 - s0;
        if (!fits || m > block.capacity - block.size) {
            fits = false;
            return;
        }
        // Whole packs: runs are short, and a call to memcpy per run and axis costs
        // more than the copy. Lanes past the run's end are read (the grid's arrays
        // are padded) and written past the block's end, then overwritten or masked.
        using P = pack<S>;
        for (std::size_t d = 0; d < D; ++d) {
            const S* from_p = axes + d * n + s0;
            const S* from_v = vels + d * n + s0;
            S* to_p = block.pos[d] + block.size;
            S* to_v = block.vel[d] + block.size;
            for (std::size_t k = 0; k < m; k += P::lanes) {
                P::store(to_p + k, P::load(from_p + k));
                P::store(to_v + k, P::load(from_v + k));
            }
            if (shift == nullptr) continue;  // no torus image: the kernel never reads shifts
            block.shifted = block.shifted || shift[d] != S(0);
            const typename P::f image = P::splat(shift[d]);
            S* to_s = block.shift[d] + block.size;
            for (std::size_t k = 0; k < m; k += P::lanes) P::store(to_s + k, image);
        }
        block.size += m;
    };
    if (one_image) grid.for_each_run_with_image(slot, plan, add);
    else grid.for_each_run(slot, plan, [&](std::size_t s0, std::size_t s1) { add(s0, s1, nullptr); });
    return fits;
}

} // namespace detail
} // namespace boids

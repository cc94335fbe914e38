// boids/flock/detail/kernel.hpp - the metric flock step's inner loop over a dense
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
#include "../../detail/block_distances.hpp"
#include "../../detail/pack.hpp"
#include "../rules.hpp"
#include "../summary.hpp"
#include "../../neighbors/query.hpp"
#include "../../neighbors/world.hpp"
#include "../../neighbors/uniform_grid.hpp"

// The kernel's loops of constant trip count carry unroll hints (BOIDS_DETAIL_UNROLL);
// clang -O1 declines them and would warn, in the functions here they inline into.
#if defined(__clang__)
#  pragma clang diagnostic push
#  pragma clang diagnostic ignored "-Wpass-failed"
#endif
namespace boids {
namespace detail {

// The kernel's logical width: 32 bytes of lanes, whatever the pack width (see block_sums).
template <class S>
inline constexpr std::size_t block_lanes = 32 / sizeof(S);
// The most candidates a block may hold, so that its counts stay exact in float.
inline constexpr std::size_t block_capacity_limit = 4096;

// Where lanes past a block's end sit, on every axis. For a boid with every |coordinate|
// below position_limit (the fused step checks), a sentinel's offset is finite and
// positive and its squared distance overflows to +inf: never within a radius, and
// its shares of the sums are +0 (w = +0 times a finite offset).
template <class S>
inline constexpr S block_sentinel = std::numeric_limits<S>::max() / 2;
template <class S>
inline constexpr S position_limit = std::numeric_limits<S>::max() / 4;

template <class S, std::size_t D>
struct neighborhood_sums {
    std::size_t count = 0;
    std::size_t coincident = 0;                              // neighbours on exactly the same spot
    std::size_t at_zero = 0;                                 // lanes at distance 0, the boid itself included
    std::array<S, D> offset{};                               // sum of offsets (cohesion)
    std::array<S, D> velocity{};                             // sum of velocities (alignment)
    std::array<S, D> push{};                                 // separation push, coincident neighbours excluded
    S nearest_squared = std::numeric_limits<S>::infinity();  // the nearest neighbour apart (infinity: none;
                                                             // found only when asked for)
};

// The summary the kernel's sums make (no coincident neighbours: those take the
// per-boid path).
template <class V>
[[nodiscard]] neighborhood_summary<V> summary_of(const neighborhood_sums<scalar_t<V>, dimension_v<V>>& sums) noexcept {
    neighborhood_summary<V> summary;
    summary.count = sums.count;
    summary.offset_sum = to_vector<V>(sums.offset);
    summary.velocity_sum = to_vector<V>(sums.velocity);
    summary.push = to_vector<V>(sums.push);
    summary.nearest_distance_squared = sums.nearest_squared;
    return summary;
}

// The candidates of one cell's boids, copied once per cell from the grid's runs
// into one contiguous block (structure of arrays): every boid of the cell then
// scans the same block in a single loop, whose trip count the CPU learns after the
// cell's first boid. `shift` holds, per candidate, the torus image of its run.
// An axis on which no run of the block is shifted reads `no_shift`, a row of zeros
// that is never written: a cell on a torus's face has runs shifted along one axis
// only, and the copy then writes one row of shifts, not D.
template <class S, std::size_t D>
struct candidate_block {
    S* pos[D];
    S* vel[D];
    const S* shift[D];  // what the kernel reads: shift_row[d] or no_shift
    S* shift_row[D];
    const S* no_shift = nullptr;
    std::size_t size = 0, capacity = 0;
    bool shifted = false;   // some candidate's shift is not zero
    bool per_lane = false;  // its candidates take the minimum image lane by lane (image_rule)
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

// Calls f with the wrap mode `block` says its candidates take, as an integral_constant:
// one instantiation per mode, so each inner loop is free of the choice.
template <class S, std::size_t D, class F>
decltype(auto) with_wrap_mode(const candidate_block<S, D>& block, F&& f) {
    if (block.per_lane) return f(std::integral_constant<wrap_mode, wrap_mode::per_lane>{});
    if (block.shifted) return f(std::integral_constant<wrap_mode, wrap_mode::per_shift>{});
    return f(std::integral_constant<wrap_mode, wrap_mode::none>{});
}

#define BOIDS_DETAIL_BLOCK_SUMS block_sums_of_width
#define BOIDS_DETAIL_SEEN_DISTANCES seen_distances_of_width
#define BOIDS_DETAIL_BLOCK_SUMS_SPEC BOIDS_DETAIL_INLINE
#define BOIDS_DETAIL_BLOCK_PACK pack
#include "block_sums.inl"
#undef BOIDS_DETAIL_BLOCK_SUMS
#undef BOIDS_DETAIL_SEEN_DISTANCES
#undef BOIDS_DETAIL_BLOCK_SUMS_SPEC
#undef BOIDS_DETAIL_BLOCK_PACK

#if BOIDS_DETAIL_AVX_DISPATCH
// The same body built for AVX: 32-byte packs and no FMA, so the same bits as the
// 16-byte packs (the test flock.same-bits-any-pack-width holds every width to this).
// Called, not inlined, from code built without AVX.
#  define BOIDS_DETAIL_BLOCK_SUMS block_sums_of_width_avx
#  define BOIDS_DETAIL_SEEN_DISTANCES seen_distances_of_width_avx
#  define BOIDS_DETAIL_BLOCK_SUMS_SPEC __attribute__((target("avx"))) inline
#  define BOIDS_DETAIL_BLOCK_PACK pack_avx
#  include "block_sums.inl"
#  undef BOIDS_DETAIL_BLOCK_SUMS
#  undef BOIDS_DETAIL_SEEN_DISTANCES
#  undef BOIDS_DETAIL_BLOCK_SUMS_SPEC
#  undef BOIDS_DETAIL_BLOCK_PACK
#endif

// The candidates a boid of `slot`'s cell sees through fill_block: how large its block is.
template <class Runs>
std::size_t block_size_of(const Runs& runs, const run_plan& plan, std::size_t slot) noexcept {
    std::size_t size = 0;
    runs.for_each_run(slot, plan, [&](std::size_t s0, std::size_t s1) { size += s1 - s0; });
    return size;
}

template <wrap_mode Wrap, bool Cone, bool Linear, bool Nearest, class S, std::size_t D>
void block_sums_in_parts(bool avx, const kernel_query<S, D>& q, const candidate_block<S, D>& block,
                         neighborhood_sums<S, D>& out) noexcept;

// The kernel over a block. One that holds more than block_capacity_limit (whose
// counts would no longer be exact in float) is summed in parts of that many.
template <wrap_mode Wrap, bool Cone, bool Linear, bool Nearest = false, class S, std::size_t D>
void block_sums(bool avx, const kernel_query<S, D>& q, const candidate_block<S, D>& block,
                neighborhood_sums<S, D>& out) noexcept {
    if (block.size > block_capacity_limit) {
        block_sums_in_parts<Wrap, Cone, Linear, Nearest>(avx, q, block, out);
        return;
    }
    BOIDS_DETAIL_PICK_BUILD(avx, (block_sums_of_width_avx<Wrap, Cone, Linear, Nearest, 32>(q, block, out)),
                            (block_sums_of_width<Wrap, Cone, Linear, Nearest, BOIDS_DETAIL_PACK_BYTES>(q, block, out)));
}

// Parts of whole packs (so no part reads lanes of the next), added part by part.
template <wrap_mode Wrap, bool Cone, bool Linear, bool Nearest, class S, std::size_t D>
BOIDS_DETAIL_OUT_OF_LINE void block_sums_in_parts(bool avx, const kernel_query<S, D>& q,
                                                  const candidate_block<S, D>& block,
                                                  neighborhood_sums<S, D>& out) noexcept {
    static_assert(block_capacity_limit % block_lanes<S> == 0, "block_sums: parts of whole packs");
    out = neighborhood_sums<S, D>{};
    candidate_block<S, D> part = block;
    for (std::size_t p0 = 0; p0 < block.size; p0 += block_capacity_limit) {
        for (std::size_t d = 0; d < D; ++d) {
            part.pos[d] = block.pos[d] + p0;
            part.vel[d] = block.vel[d] + p0;
            part.shift[d] = block.shift[d] + p0;  // the row of zeros is as long as the block
        }
        part.size = std::min(block_capacity_limit, block.size - p0);
        neighborhood_sums<S, D> sums;
        block_sums<Wrap, Cone, Linear, Nearest>(avx, q, part, sums);
        out.count += sums.count;
        out.at_zero += sums.at_zero;
        out.nearest_squared = sums.nearest_squared < out.nearest_squared ? sums.nearest_squared : out.nearest_squared;
        for (std::size_t d = 0; d < D; ++d) {
            out.offset[d] += sums.offset[d];
            out.velocity[d] += sums.velocity[d];
            out.push[d] += sums.push[d];
        }
    }
    out.coincident = out.at_zero > 0 ? out.at_zero - 1 : 0;  // less the boid itself
}

// Fills `block` with the candidates of the boid in `slot` (and of every boid in its
// cell): the grid's runs in their order, positions from `axes` and velocities from
// `vels` (per axis, n apart, in slot order). False when they do not fit. With
// `cell_image` (cells across a torus's seam, whose boids of this cell all lie on one
// side of it: their seam_image per axis), each candidate's shift is its own image less
// the cell's, which makes (x_j - p) + shift its minimum image.
template <class S, std::size_t D, class Runs>
bool fill_block(const Runs& runs, const run_plan& plan, bool one_image, std::size_t slot, const S* axes, const S* vels,
                std::size_t n, candidate_block<S, D>& filled, const S* cell_image = nullptr) noexcept {
    BOIDS_ASSERT(filled.no_shift != nullptr, "fill_block: the block has no row of zeros (see block_storage::view)");
    // Filled through a copy of its own: the copies below write through memcpy, which
    // may touch any object, and would make the caller's block be read again after each.
    candidate_block<S, D> block = filled;
    block.size = 0;
    block.shifted = false;
    for (std::size_t d = 0; d < D; ++d) block.shift[d] = block.no_shift;
    bool fits = true;
    auto add = [&](std::size_t s0, std::size_t s1, const S* shift) {
        const std::size_t m = s1 - s0;
        if (!fits || m > block.capacity - block.size) {
            fits = false;
            return;
        }
        // Whole packs: runs are short, and a call to memcpy per run and axis costs
        // more than the copy. Lanes past the run's end are read (the grid's arrays
        // are padded) and written past the block's end, then overwritten. One loop
        // for every axis: its exit, which depends on the run's length, is the branch
        // the CPU mispredicts, once a run rather than once an axis.
        using P = pack<S>;
        if (shift != nullptr)
            for (std::size_t d = 0; d < D; ++d)
                if (shift[d] != S(0) && block.shift[d] == block.no_shift) {  // the first image on this axis
                    block.shifted = true;
                    block.shift[d] = block.shift_row[d];
                    for (std::size_t k = 0; k < block.size; k += P::lanes)
                        P::store(block.shift_row[d] + k, P::splat(S(0)));
                }
        const S* from_p = axes + s0;
        const S* from_v = vels + s0;
        const std::size_t to = block.size;
        if (block.shifted) {  // every run writes its own shifts, on the axes some run shifts
            typename P::f image[D];
            bool written[D];
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 0; d < D; ++d) {
                image[d] = P::splat(shift != nullptr ? shift[d] : S(0));
                written[d] = block.shift[d] != block.no_shift;
            }
            for (std::size_t k = 0; k < m; k += P::lanes) {
                BOIDS_DETAIL_UNROLL
                for (std::size_t d = 0; d < D; ++d) {
                    P::store(block.pos[d] + to + k, P::load(from_p + d * n + k));
                    P::store(block.vel[d] + to + k, P::load(from_v + d * n + k));
                    if (written[d]) P::store(block.shift_row[d] + to + k, image[d]);
                }
            }
        } else {
            for (std::size_t k = 0; k < m; k += P::lanes) {
                BOIDS_DETAIL_UNROLL
                for (std::size_t d = 0; d < D; ++d) {
                    P::store(block.pos[d] + to + k, P::load(from_p + d * n + k));
                    P::store(block.vel[d] + to + k, P::load(from_v + d * n + k));
                }
            }
        }
        block.size += m;
    };
    if (one_image) runs.for_each_run_with_image(slot, plan, add);
    else runs.for_each_run(slot, plan, [&](std::size_t s0, std::size_t s1) { add(s0, s1, nullptr); });
    if (!fits) {
        filled = block;
        return false;
    }
    // The kernel reads up to block_lanes - 1 lanes past the end: sentinels there.
    using P = pack<S>;
    const typename P::f far = P::splat(block_sentinel<S>);
    BOIDS_DETAIL_UNROLL
    for (std::size_t d = 0; d < D; ++d)
        for (std::size_t k = 0; k < block_lanes<S>; k += P::lanes) P::store(block.pos[d] + block.size + k, far);
    if (cell_image != nullptr)
        for (std::size_t d = 0; d < D; ++d) {
            if (!runs.block_across_seam(slot, plan.reach, d)) continue;  // every shift 0
            runs.seam_shifts(block.pos[d], block.size, d, cell_image[d], block.shift_row[d]);
            for (std::size_t k = block.size; k < block.size + block_lanes<S>; ++k) block.shift_row[d][k] = S(0);
            block.shift[d] = block.shift_row[d];
            block.shifted = true;
        }
    filled = block;
    return true;
}

// A boid with more neighbours in its block than it heeds (max_neighbors) heeds the
// `heed` nearest it sees. Returns a squared radius within which exactly they lie,
// found from the block's own distances (seen_distances: the kernel's operations, so
// the same bits; hidden by the cone: infinitely far): the kernel run again with it
// sums exactly them, unless several lie at the last one's distance (the caller then
// counts more than `heed` and takes the general path, which breaks such ties by
// index). `neighbours`: how many the kernel counted within q.r2, or
// neighbours_unknown, to count them here from the distances (every boid seen within
// q.r2 but the boid itself, coincident ones included); then q.r2 itself comes back
// when they are not more than `heed`. `scratch` holds block.size + distance_padding
// values.
inline constexpr std::size_t neighbours_unknown = ~std::size_t(0);
template <wrap_mode Wrap, bool Cone, class S, std::size_t D>
BOIDS_DETAIL_OUT_OF_LINE S heeded_radius_squared(bool avx, const candidate_block<S, D>& block,
                                                 const kernel_query<S, D>& q, std::size_t heed, std::size_t neighbours,
                                                 S* scratch) noexcept {
    BOIDS_DETAIL_PICK_BUILD(avx, (seen_distances_of_width_avx<Wrap, Cone, 32>(q, block, scratch)),
                            (seen_distances_of_width<Wrap, Cone, BOIDS_DETAIL_PACK_BYTES>(q, block, scratch)));
    // A limit t with exactly `heed` neighbours, and the boid itself (at 0), within it:
    // interpolation (distances in a disc or ball spread evenly enough: in a settled
    // flock 2.6 counts a boid where alternating from the first took 3.3), then steps
    // that alternate between it and halving, so that an uneven spread still ends.
    // Each is a branch-free count over the block, where a selection's partitioning
    // mispredicted its branches over and over.
    if (neighbours == neighbours_unknown) {
        const std::size_t within = count_within(avx, scratch, block.size, q.r2);  // the boid itself too
        neighbours = within == 0 ? 0 : within - 1;
    }
    const std::size_t want = heed + 1;
    S lo = S(0), hi = q.r2;
    std::size_t below_lo = 1, below_hi = neighbours + 1;  // within lo, within hi: below_lo < want < below_hi
    if (heed == 0 || below_hi <= want) return q.r2;       // not crowded (found so here only with neighbours_unknown)
    for (int step = 0; step < 2 * std::numeric_limits<S>::digits + 8; ++step) {
        S t = step < 4 || step % 2 == 0 ? lo + (hi - lo) * ((S(want - below_lo) + S(0.5)) / S(below_hi - below_lo))
                                        : lo + (hi - lo) * S(0.5);
        if (!(t > lo && t < hi)) t = lo + (hi - lo) * S(0.5);
        if (!(t > lo && t < hi)) break;  // lo and hi adjacent: several distances equal hi
        const std::size_t below = count_within(avx, scratch, block.size, t);
        if (below >= want) {
            hi = t;
            below_hi = below;
            if (below == want) break;
        } else {
            lo = t;
            below_lo = below;
        }
    }
    return hi;
}
// Without a cone, its candidates taking the minimum image as the block says.
template <class S, std::size_t D>
S heeded_radius_squared(bool avx, const candidate_block<S, D>& block, const kernel_query<S, D>& q, std::size_t heed,
                        std::size_t neighbours, S* scratch) noexcept {
    return with_wrap_mode(block, [&](auto wrap) {
        return heeded_radius_squared<decltype(wrap)::value, false>(avx, block, q, heed, neighbours, scratch);
    });
}

}  // namespace detail
}  // namespace boids
#if defined(__clang__)
#  pragma clang diagnostic pop
#endif

// boids/neighbors/detail/grid/knn_select.hpp - the k nearest among a query's candidates, once
// their squared distances are known: ranked by counting (no heap, no branch the CPU
// must guess), ties to the lower boid index.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include "../../query.hpp"
#include "../../../detail/block_distances.hpp"
#include "keep_within.hpp"
#include "cells.hpp"

namespace boids {
namespace detail {

// The largest k the by-distance queries take; larger ones walk rings of cells.
// (Ranking by counting costs (2k)^2 / lanes comparisons, still under what a selection
// and a sort cost at 256.)
inline constexpr std::size_t max_nearest_k = 256;

// For each of the first `count` squared distances, how many are below it:
// visit(a, rank). A pack of them at a time against every other, broadcast: no
// horizontal sum per element. The array is readable (+inf) a pack past count.
template <class S, class Visit>
void rank_below(const S* d2, std::size_t count, Visit&& visit) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
    using P = pack<S>;
    using I = typename pack_types<S>::i;
    for (std::size_t a0 = 0; a0 < count; a0 += P::lanes) {
        const typename P::f va = P::load(d2 + a0);
        I below0{}, below1{};
        std::size_t b = 0;
        for (; b + 1 < count; b += 2) {
            below0 -= (P::splat(d2[b]) < va);  // a true lane is -1
            below1 -= (P::splat(d2[b + 1]) < va);
        }
        if (b < count) below0 -= (P::splat(d2[b]) < va);
        const I below = below0 + below1;
        for (std::size_t l = 0; l < P::lanes && a0 + l < count; ++l) visit(a0 + l, static_cast<std::size_t>(below[l]));
    }
#else
    for (std::size_t a = 0; a < count; ++a) {
        std::size_t below = 0;
        for (std::size_t t = 0; t < count; ++t) below += d2[t] < d2[a] ? 1 : 0;
        visit(a, below);
    }
#endif
}

// The k nearest (k = out.capacity()) among `count` candidates of the query at p:
// squared distances in d2 (room for two packs more), slots in from_slot; `within` of
// them lie within t2, and there are at least k or t2 is the caller's limit. Ranked
// by (distance, index). False (nothing reported) when too many share one distance
// for this. d2 and slot are compacted in place (slot may be from_slot).
template <class V, bool Hashed>
bool select_nearest(const grid_cells<V, Hashed>& g, const std::array<scalar_t<V>, dimension_v<V>>& p, scalar_t<V>* d2,
                    const std::uint32_t* from_slot, std::uint32_t* slot, std::size_t count, scalar_t<V> t2,
                    std::size_t within, k_nearest<scalar_t<V>, dimension_v<V>>& out) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>;
    const std::size_t k = out.capacity();
    const std::size_t n = g.order.size();
    // Too many to rank cheaply: shrink the radius while it keeps k (where too many to
    // rank at all are left, aiming wider after a radius that kept too few).
    double aim = 1.2;
    for (int tries = 0; tries < 6 && within > 2 * k + 8; ++tries) {
        const scalar smaller =
            t2 * static_cast<scalar>(std::pow(aim * static_cast<double>(k) / static_cast<double>(within),
                                              2.0 / static_cast<double>(dim)));
        const std::size_t w2 = count_within(g.avx, d2, count, smaller);
        if (w2 < k) {
            if (within <= 4 * k + 64) break;
            aim *= 2;
            continue;
        }
        t2 = smaller;
        within = w2;
    }
    // Many at one distance (boids stacked on one spot): the ring walk copes better.
    if (within > 4 * k + 64) return false;
    // Keep those within t2, then rank them by (distance, index) by counting.
    const std::size_t kept = keep_within(g.avx, d2, from_slot, count, t2, d2, slot);
    const std::size_t take = std::min(k, kept);
    std::array<std::uint32_t, max_nearest_k + 1> pick;  // one more: the ranks past k
    for (std::size_t q = 0; q < take; ++q) pick[q] = std::numeric_limits<std::uint32_t>::max();
    std::size_t placed = 0;
    for (std::size_t t = kept; t < kept + 2 * pack<scalar>::lanes; ++t) d2[t] = std::numeric_limits<scalar>::infinity();
    rank_below(d2, kept, [&](std::size_t a, std::size_t below) {  // without a branch to mispredict
        // min(below, take) by masks (compilers turn a min into a branch here): the
        // ranks past k go to pick[take], which is never read
        const std::size_t in = below < take ? 1 : 0;
        pick[take ^ ((below ^ take) & (std::size_t(0) - in))] = static_cast<std::uint32_t>(a);
        placed += in;
    });
    bool ranks_clean = placed == take;
    for (std::size_t q = 0; q < take; ++q)
        ranks_clean = ranks_clean && pick[q] != std::numeric_limits<std::uint32_t>::max();
    if (!ranks_clean) {  // equal distances: rank again, the lower boid index first
        for (std::size_t a = 0; a < kept; ++a) {
            std::size_t below = 0;
            for (std::size_t b = 0; b < kept; ++b)
                below += (d2[b] < d2[a] || (d2[b] == d2[a] && g.order[slot[b]] < g.order[slot[a]])) ? std::size_t(1)
                                                                                                    : std::size_t(0);
            if (below < take) pick[below] = static_cast<std::uint32_t>(a);
        }
    }
    const bool images = g.layout.images();
    for (std::size_t q = 0; q < take; ++q) {
        const std::size_t s = slot[pick[q]];
        auto& nb = out.append_ranked();  // ranks ascend with q
        nb.index = g.order[s];
        nb.distance_squared = d2[pick[q]];
        for (std::size_t d = 0; d < dim; ++d) {
            const scalar x = g.spos[d * n + s] - p[d];  // points inside the box (near_ready)
            nb.offset[d] = images ? world_for<V>::minimum_image(x, g.layout.world.size[d]) : x;
        }
    }
    return true;
}

}  // namespace detail
}  // namespace boids

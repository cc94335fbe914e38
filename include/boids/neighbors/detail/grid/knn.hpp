// boids/neighbors/detail/grid/knn.hpp - one boid's k nearest on a built grid.
//
// Branches the CPU cannot predict cost more here than arithmetic, so a dense grid's
// query is shaped as straight-line loops: a radius that should hold about 1.6 k boids
// (from the density of the 3^D block of cells around the query), squared distances
// to every slot in the cells that ball touches (one run of slots per row of cells),
// a larger ball in the rare case it holds fewer than k, and the k nearest picked by
// counting ranks (knn_select.hpp). Hashed grids, and queries that cannot finish so,
// walk rings of cells outward instead.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include "knn_select.hpp"
#include "walk.hpp"

namespace boids {
namespace detail {

inline constexpr std::size_t knn_scratch_size = 4096;  // candidates one by-distance query may scan
inline constexpr std::int32_t knn_max_reach = 16;      // cells per axis a by-distance query may reach

// A radius that should hold about 1.6 k boids, from the density of the block of
// cells around c (block_count boids in it, the query included).
template <class V, bool Hashed>
[[nodiscard]] scalar_t<V> guess_radius_squared(const grid_layout<V, Hashed>& lay,
                                               const typename grid_layout<V, Hashed>::cell_t& c,
                                               std::size_t block_count, std::size_t k) noexcept {
    constexpr std::size_t dim = dimension_v<V>;
    std::size_t block_cells = 1;
    std::array<std::int32_t, dim> lo{}, hi{};
    lay.clipped_offsets(c, 1, lo, hi);
    for (std::size_t d = 0; d < dim; ++d) block_cells *= static_cast<std::size_t>(hi[d] - lo[d] + 1);
    double cell_volume = 1;
    for (std::size_t d = 0; d < dim; ++d) cell_volume *= static_cast<double>(lay.w[d]);
    const double density = static_cast<double>(std::max<std::size_t>(block_count, 2) - 1) /
                           (static_cast<double>(block_cells) * cell_volume);
    const double guess = radius_of_ball(1.6 * static_cast<double>(k) / density, dim);
    return static_cast<scalar_t<V>>(
        std::min(guess * guess, static_cast<double>(std::numeric_limits<scalar_t<V>>::max())));
}

// A radius that should hold about 1.6 k boids, from the density of a crowded cell's
// boids over their box.
template <class SubGrid>
[[nodiscard]] auto crowded_radius_squared(const SubGrid& sg, std::size_t count, std::size_t k) noexcept {
    using scalar = std::decay_t<decltype(sg.w[0])>;
    constexpr std::size_t dim = std::tuple_size<decltype(sg.w)>::value;
    double volume = 1;
    for (std::size_t d = 0; d < dim; ++d) volume *= static_cast<double>(sg.w[d]) * sg.n[d];
    const double guess = radius_of_ball(1.6 * static_cast<double>(k) * volume / static_cast<double>(count), dim);
    return static_cast<scalar>(guess * guess);
}

// Squared distances from the query q (a point, the world's sizes, as packs) to the
// entries [s0, s1) of per-axis positions x (stride apart), appended to the scratch a
// pack of lanes at a time with their slots (entry t's: slot_of[t] where Mapped, else
// t); lanes past s1 are written, then overwritten or ignored.
template <class S, std::size_t D, bool Mapped = false>
void append_distances(const S* x, std::size_t stride, bool images, const std::uint32_t* slot_of,
                      const typename pack<S>::f (&q)[4][D], std::size_t s0, std::size_t s1, S* d2, std::uint32_t* slot,
                      std::size_t& count) noexcept {
    using P = pack<S>;
    using F = typename P::f;
    for (std::size_t t = s0; t < s1; t += P::lanes) {
        F sum = P::splat(S(0));
        for (std::size_t d = 0; d < D; ++d) {
            F o = P::load(x + d * stride + t) - q[0][d];
            if (images) o = P::minimum_image(o, q[1][d], q[2][d], q[3][d]);  // points inside the box
            sum = sum + o * o;
        }
        const std::size_t at = count + (t - s0);
        std::memcpy(d2 + at, &sum, sizeof sum);
        for (std::size_t k = 0; k < P::lanes; ++k)
            slot[at + k] = Mapped ? slot_of[t + k] : static_cast<std::uint32_t>(t + k);
    }
    count += s1 - s0;
}

// The same for the boids of a crowded cell (crowded.hpp) in the sub-cells that the
// ball of radius t around p may reach (sub_cells_within), the query's own slot si as
// +inf. False when the scratch is full.
template <class V, bool Hashed, class SubGrid>
bool append_crowded(const grid_cells<V, Hashed>& g, const SubGrid& sg, const std::array<scalar_t<V>, dimension_v<V>>& p,
                    const typename pack<scalar_t<V>>::f (&q)[4][dimension_v<V>], std::size_t si, scalar_t<V> t,
                    scalar_t<V>* d2, std::uint32_t* slot, std::size_t& count) noexcept {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>;
    const auto& cr = g.crowded;
    const bool images = g.layout.images();
    std::array<std::int32_t, dim> lo{}, hi{};
    sub_cells_within(cr, sg, p, t, images, g.layout.world, lo, hi);
    std::array<std::int32_t, dim> j = lo;
    for (;;) {  // rows of sub-cells along x
        std::size_t c = 0;
        for (std::size_t d = dim; d-- > 1;) c = c * static_cast<std::size_t>(sg.n[d]) + static_cast<std::size_t>(j[d]);
        c = sg.first + c * static_cast<std::size_t>(sg.n[0]);
        const std::size_t e0 = cr.start[c + static_cast<std::size_t>(lo[0])];
        const std::size_t e1 = cr.start[c + static_cast<std::size_t>(hi[0]) + 1];
        if (count + (e1 - e0) > knn_scratch_size) return false;
        const std::size_t from = count;
        append_distances<scalar, dim, true>(cr.pos.data(), cr.stride, images, cr.slot.data(), q, e0, e1, d2, slot,
                                            count);
        for (std::size_t a = from; a < count; ++a)
            if (slot[a] == si) d2[a] = std::numeric_limits<scalar>::infinity();
        std::size_t d = 1;
        for (; d < dim && ++j[d] > hi[d]; ++d) j[d] = lo[d];
        if (d == dim) return true;
    }
}

// Appends the squared distances to the slots of the cells of buckets [b0, b1] (one
// run of slots, some cells crowded): each crowded cell's sub-cells within t of p
// (append_crowded), the others in runs between them. False when the scratch is full.
template <class V, bool Hashed>
bool append_crowded_run(const grid_cells<V, Hashed>& g, const std::array<scalar_t<V>, dimension_v<V>>& p,
                        const typename pack<scalar_t<V>>::f (&q)[4][dimension_v<V>], std::size_t si, scalar_t<V> t,
                        std::size_t b0, std::size_t b1, scalar_t<V>* d2, std::uint32_t* slot, std::size_t& count) {
    using scalar = scalar_t<V>;
    std::size_t pending = g.bucket_start[b0];  // cells of the run not yet read: from this slot
    auto flush = [&](std::size_t upto) {
        append_distances<scalar, dimension_v<V>>(g.spos.data(), g.order.size(), g.layout.images(), nullptr, q, pending,
                                                 upto, d2, slot, count);
        if (si >= pending && si < upto) d2[count - (upto - si)] = std::numeric_limits<scalar>::infinity();
    };
    for (std::size_t b = b0; b <= b1; ++b) {
        const std::size_t e0 = g.bucket_start[b], e1 = g.bucket_start[b + 1];
        const auto* sg = e1 - e0 > crowded_cell_size ? g.crowded.find(b) : nullptr;
        if (sg == nullptr && count + (e1 - pending) <= knn_scratch_size) continue;
        flush(e0);
        if (sg == nullptr || !append_crowded(g, *sg, p, q, si, t, d2, slot, count)) return false;
        pending = e1;
    }
    if (count + (g.bucket_start[b1 + 1] - pending) > knn_scratch_size) return false;
    flush(g.bucket_start[b1 + 1]);
    return true;
}

// Appends the squared distances to every slot in cells within sqrt(t2) of p (cells
// c + o, |o_d| <= reach_d), row by row, the query's own slot si as +inf. False when
// the scratch is full.
template <class V, bool Hashed>
bool scan_ball(const grid_cells<V, Hashed>& g, const std::array<scalar_t<V>, dimension_v<V>>& p,
               const typename pack<scalar_t<V>>::f (&q)[4][dimension_v<V>], std::size_t si, scalar_t<V> t2,
               const std::array<std::int32_t, dimension_v<V>>& reach, scalar_t<V>* d2, std::uint32_t* slot,
               std::size_t& count) noexcept {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>;
    using cell_t = typename grid_cells<V, Hashed>::cell_t;
    const auto& lay = g.layout;
    const cell_t& c = g.scell[si];
    const bool torus = lay.torus();
    const std::size_t n = g.order.size();
    // Per axis beyond x, each offset's cell (-1: outside a box) and its squared gap.
    constexpr std::size_t side = 2 * knn_max_reach + 1;
    std::int32_t cell_at[dim][side];
    scalar gap2_at[dim][side];
    for (std::size_t d = 1; d < dim; ++d)
        for (std::int32_t o = -reach[d]; o <= reach[d]; ++o) {
            const std::int32_t j = c[d] + o;
            const auto at = static_cast<std::size_t>(o + knn_max_reach);
            const scalar gap = lay.cell_gap(p[d], j, d);
            gap2_at[d][at] = gap * gap;
            if (torus) cell_at[d][at] = j < 0 ? j + lay.n[d] : (j >= lay.n[d] ? j - lay.n[d] : j);
            else cell_at[d][at] = (j < 0 || j >= lay.n[d]) ? -1 : j;
        }
    bool ok = true;
    auto run = [&](std::int32_t x0, std::int32_t x1, cell_t cell) {
        if (!ok || x1 < x0) return;
        cell[0] = x0;
        const std::size_t b0 = lay.bucket_of(cell);
        const std::size_t s0 = g.bucket_start[b0], s1 = g.bucket_start[b0 + static_cast<std::size_t>(x1 - x0) + 1];
        if (s1 - s0 > crowded_cell_size && !g.crowded.grids.empty()) {  // sub-cells in crowded cells
            ok = append_crowded_run(g, p, q, si, std::sqrt(t2), b0, b0 + static_cast<std::size_t>(x1 - x0), d2, slot,
                                    count);
            return;
        }
        if (count + (s1 - s0) > knn_scratch_size) {
            ok = false;
            return;
        }
        const std::size_t start = count;
        append_distances<scalar, dim>(g.spos.data(), n, lay.images(), nullptr, q, s0, s1, d2, slot, count);
        if (si >= s0 && si < s1) d2[start + (si - s0)] = std::numeric_limits<scalar>::infinity();
    };
    // One row of cells along x: those within the budget left after the row's gap,
    // found by arithmetic (a little wide for rounding: an extra cell costs time only).
    auto row = [&](cell_t cell, scalar g2) {
        if (g2 > t2) return;
        const scalar budget = std::sqrt(t2 - g2);
        const scalar wide = budget + scalar(2) * lay.slack(budget);
        const scalar x = lay.local(p[0], 0);
        const scalar lo = std::ceil((x - wide - lay.origin[0]) / lay.w[0]) - scalar(1);
        const scalar hi = std::floor((x + wide - lay.origin[0]) / lay.w[0]);
        std::int32_t x0 = c[0] - reach[0], x1 = c[0] + reach[0];
        // Clamped toward c before the cast: far outside a box, lo and hi can leave int's range.
        if (lo > static_cast<scalar>(x0)) x0 = static_cast<std::int32_t>(std::min(lo, static_cast<scalar>(c[0])));
        if (hi < static_cast<scalar>(x1)) x1 = static_cast<std::int32_t>(std::max(hi, static_cast<scalar>(c[0])));
        const std::int32_t nx = lay.n[0];
        if (!torus) {
            run(std::max(x0, 0), std::min(x1, nx - 1), cell);
        } else if (x0 < 0) {
            run(nx + x0, nx - 1, cell);
            run(0, x1, cell);
        } else if (x1 >= nx) {
            run(x0, nx - 1, cell);
            run(0, x1 - nx, cell);
        } else {
            run(x0, x1, cell);
        }
    };
    for (std::int32_t oy = -reach[1]; oy <= reach[1]; ++oy) {
        const auto ay = static_cast<std::size_t>(oy + knn_max_reach);
        if (cell_at[1][ay] < 0) continue;
        cell_t cell{};
        cell[1] = cell_at[1][ay];
        if constexpr (dim == 2) {
            row(cell, gap2_at[1][ay]);
        } else {
            for (std::int32_t oz = -reach[2]; oz <= reach[2]; ++oz) {
                const auto az = static_cast<std::size_t>(oz + knn_max_reach);
                if (cell_at[2][az] < 0) continue;
                cell[2] = cell_at[2][az];
                row(cell, gap2_at[1][ay] + gap2_at[2][az]);
            }
        }
    }
    return ok;
}

// The by-distance query of the boid in slot si (dense grids). Returns false, having
// reported nothing, when this query needs the ring walk.
template <class V>
bool nearest_by_distance(const grid_cells<V, false>& g, std::size_t si, k_nearest<scalar_t<V>, dimension_v<V>>& out,
                         scalar_t<V> max_radius, scalar_t<V> hint) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>;
    using P = pack<scalar>;
    const auto& lay = g.layout;
    const std::size_t k = out.capacity();
    if (!g.near_ready || k > max_nearest_k || g.too_many_cells(1)) return false;
    const auto& c = g.scell[si];
    const std::array<scalar, dim> p = g.position_in(si);
    for (std::size_t d = 0; d < dim; ++d)
        if (!std::isfinite(p[d])) return false;
    const scalar r2 = max_radius * max_radius;
    scalar t2 = hint * hint;
    if (!(hint > scalar(0) && t2 > scalar(0) && t2 <= std::numeric_limits<scalar>::max())) {
        std::size_t block_count = 0;
        for_each_cell_in_box(g, c, 1, [&](std::size_t s0, std::size_t s1, const void*) { block_count += s1 - s0; });
        t2 = guess_radius_squared(lay, c, block_count, k);
        const std::size_t own = g.cell_end_of(si) - g.cell_begin_of(si);
        const auto* sg = own > crowded_cell_size ? g.crowded.find(lay.bucket_of(c)) : nullptr;
        if (sg != nullptr) t2 = std::min(t2, crowded_radius_squared(*sg, own, k));  // denser than its block
    }
    if (!(t2 > scalar(0))) t2 = lay.w[0] * lay.w[0];
    t2 = std::min(t2, r2);
    scalar d2[knn_scratch_size + 2 * P::lanes];
    std::uint32_t slot[knn_scratch_size + 2 * P::lanes];
    std::size_t count = 0, within = 0;
    typename P::f q[4][dim];  // the point, the world's sizes, their halves, less their halves
    for (std::size_t d = 0; d < dim; ++d) {
        q[0][d] = P::splat(p[d]);
        q[1][d] = P::splat(lay.world.size[d]);
        q[2][d] = P::splat(lay.world.size[d] * scalar(0.5));
        q[3][d] = P::splat(-(lay.world.size[d] * scalar(0.5)));
    }
    for (;;) {
        std::array<std::int32_t, dim> reach{};
        const scalar t = std::sqrt(t2);
        for (std::size_t d = 0; d < dim; ++d) {
            const scalar cells = std::ceil((t + lay.slack(t)) / lay.w[d]);
            if (!(cells <= scalar(knn_max_reach))) return false;  // sparse here: the ring walk
            reach[d] = std::max<std::int32_t>(1, static_cast<std::int32_t>(cells));
            if (lay.torus() && lay.n[d] < 2 * reach[d] + 1) return false;
        }
        count = 0;
        const bool scanned = scan_ball(g, p, q, si, t2, reach, d2, slot, count);
        out.add_candidates(count);
        if (!scanned) return false;
        within = count_within(g.avx, d2, count, t2);
        if (within >= k || !(t2 < r2)) break;
        t2 = std::min(t2 * scalar(2.5), r2);  // too few: a ball about 1.6 times wider
    }
    return select_nearest(g, p, d2, slot, slot, count, t2, within, out);
}

// Rings of cells widen until no unvisited cell can hold anything nearer than the
// k-th found: hashed grids, and queries the by-distance one cannot finish.
template <class V, bool Hashed>
void nearest_by_rings(const grid_cells<V, Hashed>& g, std::size_t i, k_nearest<scalar_t<V>, dimension_v<V>>& out,
                      scalar_t<V> max_radius) {
    using scalar = scalar_t<V>;
    using cell_t = typename grid_cells<V, Hashed>::cell_t;
    out.clear();
    const std::size_t si = g.slot[i];
    if constexpr (!Hashed) {
        if (nearest_on_own_spot(g, si, out, max_radius)) return;
    }
    const cell_t c = g.scell[si];
    const auto p = g.position_in(si);
    const scalar r2 = max_radius * max_radius;
    const scalar wmin = g.layout.narrowest_cell();
    const std::int32_t last = g.layout.last_ring();
    auto offer_if_near = [&](const neighbor<scalar, dimension_v<V>>& nb) {
        if (nb.distance_squared <= r2) out(nb);
    };
    auto offer = [&](std::size_t s0, std::size_t s1, const cell_t* only) {
        out.add_candidates(s1 - s0);
        scan_slots(g, i, p, s0, s1, only, offer_if_near);
    };
    // Unvisited boids lie at least `bound` away: done when the k-th found is nearer.
    auto done_within = [&](scalar bound) {
        return bound > max_radius || (out.full() && bound > scalar(0) && out.worst_distance_squared() < bound * bound);
    };
    // Rings 0 and 1 together first, as the metric query walks them (runs of cells):
    // in a flock of even density the k nearest are nearly always there.
    std::int32_t first_ring = 0;
    if (!g.too_many_cells(1)) {
        for_each_cell_in_box(g, c, 1, offer);
        if (done_within(wmin - g.layout.slack(wmin))) return;
        first_ring = 2;
    }
    for (std::int32_t ring = first_ring; ring <= last; ++ring) {
        if (g.too_many_cells(ring)) {  // sparse and spread out: scan everything once
            out.clear();
            out.add_candidates(g.order.size());
            scan_slots(g, i, p, 0, g.order.size(), nullptr, offer_if_near);
            return;
        }
        for_each_cell_on_ring(g, c, ring, offer);
        const scalar reached = scalar(ring) * wmin;
        if (done_within(reached - g.layout.slack(reached))) return;
    }
}

// The k nearest other boids of the boid in slot s within max_radius (k =
// out.capacity()), ties to the lower index; radius_hint (optional, > 0) is a guess
// of the k-th distance that never changes the result.
template <class V, bool Hashed>
void nearest_in_slot(const grid_cells<V, Hashed>& g, std::size_t s, k_nearest<scalar_t<V>, dimension_v<V>>& out,
                     scalar_t<V> max_radius, scalar_t<V> radius_hint) {
    out.clear();
    if (out.capacity() == 0) return;
    if constexpr (!Hashed) {
        // On a spot its cell's first boid shares: likely a stack, read from its first slots.
        const std::size_t first = g.cell_begin_of(s) == s ? s + 1 : g.cell_begin_of(s);
        const bool shared = first < g.cell_end_of(s) && g.position_in(first) == g.position_in(s);
        if (shared && nearest_on_own_spot(g, s, out, max_radius)) return;
        if (nearest_by_distance(g, s, out, max_radius, radius_hint)) return;
    }
    nearest_by_rings(g, g.order[s], out, max_radius);
}

}  // namespace detail
}  // namespace boids

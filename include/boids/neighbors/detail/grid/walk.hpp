// boids/neighbors/detail/grid/walk.hpp - walking a built grid: the cells in a box or on a ring
// around a query's cell, the runs of slots a kernel scans, the candidates of a run
// as neighbour records, and the metric query made of them.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include "../../query.hpp"
#include "cells.hpp"

namespace boids {
namespace detail {

// visit(s0, s1, only) for a dense row of cells x0..x1 (one run of slots, only = null)
// or for one hashed cell (its bucket, which may hold other cells: only = &cell).
template <class V, bool Hashed, class Visit>
void visit_dense_run(const grid_cells<V, Hashed>& g, typename grid_cells<V, Hashed>::cell_t cell, std::int32_t x0,
                     std::int32_t x1, Visit& visit) {
    using cell_t = typename grid_cells<V, Hashed>::cell_t;
    if (x1 < x0) return;
    cell[0] = x0;
    const std::size_t b0 = g.layout.bucket_of(cell);
    const std::size_t b1 = b0 + static_cast<std::size_t>(x1 - x0);
    visit(g.bucket_start[b0], g.bucket_start[b1 + 1], static_cast<const cell_t*>(nullptr));
}
template <class V, bool Hashed, class Visit>
void visit_hashed_cell(const grid_cells<V, Hashed>& g, const typename grid_cells<V, Hashed>::cell_t& cell,
                       Visit& visit) {
    const std::size_t b = g.layout.bucket_of(cell);
    visit(g.bucket_start[b], g.bucket_start[b + 1], &cell);
}

// Visits every point in the box of cells [c - reach, c + reach], each cell once:
// visit(s0, s1, only). Dense grids merge each row along x into contiguous runs.
template <class V, bool Hashed, class Visit>
void for_each_cell_in_box(const grid_cells<V, Hashed>& g, const typename grid_cells<V, Hashed>::cell_t& c,
                          std::int32_t reach, Visit&& visit) {
    constexpr std::size_t dim = dimension_v<V>;
    using cell_t = typename grid_cells<V, Hashed>::cell_t;
    const auto& lay = g.layout;
    std::array<std::int32_t, dim> lo{}, hi{};
    lay.clipped_offsets(c, reach, lo, hi);
    cell_t o{};
    if constexpr (Hashed) {
        iterate_box(lo, hi, o, 0, [&](const cell_t& off) {
            cell_t cell{};
            for (std::size_t d = 0; d < dim; ++d) cell[d] = lay.wrap_cell(c[d] + off[d], d);
            visit_hashed_cell(g, cell, visit);
        });
    } else {
        // Rows: every (y[, z]) offset; along x one run, or two when a toroidal row wraps.
        std::array<std::int32_t, dim> rlo = lo, rhi = hi;
        rlo[0] = rhi[0] = 0;
        iterate_box(rlo, rhi, o, 0, [&](const cell_t& off) {
            cell_t cell{};
            for (std::size_t d = 1; d < dim; ++d) cell[d] = lay.wrap_cell(c[d] + off[d], d);
            std::int32_t x0 = c[0] + lo[0], x1 = c[0] + hi[0];
            if (x0 < 0) {  // toroidal: [n + x0, n) then [0, x1]
                visit_dense_run(g, cell, lay.n[0] + x0, lay.n[0] - 1, visit);
                x0 = 0;
            } else if (x1 >= lay.n[0]) {
                visit_dense_run(g, cell, 0, x1 - lay.n[0], visit);
                x1 = lay.n[0] - 1;
            }
            visit_dense_run(g, cell, x0, x1, visit);
        });
    }
}

// Visits the cells whose Chebyshev offset from c is exactly `ring`.
template <class V, bool Hashed, class Visit>
void for_each_cell_on_ring(const grid_cells<V, Hashed>& g, const typename grid_cells<V, Hashed>::cell_t& c,
                           std::int32_t ring, Visit&& visit) {
    constexpr std::size_t dim = dimension_v<V>;
    using cell_t = typename grid_cells<V, Hashed>::cell_t;
    std::array<std::int32_t, dim> lo{}, hi{};
    g.layout.clipped_offsets(c, ring, lo, hi);
    cell_t o{};
    iterate_box(lo, hi, o, 0, [&](const cell_t& off) {
        std::int32_t m = 0;
        for (std::size_t d = 0; d < dim; ++d) m = std::max(m, off[d] < 0 ? -off[d] : off[d]);
        if (m != ring) return;
        cell_t cell{};
        for (std::size_t d = 0; d < dim; ++d) cell[d] = g.layout.wrap_cell(c[d] + off[d], d);
        if constexpr (Hashed) visit_hashed_cell(g, cell, visit);
        else visit_dense_run(g, cell, cell[0], cell[0], visit);
    });
}

// The candidates in slots [s0, s1) (only those in cell *only, when given) as
// neighbour records of the boid `self` at p: f(neighbor).
template <class V, bool Hashed, class F>
void scan_slots(const grid_cells<V, Hashed>& g, std::size_t self, const std::array<scalar_t<V>, dimension_v<V>>& p,
                std::size_t s0, std::size_t s1, const typename grid_cells<V, Hashed>::cell_t* only, F&& f) {
    constexpr std::size_t dim = dimension_v<V>;
    const std::size_t n = g.order.size();
    for (std::size_t s = s0; s < s1; ++s) {
        if (g.order[s] == self) continue;
        if (only != nullptr && g.scell[s] != *only) continue;
        neighbor<scalar_t<V>, dim> nb{g.order[s], scalar_t<V>(0), {}};
        for (std::size_t d = 0; d < dim; ++d) {
            nb.offset[d] = g.layout.world.offset_component(p[d], g.spos[d * n + s], d);
            nb.distance_squared += nb.offset[d] * nb.offset[d];
        }
        f(nb);
    }
}

// The boids of a crowded cell (crowded.hpp) in the sub-cells that the ball of radius r
// around p may reach (sub_cells_within), as scan_slots gives them, row by row of
// sub-cells along x: f(neighbor).
template <class V, class SubGrid, class F>
void scan_sub_cells(const grid_cells<V, false>& g, const SubGrid& sg, std::size_t self,
                    const std::array<scalar_t<V>, dimension_v<V>>& p, scalar_t<V> r, F&& f) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>;
    const auto& cr = g.crowded;
    const std::size_t n = g.order.size();
    std::array<std::int32_t, dim> lo{}, hi{};
    sub_cells_within(cr, sg, p, r, g.layout.images(), g.layout.world, lo, hi);
    std::array<std::int32_t, dim> j = lo;
    for (;;) {
        std::size_t c = 0;
        for (std::size_t d = dim; d-- > 1;) c = c * static_cast<std::size_t>(sg.n[d]) + static_cast<std::size_t>(j[d]);
        c = sg.first + c * static_cast<std::size_t>(sg.n[0]);
        const std::size_t e1 = cr.start[c + static_cast<std::size_t>(hi[0]) + 1];
        for (std::size_t e = cr.start[c + static_cast<std::size_t>(lo[0])]; e < e1; ++e) {
            const std::size_t s = cr.slot[e];
            if (g.order[s] == self) continue;
            neighbor<scalar, dim> nb{g.order[s], scalar(0), {}};
            for (std::size_t d = 0; d < dim; ++d) {
                nb.offset[d] = g.layout.world.offset_component(p[d], g.spos[d * n + s], d);
                nb.distance_squared += nb.offset[d] * nb.offset[d];
            }
            f(nb);
        }
        std::size_t d = 1;
        for (; d < dim && ++j[d] > hi[d]; ++d) j[d] = lo[d];
        if (d == dim) return;
    }
}

// Every other boid within `radius` of boid i and inside the cone, to `sink`: in cell
// order, and in a crowded cell of a dense grid only the sub-cells the ball reaches.
template <class V, bool Hashed, class Sink>
void for_each_within(const grid_cells<V, Hashed>& g, std::size_t i, scalar_t<V> radius,
                     const vision_cone<scalar_t<V>, dimension_v<V>>& cone, Sink&& sink) {
    using cell_t = typename grid_cells<V, Hashed>::cell_t;
    const std::size_t si = g.slot[i];
    const scalar_t<V> r2 = radius * radius;
    const auto p = g.position_in(si);
    const std::int32_t reach = g.layout.reach_for(radius);
    auto offer = [&](const neighbor<scalar_t<V>, dimension_v<V>>& nb) {
        if (nb.distance_squared <= r2 && cone.sees(nb.offset, nb.distance_squared)) sink(nb);
    };
    auto visit = [&](std::size_t s0, std::size_t s1, const cell_t* only) {
        if constexpr (!Hashed) {
            for (std::size_t s = s0; !g.crowded.grids.empty() && s < s1;) {  // (a run holds whole cells)
                const std::size_t b = g.layout.bucket_of(g.scell[s]), e = g.bucket_start[b + 1];
                const auto* sg = e - g.bucket_start[b] > crowded_cell_size ? g.crowded.find(b) : nullptr;
                if (sg != nullptr) {
                    scan_slots(g, i, p, s0, g.bucket_start[b], only, offer);
                    scan_sub_cells(g, *sg, i, p, radius, offer);
                    s0 = e;
                }
                s = e;
            }
        }
        scan_slots(g, i, p, s0, s1, only, offer);
    };
    if (g.too_many_cells(reach)) visit(0, g.order.size(), nullptr);  // a scan is cheaper
    else for_each_cell_in_box(g, g.scell[si], reach, visit);
}

// Whether more than k others share slot si's very spot in a stack of a crowded cell's
// sub-cell (stack_on_own_spot): its k nearest are then the stack's first k others
// (nearest_on_own_spot).
template <class V>
[[nodiscard]] bool on_crowded_spot(const grid_cells<V, false>& g, std::size_t si, std::size_t k) noexcept {
    return stack_on_own_spot(g, si).count > k;
}

// Boids stacked on one spot (a flock spawned there): a boid's k nearest are the k of
// lowest index on its very spot, which share its cell, whose slots are in index
// order. Found in the stack of its sub-cell where it stands in one (crowded.hpp), else
// among the cell's first slots (at most 4k + 64 looked at), when no other cell can hold
// a boid as near; false otherwise, having reported nothing (a dense grid only).
template <class V>
bool nearest_on_own_spot(const grid_cells<V, false>& g, std::size_t si, k_nearest<scalar_t<V>, dimension_v<V>>& out,
                         scalar_t<V> max_radius = std::numeric_limits<scalar_t<V>>::infinity()) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>;
    const std::size_t k = out.capacity();
    const std::size_t s0 = g.cell_begin_of(si), s1 = g.cell_end_of(si);
    if (s1 - s0 <= k || !(scalar(0) <= max_radius * max_radius)) return false;  // (a NaN radius finds none)
    const std::size_t self = g.order[si];
    const auto p = g.position_in(si);
    const auto stack = stack_on_own_spot(g, si);
    if (stack.count > k) {  // itself and at least k others
        const auto& cr = g.crowded;
        for (std::size_t e = stack.first, found = 0; found < k; ++e) {
            const std::size_t s = cr.slot[e];
            bool on = g.order[s] != self;
            for (std::size_t d = 0; on && d < dim; ++d) on = cr.pos[d * cr.stride + e] == p[d];
            out.add_candidates(1);
            if (on) {
                scan_slots(g, self, p, s, s + 1, nullptr, [&](const neighbor<scalar, dim>& nb) { out(nb); });
                ++found;
            }
        }
        return true;
    }
    if (!apart_from_other_cells(g, si)) return false;
    const std::size_t end = std::min(s1, s0 + 4 * k + 64);
    std::size_t found = 0;
    auto on_spot = [&](const neighbor<scalar, dim>& nb) {
        if (nb.distance_squared == scalar(0)) {
            out(nb);
            ++found;
        }
    };
    for (std::size_t s = s0; s < end && found < k; s += 8) {
        const std::size_t e = std::min(end, s + 8);
        out.add_candidates(e - s);
        scan_slots(g, self, p, s, e, nullptr, on_spot);
    }
    if (found >= k) return true;
    out.clear();
    return false;
}

}  // namespace detail
}  // namespace boids

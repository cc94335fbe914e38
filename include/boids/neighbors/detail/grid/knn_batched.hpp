// boids/neighbors/detail/grid/knn_batched.hpp - the k nearest of every boid in a range of
// slots: the boids of one cell share one block of candidates (the block of cells
// around theirs, copied once), which each scans in a single loop. The fast way to
// ask for every boid's neighbours; the same answers as one query at a time.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include "knn.hpp"
#include "runs.hpp"

namespace boids {
namespace detail {

inline constexpr std::size_t knn_block_size = 512;  // candidates in one cell's block

// The block path of nearest_in_slots (a dense grid whose runs cover each block once).
template <class V, class One, class Visit>
void batched_nearest(const grid_cells<V, false>& g, const grid_runs<V>& runs, const run_plan& plan, std::size_t b,
                     std::size_t e, k_nearest<scalar_t<V>, dimension_v<V>>& out, scalar_t<V> max_radius, One& one,
                     Visit& visit) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>;
    const std::size_t k = out.capacity();
    const bool torus = g.layout.torus();
    // Cells across a torus's seam: a cell whose boids all lie on one side of it gets
    // each candidate's shift (its image less the cell's: grid_runs::seam_image);
    // any other, each boid on its own.
    const bool seams = runs.across_seams();
    const auto& lay = g.layout;
    constexpr std::size_t cap = knn_block_size;
    constexpr std::size_t room = cap + 2 * distance_padding<scalar>;
    scalar bx[dim][room];      // the block: positions, per axis
    scalar bshift[dim][room];  // and each candidate's torus image
    const scalar* block_x[dim];
    const scalar* block_shift[dim];
    for (std::size_t d = 0; d < dim; ++d) {
        block_x[d] = bx[d];
        block_shift[d] = bshift[d];
    }
    std::uint32_t bslot[room];
    scalar d2[room];
    std::uint32_t slot[room];
    const std::size_t n = g.order.size();
    const scalar r2 = max_radius * max_radius;
    // The widest ball any block holds whole: the second try of a query whose
    // ball held fewer than k, before the query on its own.
    const scalar wmin = lay.narrowest_cell();
    const scalar t_wide = wmin - scalar(2) * lay.slack(wmin);
    bool wide_fits = true;
    for (std::size_t d = 0; d < dim; ++d)
        wide_fits = wide_fits && std::ceil((t_wide + lay.slack(t_wide)) / lay.w[d]) <= scalar(1);
    const scalar t2_wide = std::min(t_wide * t_wide, r2);
    for (std::size_t s = b; s < e;) {
        const std::size_t cell_end = std::min(g.cell_end_of(s), e);
        const std::size_t cell_begin = g.cell_begin_of(s);
        scalar cell_image[dim] = {};
        if (seams && runs.one_side_image(cell_begin, g.cell_end_of(s), cell_image) == nullptr) {
            for (; s < cell_end; ++s) one(s);
            continue;
        }
        std::size_t size = 0, self_base = 0;
        bool fits = true;
        auto add = [&](std::size_t r0, std::size_t r1, const scalar* shift) {
            if (!fits || r1 - r0 > cap - size) {
                fits = false;
                return;
            }
            if (cell_begin >= r0 && cell_begin < r1) self_base = size + (cell_begin - r0);
            // Whole packs, as fill_block copies (flock/detail/kernel.hpp): runs are short.
            // Lanes past the run are read (the grid's arrays are padded) and
            // written, then overwritten by the next run or the padding below.
            using P = pack<scalar>;
            const std::size_t m = r1 - r0;
            for (std::size_t d = 0; d < dim; ++d) {
                const scalar* from = g.spos.data() + d * n + r0;
                for (std::size_t j = 0; j < m; j += P::lanes) P::store(bx[d] + size + j, P::load(from + j));
                if (torus) {
                    const typename P::f image = P::splat(shift != nullptr ? shift[d] : scalar(0));
                    for (std::size_t j = 0; j < m; j += P::lanes) P::store(bshift[d] + size + j, image);
                }
            }
            for (std::size_t j = 0; j < m; ++j) bslot[size + j] = static_cast<std::uint32_t>(r0 + j);
            size += m;
        };
        if (torus) runs.for_each_run_with_image(s, plan, add);
        else runs.for_each_run(s, plan, [&](std::size_t r0, std::size_t r1) { add(r0, r1, nullptr); });
        if (!fits) {
            for (; s < cell_end; ++s) one(s);
            continue;
        }
        for (std::size_t j = size; j < size + distance_padding<scalar>; ++j) {  // finite lanes past the end
            for (std::size_t d = 0; d < dim; ++d) bx[d][j] = bshift[d][j] = scalar(0);
        }
        bool shifted = torus;  // (x - p) + shift, or where no shift can be other than 0, x - p
        bool across[dim] = {};
        for (std::size_t d = 0; d < dim && seams; ++d) {
            across[d] = runs.block_across_seam(s, plan.reach, d);
            shifted = shifted || across[d];
        }
        for (std::size_t d = 0; d < dim && seams && shifted; ++d) {
            if (across[d]) runs.seam_shifts(bx[d], size, d, cell_image[d], bshift[d]);
            else std::fill(bshift[d], bshift[d] + size, scalar(0));
        }
        // The ball is the same for every boid of the cell: its radius, and whether
        // the block reaches past it on every axis.
        const scalar guess = guess_radius_squared(lay, g.scell[s], size, k);
        const scalar t2 = std::min(guess > scalar(0) ? guess : lay.w[0] * lay.w[0], r2);
        const scalar t = std::sqrt(t2);
        bool inside_block = true;
        for (std::size_t d = 0; d < dim; ++d)
            inside_block = inside_block && std::ceil((t + lay.slack(t)) / lay.w[d]) <= scalar(1);
        const bool wide_inside = wide_fits && t_wide > t;
        for (; s < cell_end; ++s) {
            const std::array<scalar, dim> p = g.position_in(s);
            bool finite = true;
            for (std::size_t d = 0; d < dim; ++d) finite = finite && std::isfinite(p[d]);
            if (!finite || !inside_block) {  // not finite, or a ball wider than the block
                one(s);
                continue;
            }
            // (x - p) + shift: within the block's reach, the minimum image exactly
            // as append_distances computes it
            if (shifted) block_distances<true>(g.avx, block_x, block_shift, p.data(), size, d2);
            else block_distances<false>(g.avx, block_x, block_shift, p.data(), size, d2);
            out.add_candidates(size);
            d2[self_base + (s - cell_begin)] = std::numeric_limits<scalar>::infinity();
            std::size_t within = count_within(g.avx, d2, size, t2);
            scalar ball2 = t2;
            if (within < k && wide_inside && t2 < t2_wide) {
                ball2 = t2_wide;
                within = count_within(g.avx, d2, size, ball2);
            }
            out.clear();
            if ((within < k && ball2 < r2) || !select_nearest(g, p, d2, bslot, slot, size, ball2, within, out)) {
                one(s);
                continue;
            }
            visit(s, static_cast<const k_nearest<scalar, dim>&>(out));
        }
    }
}

// out is filled for the boid in every slot of [b, e), exactly as nearest_in_slot
// fills it, then visit(s, out) is called, slot by slot.
template <class V, bool Hashed, class Visit>
void nearest_in_slots(const grid_cells<V, Hashed>& g, std::size_t b, std::size_t e,
                      k_nearest<scalar_t<V>, dimension_v<V>>& out, scalar_t<V> max_radius, Visit&& visit) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>;
    BOIDS_ASSERT(b <= e && e <= g.order.size(), "grid: slot range out of range");
    auto one = [&](std::size_t s) {
        nearest_in_slot(g, s, out, max_radius, scalar(0));
        visit(s, static_cast<const k_nearest<scalar, dim>&>(out));
    };
    if constexpr (!Hashed) {
        const std::size_t k = out.capacity();
        const grid_runs<V> runs(g);
        const run_plan plan{1, false};
        if (g.near_ready && k > 0 && k <= max_nearest_k && !g.too_many_cells(1) &&
            (!g.layout.torus() || runs.have_one_image(plan))) {
            batched_nearest(g, runs, plan, b, e, out, max_radius, one, visit);
            return;
        }
    }
    for (std::size_t s = b; s < e; ++s) one(s);
}

}  // namespace detail
}  // namespace boids

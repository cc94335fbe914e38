// boids/neighbors/detail/grid/runs.hpp - a dense grid as the fused flock step and the
// batched k-nearest query read it: runs of slots that hold a block's candidates.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include "walk.hpp"

namespace boids {
namespace detail {

// How a query of a given radius walks the grid; the same for every boid, so a step
// works it out once.
struct run_plan {
    std::int32_t reach;
    bool scan_all;  // more cells than boids in the block: one run over everything
};

// A dense grid as the fused flock step and the batched k-nearest query read it: the
// slots in cell order, the positions per axis, and the runs of slots that hold every
// candidate of a boid's block of cells. It refers to the grid, which must outlive it
// and not be rebuilt meanwhile.
template <class V>
class grid_runs {
public:
    using scalar = scalar_t<V>;
    static constexpr std::size_t dim = dimension_v<V>;
    static constexpr std::size_t padding = grid_cells<V, false>::padding;

    explicit grid_runs(const grid_cells<V, false>& g) noexcept : g_(&g) {}

    // The k nearest of the boid in slot s where more than k others share its very spot
    // (nearest_on_own_spot); false, having reported nothing, otherwise.
    bool nearest_on_own_spot(std::size_t s, k_nearest<scalar, dim>& out) const {
        return detail::nearest_on_own_spot(*g_, s, out);
    }
    // Whether nearest_on_own_spot finds its k nearest at once, in a sub-cell.
    [[nodiscard]] bool on_crowded_spot(std::size_t s, std::size_t k) const noexcept {
        return detail::on_crowded_spot(*g_, s, k);
    }

    [[nodiscard]] std::size_t size() const noexcept { return g_->order.size(); }
    [[nodiscard]] const world_for<V>& world() const noexcept { return g_->layout.world; }
    // Whether offsets need their minimum image: over a torus whose flock lies within
    // less than half of it on every axis, not across a seam, the cells cover the flock
    // and direct offsets are minimum images.
    [[nodiscard]] bool offsets_need_images() const noexcept { return g_->layout.images(); }
    // Whether the cells follow the flock across a seam of the torus (see
    // grid_layout::local), and then the image of a position there (seam_image).
    [[nodiscard]] bool across_seams() const noexcept { return g_->layout.images() && !g_->layout.torus(); }
    // Whether the box of cells within `reach` of the cell holding `slot` may hold boids
    // of both sides of a seam on axis d: it lies on both, or ends in a cell beside the
    // seam, where rounding may have put a boid of the other side.
    [[nodiscard]] bool block_across_seam(std::size_t slot, std::int32_t reach, std::size_t d) const noexcept {
        const std::int32_t c = g_->scell[slot][d], first_past = g_->layout.seam_cell[d];
        return g_->layout.seam[d] && c - reach <= first_past && c + reach + 1 >= first_past;
    }
    [[nodiscard]] scalar seam_image(scalar x, std::size_t d) const noexcept { return g_->layout.seam_image(x, d); }
    // The image of the boids of slots [s0, s1) (one cell's) per axis, into `image`, where
    // they all lie on the same side of every seam; else null.
    const scalar* one_side_image(std::size_t s0, std::size_t s1, scalar (&image)[dim]) const noexcept {
        const std::size_t n = g_->order.size();
        for (std::size_t d = 0; d < dim; ++d) image[d] = seam_image(g_->spos[d * n + s0], d);
        for (std::size_t s = s0 + 1; s < s1; ++s)
            for (std::size_t d = 0; d < dim; ++d)
                if (seam_image(g_->spos[d * n + s], d) != image[d]) return nullptr;
        return image;
    }
    // The shifts of positions x[0, m) seen from a cell of image `from` (seam_image per
    // candidate, less it), on an axis whose cells lie across the seam.
    void seam_shifts(const scalar* x, std::size_t m, std::size_t d, scalar from, scalar* shift) const noexcept {
        const scalar cut = g_->layout.cut[d], past = g_->layout.world.size[d] - from, before = -from;
        for (std::size_t k = 0; k < m; ++k) shift[k] = x[k] < cut ? past : before;
    }
    [[nodiscard]] std::array<std::int32_t, dim> cells_per_axis() const noexcept { return g_->layout.n; }
    [[nodiscard]] span<const std::size_t> order() const noexcept { return {g_->order.data(), g_->order.size()}; }
    [[nodiscard]] std::size_t slot_of(std::size_t i) const noexcept { return g_->slot[i]; }
    // Positions along axis d in slot order, readable `padding` slots past the end.
    [[nodiscard]] span<const scalar> axis(std::size_t d) const noexcept { return {g_->axis(d), g_->order.size()}; }
    // Whether the grid sized its cells for a query of a boid's few nearest (cells_for_query).
    [[nodiscard]] bool sized_for_nearest() const noexcept { return g_->nearest_reach > 0; }
    // And then how many rings of cells around a boid's own should hold them (1 or 2).
    [[nodiscard]] std::int32_t nearest_reach() const noexcept { return g_->nearest_reach; }
    // The grid itself, for the step's boids in crowded cells (flock/detail/sub_cells.hpp).
    [[nodiscard]] const grid_cells<V, false>& cells() const noexcept { return *g_; }
    // Whether every position of the last build lies in the box [0, size) on every axis.
    [[nodiscard]] bool all_in_box() const noexcept { return g_->inside; }
    // One past the last slot of the cell that holds `slot`.
    [[nodiscard]] std::size_t cell_end_of(std::size_t slot) const noexcept { return g_->cell_end_of(slot); }
    // The cell that holds `slot`, as its index along each axis.
    [[nodiscard]] const std::array<std::int32_t, dim>& cell_of(std::size_t slot) const noexcept {
        return g_->scell[slot];
    }

    [[nodiscard]] run_plan plan_for(scalar radius) const noexcept {
        const std::int32_t reach = g_->layout.reach_for(radius);
        return {reach, g_->too_many_cells(reach)};
    }

    // The runs of slots [s0, s1) holding every candidate within the plan's radius of
    // the boid in `slot` (itself included), each slot in exactly one run: visit(s0, s1).
    template <class Visit>
    void for_each_run(std::size_t slot, const run_plan& plan, Visit&& visit) const {
        if (plan.scan_all) {
            visit(std::size_t{0}, g_->order.size());
            return;
        }
        for_each_cell_in_box(
            *g_, g_->scell[slot], plan.reach,
            [&](std::size_t s0, std::size_t s1, const std::array<std::int32_t, dim>*) { visit(s0, s1); });
    }

    // How near to the boid in `slot` a boid outside the box of cells within `reach` of
    // its cell can be (less rounding slack; infinity when that box holds every cell):
    // when a boid's nearest lie closer than this, the box holds them all.
    [[nodiscard]] scalar outside_distance(std::size_t slot, std::int32_t reach) const noexcept {
        const auto& lay = g_->layout;
        const auto& c = g_->scell[slot];
        scalar nearest = std::numeric_limits<scalar>::infinity();
        for (std::size_t d = 0; d < dim; ++d) {
            const scalar x = g_->spos[d * g_->order.size() + slot];
            const std::int32_t below = c[d] - reach - 1, above = c[d] + reach + 1;
            if (lay.torus()) {
                if (lay.n[d] <= 2 * reach + 1) continue;  // every cell of this axis is in the box
                nearest = std::min(nearest, std::min(lay.cell_gap(x, below, d), lay.cell_gap(x, above, d)));
            } else {  // the edge cells reach out to infinity: cell_gap says so
                if (below >= 0) nearest = std::min(nearest, lay.cell_gap(x, below, d));
                if (above <= lay.n[d] - 1) nearest = std::min(nearest, lay.cell_gap(x, above, d));
            }
        }
        return nearest;
    }

    // Whether for_each_run_with_image applies: a torus at least 2 reach + 1 cells
    // across on every axis, so each cell of the block is reached once, through one image.
    [[nodiscard]] bool have_one_image(const run_plan& plan) const noexcept {
        if (!g_->layout.torus() || plan.scan_all) return false;
        for (std::size_t d = 0; d < dim; ++d)
            if (g_->layout.n[d] < 2 * plan.reach + 1) return false;
        return true;
    }
    // The runs of for_each_run, in the same order, each with the shift (per axis:
    // -size, 0 or +size) that takes its candidates to the image nearest the query:
    // visit(s0, s1, shift). For a candidate within the radius, (x - p) + shift is the
    // minimum-image offset. Only when have_one_image(plan).
    template <class Visit>
    void for_each_run_with_image(std::size_t slot, const run_plan& plan, Visit&& visit) const {
        BOIDS_ASSERT(have_one_image(plan), "grid: runs reach some cells through two images");
        using cell_t = std::array<std::int32_t, dim>;
        const auto& lay = g_->layout;
        const cell_t& c = g_->scell[slot];
        const std::int32_t r = plan.reach;
        std::array<std::int32_t, dim> lo{}, hi{};
        for (std::size_t d = 1; d < dim; ++d) {
            lo[d] = -r;
            hi[d] = r;
        }
        cell_t o{};
        iterate_box(lo, hi, o, 0, [&](const cell_t& off) {
            cell_t cell{};
            scalar shift[dim] = {};
            for (std::size_t d = 1; d < dim; ++d) {
                std::int32_t j = c[d] + off[d];
                if (j < 0) {  // the cell past the low edge: its boids sit a world size lower
                    j += lay.n[d];
                    shift[d] = -lay.world.size[d];
                } else if (j >= lay.n[d]) {
                    j -= lay.n[d];
                    shift[d] = lay.world.size[d];
                }
                cell[d] = j;
            }
            std::int32_t x0 = c[0] - r, x1 = c[0] + r;
            auto run = [&](std::int32_t a, std::int32_t b) {
                cell[0] = a;
                const std::size_t b0 = lay.bucket_of(cell);
                visit(g_->bucket_start[b0], g_->bucket_start[b0 + static_cast<std::size_t>(b - a) + 1],
                      static_cast<const scalar*>(shift));
            };
            if (x0 < 0) {
                shift[0] = -lay.world.size[0];
                run(lay.n[0] + x0, lay.n[0] - 1);
                shift[0] = scalar(0);
                x0 = 0;
            } else if (x1 >= lay.n[0]) {
                shift[0] = lay.world.size[0];
                run(0, x1 - lay.n[0]);
                shift[0] = scalar(0);
                x1 = lay.n[0] - 1;
            }
            run(x0, x1);
        });
    }

private:
    const grid_cells<V, false>* g_;
};

}  // namespace detail
}  // namespace boids

// boids/neighbors/detail/grid/index.hpp - what uniform_grid and hashed_grid have in common: the
// index data, its build, and the queries a user makes of it, each a call into the
// one-concern headers beside this one.
#pragma once
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>
#include "../../../strided.hpp"
#include "build.hpp"
#include "cell_size.hpp"
#include "knn_batched.hpp"

namespace boids {
namespace detail {

template <class V, bool Hashed>
class grid_index {
public:
    using scalar = scalar_t<V>;
    static constexpr std::size_t dim = dimension_v<V>;

    grid_index() = default;
    // cell_size: the edge of a cell, usually the radius of the query you make most
    // (> 0). In a box world the cells are widened so a whole number of them fills each
    // side. A cell size that is not > 0 (an assert where asserts are on) becomes
    // infinite: one cell for the whole flock, slow but never a lost neighbour.
    grid_index(const world_for<V>& w, scalar cell_size) noexcept {
        BOIDS_ASSERT(cell_size > 0 && std::isfinite(cell_size), "grid: cell size must be finite and > 0");
        cells_.layout.world = w;
        cells_.layout.cell_size = own_cell_ = grid_layout<V, Hashed>::usable_cell(cell_size);
    }

    // A new cell edge for the next build(), keeping the buffers (no allocation). A
    // size set here is kept: serve_queries no longer picks one.
    void set_cell_size(scalar cell_size) noexcept {
        BOIDS_ASSERT(cell_size > 0 && std::isfinite(cell_size), "grid: cell size must be finite and > 0");
        cells_.layout.cell_size = own_cell_ = grid_layout<V, Hashed>::usable_cell(cell_size);
        picks_cells_ = false;
    }

    // The query the next builds serve, so that the grid picks its cell size from the
    // positions of each build: every boid within `radius`, of which the `nearest`
    // nearest count (SIZE_MAX: all), with a cone that leaves `seen` of the directions
    // (1: none; in 3D the sphere's share, (1 - cos(angle / 2)) / 2). flock_step says so
    // before each build; a dense grid then sizes its
    // cells so a boid's nearest lie in the cells around its own (see cells_for_query).
    // `within_radius` false: a topological query, the `nearest` nearest within
    // `radius` (its cells are sized by the flock's density alone). A radius of 0: no
    // such query, the cell size given at construction. The neighbours found never
    // depend on the cell size. A metric query of every boid within the radius
    // (`nearest` SIZE_MAX) skips the sub-cells of crowded cells (crowded.hpp), which
    // only queries of the nearest read.
    void serve_queries(scalar radius, std::size_t nearest, scalar seen, bool within_radius = true) noexcept {
        query_ = {radius, nearest, seen, within_radius, picks_cells_ && !Hashed && radius > 0 && std::isfinite(radius)};
    }
    // Whether serve_queries picks the cell size (until set_cell_size).
    [[nodiscard]] bool picks_cell_size() const noexcept { return picks_cells_; }

    [[nodiscard]] const world_for<V>& world() const noexcept { return cells_.layout.world; }
    [[nodiscard]] std::size_t size() const noexcept { return cells_.order.size(); }
    [[nodiscard]] scalar cell_size() const noexcept { return cells_.layout.cell_size; }
    [[nodiscard]] std::array<std::int32_t, dim> cells_per_axis() const noexcept { return cells_.layout.n; }
    [[nodiscard]] std::size_t bucket_count() const noexcept {
        return cells_.bucket_start.empty() ? 0 : cells_.bucket_start.size() - 1;
    }
    // Boid indices in cell order (slot s holds boid order()[s]), and the slot of boid i.
    [[nodiscard]] span<const std::size_t> order() const noexcept { return {cells_.order.data(), cells_.order.size()}; }
    [[nodiscard]] std::size_t slot_of(std::size_t i) const noexcept { return cells_.slot[i]; }

    void build(span<const V> positions) { build(positions, sequential{}, 1); }
    // Positions that are members of your own structs (strided.hpp): gathered into the
    // grid's own array first (no allocation once it has the flock's size).
    void build(strided_span<const V> positions) {
        gathered_.resize(positions.size());
        for (std::size_t i = 0; i < positions.size(); ++i) gathered_[i] = positions[i];
        build(span<const V>(gathered_.data(), gathered_.size()));
    }
    // The same index built by `tasks` tasks of `executor` (executor.hpp), bit for bit
    // the sequential build's (dense grids; a hashed grid builds sequentially).
    template <class Executor>
    void build(span<const V> positions, Executor&& executor, std::size_t tasks) {
        if constexpr (Hashed) {
            build_grid(cells_, scratch_, positions);
        } else if (!query_.active) {
            cells_.layout.cell_size = own_cell_;
            build_grid(cells_, scratch_, positions, executor, tasks);
            cells_.nearest_reach = 0;
        } else {  // at the query's radius; again with smaller cells where the flock is dense
            cells_.layout.cell_size = query_.radius;
            build_grid(cells_, scratch_, positions, executor, tasks);
            // A flock much smaller than a cell looks sparser than it is from cells of the
            // radius: measured again from the finer cells, while that keeps halving them.
            auto pick = cells_for_query(cells_, query_.radius, query_.nearest, query_.seen, query_.within_radius);
            for (int round = 0; pick.size < cells_.layout.cell_size; ++round) {
                cells_.layout.cell_size = pick.size;
                build_grid(cells_, scratch_, positions, executor, tasks);
                // (Cells widened by the cap on their count: finer ones cannot be had.)
                if (round == max_refinements || cells_.layout.narrowest_cell() > scalar(2) * pick.size) break;
                const auto again =
                    cells_for_query(cells_, query_.radius, query_.nearest, query_.seen, query_.within_radius);
                if (!(again.size < scalar(0.5) * pick.size)) break;
                pick = again;
            }
            cells_.nearest_reach = pick.nearest_reach;
        }
        // Sub-cells of crowded cells serve queries of the nearest: not an uncapped metric step's.
        if constexpr (!Hashed) {
            if (!query_.active || !query_.within_radius || query_.nearest != no_nearest_cap) build_crowded(cells_);
            else cells_.crowded.grids.clear();
        }
    }

    // Every other boid within `radius` of boid i and inside the cone, to `sink`.
    template <class Sink>
    void for_each_within(std::size_t i, scalar radius, const vision_cone<scalar, dim>& cone, Sink&& sink) const {
        BOIDS_ASSERT(i < cells_.order.size(), "grid: query index out of range");
        detail::for_each_within(cells_, i, radius, cone, sink);
    }
    template <class Sink>
    void for_each_within(std::size_t i, scalar radius, Sink&& sink) const {
        for_each_within(i, radius, vision_cone<scalar, dim>{}, sink);
    }

    // The k nearest other boids within max_radius (k = out.capacity()), ties to the
    // lower index. `radius_hint` (optional, > 0): a guess of the k-th distance, such as
    // last step's; a good one saves the density estimate. It never changes the result.
    void nearest(std::size_t i, k_nearest<scalar, dim>& out,
                 scalar max_radius = std::numeric_limits<scalar>::infinity(), scalar radius_hint = scalar(0)) const {
        BOIDS_ASSERT(i < cells_.order.size(), "grid: query index out of range");
        detail::nearest_in_slot(cells_, cells_.slot[i], out, max_radius, radius_hint);
    }
    // The same for the boid in slot s (order()[s]): loops that walk the grid in cell
    // order, where neighbouring queries share cells in cache, call this.
    void nearest_in_slot(std::size_t s, k_nearest<scalar, dim>& out,
                         scalar max_radius = std::numeric_limits<scalar>::infinity(),
                         scalar radius_hint = scalar(0)) const {
        BOIDS_ASSERT(s < cells_.order.size(), "grid: query slot out of range");
        detail::nearest_in_slot(cells_, s, out, max_radius, radius_hint);
    }
    // The k nearest of the boid in every slot of [b, e), as nearest_in_slot finds them:
    // out is filled, then visit(s, out) is called, slot by slot. The fast way to ask
    // for every boid's neighbours.
    template <class Visit>
    void nearest_in_slots(std::size_t b, std::size_t e, k_nearest<scalar, dim>& out, scalar max_radius,
                          Visit&& visit) const {
        detail::nearest_in_slots(cells_, b, e, out, max_radius, visit);
    }

protected:
    grid_cells<V, Hashed> cells_;

private:
    struct served_query {
        scalar radius = scalar(0);
        std::size_t nearest = 0;
        scalar seen = scalar(1);
        bool within_radius = true;
        bool active = false;
    };
    served_query query_{};
    static constexpr int max_refinements = 3;  // builds after the first finer one, at most
    static constexpr std::size_t no_nearest_cap = std::numeric_limits<std::size_t>::max();  // serve_queries: all
    bool picks_cells_ = true;
    scalar own_cell_ = scalar(1);  // the cell size given (at construction or by set_cell_size)
    grid_build_scratch<V, Hashed> scratch_;
    std::vector<V> gathered_;  // build(strided_span)'s copy of the positions
};

}  // namespace detail
}  // namespace boids

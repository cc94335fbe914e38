// boids/neighbors/detail/grid/cell_size.hpp - the cell size a dense grid picks for a query
// from the flock it holds: cells as wide as the radius where the flock is sparse;
// where a boid sees more than it keeps, cells so small that its nearest lie in the
// cells around its own, so that finding them costs what they cost, not what the
// crowd within the radius costs.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include "cells.hpp"

namespace boids {
namespace detail {

// How many boids share a boid's cell, on average over the boids (sum of squared
// counts over the flock): what a query from a typical boid meets, however unevenly
// the flock fills the grid. With `leave_out_crowds`, cells holding more than
// crowded_cell_size boids and over 4 times what the other boids meet are left out:
// their boids read sub-cells (crowded.hpp), and counted in they would size every
// cell of a flock spread over the world for a spawn of boids within a pixel beside it.
template <class V>
[[nodiscard]] double boids_per_cell_seen(const grid_cells<V, false>& g, bool leave_out_crowds = false) noexcept {
    if (g.order.empty()) return 0;
    auto seen_in_cells_up_to = [&](std::size_t most) {
        double sum = 0, boids = 0;
        for (std::size_t b = 0; b + 1 < g.bucket_start.size(); ++b) {
            const std::size_t count = g.bucket_start[b + 1] - g.bucket_start[b];
            if (count > most) continue;
            const auto c = static_cast<double>(count);
            sum += c * c;
            boids += c;
        }
        return boids > 0 ? sum / boids : 0.0;
    };
    const std::size_t all = std::numeric_limits<std::size_t>::max();
    if (!leave_out_crowds || g.most_in_a_cell <= crowded_cell_size) return seen_in_cells_up_to(all);
    const double rest = seen_in_cells_up_to(crowded_cell_size);
    if (!(rest > 0)) return seen_in_cells_up_to(all);
    const double most = std::fmax(static_cast<double>(crowded_cell_size), 4 * rest);
    return seen_in_cells_up_to(static_cast<std::size_t>(most));
}

// The cell size a query is served best by, and whether it was sized for the nearest.
template <class S>
struct cell_choice {
    S size;
    // Cells sized by the ball that holds a boid's nearest: the rings of cells around a
    // boid's own that should hold them; 0: not sized so.
    std::int32_t nearest_reach = 0;
};

// For a grid built with cells of about `radius`: where a typical boid sees more than
// twice its `nearest` within the radius (with a cone that leaves `seen` of the
// directions: of the circle in 2D, of the sphere in 3D), cells about as wide as the
// ball that holds them, so that they lie in the box of cells around its own (the
// fused step proves it boid by boid, and looks ring by ring further where they do
// not); for a metric query never below a 64th of the radius in 2D, so that the
// whole radius's box, which a boid the rings cannot prove reads, stays about 129
// rows; in 3D a 256th (a box there costs the square of its width in rows, but at most
// the grid's rows: its cells are capped at about 8 a boid; and a spawn's first shell,
// a unit or two across inside a radius of 20, packs hundreds into a 64th's cell); a
// topological query (`within_radius` false: the radius only bounds it) has no floor.
// Where a boid sees more than its nearest but that ball is too wide for such cells to
// save much (a cap of hundreds: cells of 0.85 radius and more), or where cells of
// half the ball's radius would still hold several boids each (a cap of hundreds in
// a flock packed tighter still: a box of them 2.75 times the ball's radius across
// reads a fifth of what the box of cells of the ball does, in 2D), a metric query
// gets those cells, two rings of which hold them, as long as they are under 0.45 of
// the radius (reading the whole view radius needs a box 2.5 view radii across).
// Otherwise, where cells of the radius hold many, cells of half of it (a block 2.5
// radii across, not 3, wastes fewer candidates, and still serves several boids); else
// the radius.
template <class V>
[[nodiscard]] cell_choice<scalar_t<V>> cells_for_query(const grid_cells<V, false>& g, scalar_t<V> radius,
                                                       std::size_t nearest, scalar_t<V> seen,
                                                       bool within_radius = true) noexcept {
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    const bool few_nearest = nearest != std::numeric_limits<std::size_t>::max();  // read sub-cells where crowded
    const double per_cell = boids_per_cell_seen(g, few_nearest);
    if (!(per_cell > 1)) return {radius, 0};
    double volume = 1;  // of a cell as built
    for (std::size_t d = 0; d < D; ++d) volume *= static_cast<double>(g.layout.w[d]);
    const double density = per_cell / volume;
    const double share = std::fmin(std::fmax(static_cast<double>(seen), 0.05), 1.0);
    const double r = static_cast<double>(radius);
    const double ball = D == 2   ? pi<double> * r * r
                        : D == 3 ? 4.0 / 3.0 * pi<double> * r * r * r
                                 : std::pow(2 * r, double(D));
    const double seen_count = density * ball * share;
    if (few_nearest && seen_count > static_cast<double>(nearest)) {
        // The nearest within a ball of volume nearest / (share density).
        const double k_ball = static_cast<double>(nearest) / (share * density);
        const double k_radius = radius_of_ball(k_ball, D);
        // (Twice that radius in 2D; in 3D, where the box of cells around a boid's own
        // holds 27 cells, not 9, one and a half times.)
        const double wide = (D == 2 ? 2.0 : 1.5) * k_radius;
        const double metric_floor = r / (D == 2 ? 64.0 : 256.0);
        const double cell = within_radius ? std::fmax(wide, metric_floor) : wide;
        const double ringed = 0.55 * k_radius;  // two rings of it: 1.1 times the ball's radius
        // Two rings are for a wide ball; one under a 16th of the radius (a cap of tens)
        // is served by the wide cells, one ring of which holds it.
        const double ringed_floor = r / 16.0;
        const bool ringed_fits = within_radius && ringed >= ringed_floor && ringed <= 0.45 * r;
        const bool ringed_shared = density * std::pow(ringed, double(D)) >= 8.0;  // boids a cell
        if (ringed_fits && ringed_shared) return {static_cast<S>(ringed), 2};
        if (seen_count > 2.0 * static_cast<double>(nearest) && cell > 0 && cell < 0.85 * r)
            return {static_cast<S>(cell), 1};
        if (ringed_fits) return {static_cast<S>(ringed), 2};
    }
    const double half_cell = per_cell / std::pow(2.0, double(D));
    if (within_radius && half_cell * (D == 2 ? 1.0 : 2.0) >= 6.0) return {static_cast<S>(r * 0.5), 0};
    return {radius, 0};
}

}  // namespace detail
}  // namespace boids

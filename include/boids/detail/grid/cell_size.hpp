// boids/detail/grid/cell_size.hpp - the cell size a dense grid picks for a query
// from the flock it holds: cells as wide as the radius where the flock is sparse;
// where a boid sees more than it keeps, cells so small that its nearest lie in the
// cells around its own, so that finding them costs what they cost, not what the
// crowd within the radius costs.
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include "layout.hpp"

namespace boids {
namespace detail {

// How many boids share a boid's cell, on average over the boids (sum of squared
// counts over the flock): what a query from a typical boid meets, however unevenly
// the flock fills the grid.
template <class V>
[[nodiscard]] double boids_per_cell_seen(const grid_cells<V, false>& g) noexcept {
    const std::size_t n = g.order.size();
    if (n == 0) return 0;
    double sum = 0;
    for (std::size_t b = 0; b + 1 < g.bucket_start.size(); ++b) {
        const auto c = static_cast<double>(g.bucket_start[b + 1] - g.bucket_start[b]);
        sum += c * c;
    }
    return sum / static_cast<double>(n);
}

// For a grid built with cells of about `radius`: a smaller cell size when a typical
// boid sees more than its `nearest` within the radius (with a cone that leaves
// `seen` of the directions), else `radius`. The smaller cells hold about twice what
// a boid's nearest need, so that they lie in the box of cells around its own (the
// fused step proves it boid by boid, and looks further where they do not). For a
// metric query never below a sixteenth of the radius, so its reach stays short; a
// topological one (`within_radius` false: the radius only bounds it) has no floor.
template <class V>
[[nodiscard]] scalar_t<V> cells_for_query(const grid_cells<V, false>& g, scalar_t<V> radius, std::size_t nearest,
                                          scalar_t<V> seen, bool within_radius = true) noexcept {
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    constexpr double pi = 3.14159265358979323846;
    const double per_cell = boids_per_cell_seen(g);
    if (!(per_cell > 1)) return radius;
    double volume = 1;  // of a cell as built
    for (std::size_t d = 0; d < D; ++d) volume *= static_cast<double>(g.layout.w[d]);
    const double density = per_cell / volume;
    const double share = std::fmin(std::fmax(static_cast<double>(seen), 0.05), 1.0);
    const double r = static_cast<double>(radius);
    const double ball = D == 2 ? pi * r * r : D == 3 ? 4.0 / 3.0 * pi * r * r * r : std::pow(2 * r, double(D));
    // Few crowded: every boid reads its whole radius. Where cells of the radius hold
    // many, cells of half of it waste fewer candidates (a block of 2.5 radii across,
    // not 3), and each block still serves several boids.
    const double half_cell = per_cell / std::pow(2.0, double(D));
    const bool finer_for_radius = half_cell * (D == 2 ? 1.0 : 2.0) >= 6.0;
    if (nearest == std::numeric_limits<std::size_t>::max() ||
        density * ball * share <= 2.0 * static_cast<double>(nearest))
        return finer_for_radius ? static_cast<S>(r * 0.5) : radius;
    // The nearest within a ball of volume nearest / (share density); cells as wide
    // as twice that ball's radius hold them with room to spare.
    const double k_ball = static_cast<double>(nearest) / (share * density);
    const double k_radius = D == 2   ? std::sqrt(k_ball / pi)
                            : D == 3 ? std::cbrt(k_ball * 3.0 / (4.0 * pi))
                                     : std::pow(k_ball, 1.0 / double(D)) * 0.5;
    const double cell = within_radius ? std::fmax(2.0 * k_radius, r / 16.0) : 2.0 * k_radius;
    if (!(cell > 0)) return radius;
    return cell < 0.7 * r ? static_cast<S>(cell) : radius;
}

}  // namespace detail
}  // namespace boids

// boids/gauges.hpp - numbers that say what a flock is doing.
//   mean_nearest_distance: the mean over boids of the distance to the nearest other
//                          (the lesson's "spacing"), measured as the world measures
//   heading_order:         |mean velocity| / mean speed (1: all fly alike)
//   polarization:          |mean unit heading| (speed-blind order)
// Boids whose state is not finite are left out.
#pragma once
#include <cmath>
#include "neighbors/all_pairs.hpp"
#include "neighbors/query.hpp"

namespace boids {

// With any finder (built here on `positions`); all_pairs when none is given.
template <class V, class Finder,
          class = std::enable_if_t<!std::is_same_v<std::remove_cv_t<Finder>, world_for<V>>>>
[[nodiscard]] scalar_t<V> mean_nearest_distance(span<const V> positions, Finder& finder) {
    using S = scalar_t<V>;
    finder.build(positions);
    neighbor<S, dimension_v<V>> slot[1];
    k_nearest<S, dimension_v<V>> nearest(span<neighbor<S, dimension_v<V>>>(slot, 1), 1);
    double sum = 0;
    std::size_t count = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        if (!boids::is_finite(positions[i])) continue;
        finder.nearest(i, nearest);
        if (nearest.size() == 0) continue;
        sum += std::sqrt(static_cast<double>(nearest[0].distance_squared));
        ++count;
    }
    return count == 0 ? S(0) : static_cast<S>(sum / static_cast<double>(count));
}
template <class V>
[[nodiscard]] scalar_t<V> mean_nearest_distance(span<const V> positions, const world_for<V>& world = {}) {
    all_pairs<V> finder(world);
    return boids::mean_nearest_distance(positions, finder);
}

template <class V>
[[nodiscard]] scalar_t<V> heading_order(span<const V> velocities) noexcept {
    using S = scalar_t<V>;
    V sum = boids::zero<V>();
    double speed = 0;
    for (const V& v : velocities) {
        if (!boids::is_finite(v)) continue;
        sum = boids::add(sum, v);
        speed += static_cast<double>(boids::length(v));
    }
    if (!(speed > 0)) return S(0);
    return static_cast<S>(static_cast<double>(boids::length(sum)) / speed);
}

template <class V>
[[nodiscard]] scalar_t<V> polarization(span<const V> velocities) noexcept {
    using S = scalar_t<V>;
    V sum = boids::zero<V>();
    std::size_t count = 0;
    for (const V& v : velocities) {
        if (!boids::is_finite(v) || boids::is_zero(v)) continue;
        sum = boids::add(sum, boids::normalized_or_zero(v));
        ++count;
    }
    return count == 0 ? S(0) : boids::length(sum) / static_cast<S>(count);
}

} // namespace boids

// boids/gauges.hpp - numbers that say what a flock is doing.
//   mean_nearest_distance: the mean over boids of the distance to the nearest other
//                          (the lesson's "spacing"), measured as the world measures
//   heading_order:         |mean velocity| / mean speed (1: all fly alike)
//   polarization:          |mean unit heading| (speed-blind order)
// Boids whose state is not finite are left out. Each takes your positions or
// velocities as a span, a std::vector or std::array, or a strided_span of members of
// your own structs (strided.hpp).
#pragma once
#include <cmath>
#include <type_traits>
#include <utility>
#include "neighbors/all_pairs.hpp"
#include "neighbors/query.hpp"
#include "strided.hpp"

namespace boids {

namespace detail {
// The vector type a range of vectors holds (a span, a container, a strided_span).
template <class Range>
using element_of = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<const Range&>()[0])>>;

// A gauge's V: the one named (heading_order<vec>(v)) or, with none, what the range holds.
struct deduced {};
template <class Named, class Range>
using vector_for =
    std::conditional_t<std::is_same_v<Named, deduced> || std::is_same_v<Named, Range>, element_of<Range>, Named>;

template <class Range, class = void>
struct is_contiguous : std::false_type {};
template <class Range>
struct is_contiguous<Range, std::void_t<decltype(std::declval<const Range&>().data())>> : std::true_type {};

// A span of a contiguous range, a strided_span of any other.
template <class Range>
[[nodiscard]] auto view_of(const Range& r) noexcept {
    using V = element_of<Range>;
    if constexpr (is_contiguous<Range>::value) return span<const V>(r.data(), r.size());
    else return strided_span<const V>(r);
}
}  // namespace detail

// With any finder (built here on `positions`); all_pairs when none is given.
template <class Named = detail::deduced, class Positions, class Finder, class V = detail::vector_for<Named, Positions>,
          class = std::enable_if_t<!std::is_same_v<std::remove_cv_t<Finder>, world_for<V>>>>
[[nodiscard]] scalar_t<V> mean_nearest_distance(const Positions& positions, Finder& finder) {
    static_assert(std::is_same_v<V, detail::element_of<Positions>>,
                  "mean_nearest_distance<V>: the positions must hold V");
    using S = scalar_t<V>;
    finder.build(detail::view_of(positions));
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
template <class Named = detail::deduced, class Positions, class V = detail::vector_for<Named, Positions>>
[[nodiscard]] scalar_t<V> mean_nearest_distance(const Positions& positions, const world_for<V>& world = {}) {
    static_assert(std::is_same_v<V, detail::element_of<Positions>>,
                  "mean_nearest_distance<V>: the positions must hold V");
    all_pairs<V> finder(world);
    return boids::mean_nearest_distance<V>(positions, finder);
}

template <class Named = detail::deduced, class Velocities, class V = detail::vector_for<Named, Velocities>>
[[nodiscard]] scalar_t<V> heading_order(const Velocities& velocities) noexcept {
    static_assert(std::is_same_v<V, detail::element_of<Velocities>>, "heading_order<V>: the velocities must hold V");
    using S = scalar_t<V>;
    V sum = boids::zero<V>();
    double speed = 0;
    for (std::size_t i = 0; i < velocities.size(); ++i) {
        const V& v = velocities[i];
        if (!boids::is_finite(v)) continue;
        sum = boids::add(sum, v);
        speed += static_cast<double>(boids::length(v));
    }
    if (!(speed > 0)) return S(0);
    return static_cast<S>(static_cast<double>(boids::length(sum)) / speed);
}

template <class Named = detail::deduced, class Velocities, class V = detail::vector_for<Named, Velocities>>
[[nodiscard]] scalar_t<V> polarization(const Velocities& velocities) noexcept {
    static_assert(std::is_same_v<V, detail::element_of<Velocities>>, "polarization<V>: the velocities must hold V");
    using S = scalar_t<V>;
    V sum = boids::zero<V>();
    std::size_t count = 0;
    for (std::size_t i = 0; i < velocities.size(); ++i) {
        const V& v = velocities[i];
        if (!boids::is_finite(v) || boids::is_zero(v)) continue;
        sum = boids::add(sum, boids::normalized_or_zero(v));
        ++count;
    }
    return count == 0 ? S(0) : boids::length(sum) / static_cast<S>(count);
}

}  // namespace boids

// boids/neighbors/all_pairs.hpp - brute-force neighbour search: O(N) per query,
// nothing to build. Exact, and the fastest choice for small flocks.
#pragma once
#include "../strided.hpp"
#include "query.hpp"
#include "world.hpp"

namespace boids {

template <class V>
class all_pairs {
public:
    using scalar = scalar_t<V>;
    static constexpr std::size_t dim = dimension_v<V>;
    using neighbor_type = neighbor<scalar, dim>;

    all_pairs() = default;
    explicit all_pairs(const world_for<V>& w) noexcept : world_(w) {}

    // Remembers the positions (not copied: keep them alive and unchanged while querying),
    // contiguous or members of your own structs (strided.hpp).
    void build(span<const V> positions) noexcept { positions_ = positions; }
    void build(strided_span<const V> positions) noexcept { positions_ = positions; }
    [[nodiscard]] std::size_t size() const noexcept { return positions_.size(); }
    [[nodiscard]] const world_for<V>& world() const noexcept { return world_; }

    // Reports every other boid j with |offset|^2 <= radius^2 inside the cone.
    template <class Sink>
    void for_each_within(std::size_t i, scalar radius, const vision_cone<scalar, dim>& cone, Sink&& sink) const {
        BOIDS_ASSERT(i < positions_.size(), "all_pairs: query index out of range");
        const V& p = positions_[i];
        const scalar r2 = radius * radius;
        for (std::size_t j = 0; j < positions_.size(); ++j) {
            if (j == i) continue;
            neighbor_type n{j, scalar(0), {}};
            for (std::size_t d = 0; d < dim; ++d) {
                n.offset[d] = world_.offset_component(boids::get(p, d), boids::get(positions_[j], d), d);
                n.distance_squared += n.offset[d] * n.offset[d];
            }
            if (n.distance_squared <= r2 && cone.sees(n.offset, n.distance_squared)) sink(n);
        }
    }
    template <class Sink>
    void for_each_within(std::size_t i, scalar radius, Sink&& sink) const {
        for_each_within(i, radius, vision_cone<scalar, dim>{}, sink);
    }

    // The k nearest other boids within max_radius (k = out.capacity()).
    void nearest(std::size_t i, k_nearest<scalar, dim>& out,
                 scalar max_radius = std::numeric_limits<scalar>::infinity()) const {
        out.clear();
        out.add_candidates(positions_.size());  // every boid, itself included
        for_each_within(i, max_radius, out);
    }

private:
    world_for<V> world_{};
    strided_span<const V> positions_{};
};

}  // namespace boids

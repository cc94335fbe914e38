// boids/flock/rules.hpp - the three flock rules (and flight from a predator) as
// behaviour functors over a neighbourhood: the neighbours a finder reported for
// one boid (index, squared distance, offset).
//
// Each rule has the lesson's form (a desired velocity at full speed, steered
// toward) and a linear physical form (a force proportional to a difference).
#pragma once
#include <cmath>
#include <cstdint>
#include "../neighbors/query.hpp"
#include "../random.hpp"
#include "../steer.hpp"

namespace boids {

template <class V>
using neighborhood = span<const neighbor<scalar_t<V>, dimension_v<V>>>;

namespace detail {
template <class V>
[[nodiscard]] V to_vector(const std::array<scalar_t<V>, dimension_v<V>>& a) noexcept {
    return boids::generate<V>([&](std::size_t i) { return a[i]; });
}
}  // namespace detail

// The direction two boids on exactly the same spot are pushed apart: fixed by the
// seed and the pair, opposite for the two (boid `self` gets this, the other its negative).
template <class V>
[[nodiscard]] V coincident_push(std::uint64_t seed, std::size_t self, std::size_t other) noexcept {
    const std::size_t lo = self < other ? self : other, hi = self < other ? other : self;
    const V u = boids::exact_unit_direction<V>(hash_combine(hash_combine(seed, lo), hi));
    return self < other ? u : boids::negate(u);
}

enum class separation_falloff {
    lesson,          // sum of -offset / d^2 within the radius, normalised, steered at full speed
    inverse_square,  // strength * sum of -offset / d^2: unnormalised, "closer = pushier"
    linear           // strength * sum of (1 - d / radius) * (-offset / d): the physics model
};

// Keeps personal space.
template <class V>
struct separation {
    using S = scalar_t<V>;
    S radius;  // only neighbours closer than this push
    separation_falloff falloff = separation_falloff::lesson;
    S strength = S(1);       // inverse_square: length^3/s^2; linear: length/s^2
    std::uint64_t seed = 0;  // picks the directions coincident boids are pushed apart

    // The factor w with which a neighbour at offset x (0 < |x|^2 < radius^2) adds w * x
    // to the push: -1/d^2 (lesson, inverse_square) or -(1 - d/radius)/d (linear).
    [[nodiscard]] S push_weight(S distance_squared) const noexcept {
        if (falloff == separation_falloff::linear) {
            const S d = std::sqrt(distance_squared);
            return -(S(1) - d / radius) / d;
        }
        return S(-1) / distance_squared;
    }

    // The acceleration from the summed push and the summed coincident directions.
    [[nodiscard]] V finish(const V& push, const V& coincident, bool any_coincident, const V& velocity,
                           const steering_limits<S>& limits) const noexcept {
        switch (falloff) {
        case separation_falloff::lesson: {
            // A coincident neighbour is infinitely close: its push dominates.
            const V dir = boids::normalized_or_zero(any_coincident && !boids::is_zero(coincident) ? coincident : push);
            if (boids::is_zero(dir)) return boids::zero<V>();
            return boids::steer_toward(boids::scale(dir, limits.max_speed), velocity, limits);
        }
        case separation_falloff::inverse_square: {
            // A coincident pair pushes as if 1/1000 of the radius apart.
            const S near = radius * S(1e-3);
            V total = push;
            if (any_coincident && near > S(0)) total = boids::add_scaled(push, coincident, S(1) / (near * near));
            return boids::scale(total, strength);
        }
        case separation_falloff::linear: return boids::scale(boids::add(push, coincident), strength);
        }
        return boids::zero<V>();
    }

    // Adds one neighbour's share to the running sums (nothing beyond the radius).
    void add(std::size_t self, const neighbor<S, dimension_v<V>>& n, V& push, V& coincident,
             bool& any_coincident) const noexcept {
        if (!(n.distance_squared < radius * radius)) return;
        if (n.distance_squared == S(0)) {
            coincident = boids::add(coincident, coincident_push<V>(seed, self, n.index));
            any_coincident = true;
        } else {
            push = boids::add_scaled(push, detail::to_vector<V>(n.offset), push_weight(n.distance_squared));
        }
    }

    [[nodiscard]] V operator()(std::size_t self, const V& velocity, neighborhood<V> nbrs,
                               const steering_limits<S>& limits) const noexcept {
        V push = boids::zero<V>();
        V coincident = boids::zero<V>();
        bool any_coincident = false;
        for (const auto& n : nbrs) add(self, n, push, coincident, any_coincident);
        return finish(push, coincident, any_coincident, velocity, limits);
    }
};

enum class social_form {
    lesson,  // desired velocity at full speed along the mean, steered toward
    linear   // gain * (mean - own): J (v_mean - v) or C (x_mean - x)
};

// Matches the neighbours' heading.
template <class V>
struct alignment {
    using S = scalar_t<V>;
    social_form form = social_form::lesson;
    S gain = S(1);  // linear: 1/s

    [[nodiscard]] V operator()(const V& velocity, neighborhood<V> nbrs, span<const V> velocities,
                               const steering_limits<S>& limits) const noexcept {
        V sum = boids::zero<V>();
        for (const auto& n : nbrs) sum = boids::add(sum, velocities[n.index]);
        return finish(sum, nbrs.size(), velocity, limits);
    }

    // The acceleration from the sum of `count` neighbours' velocities.
    [[nodiscard]] V finish(const V& sum, std::size_t count, const V& velocity,
                           const steering_limits<S>& limits) const noexcept {
        if (count == 0) return boids::zero<V>();
        const V mean = boids::scale(sum, S(1) / static_cast<S>(count));
        if (form == social_form::linear) return boids::scale(boids::sub(mean, velocity), gain);
        const V dir = boids::normalized_or_zero(mean);
        if (boids::is_zero(dir)) return boids::zero<V>();
        return boids::steer_toward(boids::scale(dir, limits.max_speed), velocity, limits);
    }
};

// Moves toward the neighbours' centre (measured by offsets, so it works across a
// toroidal edge).
template <class V>
struct cohesion {
    using S = scalar_t<V>;
    social_form form = social_form::lesson;
    S gain = S(1);  // linear: 1/s^2

    [[nodiscard]] V operator()(const V& velocity, neighborhood<V> nbrs,
                               const steering_limits<S>& limits) const noexcept {
        V sum = boids::zero<V>();
        for (const auto& n : nbrs) sum = boids::add(sum, detail::to_vector<V>(n.offset));
        return finish(sum, nbrs.size(), velocity, limits);
    }

    // The acceleration from the sum of `count` neighbours' offsets.
    [[nodiscard]] V finish(const V& sum, std::size_t count, const V& velocity,
                           const steering_limits<S>& limits) const noexcept {
        if (count == 0) return boids::zero<V>();
        const V to_centre = boids::scale(sum, S(1) / static_cast<S>(count));
        if (form == social_form::linear) return boids::scale(to_centre, gain);
        const V dir = boids::normalized_or_zero(to_centre);
        if (boids::is_zero(dir)) return boids::zero<V>();
        return boids::steer_toward(boids::scale(dir, limits.max_speed), velocity, limits);
    }
};

}  // namespace boids

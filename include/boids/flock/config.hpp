// boids/flock/config.hpp - what a flock step is told: which neighbours (metric or
// topological, radius, cone, k, separation's push), the limits it moves within,
// the ready-made blend's rules (the workspace and report: workspace.hpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>
#include "rules.hpp"
#include "../neighbors/world.hpp"
#include "../steer.hpp"

namespace boids {

// The order in which a boid's neighbours are summed.
enum class neighbor_order {
    // The finder's own order. Grids scan cells with a vectorised kernel: fastest.
    // Bit-identical for any thread count; differs from all_pairs in the last bits.
    finder,
    // By boid index: every finder gives the same bits (slower: a sort per boid).
    by_index
};

// flock_config::max_neighbors for a metric neighbourhood without a cap: every boid
// within the radius and the cone counts (0 means the same).
inline constexpr std::size_t no_cap = std::numeric_limits<std::size_t>::max();

enum class neighborhood_kind {
    metric,      // every boid within the view radius (and the cone)
    topological  // the k nearest (within the view radius)
};

template <class V>
struct flock_config {
    using S = scalar_t<V>;
    world_for<V> world{};
    steering_limits<S> limits{};
    neighborhood_kind neighbors = neighborhood_kind::metric;
    S view_radius = S(1);
    S view_angle = S(360);            // degrees; a full circle means no cone
    std::size_t k = 7;                // topological: how many
    std::size_t max_neighbors = 256;  // metric: the nearest this many count (no_cap or 0: all of them)
    neighbor_order order = neighbor_order::finder;

    separation<V> separate{S(1)};
    alignment<V> align{};
    cohesion<V> cohere{};
    bool use_separation = true, use_alignment = true, use_cohesion = true;
    S separation_weight = S(1), alignment_weight = S(1), cohesion_weight = S(1);

    bool has_predator = false;
    V predator{};
    S panic_radius = S(0);
    S flee_weight = S(1);

    [[nodiscard]] validation validate() const noexcept {
        if (auto v = limits.validate(); !v) return v;
        if (auto v = world.validate(); !v) return v;
        if (!(std::isfinite(view_radius) && view_radius > 0))
            return detail::fail("view_radius", "must be finite and > 0");
        if (!(view_radius * view_radius >= std::numeric_limits<S>::min() &&
              view_radius * view_radius <= std::numeric_limits<S>::max()))
            return detail::fail("view_radius", "its square must be a normal number (about 1e-154 to 1e154 in double)");
        if (!(view_angle >= 0 && view_angle <= S(360)))
            return detail::fail("view_angle", "must be in [0, 360] degrees");
        if (neighbors == neighborhood_kind::topological && k == 0) return detail::fail("k", "must be >= 1");
        if (!(std::isfinite(separate.radius) && separate.radius >= 0))
            return detail::fail("separation.radius", "must be finite and >= 0");
        if (!(std::isfinite(separate.strength) && separate.strength >= 0))
            return detail::fail("separation.strength", "must be finite and >= 0");
        for (S w : {separation_weight, alignment_weight, cohesion_weight, flee_weight})
            if (!(std::isfinite(w) && w >= 0)) return detail::fail("weights", "must be finite and >= 0");
        if (has_predator && !(std::isfinite(panic_radius) && panic_radius >= 0))
            return detail::fail("panic_radius", "must be finite and >= 0");
        if (has_predator && !boids::is_finite(predator)) return detail::fail("predator", "must be finite");
        return {};
    }

    // How many neighbours a metric neighbourhood keeps: max_neighbors, with 0 read as no_cap.
    [[nodiscard]] std::size_t neighbor_cap() const noexcept { return max_neighbors == 0 ? no_cap : max_neighbors; }
};

}  // namespace boids

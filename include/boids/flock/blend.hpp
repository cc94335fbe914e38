// boids/flock/blend.hpp - from neighbours to an acceleration: a boid's neighbours
// found and summarised (summarize), the ready-made blend of the three rules and
// the predator (flock_rules), and the rules as parts of a blend of your own.
#pragma once
#include <algorithm>
#include <limits>
#include <type_traits>
#include "../behaviors/seek_flee_arrive.hpp"
#include "config.hpp"
#include "summary.hpp"

namespace boids {

// The blend of the rules from a neighbourhood's sums (see flock/rules.hpp's finish()
// functions), clamped to the maximum force. Never returns a non-finite value.
template <class V>
[[nodiscard]] V flock_acceleration_from_sums(const V& p, const V& v, std::size_t count, const V& push,
                                             const V& coincident, bool any_coincident, const V& offset_sum,
                                             const V& velocity_sum, const flock_config<V>& cfg) noexcept {
    V sum = boids::zero<V>();
    if (cfg.use_separation)
        sum = boids::add_scaled(sum, cfg.separate.finish(push, coincident, any_coincident, v, cfg.limits),
                                cfg.separation_weight);
    if (cfg.use_alignment)
        sum = boids::add_scaled(sum, cfg.align.finish(velocity_sum, count, v, cfg.limits), cfg.alignment_weight);
    if (cfg.use_cohesion)
        sum = boids::add_scaled(sum, cfg.cohere.finish(offset_sum, count, v, cfg.limits), cfg.cohesion_weight);
    if (cfg.has_predator) {
        // Flee with no force outside the panic radius, the offset measured as the world
        // measures it: the boid sits at `away` from a predator at the origin.
        const V away = boids::offset(cfg.world, cfg.predator, p);
        const flee<V> from_predator{boids::zero<V>(), cfg.panic_radius, cfg.limits, flee_outside::ignore};
        sum = boids::add_scaled(sum, from_predator(away, v), cfg.flee_weight);
    }
    const V a = boids::clamp_magnitude(sum, cfg.limits.max_force);
    return boids::is_finite(a) ? a : boids::zero<V>();
}

// The summary of boid i's neighbours (as a finder reported them), summed in the
// order given, with `sep`'s push: what flock_step hands a blend.
template <class V>
[[nodiscard]] neighborhood_summary<V> summarize(std::size_t i, detail::identity_t<span<const V>> velocities,
                                                detail::identity_t<neighborhood<V>> nbrs,
                                                const separation<V>& sep) noexcept {
    neighborhood_summary<V> s;
    bool any_coincident = false;
    const scalar_t<V> sep_r2 = sep.radius * sep.radius;
    for (const auto& n : nbrs) {
        s.offset_sum = boids::add(s.offset_sum, detail::to_vector<V>(n.offset));
        s.velocity_sum = boids::add(s.velocity_sum, velocities[n.index]);
        sep.add(i, n, s.push, s.coincident_push, any_coincident);
        if (n.distance_squared == scalar_t<V>(0) && n.distance_squared < sep_r2) ++s.coincident;
        if (n.distance_squared < s.nearest_distance_squared) s.nearest_distance_squared = n.distance_squared;
    }
    s.count = nbrs.size();
    return s;
}

// The ready-made blend: flock_config's separation, alignment and cohesion, weighted,
// and flight from its predator, clamped to the maximum force. flock_step(..., cfg,
// ...) without a blend of your own runs this one.
template <class V>
struct flock_rules {
    const flock_config<V>* config;

    explicit flock_rules(const flock_config<V>& cfg) noexcept : config(&cfg) {}
    [[nodiscard]] V operator()(const boid_view<V>& b, const neighborhood_summary<V>& s) const noexcept {
        return flock_acceleration_from_sums(b.position, b.velocity, s.count, s.push, s.coincident_push,
                                            s.coincident > 0, s.offset_sum, s.velocity_sum, *config);
    }
};

// The flock rules as parts of a blend of your own (blend.hpp): each reads a boid's
// summary, with the limits its steering is held to.
template <class V>
struct separation_rule {
    separation<V> rule;
    steering_limits<scalar_t<V>> limits;
    [[nodiscard]] V operator()(const boid_view<V>& b, const neighborhood_summary<V>& s) const noexcept {
        return rule.finish(s.push, s.coincident_push, s.coincident > 0, b.velocity, limits);
    }
};
namespace detail {
// A rule that reads one of the summary's sums with the count (alignment, cohesion).
template <class V, class Rule, V neighborhood_summary<V>::*Sum>
struct summed_rule {
    Rule rule;
    steering_limits<scalar_t<V>> limits;
    [[nodiscard]] V operator()(const boid_view<V>& b, const neighborhood_summary<V>& s) const noexcept {
        return rule.finish(s.*Sum, s.count, b.velocity, limits);
    }
};
}  // namespace detail
template <class V>
using alignment_rule = detail::summed_rule<V, alignment<V>, &neighborhood_summary<V>::velocity_sum>;
template <class V>
using cohesion_rule = detail::summed_rule<V, cohesion<V>, &neighborhood_summary<V>::offset_sum>;

// The acceleration of boid i from the neighbours found for it, summed in the
// order given. Boids whose own state is not finite get none.
template <class V>
[[nodiscard]] V flock_acceleration(std::size_t i, detail::identity_t<span<const V>> positions,
                                   detail::identity_t<span<const V>> velocities,
                                   detail::identity_t<neighborhood<V>> nbrs, const flock_config<V>& cfg) noexcept {
    const V& p = positions[i];
    const V& v = velocities[i];
    if (!boids::is_finite(p) || !boids::is_finite(v)) return boids::zero<V>();
    return flock_rules<V>(cfg)(boid_view<V>{i, p, v}, boids::summarize(i, velocities, nbrs, cfg.separate));
}

namespace detail {
template <class V>
struct is_ready_made_blend : std::false_type {};
template <class V>
struct is_ready_made_blend<flock_rules<V>> : std::true_type {};

// A blend behind one plain type: the step over a blend_ref<V> is compiled once for
// every blend (boids::prebuilt holds it), at the price of an indirect call per boid.
template <class V>
class blend_ref {
public:
    template <class Blend, class = std::enable_if_t<!std::is_same_v<std::decay_t<Blend>, blend_ref>>>
    explicit blend_ref(const Blend& blend) noexcept
        : blend_(&blend), call_([](const void* b, const boid_view<V>& agent, const neighborhood_summary<V>& s) -> V {
              return (*static_cast<const Blend*>(b))(agent, s);
          }) {}
    V operator()(const boid_view<V>& agent, const neighborhood_summary<V>& s) const { return call_(blend_, agent, s); }

private:
    const void* blend_;
    V (*call_)(const void*, const boid_view<V>&, const neighborhood_summary<V>&);
};

// A blend's answer, or zero where it is not finite.
template <class V, class Blend>
[[nodiscard]] V blend_at(const Blend& blend, std::size_t i, const V& p, const V& v, const neighborhood_summary<V>& s,
                         scalar_t<V> dt) {
    const V a = blend(boid_view<V>{i, p, v, dt}, s);
    return boids::is_finite(a) ? a : boids::zero<V>();
}
}  // namespace detail

namespace detail {
// The first `count` neighbours in `buffer`, less those whose velocity is not finite
// (not seen; positions were checked by the finder), in the configured order.
template <class V>
[[nodiscard]] neighborhood<V> seen_neighbors(span<neighbor<scalar_t<V>, dimension_v<V>>> buffer, std::size_t count,
                                             span<const V> velocities, const flock_config<V>& cfg) {
    std::size_t kept = 0;
    for (std::size_t k = 0; k < count; ++k)
        if (boids::is_finite(velocities[buffer[k].index])) buffer[kept++] = buffer[k];
    if (cfg.order == neighbor_order::by_index)
        std::sort(buffer.begin(), buffer.begin() + kept,
                  [](const auto& a, const auto& b) { return a.index < b.index; });
    return {buffer.data(), kept};
}
}  // namespace detail

// Finds boid i's neighbours with `finder` into `buffer` (capacity >= 1) and
// returns them sorted by index.
template <class V, class Finder>
[[nodiscard]] neighborhood<V> find_neighbors(std::size_t i, const Finder& finder,
                                             detail::identity_t<span<const V>> velocities, const flock_config<V>& cfg,
                                             span<neighbor<scalar_t<V>, dimension_v<V>>> buffer) {
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    std::size_t count = 0;
    if (cfg.neighbors == neighborhood_kind::topological) {
        k_nearest<S, D> knn(buffer, std::min(cfg.k, buffer.size()));
        finder.nearest(i, knn, cfg.view_radius);
        count = knn.size();
    } else {
        const auto cone = vision_cone<S, D>::from(velocities[i], cfg.view_angle);
        buffer_sink<S, D> all{buffer};
        finder.for_each_within(i, cfg.view_radius, cone, all);
        count = all.size;
        if (all.dropped > 0) {  // more than fit: keep the nearest (ties by index)
            k_nearest<S, D> keep(buffer, buffer.size());
            finder.for_each_within(i, cfg.view_radius, cone, keep);
            count = keep.size();
        }
    }
    return detail::seen_neighbors(buffer, count, velocities, cfg);
}

namespace detail {
// Boid i's neighbours as find_neighbors finds them, into a buffer that grows to hold
// them all (a topological k larger than the flock, or no cap, allocates by the flock
// and the neighbourhood, never by k or the cap). A crowd of more than the cap is cut
// to its nearest by selection, then ranked (distance, then index) as k_nearest ranks.
// Where its nearest cap are known to lie within `nearest_within` (a crowded boid of
// the fused step), balls from there, each twice as wide, find them once one holds
// more than the cap: then the very list the whole radius gives.
template <class V, class Finder>
[[nodiscard]] neighborhood<V> gather_neighbors(
    std::size_t i, const Finder& finder, detail::identity_t<span<const V>> velocities, const flock_config<V>& cfg,
    std::vector<neighbor<scalar_t<V>, dimension_v<V>>>& buffer,
    scalar_t<V> nearest_within = std::numeric_limits<scalar_t<V>>::infinity()) {
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    using nb = neighbor<S, D>;
    std::size_t count = 0;
    if (cfg.neighbors == neighborhood_kind::topological) {
        const std::size_t k = std::min(cfg.k, velocities.size());
        if (buffer.size() < std::max<std::size_t>(k, 1)) buffer.resize(std::max<std::size_t>(k, 1));
        k_nearest<S, D> knn(span<nb>(buffer.data(), k), k);
        finder.nearest(i, knn, cfg.view_radius);
        count = knn.size();
    } else {
        const auto cone = vision_cone<S, D>::from(velocities[i], cfg.view_angle);
        const std::size_t cap = cfg.neighbor_cap();
        for (S r = nearest_within;; r = std::max(r * S(2), cfg.view_radius * S(1.0 / 4096))) {
            const bool whole = !(r < cfg.view_radius);
            buffer.clear();  // keeps its capacity
            finder.for_each_within(i, whole ? cfg.view_radius : r, cone,
                                   [&](const nb& found) { buffer.push_back(found); });
            count = buffer.size();
            if (count > cap || whole) break;
        }
        if (count > cap) {
            auto nearer = [](const nb& a, const nb& b) {
                return a.distance_squared < b.distance_squared ||
                       (a.distance_squared == b.distance_squared && a.index < b.index);
            };
            const auto last = buffer.begin() + static_cast<std::ptrdiff_t>(cap);
            std::nth_element(buffer.begin(), last, buffer.end(), nearer);
            std::sort(buffer.begin(), last, nearer);
            count = cap;
        }
    }
    return seen_neighbors(span<nb>(buffer.data(), buffer.size()), count, velocities, cfg);
}

// Boid i's neighbours (in slot s of a dense grid read through `runs`) as
// gather_neighbors finds them. Where at least its cap of others share its very spot
// (a flock spawned there: `coincident` of them seen), those it heeds are the cap of
// lowest index on that spot, the same list found in its sub-cell's stack or among the
// first slots of its cell; `nearest_within` as gather_neighbors takes it.
template <class V, class Runs, class Finder>
[[nodiscard]] neighborhood<V> gather_heeded(std::size_t i, std::size_t s, const Runs& runs, const Finder& finder,
                                            span<const V> velocities, const flock_config<V>& cfg,
                                            std::size_t coincident, scalar_t<V> nearest_within,
                                            std::vector<neighbor<scalar_t<V>, dimension_v<V>>>& buffer) {
    using nb = neighbor<scalar_t<V>, dimension_v<V>>;
    const std::size_t cap = cfg.neighbor_cap();
    if (cfg.neighbors == neighborhood_kind::metric && coincident >= cap) {  // (cap >= 1: 0 reads as no cap)
        if (buffer.size() < cap) buffer.resize(cap);                        // cap <= coincident < the flock
        k_nearest<scalar_t<V>, dimension_v<V>> knn(span<nb>(buffer.data(), cap), cap);
        if (runs.nearest_on_own_spot(s, knn))
            return seen_neighbors(span<nb>(buffer.data(), buffer.size()), knn.size(), velocities, cfg);
    }
    return gather_neighbors(i, finder, velocities, cfg, buffer, nearest_within);
}
}  // namespace detail

}  // namespace boids

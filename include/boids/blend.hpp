// boids/blend.hpp - combining behaviours: a weighted sum clamped to the maximum force.
//
// Two forms. blend_weighted() sums accelerations you have already computed:
//     auto a = boids::blend_weighted(max_force, boids::weighted{1.8f, sep}, boids::weighted{1.f, ali});
// make_weighted_blend() builds a functor from behaviour functors that share one call
// signature, for users who want the blend itself to be a behaviour:
//     auto wander_home = boids::make_weighted_blend(max_force, boids::weight(1.f, seek), boids::weight(0.5f, flee));
//     V a = wander_home(position, velocity);
//
// A blend called with an agent, `(boid_view)` (agent.hpp), or with the agent and its
// neighbourhood, `(boid_view, neighborhood_summary)` (a flock_step blend), hands each
// part what it takes: both to those that read the summary (the flock rules), the agent
// alone to those that need more than its position and velocity (wander, seek_turning,
// avoid_collisions), else the agent's position and velocity (seek, arrive, ...). So
// every behaviour, and your own lambdas of any of these shapes, goes into one
// make_weighted_blend or make_priority_blend without an adapter.
#pragma once
#include <tuple>
#include <type_traits>
#include <utility>
#include "agent.hpp"
#include "vector.hpp"

namespace boids {

namespace detail {
// Calls a blend's part with the blend's arguments; where the part does not take them
// all, with the agent alone (the first argument), or with its position and velocity.
template <class Part, class... Args>
[[nodiscard]] auto call_part(const Part& part, const Args&... args) {
    if constexpr (std::is_invocable_v<const Part&, const Args&...>) {
        return part(args...);
    } else {
        static_assert(sizeof...(Args) <= 2, "boids: this behaviour's call shape does not fit the blend's arguments");
        const auto& agent = std::get<0>(std::forward_as_tuple(args...));
        if constexpr (std::is_invocable_v<const Part&, decltype(agent)>) return part(agent);
        else return part(agent.position, agent.velocity);
    }
}
}  // namespace detail

// One term of a blend: an acceleration and its weight.
template <class V>
struct weighted {
    scalar_t<V> weight;
    V value;
};
template <class V>
weighted(scalar_t<V>, V) -> weighted<V>;

// clamp(sum of weight * acceleration, max_force).
template <class V, class... Rest>
[[nodiscard]] V blend_weighted(scalar_t<V> max_force, const weighted<V>& first, const Rest&... rest) noexcept {
    V sum = boids::scale(first.value, first.weight);
    ((sum = boids::add_scaled(sum, rest.value, rest.weight)), ...);
    return boids::clamp_magnitude(sum, max_force);
}

// A behaviour functor paired with its weight.
template <class B, class S>
struct weighted_behavior {
    S weight;
    B behavior;
};
template <class S, class B>
[[nodiscard]] constexpr weighted_behavior<B, S> weight(S w, B behavior) {
    return {w, std::move(behavior)};
}

// A functor: calls every behaviour with the same arguments, sums weight * result,
// clamps to max_force.
template <class S, class... Parts>
struct weighted_blend {
    S max_force;
    std::tuple<Parts...> parts;

    template <class... Args>
    [[nodiscard]] auto operator()(const Args&... args) const {
        return std::apply(
            [&](const auto& first, const auto&... rest) {
                auto sum = boids::scale(detail::call_part(first.behavior, args...), first.weight);
                ((sum = boids::add_scaled(sum, detail::call_part(rest.behavior, args...), rest.weight)), ...);
                return boids::clamp_magnitude(sum, max_force);
            },
            parts);
    }
};
template <class S, class... Parts>
[[nodiscard]] constexpr weighted_blend<S, Parts...> make_weighted_blend(S max_force, Parts... parts) {
    static_assert(sizeof...(Parts) > 0, "make_weighted_blend needs at least one behaviour");
    return {max_force, std::tuple<Parts...>(std::move(parts)...)};
}

// Priority blending: the first acceleration whose magnitude exceeds `threshold`
// wins (clamped to max_force); when none does, zero. Put what must not be ignored
// (avoid_obstacles, stay_within) first and what the agent wants last.
template <class V, class... Rest>
[[nodiscard]] V blend_priority(scalar_t<V> max_force, scalar_t<V> threshold, const V& first,
                               const Rest&... rest) noexcept {
    if (boids::length_squared(first) > threshold * threshold) return boids::clamp_magnitude(first, max_force);
    if constexpr (sizeof...(Rest) == 0) return boids::zero<V>();
    else return boids::blend_priority(max_force, threshold, rest...);
}

// A functor: calls the behaviours in order and keeps the first whose result exceeds
// the threshold; the later ones are not even evaluated.
template <class S, class... Parts>
struct priority_blend {
    S max_force;
    S threshold;
    std::tuple<Parts...> parts;

    template <class... Args>
    [[nodiscard]] auto operator()(const Args&... args) const {
        using V = decltype(detail::call_part(std::get<0>(parts), args...));
        V result = boids::zero<V>();
        bool found = false;
        std::apply(
            [&](const auto&... part) {
                ((found ? void() : [&] {
                    const V a = detail::call_part(part, args...);
                    if (boids::length_squared(a) > threshold * threshold) {
                        result = boids::clamp_magnitude(a, max_force);
                        found = true;
                    }
                }()), ...);
            },
            parts);
        return result;
    }
};
template <class S, class... Parts>
[[nodiscard]] constexpr priority_blend<S, Parts...> make_priority_blend(S max_force, S threshold, Parts... parts) {
    static_assert(sizeof...(Parts) > 0, "make_priority_blend needs at least one behaviour");
    return {max_force, threshold, std::tuple<Parts...>(std::move(parts)...)};
}

}  // namespace boids

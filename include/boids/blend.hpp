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
// make_weighted_blend or make_priority_blend without an adapter. Called with an
// `oriented_view` (behaviors/orientation.hpp), a blend also takes the facing
// behaviours, and returns a `steering` (agent.hpp): the linear parts summed and clamped
// to max_force, the angular parts summed and clamped to max_angular_acceleration.
#pragma once
#include <limits>
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

// A blend sums what its parts return: accelerations (vectors), 2D angular accelerations
// (scalars), or steering (both). Where any part returns a steering, so does the blend,
// and the others' results count as its linear part.
template <class T>
struct is_steering : std::false_type {};
template <class V>
struct is_steering<steering<V>> : std::true_type {};
template <class... Ts>
struct first_steering {
    using type = void;
};
template <class T, class... Ts>
struct first_steering<T, Ts...> {
    using type = std::conditional_t<is_steering<T>::value, T, typename first_steering<Ts...>::type>;
};
template <class First, class... Rest>
struct blend_result {
    using steering_part = typename first_steering<First, Rest...>::type;
    using type = std::conditional_t<std::is_void_v<steering_part>, First, steering_part>;
};
template <class... Ts>
using blend_result_t = typename blend_result<Ts...>::type;
template <class R, class T>
[[nodiscard]] R as_blend_term(const T& value) noexcept {
    if constexpr (std::is_same_v<R, T>) return value;
    else {
        static_assert(is_steering<R>::value && std::is_same_v<R, steering<T>>,
                      "boids: the parts of a blend return accelerations of different types");
        return R{value, detail::zero_angular<T>()};
    }
}
template <class T>
[[nodiscard]] T zero_term() noexcept {
    if constexpr (is_steering<T>::value || std::is_arithmetic_v<T>) return T{};
    else return boids::zero<T>();
}
template <class T, class S>
[[nodiscard]] T scale_term(const T& value, S weight) noexcept {
    if constexpr (is_steering<T>::value) return T{scale_term(value.linear, weight), scale_term(value.angular, weight)};
    else if constexpr (std::is_arithmetic_v<T>) return value * static_cast<T>(weight);
    else return boids::scale(value, weight);
}
template <class T, class S>
[[nodiscard]] T add_term(const T& sum, const T& value, S weight) noexcept {
    if constexpr (is_steering<T>::value)
        return T{add_term(sum.linear, value.linear, weight), add_term(sum.angular, value.angular, weight)};
    else if constexpr (std::is_arithmetic_v<T>) return sum + value * static_cast<T>(weight);
    else return boids::add_scaled(sum, value, weight);
}
template <class T, class S>
[[nodiscard]] T clamp_term(const T& value, S max_force, S max_angular) noexcept {
    if constexpr (is_steering<T>::value)
        return T{clamp_term(value.linear, max_force, max_force), clamp_term(value.angular, max_angular, max_angular)};
    else if constexpr (std::is_arithmetic_v<T>) {
        const T m = static_cast<T>(max_force);
        return value > m ? m : value < -m ? -m : value;
    } else return boids::clamp_magnitude(value, max_force);
}
template <class T, class S>
[[nodiscard]] bool term_exceeds(const T& value, S threshold) noexcept {
    if constexpr (is_steering<T>::value)
        return term_exceeds(value.linear, threshold) || term_exceeds(value.angular, threshold);
    else if constexpr (std::is_arithmetic_v<T>) return value * value > static_cast<T>(threshold * threshold);
    else return boids::length_squared(value) > threshold * threshold;
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
    S max_angular_acceleration = std::numeric_limits<S>::infinity();  // rad/s^2: a steering's angular part

    template <class... Args>
    [[nodiscard]] auto operator()(const Args&... args) const {
        return std::apply(
            [&](const auto& first, const auto&... rest) {
                using R = detail::blend_result_t<decltype(detail::call_part(first.behavior, args...)),
                                                 decltype(detail::call_part(rest.behavior, args...))...>;
                R sum = detail::scale_term(detail::as_blend_term<R>(detail::call_part(first.behavior, args...)),
                                           first.weight);
                ((sum = detail::add_term(sum, detail::as_blend_term<R>(detail::call_part(rest.behavior, args...)),
                                         rest.weight)),
                 ...);
                return detail::clamp_term(sum, max_force, max_angular_acceleration);
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

    S max_angular_acceleration = std::numeric_limits<S>::infinity();  // rad/s^2: a steering's angular part

    template <class... Args>
    [[nodiscard]] auto operator()(const Args&... args) const {
        return std::apply(
            [&](const auto&... part) {
                using R = detail::blend_result_t<decltype(detail::call_part(part, args...))...>;
                R result = detail::zero_term<R>();
                bool found = false;
                ((found ? void() : [&] {
                    const R a = detail::as_blend_term<R>(detail::call_part(part, args...));
                    if (detail::term_exceeds(a, threshold)) {
                        result = detail::clamp_term(a, max_force, max_angular_acceleration);
                        found = true;
                    }
                }()), ...);
                return result;
            },
            parts);
    }
};
template <class S, class... Parts>
[[nodiscard]] constexpr priority_blend<S, Parts...> make_priority_blend(S max_force, S threshold, Parts... parts) {
    static_assert(sizeof...(Parts) > 0, "make_priority_blend needs at least one behaviour");
    return {max_force, threshold, std::tuple<Parts...>(std::move(parts)...)};
}

}  // namespace boids

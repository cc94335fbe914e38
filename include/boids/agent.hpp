// boids/agent.hpp - the agent a behaviour is asked about: what a blend is called with.
//
// A blend (blend.hpp) is called with the agent, `blend(agent)`, or with the agent and its
// neighbourhood, `blend(agent, summary)` (flock/summary.hpp), and hands each behaviour
// what it reads: the summary to those that read it, the agent to those that need more
// than its position and velocity (wander and seek_turning read their own state at
// `agent.index` in the span of states they hold, wander advances it by `agent.dt`;
// avoid_collisions reads everyone from its spans), and the shorthand
// `(position, velocity)` to the rest (seek, arrive, pursue, ...). The result is an
// acceleration, or a `steering` (a linear and an angular acceleration) from the
// behaviours that turn the agent too (behaviors/orientation.hpp, called with an
// `oriented_view`).
#pragma once
#include <cstddef>
#include <type_traits>
#include "vector.hpp"

namespace boids {

// An agent as a behaviour sees it: its index in your arrays, its (old) state, and the
// length of the step being taken. flock_step fills all four for a blend.
template <class V>
struct boid_view {
    std::size_t index;
    V position;
    V velocity;
    scalar_t<V> dt = 0;  // s: read only by behaviours that advance a state of their own
};

// An angular velocity or acceleration in V's space: a scalar (rad/s, counterclockwise)
// in 2D, a vector (axis times rate) in 3D.
template <class V>
using angular_t = std::conditional_t<dimension_v<V> == 2, scalar_t<V>, V>;

namespace detail {
template <class V>
[[nodiscard]] angular_t<V> zero_angular() noexcept {
    if constexpr (dimension_v<V> == 2) return scalar_t<V>(0);
    else return boids::zero<V>();
}
}  // namespace detail

// What a behaviour that also turns the agent returns: the linear acceleration
// (length/s^2) and the angular one (rad/s^2). A blend with any such part returns one,
// its linear parts counted as turning nowhere.
template <class V>
struct steering {
    V linear = boids::zero<V>();
    angular_t<V> angular = detail::zero_angular<V>();
};

}  // namespace boids

// boids/agent.hpp - the agent a behaviour is asked about: what a blend is called with.
//
// A blend (blend.hpp) is called with the agent, `blend(agent)`, or with the agent and its
// neighbourhood, `blend(agent, summary)` (flock/summary.hpp), and hands each behaviour
// what it reads: the summary to those that read it, the agent to those that need more
// than its position and velocity (wander and seek_turning read their own state at
// `agent.index` in the span of states they hold, wander advances it by `agent.dt`;
// avoid_collisions reads everyone from its spans), and the shorthand
// `(position, velocity)` to the rest (seek, arrive, pursue, ...). The result is an
// acceleration.
#pragma once
#include <cstddef>
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

}  // namespace boids

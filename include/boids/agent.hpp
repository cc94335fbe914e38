// boids/agent.hpp - the agent a behaviour is asked about: the argument every behaviour
// takes.
//
// One call shape: `behaviour(agent)`, or `behaviour(agent, summary)` for those that read
// the neighbourhood (flock/summary.hpp); the result is an acceleration (an angular one
// for the facing behaviours of behaviors/orientation.hpp). Behaviours that read only
// the position and velocity keep the shorthand `behaviour(position, velocity)`; those
// with a state of their own per agent (wander, seek_turning) read it at `agent.index`
// in the span of states they hold and advance it by `agent.dt`. The blends of blend.hpp
// take every behaviour in either shape.
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

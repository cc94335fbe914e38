// agent_sim.hpp - steps one agent with any steering callable, for behaviour tests.
#pragma once
#include "test_support.hpp"
#include <boids/steer.hpp>
#include <vector>

namespace test {

template <class V>
struct agent {
    V p, v;
};

// Steps `seconds` at `dt` with a = steer(p, v, time); calls watch(agent, time) after each step.
template <class V, class Steer, class Watch>
agent<V> run(agent<V> a, const boids::steering_limits<boids::scalar_t<V>>& lim, double seconds, double dt,
             Steer&& steer, Watch&& watch) {
    using S = boids::scalar_t<V>;
    const long steps = static_cast<long>(seconds / dt + 0.5);
    for (long i = 0; i < steps; ++i) {
        const double t = static_cast<double>(i) * dt;
        const V acc = steer(a.p, a.v, t);
        boids::integrate(a.p, a.v, acc, static_cast<S>(dt), lim);
        watch(a, t + dt);
    }
    return a;
}
template <class V, class Steer>
agent<V> run(agent<V> a, const boids::steering_limits<boids::scalar_t<V>>& lim, double seconds, double dt,
             Steer&& steer) {
    return run(a, lim, seconds, dt, steer, [](const agent<V>&, double) {});
}

}  // namespace test

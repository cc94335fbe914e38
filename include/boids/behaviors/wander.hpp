// boids/behaviors/wander.hpp - aimless but smooth motion.
//
// A target sits on a circle (sphere in 3D) projected ahead of the agent; each step
// it is nudged at random and the agent seeks it. The nudge is a random walk whose
// spread grows with sqrt(dt) (jitter in radians per sqrt(second)), so the wander
// looks the same at any frame rate. The randomness is the agent's own: a seeded
// stream kept in its wander_state, never a global or shared generator, so a run
// repeats exactly whatever the thread count or the order agents are visited.
#pragma once
#include <cmath>
#include <cstdint>
#include "../agent.hpp"
#include "../random.hpp"
#include "../span.hpp"
#include "frame.hpp"
#include "seek_flee_arrive.hpp"

namespace boids {

template <class V>
struct wander_state {
    random_stream rng;
    V target_local;  // the point on the circle, in the agent's frame, unit length

    [[nodiscard]] static wander_state seeded(std::uint64_t seed, std::uint64_t agent = 0) noexcept {
        wander_state s{random_stream(hash_combine(seed, agent)), boids::zero<V>()};
        s.target_local = boids::unit_direction<V>(s.rng.next());
        return s;
    }
};

template <class V>
struct wander {
    using S = scalar_t<V>;
    S radius;    // of the circle (length)
    S distance;  // of its centre ahead of the agent (length)
    S jitter;    // rad / sqrt(s): how fast the target drifts
    steering_limits<S> limits;
    span<wander_state<V>> states{};  // one per agent, for the agent call (read at agent.index)

    // The point the agent is steering for now (without advancing the state).
    [[nodiscard]] V target(const V& position, const V& velocity, const wander_state<V>& state) const noexcept {
        const local_frame<V> f = local_frame<V>::from_heading(velocity);
        return boids::add_scaled(boids::add_scaled(position, f.forward, distance), f.to_world(state.target_local),
                                 radius);
    }

    // Advances the state by dt and returns the steering acceleration.
    [[nodiscard]] V operator()(const V& position, const V& velocity, wander_state<V>& state, S dt) const noexcept {
        const S spread = jitter * std::sqrt(dt > S(0) ? dt : S(0));
        V nudge = boids::generate<V>([&](std::size_t) { return static_cast<S>(state.rng.normal()); });
        V t = boids::add_scaled(state.target_local, nudge, spread);
        t = boids::normalized_or_zero(t);
        if (boids::is_zero(t)) t = boids::unit_axis<V>(0);
        state.target_local = t;
        return seek<V>{target(position, velocity, state), limits}(position, velocity);
    }

    // The agent call: its own state, states[agent.index], advanced by agent.dt. An index
    // outside `states` (an assert where asserts are on) steers nowhere.
    [[nodiscard]] V operator()(const boid_view<V>& agent) const noexcept {
        BOIDS_ASSERT(agent.index < states.size(), "wander: states must hold a state for every agent");
        if (!(agent.index < states.size())) return boids::zero<V>();
        return (*this)(agent.position, agent.velocity, states[agent.index], agent.dt);
    }
};

}  // namespace boids

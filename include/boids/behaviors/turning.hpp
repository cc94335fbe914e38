// boids/behaviors/turning.hpp - movers that cannot turn on the spot: cars, tanks, boats.
//
// A turn-limited mover integrates as integrate() does, and then keeps the new
// velocity's heading within max_turn_rate * dt of the old one and within
// dt * speed / min_turn_radius (a curvature of at most 1 / min_turn_radius). Any
// behaviour then drives it along arcs no tighter than allowed. Seek alone can circle
// a target inside its turning circle for ever; seek_turning goes straight on until
// the target is well outside the circle and then turns in, so a mover with a minimum
// speed still reaches a target beside or behind it.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include "frame.hpp"
#include "../agent.hpp"
#include "../span.hpp"
#include "../steer.hpp"

namespace boids {

template <class S>
struct turning_limits {
    S max_turn_rate = std::numeric_limits<S>::infinity();  // rad / s (a tank: turning on the spot is slow)
    S min_turn_radius = S(0);                              // length (a car: its lock), 0: none

    [[nodiscard]] validation validate() const noexcept {
        if (!(max_turn_rate > 0) || std::isnan(max_turn_rate)) return detail::fail("max_turn_rate", "must be > 0");
        if (!(std::isfinite(min_turn_radius) && min_turn_radius >= 0))
            return detail::fail("min_turn_radius", "must be finite and >= 0");
        return {};
    }
    // The most the heading may turn in dt at `speed`.
    [[nodiscard]] S max_turn(S speed, S dt) const noexcept {
        S rate = max_turn_rate;
        if (min_turn_radius > S(0)) rate = std::min(rate, speed / min_turn_radius);
        return std::min(rate * dt, pi<S>);
    }
    // The tightest circle the mover can drive at `speed` with at most `max_force`
    // across its velocity.
    [[nodiscard]] S turn_radius(S speed, S max_force) const noexcept {
        S r = min_turn_radius;
        if (std::isfinite(max_turn_rate)) r = std::max(r, speed / max_turn_rate);
        if (max_force > S(0)) r = std::max(r, speed * speed / max_force);
        else r = std::numeric_limits<S>::infinity();
        return r;
    }
};

// `to` turned back toward `from` so that the angle between them is at most
// max_angle; its length is kept. A zero `from` (a mover at rest) leaves `to` free.
template <class V>
[[nodiscard]] V limit_turn(const V& from, const V& to, scalar_t<V> max_angle) noexcept {
    using S = scalar_t<V>;
    const S speed = boids::length(to);
    const V f = boids::normalized_or_zero(from), t = boids::normalized_or_zero(to);
    if (boids::is_zero(f) || boids::is_zero(t)) return to;
    const S c = boids::dot(f, t);
    V across = boids::sub(t, boids::scale(f, c));
    const S s = boids::length(across);
    if (std::atan2(s, c) <= max_angle) return to;
    // Straight behind: turn to the mover's left.
    across = s > S(1e-7) ? boids::scale(across, S(1) / s) : local_frame<V>::from_heading(f).side;
    return boids::scale(boids::add(boids::scale(f, std::cos(max_angle)), boids::scale(across, std::sin(max_angle))),
                        speed);
}

// integrate() for a turn-limited mover: the velocity after a * dt and the speed band,
// its heading kept within turning.max_turn(speed, dt) of the old one, then the position.
template <class V>
void integrate(V& position, V& velocity, const V& acceleration, scalar_t<V> dt,
               const steering_limits<scalar_t<V>>& limits, const turning_limits<scalar_t<V>>& turning) noexcept {
    BOIDS_ASSERT(dt >= 0, "integrate: dt must be >= 0");
    if (!(dt >= 0)) dt = 0;
    const V before = velocity;
    V after =
        boids::apply_speed_band(boids::add_scaled(velocity, acceleration, dt), limits.min_speed, limits.max_speed);
    after = boids::limit_turn(before, after, turning.max_turn(boids::length(after), dt));
    velocity = after;
    position = boids::add_scaled(position, velocity, dt);
}

// What seek_turning remembers between steps: whether it is driving straight on to
// make room for a turn (kept until the target is well outside the turning circle, so
// that rounding at the circle's edge cannot make it dither between the two).
struct turning_state {
    bool making_room = false;
};

// Seek for a turn-limited mover, by pure pursuit: it drives the arc that leaves along
// its heading and passes through the target (curvature 2 * across / distance^2), full
// lock toward a target behind it, and straight on while the target lies inside its
// turning circle (no arc it can drive reaches it from there) until the arc it needs is
// at most 80% of full lock. The sideways acceleration is the arc's own (curvature *
// speed^2), so no steering lag lets the mover drift off it; the speed closes on
// max_speed within the reaction time with what is left of max_force.
template <class V>
struct seek_turning {
    V target;
    steering_limits<scalar_t<V>> limits;
    turning_limits<scalar_t<V>> turning;
    span<turning_state> states{};  // one per agent, for the agent call (read at agent.index)

    // The agent call: its own state, states[agent.index]. An index outside `states` (an
    // assert where asserts are on) steers nowhere.
    [[nodiscard]] V operator()(const boid_view<V>& agent) const noexcept {
        BOIDS_ASSERT(agent.index < states.size(), "seek_turning: states must hold a state for every agent");
        if (!(agent.index < states.size())) return boids::zero<V>();
        return (*this)(agent.position, agent.velocity, states[agent.index]);
    }

    // The radius of full lock at the mover's speed (never below min_speed).
    [[nodiscard]] scalar_t<V> lock_radius(const V& velocity) const noexcept {
        return turning.turn_radius(std::max(boids::length(velocity), limits.min_speed), limits.max_force);
    }

    // The curvature of the arc through the target relative to full lock (> 1: inside the
    // turning circle), and the unit direction across the heading toward the target;
    // `behind` tells whether the target lies behind the mover.
    [[nodiscard]] scalar_t<V> needed(const V& position, const V& velocity, V& side, bool& behind) const noexcept {
        using S = scalar_t<V>;
        side = boids::zero<V>();
        behind = false;
        const V heading = boids::normalized_or_zero(velocity);
        const V to = boids::sub(target, position);
        const S d2 = boids::length_squared(to);
        if (boids::is_zero(heading) || !(d2 > S(0)) || !std::isfinite(d2)) return S(0);
        const S along = boids::dot(to, heading);
        const V across_v = boids::sub(to, boids::scale(heading, along));
        const S across = boids::length(across_v);
        const S r = lock_radius(velocity);
        side = across > S(1e-9) * std::sqrt(d2) ? boids::scale(across_v, S(1) / across)
                                                : local_frame<V>::from_heading(heading).side;
        behind = !(along > S(0));
        return std::isfinite(r) ? S(2) * across / d2 * r : S(0);
    }

    [[nodiscard]] V operator()(const V& position, const V& velocity, turning_state& state) const noexcept {
        using S = scalar_t<V>;
        const V heading = boids::normalized_or_zero(velocity);
        if (boids::is_zero(heading)) {
            state.making_room = false;
            const V to_target = boids::sub(target, position);
            if (boids::is_zero(to_target)) return boids::zero<V>();
            return boids::steer_toward(boids::scale(boids::normalized_or_zero(to_target), limits.max_speed), velocity,
                                       limits);
        }
        V side;
        bool behind = false;
        const S k = needed(position, velocity, side, behind);
        if (k > S(1)) state.making_room = true;
        else if (k <= S(0.8)) state.making_room = false;
        const S speed = boids::length(velocity);
        const S r = lock_radius(velocity);
        const S curvature = state.making_room || !(r > S(0)) ? S(0) : (behind ? S(1) : std::min(k, S(1))) / r;
        const S across = std::min(curvature * speed * speed, limits.max_force);
        const S room = std::sqrt(std::max(S(0), limits.max_force * limits.max_force - across * across));
        const S gap = limits.reaction_time > S(0) ? (limits.max_speed - speed) / limits.reaction_time : room;
        return boids::add(boids::scale(side, across), boids::scale(heading, std::clamp(gap, -room, room)));
    }
};

}  // namespace boids

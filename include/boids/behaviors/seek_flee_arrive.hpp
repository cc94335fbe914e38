// boids/behaviors/seek_flee_arrive.hpp - the single-target behaviours: seek, flee,
// arrive, and match_velocity.
//
// Each is a small functor: parameters are members, the call takes the agent's
// position and velocity and returns a steering acceleration (length / s^2).
#pragma once
#include <algorithm>
#include "../steer.hpp"

namespace boids {

// Full speed straight at the target; no force when already on it.
template <class V>
struct seek {
    V target;
    steering_limits<scalar_t<V>> limits;

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        const V to_target = boids::sub(target, position);
        if (boids::is_zero(to_target)) return boids::zero<V>();
        return boids::steer_toward(boids::scale(boids::normalized_or_zero(to_target), limits.max_speed), velocity,
                                   limits);
    }
};

// Take on another velocity (a neighbour's, a conveyor's, a formation slot's), at most
// max_speed of it: no force once matched.
template <class V>
struct match_velocity {
    V target_velocity;
    steering_limits<scalar_t<V>> limits;

    [[nodiscard]] V operator()(const V& /*position*/, const V& velocity) const noexcept {
        return boids::steer_toward(boids::clamp_magnitude(target_velocity, limits.max_speed), velocity, limits);
    }
};

// What a fleeing agent does while the threat is beyond its panic radius.
enum class flee_outside {
    brake,  // steer toward rest (the warm-up vehicle: it stops once safe)
    ignore  // no force at all (a flocking boid keeps flocking)
};

// Full speed directly away from the threat while within panic_radius. Not -seek:
// -seek cancels the current velocity's component toward the desired one, so an
// agent already heading at the threat at full speed would get no force at all.
template <class V>
struct flee {
    V threat;
    scalar_t<V> panic_radius;
    steering_limits<scalar_t<V>> limits;
    flee_outside outside = flee_outside::brake;

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        const V away = boids::sub(position, threat);
        const auto d2 = boids::length_squared(away);
        if (boids::is_zero(away) || !(d2 <= panic_radius * panic_radius)) {
            if (outside == flee_outside::ignore) return boids::zero<V>();
            return boids::steer_toward(boids::zero<V>(), velocity, limits);
        }
        return boids::steer_toward(boids::scale(boids::normalized_or_zero(away), limits.max_speed), velocity, limits);
    }
};

// How arrive's desired speed falls off inside the slowing radius.
enum class arrive_ramp {
    // Linear in the distance, but never steeper than 1 / (4 reaction_time): with a
    // steeper ramp the steering lag makes the approach underdamped and the agent
    // overshoots (the lesson's 140 px at 220 px/s and 0.2 s passes by ~0.07 px).
    no_overshoot,
    // The lesson's formula as written: max_speed * min(1, d / slowing_radius).
    linear
};

// Seek that slows down inside slowing_radius and asks for rest within
// arrival_radius, so the agent settles on the target instead of orbiting it.
template <class V>
struct arrive {
    V target;
    scalar_t<V> slowing_radius;
    steering_limits<scalar_t<V>> limits;
    scalar_t<V> arrival_radius = scalar_t<V>(1);
    arrive_ramp ramp = arrive_ramp::no_overshoot;

    // The slowing radius actually used: widened for no_overshoot when needed.
    [[nodiscard]] scalar_t<V> effective_slowing_radius() const noexcept {
        if (ramp == arrive_ramp::linear) return slowing_radius;
        return std::max(slowing_radius, scalar_t<V>(4) * limits.reaction_time * limits.max_speed);
    }

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        using S = scalar_t<V>;
        const V to_target = boids::sub(target, position);
        const S d = boids::length(to_target);
        const S slow = effective_slowing_radius();
        V desired = boids::zero<V>();
        if (d >= arrival_radius && d > S(0)) {
            const S fraction = slow > S(0) ? std::min(S(1), d / slow) : S(1);
            desired = boids::scale(to_target, limits.max_speed * fraction / d);
        }
        return boids::steer_toward(desired, velocity, limits);
    }
};

}  // namespace boids

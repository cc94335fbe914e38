// boids/steer.hpp - the steering model and the integrator.
//
// A behaviour decides a desired velocity; the steering acceleration closes the gap
// to it within a reaction time:  a = clamp((desired - velocity) / reaction_time, max_force).
// Units are honest: positions in px or m, velocities per second, accelerations per
// second squared, dt and reaction time in seconds. Nothing here reads a clock.
#pragma once
#include <cmath>
#include "detail/motion.hpp"
#include "vector.hpp"

namespace boids {

// How fast an agent may go and how hard it may turn.
template <class S>
struct steering_limits {
    S max_speed = S(1);      // length / s
    S max_force = S(1);      // length / s^2 (an acceleration: mass is 1)
    S reaction_time = S(1);  // s: how long closing the velocity gap takes
    S min_speed = S(0);      // length / s: the lower edge of the speed band (0: none)

    // Names the first field that is wrong, and why.
    [[nodiscard]] validation validate() const noexcept {
        if (!(std::isfinite(max_speed) && max_speed >= 0)) return detail::fail("max_speed", "must be finite and >= 0");
        if (!(std::isfinite(max_force) && max_force >= 0)) return detail::fail("max_force", "must be finite and >= 0");
        if (!(std::isfinite(reaction_time) && reaction_time > 0))
            return detail::fail("reaction_time", "must be finite and > 0");
        if (!(std::isfinite(min_speed) && min_speed >= 0)) return detail::fail("min_speed", "must be finite and >= 0");
        if (min_speed > max_speed) return detail::fail("min_speed", "must not exceed max_speed");
        return {};
    }
};

// Where an agent at `position` moving at `velocity` will be in t seconds.
template <class V>
[[nodiscard]] V predict(const V& position, const V& velocity, scalar_t<V> t) noexcept {
    return boids::add_scaled(position, velocity, t);
}

// clamp((desired - velocity) / reaction_time, max_force). A reaction time that is
// not > 0 (an assert where asserts are on) acts as its limit toward zero: the whole
// max_force toward the desired velocity, never an infinite or NaN acceleration.
template <class V>
[[nodiscard]] BOIDS_DETAIL_HOT V steer_toward(const V& desired, const V& velocity, scalar_t<V> reaction_time,
                                              scalar_t<V> max_force) noexcept {
    BOIDS_ASSERT(reaction_time > 0, "steer_toward: reaction_time must be > 0");
    if (!(reaction_time > 0))
        return boids::clamp_magnitude(boids::scale(boids::normalized_or_zero(boids::sub(desired, velocity)), max_force),
                                      max_force);
    return boids::clamp_magnitude(boids::scale(boids::sub(desired, velocity), scalar_t<V>(1) / reaction_time),
                                  max_force);
}

template <class V>
[[nodiscard]] BOIDS_DETAIL_HOT V steer_toward(const V& desired, const V& velocity,
                                              const steering_limits<scalar_t<V>>& limits) noexcept {
    return boids::steer_toward(desired, velocity, limits.reaction_time, limits.max_force);
}

// Keeps |v| inside [min_speed, max_speed]. A zero velocity with min_speed > 0 gets
// the defined heading +x at min_speed (the lesson's rule), never NaN.
// The band's arithmetic is the flock's batched stage's own (detail/motion.hpp); a speed
// whose square is not a normal number takes clamp_magnitude's robust path.
template <class V>
[[nodiscard]] V apply_speed_band(const V& velocity, scalar_t<V> min_speed, scalar_t<V> max_speed) noexcept {
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    S v[D];
    for (std::size_t d = 0; d < D; ++d) v[d] = boids::get(velocity, d);
    if (detail::motion::band<detail::one_lane<S>, D>(v, min_speed, max_speed, min_speed > 0))
        return boids::clamp_magnitude(velocity, min_speed, max_speed);
    return boids::generate<V>([&](std::size_t d) { return v[d]; });
}

// Semi-implicit Euler: the velocity first (a * dt, then the speed band), then the
// position with the new velocity. dt = 0 leaves the position where it is, and so
// does a negative or NaN dt (an assert where asserts are on): time never runs back.
template <class V>
void integrate(V& position, V& velocity, const V& acceleration, scalar_t<V> dt, scalar_t<V> max_speed,
               scalar_t<V> min_speed = 0) noexcept {
    BOIDS_ASSERT(dt >= 0, "integrate: dt must be >= 0");
    if (!(dt >= 0)) dt = 0;
    velocity = boids::apply_speed_band(boids::add_scaled(velocity, acceleration, dt), min_speed, max_speed);
    position = boids::add_scaled(position, velocity, dt);
}

template <class V>
void integrate(V& position, V& velocity, const V& acceleration, scalar_t<V> dt,
               const steering_limits<scalar_t<V>>& limits) noexcept {
    boids::integrate(position, velocity, acceleration, dt, limits.max_speed, limits.min_speed);
}

}  // namespace boids

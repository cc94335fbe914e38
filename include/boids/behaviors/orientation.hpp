// boids/behaviors/orientation.hpp - where an agent looks: angular steering.
//
// The same model as the linear one, turned: a behaviour decides a desired angular
// velocity, and the angular acceleration closes the gap to it within a reaction time,
// clamped to a maximum angular acceleration. The desired angular velocity falls with
// the remaining error, never faster than the reaction time can follow (a ramp of
// 1 / (4 reaction_time), critically damped) nor than the brakes can stop
// (sqrt(max_angular_acceleration * error)), so a turn settles without overshoot.
//
// 2D: the orientation is an angle (rad, counterclockwise from +x), the angular
// velocity and acceleration are scalars. 3D: the orientation is a local_frame
// (forward, side, up), the angular velocity and acceleration are vectors (axis times
// rate). Every behaviour takes the agent as an `oriented_view` (a boid_view with its
// orientation and angular velocity) and returns a `steering` whose linear part is zero,
// so it goes into a blend beside the linear behaviours; the long call (position,
// velocity, orientation, angular velocity) -> angular acceleration stays.
#pragma once
#include <algorithm>
#include <cmath>
#include <type_traits>
#include "../agent.hpp"
#include "../config.hpp"
#include "frame.hpp"

namespace boids {

template <class S>
struct angular_limits {
    S max_angular_speed = pi<S>;                         // rad / s
    S max_angular_acceleration = S(12.566370614359172);  // rad / s^2
    S reaction_time = S(0.15);                           // s: how long closing the angular velocity gap takes

    [[nodiscard]] validation validate() const noexcept {
        if (!(std::isfinite(max_angular_speed) && max_angular_speed >= 0))
            return detail::fail("max_angular_speed", "must be finite and >= 0");
        if (!(std::isfinite(max_angular_acceleration) && max_angular_acceleration >= 0))
            return detail::fail("max_angular_acceleration", "must be finite and >= 0");
        if (!(std::isfinite(reaction_time) && reaction_time > 0))
            return detail::fail("reaction_time", "must be finite and > 0");
        return {};
    }
};

// The orientation and the angular velocity (or acceleration) of an agent in V's space.
template <class V>
using orientation_t = std::conditional_t<dimension_v<V> == 2, scalar_t<V>, local_frame<V>>;

// The agent a facing behaviour reads: the boid_view (index, position, velocity, dt) and
// where it looks and how fast that turns.
template <class V>
struct oriented_view : boid_view<V> {
    orientation_t<V> orientation{};
    angular_t<V> angular_velocity = detail::zero_angular<V>();
};

// An angle in [-pi, pi]; 0 for one that is not finite.
template <class S>
[[nodiscard]] S wrap_angle(S a) noexcept {
    static_assert(std::is_floating_point_v<S>, "wrap_angle: a floating-point angle");
    if (!std::isfinite(a)) return S(0);
    return std::remainder(a, S(2) * pi<S>);
}

// The signed turn (rad, in [-pi, pi]) from angle `from` to angle `to`.
template <class S>
[[nodiscard]] S angle_difference(S to, S from) noexcept {
    return boids::wrap_angle(boids::wrap_angle(to) - boids::wrap_angle(from));
}

// The angle of a 2D direction; `fallback` for a zero one.
template <class V>
[[nodiscard]] scalar_t<V> heading_angle(const V& direction, scalar_t<V> fallback = 0) noexcept {
    static_assert(dimension_v<V> == 2, "heading_angle: 2D");
    if (boids::is_zero(direction) || !boids::is_finite(direction)) return fallback;
    return std::atan2(boids::get(direction, 1), boids::get(direction, 0));
}

// The unit 2D direction of an angle.
template <class V>
[[nodiscard]] V direction_of(scalar_t<V> angle) noexcept {
    static_assert(dimension_v<V> == 2, "direction_of: 2D");
    return boids::generate<V>([&](std::size_t i) { return i == 0 ? std::cos(angle) : std::sin(angle); });
}

namespace detail {
// How fast to turn with `error` rad still to go: the cruise rate, the critically
// damped ramp, and the rate the brakes can still stop from.
template <class S>
[[nodiscard]] S settling_rate(S error, const angular_limits<S>& l) noexcept {
    const S e = std::fabs(error);
    if (!(e > S(0))) return S(0);
    const S ramp = l.reaction_time > S(0) ? e / (S(4) * l.reaction_time) : l.max_angular_speed;
    return std::min(std::min(l.max_angular_speed, ramp), std::sqrt(l.max_angular_acceleration * e));
}
template <class S>
[[nodiscard]] S close_gap(S gap, const angular_limits<S>& l) noexcept {
    if (!std::isfinite(gap)) return S(0);
    const S a = l.reaction_time > S(0) ? gap / l.reaction_time : std::copysign(l.max_angular_acceleration, gap);
    return std::clamp(a, -l.max_angular_acceleration, l.max_angular_acceleration);
}
template <class V>
[[nodiscard]] V close_rotation_gap(const V& gap, const angular_limits<scalar_t<V>>& l) noexcept {
    if (!boids::is_finite(gap)) return boids::zero<V>();
    const V a = l.reaction_time > 0 ? boids::scale(gap, scalar_t<V>(1) / l.reaction_time)
                                    : boids::scale(boids::normalized_or_zero(gap), l.max_angular_acceleration);
    return boids::clamp_magnitude(a, l.max_angular_acceleration);
}
// Rotates v about the unit axis k by angle a (Rodrigues).
template <class V>
[[nodiscard]] V rotate_about(const V& v, const V& k, scalar_t<V> a) noexcept {
    const scalar_t<V> c = std::cos(a), s = std::sin(a);
    return boids::add(boids::add(boids::scale(v, c), boids::scale(boids::cross(k, v), s)),
                      boids::scale(k, boids::dot(k, v) * (scalar_t<V>(1) - c)));
}
// The rotation (axis times angle) that takes unit forward f onto unit direction d,
// turning about `up` when d is straight behind.
template <class V>
[[nodiscard]] V rotation_between(const V& f, const V& d, const V& up) noexcept {
    const V axis = boids::cross(f, d);
    const scalar_t<V> s = boids::length(axis), c = boids::dot(f, d);
    if (!(s > scalar_t<V>(1e-7))) {
        if (c >= 0) return boids::zero<V>();
        return boids::scale(up, pi<scalar_t<V>>);
    }
    return boids::scale(axis, std::atan2(s, c) / s);
}
// A facing behaviour's agent call: its long call's angular acceleration, no linear part.
template <class V, class B>
[[nodiscard]] steering<V> turning_only(const B& behavior, const oriented_view<V>& agent) noexcept {
    return {boids::zero<V>(), behavior(agent.position, agent.velocity, agent.orientation, agent.angular_velocity)};
}
}  // namespace detail

// The angular acceleration that turns an agent by `error` rad (signed) from angular
// velocity w, within the limits. 2D.
template <class S>
[[nodiscard]] S turn_by(S error, S angular_velocity, const angular_limits<S>& limits) noexcept {
    static_assert(std::is_floating_point_v<S>, "turn_by: 2D (a scalar error)");
    const S e = std::isfinite(error) ? error : S(0);
    const S w = std::isfinite(angular_velocity) ? angular_velocity : S(0);
    return detail::close_gap(std::copysign(detail::settling_rate(e, limits), e) - w, limits);
}

// The same in 3D: `rotation` is the turn still to make (axis times angle). Only the part of the
// angular velocity across `keep_axis` (a unit vector, or zero for none) is steered; the
// part along it is left to another behaviour (face leaves the roll to align_up).
template <class V>
[[nodiscard]] V turn_by_rotation(const V& rotation, const V& angular_velocity,
                                 const angular_limits<scalar_t<V>>& limits,
                                 const V& keep_axis = boids::zero<V>()) noexcept {
    static_assert(dimension_v<V> == 3, "turn_by_rotation: 3D (a rotation vector)");
    const V e = boids::is_finite(rotation) ? rotation : boids::zero<V>();
    V w = boids::is_finite(angular_velocity) ? angular_velocity : boids::zero<V>();
    w = boids::sub(w, boids::scale(keep_axis, boids::dot(w, keep_axis)));
    const scalar_t<V> angle = boids::length(e);
    const V desired = angle > 0 ? boids::scale(e, detail::settling_rate(angle, limits) / angle) : boids::zero<V>();
    return detail::close_rotation_gap(boids::sub(desired, w), limits);
}

// Turns the agent's forward toward `direction` (2D: the angle; 3D: about an axis
// across forward, the roll left alone). A zero direction brakes the turn.
template <class V>
[[nodiscard]] angular_t<V> turn_toward(const V& direction, const orientation_t<V>& orientation,
                                       const angular_t<V>& angular_velocity,
                                       const angular_limits<scalar_t<V>>& limits) noexcept {
    if constexpr (dimension_v<V> == 2) {
        const scalar_t<V> error = boids::angle_difference(boids::heading_angle(direction, orientation), orientation);
        return boids::turn_by(error, angular_velocity, limits);
    } else {
        const V d = boids::normalized_or_zero(direction);
        const V rotation =
            boids::is_zero(d) ? boids::zero<V>() : detail::rotation_between(orientation.forward, d, orientation.up);
        return boids::turn_by_rotation(rotation, angular_velocity, limits, orientation.forward);
    }
}

// Look at a point. On top of it: brake the turn.
template <class V>
struct face {
    V target;
    angular_limits<scalar_t<V>> limits;

    [[nodiscard]] steering<V> operator()(const oriented_view<V>& agent) const noexcept {
        return detail::turning_only(*this, agent);
    }
    [[nodiscard]] angular_t<V> operator()(const V& position, const V& /*velocity*/, const orientation_t<V>& orientation,
                                          const angular_t<V>& angular_velocity) const noexcept {
        return boids::turn_toward(boids::sub(target, position), orientation, angular_velocity, limits);
    }
};

// Look along the velocity. Slower than min_speed (the heading of a near-still agent is
// noise): brake the turn.
template <class V>
struct look_where_going {
    angular_limits<scalar_t<V>> limits;
    scalar_t<V> min_speed = scalar_t<V>(1e-3);

    [[nodiscard]] steering<V> operator()(const oriented_view<V>& agent) const noexcept {
        return detail::turning_only(*this, agent);
    }
    [[nodiscard]] angular_t<V> operator()(const V& /*position*/, const V& velocity, const orientation_t<V>& orientation,
                                          const angular_t<V>& angular_velocity) const noexcept {
        const bool moving = boids::length_squared(velocity) > min_speed * min_speed;
        return boids::turn_toward(moving ? velocity : boids::zero<V>(), orientation, angular_velocity, limits);
    }
};

// Roll about forward until up is as near `up` as forward allows. 3D only.
template <class V>
struct align_up {
    V up = boids::unit_axis<V>(1);
    angular_limits<scalar_t<V>> limits;

    [[nodiscard]] steering<V> operator()(const oriented_view<V>& agent) const noexcept {
        return detail::turning_only(*this, agent);
    }
    [[nodiscard]] V operator()(const V& /*position*/, const V& /*velocity*/, const local_frame<V>& orientation,
                               const V& angular_velocity) const noexcept {
        static_assert(dimension_v<V> == 3, "align_up: 3D");
        const V f = orientation.forward;
        const V wanted = boids::normalized_or_zero(boids::sub(up, boids::scale(f, boids::dot(up, f))));
        scalar_t<V> roll = 0;
        if (!boids::is_zero(wanted))
            roll = std::atan2(boids::dot(boids::cross(orientation.up, wanted), f), boids::dot(orientation.up, wanted));
        const scalar_t<V> w = boids::is_finite(angular_velocity) ? boids::dot(angular_velocity, f) : scalar_t<V>(0);
        return boids::scale(f, boids::turn_by(roll, w, limits));
    }
};

// Turn to a given orientation: 2D an angle; 3D a frame (its forward, then its up).
template <class V>
struct match_orientation {
    orientation_t<V> target;
    angular_limits<scalar_t<V>> limits;

    [[nodiscard]] steering<V> operator()(const oriented_view<V>& agent) const noexcept {
        return detail::turning_only(*this, agent);
    }
    [[nodiscard]] angular_t<V> operator()(const V& position, const V& velocity, const orientation_t<V>& orientation,
                                          const angular_t<V>& angular_velocity) const noexcept {
        if constexpr (dimension_v<V> == 2) {
            (void)position;
            (void)velocity;
            return boids::turn_by(boids::angle_difference(target, orientation), angular_velocity, limits);
        } else {
            const V turn = boids::turn_toward(target.forward, orientation, angular_velocity, limits);
            const V roll = align_up<V>{target.up, limits}(position, velocity, orientation, angular_velocity);
            return boids::clamp_magnitude(boids::add(turn, roll), limits.max_angular_acceleration);
        }
    }
};

// One step of the orientation: the angular velocity first (a * dt, capped at the
// maximum angular speed), then the orientation turned by the mean of the old and new
// angular velocities (exact for an acceleration held over the step, which keeps 30,
// 60 and 120 Hz together). 2D wraps the angle into [-pi, pi]; 3D turns forward and up
// about that mean and keeps the frame orthonormal. dt <= 0 or NaN changes nothing.
template <class S>
void integrate_orientation(S& angle, S& angular_velocity, S angular_acceleration, S dt,
                           const angular_limits<S>& limits) noexcept {
    static_assert(std::is_floating_point_v<S>, "integrate_orientation: a 2D angle, or a local_frame in 3D");
    BOIDS_ASSERT(dt >= 0, "integrate_orientation: dt must be >= 0");
    if (!(dt > 0)) return;
    const S a = std::isfinite(angular_acceleration) ? angular_acceleration : S(0);
    const S w = std::isfinite(angular_velocity) ? angular_velocity : S(0);
    angular_velocity = std::clamp(w + a * dt, -limits.max_angular_speed, limits.max_angular_speed);
    angle = boids::wrap_angle(angle + S(0.5) * (w + angular_velocity) * dt);
}

template <class V>
void integrate_orientation(local_frame<V>& orientation, V& angular_velocity, const V& angular_acceleration,
                           scalar_t<V> dt, const angular_limits<scalar_t<V>>& limits) noexcept {
    static_assert(dimension_v<V> == 3, "integrate_orientation: a local_frame in 3D");
    using S = scalar_t<V>;
    BOIDS_ASSERT(dt >= 0, "integrate_orientation: dt must be >= 0");
    if (!(dt > 0)) return;
    const V a = boids::is_finite(angular_acceleration) ? angular_acceleration : boids::zero<V>();
    const V w = boids::is_finite(angular_velocity) ? angular_velocity : boids::zero<V>();
    angular_velocity = boids::clamp_magnitude(boids::add_scaled(w, a, dt), limits.max_angular_speed);
    const V mean = boids::scale(boids::add(w, angular_velocity), S(0.5));
    const S rate = boids::length(mean);
    V f = orientation.forward, u = orientation.up;
    if (rate > S(0)) {
        const V axis = boids::scale(mean, S(1) / rate);
        f = detail::rotate_about(f, axis, rate * dt);
        u = detail::rotate_about(u, axis, rate * dt);
    }
    // Re-orthonormalise: forward leads, up is made square to it.
    f = boids::normalized_or_zero(f);
    if (boids::is_zero(f)) f = boids::unit_axis<V>(0);
    u = boids::normalized_or_zero(boids::sub(u, boids::scale(f, boids::dot(u, f))));
    if (boids::is_zero(u)) u = local_frame<V>::from_heading(f).up;
    orientation.forward = f;
    orientation.up = u;
    orientation.side = boids::cross(u, f);
}

}  // namespace boids

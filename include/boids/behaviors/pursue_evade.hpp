// boids/behaviors/pursue_evade.hpp - behaviours about another moving agent:
// pursue, evade, offset pursuit, interpose and hide.
//
// Each predicts where the other will be: the look-ahead grows with the distance
// (distance / max_speed, the time we would need to get there) and is capped at
// max_prediction seconds, so a far target is not predicted absurdly far ahead.
#pragma once
#include <algorithm>
#include <limits>
#include "../span.hpp"
#include "frame.hpp"
#include "seek_flee_arrive.hpp"

namespace boids {

namespace detail {
template <class V>
[[nodiscard]] scalar_t<V> look_ahead(const V& from, const V& to, scalar_t<V> speed, scalar_t<V> cap) noexcept {
    using S = scalar_t<V>;
    const S d = boids::distance(from, to);
    if (!(speed > S(0))) return cap;
    return std::min(d / speed, cap);
}
}  // namespace detail

namespace detail {
// Arrive at a moving point: the desired velocity is the point's own velocity plus
// the arrive ramp toward it, so the agent matches its pace instead of lagging.
template <class V>
[[nodiscard]] V moving_target_velocity(const V& target, const V& target_velocity, scalar_t<V> slowing_radius,
                                       scalar_t<V> max_speed, const V& position) noexcept {
    using S = scalar_t<V>;
    const V to = boids::sub(target, position);
    const S d = boids::length(to);
    V desired = target_velocity;
    if (d > S(0)) {
        const S ramp = slowing_radius > S(0) ? std::min(S(1), d / slowing_radius) : S(1);
        desired = boids::add_scaled(desired, to, max_speed * ramp / d);
    }
    return boids::clamp_magnitude(desired, max_speed);
}
template <class V>
[[nodiscard]] V arrive_moving(const V& target, const V& target_velocity, scalar_t<V> slowing_radius,
                              const steering_limits<scalar_t<V>>& limits, const V& position,
                              const V& velocity) noexcept {
    return boids::steer_toward(
        moving_target_velocity(target, target_velocity, slowing_radius, limits.max_speed, position), velocity, limits);
}
}  // namespace detail

// Seek the quarry's predicted position.
template <class V>
struct pursue {
    V quarry;
    V quarry_velocity;
    steering_limits<scalar_t<V>> limits;
    scalar_t<V> max_prediction = scalar_t<V>(2);  // s

    [[nodiscard]] V predicted(const V& position) const noexcept {
        return boids::predict(quarry, quarry_velocity,
                              detail::look_ahead(position, quarry, limits.max_speed, max_prediction));
    }
    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        return seek<V>{predicted(position), limits}(position, velocity);
    }
};

// Flee the threat's predicted position while it is within panic_radius of us.
template <class V>
struct evade {
    V threat;
    V threat_velocity;
    steering_limits<scalar_t<V>> limits;
    scalar_t<V> panic_radius = std::numeric_limits<scalar_t<V>>::infinity();
    scalar_t<V> max_prediction = scalar_t<V>(2);  // s

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        const V at = boids::predict(threat, threat_velocity,
                                    detail::look_ahead(position, threat, limits.max_speed, max_prediction));
        return flee<V>{at, panic_radius, limits, flee_outside::ignore}(position, velocity);
    }
};

// Keep a fixed offset in the leader's frame (forward, side[, up]): a wingman.
template <class V>
struct offset_pursuit {
    V leader;
    V leader_velocity;
    V offset;  // in the leader's frame: x ahead, y to its side, z up
    steering_limits<scalar_t<V>> limits;
    scalar_t<V> slowing_radius = scalar_t<V>(1);
    scalar_t<V> max_prediction = scalar_t<V>(2);

    [[nodiscard]] V slot() const noexcept {
        return boids::add(leader, local_frame<V>::from_heading(leader_velocity).to_world(offset));
    }
    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        using S = scalar_t<V>;
        const V s = slot();
        const S closing = limits.max_speed + boids::length(leader_velocity);
        const V target = boids::predict(s, leader_velocity, detail::look_ahead(position, s, closing, max_prediction));
        return detail::arrive_moving(target, leader_velocity, slowing_radius, limits, position, velocity);
    }
};

// Get between two agents: arrive at the midpoint of where they will be when we get there.
template <class V>
struct interpose {
    V a, a_velocity, b, b_velocity;
    steering_limits<scalar_t<V>> limits;
    scalar_t<V> slowing_radius = scalar_t<V>(1);
    scalar_t<V> max_prediction = scalar_t<V>(2);

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        using S = scalar_t<V>;
        const V mid = boids::scale(boids::add(a, b), S(0.5));
        const S t = detail::look_ahead(position, mid, limits.max_speed, max_prediction);
        const V target =
            boids::scale(boids::add(boids::predict(a, a_velocity, t), boids::predict(b, b_velocity, t)), S(0.5));
        const V target_velocity = boids::scale(boids::add(a_velocity, b_velocity), S(0.5));
        return detail::arrive_moving(target, target_velocity, slowing_radius, limits, position, velocity);
    }
};

// A round obstacle (a circle in 2D, a sphere in 3D).
template <class V>
struct sphere {
    V centre;
    scalar_t<V> radius;
};

// How near an agent an obstacle's surface may lie and still matter to a behaviour: within
// distance + per_radius x the obstacle's radius (a detection box as wide as the obstacle
// meets a wider one from further away). obstacle_grid::near selects by it.
template <class S>
struct sphere_range {
    S distance;
    S per_radius = S(0);
};

// Put an obstacle between us and the threat: arrive at the hiding spot behind the
// nearest obstacle; with no obstacle, evade.
template <class V>
struct hide {
    V threat;
    V threat_velocity;
    span<const sphere<V>> obstacles;
    steering_limits<scalar_t<V>> limits;
    scalar_t<V> margin = scalar_t<V>(1);  // how far behind the obstacle's surface
    scalar_t<V> slowing_radius = scalar_t<V>(1);

    // The best hiding spot (nearest to `position`); false when there is none.
    [[nodiscard]] bool spot(const V& position, V& out) const noexcept {
        using S = scalar_t<V>;
        S best = std::numeric_limits<S>::infinity();
        for (const auto& o : obstacles) {
            V away = boids::normalized_or_zero(boids::sub(o.centre, threat));
            if (boids::is_zero(away)) away = boids::unit_axis<V>(0);
            const V s = boids::add_scaled(o.centre, away, o.radius + margin);
            const S d = boids::distance_squared(position, s);
            if (d < best) {
                best = d;
                out = s;
            }
        }
        return best < std::numeric_limits<S>::infinity();
    }
    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        V s{};
        if (!spot(position, s)) return evade<V>{threat, threat_velocity, limits}(position, velocity);
        return arrive<V>{s, slowing_radius, limits, scalar_t<V>(0)}(position, velocity);
    }
};

}  // namespace boids

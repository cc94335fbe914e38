// boids/behaviors/follow_wall.hpp - moving along walls at a set distance (Reynolds'
// wall following): along straight walls, round free ends and outer corners, across
// inner corners before reaching them; with the wall kept on one hand, out of a room
// through its door or through a maze whose walls all connect.
//
// The agent aims look_ahead seconds of travel ahead: from the point beside it at
// `distance` from the wall, four steps, each along the wall nearest to where it starts
// (on the hand asked), so the aim turns the corners the agent will turn; round an outer
// corner the walk stops before a turn past 45 degrees (further, the aim would cut across
// the corner). The agent aims at the furthest point of the walk that it can see.
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include "../span.hpp"
#include "avoid_obstacles.hpp"

namespace boids {

// The hand the wall is kept on, in the library's counterclockwise frame (x right, y
// up): on a y-down screen they swap. `either` goes the way the agent is heading (the
// wall on the right from rest).
enum class wall_side { right, left, either };

namespace detail {
template <class V>
struct nearest_wall_point {
    V point;
    scalar_t<V> distance = std::numeric_limits<scalar_t<V>>::infinity();  // infinite: no walls
    const wall<V>* on = nullptr;
};
template <class V>
[[nodiscard]] nearest_wall_point<V> nearest_on_walls(span<const wall<V>> walls, const V& q) noexcept {
    using S = scalar_t<V>;
    nearest_wall_point<V> best{q};
    for (const wall<V>& w : walls) {
        const V p = detail::nearest_on_wall(w, q);
        const S d = boids::distance(q, p);
        if (d < best.distance) best = {p, d, &w};
    }
    return best;
}
// True where the segment from a to b meets a wall.
template <class V>
[[nodiscard]] bool crosses_a_wall(span<const wall<V>> walls, const V& a, const V& b) noexcept {
    const V ray = boids::sub(b, a);
    for (const wall<V>& w : walls)
        if (detail::wall_crossing(a, ray, w) >= scalar_t<V>(0)) return true;
    return false;
}
// `away` turned a quarter: clockwise (the wall on the right of the result) or not.
template <class V>
[[nodiscard]] V along_wall(const V& away, bool wall_on_right) noexcept {
    const scalar_t<V> x = boids::get(away, 0), y = boids::get(away, 1);
    return boids::generate<V>(
        [&](std::size_t i) { return (i == 0 ? y : -x) * (wall_on_right ? scalar_t<V>(1) : scalar_t<V>(-1)); });
}
}  // namespace detail

template <class V>
struct follow_wall {
    static_assert(dimension_v<V> == 2, "follow_wall is 2D (its walls are segments)");
    using S = scalar_t<V>;
    span<const wall<V>> walls;
    S distance;  // length: from the agent's centre to the wall
    steering_limits<S> limits;
    wall_side side = wall_side::right;
    S look_ahead = S(-1);                          // s of travel at max_speed; negative: 4 reaction times
    S reach = std::numeric_limits<S>::infinity();  // length: walls further away are not followed

    // Names the first field that is wrong, and why.
    [[nodiscard]] validation validate() const noexcept {
        for (const wall<V>& w : walls)
            if (!boids::is_finite(w.a) || !boids::is_finite(w.b)) return detail::fail("walls", "must be finite");
        if (!(std::isfinite(distance) && distance > S(0))) return detail::fail("distance", "must be finite and > 0");
        if (const validation v = limits.validate(); !v) return v;
        if (std::isnan(look_ahead) || std::isinf(look_ahead))
            return detail::fail("look_ahead", "must be finite (negative: 4 reaction times)");
        if (!(reach > S(0))) return detail::fail("reach", "must be > 0 (infinite: any distance)");
        return {};
    }

    // Walls further than this from the agent never change a call (infinite while reach
    // is): pass the ones nearer (wall_grid::near) and the call gives the same result as
    // with all of them. The point beside the agent lies within reach + distance of it, the
    // walk goes at most walk_length() further, and from each point walked the nearest wall
    // is at most distance + walk_length() away.
    [[nodiscard]] S wall_range() const noexcept {
        return (reach + S(2) * (distance + walk_length())) * S(1.0001);  // a hair over: rounding at the edge
    }

    // No wall within reach: zero, so it composes with wander or seek in a priority blend.
    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        const detail::nearest_wall_point<V> here = detail::nearest_on_walls(walls, position);
        if (here.on == nullptr || !(here.distance <= reach)) return boids::zero<V>();
        V away = boids::normalized_or_zero(boids::sub(position, here.point));
        if (boids::is_zero(away)) {  // on the wall: back to the side it came from
            away = boids::normalized_or_zero(detail::wall_normal(*here.on));
            if (boids::is_zero(away)) away = local_frame<V>::from_heading(velocity).side;
            if (boids::dot(away, velocity) > S(0)) away = boids::negate(away);
        }
        // In a way narrower than 2 distance the nearest wall swaps side to side: there,
        // as with `either`, the agent keeps the way it is going.
        V point = boids::add_scaled(here.point, away, distance);
        const detail::nearest_wall_point<V> facing = detail::nearest_on_walls(walls, point);
        const bool narrow = facing.distance < distance * S(0.999) &&
                            boids::dot(boids::sub(point, facing.point), away) < S(-0.9) * facing.distance;
        bool on_right = side != wall_side::left;
        if (side == wall_side::either || (narrow && !boids::is_zero(velocity)))
            on_right = boids::dot(detail::along_wall(away, true), velocity) >= S(0);
        const V heading = detail::along_wall(away, on_right);

        constexpr int walk_steps = 4;
        const S step = walk_length() / S(walk_steps);
        V walked[walk_steps + 1];
        walked[0] = point;
        int count = 1;
        V direction = heading;
        while (count <= walk_steps) {
            const V next = boids::add_scaled(point, direction, step);
            const V out = boids::normalized_or_zero(boids::sub(next, detail::nearest_on_walls(walls, next).point));
            if (boids::is_zero(out)) break;
            V turned = detail::along_wall(out, on_right);
            if (boids::dot(turned, direction) < S(-0.5)) turned = direction;  // the other side of a narrow way
            if (rounds_a_corner(heading, turned, on_right)) break;
            point = next;
            direction = turned;
            walked[count++] = point;
        }
        // The furthest point walked that the agent sees; none: along the wall.
        V desired = boids::scale(heading, limits.max_speed);
        for (int i = count - 1; i >= 0; --i) {
            if (detail::crosses_a_wall(walls, position, walked[i])) continue;
            const V to = boids::normalized_or_zero(boids::sub(walked[i], position));
            if (!boids::is_zero(to)) desired = boids::scale(to, limits.max_speed);
            break;
        }
        return boids::steer_toward(desired, velocity, limits);
    }

private:
    // The aim's walk: look_ahead of travel at max_speed, and never shorter than distance.
    [[nodiscard]] S walk_length() const noexcept {
        const S time = look_ahead >= S(0) ? look_ahead : S(4) * limits.reaction_time;
        return std::fmax(limits.max_speed * time, distance);
    }
    // Turned more than 45 degrees toward the wall's side (round an outer corner or a
    // free end): aiming further round would cut across the corner. Turns away from the
    // wall (an inner corner) cut through open space and are not limited.
    static bool rounds_a_corner(const V& heading, const V& turned, bool on_right) noexcept {
        const S turn = boids::get(heading, 0) * boids::get(turned, 1) - boids::get(heading, 1) * boids::get(turned, 0);
        return (on_right ? turn < S(0) : turn > S(0)) && boids::dot(turned, heading) < S(0.70710678118654752);
    }
};

}  // namespace boids

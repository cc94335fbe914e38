// boids/behaviors/jump.hpp - a jump onto a given landing point: the launch that lands
// there under gravity, and the run-up that brings the agent to the take-off point at
// the speed the jump needs.
//
// Gravity is a vector ((0, -g) in a side view, (0, 0, -g) or (0, -g, 0) in 3D), so "up"
// and "the ground" (everything across gravity) hold in any frame. The jump spends
// `jump_speed` upward; the run-up supplies the rest along the ground.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include "../config.hpp"
#include "seek_flee_arrive.hpp"

namespace boids {

// A ballistic flight from a point to a landing point.
template <class V>
struct jump_plan {
    V launch_velocity = boids::zero<V>();  // leave with this: run_up_velocity plus jump_speed upward
    V run_up_velocity = boids::zero<V>();  // its part across gravity, what the run-up reaches
    scalar_t<V> flight_time = 0;           // s, take-off to landing
    // False when jump_speed cannot lift the agent to the landing's height, gravity is
    // zero or not finite, or the run-up would need more than max_speed.
    bool reachable = false;
};

// The flight from `from` that leaves upward at `jump_speed` and comes down on
// `landing` (on the way down: the later of the two times it passes that height).
template <class V>
[[nodiscard]] jump_plan<V> plan_jump(const V& from, const V& landing, const V& gravity, scalar_t<V> jump_speed,
                                     scalar_t<V> max_speed) noexcept {
    using S = scalar_t<V>;
    jump_plan<V> plan;
    const S g = boids::length(gravity);
    if (!(g > S(0) && std::isfinite(g) && jump_speed >= S(0))) return plan;
    const V up = boids::scale(gravity, S(-1) / g);
    const V to = boids::sub(landing, from);
    const S height = boids::dot(to, up);
    const S disc = jump_speed * jump_speed - S(2) * g * height;  // what is left of the rise at that height
    if (!(disc >= S(0))) return plan;
    const S t = (jump_speed + std::sqrt(disc)) / g;
    if (!(t > S(0))) return plan;  // a hop in place, with no jump speed
    plan.flight_time = t;
    plan.run_up_velocity = boids::scale(boids::add_scaled(to, up, -height), S(1) / t);
    plan.launch_velocity = boids::add_scaled(plan.run_up_velocity, up, jump_speed);
    plan.reachable = boids::length(plan.run_up_velocity) <= max_speed;
    return plan;
}

// Runs up to `takeoff` so as to pass it at the plan's run-up velocity; when ready()
// says so, the caller sets the velocity to plan_from(position).launch_velocity (the
// flight from where the agent really is) and lets gravity do the rest.
//
// The returned acceleration lies across gravity: standing, falling and the flight
// are the caller's physics. The agent keeps to the line through the take-off point
// along the run-up; one that is past the take-off point, or too close to it to reach
// the run-up speed, first goes back to run_up_start().
template <class V>
struct jump {
    V takeoff;
    V landing;
    V gravity;               // length / s^2
    scalar_t<V> jump_speed;  // length / s, upward at take-off
    steering_limits<scalar_t<V>> limits;
    scalar_t<V> position_tolerance = scalar_t<V>(1);  // length: how near the take-off point ready() asks
    scalar_t<V> velocity_tolerance = scalar_t<V>(1);  // length / s: how near the run-up velocity

    // Names the first field that is wrong, and why.
    [[nodiscard]] validation validate() const noexcept {
        if (!boids::is_finite(takeoff)) return detail::fail("takeoff", "must be finite");
        if (!boids::is_finite(landing)) return detail::fail("landing", "must be finite");
        if (!boids::is_finite(gravity) || boids::is_zero(gravity))
            return detail::fail("gravity", "must be finite and not zero");
        if (!(std::isfinite(jump_speed) && jump_speed >= 0))
            return detail::fail("jump_speed", "must be finite and >= 0");
        if (const validation v = limits.validate(); !v) return v;
        if (!(std::isfinite(position_tolerance) && position_tolerance > 0))
            return detail::fail("position_tolerance", "must be finite and > 0");
        if (!(std::isfinite(velocity_tolerance) && velocity_tolerance > 0))
            return detail::fail("velocity_tolerance", "must be finite and > 0");
        return {};
    }

    [[nodiscard]] jump_plan<V> plan() const noexcept { return plan_from(takeoff); }
    [[nodiscard]] jump_plan<V> plan_from(const V& position) const noexcept {
        return boids::plan_jump(position, landing, gravity, jump_speed, limits.max_speed);
    }

    // How far behind the take-off point a run-up from rest starts: the way to within
    // velocity_tolerance of the run-up speed, and position_tolerance to spare (infinite
    // when max_force is 0).
    [[nodiscard]] scalar_t<V> run_up_length() const noexcept { return run_up_length(plan().run_up_velocity); }
    [[nodiscard]] V run_up_start() const noexcept { return run_up_start(plan().run_up_velocity); }

    // The jump is reachable, and the agent at the take-off point at the run-up
    // velocity, each within its tolerance.
    [[nodiscard]] bool ready(const V& position, const V& velocity) const noexcept {
        const jump_plan<V> p = plan();
        return p.reachable && boids::distance(position, takeoff) <= position_tolerance &&
               boids::distance(ground(velocity), p.run_up_velocity) <= velocity_tolerance;
    }

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        using S = scalar_t<V>;
        if (!(limits.max_force > S(0))) return boids::zero<V>();
        const V w = plan().run_up_velocity;
        const S s = boids::length(w);
        const V here = boids::add(takeoff, ground(boids::sub(position, takeoff)));  // on the take-off's ground
        const V v = ground(velocity);
        if (!(s > S(0)))  // straight up (or unreachable): stand on the take-off point
            return arrive<V>{takeoff, S(0), limits, position_tolerance / S(2)}(here, v);
        const V along_unit = boids::scale(w, S(1) / s);
        const V offset = boids::sub(here, takeoff);
        const S along = boids::dot(offset, along_unit), pace = boids::dot(v, along_unit);
        // Room to reach the run-up speed before the take-off point, counting the way
        // a backward-moving agent travels while it brakes.
        const S room = -along + (pace < S(0) ? pace * pace / (S(2) * limits.max_force) : S(0));
        if (room < run_distance(s, std::max(pace, S(0))))
            return arrive<V>{run_up_start(w), S(0), limits, position_tolerance / S(2)}(here, v);
        // On the run: the run-up velocity, plus a drift back onto the line slow enough
        // (a quarter of the reaction's rate) not to overshoot it.
        const V off_line = boids::add_scaled(offset, along_unit, -along);
        const S drift = limits.reaction_time > S(0) ? S(-1) / (S(4) * limits.reaction_time) : S(0);
        const V desired = boids::add_scaled(w, off_line, drift);
        return boids::steer_toward(boids::clamp_magnitude(desired, limits.max_speed), v, limits);
    }

private:
    // The same, for the plan's run-up velocity `run_up`, so that one call plans once.
    [[nodiscard]] scalar_t<V> run_up_length(const V& run_up) const noexcept {
        return run_distance(boids::length(run_up), scalar_t<V>(0)) + position_tolerance;
    }
    [[nodiscard]] V run_up_start(const V& run_up) const noexcept {
        const scalar_t<V> length = run_up_length(run_up);
        if (!std::isfinite(length)) return takeoff;
        return boids::add_scaled(takeoff, boids::normalized_or_zero(run_up), -length);
    }
    // v without its part along gravity.
    [[nodiscard]] V ground(const V& v) const noexcept {
        const scalar_t<V> g2 = boids::length_squared(gravity);
        if (!(g2 > 0)) return v;
        return boids::add_scaled(v, gravity, -boids::dot(v, gravity) / g2);
    }
    // The way from speed u (along the run-up) to within velocity_tolerance of speed s:
    // at max_force until the gap is max_force * reaction_time, then a gap shrinking as
    // e^(-t / reaction_time), at most s meanwhile. On the run it shrinks at least as
    // fast as the way left, so an agent that starts a run-up with room keeps it.
    [[nodiscard]] scalar_t<V> run_distance(scalar_t<V> s, scalar_t<V> u) const noexcept {
        using S = scalar_t<V>;
        S gap = s - u;
        if (!(gap > velocity_tolerance)) return S(0);
        const S a = limits.max_force, tau = limits.reaction_time;
        if (!(a > S(0))) return std::numeric_limits<S>::infinity();
        S speeding = S(0);
        if (gap > a * tau) {
            const S v1 = s - a * tau;
            speeding = (v1 * v1 - u * u) / (S(2) * a);
            gap = a * tau;
        }
        return speeding + (gap > velocity_tolerance ? s * tau * std::log(gap / velocity_tolerance) : S(0));
    }
};

}  // namespace boids

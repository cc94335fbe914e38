// boids/flight.hpp - a banking flight model: a bird turns by tilting its lift.
//
// A steering blend asks for an acceleration; a bird cannot simply have it. Here the
// part across the velocity (the turn) is capped and relaxed, bounded by a pitch
// envelope, and then produced the way a wing does: the bird banks (rolling in
// faster than it rolls out) and its lift, which lags, pulls along the banked "up".
// Lift plus gravity is the turning acceleration; a speed controller acts along the
// velocity. 3D, y up, metres and seconds.
#pragma once
#include <algorithm>
#include <cmath>
#include "config.hpp"
#include "vector.hpp"

namespace boids {

// The part of the flight that persists between steps.
template <class V>
struct flight_state {
    using S = scalar_t<V>;
    V turn{};    // the relaxed turning request (across the velocity), m/s^2
    S bank = 0;  // rad, positive banks to the bird's left
    S lift = 0;  // m/s^2 along the banked up

    // Level flight: no turn, no bank, lift holding the bird up against gravity.
    [[nodiscard]] static flight_state level(S gravity) noexcept {
        flight_state f;
        f.turn = boids::zero<V>();
        f.lift = gravity;
        return f;
    }
};

template <class S>
struct banking_flight {
    S preferred_speed = S(10);       // v0, m/s
    S max_acceleration = S(12);      // a_max, m/s^2: caps the turn request and the velocity change per step
    S response_time = S(0.25);       // tau, s: how fast the turn request follows the target
    S pitch_limit = S(0.55);         // theta0, rad: climbs and dives are pulled back beyond it
    S pitch_stiffness = S(20);       // kappa, m/s^2 per rad
    S max_bank = S(1.03);            // rad
    S max_lift_g = S(2.2);           // lift in [0, max_lift_g * gravity]
    S roll_in_time = S(0.22);        // s, banking further
    S roll_out_time = S(0.44);       // s, levelling out
    S lift_time = S(0.65);           // s
    S speed_time = S(1.25);          // s, the speed controller's time constant
    S max_speed_change = S(2.5);     // m/s^2, the along-velocity acceleration cap
    S min_speed_fraction = S(0.64);  // the speed band, as fractions of v0
    S max_speed_fraction = S(1.36);
    S gravity = S(9.81);  // m/s^2

    [[nodiscard]] validation validate() const noexcept {
        auto positive = [](S x) { return std::isfinite(x) && x > S(0); };
        auto non_negative = [](S x) { return std::isfinite(x) && x >= S(0); };
        if (!positive(preferred_speed)) return detail::fail("preferred_speed", "must be finite and > 0");
        if (!positive(max_acceleration)) return detail::fail("max_acceleration", "must be finite and > 0");
        if (!non_negative(response_time)) return detail::fail("response_time", "must be finite and >= 0");
        if (!(non_negative(pitch_limit) && pitch_limit <= pi<S> / S(2)))
            return detail::fail("pitch_limit", "must be in [0, pi/2] rad");
        if (!non_negative(pitch_stiffness)) return detail::fail("pitch_stiffness", "must be finite and >= 0");
        if (!(non_negative(max_bank) && max_bank <= pi<S> / S(2)))
            return detail::fail("max_bank", "must be in [0, pi/2] rad");
        if (!non_negative(max_lift_g)) return detail::fail("max_lift_g", "must be finite and >= 0");
        if (!non_negative(roll_in_time) || !non_negative(roll_out_time) || !non_negative(lift_time))
            return detail::fail("roll_in_time/roll_out_time/lift_time", "must be finite and >= 0");
        if (!positive(speed_time)) return detail::fail("speed_time", "must be finite and > 0");
        if (!non_negative(max_speed_change)) return detail::fail("max_speed_change", "must be finite and >= 0");
        if (!(positive(min_speed_fraction) && std::isfinite(max_speed_fraction) &&
              min_speed_fraction <= max_speed_fraction))
            return detail::fail("min_speed_fraction/max_speed_fraction", "must be finite with 0 < min <= max");
        if (!non_negative(gravity)) return detail::fail("gravity", "must be finite and >= 0");
        return {};
    }

    // The relaxation factors 1 - e^(-dt/T) of one step, worked out once per step.
    struct factors {
        S dt, turn, roll_in, roll_out, lift;
    };
    [[nodiscard]] factors factors_for(S dt) const noexcept {
        auto relax = [dt](S time) { return time > S(0) ? S(1) - std::exp(-dt / time) : S(1); };
        return {dt, relax(response_time), relax(roll_in_time), relax(roll_out_time), relax(lift_time)};
    }

    // The bank and lift a bird would ask for to get the turning acceleration `turn`
    // (across unit velocity u, with `up` and `left` completing its unbanked frame),
    // within the limits. Gravity's part across u is `g_across`.
    template <class V>
    void request(const V& turn, const V& g_across, const V& up, const V& left, S& bank, S& lift) const noexcept {
        const V need = boids::sub(turn, g_across);  // what the lift must supply
        const S b = std::atan2(boids::dot(need, left), boids::dot(need, up));
        bank = std::clamp(std::isfinite(b) ? b : S(0), -max_bank, max_bank);
        const S along =
            boids::dot(need, boids::add(boids::scale(up, std::cos(bank)), boids::scale(left, std::sin(bank))));
        lift = std::clamp(std::isfinite(along) ? along : S(0), S(0), max_lift_g * gravity);
    }

    // One step: the velocity after dt toward the target acceleration, and the state
    // updated. The position is the caller's (x += v dt afterwards: semi-implicit Euler).
    // `reflex` is an acceleration applied at once, outside the bank and lift lags (a
    // bird dodging a neighbour), served first from the a_max budget, and still
    // within the speed band.
    template <class V>
    void advance(V& velocity, const V& target, flight_state<V>& state, const factors& f,
                 const V& reflex = boids::zero<V>()) const noexcept {
        static_assert(dimension_v<V> == 3, "banking_flight: 3D only (y up)");
        if (!(f.dt > S(0))) return;
        const V y_axis = boids::unit_axis<V>(1);
        const V x_axis = boids::unit_axis<V>(0);
        const S speed = boids::length(velocity);
        const V u = speed > S(0) ? boids::scale(velocity, S(1) / speed) : x_axis;
        V up = boids::normalized_or_zero(boids::sub(y_axis, boids::scale(u, boids::dot(u, y_axis))));
        if (boids::is_zero(up))
            up = boids::normalized_or_zero(boids::sub(x_axis, boids::scale(u, boids::dot(u, x_axis))));
        if (boids::is_zero(up)) up = boids::unit_axis<V>(2);
        const V left = boids::cross(up, u);

        // The turn asked for: across u, capped, relaxed, kept across u.
        const V wanted = boids::is_finite(target) ? target : boids::zero<V>();
        const S along = boids::dot(wanted, u);
        const V across = boids::clamp_magnitude(boids::sub(wanted, boids::scale(u, along)), max_acceleration);
        V turn = boids::add_scaled(state.turn, boids::sub(across, state.turn), f.turn);
        turn = boids::sub(turn, boids::scale(u, boids::dot(turn, u)));
        state.turn = turn;

        // The pitch envelope: the upward part within [-kappa (theta0 + theta), kappa (theta0 - theta)].
        const S pitch = std::asin(std::clamp(boids::dot(u, y_axis), S(-1), S(1)));
        const S vertical = boids::dot(turn, up);
        const S bounded =
            std::clamp(vertical, -pitch_stiffness * (pitch_limit + pitch), pitch_stiffness * (pitch_limit - pitch));
        const V asked = boids::add_scaled(turn, up, bounded - vertical);

        // Bank and lift follow their requests with lags; lift and gravity turn the bird.
        const V g_across = boids::scale(boids::sub(y_axis, boids::scale(u, boids::dot(u, y_axis))), -gravity);
        S bank_wanted, lift_wanted;
        request(asked, g_across, up, left, bank_wanted, lift_wanted);
        const bool rolling_in = std::fabs(bank_wanted) > std::fabs(state.bank) && bank_wanted * state.bank >= S(0);
        state.bank += (bank_wanted - state.bank) * (rolling_in ? f.roll_in : f.roll_out);
        state.lift += (lift_wanted - state.lift) * f.lift;
        const V lift_dir = boids::add(boids::scale(up, std::cos(state.bank)), boids::scale(left, std::sin(state.bank)));
        const V turning = boids::add(boids::scale(lift_dir, state.lift), g_across);

        // Along the velocity: the speed controller.
        const S a_along =
            std::clamp((preferred_speed - speed) / speed_time + along, -max_speed_change, max_speed_change);
        // The reflex first, the flight with what is left of a_max: the sum stays within it.
        const V first = boids::is_finite(reflex) ? boids::clamp_magnitude(reflex, max_acceleration) : boids::zero<V>();
        const S budget = std::max(S(0), max_acceleration - boids::length(first));
        const V rest = boids::clamp_magnitude(boids::add_scaled(turning, u, a_along), budget);
        const V change = boids::clamp_magnitude(boids::scale(boids::add(first, rest), f.dt), max_acceleration * f.dt);
        velocity = boids::clamp_magnitude(boids::add(boids::scale(u, speed), change),
                                          min_speed_fraction * preferred_speed, max_speed_fraction * preferred_speed);
        if (boids::is_zero(velocity)) velocity = boids::scale(u, min_speed_fraction * preferred_speed);
    }
};

}  // namespace boids

// boids/models/starling_params.hpp - every parameter of the starling model, with
// its unit, its default and its validation.
#pragma once
#include <cmath>
#include <cstdint>
#include "../config.hpp"
#include "../flight.hpp"
#include "starling_terms.hpp"

namespace boids {
namespace starling {

// Every parameter of the model, with the unit it is in. The values the source
// fixes are the defaults; where it leaves one to a slider, the default is ours
// (marked "chosen") and looks like starlings: about 1 m between neighbours, 10 m/s.
template <class S>
struct params {
    S dt = S(1.0 / 30.0);              // s
    std::size_t k = 7;                 // social neighbours (the nearest of the candidates)
    std::size_t candidates = 24;       // the nearest this many are candidates
    std::size_t perception_every = 1;  // P: a bird looks every P steps, staggered
    S alignment = S(1.5);              // J, 1/s (chosen)
    S cohesion = S(0.8);               // C, 1/s^2 (chosen)
    // Extra cohesion at the flock's border, where a bird's candidates all lie to one
    // side: cohesion C (1 + border_cohesion b), b the length of the mean of the unit
    // vectors to the candidates (about 0 inside, 0.5 on the border). 0 is the source's;
    // above, a flock stays whole without a roost (the centrality of Hildenbrandt et al.
    // 2010's StarDisplay).
    S border_cohesion = S(0);
    S separation = S(10);          // S, m/s^2
    S separation_radius = S(2.0);  // r0, m (chosen)
    // Separation acts at once, outside the bank and lift lags (chosen: through the
    // lags, birds of the 3,000-bird scene came within 1-3 cm of each other).
    bool separation_reflex = true;
    // The separation zone's reach ahead of and behind a bird (along its heading), in
    // r0: 1 is the source's sphere; above 1, an ellipsoid that keeps the birds ahead and
    // behind farther off than those beside, as field flocks do (Ballerini et al. 2008).
    // Among the candidates only.
    S separation_ahead = S(1);
    // The blind sector behind a bird, its whole angle (rad): social neighbours (the k
    // for alignment and cohesion) are the nearest candidates outside it. 0: none, the
    // source's. Separation and the copy rule still see every candidate.
    S rear_blind_angle = S(0);
    // How the social weights end: 0, the source's, weighs the k nearest alike and the
    // rest not at all; f > 0 weighs the social neighbours of rank k - f and below alike
    // and fades the weight linearly to nothing over the next 2f ranks (the (k + f)-th
    // is the last with a weight), so that no rank marks the edge of the neighbourhood.
    // The copy rule still reads the k nearest. Needs k + f <= candidates.
    std::size_t social_fade = 0;
    // The altitude preference's pull toward 20 m, m/s^2 a metre: the source's 0.015
    // flattens a flock into a sheet a few metres thick whatever its size; 0 leaves only
    // the band's walls (11 and 34 m) and the damping of vertical speed. A double, as
    // the altitude preference is worked out in double.
    double altitude_pull = source_altitude_pull;
    S noise = S(1.0);                                      // sigma, m/s^2 per component (chosen)
    S noise_time = S(1.8);                                 // tc, s
    S roost_gain = S(3.0);                                 // K_R, m/s^2 (chosen)
    S roost_x = S(-25), roost_y = S(0), roost_z = S(-30);  // the roost centre, m
    // The source's disturbances, started on an edge patch at the times below. Off, a
    // turn starts only on request (flock::start_turn).
    bool scheduled_disturbances = true;
    S disturbance_first = S(5);                                  // s
    S disturbance_min_gap = S(16), disturbance_max_gap = S(28);  // s
    S patch_min_radius = S(2), patch_scale = S(0.42);            // patch radius max(2 m, 0.42 E)
    S pulse_min = S(0.75), pulse_max = S(1.0);
    S pulse_min_time = S(2.8), pulse_max_time = S(3.6);  // s
    S dive_chance = S(0.35);                             // of a disturbance including a dive (chosen)
    S lateral = S(12), dive = S(7);                      // m/s^2
    S social_drop = S(0.95);                             // alignment and cohesion weighted by 1 - 0.95 e
    copy_rule copying{};
    banking_flight<S> flight{};  // v0 = 10 m/s (chosen), tau = 0.25 s (chosen)
    std::uint64_t seed = 1;

    [[nodiscard]] validation validate() const noexcept {
        auto finite_non_negative = [](S x) { return std::isfinite(x) && x >= S(0); };
        if (!(std::isfinite(dt) && dt > S(0))) return detail::fail("dt", "must be finite and > 0");
        if (k == 0) return detail::fail("k", "must be >= 1");
        if (candidates < k) return detail::fail("candidates", "must be >= k");
        if (candidates > 64) return detail::fail("candidates", "must be <= 64");
        if (social_fade > candidates - k) return detail::fail("social_fade", "k + social_fade must be <= candidates");
        if (perception_every == 0) return detail::fail("perception_every", "must be >= 1");
        for (S x : {alignment, cohesion, border_cohesion, separation, noise, roost_gain, lateral, dive})
            if (!finite_non_negative(x))
                return detail::fail("alignment/cohesion/border_cohesion/separation/noise/roost_gain/lateral/dive",
                                    "must be finite and >= 0");
        if (!(std::isfinite(altitude_pull) && altitude_pull >= 0))
            return detail::fail("altitude_pull", "must be finite and >= 0");
        if (!(std::isfinite(separation_radius) && separation_radius > S(0)))
            return detail::fail("separation_radius", "must be finite and > 0");
        if (!(std::isfinite(separation_ahead) && separation_ahead >= S(1)))
            return detail::fail("separation_ahead", "must be finite and >= 1");
        if (!(rear_blind_angle >= S(0) && rear_blind_angle < S(2) * pi<S>))
            return detail::fail("rear_blind_angle", "must be in [0, 2 pi)");
        if (!(std::isfinite(noise_time) && noise_time > S(0)))
            return detail::fail("noise_time", "must be finite and > 0");
        if (!(std::isfinite(roost_x) && std::isfinite(roost_y) && std::isfinite(roost_z)))
            return detail::fail("roost", "must be finite");
        if (!finite_non_negative(disturbance_first))
            return detail::fail("disturbance_first", "must be finite and >= 0");
        if (!(std::isfinite(disturbance_max_gap) && disturbance_min_gap > S(0) &&
              disturbance_min_gap <= disturbance_max_gap))
            return detail::fail("disturbance_min_gap/disturbance_max_gap", "need 0 < min <= max");
        if (!finite_non_negative(patch_min_radius) || !finite_non_negative(patch_scale))
            return detail::fail("patch_min_radius/patch_scale", "must be finite and >= 0");
        if (!(finite_non_negative(pulse_min) && std::isfinite(pulse_max) && pulse_min <= pulse_max &&
              pulse_max <= S(1)))
            return detail::fail("pulse_min/pulse_max", "need 0 <= min <= max <= 1");
        if (!(std::isfinite(pulse_max_time) && pulse_min_time > S(0) && pulse_min_time <= pulse_max_time))
            return detail::fail("pulse_min_time/pulse_max_time", "need 0 < min <= max");
        if (!(dive_chance >= S(0) && dive_chance <= S(1))) return detail::fail("dive_chance", "must be in [0, 1]");
        if (!(social_drop >= S(0) && social_drop <= S(1))) return detail::fail("social_drop", "must be in [0, 1]");
        if (!(copying.min_delay >= 0 && copying.min_delay <= copying.max_delay && std::isfinite(copying.max_delay)))
            return detail::fail("copying.min_delay/max_delay", "need 0 <= min <= max");
        if (!(copying.fraction >= 0 && copying.fraction <= 1))
            return detail::fail("copying.fraction", "must be in [0, 1]");
        if (!(copying.min_amplitude >= 0 && copying.min_amplitude <= 1))
            return detail::fail("copying.min_amplitude", "must be in [0, 1]");
        if (!(std::isfinite(copying.refractory) && copying.refractory >= 0))
            return detail::fail("copying.refractory", "must be finite and >= 0");
        return flight.validate();
    }
};

// The parameters that match the field data its source cites (docs/starlings.md):
// `source` with a flock that holds together without a roost (border cohesion, less
// noise, a tighter separation), the nearest neighbour beside rather than ahead and no
// preferred direction from the 6th on (a separation zone 0.3% longer along the
// heading, social weights that fade with rank, no pull to one height, climbs as quick
// as turns: the neighbour anisotropy of Ballerini et al. 2008), a marginal speed
// control (the scale-free speed correlations of Cavagna et al. 2010) and copies of a
// turn as strong as the turn (it crosses the flock without fading, as in Attanasi et
// al. 2014).
template <class S>
[[nodiscard]] params<S> field_params(params<S> source = {}) noexcept {
    source.separation_radius = S(1.2);
    source.separation_ahead = S(1.003);
    source.social_fade = 4;
    source.altitude_pull = 0;
    source.noise = S(0.3);
    source.border_cohesion = S(1);
    source.flight.speed_time = S(40);
    source.flight.lift_time = S(0.1);
    source.copying.fraction = 1;
    source.copying.min_delay = 0.02;
    source.copying.max_delay = 0.06;
    return source;
}

}  // namespace starling
}  // namespace boids

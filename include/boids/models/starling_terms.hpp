// boids/models/starling_terms.hpp - the starling model's own terms, as free
// functions and small structs: the flock's size scale, the roost and its
// hysteresis, the altitude band, correlated noise (Ornstein-Uhlenbeck), the roost
// turn, and disturbances: their pulse, how a manoeuvre spreads, its acceleration.
// 3D, y up, metres and seconds.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include "../random.hpp"
#include "../vector.hpp"

namespace boids {
namespace starling {

// The flock's size scale E = 10 m * (max(N, 80) / 3000)^(1/3), in metres.
[[nodiscard]] inline double size_scale(double birds) noexcept {
    return 10.0 * std::cbrt(std::max(birds, 80.0) / 3000.0);
}
// The roost radius R = 45 m + 1.5 E; a bird turns home once farther than R from the
// roost centre (horizontally) and keeps returning until within return_fraction * R.
[[nodiscard]] inline double roost_radius(double birds) noexcept { return 45.0 + 1.5 * size_scale(birds); }
inline constexpr double return_fraction = 0.45;

// Whether a bird is returning to the roost, with the model's hysteresis: start
// outside R, stop inside 0.45 R, otherwise keep the current state.
[[nodiscard]] inline bool returning(bool was_returning, double horizontal_distance, double radius) noexcept {
    if (horizontal_distance > radius) return true;
    if (horizontal_distance < return_fraction * radius) return false;
    return was_returning;
}

// The source's weak pull toward 20 m, in m/s^2 a metre.
inline constexpr double source_altitude_pull = 0.015;

// The altitude preference (vertical acceleration, m/s^2) at height y (m) climbing at
// vy (m/s): pushed up below 11 m and down above 34 m (both looking 2 s ahead), a
// weak pull toward 20 m (`pull` m/s^2 a metre), and damping of vertical speed.
[[nodiscard]] inline double altitude_acceleration(double y, double vy, double pull = source_altitude_pull) noexcept {
    return 1.6 * std::max(11.0 - y - 2.0 * vy, 0.0) - 1.2 * std::max(y + 2.0 * vy - 34.0, 0.0) + pull * (20.0 - y) -
           0.025 * vy;
}

// Individual variation: each component an Ornstein-Uhlenbeck process with
// correlation time tc (s) and stationary deviation sigma, advanced exactly over h
// seconds: eta' = e^(-h/tc) eta + sigma sqrt(1 - e^(-2h/tc)) xi, xi standard normal.
// The bird's own seeded stream drives it, so runs repeat whatever the threads.
template <class V>
struct ou_noise {
    using S = scalar_t<V>;
    S correlation_time = S(1.8);  // s
    S sigma = S(1);               // the component's stationary standard deviation

    // The factors e^(-h/tc) and sigma sqrt(1 - e^(-2h/tc)) of a step of h seconds.
    struct factors {
        double decay = 1, kick = 0;
    };
    [[nodiscard]] factors factors_for(S h) const noexcept {
        if (!(h > S(0)) || !(correlation_time > S(0))) return {};
        const double decay = std::exp(-static_cast<double>(h) / static_cast<double>(correlation_time));
        return {decay, static_cast<double>(sigma) * std::sqrt(std::max(0.0, 1.0 - decay * decay))};
    }
    void advance(V& eta, random_stream& rng, S h) const noexcept { advance(eta, rng, factors_for(h)); }
    // The same with the factors worked out once for many agents.
    void advance(V& eta, random_stream& rng, const factors& f) const noexcept {
        if (f.kick == 0 && f.decay == 1) return;
        double xi[4];
        rng.normal_pair(xi[0], xi[1]);
        if (dimension_v < V >> 2) rng.normal_pair(xi[2], xi[3]);
        eta = boids::generate<V>([&](std::size_t i) {
            return static_cast<S>(f.decay * static_cast<double>(boids::get(eta, i)) + f.kick * xi[i]);
        });
    }
};

// A disturbance's pulse: e(t) = a sin(pi (t - t0) / T) while t0 <= t <= t0 + T, else 0.
[[nodiscard]] inline double pulse(double t, double t0, double amplitude, double duration) noexcept {
    if (!(duration > 0) || t < t0 || t > t0 + duration) return 0.0;
    return amplitude * std::sin(pi<double> * (t - t0) / duration);
}

// The horizontal unit vector to the bird's left for a horizontal heading h:
// y x h = (h_z, 0, -h_x).
template <class V>
[[nodiscard]] V horizontal_left(const V& velocity) noexcept {
    using S = scalar_t<V>;
    const V h = boids::normalized_or_zero(
        boids::generate<V>([&](std::size_t i) { return i == 1 ? S(0) : boids::get(velocity, i); }));
    return boids::generate<V>(
        [&](std::size_t i) { return i == 0 ? boids::get(h, 2) : (i == 1 ? S(0) : -boids::get(h, 0)); });
}

// The roost turn R_i = q K_R (1 + h.n)/2 tanh(8 (-n).l) l, where n is the horizontal
// unit vector from the roost centre to the bird, h the bird's horizontal unit
// heading, l its horizontal left and q = 1 while returning. Strongest when flying
// straight away (h.n = 1), none when heading home; it turns toward the side the
// roost lies on. Flying exactly away, the side is the bird's seeded `tie_side` (+1
// left, -1 right). Acceleration in m/s^2 (gain K_R in m/s^2).
template <class V>
[[nodiscard]] V roost_turn(const V& position, const V& velocity, const V& roost_centre, scalar_t<V> gain,
                           bool is_returning, int tie_side) noexcept {
    using S = scalar_t<V>;
    if (!is_returning) return boids::zero<V>();
    auto flat = [](const V& a) {
        return boids::generate<V>([&](std::size_t i) { return i == 1 ? S(0) : boids::get(a, i); });
    };
    const V n = boids::normalized_or_zero(flat(boids::sub(position, roost_centre)));
    const V h = boids::normalized_or_zero(flat(velocity));
    if (boids::is_zero(n) || boids::is_zero(h)) return boids::zero<V>();
    const V l = horizontal_left(velocity);
    const S side = -boids::dot(n, l);
    const S weight = (S(1) + boids::dot(h, n)) * S(0.5);
    const S turn = side == S(0) ? static_cast<S>(tie_side >= 0 ? 1 : -1) : std::tanh(S(8) * side);
    return boids::scale(l, gain * weight * turn);
}

// One bird's part in a disturbance: a pulse e(t) = a sin(pi (t - t0)/T) that turns
// it to one side (turn = +1 left, -1 right) and sometimes dives.
struct maneuver {
    std::uint32_t disturbance = 0;  // which disturbance (1, 2, ...; 0: none yet)
    double start = 0;               // t0, s
    double duration = 0;            // T, s
    double amplitude = 0;           // a
    int turn = 1;
    bool dive = false;

    [[nodiscard]] bool active(double t) const noexcept {
        return disturbance != 0 && t >= start && t <= start + duration;
    }
    [[nodiscard]] double level(double t) const noexcept {
        return disturbance == 0 ? 0.0 : pulse(t, start, amplitude, duration);
    }
};

// How a manoeuvre spreads: a bird copies the strongest active manoeuvre among its
// neighbours after a reaction delay, a little weaker, once per disturbance, and not
// while it is manoeuvring or within the refractory time after its last one.
struct copy_rule {
    double min_delay = 0.12, max_delay = 0.28;  // s, uniform
    double fraction = 0.96;                     // of the neighbour's amplitude
    double min_amplitude = 0.25;                // a copy is never weaker than this
    double refractory = 5.0;                    // s after a manoeuvre ends

    [[nodiscard]] bool may_copy(const maneuver& own, std::uint32_t disturbance, double t) const noexcept {
        if (disturbance == 0 || own.disturbance == disturbance) return false;
        return own.disturbance == 0 || t > own.start + own.duration + refractory;
    }
    // The copy of `source` that a bird makes at time t after `delay` seconds.
    [[nodiscard]] maneuver copy_of(const maneuver& source, double t, double delay) const noexcept {
        maneuver m = source;
        m.start = t + delay;
        m.amplitude = std::max(fraction * source.amplitude, min_amplitude);
        return m;
    }
    // Among the neighbours' manoeuvres (index -> maneuver), the strongest active at t
    // (ties: the first), or nullptr.
    template <class Neighbors, class Get>
    [[nodiscard]] static const maneuver* strongest_active(const Neighbors& neighbors, Get&& get, double t) noexcept {
        const maneuver* best = nullptr;
        for (const auto& nb : neighbors) {
            const maneuver& m = get(nb);
            if (m.active(t) && (best == nullptr || m.amplitude > best->amplitude)) best = &m;
        }
        return best;
    }
};

// The disturbance acceleration E_i = e_i (lateral s_i l - dive d_i y), m/s^2.
template <class V>
[[nodiscard]] V disturbance_acceleration(const maneuver& m, double t, const V& velocity, scalar_t<V> lateral,
                                         scalar_t<V> dive) noexcept {
    using S = scalar_t<V>;
    const S e = static_cast<S>(m.level(t));
    if (e == S(0)) return boids::zero<V>();
    V a = boids::scale(horizontal_left(velocity), e * lateral * static_cast<S>(m.turn));
    if (m.dive) a = boids::add_scaled(a, boids::unit_axis<V>(1), -e * dive);
    return a;
}

}  // namespace starling
}  // namespace boids

// boids/models/starling.hpp - pieces of the starling model of "The physics of a
// flock" (3D, metres and seconds), as reusable parts. What is here is what that
// model states exactly; the scene that assembles them (roost turning, disturbance
// spreading, banking flight, boids-lab starlings) is still to come.
#pragma once
#include <algorithm>
#include <cmath>
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

// The altitude preference (vertical acceleration, m/s^2) at height y (m) climbing at
// vy (m/s): pushed up below 11 m and down above 34 m (both looking 2 s ahead), a
// weak pull toward 20 m, and damping of vertical speed.
[[nodiscard]] inline double altitude_acceleration(double y, double vy) noexcept {
    return 1.6 * std::max(11.0 - y - 2.0 * vy, 0.0) - 1.2 * std::max(y + 2.0 * vy - 34.0, 0.0) + 0.015 * (20.0 - y) -
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

    void advance(V& eta, random_stream& rng, S h) const noexcept {
        if (!(h > S(0)) || !(correlation_time > S(0))) return;
        const double decay = std::exp(-static_cast<double>(h) / static_cast<double>(correlation_time));
        const double kick = static_cast<double>(sigma) * std::sqrt(std::max(0.0, 1.0 - decay * decay));
        eta = boids::generate<V>([&](std::size_t i) {
            return static_cast<S>(decay * static_cast<double>(boids::get(eta, i)) + kick * rng.normal());
        });
    }
};

// A disturbance's pulse: e(t) = a sin(pi (t - t0) / T) while t0 <= t <= t0 + T, else 0.
[[nodiscard]] inline double pulse(double t, double t0, double amplitude, double duration) noexcept {
    if (!(duration > 0) || t < t0 || t > t0 + duration) return 0.0;
    return amplitude * std::sin(3.14159265358979323846 * (t - t0) / duration);
}

} // namespace starling
} // namespace boids

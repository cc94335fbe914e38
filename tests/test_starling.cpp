// Tests of boids/models/starling.hpp against hand-computed values.
#include "test_support.hpp"
#include <boids/models/starling.hpp>

TEST_CASE("starling: size scale and roost radius for given N", "[starling]") {
    // E = 10 (N/3000)^(1/3): N = 3000 -> 10 m; below 80 birds it stays at N = 80.
    CHECK(boids::starling::size_scale(3000) == Approx(10.0).epsilon(1e-12));
    CHECK(boids::starling::size_scale(24000) == Approx(20.0).epsilon(1e-12));
    CHECK(boids::starling::size_scale(10) == Approx(10.0 * std::cbrt(80.0 / 3000.0)).epsilon(1e-12));
    // R = 45 + 1.5 E.
    CHECK(boids::starling::roost_radius(3000) == Approx(60.0).epsilon(1e-12));
    CHECK(boids::starling::roost_radius(24000) == Approx(75.0).epsilon(1e-12));
}

TEST_CASE("starling: the roost return switches on outside R and off inside 0.45 R", "[starling]") {
    using boids::starling::returning;
    CHECK(returning(false, 61, 60));        // left the radius: turn home
    CHECK(returning(true, 40, 60));         // still between 0.45 R and R: keep going
    CHECK_FALSE(returning(true, 26.9, 60)); // inside 27 m: done
    CHECK_FALSE(returning(false, 40, 60));  // never left: nothing to do
}

TEST_CASE("starling: the altitude response", "[starling]") {
    using boids::starling::altitude_acceleration;
    // At 20 m, level: nothing.
    CHECK(altitude_acceleration(20, 0) == Approx(0).margin(1e-12));
    // At 5 m, level: 1.6 * 6 + 0.015 * 15 = 9.825 up.
    CHECK(altitude_acceleration(5, 0) == Approx(9.825).epsilon(1e-12));
    // At 40 m, level: -1.2 * 6 + 0.015 * (-20) = -7.5.
    CHECK(altitude_acceleration(40, 0) == Approx(-7.5).epsilon(1e-12));
    // At 12 m sinking at 1 m/s: looks 2 s ahead (10 m): 1.6 * 1 + 0.015 * 8 + 0.025 = 1.745.
    CHECK(altitude_acceleration(12, -1) == Approx(1.745).epsilon(1e-12));
}

TEST_CASE("starling: OU noise has the stationary variance and correlation time", "[starling]") {
    const boids::starling::ou_noise<plain_dvec3> ou{1.8, 2.0};
    boids::random_stream rng(42);
    plain_dvec3 eta{0, 0, 0};
    const double h = 1.0 / 15;
    double sum2 = 0, lag = 0, prev = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        ou.advance(eta, rng, h);
        if (i > 1000) {
            sum2 += eta.x * eta.x;
            lag += eta.x * prev;
        }
        prev = eta.x;
    }
    const double var = sum2 / (n - 1001), corr = lag / sum2;
    CHECK(var == Approx(4.0).epsilon(0.05));                 // sigma^2
    CHECK(corr == Approx(std::exp(-h / 1.8)).epsilon(0.01));  // one-step correlation e^(-h/tc)
    // h = 0: unchanged.
    const plain_dvec3 before = eta;
    ou.advance(eta, rng, 0);
    CHECK(eta.x == before.x);
}

TEST_CASE("starling: the disturbance pulse shape", "[starling]") {
    using boids::starling::pulse;
    CHECK(pulse(4.9, 5, 0.8, 3) == 0);
    CHECK(pulse(5, 5, 0.8, 3) == Approx(0).margin(1e-12));
    CHECK(pulse(6.5, 5, 0.8, 3) == Approx(0.8).epsilon(1e-12));  // the peak, half way
    CHECK(pulse(5.75, 5, 0.8, 3) == Approx(0.8 * std::sin(3.14159265358979 / 4)).epsilon(1e-9));
    CHECK(pulse(8.01, 5, 0.8, 3) == 0);
}

// Tests of boids/flight.hpp: the banking flight model's limits and lags.
#include "test_support.hpp"
#include <cstring>
#include <type_traits>
#include <boids/flight.hpp>

namespace {
using V = glm::dvec3;
const boids::banking_flight<double> model{};
}  // namespace

TEST_CASE("flight: level flight with no request stays level and at speed", "[flight]") {
    V v(10, 0, 0);
    auto st = boids::flight_state<V>::level(model.gravity);
    const auto f = model.factors_for(1.0 / 30);
    for (int i = 0; i < 300; ++i) model.advance(v, V(0), st, f);
    CHECK(v.x == Approx(10).epsilon(1e-9));
    CHECK(std::fabs(v.y) < 1e-9);
    CHECK(std::fabs(v.z) < 1e-9);
    CHECK(std::fabs(st.bank) < 1e-12);
}

TEST_CASE("flight: bank and lift stay within their limits whatever is asked", "[flight]") {
    const auto f = model.factors_for(1.0 / 30);
    for (const V ask : {V(0, 0, 1e4), V(0, 0, -1e4), V(0, -1e4, 0), V(0, 1e4, 0), V(0, -500, 500)}) {
        V v(10, 0, 0);
        auto st = boids::flight_state<V>::level(model.gravity);
        for (int i = 0; i < 120; ++i) {
            model.advance(v, ask, st, f);
            REQUIRE(std::fabs(st.bank) <= model.max_bank + 1e-12);
            REQUIRE(st.lift >= 0);
            REQUIRE(st.lift <= model.max_lift_g * model.gravity + 1e-9);
            const double speed = boids::length(v);
            REQUIRE(speed >= model.min_speed_fraction * model.preferred_speed - 1e-9);
            REQUIRE(speed <= model.max_speed_fraction * model.preferred_speed + 1e-9);
        }
    }
    // The request itself: straight down needs more than gravity, so no bank helps
    // beyond the limit, and lift is never negative.
    double bank = 0, lift = 0;
    model.request(V(0, 0, -100), V(0, -9.81, 0), V(0, 1, 0), V(0, 0, -1), bank, lift);
    CHECK(bank == Approx(model.max_bank));
    model.request(V(0, -50, 0), V(0, -9.81, 0), V(0, 1, 0), V(0, 0, -1), bank, lift);
    CHECK(lift == 0);
    // A level turn of 9.81 m/s^2 to the left: bank 45 degrees, lift sqrt(2) g.
    model.request(V(0, 0, -9.81), V(0, -9.81, 0), V(0, 1, 0), V(0, 0, -1), bank, lift);
    CHECK(bank == Approx(0.7853981633974483).epsilon(1e-12));
    CHECK(lift == Approx(9.81 * std::sqrt(2.0)).epsilon(1e-12));
}

TEST_CASE("flight: the bird rolls in faster than it rolls out, and lift lags the bank", "[flight]") {
    const auto f = model.factors_for(1.0 / 30);
    // One step toward a 0.5 rad bank from level, and one step back from 0.5 rad.
    CHECK(f.roll_in == Approx(1 - std::exp(-(1.0 / 30) / 0.22)));
    CHECK(f.roll_out == Approx(1 - std::exp(-(1.0 / 30) / 0.44)));
    CHECK(f.lift == Approx(1 - std::exp(-(1.0 / 30) / 0.65)));
    CHECK(f.roll_in > f.roll_out);
    CHECK(f.roll_out > f.lift);
    // Asked for a hard left turn, the bird banks left (turn request and roll both
    // lag: 0.26 rad after 0.2 s) before its lift has grown much.
    V v(10, 0, 0);
    auto st = boids::flight_state<V>::level(model.gravity);
    for (int i = 0; i < 6; ++i) model.advance(v, V(0, 0, -12), st, f);
    CHECK(st.bank > 0.2);
    CHECK(st.lift < 1.1 * model.gravity);
    const double early_bank = st.bank;
    for (int i = 0; i < 60; ++i) model.advance(v, V(0, 0, -12), st, f);
    CHECK(st.bank > early_bank + 0.2);     // still banking further into the turn
    CHECK(st.lift > 1.1 * model.gravity);  // and lift has caught up: L cos(bank) holds the bird up
    CHECK(v.z < 0);                        // turning toward -z: the left of a bird flying +x
}

TEST_CASE("flight: dt = 0, a zero velocity and a NaN request give finite output", "[flight][contract]") {
    auto st = boids::flight_state<V>::level(model.gravity);
    V v(3, 4, 0);
    model.advance(v, V(1, 2, 3), st, model.factors_for(0));
    CHECK(v == V(3, 4, 0));
    V still(0);
    model.advance(still, V(std::nan(""), 0, 0), st, model.factors_for(1.0 / 30));
    CHECK(std::isfinite(still.x));
    CHECK(boids::length(still) >= model.min_speed_fraction * model.preferred_speed - 1e-9);
    V up(0, 10, 0);  // straight up: no horizontal frame to bank in, still finite and in band
    for (int i = 0; i < 30; ++i) model.advance(up, V(0), st, model.factors_for(1.0 / 30));
    CHECK(std::isfinite(up.x + up.y + up.z));
    CHECK(boids::length(up) <= model.max_speed_fraction * model.preferred_speed + 1e-9);
    CHECK(model.validate());
    boids::banking_flight<double> bad = model;
    bad.max_bank = 2;
    CHECK_FALSE(bad.validate());
    CHECK(std::string(bad.validate().field) == "max_bank");
}

TEST_CASE("flight: a state copied mid-flight, or its bytes, flies as the original, bit for bit",
          "[flight][determinism]") {
    static_assert(std::is_trivially_copyable_v<boids::flight_state<plain_dvec3>>, "its bytes are the whole state");
    using P = plain_dvec3;
    const auto f = model.factors_for(1.0 / 30);
    P v{10, 0, 0};
    auto st = boids::flight_state<P>::level(model.gravity);
    auto ask = [](int i) { return P{0, 3.0 * std::sin(0.05 * i), 8.0 * std::cos(0.031 * i)}; };
    for (int i = 0; i < 90; ++i) model.advance(v, ask(i), st, f);
    boids::flight_state<P> copy = st, raw;
    std::memcpy(static_cast<void*>(&raw), &st, sizeof st);
    P vc = v, vr = v;
    bool same = true;
    for (int i = 90; i < 400; ++i) {
        model.advance(v, ask(i), st, f);
        model.advance(vc, ask(i), copy, f);
        model.advance(vr, ask(i), raw, f);
        same = same && std::memcmp(&v, &vc, sizeof v) == 0 && std::memcmp(&v, &vr, sizeof v) == 0 &&
               std::memcmp(&st.bank, &copy.bank, sizeof st.bank) == 0;
    }
    CHECK(same);
    CHECK(std::fabs(st.bank) > 0.05);  // it was turning: the state mattered
}

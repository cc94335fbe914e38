// Tests of boids/models/starling_measures.hpp on hand-made flocks.
#include "test_support.hpp"
#include <boids/models/starling_measures.hpp>
#include <boids/random.hpp>
#include <cmath>
#include <limits>
#include <vector>

namespace {
using vec = plain_dvec3;
using boids::span;

// `count` birds uniform in a cube of side `side`, each flying `heading`.
void cloud(std::uint64_t seed, std::size_t count, double side, vec heading, std::vector<vec>& p, std::vector<vec>& v) {
    boids::random_stream rng(seed);
    p.clear();
    v.clear();
    for (std::size_t i = 0; i < count; ++i) {
        const double x = rng.uniform(0, side), y = rng.uniform(0, side), z = rng.uniform(0, side);
        p.push_back({x, y, z});
        v.push_back(heading);
    }
}
}  // namespace

TEST_CASE("starling measures: a cubic lattice flying along its diagonal shows no anisotropy", "[starling][measures]") {
    std::vector<vec> p, v;
    for (int x = 0; x < 12; ++x)
        for (int y = 0; y < 12; ++y)
            for (int z = 0; z < 12; ++z) {
                p.push_back({x * 1.0, y * 1.0, z * 1.0});
                v.push_back({1, 1, 1});
            }
    const auto s = boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v), 6);
    REQUIRE(s.gamma.size() == 6);
    CHECK(s.interior > 0);
    CHECK(s.interior < p.size());  // the border is left out
    // The first six neighbours lie along the axes: every axis projects 1/3 on the diagonal.
    for (double g : s.gamma) CHECK(g == Approx(1.0 / 3).margin(1e-9));
    for (double r : s.rank_distance) CHECK(r == Approx(1.0).margin(1e-9));
    CHECK(s.nearest_mean == Approx(1.0).margin(1e-9));
}

TEST_CASE("starling measures: a random cloud gives gamma 1/3 on average", "[starling][measures]") {
    std::vector<vec> p, v;
    double sum = 0;
    std::size_t count = 0;
    const vec headings[3] = {{1, 0, 0}, {0, 1, 0}, {0.6, 0, 0.8}};
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        cloud(seed, 800, 20, headings[seed % 3], p, v);
        const auto s = boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v), 10);
        REQUIRE(s.gamma.size() == 10);
        for (double g : s.gamma) {
            CHECK(g >= 0);
            CHECK(g <= 1 + 1e-12);
            sum += g;
            ++count;
        }
    }
    CHECK(sum / static_cast<double>(count) == Approx(1.0 / 3).margin(0.06));
}

TEST_CASE("starling measures: neighbours only beside each bird give gamma near 1", "[starling][measures]") {
    // Sheets across the flight direction (x), 10 apart, birds scattered in each: every
    // near neighbour is in the bird's own sheet, none ahead or behind. (Scattered, not a
    // lattice: on a lattice each rank's neighbours lie along one line, and which of two
    // empty directions is "scarcest" would be a matter of rounding.)
    std::vector<vec> p, v;
    boids::random_stream rng(21);
    for (int sheet = 0; sheet < 5; ++sheet)
        for (int b = 0; b < 225; ++b) {
            const double y = rng.uniform(0, 15), z = rng.uniform(0, 15);
            p.push_back({sheet * 10.0, y, z});
            v.push_back({10, 0, 0});
        }
    const auto s = boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v), 20);
    REQUIRE(s.gamma.size() == 20);
    CHECK(s.interior > 0);
    for (double g : s.gamma) CHECK(g == Approx(1.0).margin(1e-9));
    // The same sheets flown along y: the scarce direction (x) is across the flight.
    for (auto& u : v) u = {0, 10, 0};
    const auto across = boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v), 20);
    for (double g : across.gamma) CHECK(g == Approx(0.0).margin(1e-9));
}

TEST_CASE("starling measures: anisotropy of degenerate flocks is empty, never NaN", "[starling][measures]") {
    std::vector<vec> p, v;
    CHECK(boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v)).gamma.empty());
    p = {{0, 0, 0}};
    v = {{1, 0, 0}};
    CHECK(boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v)).gamma.empty());
    // Everyone on one spot: no interior bird (the hull is a point).
    p.assign(50, vec{1, 2, 3});
    v.assign(50, vec{1, 0, 0});
    const auto same = boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v));
    CHECK(same.gamma.empty());
    CHECK(same.nearest_mean == 0);
    // A flock at rest has no direction of flight; a bird that is not finite is not measured.
    cloud(3, 400, 10, {0, 0, 0}, p, v);
    CHECK(boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v)).gamma.empty());
    cloud(3, 400, 10, {1, 0, 0}, p, v);
    const auto clean = boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v), 8);
    p.push_back({std::numeric_limits<double>::quiet_NaN(), 0, 0});
    v.push_back({1, 0, 0});
    const auto with_nan = boids::starling::neighbour_anisotropy(span<const vec>(p), span<const vec>(v), 8);
    CHECK(with_nan.gamma == clean.gamma);
    CHECK(with_nan.interior == clean.interior);
}

TEST_CASE("starling measures: uncorrelated speeds give a short correlation length", "[starling][measures]") {
    std::vector<vec> p, v;
    cloud(7, 2000, 30, {10, 0, 0}, p, v);
    boids::random_stream rng(11);
    for (auto& u : v) u = {10 + rng.normal(), 0.5 * rng.normal(), 0.5 * rng.normal()};
    const auto c = boids::starling::correlations(span<const vec>(p), span<const vec>(v));
    CHECK(c.size > 30);
    CHECK(c.size <= 30 * std::sqrt(3.0));
    CHECK(c.xi_speed < 0.1 * c.size);
    CHECK(c.xi_direction < 0.1 * c.size);
    for (double x : c.speed) CHECK(std::isfinite(x));
}

TEST_CASE("starling measures: a smooth speed field's correlation length grows with the flock", "[starling][measures]") {
    // Speed rising along x, direction turning along z: correlated over the whole flock,
    // so xi is a fixed fraction of L whatever the size.
    auto measure = [](double side) {
        std::vector<vec> p, v;
        cloud(5, 2000, side, {10, 0, 0}, p, v);
        for (std::size_t i = 0; i < p.size(); ++i) {
            const double a = 0.3 * (p[i].z / side - 0.5);
            v[i] = {(10 + 2 * p[i].x / side) * std::cos(a), 0, (10 + 2 * p[i].x / side) * std::sin(a)};
        }
        return boids::starling::correlations(span<const vec>(p), span<const vec>(v));
    };
    const auto small = measure(20), large = measure(40);
    CHECK(small.xi_speed > 0.2 * small.size);
    CHECK(small.xi_direction > 0.2 * small.size);
    CHECK(large.size / small.size == Approx(2).epsilon(0.05));
    CHECK(large.xi_speed / small.xi_speed == Approx(2).epsilon(0.1));
    CHECK(large.xi_direction / small.xi_direction == Approx(2).epsilon(0.1));
    CHECK(small.speed[0] > 0.5);  // close birds share most of their fluctuation
}

TEST_CASE("starling measures: correlations of degenerate flocks are finite", "[starling][measures]") {
    std::vector<vec> p, v;
    const auto none = boids::starling::correlations(span<const vec>(p), span<const vec>(v));
    CHECK(none.size == 0);
    CHECK(none.xi_speed == 0);
    // Identical velocities: nothing fluctuates, xi is 0 and C is 0.
    cloud(2, 100, 5, {3, 0, 0}, p, v);
    const auto still = boids::starling::correlations(span<const vec>(p), span<const vec>(v), 16);
    CHECK(still.xi_speed == 0);
    CHECK(still.xi_direction == 0);
    for (double x : still.direction) CHECK(x == 0);
    // All on one spot: L = 0.
    p.assign(10, vec{1, 1, 1});
    v.assign(10, vec{1, 0, 0});
    v[3] = {2, 0, 0};
    const auto spot = boids::starling::correlations(span<const vec>(p), span<const vec>(v), 16);
    CHECK(spot.size == 0);
    CHECK(std::isfinite(spot.xi_speed));
}

TEST_CASE("starling measures: a turn travelling at 20 m/s without fading", "[starling][measures]") {
    // 100 birds along x, 0.5 m apart, flying z; bird i turns at t = d_i / 20 by 1 rad
    // over 0.5 s, every bird alike (no decay).
    const std::size_t n = 100;
    std::vector<vec> p(n), v(n);
    for (std::size_t i = 0; i < n; ++i) {
        p[i] = {0.5 * static_cast<double>(i), 0, 0};
        v[i] = {0, 0, 10};
    }
    boids::starling::turn_tracker<vec> tracker;
    tracker.start(span<const vec>(p), span<const vec>(v), 0, 2.0, 0.5);
    const double dt = 1.0 / 100;
    auto run = [&](auto amplitude_of) {
        for (int step = 1; step <= 600; ++step) {
            const double t = 2.0 + step * dt;
            for (std::size_t i = 0; i < n; ++i) {
                const double since = t - 2.0 - p[i].x / 20;
                const double a = amplitude_of(i) * std::clamp(since / 0.5, 0.0, 1.0);
                v[i] = {10 * std::sin(a), 0, 10 * std::cos(a)};
            }
            tracker.observe(span<const vec>(v), t);
        }
    };
    run([](std::size_t) { return 1.0; });
    const auto s = tracker.result();
    CHECK(s.birds == n);
    CHECK(s.reached == n);
    CHECK(s.speed == Approx(20).epsilon(0.02));
    CHECK(s.r2 > 0.99);
    CHECK(s.delay == Approx(0.25).margin(0.02));  // half of the 1 rad turn passes 0.5 rad
    CHECK(s.far_distance == Approx(49.5));
    CHECK(s.amplitude_near == Approx(2.0).epsilon(0.02));  // 1 rad in 0.5 s
    CHECK(s.amplitude_far / s.amplitude_near == Approx(1).epsilon(0.02));
    CHECK(tracker.arrivals()[99] > tracker.arrivals()[0]);

    // A fading turn: the far birds turn 0.4 times as fast, and past 70 none turns far enough.
    for (std::size_t i = 0; i < n; ++i) v[i] = {0, 0, 10};
    tracker.start(span<const vec>(p), span<const vec>(v), 0, 2.0, 0.5);
    run([](std::size_t i) { return i < 70 ? 1.5 - 0.9 * static_cast<double>(i) / 70 : 0.3; });
    const auto fading = tracker.result();
    CHECK(fading.reached == 70);
    CHECK(std::isnan(tracker.arrivals()[80]));
    CHECK(fading.amplitude_far / fading.amplitude_near < 0.5);
}

TEST_CASE("starling measures: a turn nobody follows", "[starling][measures]") {
    std::vector<vec> p = {{0, 0, 0}, {1, 0, 0}}, v = {{1, 0, 0}, {1, 0, 0}};
    boids::starling::turn_tracker<vec> tracker;
    tracker.start(span<const vec>(p), span<const vec>(v), 0, 0);
    tracker.observe(span<const vec>(v), 0.1);
    tracker.observe(span<const vec>(v), 0.1);  // dt = 0: ignored
    const auto s = tracker.result();
    CHECK(s.reached == 0);
    CHECK(s.speed == 0);
    CHECK(s.amplitude_far == 0);
    tracker.start(span<const vec>(p), span<const vec>(v), 5, 0);  // no such bird: nothing followed
    CHECK(tracker.result().reached == 0);
}

TEST_CASE("starling measures: the distance to the border of a cube", "[starling][measures]") {
    std::vector<vec> p;
    for (int x = 0; x <= 10; ++x)
        for (int y = 0; y <= 10; ++y)
            for (int z = 0; z <= 10; ++z) p.push_back({x * 1.0, y * 1.0, z * 1.0});
    const auto d = boids::starling::border_distances(span<const vec>(p));
    REQUIRE(d.size() == p.size());
    CHECK(d[0] == Approx(0).margin(1e-9));  // a corner is on the hull
    const std::size_t centre = (5 * 11 + 5) * 11 + 5;
    CHECK(d[centre] >= 5 - 1e-9);      // never below the true distance
    CHECK(d[centre] <= 5 * 1.05);      // and close to it
    CHECK(d[centre + 1] < d[centre]);  // one step toward a face: nearer
}

// The starling model's whole scene (examples/lab/starlings.hpp): 3,000 birds for
// 60 s against the checks, and the same flight on 1 and 2 threads.
#include "test_support.hpp"
#include <cstring>
#include "../examples/lab/starlings.hpp"

TEST_CASE("starlings for 60 s: 3000 birds stay in band, in the air, near the roost, ordered, apart", "[starling][scene]") {
    lab::starling_options o;
    o.birds = 3000;
    o.seconds = 60;
    boids::starling::flock<lab::fvec3> f;
    std::vector<lab::fvec3> p, v;
    double wall = 0;
    const auto s = lab::run_starlings(o, f, p, v, wall);
    const double v0 = static_cast<double>(o.model.flight.preferred_speed);
    REQUIRE(s.samples > 1000);
    CHECK(s.speed_min >= 0.64 * v0 - 1e-4);
    CHECK(s.speed_max <= 1.36 * v0 + 1e-4);
    CHECK(s.altitude_min >= 2);
    CHECK(s.altitude_max <= 45);
    CHECK(s.roost_distance_sum / static_cast<double>(s.samples) <= 1.5 * static_cast<double>(f.roost_radius()));
    CHECK(s.polarization_sum / static_cast<double>(s.samples) >= 0.5);
    // The closest approach is a tail statistic: this seed keeps 5.6 cm. Over seeds 1-8,
    // 6 of 8 runs meet every check here (seed 7 comes to 4.1 cm, seed 8's mean roost
    // distance is 1.56 R): see docs/starlings.md.
    CHECK(s.nearest_min >= 0.05);
    const auto d = f.disturbances();
    REQUIRE(d.size() >= 2);
    CHECK(d[0].t == Approx(5.0));
    for (const auto& r : d) CHECK(r.seeded >= 1);
    std::size_t spread = 0;
    for (const auto& r : d) spread += r.reached > r.seeded ? 1 : 0;
    CHECK(spread == d.size());  // every disturbance reached more birds than it hit
    CHECK(d[0].reached > 10 * d[0].seeded);
}

TEST_CASE("starlings: the same flight on 1 and 2 threads, with staggered perception", "[starling][scene]") {
    lab::starling_options o;
    o.birds = 900;
    o.seconds = 8;
    o.model.perception_every = 2;
    auto run = [&](unsigned long long threads, std::vector<lab::fvec3>& p, std::vector<lab::fvec3>& v) {
        lab::starling_options oo = o;
        oo.threads = threads;
        boids::starling::flock<lab::fvec3> f;
        double wall = 0;
        (void)lab::run_starlings(oo, f, p, v, wall);
        return std::vector<boids::starling::disturbance_record>(f.disturbances().begin(), f.disturbances().end());
    };
    std::vector<lab::fvec3> p1, v1, p2, v2;
    const auto d1 = run(1, p1, v1);
    const auto d2 = run(2, p2, v2);
    REQUIRE(p1.size() == p2.size());
    CHECK(std::memcmp(p1.data(), p2.data(), p1.size() * sizeof(lab::fvec3)) == 0);
    CHECK(std::memcmp(v1.data(), v2.data(), v1.size() * sizeof(lab::fvec3)) == 0);
    REQUIRE(d1.size() == d2.size());
    REQUIRE(!d1.empty());
    CHECK(d1[0].reached == d2[0].reached);
}

TEST_CASE("starlings: one bird, two birds on one spot, and invalid parameters", "[starling][contract]") {
    boids::starling::params<float> p;
    std::vector<lab::fvec3> pos{{0, 20, 0}, {0, 20, 0}}, vel{{10, 0, 0}, {10, 0, 0}};
    boids::starling::flock<lab::fvec3> f(p, 2);
    for (int i = 0; i < 200; ++i) f.step(boids::span<lab::fvec3>(pos), boids::span<lab::fvec3>(vel));
    for (const auto& x : pos) CHECK(std::isfinite(x.x + x.y + x.z));
    CHECK(boids::distance(pos[0], pos[1]) > 0.5f);  // pushed apart in seeded, opposite directions
    std::vector<lab::fvec3> one{{0, 20, 0}}, one_v{{10, 0, 0}};
    boids::starling::flock<lab::fvec3> alone(p, 1);
    for (int i = 0; i < 200; ++i) alone.step(boids::span<lab::fvec3>(one), boids::span<lab::fvec3>(one_v));
    CHECK(std::isfinite(one[0].x + one[0].y + one[0].z));
    CHECK(std::isinf(alone.nearest_distances()[0]));
    p.candidates = 3;
    CHECK(std::string(p.validate().field) == "candidates");
    p = {};
    p.flight.max_bank = -1;
    CHECK(std::string(p.validate().field) == "max_bank");
}

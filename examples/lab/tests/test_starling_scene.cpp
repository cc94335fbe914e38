// The starling model's whole scene (examples/lab/starlings.hpp): 3,000 birds for
// 60 s against the checks, and the same flight on 1 and 2 threads.
#include "lab_test.hpp"
#include <cstring>
#include "starlings.hpp"
#include "lab_vector.hpp"

TEST_CASE("starlings for 60 s: 3000 birds stay in band, in the air, near the roost, ordered, apart",
          "[starling][scene]") {
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

namespace {
// 600 birds from the lab's cloud, stepped `steps` times on `threads` threads.
struct starling_run {
    boids::starling::flock<lab::fvec3> flock;
    std::vector<lab::fvec3> p, v;
    boids::thread_pool pool;
    starling_run(const boids::starling::params<float>& m, std::size_t birds, std::size_t threads) : pool(threads) {
        boids::starling::starting_cloud(5, birds, m, p, v);
        flock.reset(m, birds);
    }
    void steps(std::size_t n) {
        for (std::size_t s = 0; s < n; ++s) flock.step(boids::span<lab::fvec3>(p), boids::span<lab::fvec3>(v), pool);
    }
};
bool same_bits(const std::vector<lab::fvec3>& a, const std::vector<lab::fvec3>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(lab::fvec3)) == 0;
}
}  // namespace

TEST_CASE("starlings: a flock copied or saved and loaded mid-run flies on as the original, bit for bit",
          "[starling][determinism]") {
    boids::starling::params<float> m;
    m.perception_every = 2;
    m.seed = 4;
    m.disturbance_min_gap = 6;  // a second and third disturbance within the run
    m.disturbance_max_gap = 8;
    starling_run original(m, 600, 2);
    original.steps(190);  // past the first disturbance (5 s): manoeuvres pending and active
    REQUIRE(original.flock.disturbances().size() == 1);
    std::vector<unsigned char> bytes;
    original.flock.save(bytes);
    // A copy of the flock object, and a flock loaded from the bytes (on one thread).
    boids::starling::flock<lab::fvec3> copy = original.flock;
    starling_run loaded(m, 1, 1);
    REQUIRE(loaded.flock.load(boids::span<const unsigned char>(bytes)));
    auto p_copy = original.p, v_copy = original.v;
    loaded.p = original.p;
    loaded.v = original.v;
    original.steps(400);  // through the second disturbance
    boids::thread_pool two(2);
    for (int s = 0; s < 400; ++s) copy.step(boids::span<lab::fvec3>(p_copy), boids::span<lab::fvec3>(v_copy), two);
    loaded.steps(400);
    CHECK(same_bits(original.p, p_copy));
    CHECK(same_bits(original.v, v_copy));
    CHECK(same_bits(original.p, loaded.p));
    CHECK(same_bits(original.v, loaded.v));
    CHECK(loaded.flock.steps() == original.flock.steps());
    REQUIRE(loaded.flock.disturbances().size() == original.flock.disturbances().size());
    CHECK(loaded.flock.disturbances().size() >= 2);
    CHECK(loaded.flock.disturbances()[1].reached == original.flock.disturbances()[1].reached);
    // And the loaded flock saves the same bytes as the original.
    std::vector<unsigned char> again, original_again;
    loaded.flock.save(again);
    original.flock.save(original_again);
    CHECK(again == original_again);
}

TEST_CASE("starlings: load refuses other snapshots and bad buffers, keeping the flock it had",
          "[starling][snapshot][contract]") {
    boids::starling::params<float> m;
    starling_run run(m, 50, 1);
    run.steps(10);
    std::vector<unsigned char> bytes;
    run.flock.save(bytes);
    auto field = [](const boids::validation& v) { return std::string(v.ok() ? "ok" : v.field); };
    boids::starling::flock<lab::vec3> doubles;
    CHECK(field(doubles.load(boids::span<const unsigned char>(bytes))) == "scalar type");
    boids::starling::flock<lab::fvec3> target(m, 7);
    for (std::size_t n : {std::size_t(0), std::size_t(20), std::size_t(60), bytes.size() / 2, bytes.size() - 1}) {
        const std::vector<unsigned char> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
        CHECK_FALSE(target.load(boids::span<const unsigned char>(cut)).ok());
        CHECK(target.flight().size() == 7);  // unchanged
    }
    // A snapshot whose checksum is right but whose parameters are not valid: k (the
    // payload's second field, after dt) set above the candidates.
    std::vector<unsigned char> crafted = bytes;
    crafted[boids::snapshot_header_bytes + 4] = 30;
    boids::detail::seal_snapshot(crafted.data(), crafted.size() - boids::snapshot_header_bytes);
    CHECK(field(target.load(boids::span<const unsigned char>(crafted))) == "candidates");
    CHECK_FALSE(target.load(boids::span<const unsigned char>(crafted)).ok());
    CHECK(target.flight().size() == 7);
    REQUIRE(target.load(boids::span<const unsigned char>(bytes)));
    CHECK(target.flight().size() == 50);
    CHECK(target.steps() == 10);
}

TEST_CASE("starlings: reset refuses invalid parameters in every build, and step ignores arrays of another size",
          "[starling][contract]") {
    boids::starling::params<float> m;
    m.candidates = 3;  // fewer than k
#if defined(NDEBUG)
    boids::starling::flock<lab::fvec3> f;
    const boids::validation v = f.reset(m, 10);
    CHECK(std::string(v.field) == "candidates");
    CHECK(f.flight().empty());
    std::vector<lab::fvec3> p(10, lab::fvec3{0, 20, 0}), vel(10, lab::fvec3{10, 0, 0});
    f.step(boids::span<lab::fvec3>(p), boids::span<lab::fvec3>(vel));  // no birds of its own: nothing moves
    CHECK((p[0].x == 0 && vel[0].x == 10));
#endif
    boids::starling::flock<lab::fvec3> g;
    CHECK(g.reset(boids::starling::params<float>{}, 3).ok());
}

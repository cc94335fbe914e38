// Tests of boids/models/starling.hpp against hand-computed values.
#include "test_support.hpp"
#include <boids/models/starling.hpp>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

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
    CHECK(returning(false, 61, 60));         // left the radius: turn home
    CHECK(returning(true, 40, 60));          // still between 0.45 R and R: keep going
    CHECK_FALSE(returning(true, 26.9, 60));  // inside 27 m: done
    CHECK_FALSE(returning(false, 40, 60));   // never left: nothing to do
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
    // Without the pull toward 20 m, inside the band only the damping is left.
    CHECK(altitude_acceleration(25, 0, 0) == 0);
    CHECK(altitude_acceleration(25, 2, 0) == Approx(-0.05).epsilon(1e-12));
    CHECK(altitude_acceleration(5, 0, 0) == Approx(9.6).epsilon(1e-12));
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
    CHECK(var == Approx(4.0).epsilon(0.05));                  // sigma^2
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

TEST_CASE("starling: the roost turn, by hand", "[starling]") {
    using V = glm::dvec3;
    const V roost(0, 0, 0);
    // Bird at (100, 20, 0) flying +x: straight away from the roost. Left is -z,
    // the roost lies exactly behind: the seeded side decides, full weight (1 + 1)/2.
    CHECK(boids::starling::roost_turn(V(100, 20, 0), V(10, 0, 0), roost, 3.0, true, 1) == V(0, 0, -3));
    CHECK(boids::starling::roost_turn(V(100, 20, 0), V(10, 0, 0), roost, 3.0, true, -1) == V(0, 0, 3));
    CHECK(boids::starling::roost_turn(V(100, 20, 0), V(10, 0, 0), roost, 3.0, false, 1) == V(0));
    // Bird at (100, 0, 0) flying +z: n = +x, h = +z, h.n = 0 (weight 1/2);
    // l = (h_z, 0, -h_x) = (1, 0, 0); (-n).l = -1: turn right, tanh(-8).
    const V r = boids::starling::roost_turn(V(100, 0, 0), V(0, 0, 10), roost, 3.0, true, 1);
    CHECK(r.x == Approx(3.0 * 0.5 * std::tanh(-8.0)).epsilon(1e-12));
    CHECK(r.y == 0);
    CHECK(r.z == 0);
    // Heading home: no turn.
    CHECK(boids::length(boids::starling::roost_turn(V(100, 0, 0), V(-10, 0, 0), roost, 3.0, true, 1)) < 1e-12);
}

TEST_CASE("starling: the disturbance acceleration and the copying rule", "[starling]") {
    using V = glm::dvec3;
    boids::starling::maneuver m;
    m.disturbance = 1;
    m.start = 10;
    m.duration = 3;
    m.amplitude = 0.8;
    m.turn = -1;
    m.dive = true;
    // Mid-pulse e = 0.8: 12 * 0.8 to the right of a bird flying +x (right is +z), 7 * 0.8 down.
    const V e = boids::starling::disturbance_acceleration(m, 11.5, V(10, 0, 0), 12.0, 7.0);
    CHECK(e.x == Approx(0).margin(1e-12));
    CHECK(e.y == Approx(-5.6));
    CHECK(e.z == Approx(9.6));
    CHECK(boids::starling::disturbance_acceleration(m, 9.9, V(10, 0, 0), 12.0, 7.0) == V(0));

    const boids::starling::copy_rule rule{};
    boids::starling::maneuver none;
    CHECK(rule.may_copy(none, 1, 11));
    CHECK_FALSE(rule.may_copy(m, 1, 11));    // once per disturbance
    CHECK_FALSE(rule.may_copy(m, 2, 17.9));  // within 5 s after its manoeuvre ended at 13 s
    CHECK(rule.may_copy(m, 2, 18.1));
    const auto c = rule.copy_of(m, 11, 0.2);
    CHECK(c.start == Approx(11.2));
    CHECK(c.amplitude == Approx(0.768));
    CHECK(c.turn == -1);
    CHECK(c.dive);
    CHECK(c.disturbance == 1);
    boids::starling::maneuver weak = m;
    weak.amplitude = 0.2;
    CHECK(rule.copy_of(weak, 11, 0.2).amplitude == Approx(0.25));  // never below 0.25
    // The strongest active manoeuvre among neighbours; a pending one does not count.
    std::vector<boids::starling::maneuver> others(3, m);
    others[0].amplitude = 0.9;
    others[0].start = 11.4;  // not started at t = 11.3
    others[1].amplitude = 0.5;
    others[2].amplitude = 0.7;
    std::vector<std::size_t> idx{0, 1, 2};
    const auto* s = boids::starling::copy_rule::strongest_active(
        idx, [&](std::size_t i) -> const boids::starling::maneuver& { return others[i]; }, 11.3);
    REQUIRE(s != nullptr);
    CHECK(s == &others[2]);
}

namespace {
using bird = plain_dvec3;
bool same_bits(const std::vector<bird>& a, const std::vector<bird>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(bird)) == 0;
}
}  // namespace

TEST_CASE("starling: the starting cloud fills a ball round (0, 20, 0), heading one way, the same for a seed",
          "[starling]") {
    boids::starling::params<double> m;
    std::vector<bird> p, v, p2, v2;
    boids::starling::starting_cloud(9, 500, m, p, v);
    boids::starling::starting_cloud(9, 500, m, p2, v2);
    REQUIRE(p.size() == 500);
    REQUIRE(v.size() == 500);
    CHECK(same_bits(p, p2));
    CHECK(same_bits(v, v2));
    const double e = boids::starling::size_scale(500.0);
    bird mean_v{0, 0, 0};
    for (std::size_t i = 0; i < p.size(); ++i) {
        CHECK(boids::length(boids::sub(p[i], bird{0, 20, 0})) <= e * (1 + 1e-12));
        mean_v = boids::add(mean_v, v[i]);
    }
    mean_v = boids::scale(mean_v, 1.0 / 500);
    CHECK(std::abs(mean_v.y) < 0.05 * m.flight.preferred_speed);  // level
    CHECK(boids::length(mean_v) == Approx(m.flight.preferred_speed).epsilon(0.02));
    boids::starling::starting_cloud(10, 500, m, p2, v2);
    CHECK_FALSE(same_bits(p, p2));
}

TEST_CASE(
    "starling: a run saved whole (flock and birds in one snapshot) goes on bit for bit; snapshots one after "
    "another read back in turn",
    "[starling][snapshot]") {
    boids::starling::params<double> m;
    std::vector<bird> p, v;
    boids::starling::starting_cloud(3, 120, m, p, v);
    boids::starling::flock<bird> f(m, p.size());
    for (int s = 0; s < 30; ++s) f.step(boids::span<bird>(p), boids::span<bird>(v));
    std::vector<unsigned char> bytes;
    f.save(bytes, p, v);
    const std::size_t first = bytes.size();
    const std::vector<bird> p_at_save = p, v_at_save = v;
    for (int s = 0; s < 30; ++s) f.step(boids::span<bird>(p), boids::span<bird>(v));
    f.save(bytes, p, v);  // a second snapshot after the first

    // Whole: the flock and its birds come back, and step on to the same bits.
    boids::starling::flock<bird> g;
    std::vector<bird> q, w;
    std::size_t used = 0;
    REQUIRE(g.load(boids::span<const unsigned char>(bytes), q, w, &used));
    CHECK(used == first);
    CHECK(same_bits(q, p_at_save));
    CHECK(same_bits(w, v_at_save));
    for (int s = 0; s < 30; ++s) g.step(boids::span<bird>(q), boids::span<bird>(w));
    CHECK(same_bits(q, p));
    CHECK(same_bits(w, v));
    // The second snapshot starts where the first ended.
    std::vector<bird> q2, w2;
    std::size_t used2 = 0;
    REQUIRE(g.load(boids::span<const unsigned char>(bytes.data() + used, bytes.size() - used), q2, w2, &used2));
    CHECK(used + used2 == bytes.size());
    CHECK(same_bits(q2, p));

    // Without `used`, bytes past the snapshot are refused; the birds stay as they were.
    std::vector<bird> untouched{bird{1, 2, 3}};
    const boids::validation strict = g.load(boids::span<const unsigned char>(bytes), untouched, w2);
    CHECK_FALSE(strict);
    CHECK(std::string(strict.field) == "length");
    CHECK(untouched.size() == 1);
    // A snapshot with the birds is not a flock's alone, and the other way round.
    const std::vector<unsigned char> one(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(first));
    CHECK(std::string(g.load(boids::span<const unsigned char>(one)).field) == "kind");
    std::vector<unsigned char> alone;
    f.save(alone);
    CHECK(std::string(g.load(boids::span<const unsigned char>(alone), q2, w2).field) == "kind");
    CHECK(g.load(boids::span<const unsigned char>(alone)));
}

TEST_CASE("starling: a flock of no birds saved with its birds loads back with them, to the same bytes",
          "[starling][snapshot]") {
    // Empty arrays of birds may hand save a null pointer: the snapshot must still say
    // it holds the birds (none), so that the load that fills them takes it.
    boids::starling::flock<bird> f(boids::starling::params<double>{}, 0);
    std::vector<bird> p, v;
    std::vector<unsigned char> bytes;
    f.save(bytes, p, v);
    boids::starling::flock<bird> g;
    std::vector<bird> q{bird{1, 2, 3}}, w{bird{4, 5, 6}};
    REQUIRE(g.load(boids::span<const unsigned char>(bytes), q, w));
    CHECK(q.empty());
    CHECK(w.empty());
    std::vector<unsigned char> again;
    g.save(again, q, w);
    CHECK(again == bytes);
    CHECK(std::string(g.load(boids::span<const unsigned char>(bytes)).field) == "kind");
}

TEST_CASE("starling: the field parameters are valid and differ from the source's where documented",
          "[starling][field]") {
    const boids::starling::params<double> source;
    const auto field = boids::starling::field_params<double>();
    CHECK(field.validate());
    CHECK(field.border_cohesion > 0);
    CHECK(source.border_cohesion == 0);
    CHECK(field.copying.fraction == 1);
    CHECK(field.flight.speed_time > source.flight.speed_time);
    CHECK(field.k == source.k);  // the copy rule reads the source's k nearest
    CHECK(source.social_fade == 0);
    CHECK(field.social_fade > 0);
    CHECK(source.altitude_pull == boids::starling::source_altitude_pull);
    CHECK(field.altitude_pull == 0);
    // Each new field is refused with its name when out of range.
    auto p = source;
    p.separation_ahead = 0.5;
    CHECK(std::string(p.validate().field) == "separation_ahead");
    p = source;
    p.border_cohesion = -1;
    CHECK(std::string(p.validate().field).find("border_cohesion") != std::string::npos);
    p = source;
    p.social_fade = p.candidates - p.k;
    CHECK(p.validate());
    p.social_fade += 1;
    CHECK(std::string(p.validate().field) == "social_fade");
    p = source;
    p.altitude_pull = -0.01;
    CHECK(std::string(p.validate().field) == "altitude_pull");
    p.altitude_pull = std::numeric_limits<double>::infinity();
    CHECK(std::string(p.validate().field) == "altitude_pull");
}

TEST_CASE("starling: social weights fade over 2 f ranks around k", "[starling][field]") {
    using boids::detail::starling_social_weight;
    // f = 0: the k nearest alike, the rest nothing.
    CHECK(starling_social_weight<double>(6, 7, 0) == 1);
    CHECK(starling_social_weight<double>(7, 7, 0) == 0);
    // k = 7, f = 4: ranks 0-2 whole, then 7/8, 5/8, ..., 1/8 for ranks 3-10, none from 11.
    for (std::size_t r = 0; r < 3; ++r) CHECK(starling_social_weight<double>(r, 7, 4) == 1);
    for (std::size_t r = 3; r < 11; ++r)
        CHECK(starling_social_weight<double>(r, 7, 4) == Approx(1.0 - (static_cast<double>(r) - 2.5) / 8.0));
    CHECK(starling_social_weight<double>(11, 7, 4) == 0);
    CHECK(starling_social_weight<double>(40, 7, 4) == 0);
    // The weights add up to k: the fade moves weight outward, it does not add any.
    double sum = 0;
    for (std::size_t r = 0; r < 20; ++r) sum += starling_social_weight<double>(r, 7, 4);
    CHECK(sum == Approx(7.0));
}

namespace {
// k social neighbours, alignment and separation only: no noise, cohesion, roost or
// disturbance.
boids::starling::params<double> quiet_params(std::size_t k = 7) {
    boids::starling::params<double> m;
    m.k = k;
    m.scheduled_disturbances = false;
    m.noise = 0;
    m.cohesion = 0;
    m.roost_gain = 0;
    return m;
}
}  // namespace

TEST_CASE("starling: with a fade, neighbours past the k-th count a little and past k + f not at all",
          "[starling][field]") {
    // A bird flying x; its nearest neighbour flies +z, the 2nd and 3rd fly -z, all
    // beyond the separation zone; k = 1. One step (every bird looks at the old state).
    auto turn_after = [](std::size_t fade, bool third) {
        auto m = quiet_params(1);
        m.social_fade = fade;
        std::vector<bird> p = {{0, 20, 0}, {0, 20, 2.5}, {0, 20, -3}}, v = {{10, 0, 0}, {0, 0, 10}, {0, 0, -10}};
        if (third) {
            p.push_back({0, 20, 4});
            v.push_back({0, 0, -10});
        }
        boids::starling::flock<bird> f(m, p.size());
        f.step(boids::span<bird>(p), boids::span<bird>(v));
        return v[0].z;
    };
    const double hard = turn_after(0, true), faded = turn_after(1, true);
    CHECK(hard > 0);
    CHECK(faded > 0);                     // 3/4 of the nearest, 1/4 of the 2nd
    CHECK(faded < hard);                  // the 2nd, flying the other way, now counts
    CHECK(turn_after(0, false) == hard);  // the 3rd counts for nothing either way
    CHECK(turn_after(1, false) == faded);
}

TEST_CASE("starling: a turn started by one bird spreads to its neighbours; none starts unasked", "[starling][field]") {
    auto m = boids::starling::field_params<double>();
    m.scheduled_disturbances = false;
    std::vector<bird> p, v;
    boids::starling::starting_cloud(5, 300, m, p, v);
    boids::starling::flock<bird> f(m, p.size());
    for (int s = 0; s < 240; ++s) f.step(boids::span<bird>(p), boids::span<bird>(v));  // 8 s
    CHECK(f.disturbances().empty());                                                   // none on schedule
    CHECK(f.start_turn(300) == 0);                                                     // no such bird
    CHECK(f.start_turn(0, 1, 1.5) == 0);                                               // amplitude above 1
    CHECK(f.start_turn(0, 1, 1.0, 0.0) == 0);                                          // no duration
    CHECK(f.disturbances().empty());
    REQUIRE(f.start_turn(7, -1) == 1);
    CHECK(f.maneuvers()[7].turn == -1);
    CHECK(f.maneuvers()[7].active(f.time()));
    for (int s = 0; s < 60; ++s) f.step(boids::span<bird>(p), boids::span<bird>(v));
    REQUIRE(f.disturbances().size() == 1);
    CHECK(f.disturbances()[0].seeded == 1);
    CHECK(f.disturbances()[0].reached > 100);  // copied bird to bird
    for (const auto& x : p) CHECK(boids::is_finite(x));
}

TEST_CASE("starling: a separation zone stretched ahead pushes a bird ahead that a sphere leaves alone",
          "[starling][field]") {
    // Two birds flying x, one 1.5 r0 ahead of the other, and one bird 1.5 r0 beside a
    // third: with the zone twice as long, only the pair in line pushes apart.
    auto gap_after = [](double ahead, bird offset) {
        auto m = quiet_params();
        m.separation_ahead = ahead;
        m.alignment = 0;
        std::vector<bird> p = {{0, 20, 0}, boids::add(bird{0, 20, 0}, offset)}, v = {{10, 0, 0}, {10, 0, 0}};
        boids::starling::flock<bird> f(m, 2);
        f.step(boids::span<bird>(p), boids::span<bird>(v));
        return boids::length(boids::sub(v[1], v[0]));  // relative velocity: 0 unless pushed
    };
    const double r0 = boids::starling::params<double>{}.separation_radius;
    CHECK(gap_after(1, {1.5 * r0, 0, 0}) == Approx(0).margin(1e-12));
    CHECK(gap_after(2, {1.5 * r0, 0, 0}) > 0.01);
    CHECK(gap_after(2, {0, 0, 1.5 * r0}) == Approx(0).margin(1e-12));
    CHECK(gap_after(2, {0, 0, 0.5 * r0}) > 0.01);  // within r0 beside: pushed as before
}

TEST_CASE("starling: the field parameters save and load with the flock", "[starling][snapshot][field]") {
    auto m = boids::starling::field_params<double>();
    m.scheduled_disturbances = false;
    std::vector<bird> p, v;
    boids::starling::starting_cloud(2, 80, m, p, v);
    boids::starling::flock<bird> f(m, p.size());
    for (int s = 0; s < 20; ++s) f.step(boids::span<bird>(p), boids::span<bird>(v));
    std::vector<unsigned char> bytes;
    f.save(bytes, p, v);
    boids::starling::flock<bird> g;
    std::vector<bird> q, w;
    REQUIRE(g.load(boids::span<const unsigned char>(bytes), q, w));
    CHECK(g.parameters().border_cohesion == m.border_cohesion);
    CHECK(g.parameters().separation_ahead == m.separation_ahead);
    CHECK(g.parameters().social_fade == m.social_fade);
    CHECK(g.parameters().altitude_pull == m.altitude_pull);
    CHECK_FALSE(g.parameters().scheduled_disturbances);
    for (int s = 0; s < 20; ++s) {
        f.step(boids::span<bird>(p), boids::span<bird>(v));
        g.step(boids::span<bird>(q), boids::span<bird>(w));
    }
    CHECK(same_bits(p, q));
    CHECK(same_bits(v, w));
}

TEST_CASE("starling: a snapshot of another layout is refused as such, the flock left alone",
          "[starling][snapshot][contract]") {
    auto m = quiet_params();
    std::vector<bird> p, v;
    boids::starling::starting_cloud(3, 30, m, p, v);
    boids::starling::flock<bird> f(m, p.size());
    f.step(boids::span<bird>(p), boids::span<bird>(v));
    std::vector<unsigned char> bytes;
    f.save(bytes);
    auto relabel = [&](std::uint32_t layout) {  // the same payload under another layout number
        auto b = bytes;
        for (std::size_t i = 0; i < 4; ++i) b[16 + i] = static_cast<unsigned char>(layout >> (8 * i));
        boids::detail::seal_snapshot(b.data(), b.size() - boids::snapshot_header_bytes);
        return b;
    };
    boids::starling::flock<bird> g(m, 5);
    const auto same = relabel(boids::starling::snapshot_layout);
    REQUIRE(g.load(boids::span<const unsigned char>(same)));
    CHECK(g.flight().size() == 30);
    boids::starling::flock<bird> h(m, 5);
    for (std::uint32_t other : {0u, boids::starling::snapshot_layout + 1}) {
        const auto relabelled = relabel(other);
        const boids::validation why = h.load(boids::span<const unsigned char>(relabelled));
        CHECK(std::string(why.ok() ? "ok" : why.field) == "layout");
        CHECK(h.flight().size() == 5);
    }
}

TEST_CASE("starling: a bird with a blind sector behind aligns with nobody there", "[starling][field]") {
    // A bird flying x with one neighbour straight behind (flying z) and one far ahead
    // (flying -z): k = 1. Without a blind sector it aligns with the one behind (the
    // nearest); with one, with the one ahead.
    auto turn_after = [](double blind) {
        auto m = quiet_params(1);
        m.rear_blind_angle = blind;
        std::vector<bird> p = {{0, 20, 0}, {-3, 20, 0}, {6, 20, 0}}, v = {{10, 0, 0}, {0, 0, 10}, {0, 0, -10}};
        boids::starling::flock<bird> f(m, 3);
        for (int s = 0; s < 10; ++s) f.step(boids::span<bird>(p), boids::span<bird>(v));
        return v[0].z;
    };
    CHECK(turn_after(0) > 0.1);
    CHECK(turn_after(1.0) < -0.1);
    boids::starling::params<double> bad;
    bad.rear_blind_angle = 7;
    CHECK(std::string(bad.validate().field) == "rear_blind_angle");
}

// Tests of boids/behaviors/pursue_evade.hpp: what each behaviour is for.
#include "agent_sim.hpp"
#include <boids/behaviors/pursue_evade.hpp>

namespace {
template <class V>
boids::steering_limits<boids::scalar_t<V>> lim() {
    return {10, 20, boids::scalar_t<V>(0.25), 0};
}
// Time for the chaser to come within 0.5 of a quarry moving in a straight line.
template <class V, class Make>
double catch_time(Make&& make) {
    const V qv = test::make<V>(0, 6, 2);
    const V q0 = test::make<V>(30, 0, 0);
    double caught = 1e9;
    test::run<V>(
        {test::make<V>(0, 0), boids::zero<V>()}, lim<V>(), 20, 1.0 / 60,
        [&](const V& p, const V& v, double t) {
            const V q = boids::add_scaled(q0, qv, static_cast<boids::scalar_t<V>>(t));
            return make(q, qv)(p, v);
        },
        [&](const test::agent<V>& a, double t) {
            const V q = boids::add_scaled(q0, qv, static_cast<boids::scalar_t<V>>(t));
            if (caught > 1e8 && test::len(boids::sub(q, a.p)) < 0.5) caught = t;
        });
    return caught;
}
}  // namespace

TEMPLATE_TEST_CASE("pursue catches a target moving in a straight line sooner than seek", "[pursue]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    const double with_pursue = catch_time<V>([](const V& q, const V& qv) { return boids::pursue<V>{q, qv, lim<V>()}; });
    const double with_seek = catch_time<V>([](const V& q, const V&) { return boids::seek<V>{q, lim<V>()}; });
    CAPTURE(with_pursue, with_seek);
    CHECK(with_pursue < 1e8);
    CHECK(with_pursue < with_seek);
}

TEMPLATE_TEST_CASE("evade keeps away from a pursuer's predicted path", "[evade]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    // A threat passing by: evade moves us away from where it is going, not where it is.
    const V threat = test::make<V>(-10, 0), threat_v = test::make<V>(10, 0);
    const V p = test::make<V>(0, 0.5);
    const V a = boids::evade<V>{threat, threat_v, lim<V>()}(p, boids::zero<V>());
    CHECK(static_cast<double>(boids::get(a, 1)) > 0);  // sideways, away from its line
    // Far outside the panic radius: nothing.
    CHECK(boids::is_zero(boids::evade<V>{threat, threat_v, lim<V>(), S(1)}(test::make<V>(100, 100), boids::zero<V>())));
}

TEMPLATE_TEST_CASE("offset pursuit holds a slot in the leader's frame", "[pursue]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V lv = test::make<V>(3, 0);
    const V offset = test::make<V>(-2, 1, 0);  // behind and to the side
    double err = 0;
    test::run<V>(
        {test::make<V>(-5, -5), boids::zero<V>()}, lim<V>(), 20, 1.0 / 60,
        [&](const V& p, const V& v, double t) {
            const V leader = boids::scale(lv, static_cast<S>(t));
            return boids::offset_pursuit<V>{leader, lv, offset, lim<V>(), S(2)}(p, v);
        },
        [&](const test::agent<V>& a, double t) {
            const V leader = boids::scale(lv, static_cast<S>(t));
            const V slot = boids::offset_pursuit<V>{leader, lv, offset, lim<V>()}.slot();
            if (t > 15) err = std::max(err, test::len(boids::sub(slot, a.p)));
        });
    CHECK(err < 0.05);
}

TEMPLATE_TEST_CASE("interpose gets between two agents", "[interpose]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V a0 = test::make<V>(0, 10), av = test::make<V>(1, 0), b0 = test::make<V>(0, -10), bv = test::make<V>(1, 0);
    const auto end = test::run<V>(
        {test::make<V>(20, 20), boids::zero<V>()}, lim<V>(), 20, 1.0 / 60, [&](const V& p, const V& v, double t) {
            const S ts = static_cast<S>(t);
            return boids::interpose<V>{
                boids::add_scaled(a0, av, ts), av, boids::add_scaled(b0, bv, ts), bv, lim<V>(), S(2)}(p, v);
        });
    const V mid = boids::scale(boids::add(boids::add_scaled(a0, av, S(20)), boids::add_scaled(b0, bv, S(20))), S(0.5));
    CHECK(test::len(boids::sub(mid, end.p)) < 0.5);
}

TEMPLATE_TEST_CASE("hide puts an obstacle between itself and the threat", "[hide]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::sphere<V> rocks[] = {{test::make<V>(10, 0), S(2)}, {test::make<V>(-30, 5), S(2)}};
    const V threat = test::make<V>(0, 0);
    const boids::hide<V> h{threat, boids::zero<V>(), boids::span<const boids::sphere<V>>(rocks, 2), lim<V>(), S(1),
                           S(1)};
    const auto end = test::run<V>({test::make<V>(5, 8), boids::zero<V>()}, lim<V>(), 10, 1.0 / 60,
                                  [&](const V& p, const V& v, double) { return h(p, v); });
    // Behind the near rock: the rock's centre lies between us and the threat.
    const V to_us = boids::sub(end.p, threat), to_rock = boids::sub(rocks[0].centre, threat);
    CHECK(test::len(to_us) > test::len(to_rock));
    CHECK(static_cast<double>(boids::dot(boids::normalized_or_zero(to_us), boids::normalized_or_zero(to_rock))) > 0.99);
    // No obstacles: it evades instead (finite, away from the threat).
    const boids::hide<V> open{threat, boids::zero<V>(), {}, lim<V>()};
    const V a = open(test::make<V>(1, 0), boids::zero<V>());
    CHECK(static_cast<double>(boids::get(a, 0)) > 0);
}

TEMPLATE_TEST_CASE("pursuit behaviours stay finite on degenerate input", "[pursue][contract]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V z = boids::zero<V>();
    CHECK(boids::is_finite(boids::pursue<V>{z, z, lim<V>()}(z, z)));
    CHECK(boids::is_finite(boids::evade<V>{z, z, lim<V>()}(z, z)));
    CHECK(boids::is_finite(boids::offset_pursuit<V>{z, z, z, lim<V>(), S(0)}(z, z)));
    CHECK(boids::is_finite(boids::interpose<V>{z, z, z, z, lim<V>(), S(0)}(z, z)));
    const boids::sphere<V> rock{z, S(0)};
    CHECK(boids::is_finite(boids::hide<V>{z, z, boids::span<const boids::sphere<V>>(&rock, 1), lim<V>(), S(0)}(z, z)));
}

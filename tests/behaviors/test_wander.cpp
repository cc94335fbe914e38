// Tests of boids/behaviors/wander.hpp.
#include "agent_sim.hpp"
#include <boids/behaviors/wander.hpp>
#include <cstring>
#include <type_traits>
#include <vector>

namespace {
template <class V>
std::vector<V> wander_path(std::uint64_t seed, double seconds, double dt) {
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{5, 10, S(0.3), 0};
    const boids::wander<V> w{S(1), S(2), S(1.5), lim};
    auto state = boids::wander_state<V>::seeded(seed, 3);
    std::vector<V> trace;
    test::run<V>(
        {boids::zero<V>(), test::make<V>(1, 0)}, lim, seconds, dt,
        [&](const V& p, const V& v, double) { return w(p, v, state, static_cast<S>(dt)); },
        [&](const test::agent<V>& a, double) { trace.push_back(a.p); });
    return trace;
}
}  // namespace

TEMPLATE_TEST_CASE("wander repeats exactly with the same seed and differs with another", "[wander]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    const auto a = wander_path<V>(1, 10, 1.0 / 60), b = wander_path<V>(1, 10, 1.0 / 60),
               c = wander_path<V>(2, 10, 1.0 / 60);
    REQUIRE(a.size() == b.size());
    bool same = true, differs = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        same = same && test::near(a[i], b[i], 0);
        differs = differs || !test::near(a[i], c[i], 1e-3);
    }
    CHECK(same);
    CHECK(differs);
}

TEMPLATE_TEST_CASE("wander turns smoothly and keeps moving", "[wander]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{5, 10, S(0.3), 0};
    const boids::wander<V> w{S(1), S(2), S(1.5), lim};
    auto state = boids::wander_state<V>::seeded(9);
    double worst_turn = 0, min_speed = 1e9;
    V last_v = test::make<V>(1, 0);
    const double dt = 1.0 / 60;
    test::run<V>(
        {boids::zero<V>(), last_v}, lim, 20, dt,
        [&](const V& p, const V& v, double) { return w(p, v, state, static_cast<S>(dt)); },
        [&](const test::agent<V>& a, double t) {
            const double c =
                static_cast<double>(boids::dot(boids::normalized_or_zero(a.v), boids::normalized_or_zero(last_v)));
            if (t > 1) worst_turn = std::max(worst_turn, std::acos(std::min(1.0, std::max(-1.0, c))));
            if (t > 1) min_speed = std::min(min_speed, test::len(a.v));
            last_v = a.v;
        });
    // The heading changes by at most max_force * dt / speed per step: no jumps.
    CHECK(worst_turn < 0.2);
    CHECK(min_speed > 0.5);
}

TEMPLATE_TEST_CASE("wander is finite from rest and with dt = 0", "[wander][contract]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::wander<V> w{S(0), S(0), S(0), {1, 1, 1, 0}};
    auto state = boids::wander_state<V>::seeded(0);
    CHECK(boids::is_finite(w(boids::zero<V>(), boids::zero<V>(), state, S(0))));
    CHECK(boids::is_finite(state.target_local));
}

template <class V>
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
void wander_step(V& p, V& v, boids::wander_state<V>& state, const boids::wander<V>& w, boids::scalar_t<V> dt) {
    boids::integrate(p, v, w(p, v, state, dt), dt, w.limits);
}

TEMPLATE_TEST_CASE("a wander state copied mid-run, or its bytes, steps as the original, bit for bit",
                   "[wander][determinism]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    static_assert(std::is_trivially_copyable_v<boids::wander_state<V>>, "its bytes are the whole state");
    const boids::steering_limits<S> lim{5, 10, S(0.3), 0};
    const boids::wander<V> w{S(1), S(2), S(1.5), lim};
    auto state = boids::wander_state<V>::seeded(9, 4);
    V p = boids::zero<V>(), v = test::make<V>(1, 0);
    const S dt = S(1.0 / 60);
    // One compiled step for all three (inlined three times, a compiler that fuses
    // a * b + c, as under -march=native, may fuse each copy differently).
    void (*step)(V&, V&, boids::wander_state<V>&, const boids::wander<V>&, S) = &wander_step<V>;
    for (int i = 0; i < 100; ++i) step(p, v, state, w, dt);
    boids::wander_state<V> copy = state, raw;
    std::memcpy(static_cast<void*>(&raw), &state, sizeof state);
    V pc = p, vc = v, pr = p, vr = v;
    bool same = true;
    for (int i = 0; i < 300; ++i) {
        step(p, v, state, w, dt);
        step(pc, vc, copy, w, dt);
        step(pr, vr, raw, w, dt);
        same = same && std::memcmp(&p, &pc, sizeof p) == 0 && std::memcmp(&v, &vc, sizeof v) == 0 &&
               std::memcmp(&p, &pr, sizeof p) == 0 && std::memcmp(&v, &vr, sizeof v) == 0;
    }
    CHECK(same);
    CHECK(copy.rng.state == state.rng.state);
    CHECK(test::len(boids::sub(p, test::make<V>(0, 0))) > 1.0);  // it went somewhere
}

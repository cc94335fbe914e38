// Tests of boids/behaviors/context.hpp.
#include "agent_sim.hpp"
#include <boids/behaviors/context.hpp>
#include <vector>

TEMPLATE_TEST_CASE("context steering picks the best open direction when the direct one is blocked", "[context]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{6, 20, S(0.2), 0};
    const std::vector<boids::sphere<V>> rocks{{test::make<V>(6, 0), S(2)}};
    const boids::context_steering<V, 32> ctx{boids::span<const boids::sphere<V>>(rocks), S(0.5), S(10), lim, S(3)};
    const V target = test::make<V>(20, 0);
    const V dir = ctx.choose(boids::zero<V>(), target);
    // Not straight at the rock, but still mostly toward the target.
    const double forward = static_cast<double>(boids::get(dir, 0));
    CHECK(forward > 0.5);
    CHECK(forward < 0.97);
    CHECK(ctx.danger(boids::zero<V>(), dir) == S(0));
    // And the agent gets there without touching the rock.
    double closest = 1e9;
    const auto end = test::run<V>(
        {boids::zero<V>(), boids::zero<V>()}, lim, 15, 1.0 / 60,
        [&](const V& p, const V& v, double) { return ctx(p, v, target); },
        [&](const test::agent<V>& a, double) {
            closest = std::min(closest, test::len(boids::sub(a.p, rocks[0].centre)) - 2.0);
        });
    CHECK(closest > 0.0);
    CHECK(test::len(boids::sub(end.p, target)) < 1.0);
}

TEMPLATE_TEST_CASE("context steering with nothing in the way goes straight", "[context]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::context_steering<V, 32> ctx{{}, S(0.5), S(10), {6, 20, S(0.2), 0}};
    const V dir = ctx.choose(boids::zero<V>(), test::make<V>(10, 0));
    CHECK(static_cast<double>(boids::get(dir, 0)) > 0.99);
    CHECK(boids::is_zero(ctx.choose(boids::zero<V>(), boids::zero<V>())));  // on the target: no direction
}

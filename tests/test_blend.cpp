// Tests of boids/blend.hpp.
#include "test_support.hpp"
#include <boids/behaviors/context.hpp>
#include <boids/behaviors/group.hpp>
#include <boids/behaviors/orientation.hpp>
#include <boids/behaviors/seek_flee_arrive.hpp>
#include <boids/behaviors/turning.hpp>
#include <boids/behaviors/wander.hpp>
#include <boids/blend.hpp>
#include <boids/flock/step.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include <algorithm>
#include <cmath>
#include <vector>

TEMPLATE_TEST_CASE("blend_weighted sums and clamps", "[blend]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V a = test::make<V>(1, 0), b = test::make<V>(0, 1);
    const V sum = boids::blend_weighted(S(100), boids::weighted<V>{S(2), a}, boids::weighted<V>{S(3), b});
    CHECK(test::near(sum, test::make<V>(2, 3), test::eps<V>()));
    const V clamped = boids::blend_weighted(S(1), boids::weighted<V>{S(3), a}, boids::weighted<V>{S(4), b});
    CHECK(test::near(clamped, test::make<V>(0.6, 0.8), test::eps<V>()));
    CHECK(test::near(boids::blend_weighted(S(1), boids::weighted<V>{S(0), a}), boids::zero<V>(), 0));
}

TEMPLATE_TEST_CASE("make_weighted_blend composes behaviour functors", "[blend]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{10, 1000, 1, 0};
    const V p = test::make<V>(0, 0), v = test::make<V>(0, 0);
    const boids::seek<V> right{test::make<V>(10, 0), lim};
    const boids::seek<V> up{test::make<V>(0, 10), lim};
    const auto blend = boids::make_weighted_blend(S(1000), boids::weight(S(1), right), boids::weight(S(0.5), up));
    const V a = blend(p, v);
    const V expected = boids::add_scaled(right(p, v), up(p, v), S(0.5));
    CHECK(test::near(a, expected, test::eps<V>()));
    const auto tight = boids::make_weighted_blend(S(2), boids::weight(S(1), right), boids::weight(S(1), up));
    CHECK(test::len(tight(p, v)) == Approx(2).epsilon(test::eps<V>()));
}

TEMPLATE_TEST_CASE("every behaviour goes into one blend, called with the agent", "[blend][agent]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{10, 1000, 1, 0};
    const std::vector<V> pos{test::make<V>(0, 0), test::make<V>(3, 0.5), test::make<V>(-2, 4)};
    const std::vector<V> vel{test::make<V>(1, 0), test::make<V>(-1, 0), test::make<V>(0.5, -1)};
    std::vector<boids::wander_state<V>> wanders;
    for (std::uint64_t i = 0; i < 3; ++i) wanders.push_back(boids::wander_state<V>::seeded(7, i));
    std::vector<boids::turning_state> turns(3);
    auto wanders_by_hand = wanders;
    auto turns_by_hand = turns;
    const boids::wander<V> wander{S(2), S(4), S(1), lim, wanders};
    const boids::avoid_collisions<V> avoid{S(1), S(3), lim, pos, vel};
    const boids::seek_turning<V> drive{test::make<V>(10, 10), lim, boids::turning_limits<S>{S(2), S(1)}, turns};
    const boids::context_steering<V, 16> choose{{}, S(0.5), S(5), lim, S(0), test::make<V>(-10, 0)};
    const boids::seek<V> home{test::make<V>(0, -10), lim};
    const auto blend = boids::make_weighted_blend(S(1000), boids::weight(S(1), wander), boids::weight(S(2), avoid),
                                                  boids::weight(S(0.5), drive), boids::weight(S(0.25), choose),
                                                  boids::weight(S(1), home));
    const S dt = S(0.1);
    for (std::size_t i = 0; i < 3; ++i) {
        const V got = blend(boids::boid_view<V>{i, pos[i], vel[i], dt});
        // The same parts called in their long forms, summed in the blend's order.
        V sum = boids::scale(wander(pos[i], vel[i], wanders_by_hand[i], dt), S(1));
        sum = boids::add_scaled(sum, avoid(i, pos, vel), S(2));
        sum = boids::add_scaled(sum, drive(pos[i], vel[i], turns_by_hand[i]), S(0.5));
        sum = boids::add_scaled(sum, choose(pos[i], vel[i], test::make<V>(-10, 0)), S(0.25));
        sum = boids::add_scaled(sum, home(pos[i], vel[i]), S(1));
        CHECK(test::near(got, boids::clamp_magnitude(sum, S(1000)), 0));
        // Each agent's own state was read at its index and advanced as the long form did.
        CHECK(test::near(wanders[i].target_local, wanders_by_hand[i].target_local, 0));
        CHECK(wanders[i].rng.next() == wanders_by_hand[i].rng.next());
        CHECK(turns[i].making_room == turns_by_hand[i].making_room);
    }
    // With a summary too (a flock_step blend), the agent-only parts get the agent.
    const boids::neighborhood_summary<V> none{};
    auto again = wanders;
    const boids::wander<V> wander_again{S(2), S(4), S(1), lim, again};
    const auto with_summary = boids::make_weighted_blend(S(1000), boids::weight(S(1), wander_again),
                                                         boids::weight(S(1), boids::separation_rule<V>{{}, lim}));
    const V a = with_summary(boids::boid_view<V>{1, pos[1], vel[1], dt}, none);
    CHECK(boids::is_finite(a));
    CHECK_FALSE(test::near(again[1].target_local, wanders[1].target_local, 0));  // advanced by the call
    // An index outside a behaviour's states steers nowhere (asserts off) instead of reading past them.
#if defined(NDEBUG) || defined(BOIDS_DISABLE_ASSERT)
    CHECK(test::near(wander(boids::boid_view<V>{3, pos[0], vel[0], dt}), boids::zero<V>(), 0));
    CHECK(test::near(avoid(boids::boid_view<V>{3, pos[0], vel[0], dt}), boids::zero<V>(), 0));
#endif
}

TEMPLATE_TEST_CASE("flock_step hands a blend each boid with the step's dt", "[blend][agent]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    boids::flock_config<V> cfg;
    cfg.view_radius = S(5);
    std::vector<V> pos{test::make<V>(0, 0), test::make<V>(1, 0), test::make<V>(0, 1), test::make<V>(40, 40)};
    std::vector<V> vel(pos.size(), test::make<V>(1, 0));
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    std::vector<S> seen(pos.size(), S(-1));
    auto blend = [&](const boids::boid_view<V>& b, const boids::neighborhood_summary<V>&) {
        seen[b.index] = b.dt;
        return boids::zero<V>();
    };
    boids::flock_step(pos, vel, cfg, grid, ws, S(0.125), blend);
    for (S dt : seen) CHECK(dt == S(0.125));
}

TEMPLATE_TEST_CASE("a blend called with an oriented agent steers and turns it", "[blend][agent][orientation]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    using A = boids::angular_t<V>;
    constexpr bool flat = boids::dimension_v<V> == 2;
    const boids::steering_limits<S> lim{10, 1000, 1, 0};
    const boids::angular_limits<S> turn{S(2), S(8), S(0.15)};
    const std::vector<V> pos{test::make<V>(0, 0), test::make<V>(3, 0.5)};
    const std::vector<V> vel{test::make<V>(1, 0), test::make<V>(-1, 0)};
    boids::oriented_view<V> agent;
    agent.index = 0;
    agent.position = pos[0];
    agent.velocity = vel[0];
    agent.dt = S(0.1);
    if constexpr (flat) {
        agent.orientation = S(0.5);
        agent.angular_velocity = S(0.25);
    } else {
        agent.orientation = boids::local_frame<V>::from_heading(test::make<V>(1, 0.5, 0));
        agent.angular_velocity = test::make<V>(0, 0.25, 0);
    }
    const auto angular_sum = [](const A& a, S wa, const A& b, S wb) {
        if constexpr (flat) return a * wa + b * wb;
        else return boids::add_scaled(boids::scale(a, wa), b, wb);
    };
    const boids::seek<V> go{test::make<V>(10, -5), lim};
    const boids::avoid_collisions<V> avoid{S(1), S(3), lim, pos, vel};  // takes a boid_view
    const boids::face<V> look{test::make<V>(0, 5), turn};
    const boids::look_where_going<V> ahead{turn};
    auto blend = boids::make_weighted_blend(S(1000), boids::weight(S(2), go), boids::weight(S(0.5), look),
                                            boids::weight(S(1), avoid), boids::weight(S(0.25), ahead));
    const boids::steering<V> got = blend(agent);
    const V linear =
        boids::add_scaled(boids::scale(go(agent.position, agent.velocity), S(2)), avoid(0, pos, vel), S(1));
    const auto long_call = [&](const auto& b) {
        return b(agent.position, agent.velocity, agent.orientation, agent.angular_velocity);
    };
    const A angular = angular_sum(long_call(look), S(0.5), long_call(ahead), S(0.25));
    CHECK(test::near(got.linear, linear, 0));
    CHECK_FALSE(boids::is_zero(got.linear));
    if constexpr (flat) {
        CHECK(got.angular == angular);
        CHECK(angular != S(0));
    } else {
        CHECK(test::near(got.angular, angular, 0));
        CHECK_FALSE(boids::is_zero(angular));
    }
    // Each part clamped to its own cap: the linear to max_force, the angular to max_angular_acceleration.
    blend.max_force = S(0.5);
    blend.max_angular_acceleration = S(0.01);
    const boids::steering<V> capped = blend(agent);
    CHECK(test::len(capped.linear) == Approx(0.5).epsilon(test::eps<V>()));
    if constexpr (flat) CHECK(std::fabs(capped.angular) == Approx(0.01).epsilon(test::eps<V>()));
    else CHECK(test::len(capped.angular) == Approx(0.01).epsilon(test::eps<V>()));

    // Priority: the first part whose linear or angular part passes the threshold wins, whole.
    const auto first_turn = boids::make_priority_blend(S(1000), S(1e-3), look, go);
    const boids::steering<V> turned = first_turn(agent);
    CHECK(test::near(turned.linear, boids::zero<V>(), 0));
    if constexpr (flat) CHECK(turned.angular == long_call(look));
    else CHECK(test::near(turned.angular, long_call(look), 0));
    // Already facing the target, at rest: face gives nothing, so seek wins and turns nowhere.
    boids::oriented_view<V> settled = agent;
    const boids::face<V> look_ahead{test::make<V>(10, 0), turn};
    if constexpr (flat) {
        settled.orientation = S(0);
        settled.angular_velocity = S(0);
    } else {
        settled.orientation = boids::local_frame<V>::from_heading(test::make<V>(1, 0));
        settled.angular_velocity = boids::zero<V>();
    }
    const boids::steering<V> moved = boids::make_priority_blend(S(1000), S(1e-3), look_ahead, go)(settled);
    CHECK(test::near(moved.linear, go(settled.position, settled.velocity), 0));
    if constexpr (flat) CHECK(moved.angular == S(0));
    else CHECK(test::near(moved.angular, boids::zero<V>(), 0));

    // Facing behaviours alone, in their long call: a 2D blend sums angles' accelerations and
    // clamps them to its max_force (the one cap it has).
    if constexpr (flat) {
        const auto spin = boids::make_weighted_blend(S(0.05), boids::weight(S(1), look), boids::weight(S(1), ahead));
        const S both = long_call(look) + long_call(ahead);
        CHECK(std::fabs(both) > S(0.05));
        CHECK(spin(agent.position, agent.velocity, agent.orientation, agent.angular_velocity) ==
              std::clamp(both, S(-0.05), S(0.05)));
    }
}

// Tests of boids/behaviors/group.hpp.
#include "agent_sim.hpp"
#include <boids/behaviors/group.hpp>
#include <boids/behaviors/avoid_obstacles.hpp>
#include <boids/blend.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <vector>

struct door_vec2 {
    double x, y;
};
BOIDS_REGISTER_VECTOR2(door_vec2, double, x, y)

TEMPLATE_TEST_CASE("queue keeps a file of agents from overlapping", "[crowd][queue]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    // Eight agents in single file, all seeking a point far ahead; the leader is slow
    // (a crowded door). Without queueing the followers run into it.
    int differ = 0, waited = 0;
    auto simulate = [&](bool queueing) {
        std::vector<V> p, v;
        for (int i = 0; i < 8; ++i) {
            p.push_back(test::make<V>(-3.0 * i, 0));
            v.push_back(test::make<V>(2, 0));
        }
        const boids::steering_limits<S> fast{4, 8, S(0.2), 0}, slow{1, 8, S(0.2), 0};
        const V target = test::make<V>(200, 0);
        boids::all_pairs<V> finder{boids::world_for<V>{}};
        std::vector<boids::neighbor<S, D>> buf(16);
        std::vector<V> acc(p.size());
        double closest = 1e9;
        for (int step = 0; step < 1200; ++step) {
            finder.build(boids::span<const V>(p));
            for (std::size_t i = 0; i < p.size(); ++i) {
                const auto& lim = i == 0 ? slow : fast;
                boids::buffer_sink<S, D> near{boids::span<boids::neighbor<S, D>>(buf)};
                finder.for_each_within(i, S(4), near);
                const V go = boids::seek<V>{target, lim}(p[i], v[i]);
                const V wait = queueing ? boids::queue<V>{S(2.5), S(1), lim}(v[i], near.result()) : boids::zero<V>();
                acc[i] = boids::blend_priority(lim.max_force, S(1e-3), wait, go);
                if (queueing) {
                    // The same as one blend called with the agent and its neighbours.
                    const auto blend = boids::make_priority_blend(
                        lim.max_force, S(1e-3), boids::queue<V>{S(2.5), S(1), lim}, boids::seek<V>{target, lim});
                    const V same = blend(boids::boid_view<V>{i, p[i], v[i]}, near.result());
                    differ += test::near(same, acc[i], 0) ? 0 : 1;
                    waited += boids::is_zero(wait) ? 0 : 1;
                }
            }
            for (std::size_t i = 0; i < p.size(); ++i)
                boids::integrate(p[i], v[i], acc[i], S(1) / S(60), i == 0 ? slow : fast);
            for (std::size_t i = 0; i < p.size(); ++i)
                for (std::size_t j = i + 1; j < p.size(); ++j)
                    closest = std::min(closest, test::len(boids::sub(p[i], p[j])));
        }
        return closest;
    };
    const double with = simulate(true), without = simulate(false);
    CAPTURE(with, without, waited);
    CHECK(differ == 0);
    CHECK(waited > 100);
    CHECK(with > 1.0);
    CHECK(without < 0.5);
}

TEMPLATE_TEST_CASE("leader following keeps followers behind the leader", "[crowd][leader]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{6, 15, S(0.2), 0};
    const V lv = test::make<V>(3, 0.5, 0.2);
    int ahead = 0, samples = 0;
    // Start in front of the leader, on its path: the follower must step aside and fall back.
    test::run<V>(
        {test::make<V>(4, 0), boids::zero<V>()}, lim, 20, 1.0 / 60,
        [&](const V& p, const V& v, double t) {
            return boids::follow_leader<V>{boids::scale(lv, static_cast<S>(t)), lv, S(3), lim}(p, v);
        },
        [&](const test::agent<V>& a, double t) {
            if (t < 5) return;
            const V leader = boids::scale(lv, static_cast<S>(t));
            ++samples;
            if (boids::dot(boids::sub(a.p, leader), lv) > 0) ++ahead;
        });
    CHECK(samples > 0);
    CHECK(ahead == 0);
}

TEMPLATE_TEST_CASE("unaligned collision avoidance keeps crossing agents apart", "[crowd][collisions]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{4, 10, S(0.2), 0};
    // Two agents on a collision course at right angles.
    auto closest_approach = [&](bool avoiding) {
        std::vector<V> p{test::make<V>(-10, 0), test::make<V>(0, -10)}, v{test::make<V>(4, 0), test::make<V>(0, 4)};
        const V goals[2] = {test::make<V>(30, 0), test::make<V>(0, 30)};
        const boids::avoid_collisions<V> avoid{S(1), S(3), lim};
        double closest = 1e9;
        for (int step = 0; step < 600; ++step) {
            V acc[2];
            for (std::size_t i = 0; i < 2; ++i) {
                const V go = boids::seek<V>{goals[i], lim}(p[i], v[i]);
                const V dodge =
                    avoiding ? avoid(i, boids::span<const V>(p), boids::span<const V>(v)) : boids::zero<V>();
                acc[i] = boids::blend_priority(lim.max_force, S(1e-3), dodge, go);
            }
            for (std::size_t i = 0; i < 2; ++i) boids::integrate(p[i], v[i], acc[i], S(1) / S(60), lim);
            closest = std::min(closest, test::len(boids::sub(p[0], p[1])));
        }
        return closest;
    };
    const double with = closest_approach(true), without = closest_approach(false);
    CAPTURE(with, without);
    CHECK(without < 0.5);
    CHECK(with > 1.5);
}

TEMPLATE_TEST_CASE("crowd behaviours on degenerate input", "[crowd][contract]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{4, 10, S(0.2), 0};
    const V z = boids::zero<V>();
    CHECK(boids::is_finite(boids::queue<V>{S(0), S(0), lim}(z, {})));
    CHECK(boids::is_finite(boids::follow_leader<V>{z, z, S(0), lim}(z, z)));
    std::vector<V> p(3, z), v(3, z);
    CHECK(boids::is_finite(
        boids::avoid_collisions<V>{S(1), S(1), lim}(0, boids::span<const V>(p), boids::span<const V>(v))));
}

TEST_CASE("queue files a crowd through a door without overlaps", "[crowd][queue]") {
    using P = door_vec2;
    const boids::steering_limits<double> lim{3, 12, 0.2, 0};
    const double r = 0.3;  // agent radius: overlap means closer than 0.6
    // A door 1.6 wide (under three agents abreast) between two round pillars.
    const std::vector<boids::sphere<P>> pillars{{{0, 2.3}, 1.5}, {{0, -2.3}, 1.5}};
    auto simulate = [&](bool queueing, int& through) {
        std::vector<P> p, v;
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 3; ++j) {
                p.push_back({-6.0 - 1.2 * i, -1.2 + 1.2 * j});
                v.push_back({0, 0});
            }
        boids::all_pairs<P> finder{boids::world<double, 2>{}};
        std::vector<boids::neighbor<double, 2>> buf(32);
        std::vector<P> acc(p.size());
        const boids::separation<P> personal_space{2 * r * 1.5, boids::separation_falloff::linear, 12};
        double closest = 1e9;
        for (int step = 0; step < 60 * 30; ++step) {
            finder.build(boids::span<const P>(p));
            for (std::size_t i = 0; i < p.size(); ++i) {
                boids::buffer_sink<double, 2> near{boids::span<boids::neighbor<double, 2>>(buf)};
                finder.for_each_within(i, 3.0, near);
                const P avoid =
                    boids::avoid_obstacles<P>{boids::span<const boids::sphere<P>>(pillars), r, lim}(p[i], v[i]);
                const P wait = queueing ? boids::queue<P>{1.5, 2 * r, lim}(v[i], near.result()) : P{0, 0};
                const P go = boids::arrive<P>{{12, 0}, 2.0, lim}(p[i], v[i]);
                const P push = personal_space(i, v[i], near.result(), lim);
                acc[i] = boids::blend_priority(
                    lim.max_force, 1e-6, avoid,
                    boids::blend_weighted(lim.max_force, boids::weighted<P>{2, push}, boids::weighted<P>{2, wait},
                                          boids::weighted<P>{1, go}));
            }
            for (std::size_t i = 0; i < p.size(); ++i) boids::integrate(p[i], v[i], acc[i], 1.0 / 60, lim);
            if (step > 60)  // after the first second (they start 1.2 apart)
                for (std::size_t i = 0; i < p.size(); ++i)
                    for (std::size_t j = i + 1; j < p.size(); ++j)
                        closest = std::min(closest, boids::distance(p[i], p[j]));
        }
        through = 0;
        for (const auto& q : p) through += q.x > 3 ? 1 : 0;
        return closest;
    };
    int through_with = 0, through_without = 0;
    const double with = simulate(true, through_with), without = simulate(false, through_without);
    CAPTURE(with, without, through_with);
    CHECK(through_with == 12);     // everyone gets through the door in 30 s
    CHECK(with >= 2 * r);          // and no two agents overlap on the way
    CHECK(without < 2 * r * 0.8);  // without queueing they jostle into each other
}

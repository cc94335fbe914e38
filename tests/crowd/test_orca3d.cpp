// Reciprocal collision avoidance in 3D (crowd/orca.hpp with 3D vectors,
// crowd/linear_program3d.hpp, crowd/obstacles3d.hpp): the linear programs, agents
// passing, a sphere of agents swapping sides, spheres and planes as obstacles, threads.
#include "test_support.hpp"
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>
#include <boids/crowd/obstacles2d.hpp>
#include <boids/crowd/obstacles3d.hpp>
#include <boids/crowd/orca.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "plain_vectors.hpp"

namespace {
using V = test::dvec3;
using S = double;

struct crowd3 {
    std::vector<V> p, v, pref, goal;
    S radius = 1.5, speed = 2;
    boids::crowd_agents<V> agents() {
        return {boids::span<V>(p),
                boids::span<V>(v),
                boids::span<const V>(pref),
                boids::span<const S>(&radius, 1),
                boids::span<const S>(&speed, 1),
                {},
                {},
                {}};
    }
    std::size_t aim() {  // toward the goal at speed 1; returns how many are within their radius of it
        std::size_t home = 0;
        pref.resize(p.size());
        for (std::size_t i = 0; i < p.size(); ++i) {
            const V to = boids::sub(goal[i], p[i]);
            const S d = boids::length(to);
            if (d <= radius) ++home;
            pref[i] = d > 1 ? boids::scale(to, 1 / d) : to;
        }
        return home;
    }
    S closest() const {
        S best = std::numeric_limits<S>::infinity();
        for (std::size_t i = 0; i < p.size(); ++i)
            for (std::size_t j = i + 1; j < p.size(); ++j) best = std::min(best, boids::length(boids::sub(p[i], p[j])));
        return best;
    }
};

// n agents spread over a sphere of radius r (a Fibonacci lattice), each heading for the opposite point.
crowd3 sphere_scene(std::size_t n, S r) {
    crowd3 c;
    for (std::size_t i = 0; i < n; ++i) {
        const S z = 1 - 2 * (static_cast<S>(i) + 0.5) / static_cast<S>(n);
        const S a = 2.399963229728653 * static_cast<S>(i), s = std::sqrt(1 - z * z);
        c.p.push_back({r * s * std::cos(a), r * s * std::sin(a), r * z});
        c.goal.push_back({-c.p.back().x, -c.p.back().y, -c.p.back().z});
    }
    c.v.assign(n, V{0, 0, 0});
    return c;
}
}  // namespace

TEST_CASE("lp3d: the answer keeps every half-space and the speed limit", "[crowd3d][lp]") {
    boids::random_stream rng(11);
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<boids::half_space<S>> planes(static_cast<std::size_t>(1 + trial % 11));
        for (auto& h : planes) {  // planes that all permit the origin
            const V n = boids::unit_direction<V>(rng.next());
            const S back = rng.uniform(0.01, 1.0);
            h.normal = {n.x, n.y, n.z};
            h.point = {-back * n.x, -back * n.y, -back * n.z};
        }
        boids::detail::vec3s<S> v{};
        const boids::detail::vec3s<S> opt{rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-3, 3)};
        const auto all = boids::span<const boids::half_space<S>>(planes);
        REQUIRE(boids::detail::lp3d(all, S(2), opt, false, v) == planes.size());
        CHECK(boids::detail::dot3(v, v) <= 4 * (1 + 1e-12));
        for (const auto& h : planes) CHECK(boids::detail::dot3(h.normal, boids::detail::sub3(v, h.point)) >= -1e-9);
    }
    // Two opposite half-spaces 1 apart, z >= 0.5 and z <= -0.5: the least violation is z = 0.
    std::vector<boids::half_space<S>> two(2);
    two[0].point = {0, 0, 0.5};
    two[0].normal = {0, 0, 1};
    two[1].point = {0, 0, -0.5};
    two[1].normal = {0, 0, -1};
    boids::detail::vec3s<S> v{};
    const auto all = boids::span<const boids::half_space<S>>(two);
    const std::size_t failed = boids::detail::lp3d(all, S(2), {0, 0, 1}, false, v);
    REQUIRE(failed < 2);
    std::vector<boids::half_space<S>> scratch(2);
    boids::detail::lp3d_least_violation(all, failed, S(2), v, boids::span<boids::half_space<S>>(scratch));
    CHECK(std::fabs(v[2]) < 1e-9);
}

TEST_CASE("3D: two agents nearly head-on pass without touching and both arrive", "[crowd3d]") {
    crowd3 c;
    c.p = {{-20, 0, 0}, {20, 0.1, 0.05}};
    c.goal = {{20, 0, 0}, {-20, 0.1, 0.05}};
    c.v.assign(2, V{0, 0, 0});
    boids::crowd_config<S> cfg;
    boids::crowd_workspace<V> ws;
    boids::all_pairs<V> finder(boids::world_for<V>{});
    S closest = 100;
    int step = 0;
    for (; step < 400 && c.aim() < 2; ++step) {
        boids::crowd_step(c.agents(), cfg, finder, ws);
        closest = std::min(closest, c.closest());
    }
    CHECK(step < 400);
    CHECK(closest >= 3 * (1 - 0.5e-4));
    CHECK(ws.last_overlaps == 0);
}

TEST_CASE("3D: 100 agents on a sphere swap sides through its centre, no overlap, all home, same bits on 2 threads",
          "[crowd3d][scene]") {
    std::vector<std::vector<V>> ends;
    for (std::size_t threads : {1u, 2u}) {
        crowd3 c = sphere_scene(100, 40);
        boids::crowd_config<S> cfg;
        boids::uniform_grid<V> grid(boids::world_for<V>{}, cfg.neighbor_distance);
        boids::crowd_workspace<V> ws;
        boids::thread_pool pool(threads);
        S closest = 100;
        int step = 0;
        for (; step < 4000 && c.aim() < c.p.size(); ++step) {
            boids::crowd_step(c.agents(), cfg, grid, ws, pool);
            closest = std::min(closest, c.closest());
        }
        INFO("threads " << threads << ", steps " << step);
        CHECK(step < 4000);
        CHECK(closest >= 3 * (1 - 0.5e-4));
        ends.push_back(c.p);
    }
    CHECK(std::memcmp(ends[0].data(), ends[1].data(), sizeof(V) * ends[0].size()) == 0);
}

TEST_CASE("3D obstacles: agents go round a sphere and never sink through the floor", "[crowd3d][obstacles]") {
    // One name in 2D and 3D: the dimension picks the class.
    static_assert(std::is_same_v<boids::crowd_obstacles<V>, boids::crowd_obstacles3<V>>);
    static_assert(std::is_same_v<boids::crowd_obstacles<test::dvec2>, boids::crowd_obstacles2<test::dvec2>>);
    boids::crowd_obstacles<V> o;
    CHECK_FALSE(o.add_sphere(V{0, 0, 0}, 0));
    CHECK_FALSE(o.add_plane(V{0, 0, 0}, V{0, 0, 0}));
    REQUIRE(o.add_sphere(V{0, 0, 5}, 4));
    REQUIRE(o.add_plane(V{0, 0, 0}, V{0, 0, 2}));  // the floor z = 0, agents above
    CHECK(o.crosses(V{-10, 0, 5}, V{10, 0, 5}));   // straight through the sphere
    CHECK(o.crosses(V{0, 20, 1}, V{0, 20, -1}));   // through the floor
    CHECK_FALSE(o.crosses(V{-10, 8, 5}, V{10, 8, 5}));
    crowd3 c;
    boids::random_stream rng(5);
    for (int i = 0; i < 12; ++i) {  // a row that walks through the sphere's place, pulled down into the floor
        c.p.push_back({-25 - 4 * static_cast<S>(i % 3), rng.uniform(-6, 6), rng.uniform(1.6, 9)});
        c.goal.push_back({25, c.p.back().y, -5});
    }
    c.v.assign(c.p.size(), V{0, 0, 0});
    boids::crowd_config<S> cfg;
    boids::all_pairs<V> finder(boids::world_for<V>{});
    boids::crowd_workspace<V> ws;
    S lowest = 100, nearest_sphere = 100, closest = 100;
    for (int step = 0; step < 600; ++step) {
        c.aim();
        boids::crowd_step(c.agents(), o, cfg, finder, ws);
        for (const V& q : c.p) {
            lowest = std::min(lowest, q.z);
            nearest_sphere = std::min(nearest_sphere, boids::length(boids::sub(q, V{0, 0, 5})));
        }
        closest = std::min(closest, c.closest());
    }
    std::size_t past = 0;
    for (const V& q : c.p) past += q.x > 20 ? 1 : 0;
    CHECK(lowest >= 0);          // no centre below the floor
    CHECK(lowest > 1.4);         // and the balls kept off it, near enough
    CHECK(nearest_sphere >= 4);  // none inside the sphere
    CHECK(closest >= 3 * (1 - 0.5e-4));
    CHECK(past == c.p.size());  // all went round it
}

// Reciprocal collision avoidance (crowd/orca.hpp, crowd/linear_program.hpp): the
// linear programs, two agents head-on, RVO2's circle, threads, degenerate input.
#include "test_support.hpp"
#include <cmath>
#include <cstring>
#include <vector>
#include <boids/crowd/orca.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "crowd_circle.hpp"

namespace {
using V = test::dvec2;
using S = double;

// Every pair's centre distance, smallest first.
S closest_pair(const std::vector<V>& p) {
    S best = std::numeric_limits<S>::infinity();
    for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t j = i + 1; j < p.size(); ++j) best = std::min(best, boids::length(boids::sub(p[i], p[j])));
    return best;
}

// Agents of one radius and top speed over the test's arrays.
boids::crowd_agents<V> same_size(std::vector<V>& p, std::vector<V>& v, const std::vector<V>& pref, const S& radius,
                                 const S& speed, std::vector<S>* waiting = nullptr) {
    return {boids::span<V>(p),
            boids::span<V>(v),
            boids::span<const V>(pref),
            boids::span<const S>(&radius, 1),
            boids::span<const S>(&speed, 1),
            {},
            {},
            {},
            waiting != nullptr ? boids::span<S>(*waiting) : boids::span<S>()};
}

// Each agent's preferred velocity: straight at its goal at speed 1, slowing within 1.
void aim_at(const std::vector<V>& goal, const std::vector<V>& p, std::vector<V>& pref) {
    for (std::size_t i = 0; i < p.size(); ++i) {
        const V to = boids::sub(goal[i], p[i]);
        const S d = boids::length(to);
        pref[i] = d > 1 ? boids::scale(to, 1 / d) : to;
    }
}
}  // namespace

TEST_CASE("linear_program2: the answer keeps every half-plane and the speed limit", "[crowd][lp]") {
    boids::random_stream rng(7);
    int feasible = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        // Lines through points near the origin, all of which permit the origin.
        std::vector<boids::half_plane<S>> lines(static_cast<std::size_t>(1 + trial % 9));
        for (auto& l : lines) {
            const S a = rng.uniform(0, 6.283185307179586);
            l.dx = std::cos(a);
            l.dy = std::sin(a);
            const S back = rng.uniform(0.01, 1.0);  // the origin lies on the left: point = -back * left normal
            l.px = back * l.dy;
            l.py = -back * l.dx;
        }
        boids::detail::velocity2<S> v{};
        const boids::detail::velocity2<S> opt{rng.uniform(-3, 3), rng.uniform(-3, 3)};
        const auto failed =
            boids::detail::linear_program2(boids::span<const boids::half_plane<S>>(lines), S(2), opt, false, v);
        REQUIRE(failed == lines.size());  // the origin is feasible, so the program is
        ++feasible;
        CHECK(v.x * v.x + v.y * v.y <= S(4) * (1 + 1e-12));
        for (const auto& l : lines) CHECK(boids::detail::cross2(l.dx, l.dy, l.px - v.x, l.py - v.y) <= 1e-9);
    }
    CHECK(feasible == 2000);
}

TEST_CASE("linear_program3: with no velocity that keeps every line, the worst is violated least", "[crowd][lp]") {
    // Two opposite half-planes 1 apart: x >= 0.5 and x <= -0.5. The best compromise is x = 0.
    std::vector<boids::half_plane<S>> lines(2);
    lines[0] = {S(0.5), S(0), S(0), S(-1)};  // direction -y: the permitted side (left) is +x
    lines[1] = {S(-0.5), S(0), S(0), S(1)};  // direction +y: the permitted side is -x
    boids::detail::velocity2<S> v{};
    const auto all = boids::span<const boids::half_plane<S>>(lines);
    const auto failed = boids::detail::linear_program2(all, S(2), {S(1), S(0)}, false, v);
    REQUIRE(failed < lines.size());
    std::vector<boids::half_plane<S>> scratch(lines.size());
    boids::detail::linear_program3(all, failed, S(2), v, boids::span<boids::half_plane<S>>(scratch));
    CHECK(std::fabs(v.x) < 1e-9);
}

TEST_CASE("two agents head-on pass each other without touching and both arrive", "[crowd]") {
    std::vector<V> p{{-20, 0}, {20, 0}}, v(2, V{0, 0}), pref(2), goal{{20, 0}, {-20, 0}};
    const S radius = 1.5, speed = 2;
    boids::crowd_config<S> cfg;
    boids::crowd_workspace<V> ws;
    boids::all_pairs<V> finder(boids::world_for<V>{});
    const boids::crowd_agents<V> agents = same_size(p, v, pref, radius, speed);
    S closest = std::numeric_limits<S>::infinity();
    S widest_swerve = 0;
    int step = 0;
    for (; step < 400; ++step) {
        bool home = true;
        for (std::size_t i = 0; i < 2; ++i) {
            const V to = boids::sub(goal[i], p[i]);
            const S d = boids::length(to);
            home = home && d <= radius;
            pref[i] = d > 1 ? boids::scale(to, 1 / d) : to;
        }
        if (home) break;
        boids::crowd_step(agents, cfg, finder, ws);
        closest = std::min(closest, closest_pair(p));
        widest_swerve = std::max(widest_swerve, std::fabs(p[0].y));
    }
    CHECK(step < 400);
    CHECK(closest >= 3 * (1 - 0.5e-4));
    CHECK(widest_swerve > 0.5);  // they went round each other
    CHECK(ws.last_reverted == 0);
}

TEST_CASE("a crowd step gives the same bits on one thread and on two", "[crowd][threads]") {
    std::vector<std::vector<V>> ends;
    for (std::size_t threads : {1u, 2u}) {
        test::crowd_circle scene(300, 3);
        boids::uniform_grid<V> grid(boids::world_for<V>{}, scene.config.neighbor_distance);
        boids::crowd_workspace<V> ws;
        boids::thread_pool pool(threads);
        for (int s = 0; s < 400; ++s) {
            scene.aim();
            boids::crowd_step(scene.agents(), scene.config, grid, ws, pool);
        }
        ends.push_back(scene.position);
        ends.push_back(scene.velocity);
    }
    CHECK(std::memcmp(ends[0].data(), ends[2].data(), sizeof(V) * ends[0].size()) == 0);
    CHECK(std::memcmp(ends[1].data(), ends[3].data(), sizeof(V) * ends[1].size()) == 0);
}

TEST_CASE("a crowd step is finite for agents on one spot, zero radius, zero speed and goals on top",
          "[crowd][contract]") {
    std::vector<V> p{{0, 0}, {0, 0}, {0, 0}, {5, 5}, {5, 5}}, v{{1, 0}, {1, 0}, {0, 0}, {0, 0}, {0, 0}};
    std::vector<V> pref{{1, 0}, {1, 0}, {0, 0}, {0, 0}, {0, 0}};
    const std::vector<S> radius{1, 1, 0, 1, 1}, speed{2, 2, 2, 0, 2};
    boids::crowd_config<S> cfg;
    boids::crowd_workspace<V> ws;
    boids::uniform_grid<V> grid(boids::world_for<V>{}, S(15));
    const boids::crowd_agents<V> agents{boids::span<V>(p),
                                        boids::span<V>(v),
                                        boids::span<const V>(pref),
                                        boids::span<const S>(radius),
                                        boids::span<const S>(speed),
                                        {},
                                        {},
                                        {}};
    for (int s = 0; s < 50; ++s) {
        boids::crowd_step(agents, cfg, grid, ws);
        for (std::size_t i = 0; i < p.size(); ++i) {
            REQUIRE(boids::is_finite(p[i]));
            REQUIRE(boids::is_finite(v[i]));
            REQUIRE(boids::length(v[i]) <= speed[i] * (1 + 1e-12));
        }
    }
    // The pair that started on one spot is apart by now; so is the one whose member may not move.
    CHECK(boids::length(boids::sub(p[0], p[1])) >= 2 * (1 - 0.5e-4));
    CHECK(boids::length(boids::sub(p[3], p[4])) >= 2 * (1 - 0.5e-4));
    CHECK(boids::length(v[3]) == 0);  // pushed aside, but never faster than its max speed of 0
}

TEST_CASE("agents join and leave between steps", "[crowd]") {
    test::crowd_circle scene(40, 1);
    boids::uniform_grid<V> grid(boids::world_for<V>{}, scene.config.neighbor_distance);
    boids::crowd_workspace<V> ws;
    for (int s = 0; s < 30; ++s) {
        scene.aim();
        boids::crowd_step(scene.agents(), scene.config, grid, ws);
    }
    // One leaves (the last takes its place), two join.
    scene.position[3] = scene.position.back();
    scene.velocity[3] = scene.velocity.back();
    scene.goal[3] = scene.goal.back();
    for (auto* a : {&scene.position, &scene.velocity, &scene.goal}) a->pop_back();
    scene.preferred.pop_back();
    for (const V at : {V{0, 0}, V{0, 10}}) {
        scene.position.push_back(at);
        scene.velocity.push_back({0, 0});
        scene.goal.push_back({-at.x, -at.y - 20});
        scene.preferred.push_back({0, 0});
    }
    for (int s = 0; s < 30; ++s) {
        scene.aim();
        boids::crowd_step(scene.agents(), scene.config, grid, ws);
        REQUIRE(ws.new_velocity.size() == scene.position.size());
    }
    CHECK(scene.position.size() == 41);
    CHECK(closest_pair(scene.position) >= 3 * (1 - 0.5e-4));
}

TEST_CASE("responsibility: an agent that never gives way keeps its line; the other goes round", "[crowd]") {
    std::vector<V> p{{-20, 0.3}, {20, -0.3}}, v(2, V{0, 0}), pref(2), goal{{20, 0.3}, {-20, -0.3}};
    const std::vector<S> share{0, 1};
    const S radius = 1.5, speed = 2;
    boids::crowd_config<S> cfg;
    cfg.pass_right = 0;
    boids::crowd_workspace<V> ws;
    boids::all_pairs<V> finder(boids::world_for<V>{});
    const boids::crowd_agents<V> agents{boids::span<V>(p),
                                        boids::span<V>(v),
                                        boids::span<const V>(pref),
                                        boids::span<const S>(&radius, 1),
                                        boids::span<const S>(&speed, 1),
                                        boids::span<const S>(share),
                                        {},
                                        {}};
    S swerve0 = 0, swerve1 = 0;
    for (int step = 0; step < 200; ++step) {
        aim_at(goal, p, pref);
        boids::crowd_step(agents, cfg, finder, ws);
        swerve0 = std::max(swerve0, std::fabs(p[0].y - 0.3));
        swerve1 = std::max(swerve1, std::fabs(p[1].y + 0.3));
    }
    CHECK(swerve0 < 1e-9);
    CHECK(swerve1 > 2.0);
    CHECK(closest_pair(p) >= 3 * (1 - 0.5e-4));
}

TEST_CASE("giving way: held up across another held-up agent, the one that waited less steps back", "[crowd]") {
    // Agent 0 wants +x and stands just behind agent 1, who wants +y across its way:
    // neither moved last step. Head-on (as in a doorway) and across (where streams
    // cross) alike, the longer wait goes first; one on the move across it is avoided.
    const S radius = 1.5, speed = 2;
    boids::crowd_config<S> cfg;
    boids::all_pairs<V> finder(boids::world_for<V>{});
    std::size_t gave_way = 9;
    auto step = [&](V pref1, V vel1, S wait0, S wait1) {
        std::vector<V> p{{0, 0}, {3.2, 0.5}}, v{{0, 0}, vel1};
        const std::vector<V> pref{{1, 0}, pref1};
        std::vector<S> waiting{wait0, wait1};
        boids::crowd_workspace<V> ws;
        boids::crowd_step(same_size(p, v, pref, radius, speed, &waiting), cfg, finder, ws);
        gave_way = ws.last_giving_way;
        return p;
    };
    CHECK(step(V{0, 1}, V{0, 0}, 1, 5)[0].x < 0);  // agent 0 steps back
    CHECK(gave_way == 1);
    CHECK(step(V{-1, 0}, V{0, 0}, 1, 5)[0].x < 0);  // head-on: the same
    CHECK(gave_way == 1);
    CHECK(step(V{0, 1}, V{0, 0}, 5, 1)[0].x >= 0);  // it waited longer: it stays
    CHECK(gave_way == 0);
    step(V{0, 1}, V{0, 1}, 1, 5);  // the other walks across: no jam, avoided
    CHECK(gave_way == 0);
    step(V{-0.5, 0}, V{0, 0}, 1, 5);  // head-on, but slowing to a stop at its goal
    CHECK(gave_way == 0);
}

TEST_CASE("giving way: an agent boxed in by four standing at their goals gets out", "[crowd]") {
    // The last one home in a crowd's goal lattice: four agents stand at the corners of
    // a square 5 across (gaps narrower than a diameter), one is in the middle.
    const S radius = 1.5, speed = 2;
    boids::crowd_config<S> cfg;
    boids::all_pairs<V> finder(boids::world_for<V>{});
    for (const V way : {V{1, 0}, V{0.36, -0.93}, V{0.6, 0.8}}) {
        std::vector<V> p{{0, 0}, {2.5, 2.5}, {2.5, -2.5}, {-2.5, 2.5}, {-2.5, -2.5}}, v(5, V{0, 0}), pref(5);
        std::vector<V> goal(p);
        goal[0] = boids::scale(way, 20);
        boids::crowd_workspace<V> ws;
        const boids::crowd_agents<V> agents = same_size(p, v, pref, radius, speed);
        int step = 0;
        for (; step < 400 && boids::length(p[0]) < 8; ++step) {
            aim_at(goal, p, pref);
            boids::crowd_step(agents, cfg, finder, ws);
        }
        CHECK(step < 400);
        CHECK(closest_pair(p) >= 3 * (1 - 0.5e-4));
    }
}

TEST_CASE("giving way: agents standing at their goals step out of the way of one stuck behind them", "[crowd]") {
    // A group's goal lattice, 5 apart (gaps of 2, a diameter of 3), against a wall: the last
    // one in overshot and stands between the wall and the lattice's far column, its own goal
    // two columns in, and it has waited longer than those standing. They are held in place
    // by their neighbours and their goals, and a share of avoiding it cannot move one at rest.
    const S radius = 1.5, speed = 2;
    boids::crowd_config<S> cfg;
    boids::all_pairs<V> finder(boids::world_for<V>{});
    boids::crowd_obstacles<V> wall(10.0);
    const V room[4] = {{-10, -20}, {40, -20}, {40, 20}, {-10, 20}};
    REQUIRE(wall.add_boundary(boids::span<const V>(room, 4)));
    std::vector<V> p{{-2.0, -5.23}}, goal{{10, -2.5}};
    for (const S x : {0.0, 5.0, 10.0, 15.0, 20.0})
        for (const S y : {-12.5, -7.5, -2.5, 2.5, 7.5, 12.5})
            if (!(x == 10 && y == -2.5)) p.push_back(V{x, y});
    goal.insert(goal.end(), p.begin() + 1, p.end());
    std::vector<V> v(p.size(), V{0, 0}), pref(p.size());
    std::vector<S> waiting(p.size(), S(20));
    waiting[0] = 500;
    boids::crowd_workspace<V> ws;
    const boids::crowd_agents<V> agents = same_size(p, v, pref, radius, speed, &waiting);
    int step = 0, aside = 0;
    S closest = closest_pair(p);
    for (; step < 2000 && boids::length(boids::sub(p[0], goal[0])) > 1.5; ++step) {
        aim_at(goal, p, pref);
        boids::crowd_step(agents, wall, cfg, finder, ws);
        closest = std::min(closest, closest_pair(p));
        for (const V& a : ws.aside) aside += boids::is_zero(a) ? 0 : 1;
    }
    CAPTURE(step, aside, p[0].x, p[0].y);
    CHECK(step < 400);                        // home within 100 s
    for (int more = 0; more < 200; ++more) {  // and everyone settles back on their goals
        aim_at(goal, p, pref);
        boids::crowd_step(agents, wall, cfg, finder, ws);
        closest = std::min(closest, closest_pair(p));
    }
    CHECK(aside > 0);
    CHECK(closest >= 3 * (1 - 0.5e-4));
    for (std::size_t i = 0; i < p.size(); ++i) CHECK(boids::length(boids::sub(p[i], goal[i])) < 0.5);
}

TEST_CASE("crowd_config names the field that is wrong", "[crowd][contract]") {
    boids::crowd_config<S> cfg;
    CHECK(cfg.validate());
    cfg.time_horizon = 0;
    CHECK(std::string(cfg.validate().field) == "time_horizon");
    cfg = {};
    cfg.pass_right = 2;
    CHECK(std::string(cfg.validate().field) == "pass_right");
}

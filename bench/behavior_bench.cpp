// Behaviour benchmarks (boids/behaviors/), in boids-bench: what one call costs, for
// 1,000 agents spread over a 1,000 x 1,000 level, each called once an iteration.
//   behavior/{seek,arrive}: one target, the baselines;
//   behavior/avoid_obstacles/N: N circles (radius 5 to 20) anywhere in the level;
//   behavior/avoid_walls/W and behavior/follow_wall/W: W walls (segments 20 to 60 long,
//     at any angle, crossing as they fall), the latter with no reach limit, so every
//     agent follows;
//   behavior/avoid_walls_grid/W and behavior/follow_wall_reach30_grid/W: each call given
//     the walls within its wall_range() by a wall_grid (buckets of 40), the query timed
//     with the call; behavior/follow_wall_reach30/W is the same call given all the walls;
//   behavior/avoid_obstacles_grid/N and behavior/context_grid/N: each call given the
//     obstacles within its obstacle_range() by an obstacle_grid (buckets of 40), the
//     query timed with the call; behavior/context/N is context_steering (32 directions,
//     look-ahead 50) given all of them;
//   behavior/avoid_obstacles3d{,_grid}/N: the same in a 1,000-wide cube, the agents in it;
//   behavior/follow_path/P: a path of P points, a random walk of steps 20 to 60.
// ns_per_call divides an iteration's time by its 1,000 calls; the ratios between
// sizes show how each call's cost grows with the scene.
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdint>
#include <vector>
#include <boids/behaviors/avoid_obstacles.hpp>
#include <boids/behaviors/context.hpp>
#include <boids/behaviors/follow_wall.hpp>
#include <boids/behaviors/obstacle_grid.hpp>
#include <boids/behaviors/path.hpp>
#include <boids/behaviors/seek_flee_arrive.hpp>
#include <boids/behaviors/wall_grid.hpp>
#include <boids/random.hpp>
#include "lab_vector.hpp"

namespace {
using V = lab::vec2;
constexpr std::size_t agents = 1000;
constexpr double level = 1000.0;

boids::steering_limits<double> limits() {
    boids::steering_limits<double> l;
    l.max_speed = 60;
    l.max_force = 720;
    l.reaction_time = 2.5 / 60;
    return l;
}

V random_point(boids::random_stream& rng) { return {rng.uniform(0.0, level), rng.uniform(0.0, level)}; }

V random_step(boids::random_stream& rng, double lo, double hi) {
    const double angle = rng.uniform(0.0, 6.283185307179586), length = rng.uniform(lo, hi);
    return {length * std::cos(angle), length * std::sin(angle)};
}

// The agents: anywhere in the level, at max_speed in any direction.
struct crowd {
    std::vector<V> position, velocity;
    crowd() {
        boids::random_stream rng(7);
        for (std::size_t i = 0; i < agents; ++i) {
            position.push_back(random_point(rng));
            velocity.push_back(random_step(rng, 60.0, 60.0));
        }
    }
};

const crowd& the_crowd() {
    static const crowd c;
    return c;
}

template <class Behavior>
void call_each(benchmark::State& state, const Behavior& behavior) {
    const crowd& c = the_crowd();
    for (auto _ : state) {
        for (std::size_t i = 0; i < agents; ++i) {
            V a = behavior(c.position[i], c.velocity[i]);
            benchmark::DoNotOptimize(a);
        }
    }
    state.counters["ns_per_call"] = benchmark::Counter(
        double(agents) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

std::vector<boids::wall<V>> random_walls(std::size_t count) {
    boids::random_stream rng(11);
    std::vector<boids::wall<V>> walls;
    for (std::size_t i = 0; i < count; ++i) {
        const V a = random_point(rng), d = random_step(rng, 20.0, 60.0);
        walls.push_back({a, V{a.x + d.x, a.y + d.y}});
    }
    return walls;
}

void bm_seek(benchmark::State& state) { call_each(state, boids::seek<V>{V{500, 500}, limits()}); }

void bm_arrive(benchmark::State& state) { call_each(state, boids::arrive<V>{V{500, 500}, 100.0, limits()}); }

template <class P>
std::vector<boids::sphere<P>> random_spheres(std::size_t count) {
    boids::random_stream rng(13);
    std::vector<boids::sphere<P>> spheres;
    for (std::size_t i = 0; i < count; ++i) {
        const P centre = boids::generate<P>([&](std::size_t) { return rng.uniform(0.0, level); });
        spheres.push_back({centre, rng.uniform(5.0, 20.0)});
    }
    return spheres;
}

void bm_avoid_obstacles(benchmark::State& state) {
    const auto spheres = random_spheres<V>(static_cast<std::size_t>(state.range(0)));
    call_each(state, boids::avoid_obstacles<V>{boids::span<const boids::sphere<V>>(spheres), 5.0, limits()});
}

boids::context_steering<V> context(const std::vector<boids::sphere<V>>& spheres) {
    boids::context_steering<V> c{boids::span<const boids::sphere<V>>(spheres), 5.0, 50.0, limits()};
    c.goal = V{500, 500};
    return c;
}

void bm_context(benchmark::State& state) {
    const auto spheres = random_spheres<V>(static_cast<std::size_t>(state.range(0)));
    call_each(state, context(spheres));
}

// The obstacles within the behaviour's obstacle_range(), from an obstacle_grid, then the
// call: the same answers as with all of them (tests/behaviors/test_obstacle_grid.cpp).
template <class P, class Behavior, class Range>
void call_each_near_obstacle(benchmark::State& state, const std::vector<P>& position, const std::vector<P>& velocity,
                             const std::vector<boids::sphere<P>>& spheres, Behavior behavior, Range range) {
    const boids::obstacle_grid<P> grid(boids::span<const boids::sphere<P>>(spheres), 40.0);
    boids::obstacle_selection<P> near;
    double selected = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < position.size(); ++i) {
            grid.near(position[i], range(behavior, velocity[i]), near);
            behavior.obstacles = near.view();
            P a = behavior(position[i], velocity[i]);
            benchmark::DoNotOptimize(a);
            selected += static_cast<double>(near.obstacles.size());
        }
    }
    state.counters["ns_per_call"] = benchmark::Counter(
        double(position.size()) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["obstacles_per_call"] = selected / (double(position.size()) * double(state.iterations()));
}

void bm_avoid_obstacles_near(benchmark::State& state) {
    const auto spheres = random_spheres<V>(static_cast<std::size_t>(state.range(0)));
    call_each_near_obstacle(state, the_crowd().position, the_crowd().velocity, spheres,
                            boids::avoid_obstacles<V>{{}, 5.0, limits()},
                            [](const auto& b, const V& v) { return b.obstacle_range(v); });
}

void bm_context_near(benchmark::State& state) {
    const auto spheres = random_spheres<V>(static_cast<std::size_t>(state.range(0)));
    call_each_near_obstacle(state, the_crowd().position, the_crowd().velocity, spheres, context(spheres),
                            [](const auto& b, const V&) { return b.obstacle_range(); });
}

// 3D: the agents anywhere in the cube, at max_speed in any direction; near: 1 from an
// obstacle_grid, 0 all of the obstacles.
void bm_avoid_obstacles3d(benchmark::State& state, bool near) {
    using P = lab::vec3;
    boids::random_stream rng(19);
    std::vector<P> position, velocity;
    for (std::size_t i = 0; i < agents; ++i) {
        position.push_back(boids::generate<P>([&](std::size_t) { return rng.uniform(0.0, level); }));
        const P heading = boids::generate<P>([&](std::size_t) { return rng.uniform(-1.0, 1.0); });
        velocity.push_back(boids::scale(boids::normalized_or_zero(heading), 60.0));
    }
    const auto spheres = random_spheres<P>(static_cast<std::size_t>(state.range(0)));
    const boids::avoid_obstacles<P> all{boids::span<const boids::sphere<P>>(spheres), 5.0, limits()};
    if (near) {
        call_each_near_obstacle(state, position, velocity, spheres, all,
                                [](const auto& b, const P& v) { return b.obstacle_range(v); });
        return;
    }
    for (auto _ : state) {
        for (std::size_t i = 0; i < agents; ++i) {
            P a = all(position[i], velocity[i]);
            benchmark::DoNotOptimize(a);
        }
    }
    state.counters["ns_per_call"] = benchmark::Counter(
        double(agents) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void bm_avoid_walls(benchmark::State& state) {
    const auto walls = random_walls(static_cast<std::size_t>(state.range(0)));
    call_each(state, boids::avoid_walls<V>{boids::span<const boids::wall<V>>(walls), limits(), 30.0});
}

void bm_follow_wall(benchmark::State& state) {
    const auto walls = random_walls(static_cast<std::size_t>(state.range(0)));
    call_each(state, boids::follow_wall<V>{boids::span<const boids::wall<V>>(walls), 10.0, limits()});
}

// The walls within the behaviour's wall_range(), from a wall_grid, then the call: the
// same answers as with all the walls (tests/behaviors/test_wall_grid.cpp).
template <class Behavior>
void call_each_near(benchmark::State& state, const std::vector<boids::wall<V>>& walls, Behavior behavior) {
    const crowd& c = the_crowd();
    const boids::wall_grid<V> grid(boids::span<const boids::wall<V>>(walls), 40.0);
    boids::wall_selection<V> near;
    double selected = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < agents; ++i) {
            grid.near(c.position[i], behavior.wall_range(), near);
            behavior.walls = near.view();
            V a = behavior(c.position[i], c.velocity[i]);
            benchmark::DoNotOptimize(a);
            selected += static_cast<double>(near.walls.size());
        }
    }
    state.counters["ns_per_call"] = benchmark::Counter(
        double(agents) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["walls_per_call"] = selected / (double(agents) * double(state.iterations()));
}

void bm_avoid_walls_near(benchmark::State& state) {
    const auto walls = random_walls(static_cast<std::size_t>(state.range(0)));
    call_each_near(state, walls, boids::avoid_walls<V>{{}, limits(), 30.0});
}

// reach 30: near: 1 the walls from a wall_grid, 0 all of them.
void bm_follow_wall_reach(benchmark::State& state, bool near) {
    const auto walls = random_walls(static_cast<std::size_t>(state.range(0)));
    boids::follow_wall<V> follow{boids::span<const boids::wall<V>>(walls), 10.0, limits()};
    follow.reach = 30.0;
    if (near) call_each_near(state, walls, follow);
    else call_each(state, follow);
}

void bm_follow_path(benchmark::State& state) {
    boids::random_stream rng(17);
    std::vector<V> points{V{500, 500}};
    for (long i = 1; i < state.range(0); ++i) {
        const V d = random_step(rng, 20.0, 60.0), last = points.back();
        V next{last.x + d.x, last.y + d.y};
        if (next.x < 0 || next.x > level || next.y < 0 || next.y > level) next = {last.x - d.x, last.y - d.y};
        points.push_back(next);
    }
    boids::follow_path<V> follow{};
    follow.path = boids::polyline_path<V>{boids::span<const V>(points), 10.0, false};
    follow.limits = limits();
    call_each(state, follow);
}

const bool registered = [] {
    benchmark::RegisterBenchmark("behavior/seek", bm_seek);
    benchmark::RegisterBenchmark("behavior/arrive", bm_arrive);
    benchmark::RegisterBenchmark("behavior/avoid_obstacles", bm_avoid_obstacles)
        ->Arg(10)
        ->Arg(100)
        ->Arg(1000)
        ->Arg(10000);
    benchmark::RegisterBenchmark("behavior/avoid_obstacles_grid", bm_avoid_obstacles_near)
        ->Arg(10)
        ->Arg(100)
        ->Arg(1000)
        ->Arg(10000);
    benchmark::RegisterBenchmark("behavior/context", bm_context)->Arg(10)->Arg(100)->Arg(1000);
    benchmark::RegisterBenchmark("behavior/context_grid", bm_context_near)->Arg(10)->Arg(100)->Arg(1000)->Arg(10000);
    benchmark::RegisterBenchmark("behavior/avoid_obstacles3d",
                                 [](benchmark::State& s) { bm_avoid_obstacles3d(s, false); })
        ->Arg(1000)
        ->Arg(10000);
    benchmark::RegisterBenchmark("behavior/avoid_obstacles3d_grid",
                                 [](benchmark::State& s) { bm_avoid_obstacles3d(s, true); })
        ->Arg(1000)
        ->Arg(10000);
    benchmark::RegisterBenchmark("behavior/avoid_walls", bm_avoid_walls)->Arg(10)->Arg(100)->Arg(1000);
    benchmark::RegisterBenchmark("behavior/follow_wall", bm_follow_wall)->Arg(10)->Arg(100)->Arg(1000);
    benchmark::RegisterBenchmark("behavior/avoid_walls_grid", bm_avoid_walls_near)
        ->Arg(10)
        ->Arg(100)
        ->Arg(1000)
        ->Arg(10000);
    benchmark::RegisterBenchmark("behavior/follow_wall_reach30",
                                 [](benchmark::State& s) { bm_follow_wall_reach(s, false); })
        ->Arg(10)
        ->Arg(100)
        ->Arg(1000)
        ->Arg(10000);
    benchmark::RegisterBenchmark("behavior/follow_wall_reach30_grid",
                                 [](benchmark::State& s) { bm_follow_wall_reach(s, true); })
        ->Arg(10)
        ->Arg(100)
        ->Arg(1000)
        ->Arg(10000);
    benchmark::RegisterBenchmark("behavior/follow_path", bm_follow_path)->Arg(10)->Arg(100)->Arg(1000);
    return true;
}();

}  // namespace

// Navigation benchmarks (boids/crowd/nav_*.hpp), in boids-bench:
//   nav/field/500/{grid,build,congestion,congestion_ahead,direction,sight,path}: a 500 x 500 cell grid
//     (cells of 1) over a room with 50 box obstacles: the walkable cells from the
//     obstacles, a field's march, the march with 1,000 agents' congestion (walking with
//     the field; against it, covering 30 s of their way ahead), a lookup per
//     agent (direction, and preferred_velocity with its line of sight), and an A* path;
//   crowd/nav/1000/{straight,field,field_sight}: 50 steps of 1,000 agents crossing that
//     room, preferred velocities straight at the goal, along the field (direction), or
//     from preferred_velocity; the step included, so the ratios are the field's cost.
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>
#include <boids/crowd/nav_field.hpp>
#include <boids/crowd/nav_path.hpp>
#include <boids/crowd/orca.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include <boids/random.hpp>
#include "lab_vector.hpp"

namespace {
using V = lab::vec2;

// The room: 500 x 500, 50 boxes of 6 to 20 a side, none within 60 of the corners
// where the crowd starts and ends.
struct nav_room {
    boids::crowd_obstacles<V> obstacles{20.0};
    boids::nav_area<V> area;
    nav_room() {
        const V room[4] = {{0, 0}, {500, 0}, {500, 500}, {0, 500}};
        obstacles.add_boundary(boids::span<const V>(room, 4));
        boids::random_stream rng(50);
        int added = 0;
        while (added < 50) {
            const double x = rng.uniform(20.0, 460.0), y = rng.uniform(20.0, 460.0);
            const double w = rng.uniform(6.0, 20.0), h = rng.uniform(6.0, 20.0);
            if ((x < 160 && y < 160) || (x > 340 && y > 340)) continue;
            const V box[4] = {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
            if (obstacles.add_polygon(boids::span<const V>(box, 4))) ++added;
        }
        area.lower = {0, 0};
        area.upper = {500, 500};
        area.cell = 1.0;
        area.clearance = 1.5;
    }
};

const nav_room& room() {
    static const nav_room r;
    return r;
}

// 1,000 agents on a lattice 4 apart near (20, 20), bound for the same lattice near (480, 480).
void crowd_start(std::vector<V>& start, std::vector<V>& goal) {
    start.clear();
    goal.clear();
    for (int i = 0; i < 1000; ++i) {
        const double x = 20.0 + 4.0 * (i % 32), y = 20.0 + 4.0 * (i / 32);
        start.push_back({x, y});
        goal.push_back({500.0 - x, 500.0 - y});
    }
}

void bm_grid(benchmark::State& state) {
    for (auto _ : state) {
        boids::nav_grid<V> grid(room().obstacles, room().area);
        benchmark::DoNotOptimize(grid.walkable(0));
    }
}

// congested: 0 none; 1 1,000 agents walking with the field; 2 the same against it,
// each covering its way ahead over 30 s (30 length).
void bm_build(benchmark::State& state, int congested) {
    const boids::nav_grid<V> grid(room().obstacles, room().area);
    boids::nav_field<V> field(grid);
    field.set_goal(V{480, 480});
    field.build();
    std::vector<V> start, goal, velocity(1000, congested == 2 ? V{-0.7071, -0.7071} : V{1, 1});
    crowd_start(start, goal);
    boids::nav_congestion<double> c;
    c.density = 1;
    c.counterflow = 2;
    c.agent_radius = 1.5;
    if (congested == 2) c.ahead = 30;
    for (auto _ : state) {
        if (congested != 0) field.set_crowd(boids::span<const V>(start), boids::span<const V>(velocity), c);
        field.build();
        benchmark::DoNotOptimize(field.costs().data());
    }
}

void bm_lookup(benchmark::State& state, bool sight) {
    const boids::nav_grid<V> grid(room().obstacles, room().area);
    boids::nav_field<V> field(grid);
    field.set_goal(V{480, 480});
    field.build();
    boids::random_stream rng(3);
    std::vector<V> points;
    for (int i = 0; i < 1000; ++i) points.push_back({rng.uniform(1.0, 499.0), rng.uniform(1.0, 499.0)});
    for (auto _ : state) {
        double sum = 0;
        for (const V& p : points) {
            const V d = sight ? field.preferred_velocity(p, V{480, 480}, 1.0) : field.direction(p);
            sum += d.x;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.counters["ns_per_agent"] =
        benchmark::Counter(1000.0 * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void bm_path(benchmark::State& state) {
    const boids::nav_grid<V> grid(room().obstacles, room().area);
    std::vector<V> corners;
    for (auto _ : state) {
        boids::find_path(grid, V{20, 20}, V{480, 480}, corners);
        benchmark::DoNotOptimize(corners.data());
    }
    state.counters["corners"] = static_cast<double>(corners.size());
}

// 50 steps from the start; `how`: 0 straight, 1 the field's direction, 2 preferred_velocity.
void bm_crowd(benchmark::State& state, int how) {
    const boids::nav_grid<V> grid(room().obstacles, room().area);
    boids::nav_field<V> field(grid);
    std::vector<V> start, goal;
    crowd_start(start, goal);
    field.set_goals(boids::span<const V>(goal));
    field.build();
    boids::crowd_config<double> config;
    config.time_horizon = 5;
    config.time_horizon_obstacle = 5;
    boids::uniform_grid<V> finder(boids::world_for<V>{}, config.neighbor_distance);
    boids::crowd_workspace<V> ws;
    std::vector<V> position, velocity, preferred(1000);
    const double radius = 1.5, speed = 2.0;
    for (auto _ : state) {
        position = start;
        velocity.assign(1000, V{0, 0});
        for (int step = 0; step < 50; ++step) {
            for (std::size_t i = 0; i < position.size(); ++i) {
                if (how == 2) {
                    preferred[i] = field.preferred_velocity(position[i], goal[i], 1.0);
                } else if (how == 1) {
                    preferred[i] = field.direction(position[i]);
                } else {
                    const V to = boids::sub(goal[i], position[i]);
                    const double d = boids::length(to);
                    preferred[i] = d > 1 ? boids::scale(to, 1 / d) : to;
                }
            }
            const boids::crowd_agents<V> agents{boids::span<V>(position),
                                                boids::span<V>(velocity),
                                                boids::span<const V>(preferred),
                                                boids::span<const double>(&radius, 1),
                                                boids::span<const double>(&speed, 1),
                                                {},
                                                {},
                                                {},
                                                {}};
            boids::crowd_step(agents, room().obstacles, config, finder, ws);
        }
        benchmark::DoNotOptimize(position.data());
    }
    state.counters["ms_per_step"] =
        benchmark::Counter(50.0 * 1e-3, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

const bool registered = [] {
    benchmark::RegisterBenchmark("nav/field/500/grid", bm_grid)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("nav/field/500/build", [](benchmark::State& s) {
        bm_build(s, 0);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("nav/field/500/congestion", [](benchmark::State& s) {
        bm_build(s, 1);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("nav/field/500/congestion_ahead", [](benchmark::State& s) {
        bm_build(s, 2);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("nav/field/500/direction", [](benchmark::State& s) {
        bm_lookup(s, false);
    })->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("nav/field/500/sight", [](benchmark::State& s) {
        bm_lookup(s, true);
    })->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("nav/field/500/path", bm_path)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("crowd/nav/1000/straight", [](benchmark::State& s) {
        bm_crowd(s, 0);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("crowd/nav/1000/field", [](benchmark::State& s) {
        bm_crowd(s, 1);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("crowd/nav/1000/field_sight", [](benchmark::State& s) {
        bm_crowd(s, 2);
    })->Unit(benchmark::kMillisecond);
    return true;
}();

}  // namespace

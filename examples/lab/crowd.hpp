// crowd.hpp - `boids-lab crowd`: reciprocal collision avoidance (boids/crowd/orca.hpp)
// in RVO2's Circle scenario: N agents on a circle, each heading for the opposite
// point, until every agent stands within its radius of its goal.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>
#include <boids/crowd/orca.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "cli.hpp"
#include "csv.hpp"
#include "lab_vector.hpp"

namespace lab {

struct crowd_options {
    std::string scenario = "circle";
    unsigned long long agents = 250, seed = 0, threads = 1, max_steps = 100000;
    bool json = false;
    std::string trace;
};

// RVO2's Circle example: radius 1.5, max speed 2, neighbours within 15 (10 of
// them), time horizon 10 s, steps of 0.25 s, the circle 200 across 250 agents and
// scaled with N so the spacing stays the example's; preferred velocity toward the
// goal at speed 1 (less within 1 of it). A seed other than 0 moves each start by up to
// 0.01 (RVO2's circle is exactly symmetric).
struct crowd_scene {
    double radius = 1.5, max_speed = 2.0;
    std::vector<vec2> position, velocity, preferred, goal;
    boids::crowd_config<double> config{};

    crowd_scene(std::size_t n, std::uint64_t seed) : position(n), velocity(n), preferred(n), goal(n) {
        const double ring = 200.0 * static_cast<double>(n) / 250.0;
        boids::random_stream rng(boids::hash_combine(seed, 0xC40Du));
        for (std::size_t i = 0; i < n; ++i) {
            const double a = 6.283185307179586 * static_cast<double>(i) / static_cast<double>(n);
            position[i] = {ring * std::cos(a), ring * std::sin(a)};
            goal[i] = {-position[i].x, -position[i].y};
            if (seed != 0) {
                const double jx = rng.uniform(-0.01, 0.01);
                const double jy = rng.uniform(-0.01, 0.01);
                position[i] = {position[i].x + jx, position[i].y + jy};
            }
            velocity[i] = {0, 0};
        }
        config.dt = 0.25;
        config.neighbor_distance = 15;
        config.max_neighbors = 10;
        config.time_horizon = 10;
    }
    boids::crowd_agents<vec2> agents() {
        return {boids::span<vec2>(position),
                boids::span<vec2>(velocity),
                boids::span<const vec2>(preferred),
                boids::span<const double>(&radius, 1),
                boids::span<const double>(&max_speed, 1),
                {}};
    }
    // Aims every agent at its goal; returns how many stand within their radius of it.
    std::size_t aim() {
        std::size_t arrived = 0;
        for (std::size_t i = 0; i < position.size(); ++i) {
            const vec2 to = boids::sub(goal[i], position[i]);
            const double d = boids::length(to);
            arrived += d <= radius ? 1 : 0;
            preferred[i] = d > 1.0 ? boids::scale(to, 1.0 / d) : to;
        }
        return arrived;
    }
};

struct crowd_result {
    std::size_t agents = 0, steps = 0, arrived = 0, overlaps = 0;
    double seconds = 0, closest = std::numeric_limits<double>::infinity(), ms_per_step = 0;
};

// Runs the scene until every agent has arrived (or max_steps); `trace` (optional)
// gets step, agent, x, y, vx, vy rows.
inline crowd_result run_crowd(const crowd_options& o, std::vector<row>* trace = nullptr) {
    crowd_scene scene(static_cast<std::size_t>(o.agents), o.seed);
    const std::size_t n = scene.position.size();
    boids::uniform_grid<vec2> grid(boids::world_for<vec2>{}, scene.config.neighbor_distance);
    boids::uniform_grid<vec2> gauge(boids::world_for<vec2>{}, 2 * scene.radius);  // measures, apart from the step's
    boids::crowd_workspace<vec2> ws;
    boids::thread_pool threads(static_cast<std::size_t>(o.threads));
    crowd_result r;
    r.agents = n;
    const double touching = 2 * scene.radius * (1 - 0.5 * scene.config.overlap_tolerance);
    double wall = 0;
    for (;;) {
        r.arrived = scene.aim();
        if (r.arrived == n || r.steps >= o.max_steps) break;
        const auto t0 = std::chrono::steady_clock::now();
        boids::crowd_step(scene.agents(), scene.config, grid, ws, threads);
        wall += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ++r.steps;
        gauge.build(boids::span<const vec2>(scene.position));
        for (std::size_t i = 0; i < n; ++i)
            gauge.for_each_within(i, 2 * scene.radius, [&](const boids::neighbor<double, 2>& nb) {
                if (nb.index < i) return;
                const double d = std::sqrt(nb.distance_squared);
                r.closest = std::min(r.closest, d);
                r.overlaps += d < touching ? 1 : 0;
            });
        if (trace != nullptr)
            for (std::size_t i = 0; i < n; ++i)
                trace->push_back({static_cast<double>(r.steps), static_cast<double>(i), scene.position[i].x,
                                  scene.position[i].y, scene.velocity[i].x, scene.velocity[i].y});
    }
    r.seconds = static_cast<double>(r.steps) * scene.config.dt;
    r.ms_per_step = r.steps > 0 ? wall / static_cast<double>(r.steps) : 0.0;
    return r;
}

inline std::string crowd_json(const crowd_result& r) {
    auto num = [](double x) {
        if (!std::isfinite(x)) return std::string("null");
        char b[32];
        std::snprintf(b, sizeof b, "%.6g", x);
        return std::string(b);
    };
    return "{\"agents\": " + std::to_string(r.agents) + ", \"steps\": " + std::to_string(r.steps) +
           ", \"seconds\": " + num(r.seconds) + ", \"closest\": " + num(r.closest) +
           ", \"overlaps\": " + std::to_string(r.overlaps) + ", \"ms_per_step\": " + num(r.ms_per_step) +
           ", \"arrived\": " + std::to_string(r.arrived) + "}";
}

inline int crowd_main(const arguments& args, std::string& error) {
    crowd_options o;
    flag_reader f(args);
    f.text("scenario", o.scenario);
    f.count("agents", o.agents, 1000000ull);
    f.count("seed", o.seed, ~0ull >> 1);
    f.count("threads", o.threads, 256ull);
    if (f.ok() && o.threads == 0) f.fail("--threads: must be >= 1");
    f.count("max-steps", o.max_steps, 100000000ull);
    o.json = f.flag("json");
    f.text("trace", o.trace);
    if (f.ok() && o.scenario != "circle") f.fail("--scenario: '" + o.scenario + "' is not one this build has (circle)");
    if (!f.finish()) {
        error = f.error();
        return 2;
    }
    std::vector<row> trace;
    const crowd_result r = run_crowd(o, o.trace.empty() ? nullptr : &trace);
    if (!o.trace.empty() && !write_file_atomically(o.trace, format_csv("step,agent,x,y,vx,vy", trace), error)) return 2;
    std::printf("crowd: %s, %zu agents, %zu of them home after %zu steps (%.6g s), %.3f ms/step\n", o.scenario.c_str(),
                r.agents, r.arrived, r.steps, r.seconds, r.ms_per_step);
    if (o.json) std::printf("%s\n", crowd_json(r).c_str());
    return 0;
}

}  // namespace lab

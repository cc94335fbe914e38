// crowd.hpp - `boids-lab crowd`: reciprocal collision avoidance (boids/crowd/orca.hpp)
// in three scenes. circle: RVO2's Circle, N agents on a circle, each heading for the
// opposite point. blocks: RVO2's Blocks, four groups crossing diagonally between four
// square obstacles. doorway: two groups swapping sides through a gap two agents wide
// in a wall, inside a walled room. Each runs until every agent stands at its goal.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>
#include <boids/crowd/obstacles.hpp>
#include <boids/crowd/orca.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "cli.hpp"
#include "csv.hpp"
#include "lab_vector.hpp"

namespace lab {

// Crowd agents over the lab's arrays, all of one radius and top speed.
inline boids::crowd_agents<vec2> same_size_agents(std::vector<vec2>& position, std::vector<vec2>& velocity,
                                                  const std::vector<vec2>& preferred, const double& radius,
                                                  const double& max_speed,
                                                  const std::vector<double>& responsibility = {}) {
    return {boids::span<vec2>(position),
            boids::span<vec2>(velocity),
            boids::span<const vec2>(preferred),
            boids::span<const double>(&radius, 1),
            boids::span<const double>(&max_speed, 1),
            boids::span<const double>(responsibility),
            {},
            {}};
}

struct crowd_options {
    std::string scenario = "circle";
    unsigned long long agents = 0;  // 0: the scene's own count (250, 100, 20)
    unsigned long long seed = 0, threads = 1, max_steps = 100000;
    bool json = false;
    std::string trace;
};

// A crowd scene: agents, their goals, the obstacles, and RVO2's example parameters.
// A seed other than 0 moves each start by up to 0.01 (the scenes are symmetric).
struct crowd_scene {
    double radius = 1.5, max_speed = 2.0, arrive = 1.5;
    std::vector<vec2> position, velocity, preferred, goal;
    boids::crowd_config<double> config{};
    boids::crowd_obstacles<vec2> obstacles{15.0};
    double door_half_width = 0;          // doorway: agents on the wrong side of x = 0 aim for the gap first
    std::vector<double> responsibility;  // doorway: those still to pass give way to those coming through

    // circle: radius 1.5, max speed 2, neighbours within 15 (10 of them), time horizon
    // 10 s, steps of 0.25 s, the circle 200 across 250 agents and scaled with N so the
    // spacing stays the example's.
    crowd_scene(std::size_t n, std::uint64_t seed) : crowd_scene("circle", n, seed) {}
    crowd_scene(const std::string& scenario, std::size_t n, std::uint64_t seed) {
        config.dt = 0.25;
        config.neighbor_distance = 15;
        config.max_neighbors = 10;
        config.time_horizon = 10;
        config.time_horizon_obstacle = 10;
        if (scenario == "blocks") make_blocks(n);
        else if (scenario == "doorway") make_doorway(n);
        else make_circle(n);
        velocity.assign(position.size(), vec2{0, 0});
        preferred.assign(position.size(), vec2{0, 0});
        if (seed != 0) {
            boids::random_stream rng(boids::hash_combine(seed, 0xC40Du));
            for (vec2& p : position) {
                const double jx = rng.uniform(-0.01, 0.01);
                const double jy = rng.uniform(-0.01, 0.01);
                p = {p.x + jx, p.y + jy};
            }
        }
    }
    boids::crowd_agents<vec2> agents() {
        return same_size_agents(position, velocity, preferred, radius, max_speed, responsibility);
    }
    void step(boids::uniform_grid<vec2>& grid, boids::crowd_workspace<vec2>& ws, boids::thread_pool& threads) {
        if (obstacles.empty()) boids::crowd_step(agents(), config, grid, ws, threads);
        else boids::crowd_step(agents(), obstacles, config, grid, ws, threads);
    }
    // Aims every agent at its goal (at speed 1, less within 1 of it; through the door
    // first where there is one); returns how many stand within `arrive` of their goal.
    std::size_t aim() {
        std::size_t arrived = 0;
        for (std::size_t i = 0; i < position.size(); ++i) {
            if (boids::length(boids::sub(goal[i], position[i])) <= arrive) ++arrived;
            vec2 target = goal[i];
            if (door_half_width > 0) target = door_route(i);
            if (!responsibility.empty()) responsibility[i] = position[i].x * goal[i].x < 0 ? 0.8 : 0.2;
            const vec2 to = boids::sub(target, position[i]);
            const double d = boids::length(to);
            preferred[i] = d > 1.0 ? boids::scale(to, 1.0 / d) : to;
        }
        return arrived;
    }

private:
    // Keep right, as people do in a doorway: an agent goes through the right-hand half
    // of the gap, waits on the right of it (off the other group's way out), and once
    // through walks straight away from the wall before heading home.
    vec2 door_route(std::size_t i) const {
        const vec2 p = position[i];
        const double ahead = goal[i].x > 0 ? 1.0 : -1.0;     // +1: going to +x
        const double lane = -ahead * 0.5 * door_half_width;  // the right-hand half's middle
        const double right_of_lane = -ahead * (p.y - lane);  // > 0: on the agent's right of its lane
        const double near = 4 * radius;
        if (p.x * ahead < 0.5 * radius) {  // still to go through
            if (right_of_lane < -0.5 * radius && std::fabs(p.x) < near)
                return {p.x - ahead * radius, lane - ahead * 2 * radius};
            return {ahead * 2 * radius, lane};
        }
        if (std::fabs(p.x) < near) return {ahead * (near + 2 * radius), p.y};
        return goal[i];
    }

    void make_circle(std::size_t n) {
        const double ring = 200.0 * static_cast<double>(n) / 250.0;
        for (std::size_t i = 0; i < n; ++i) {
            const double a = 6.283185307179586 * static_cast<double>(i) / static_cast<double>(n);
            position.push_back({ring * std::cos(a), ring * std::sin(a)});
            goal.push_back({-position.back().x, -position.back().y});
        }
    }
    void add_box(double x0, double y0, double x1, double y1) {  // counterclockwise
        const vec2 v[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
        obstacles.add_polygon(boids::span<const vec2>(v, 4));
    }
    // RVO2's Blocks: radius 2, time horizons 5 s, four groups of 5 x 5 (N rounded down
    // to four squares), each crossing to the opposite corner, home within 20 of it.
    void make_blocks(std::size_t n) {
        radius = 2.0;
        arrive = 20.0;
        config.time_horizon = 5;
        config.time_horizon_obstacle = 5;
        std::size_t side = 1;
        while ((side + 1) * (side + 1) * 4 <= n) ++side;
        for (std::size_t i = 0; i < side; ++i)
            for (std::size_t j = 0; j < side; ++j) {
                const double a = 55.0 + 10.0 * static_cast<double>(i), b = 55.0 + 10.0 * static_cast<double>(j);
                for (const vec2 sign : {vec2{1, 1}, vec2{-1, 1}, vec2{1, -1}, vec2{-1, -1}}) {
                    position.push_back({sign.x * a, sign.y * b});
                    goal.push_back({-sign.x * 75.0, -sign.y * 75.0});
                }
            }
        add_box(-40, 10, -10, 40);
        add_box(10, 10, 40, 40);
        add_box(10, -40, 40, -10);
        add_box(-40, -40, -10, -10);
    }
    // Two groups of N / 2 in a room 120 x 60, swapping sides through a gap of two
    // diameters in the wall at x = 0; radius 1.5, time horizons 5 s.
    void make_doorway(std::size_t n) {
        config.time_horizon = 5;
        config.time_horizon_obstacle = 5;
        door_half_width = 2 * radius;
        responsibility.assign(2 * std::max<std::size_t>(n / 2, 1), 0.5);
        const std::size_t half = std::max<std::size_t>(n / 2, 1);
        const std::size_t rows = std::min<std::size_t>(half, 8);
        for (std::size_t g = 0; g < 2; ++g)
            for (std::size_t i = 0; i < half; ++i) {
                const double column = static_cast<double>(i / rows), at_row = static_cast<double>(i % rows);
                const double x = 10.0 + 5.0 * column, y = 5.0 * (at_row - 0.5 * static_cast<double>(rows - 1));
                const double sign = g == 0 ? -1.0 : 1.0;
                position.push_back({sign * x, y});
                goal.push_back({-sign * x, y});
            }
        const double w = 10.0 + 5.0 * static_cast<double>((half - 1) / rows) + 10.0;
        const vec2 room[4] = {{-w, -30}, {w, -30}, {w, 30}, {-w, 30}};
        obstacles.add_boundary(boids::span<const vec2>(room, 4));
        add_box(-0.5, door_half_width, 0.5, 30);
        add_box(-0.5, -30, 0.5, -door_half_width);
    }
};

struct crowd_result {
    std::size_t agents = 0, steps = 0, arrived = 0, overlaps = 0;
    double seconds = 0, closest = std::numeric_limits<double>::infinity(), ms_per_step = 0;
};

// The pairs of agents closer than the sum of their radii (less the step's tolerance),
// on `gauge` (a grid of cells two radii wide, apart from the step's); lowers `closest`
// to the smallest centre distance.
inline std::size_t count_contacts(boids::uniform_grid<vec2>& gauge, const crowd_scene& scene, double& closest) {
    const double touching = 2 * scene.radius * (1 - 0.5 * scene.config.overlap_tolerance);
    std::size_t overlaps = 0;
    gauge.build(boids::span<const vec2>(scene.position));
    for (std::size_t i = 0; i < scene.position.size(); ++i)
        gauge.for_each_within(i, 2 * scene.radius, [&](const boids::neighbor<double, 2>& nb) {
            if (nb.index < i) return;
            const double d = std::sqrt(nb.distance_squared);
            closest = std::min(closest, d);
            if (d < touching) ++overlaps;
        });
    return overlaps;
}

// Runs the scene until every agent has arrived (or max_steps); `trace` (optional)
// gets step, agent, x, y, vx, vy rows.
inline crowd_result run_crowd(const crowd_options& o, std::vector<row>* trace = nullptr) {
    crowd_scene scene(o.scenario, static_cast<std::size_t>(o.agents), o.seed);
    const std::size_t n = scene.position.size();
    boids::uniform_grid<vec2> grid(boids::world_for<vec2>{}, scene.config.neighbor_distance);
    boids::uniform_grid<vec2> gauge(boids::world_for<vec2>{}, 2 * scene.radius);  // measures, apart from the step's
    boids::crowd_workspace<vec2> ws;
    boids::thread_pool threads(static_cast<std::size_t>(o.threads));
    crowd_result r;
    r.agents = n;
    double wall = 0;
    for (;;) {
        r.arrived = scene.aim();
        if (r.arrived == n || r.steps >= o.max_steps) break;
        const auto t0 = std::chrono::steady_clock::now();
        scene.step(grid, ws, threads);
        wall += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ++r.steps;
        r.overlaps += count_contacts(gauge, scene, r.closest);
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
    const auto num = json_number;
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
    if (f.ok() && args.flags.count("agents") != 0 && o.agents == 0) f.fail("--agents: must be >= 1");
    f.count("seed", o.seed, ~0ull >> 1);
    f.count("threads", o.threads, 256ull);
    if (f.ok() && o.threads == 0) f.fail("--threads: must be >= 1");
    f.count("max-steps", o.max_steps, 100000000ull);
    o.json = f.flag("json");
    f.text("trace", o.trace);
    if (f.ok() && o.scenario != "circle" && o.scenario != "blocks" && o.scenario != "doorway")
        f.fail("--scenario: '" + o.scenario + "' is not one of circle, blocks, doorway");
    if (f.ok() && o.agents == 0) o.agents = o.scenario == "circle" ? 250 : (o.scenario == "blocks" ? 100 : 20);
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

// crowd.hpp - `boids-lab crowd`: reciprocal collision avoidance (boids/crowd/orca.hpp)
// with routes from the library's navigation (boids/crowd/nav_field.hpp), in five
// scenes. circle: RVO2's Circle, N agents on a circle, each heading for the opposite
// point. blocks: RVO2's Blocks, four groups crossing diagonally between four square
// obstacles. doorway: two groups swapping sides through a gap two agents wide in a
// wall. crossing: four groups crossing a square where four corridors meet. pillars: a
// group crossing a room with two pillars (--swap: two groups, one from each side).
// Each runs until every agent stands at its goal. The scenes route nobody themselves:
// every group shares one navigation field to its goals, and each agent walks it
// (nav_field::preferred_velocity).
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>
#include <memory>
#include <boids/crowd/nav_field.hpp>
#include <boids/crowd/obstacles2d.hpp>
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
    unsigned long long agents = 0;  // 0: the scene's own count
    unsigned long long seed = 0, threads = 1, max_steps = 100000;
    bool json = false, swap = false;
    double patience = -1;  // crowd_config::patience; < 0: the library's default
    std::string trace;
};

// The default number of agents of each scene.
inline std::size_t crowd_default_agents(const std::string& scenario) {
    if (scenario == "circle") return 250;
    if (scenario == "blocks" || scenario == "crossing") return 100;
    if (scenario == "pillars") return 200;
    return 20;
}

// A crowd scene: agents, their goals, the obstacles, and RVO2's example parameters.
// A seed other than 0 moves each start by up to 0.01 (the scenes are symmetric).
struct crowd_scene {
    double radius = 1.5, max_speed = 2.0, arrive = 1.5;
    std::vector<vec2> position, velocity, preferred, goal;
    std::vector<std::size_t> group;  // which navigation field each agent walks
    boids::crowd_config<double> config{};
    boids::crowd_obstacles<vec2> obstacles{15.0};
    // The fields are built again every refresh_every steps with the crowd's congestion:
    // ground that others stand on, walk across against a field, or are about to walk
    // across (their preferred velocities, 30 s ahead), costs more on it.
    std::size_t refresh_every = 8;
    double nav_cell = 0.25;  // the navigation grid's cell, in agent radii
    boids::nav_congestion<double> congestion = boids::nav_congestion<double>::for_crowd(1.5);

    // circle: radius 1.5, max speed 2, neighbours within 15 (10 of them), time horizon
    // 10 s, steps of 0.25 s, the circle 200 across 250 agents and scaled with N so the
    // spacing stays the example's.
    crowd_scene(std::size_t n, std::uint64_t seed) : crowd_scene("circle", n, seed) {}
    crowd_scene(const std::string& scenario, std::size_t n, std::uint64_t seed, bool swap = false) {
        config.dt = 0.25;
        config.neighbor_distance = 15;
        config.max_neighbors = 10;
        config.time_horizon = 10;
        config.time_horizon_obstacle = 10;
        if (scenario == "blocks") make_blocks(n);
        else if (scenario == "doorway") make_doorway(n);
        else if (scenario == "crossing") make_crossing(n);
        else if (scenario == "pillars") make_pillars(n, swap);
        else make_circle(n);
        if (group.empty()) group.assign(position.size(), 0);
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
    boids::crowd_agents<vec2> agents() { return same_size_agents(position, velocity, preferred, radius, max_speed); }
    void step(boids::uniform_grid<vec2>& grid, boids::crowd_workspace<vec2>& ws, boids::thread_pool& threads) {
        if (obstacles.empty()) boids::crowd_step(agents(), config, grid, ws, threads);
        else boids::crowd_step(agents(), obstacles, config, grid, ws, threads);
    }
    // Aims every agent at its goal at speed 1 (less within 1 of it): straight where
    // there are no obstacles, along its group's navigation field where there are;
    // returns how many stand within `arrive` of their goal.
    std::size_t aim() {
        if (!obstacles.empty() && !navigation_) plan();
        if (navigation_ && ++aims_ % refresh_every == 0) {  // the crowd as it stands now
            for (auto& f : navigation_->fields) {
                f.set_crowd(boids::span<const vec2>(position), boids::span<const vec2>(velocity), congestion,
                            boids::span<const vec2>(preferred));
                f.build();
            }
        }
        std::size_t arrived = 0;
        for (std::size_t i = 0; i < position.size(); ++i) {
            if (boids::length(boids::sub(goal[i], position[i])) <= arrive) ++arrived;
            if (navigation_) {
                preferred[i] = navigation_->fields[group[i]].preferred_velocity(position[i], goal[i], 1.0, 1.0);
                continue;
            }
            const vec2 to = boids::sub(goal[i], position[i]);
            const double d = boids::length(to);
            preferred[i] = d > 1.0 ? boids::scale(to, 1.0 / d) : to;
        }
        return arrived;
    }
    // The navigation the agents walk (null for a scene without obstacles).
    struct navigation {
        boids::crowd_obstacles<vec2> obstacles;  // a copy: the grid points at it
        boids::nav_grid<vec2> grid;
        std::vector<boids::nav_field<vec2>> fields;  // one per group
        navigation(const boids::crowd_obstacles<vec2>& o, const boids::nav_area<vec2>& area)
            : obstacles(o), grid(obstacles, area) {}
    };
    [[nodiscard]] const navigation* navigation_of() const noexcept { return navigation_.get(); }
    // After goals change: the next aim() plans the navigation again.
    void goals_changed() { navigation_.reset(); }
    // The box around the origin and every agent, goal and obstacle vertex.
    void bounds(double& x0, double& y0, double& x1, double& y1) const {
        x0 = y0 = x1 = y1 = 0;
        auto take = [&](double x, double y) {
            x0 = std::min(x0, x);
            y0 = std::min(y0, y);
            x1 = std::max(x1, x);
            y1 = std::max(y1, y);
        };
        for (const auto& p : position) take(p.x, p.y);
        for (const auto& p : goal) take(p.x, p.y);
        for (const auto& e : obstacles.edges()) take(e.x, e.y);
    }

private:
    std::shared_ptr<navigation> navigation_;
    std::size_t aims_ = 0;

    // A grid over the obstacles and every start and goal, in cells of nav_cell agent
    // radii, and one field per group to the goals of its agents.
    void plan() {
        double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
        bounds(x0, y0, x1, y1);
        const double margin = 4 * radius;
        boids::nav_area<vec2> area;
        area.lower = {x0 - margin, y0 - margin};
        area.upper = {x1 + margin, y1 + margin};
        area.cell = radius * nav_cell;
        area.clearance = radius;
        navigation_ = std::make_shared<navigation>(obstacles, area);
        congestion.agent_radius = radius;

        const std::size_t groups = group.empty() ? 0 : *std::max_element(group.begin(), group.end()) + 1;
        for (std::size_t g = 0; g < groups; ++g) {
            std::vector<vec2> goals;
            for (std::size_t i = 0; i < goal.size(); ++i)
                if (group[i] == g) goals.push_back(goal[i]);
            navigation_->fields.emplace_back(navigation_->grid);
            navigation_->fields.back().set_goals(boids::span<const vec2>(goals));
            navigation_->fields.back().build();
        }
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
                std::size_t g = 0;
                for (const vec2 sign : {vec2{1, 1}, vec2{-1, 1}, vec2{1, -1}, vec2{-1, -1}}) {
                    position.push_back({sign.x * a, sign.y * b});
                    goal.push_back({-sign.x * 75.0, -sign.y * 75.0});
                    group.push_back(g++);
                }
            }
        add_box(-40, 10, -10, 40);
        add_box(10, 10, 40, 40);
        add_box(10, -40, 40, -10);
        add_box(-40, -40, -10, -10);
    }
    // A group of `count` on a lattice 5 apart, `across` wide, its first row at `near`
    // along `ahead` (a unit axis) from the origin, the rows going away from it; its
    // goals the same lattice mirrored through the origin, the first row in going
    // deepest (those in front walk farthest, so nobody waits behind the early ones).
    void add_group(std::size_t count, std::size_t across, double near, vec2 ahead, std::size_t g) {
        const std::size_t rows = (count + across - 1) / across;
        const vec2 side{-ahead.y, ahead.x};
        for (std::size_t i = 0; i < count; ++i) {
            const double rank = static_cast<double>(i / across), at = static_cast<double>(i % across);
            const double lateral = 5.0 * (at - 0.5 * static_cast<double>(across - 1));
            const double depth = near + 5.0 * rank, mirrored = near + 5.0 * (static_cast<double>(rows - 1) - rank);
            position.push_back(boids::add(boids::scale(ahead, -depth), boids::scale(side, lateral)));
            goal.push_back(boids::add(boids::scale(ahead, mirrored), boids::scale(side, lateral)));
            group.push_back(g);
        }
    }
    static std::size_t squarish(std::size_t count) {
        return std::max<std::size_t>(8, static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(count)))));
    }
    // Two groups of N / 2 in a walled room swap sides through a gap of two diameters
    // in the wall at x = 0; radius 1.5, time horizons 5 s.
    void make_doorway(std::size_t n) {
        config.time_horizon = 5;
        config.time_horizon_obstacle = 5;
        const double door_half_width = 2 * radius;
        const std::size_t half = std::max<std::size_t>((n + 1) / 2, 1);
        const std::size_t across = std::min(half, squarish(half));
        add_group(half, across, 10.0, vec2{1, 0}, 0);                     // from the left, going right
        if (n > half) add_group(n - half, across, 10.0, vec2{-1, 0}, 1);  // from the right, going left
        const double rows = std::ceil(static_cast<double>(half) / static_cast<double>(across));
        const double w = 10.0 + 5.0 * (rows - 1) + 10.0, h = std::max(30.0, 2.5 * static_cast<double>(across) + 10.0);
        const vec2 room[4] = {{-w, -h}, {w, -h}, {w, h}, {-w, h}};
        obstacles.add_boundary(boids::span<const vec2>(room, 4));
        add_box(-0.5, door_half_width, 0.5, h);
        add_box(-0.5, -h, 0.5, -door_half_width);
    }
    // Four corridors meet in a square; a group of N / 4 starts in each and crosses to
    // the one opposite. Corridors as wide as a group (10 agents across at most).
    void make_crossing(std::size_t n) {
        config.time_horizon = 5;
        config.time_horizon_obstacle = 5;
        const std::size_t quarter = std::max<std::size_t>((n + 3) / 4, 1);  // the last groups may have one less
        const std::size_t across = std::min<std::size_t>(quarter, 6);
        const double rows = std::ceil(static_cast<double>(quarter) / static_cast<double>(across));
        const double half_width = 2.5 * static_cast<double>(across) + 5.0;
        const double near = half_width + 10.0, arm = near + 5.0 * (rows - 1) + 10.0;
        const vec2 ways[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (std::size_t g = 0, left = std::max<std::size_t>(n, 1); g < 4 && left > 0; ++g) {
            const std::size_t count = std::min(left, (left + (3 - g)) / (4 - g));
            add_group(count, across, near, ways[g], g);
            left -= count;
        }
        const double a = arm, w = half_width;
        const vec2 plus[12] = {{w, -a}, {w, -w}, {a, -w}, {a, w},   {w, w},   {w, a},
                               {-w, a}, {-w, w}, {-a, w}, {-a, -w}, {-w, -w}, {-w, -a}};
        obstacles.add_boundary(boids::span<const vec2>(plus, 12));
    }
    // A room with two pillars across the way: N agents cross it from the left (with
    // `swap`, N / 2 from each side, swapping).
    void make_pillars(std::size_t n, bool swap) {
        config.time_horizon = 5;
        config.time_horizon_obstacle = 5;
        n = std::max<std::size_t>(n, 1);
        const std::size_t count = swap ? (n + 1) / 2 : n;
        const std::size_t across = std::min(count, squarish(count));
        const double rows = std::ceil(static_cast<double>(count) / static_cast<double>(across));
        const double h = 2.5 * static_cast<double>(across) + 10.0;
        const double pillar = 0.2 * h, near = pillar + 15.0;
        add_group(count, across, near, vec2{1, 0}, 0);
        if (swap && n > count) add_group(n - count, across, near, vec2{-1, 0}, 1);
        const double w = near + 5.0 * (rows - 1) + 10.0;
        const vec2 room[4] = {{-w, -h}, {w, -h}, {w, h}, {-w, h}};
        obstacles.add_boundary(boids::span<const vec2>(room, 4));
        add_box(-pillar / 2, h / 2 - pillar / 2, pillar / 2, h / 2 + pillar / 2);
        add_box(-pillar / 2, -h / 2 - pillar / 2, pillar / 2, -h / 2 + pillar / 2);
    }
};

struct crowd_result {
    std::size_t agents = 0, steps = 0, arrived = 0, overlaps = 0;
    double seconds = 0, closest = std::numeric_limits<double>::infinity(), ms_per_step = 0;
    double p50_seconds = -1, p90_seconds = -1;  // when half, nine tenths were home (-1: never)
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
    crowd_scene scene(o.scenario, static_cast<std::size_t>(o.agents), o.seed, o.swap);
    if (o.patience >= 0) scene.config.patience = o.patience;
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
        const double now = static_cast<double>(r.steps) * scene.config.dt;
        if (r.p50_seconds < 0 && 2 * r.arrived >= n) r.p50_seconds = now;
        if (r.p90_seconds < 0 && 10 * r.arrived >= 9 * n) r.p90_seconds = now;
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
           ", \"p50_seconds\": " + num(r.p50_seconds) + ", \"p90_seconds\": " + num(r.p90_seconds) +
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
    o.swap = f.flag("swap");
    f.positive("patience", o.patience, false);
    f.text("trace", o.trace);
    if (f.ok() && o.scenario != "circle" && o.scenario != "blocks" && o.scenario != "doorway" &&
        o.scenario != "crossing" && o.scenario != "pillars")
        f.fail("--scenario: '" + o.scenario + "' is not one of circle, blocks, doorway, crossing, pillars");
    if (f.ok() && o.swap && o.scenario != "pillars") f.fail("--swap: only for --scenario=pillars");
    if (f.ok() && o.agents == 0) o.agents = crowd_default_agents(o.scenario);
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

// formation.hpp - `boids-lab formation`: a squad forms up from where it stands, marches
// to a goal 60 m away in formation (boids/behaviors/formation.hpp) and crosses a wall
// through a gap narrower than itself: it narrows into ranks that fit, goes through and
// widens again. --avoidance=crowd (the default) moves members with crowd_step, which
// keeps them apart and out of the wall; --avoidance=steering moves them with keep_slot
// and separation on open ground (no wall: the steering blend has no walls to respect).
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>
#include <boids/behaviors/formation.hpp>
#include <boids/behaviors/formation_driver.hpp>
#include <boids/behaviors/orientation.hpp>
#include <boids/blend.hpp>
#include <boids/crowd/obstacles2d.hpp>
#include <boids/crowd/orca.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include <boids/random.hpp>
#include "cli.hpp"
#include "crowd.hpp"
#include "csv.hpp"
#include "lab_vector.hpp"

namespace lab {

struct formation_options {
    std::string pattern = "wedge", avoidance = "crowd";
    unsigned long long members = 24, seed = 1, threads = 1, max_steps = 20000;
    double gap = 4.5;  // m; 0: no wall
    bool json = false;
    std::string trace;
};

inline boids::formation_pattern pattern_named(const std::string& name) {
    if (name == "line") return boids::formation_pattern::line;
    if (name == "column") return boids::formation_pattern::column;
    if (name == "circle") return boids::formation_pattern::circle;
    if (name == "grid") return boids::formation_pattern::grid;
    return boids::formation_pattern::wedge;
}

// The scene: members of radius 0.5 m scattered (seeded) behind the start, slots 1.5 m
// apart, members up to 2 m/s, the anchor marching at up to 1.2 m/s from (-30, 0) to
// a goal far enough past the wall at x = 0 for the whole formation, however deep, to
// stand beyond it (10 m plus its depth, wide or narrowed); the gap in the wall is
// --gap metres, centred on y = 0; steps of 0.1 s. The squad (anchor, slots, who takes
// which, pace, reassignment) is the library's boids::formation; the scene decides
// where the anchor heads, when the squad narrows, and how members pass the wall.
struct formation_scene {
    double radius = 0.5, spacing = 1.5, max_speed = 2.0, march = 1.2, dt = 0.1;
    vec2 goal{30, 0};
    double gap = 0;
    boids::formation<vec2> squad;
    std::vector<vec2> position, velocity, preferred;
    std::vector<vec2> wide_local, wide_slot, narrow_local, narrow_slot;  // the two layouts, tested each step
    boids::crowd_config<double> config{};
    boids::crowd_obstacles<vec2> obstacles{4.0};
    bool clear_of_wall = true;  // every slot, wide or narrowed, past the wall on the goal's side

    static boids::formation_shape<double> shape_of(const formation_options& o) {
        boids::formation_shape<double> s;
        s.pattern = pattern_named(o.pattern);
        s.spacing = 1.5;
        return s;
    }
    boids::formation_march<double> march_of() const {
        boids::formation_march<double> m;
        m.speed = march;
        m.member_speed = max_speed;
        m.turning = boids::angular_limits<double>{1.0, 2.0, 0.15};
        return m;
    }

    formation_scene(const formation_options& o)
        : gap(o.gap), squad(shape_of(o), static_cast<std::size_t>(o.members), vec2{-30, 0}, 0.0, march_of()) {
        const std::size_t n = static_cast<std::size_t>(o.members);
        config.dt = dt;
        config.neighbor_distance = 5;
        config.max_neighbors = 10;
        config.time_horizon = 2;
        config.time_horizon_obstacle = 2;
        // One squad reforming through a gap: members whose slots cross meet head-on,
        // and giving way (meant for opposing streams) can stall the squad there.
        config.patience = 0;
        // Members on a jittered grid 2 m apart behind and around the start.
        boids::random_stream rng(boids::hash_combine(o.seed, 0xF0F0u));
        const std::size_t side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
        for (std::size_t i = 0; i < n; ++i) {
            const double gx = static_cast<double>(i % side), gy = static_cast<double>(i / side);
            position.push_back({-36.0 + 2.0 * gx + rng.uniform(-0.4, 0.4),
                                2.0 * (gy - 0.5 * static_cast<double>(side - 1)) + rng.uniform(-0.4, 0.4)});
        }
        velocity.assign(n, vec2{0, 0});
        preferred.assign(n, vec2{0, 0});
        if (gap > 0) {
            auto box = [&](double x0, double y0, double x1, double y1) {
                const vec2 v[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
                obstacles.add_polygon(boids::span<const vec2>(v, 4));
            };
            box(-0.5, 0.5 * gap, 0.5, 40);
            box(-0.5, -40, 0.5, -0.5 * gap);
            // Far enough past the wall for the deepest layout, wide or narrowed.
            squad.layout_for(std::numeric_limits<double>::infinity(), wide_local, wide_slot);
            goal.x = std::max(goal.x, 10.0 - back_of(wide_local));
            squad.layout_for(narrow_width(), narrow_local, narrow_slot);
            goal.x = std::max(goal.x, 10.0 - back_of(narrow_local));
        }
        choose_width();
        squad.assign(position);
    }

    [[nodiscard]] double narrow_width() const { return std::max(0.0, gap - 2 * radius - 0.5 * radius); }
    static double back_of(const std::vector<vec2>& local) {
        double back = std::numeric_limits<double>::infinity();
        for (const vec2& s : local) back = std::min(back, s.x);
        return back;
    }

    // Narrowed to fit the gap while any slot, wide or narrowed, is within four
    // spacings before the wall or in it (reckoned along the march, which crosses the
    // wall one way or the other).
    void choose_width() {
        clear_of_wall = true;
        if (!(gap > 0)) return;
        squad.layout_for(std::numeric_limits<double>::infinity(), wide_local, wide_slot);
        squad.layout_for(narrow_width(), narrow_local, narrow_slot);
        const vec2 facing = boids::direction_of<vec2>(squad.heading());
        const double along = facing.x >= 0 ? 1.0 : -1.0, goal_side = goal.x < 0 ? -1.0 : 1.0;
        const double clearance = 4 * spacing;
        bool narrowed = false;
        for (const auto* layout : {&wide_slot, &narrow_slot})
            for (const vec2& q : *layout) {
                const double u = along * q.x;
                narrowed = narrowed || (u > -0.5 - clearance && u < 0.5 + 2 * radius);
                clear_of_wall = clear_of_wall && q.x * goal_side > 0.5 + radius + spacing;
            }
        squad.set_width(narrowed ? narrow_width() : std::numeric_limits<double>::infinity());
    }

    // How far each member is from its slot: the mean and the worst.
    void errors(double& mean, double& worst) const { squad.errors(boids::span<const vec2>(position), mean, worst); }

    // The anchor marches toward the goal at a pace the stragglers allow (the library's
    // formation); the scene narrows it before the wall; members are assigned again
    // when the layout changed or the squad turned.
    void move_anchor(double worst) {
        squad.move_anchor(goal, waypoint(), worst, dt);
        choose_width();
        squad.reassign_if_needed(boids::span<const vec2>(position));
    }

    // Where the anchor heads: the goal; with the wall between them, first in line with
    // the gap on its own side, then through it, and straight on until the whole
    // formation is clear of the wall (turning early would drag the rear ranks across it).
    [[nodiscard]] vec2 waypoint() const {
        const vec2 anchor = squad.anchor();
        if (!(gap > 0)) return goal;
        const double ahead = goal.x < 0 ? -1.0 : 1.0;  // the goal's side of the wall
        if (anchor.x * ahead <= 0) {
            const double side = -ahead;
            if (std::fabs(anchor.y) > 0.05 && side * anchor.x > 1.0)
                return {side * std::max(side * anchor.x, 2 * spacing), 0};
            return {ahead * 2 * spacing, 0};
        }
        if (!clear_of_wall && std::fabs(anchor.y) < 0.5) return {anchor.x + ahead * 2 * spacing, anchor.y};
        return goal;
    }

    // Each member's preferred velocity: keep its slot; one near the wall on the wrong
    // side of it from its slot lines up in front of the gap and goes through first.
    void aim() {
        const boids::steering_limits<double> limits{max_speed, 4.0, 0.25, 0.0};
        for (std::size_t i = 0; i < position.size(); ++i) {
            vec2 target = squad.target(i), pace = squad.slot_velocity(i);
            const vec2 p = position[i];
            const double side = p.x < 0 ? -1.0 : 1.0;  // the member's side of the wall
            if (gap > 0 && side * target.x < 0.5 + radius && side * p.x < 4 * spacing) {
                // Near the wall with the slot beyond it: line up in front of the gap, then
                // walk straight through along the lane.
                const double lane = std::max(0.0, 0.5 * gap - radius - 0.25);
                const double y = std::clamp(p.y, -lane, lane);
                if (std::fabs(p.y) > lane + 0.1) target = {side * std::max(side * p.x, 0.5 + 2 * radius), y};
                else target = {-side * (std::max(-side * p.x, 0.0) + 2.0), y};
                pace = {0, 0};
            }
            preferred[i] = boids::keep_slot<vec2>{target, pace, limits}.desired_velocity(p);
        }
    }

    boids::crowd_agents<vec2> agents() { return same_size_agents(position, velocity, preferred, radius, max_speed); }

    // One step: the anchor (at the pace `worst`, the farthest member's slot error,
    // allows), the slots, then the members by the crowd or by steering.
    void step(double worst, bool crowd, boids::uniform_grid<vec2>& grid, boids::uniform_grid<vec2>& gauge,
              boids::crowd_workspace<vec2>& crowd_ws, boids::thread_pool& threads) {
        move_anchor(worst);
        aim();
        if (!crowd) steer_members(gauge);
        else if (obstacles.empty()) boids::crowd_step(agents(), config, grid, crowd_ws, threads);
        else boids::crowd_step(agents(), obstacles, config, grid, crowd_ws, threads);
    }

    // Steering without the crowd: keep the slot, pushed apart by neighbours within two
    // radii and a half (closer = harder), integrated by semi-implicit Euler.
    void steer_members(boids::uniform_grid<vec2>& grid) {
        const boids::steering_limits<double> limits{max_speed, 4.0, 0.25, 0.0};
        grid.build(boids::span<const vec2>(position));
        std::vector<vec2>& next = preferred;  // the preferred velocities become the accelerations
        for (std::size_t i = 0; i < position.size(); ++i) {
            vec2 push{0, 0};
            grid.for_each_within(i, 2.5 * radius, [&](const boids::neighbor<double, 2>& nb) {
                const double dist = std::sqrt(nb.distance_squared);
                const vec2 away = boids::sub(position[i], position[nb.index]);
                const vec2 dir = dist > 1e-12 ? boids::scale(away, 1.0 / dist) : vec2{0, i < nb.index ? 1.0 : -1.0};
                push = boids::add_scaled(push, dir, (2.5 * radius - dist) / (0.5 * radius));
            });
            const vec2 keep = boids::steer_toward(preferred[i], velocity[i], limits);
            const vec2 apart = boids::scale(push, limits.max_force);
            next[i] = boids::blend_priority(limits.max_force, 1e-9, apart, keep);
        }
        for (std::size_t i = 0; i < position.size(); ++i)
            boids::integrate(position[i], velocity[i], next[i], dt, limits);
    }
};

struct formation_result {
    std::size_t members = 0, steps = 0, passed = 0;
    double time_to_goal = -1, formed_at = -1, slot_error_mean = 0, slot_error_max = 0, ms_per_step = 0;
    double min_separation = std::numeric_limits<double>::infinity(), separation = 0;
};

// The smallest centre distance between two members (within `reach`; +inf if none).
inline double closest_pair(boids::uniform_grid<vec2>& gauge, const std::vector<vec2>& p, double reach) {
    double closest = std::numeric_limits<double>::infinity();
    gauge.build(boids::span<const vec2>(p));
    for (std::size_t i = 0; i < p.size(); ++i)
        gauge.for_each_within(i, reach, [&](const boids::neighbor<double, 2>& nb) {
            if (nb.index > i) closest = std::min(closest, std::sqrt(nb.distance_squared));
        });
    return closest;
}

// Runs until the anchor stands at the goal with every member within a quarter spacing
// of its slot (or max_steps). "Formed" is the first step with every member within half
// a spacing; slot_error_mean averages the members' mean slot error over every step
// from then on, through the gap included.
inline formation_result run_formation(const formation_options& o, std::vector<row>* trace = nullptr) {
    formation_scene scene(o);
    const std::size_t n = scene.position.size();
    boids::uniform_grid<vec2> grid(boids::world_for<vec2>{}, scene.config.neighbor_distance);
    boids::uniform_grid<vec2> gauge(boids::world_for<vec2>{}, 2 * scene.radius);
    boids::crowd_workspace<vec2> ws;
    boids::thread_pool threads(static_cast<std::size_t>(o.threads));
    formation_result r;
    r.members = n;
    r.separation = 2 * scene.radius;
    double wall = 0, error_sum = 0;
    std::size_t formed_steps = 0;
    for (;;) {
        double mean, worst;
        scene.errors(mean, worst);
        if (r.formed_at < 0 && worst <= 0.5 * scene.spacing) r.formed_at = static_cast<double>(r.steps) * scene.dt;
        if (r.formed_at >= 0 && r.steps > 0) {
            error_sum += mean;
            ++formed_steps;
            r.slot_error_max = std::max(r.slot_error_max, worst);
        }
        if (boids::distance(scene.squad.anchor(), scene.goal) < 0.05 && worst <= 0.25 * scene.spacing) {
            r.time_to_goal = static_cast<double>(r.steps) * scene.dt;
            break;
        }
        if (r.steps >= o.max_steps) break;
        const auto t0 = std::chrono::steady_clock::now();
        scene.step(worst, o.avoidance == "crowd", grid, gauge, ws, threads);
        wall += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ++r.steps;
        r.min_separation = std::min(r.min_separation, closest_pair(gauge, scene.position, 4 * scene.radius));
        if (trace != nullptr)
            for (std::size_t i = 0; i < n; ++i) {
                const vec2 s = scene.squad.target(i), a = scene.squad.anchor();
                trace->push_back({static_cast<double>(r.steps), static_cast<double>(i), scene.position[i].x,
                                  scene.position[i].y, s.x, s.y, a.x, a.y});
            }
    }
    for (const vec2& p : scene.position) r.passed += scene.gap <= 0 || p.x > 0.5 + scene.radius ? 1 : 0;
    r.slot_error_mean = formed_steps > 0 ? error_sum / static_cast<double>(formed_steps) : -1;
    r.ms_per_step = r.steps > 0 ? wall / static_cast<double>(r.steps) : 0.0;
    return r;
}

inline std::string formation_json(const formation_options& o, const formation_result& r) {
    return "{\"pattern\": \"" + o.pattern + "\", \"members\": " + std::to_string(r.members) +
           ", \"gap\": " + json_number(o.gap) + ", \"avoidance\": \"" + o.avoidance +
           "\", \"steps\": " + std::to_string(r.steps) +
           ", \"time_to_goal\": " + (r.time_to_goal < 0 ? std::string("null") : json_number(r.time_to_goal)) +
           ", \"formed_at\": " + (r.formed_at < 0 ? std::string("null") : json_number(r.formed_at)) +
           ", \"slot_error_mean\": " + (r.slot_error_mean < 0 ? std::string("null") : json_number(r.slot_error_mean)) +
           ", \"slot_error_max\": " + json_number(r.slot_error_max) +
           ", \"min_separation\": " + json_number(r.min_separation) + ", \"separation\": " + json_number(r.separation) +
           ", \"passed\": " + std::to_string(r.passed) + ", \"ms_per_step\": " + json_number(r.ms_per_step) + "}";
}

inline int formation_main(const arguments& args, std::string& error) {
    formation_options o;
    flag_reader f(args);
    f.choice("pattern", o.pattern, {"wedge", "line", "column", "circle", "grid"});
    f.choice("avoidance", o.avoidance, {"crowd", "steering"});
    f.count("members", o.members, 2000ull);
    if (f.ok() && o.members == 0) f.fail("--members: must be >= 1");
    f.positive("gap", o.gap, false);
    f.count("seed", o.seed, ~0ull >> 1);
    f.count("threads", o.threads, 256ull);
    if (f.ok() && o.threads == 0) f.fail("--threads: must be >= 1");
    f.count("max-steps", o.max_steps, 100000000ull);
    o.json = f.flag("json");
    f.text("trace", o.trace);
    if (f.ok() && o.avoidance == "steering" && args.flags.count("gap") != 0 && o.gap > 0)
        f.fail("--avoidance=steering: no walls without the crowd; give --gap=0 or --avoidance=crowd");
    if (f.ok() && o.avoidance == "steering") o.gap = 0;
    if (f.ok() && o.gap > 0 && o.gap < 1.0) f.fail("--gap: narrower than one member (1 m); give 0 for no wall");
    if (!f.finish()) {
        error = f.error();
        return 2;
    }
    std::vector<row> trace;
    const formation_result r = run_formation(o, o.trace.empty() ? nullptr : &trace);
    if (!o.trace.empty() &&
        !write_file_atomically(o.trace, format_csv("step,member,x,y,slot_x,slot_y,anchor_x,anchor_y", trace), error))
        return 2;
    std::printf(
        "formation: %s of %zu, gap %.3g m, %zu through; at the goal after %.6g s, slots within %.3g m on "
        "average once formed, closest pair %.4g m\n",
        o.pattern.c_str(), r.members, o.gap, r.passed, r.time_to_goal, r.slot_error_mean, r.min_separation);
    if (o.json) std::printf("%s\n", formation_json(o, r).c_str());
    return 0;
}

}  // namespace lab

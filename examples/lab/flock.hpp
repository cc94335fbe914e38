// flock.hpp - `boids-lab flock`: the lesson's Flock and Hawk lab.
#pragma once
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>
#include <boids/flock/step.hpp>
#include <boids/gauges.hpp>
#include <boids/models/lesson.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "csv.hpp"
#include "lab_vector.hpp"

namespace lab {

struct flock_options {
    boids::flock_config<vec2> cfg = boids::lesson::config<vec2>();
    std::string init;
    unsigned long long seed = 7, boids = boids::lesson::default_boids, steps = 600, threads = 1;
    double dt = boids::lesson::dt;
    std::string finder = "grid";
    std::string out;
};

struct flock_state {
    std::vector<vec2> positions, velocities;
};

inline std::vector<row> to_rows(const flock_state& s) {
    std::vector<row> rows;
    rows.reserve(s.positions.size());
    for (std::size_t i = 0; i < s.positions.size(); ++i)
        rows.push_back({s.positions[i].x, s.positions[i].y, s.velocities[i].x, s.velocities[i].y});
    return rows;
}

// Steps the flock with the chosen finder and thread count.
inline void run_flock(const flock_options& o, flock_state& s) {
    boids::flock_workspace<vec2> ws;
    boids::span<vec2> p(s.positions), v(s.velocities);
    boids::thread_pool threads(static_cast<std::size_t>(o.threads));  // kept for the whole run
    auto go = [&](auto& finder) {
        for (unsigned long long i = 0; i < o.steps; ++i) boids::flock_step(p, v, o.cfg, finder, ws, o.dt, threads);
    };
    if (o.finder == "all-pairs") {
        boids::all_pairs<vec2> f(o.cfg.world);
        go(f);
    } else {
        boids::uniform_grid<vec2> f(o.cfg.world, o.cfg.view_radius);
        go(f);
    }
}

// The lesson's gauges, distances measured as the world measures them (the lesson's
// wrapping world: straight across, which is what its reference values use).
inline std::string flock_summary(const flock_options& o, const flock_state& s) {
    const double spacing = boids::mean_nearest_distance(boids::span<const vec2>(s.positions), o.cfg.world);
    const double order = boids::heading_order(boids::span<const vec2>(s.velocities));
    char buf[96];
    std::snprintf(buf, sizeof buf, "spacing %.3f px, order %.3f", spacing, order);
    return buf;
}

inline bool parse_flock(const arguments& args, flock_options& o, std::string& error) {
    flag_reader f(args);
    auto& c = o.cfg;
    f.text("init", o.init);
    const bool seeded = f.has("seed") || f.has("boids");
    f.count("seed", o.seed, ~0ull >> 1);
    f.count("boids", o.boids, 10000000ull);
    if (!o.init.empty() && seeded) f.fail("--init cannot be combined with --seed or --boids");
    f.count("steps", o.steps, 100000000ull);
    f.count("threads", o.threads, 256ull);
    if (f.ok() && o.threads == 0) f.fail("--threads: must be >= 1");
    f.positive("dt", o.dt);
    std::string rules = "separation,alignment,cohesion";
    f.text("rules", rules);
    if (f.ok()) {
        c.use_separation = c.use_alignment = c.use_cohesion = false;
        if (rules != "none") {
            std::stringstream ss(rules);
            std::string r;
            while (std::getline(ss, r, ',')) {
                if (r == "separation") c.use_separation = true;
                else if (r == "alignment") c.use_alignment = true;
                else if (r == "cohesion") c.use_cohesion = true;
                else f.fail("--rules: unknown rule '" + r + "' (separation, alignment, cohesion, or none)");
            }
        }
    }
    if (f.has("hawk")) {
        std::array<double, 2> h{};
        f.numbers("hawk", h);
        c.has_predator = true;
        c.predator = {h[0], h[1]};
    }
    f.choice("neighbors", o.finder, {"all-pairs", "grid"});
    std::array<double, 2> world{c.world.size[0], c.world.size[1]};
    f.numbers("world", world);
    if (f.ok() && !(world[0] > 0 && world[1] > 0)) f.fail("--world: both sizes must be > 0");
    c.world.size = world;
    std::string edges = "wrap";
    f.choice("edges", edges, {"wrap", "toroidal", "bounded"});
    c.world.kind = edges == "wrap"       ? boids::edges::wrap
                   : edges == "toroidal" ? boids::edges::toroidal
                                         : boids::edges::bounded;
    f.positive("max-speed", c.limits.max_speed, false);
    f.positive("min-speed", c.limits.min_speed, false);
    f.positive("max-force", c.limits.max_force, false);
    f.positive("reaction-time", c.limits.reaction_time);
    f.positive("view-radius", c.view_radius);
    f.positive("view-angle", c.view_angle, false);
    f.positive("separation-radius", c.separate.radius, false);
    f.positive("panic-radius", c.panic_radius, false);
    std::array<double, 4> w{c.separation_weight, c.alignment_weight, c.cohesion_weight, c.flee_weight};
    f.numbers("weights", w);
    c.separation_weight = w[0];
    c.alignment_weight = w[1];
    c.cohesion_weight = w[2];
    c.flee_weight = w[3];
    f.text("out", o.out);
    if (!f.finish()) {
        error = f.error();
        return false;
    }
    if (const auto v = c.validate(); !v) {
        error = std::string("invalid parameter ") + v.field + ": " + v.reason;
        return false;
    }
    return true;
}

// The initial flock from --init or from --seed/--boids.
inline bool initial_flock(const flock_options& o, flock_state& s, std::string& error) {
    if (o.init.empty()) {
        boids::lesson::scatter(o.seed, o.cfg, s.positions, s.velocities, static_cast<std::size_t>(o.boids));
        return true;
    }
    const auto rows = read_csv(o.init, "x,y,vx,vy", error);
    if (!rows) return false;
    for (const auto& r : *rows) {
        s.positions.push_back({r[0], r[1]});
        s.velocities.push_back({r[2], r[3]});
    }
    return true;
}

inline int flock_main(const arguments& args, std::string& error) {
    flock_options o;
    if (!parse_flock(args, o, error)) return 2;
    flock_state s;
    if (!initial_flock(o, s, error)) return 2;
    run_flock(o, s);
    if (!o.out.empty() && !write_file_atomically(o.out, format_csv("x,y,vx,vy", to_rows(s)), error)) return 2;
    std::printf("flock: %zu boids, %llu steps of %.6g s, %s neighbours\n", s.positions.size(), o.steps, o.dt,
                o.finder.c_str());
    std::printf("%s\n", flock_summary(o, s).c_str());
    return 0;
}

}  // namespace lab

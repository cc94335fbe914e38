// vehicle.hpp - `boids-lab vehicle`: the lesson's seek / flee / arrive warm-up.
#pragma once
#include <cstdio>
#include <string>
#include <boids/behaviors/seek_flee_arrive.hpp>
#include <boids/neighbors/world.hpp>
#include "csv.hpp"
#include "lab_vector.hpp"

namespace lab {

struct vehicle_options {
    std::string mode = "seek";
    vec2 pos{120, 225}, vel{0, -120}, target{470, 225};
    unsigned long long steps = 60;
    double dt = 1.0 / 60.0;
    std::array<double, 2> world{800, 450};
    double max_speed = 220, max_force = 440, reaction_time = 0.2;
    double slow_radius = 140, panic_radius = 200;
    std::string out;
};

struct vehicle_result {
    vec2 pos, vel;
};

// One vehicle, stepped `steps` times: behaviour, semi-implicit Euler, wrap.
inline vehicle_result run_vehicle(const vehicle_options& o) {
    const boids::steering_limits<double> limits{o.max_speed, o.max_force, o.reaction_time, 0.0};
    const auto world = boids::world<double, 2>::box(boids::edges::wrap, o.world);
    vec2 p = o.pos, v = o.vel;
    for (unsigned long long s = 0; s < o.steps; ++s) {
        vec2 a{};
        if (o.mode == "seek") a = boids::seek<vec2>{o.target, limits}(p, v);
        else if (o.mode == "flee")
            a = boids::flee<vec2>{o.target, o.panic_radius, limits, boids::flee_outside::brake}(p, v);
        else a = boids::arrive<vec2>{o.target, o.slow_radius, limits, 1.0, boids::arrive_ramp::linear}(p, v);
        boids::integrate(p, v, a, o.dt, limits);
        boids::confine(world, p, v);
    }
    return {p, v};
}

// Parses the vehicle flags; returns false with `error` set on bad input.
inline bool parse_vehicle(const arguments& args, vehicle_options& o, std::string& error) {
    flag_reader f(args);
    f.choice("mode", o.mode, {"seek", "flee", "arrive"});
    std::array<double, 2> tmp{};
    if (f.has("pos")) { f.numbers("pos", tmp); o.pos = {tmp[0], tmp[1]}; }
    if (f.has("vel")) { f.numbers("vel", tmp); o.vel = {tmp[0], tmp[1]}; }
    if (f.has("target")) { f.numbers("target", tmp); o.target = {tmp[0], tmp[1]}; }
    f.count("steps", o.steps, 100000000ull);
    f.positive("dt", o.dt);
    f.numbers("world", o.world);
    if (f.ok() && !(o.world[0] > 0 && o.world[1] > 0)) f.fail("--world: both sizes must be > 0");
    f.positive("max-speed", o.max_speed, false);
    f.positive("max-force", o.max_force, false);
    f.positive("reaction-time", o.reaction_time);
    f.positive("slow-radius", o.slow_radius, false);
    f.positive("panic-radius", o.panic_radius, false);
    f.text("out", o.out);
    if (!f.finish()) {
        error = f.error();
        return false;
    }
    return true;
}

inline int vehicle_main(const arguments& args, std::string& error) {
    vehicle_options o;
    if (!parse_vehicle(args, o, error)) return 2;
    const auto r = run_vehicle(o);
    if (!o.out.empty()) {
        const std::string csv = format_csv("x,y,vx,vy", {{r.pos.x, r.pos.y, r.vel.x, r.vel.y}});
        if (!write_file_atomically(o.out, csv, error)) return 2;
    }
    const double dx = o.target.x - r.pos.x, dy = o.target.y - r.pos.y;
    std::printf("vehicle %s: %llu steps of %.6g s, position (%.3f, %.3f) px, speed %.3f px/s, "
                "%.3f px from the target\n",
                o.mode.c_str(), o.steps, o.dt, r.pos.x, r.pos.y, boids::length(r.vel),
                std::sqrt(dx * dx + dy * dy));
    return 0;
}

} // namespace lab

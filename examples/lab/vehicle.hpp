// vehicle.hpp - `boids-lab vehicle`: one vehicle and one behaviour.
//   seek | flee | arrive             the lesson's warm-up (its defaults)
//   pursue | evade                   a target moving in a straight line (--target-vel)
//   wander                           seeded (--seed)
//   follow-path                      --path="X,Y;X,Y;..." --path-radius=R
//   avoid                            arrive at the target around --obstacles="X,Y,R;..."
//   contain                          wander kept inside --bounds=X0,Y0,X1,Y1
//   face                             drift at --vel (no force) while turning to face the target
//   look-where-going                 wander, turning to look along the velocity
//   turn-limited                     seek_turning: a car with --turn-radius and --min-speed (facing its heading)
// The last three turn an orientation (--heading, --max-angular-speed, --max-angular-accel,
// --angular-reaction-time); --json ends the output with one JSON line.
#pragma once
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>
#include <boids/behaviors/avoid_obstacles.hpp>
#include <boids/behaviors/orientation.hpp>
#include <boids/behaviors/path.hpp>
#include <boids/behaviors/pursue_evade.hpp>
#include <boids/behaviors/seek_flee_arrive.hpp>
#include <boids/behaviors/wander.hpp>
#include <boids/blend.hpp>
#include <boids/behaviors/turning.hpp>
#include <boids/neighbors/world.hpp>
#include "csv.hpp"
#include "lab_vector.hpp"
#include "snapshot_file.hpp"

namespace lab {

struct vehicle_options {
    std::string mode = "seek";
    vec2 pos{120, 225}, vel{0, -120}, target{470, 225}, target_vel{0, 0};
    unsigned long long steps = 60, seed = 1;
    double dt = 1.0 / 60.0;
    std::array<double, 2> world{800, 450};
    bool wrap = true;
    double max_speed = 220, max_force = 440, reaction_time = 0.2;
    double slow_radius = 140, panic_radius = 200;
    std::vector<vec2> path;
    double path_radius = 20;
    std::vector<boids::sphere<vec2>> obstacles;
    std::array<double, 4> bounds{0, 0, 0, 0};
    bool has_bounds = false;
    double agent_radius = 8;
    double heading = 0;  // rad, the orientation at the start
    boids::angular_limits<double> angular{};
    double turn_radius = 60, min_speed = 80, max_turn_rate = std::numeric_limits<double>::infinity();
    bool json = false;
    std::string out, trace;
    // --save-at=STEP --save=FILE: the state after STEP steps; --load=FILE: go on from one.
    unsigned long long save_at = 0;
    std::string save, load;
};

// What a vehicle run carries from one step to the next.
struct vehicle_state {
    unsigned long long step = 0;
    vec2 p, v;
    boids::wander_state<vec2> wandering;
    double angle = 0, angular_velocity = 0;  // the orientation, rad and rad/s
    boids::turning_state turning{};
};

inline const std::vector<std::string>& vehicle_modes() {
    static const std::vector<std::string> modes{"seek",    "flee",   "arrive",           "pursue",
                                                "evade",   "wander", "follow-path",      "avoid",
                                                "contain", "face",   "look-where-going", "turn-limited"};
    return modes;
}
inline std::uint32_t mode_index(const std::string& mode) {
    std::uint32_t i = 0;
    while (i < vehicle_modes().size() && vehicle_modes()[i] != mode) ++i;
    return i;
}

// The state with the mode and dt it was run with (a run goes on only with both the same).
inline std::vector<unsigned char> save_vehicle(const vehicle_options& o, const vehicle_state& s) {
    std::vector<unsigned char> bytes;
    boids::snapshot_writer w(bytes);
    w.begin(vehicle_snapshot, 8, 2, 1);
    w.put(mode_index(o.mode));
    w.put(o.dt);
    w.put(static_cast<std::uint64_t>(s.step));
    w.put(s.p);
    w.put(s.v);
    w.put(s.wandering.rng);
    w.put(s.wandering.target_local);
    w.put(s.angle);
    w.put(s.angular_velocity);
    w.put(static_cast<std::uint32_t>(s.turning.making_room ? 1 : 0));
    w.finish();
    return bytes;
}
inline bool load_vehicle(const vehicle_options& o, const std::vector<unsigned char>& bytes, vehicle_state& s,
                         std::string& error) {
    boids::snapshot_reader r{boids::span<const unsigned char>(bytes)};
    std::uint64_t count = 0;
    if (const auto v = r.open(vehicle_snapshot, 8, 2, count); !v) {
        error = snapshot_error(o.load, v);
        return false;
    }
    if (r.layout() != 0) {
        error = snapshot_error(o.load, {"layout", "saved by another version of boids-lab"});
        return false;
    }
    std::uint32_t mode = 0;
    double dt = 0;
    std::uint64_t step = 0;
    vehicle_state got;
    r.get(mode);
    r.get(dt);
    r.get(step);
    r.get(got.p);
    r.get(got.v);
    r.get(got.wandering.rng);
    r.get(got.wandering.target_local);
    std::uint32_t making_room = 0;
    r.get(got.angle);
    r.get(got.angular_velocity);
    r.get(making_room);
    got.turning.making_room = making_room == 1;
    r.require(making_room <= 1, "making_room", "must be 0 or 1");
    r.require(std::isfinite(got.angle) && std::isfinite(got.angular_velocity), "orientation", "not finite");
    r.require(count == 1, "count", "a vehicle snapshot holds one vehicle");
    r.require(boids::is_finite(got.p) && boids::is_finite(got.v) && boids::is_finite(got.wandering.target_local),
              "state", "not finite");
    if (const auto v = r.done(); !v) {
        error = snapshot_error(o.load, v);
        return false;
    }
    if (mode >= vehicle_modes().size() || vehicle_modes()[mode] != o.mode) {
        error = "--load: " + o.load + " was saved with another --mode" +
                (mode < vehicle_modes().size() ? " (" + vehicle_modes()[mode] + ")" : std::string());
        return false;
    }
    if (dt != o.dt) {
        error = "--load: " + o.load + " was saved with another --dt";
        return false;
    }
    if (step > o.steps) {
        error =
            "--load: " + o.load + " is at step " + std::to_string(step) + ", past --steps=" + std::to_string(o.steps);
        return false;
    }
    got.step = step;
    s = got;
    return true;
}

struct vehicle_result {
    vec2 pos, vel;
    double angle = 0, angular_velocity = 0;
};

// Where a run starts: step 0 at --pos and --vel, wandering from --seed, facing --heading.
inline vehicle_state start_state(const vehicle_options& o) {
    return vehicle_state{0,   o.pos, o.vel, boids::wander_state<vec2>::seeded(o.seed), boids::wrap_angle(o.heading),
                         0.0, {}};
}

// What a run's orientation and turning did, for --json.
struct vehicle_gauges {
    double max_angular_speed = 0, max_angular_acceleration = 0, max_curvature = 0;
    double reached_at = -1;  // s: first within 2 px of the target
};

// One vehicle, stepped up to step `steps` from `state` (or from the start):
// behaviour, semi-implicit Euler, edges. `on_step(state)` sees every step's state
// and the point steered for (for --trace and --save-at).
template <class OnStep>
vehicle_result run_vehicle(const vehicle_options& o, vehicle_state* state, OnStep&& on_step,
                           vehicle_gauges* gauges = nullptr) {
    const bool turn_limited = o.mode == "turn-limited";
    const boids::steering_limits<double> limits{o.max_speed, o.max_force, o.reaction_time,
                                                turn_limited ? o.min_speed : 0.0};
    const boids::turning_limits<double> car{o.max_turn_rate, o.turn_radius};
    const auto world = o.wrap ? boids::world<double, 2>::box(boids::edges::wrap, o.world) : boids::world<double, 2>{};
    const boids::polyline_path<vec2> path{boids::span<const vec2>(o.path), o.path_radius, false};
    const boids::span<const boids::sphere<vec2>> rocks(o.obstacles);
    const boids::wander<vec2> wander{40, 80, 3, limits};
    const vehicle_state start = state != nullptr ? *state : start_state(o);
    auto wandering = start.wandering;
    const vec2 lo{o.bounds[0], o.bounds[1]}, hi{o.bounds[2], o.bounds[3]};
    vec2 p = start.p, v = start.v;
    double angle = start.angle, w = start.angular_velocity;
    boids::turning_state turning = start.turning;
    vehicle_gauges seen;
    for (unsigned long long s = start.step; s < o.steps; ++s) {
        const double t = static_cast<double>(s) * o.dt;
        const vec2 target = boids::add_scaled(o.target, o.target_vel, t);  // moves in a straight line
        vec2 a{}, aim = target;
        if (o.mode == "seek") a = boids::seek<vec2>{target, limits}(p, v);
        else if (o.mode == "flee")
            a = boids::flee<vec2>{target, o.panic_radius, limits, boids::flee_outside::brake}(p, v);
        else if (o.mode == "arrive")
            a = boids::arrive<vec2>{target, o.slow_radius, limits, 1.0, boids::arrive_ramp::linear}(p, v);
        else if (o.mode == "pursue") {
            const boids::pursue<vec2> chase{target, o.target_vel, limits};
            aim = chase.predicted(p);
            a = chase(p, v);
        } else if (o.mode == "evade") a = boids::evade<vec2>{target, o.target_vel, limits, o.panic_radius}(p, v);
        else if (o.mode == "wander") {
            a = wander(p, v, wandering, o.dt);
            aim = wander.target(p, v, wandering);
        } else if (o.mode == "follow-path") {
            a = boids::follow_path<vec2>{path, limits}(p, v);
            aim = path.nearest(boids::predict(p, v, 0.5)).point;
        } else if (o.mode == "avoid") {
            const vec2 dodge = boids::avoid_obstacles<vec2>{rocks, o.agent_radius, limits}(p, v);
            a = boids::blend_priority(limits.max_force, 1e-9, dodge,
                                      boids::arrive<vec2>{target, o.slow_radius, limits}(p, v));
        } else if (o.mode == "contain") {
            const vec2 back = boids::stay_within<vec2>{lo, hi, limits}(p, v);
            const vec2 roam = wander(p, v, wandering, o.dt);
            a = boids::blend_priority(limits.max_force, 1e-9, back, roam);
            aim = wander.target(p, v, wandering);
        } else if (o.mode == "look-where-going") {
            a = wander(p, v, wandering, o.dt);
            aim = wander.target(p, v, wandering);
        } else if (o.mode == "turn-limited") {
            a = boids::seek_turning<vec2>{target, limits, car}(p, v, turning);
        }  // face: no force, the vehicle drifts at its velocity
        // The orientation: face the target, or look along the velocity. A turn-limited
        // vehicle's body is its heading (a car points along its path), so it is set, not steered.
        double alpha = 0;
        if (o.mode == "face") alpha = boids::face<vec2>{target, o.angular}(p, v, angle, w);
        else if (o.mode == "look-where-going") alpha = boids::look_where_going<vec2>{o.angular}(p, v, angle, w);
        const vec2 before = v;
        if (turn_limited) boids::integrate(p, v, a, o.dt, limits, car);
        else boids::integrate(p, v, a, o.dt, limits);
        if (turn_limited) {
            const double was = angle;
            angle = boids::heading_angle(v, angle);
            w = boids::angle_difference(angle, was) / o.dt;
        } else {
            boids::integrate_orientation(angle, w, alpha, o.dt, o.angular);
        }
        seen.max_angular_speed = std::max(seen.max_angular_speed, std::fabs(w));
        seen.max_angular_acceleration = std::max(seen.max_angular_acceleration, std::fabs(alpha));
        const double moved = boids::length(v) * o.dt;
        if (moved > 0) {
            const double c =
                std::clamp(boids::dot(boids::normalized_or_zero(before), boids::normalized_or_zero(v)), -1.0, 1.0);
            if (!boids::is_zero(before)) seen.max_curvature = std::max(seen.max_curvature, std::acos(c) / moved);
        }
        boids::confine(world, p, v);
        if (seen.reached_at < 0 && boids::distance(p, target) <= 2.0)
            seen.reached_at = static_cast<double>(s + 1) * o.dt;
        on_step(vehicle_state{s + 1, p, v, wandering, angle, w, turning}, aim);
    }
    if (gauges != nullptr) *gauges = seen;
    return {p, v, angle, w};
}
inline vehicle_result run_vehicle(const vehicle_options& o) {
    return run_vehicle(o, nullptr, [](const vehicle_state&, const vec2&) {});
}

// "X,Y;X,Y;..." (N numbers per item) into `out`; false with a message on bad input.
template <std::size_t N>
inline bool parse_list(const std::string& flag, const std::string& text, std::vector<std::array<double, N>>& out,
                       std::string& error) {
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ';')) {
        const auto v = parse_numbers<N>(item);
        if (!v) {
            error = "--" + flag + ": '" + item + "' is not " + std::to_string(N) + " comma-separated finite numbers";
            return false;
        }
        out.push_back(*v);
    }
    if (out.empty()) {
        error = "--" + flag + ": empty list";
        return false;
    }
    return true;
}

// Parses the vehicle flags; returns false with `error` set on bad input.
inline bool parse_vehicle(const arguments& args, vehicle_options& o, std::string& error) {
    flag_reader f(args);
    f.choice("mode", o.mode,
             {"seek", "flee", "arrive", "pursue", "evade", "wander", "follow-path", "avoid", "contain", "face",
              "look-where-going", "turn-limited"});
    std::array<double, 2> tmp{};
    if (f.has("pos")) {
        f.numbers("pos", tmp);
        o.pos = {tmp[0], tmp[1]};
    }
    if (f.has("vel")) {
        f.numbers("vel", tmp);
        o.vel = {tmp[0], tmp[1]};
    }
    if (f.has("target")) {
        f.numbers("target", tmp);
        o.target = {tmp[0], tmp[1]};
    }
    if (f.has("target-vel")) {
        f.numbers("target-vel", tmp);
        o.target_vel = {tmp[0], tmp[1]};
    }
    f.count("steps", o.steps, 100000000ull);
    f.count("seed", o.seed, ~0ull >> 1);
    f.positive("dt", o.dt);
    f.numbers("world", o.world);
    if (f.ok() && !(o.world[0] > 0 && o.world[1] > 0)) f.fail("--world: both sizes must be > 0");
    if (f.flag("no-wrap")) o.wrap = false;
    f.positive("max-speed", o.max_speed, false);
    f.positive("max-force", o.max_force, false);
    f.positive("reaction-time", o.reaction_time);
    f.positive("slow-radius", o.slow_radius, false);
    f.positive("panic-radius", o.panic_radius, false);
    f.positive("path-radius", o.path_radius, false);
    std::string text;
    if (f.has("path")) {
        f.text("path", text);
        std::vector<std::array<double, 2>> pts;
        if (f.ok() && !parse_list<2>("path", text, pts, error)) f.fail(error);
        for (const auto& q : pts) o.path.push_back({q[0], q[1]});
    }
    if (f.has("obstacles")) {
        f.text("obstacles", text);
        std::vector<std::array<double, 3>> rocks;
        if (f.ok() && !parse_list<3>("obstacles", text, rocks, error)) f.fail(error);
        for (const auto& r : rocks) {
            if (f.ok() && !(r[2] > 0)) f.fail("--obstacles: a radius must be > 0");
            o.obstacles.push_back({{r[0], r[1]}, r[2]});
        }
    }
    if (f.has("bounds")) {
        f.numbers("bounds", o.bounds);
        o.has_bounds = true;
        if (f.ok() && !(o.bounds[2] > o.bounds[0] && o.bounds[3] > o.bounds[1]))
            f.fail("--bounds: need X0 < X1 and Y0 < Y1");
    }
    f.number("heading", o.heading);
    f.positive("max-angular-speed", o.angular.max_angular_speed, false);
    f.positive("max-angular-accel", o.angular.max_angular_acceleration, false);
    f.positive("angular-reaction-time", o.angular.reaction_time);
    f.positive("turn-radius", o.turn_radius, false);
    f.positive("min-speed", o.min_speed, false);
    f.positive("max-turn-rate", o.max_turn_rate);
    if (f.ok() && o.mode == "turn-limited" && o.min_speed > o.max_speed) f.fail("--min-speed: above --max-speed");
    o.json = f.flag("json");
    f.text("out", o.out);
    f.text("trace", o.trace);
    f.count("save-at", o.save_at, 100000000ull);
    f.text("save", o.save);
    f.text("load", o.load);
    if (f.ok() && f.has("save-at") != f.has("save")) f.fail("--save-at and --save go together");
    if (f.ok() && !o.save.empty() && o.save_at > o.steps) f.fail("--save-at: past --steps");
    if (f.ok() && o.mode == "follow-path" && o.path.empty()) f.fail("--mode=follow-path needs --path=\"X,Y;X,Y;...\"");
    if (f.ok() && o.mode == "contain" && !o.has_bounds) o.bounds = {50, 50, o.world[0] - 50, o.world[1] - 50};
    if (f.ok() && o.mode == "contain" && !(o.bounds[2] > o.bounds[0] && o.bounds[3] > o.bounds[1]))
        f.fail("--mode=contain: the world is too small for the default bounds; give --bounds");
    if (!f.finish()) {
        error = f.error();
        return false;
    }
    return true;
}

inline int vehicle_main(const arguments& args, std::string& error) {
    vehicle_options o;
    if (!parse_vehicle(args, o, error)) return 2;
    vehicle_state loaded;
    if (!o.load.empty()) {
        std::vector<unsigned char> bytes;
        if (!read_snapshot(o.load, bytes, error) || !load_vehicle(o, bytes, loaded, error)) return 2;
    }
    const unsigned long long first = o.load.empty() ? 0 : loaded.step;
    if (!o.save.empty() && o.save_at < first) {
        error = "--save-at: before the loaded step " + std::to_string(first);
        return 2;
    }
    std::vector<row> trace;
    std::vector<unsigned char> saved;
    const bool turns = o.mode == "face" || o.mode == "look-where-going" || o.mode == "turn-limited";
    if (!o.save.empty() && o.save_at == first) saved = save_vehicle(o, o.load.empty() ? start_state(o) : loaded);
    vehicle_gauges gauges;
    const auto r = run_vehicle(
        o, o.load.empty() ? nullptr : &loaded,
        [&](const vehicle_state& s, const vec2& aim) {
            if (!o.trace.empty()) {
                trace.push_back({static_cast<double>(s.step), s.p.x, s.p.y, s.v.x, s.v.y, aim.x, aim.y});
                if (turns) trace.back().push_back(s.angle);
            }
            if (!o.save.empty() && s.step == o.save_at) saved = save_vehicle(o, s);
        },
        &gauges);
    if (!o.save.empty() && !write_snapshot(o.save, saved, error)) return 2;
    if (!o.trace.empty() &&
        !write_file_atomically(
            o.trace,
            format_csv(turns ? "step,x,y,vx,vy,target_x,target_y,heading" : "step,x,y,vx,vy,target_x,target_y", trace),
            error))
        return 2;
    if (!o.out.empty()) {
        const std::string csv = format_csv("x,y,vx,vy", {{r.pos.x, r.pos.y, r.vel.x, r.vel.y}});
        if (!write_file_atomically(o.out, csv, error)) return 2;
    }
    const vec2 target = boids::add_scaled(o.target, o.target_vel, static_cast<double>(o.steps) * o.dt);
    std::printf(
        "vehicle %s: %llu steps of %.6g s, position (%.3f, %.3f) px, speed %.3f px/s, "
        "%.3f px from the target\n",
        o.mode.c_str(), o.steps, o.dt, r.pos.x, r.pos.y, boids::length(r.vel), boids::distance(r.pos, target));
    if (o.json) {
        // How far the orientation is from where the mode wants it: the target's bearing
        // (face) or the velocity's heading (the others).
        const double wanted = o.mode == "face" ? boids::heading_angle(boids::sub(target, r.pos), r.angle)
                                               : boids::heading_angle(r.vel, r.angle);
        std::printf(
            "{\"mode\": \"%s\", \"steps\": %llu, \"x\": %s, \"y\": %s, \"speed\": %s, \"distance\": %s, "
            "\"heading\": %s, \"heading_error\": %s, \"angular_speed\": %s, \"max_angular_speed\": %s, "
            "\"max_angular_acceleration\": %s, \"max_curvature\": %s, \"reached_at\": %s}\n",
            o.mode.c_str(), o.steps, json_number(r.pos.x).c_str(), json_number(r.pos.y).c_str(),
            json_number(boids::length(r.vel)).c_str(), json_number(boids::distance(r.pos, target)).c_str(),
            json_number(r.angle).c_str(), json_number(boids::angle_difference(wanted, r.angle)).c_str(),
            json_number(std::fabs(r.angular_velocity)).c_str(), json_number(gauges.max_angular_speed).c_str(),
            json_number(gauges.max_angular_acceleration).c_str(), json_number(gauges.max_curvature).c_str(),
            gauges.reached_at < 0 ? "null" : json_number(gauges.reached_at).c_str());
    }
    return 0;
}

}  // namespace lab

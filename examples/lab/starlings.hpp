// starlings.hpp - `boids-lab starlings`: the starling model of "The physics of a
// flock" (boids/models/starling.hpp) in its scene: a cloud of birds near (0, 20, 0)
// over a roost at (-25, 0, -30), flown for a while and measured.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include <boids/gauges.hpp>
#include <boids/models/starling.hpp>
#include "cli.hpp"
#include "csv.hpp"
#include "snapshot_file.hpp"
#include "starling_measure.hpp"

namespace lab {

// Single precision: positions stay within a few hundred metres of the origin.
struct fvec3 {
    float x, y, z;
};

}  // namespace lab

BOIDS_REGISTER_VECTOR3(lab::fvec3, float, x, y, z)

namespace lab {

struct starling_options {
    boids::starling::params<float> model{};
    unsigned long long birds = 3000, threads = 1, perception_every = 1, seed = 1;
    double seconds = 60;
    bool json = false;
    std::string out;
    // --save-at=SECONDS --save=FILE: the state at that time; --load=FILE: go on from one.
    double save_at = 0;
    std::string save, load;
    // --scene=roost|free (free: no roost, no scheduled disturbances), --model=source|field,
    // --turn-at=SECONDS (one bird starts a turn), --measure=FILE.json (-: the last line
    // of the output), --measure-from=SECONDS (its first snapshot; 10 s).
    std::string scene = "roost", model_name = "source", measure;
    double turn_at = -1, measure_from = 10;
};

// What the run measured, over every step after its first 5 s.
struct starling_stats {
    double speed_min = 1e300, speed_max = 0, altitude_min = 1e300, altitude_max = -1e300;
    double roost_distance_sum = 0, polarization_sum = 0, nearest_min = 1e300, nearest_sum = 0;
    std::size_t samples = 0, nearest_samples = 0;

    void add(const boids::starling::flock<fvec3>& f, const std::vector<fvec3>& p, const std::vector<fvec3>& v) {
        if (p.empty()) return;
        const fvec3 roost = f.roost_centre();
        double roost_sum = 0, nearest = 0;
        std::size_t seen = 0;
        const auto near = f.nearest_distances();
        for (std::size_t i = 0; i < p.size(); ++i) {
            const double s = static_cast<double>(boids::length(v[i]));
            speed_min = std::min(speed_min, s);
            speed_max = std::max(speed_max, s);
            altitude_min = std::min(altitude_min, static_cast<double>(p[i].y));
            altitude_max = std::max(altitude_max, static_cast<double>(p[i].y));
            roost_sum += std::hypot(static_cast<double>(p[i].x - roost.x), static_cast<double>(p[i].z - roost.z));
            if (std::isfinite(near[i])) {
                nearest_min = std::min(nearest_min, static_cast<double>(near[i]));
                nearest += static_cast<double>(near[i]);
                ++seen;
            }
        }
        const double n = static_cast<double>(std::max<std::size_t>(p.size(), 1));
        roost_distance_sum += roost_sum / n;
        polarization_sum += static_cast<double>(boids::polarization(boids::span<const fvec3>(v)));
        if (seen > 0) {
            nearest_sum += nearest / static_cast<double>(seen);
            ++nearest_samples;
        }
        ++samples;
    }
};

inline bool parse_starlings(const arguments& args, starling_options& o, std::string& error) {
    flag_reader f(args);
    auto& m = o.model;
    f.count("birds", o.birds, 10000000ull);
    f.positive("seconds", o.seconds, false);
    f.count("seed", o.seed, ~0ull >> 1);
    f.count("threads", o.threads, 256ull);
    if (f.ok() && o.threads == 0) f.fail("--threads: must be >= 1");
    f.count("perception-every", o.perception_every, 1000ull);
    if (f.ok() && o.perception_every == 0) f.fail("--perception-every: must be >= 1");
    f.choice("model", o.model_name, {"source", "field"});
    if (o.model_name == "field") m = boids::starling::field_params(m);  // the flags below start from it
    unsigned long long k = m.k;
    f.count("k", k, 24ull);
    if (f.ok() && k == 0) f.fail("--k: must be >= 1");
    double v0 = m.flight.preferred_speed, tau = m.flight.response_time, j = m.alignment, c = m.cohesion,
           r0 = m.separation_radius, sigma = m.noise, kr = m.roost_gain;
    f.positive("speed", v0);
    f.positive("response-time", tau, false);
    f.positive("alignment", j, false);
    f.positive("cohesion", c, false);
    f.positive("separation-radius", r0);
    f.positive("noise", sigma, false);
    f.positive("roost-gain", kr, false);
    double border = m.border_cohesion, ahead = m.separation_ahead, speed_time = m.flight.speed_time,
           blind = m.rear_blind_angle, lift_time = m.flight.lift_time, pull = m.altitude_pull;
    unsigned long long fade = m.social_fade;
    f.count("social-fade", fade, 64ull);
    f.positive("altitude-pull", pull, false);
    f.positive("border-cohesion", border, false);
    f.positive("separation-ahead", ahead);
    f.positive("speed-time", speed_time);
    f.positive("rear-blind-angle", blind, false);
    f.positive("lift-time", lift_time, false);
    f.choice("scene", o.scene, {"roost", "free"});
    f.positive("turn-at", o.turn_at, false);
    f.text("measure", o.measure);
    f.positive("measure-from", o.measure_from, false);
    if (f.ok() && f.has("turn-at") && o.turn_at >= o.seconds) f.fail("--turn-at: not before --seconds");
    o.json = f.flag("json");
    f.text("out", o.out);
    f.positive("save-at", o.save_at, false);
    f.text("save", o.save);
    f.text("load", o.load);
    if (f.ok() && f.has("save-at") != f.has("save")) f.fail("--save-at and --save go together");
    if (f.ok() && !o.save.empty() && o.save_at > o.seconds) f.fail("--save-at: past --seconds");
    if (!o.load.empty())
        for (const char* fixed : {"birds",
                                  "seed",
                                  "scene",
                                  "model",
                                  "perception-every",
                                  "k",
                                  "speed",
                                  "response-time",
                                  "alignment",
                                  "cohesion",
                                  "separation-radius",
                                  "noise",
                                  "roost-gain",
                                  "border-cohesion",
                                  "separation-ahead",
                                  "speed-time",
                                  "rear-blind-angle",
                                  "lift-time",
                                  "social-fade",
                                  "altitude-pull"})
            if (f.ok() && f.has(fixed))
                f.fail(std::string("--") + fixed + ": the birds and the model come from --load's snapshot");
    if (!f.finish()) {
        error = f.error();
        return false;
    }
    m.k = static_cast<std::size_t>(k);
    m.perception_every = static_cast<std::size_t>(o.perception_every);
    m.seed = o.seed;
    m.flight.preferred_speed = static_cast<float>(v0);
    m.flight.response_time = static_cast<float>(tau);
    m.alignment = static_cast<float>(j);
    m.cohesion = static_cast<float>(c);
    m.separation_radius = static_cast<float>(r0);
    m.noise = static_cast<float>(sigma);
    m.roost_gain = static_cast<float>(kr);
    m.border_cohesion = static_cast<float>(border);
    m.separation_ahead = static_cast<float>(ahead);
    m.flight.speed_time = static_cast<float>(speed_time);
    m.rear_blind_angle = static_cast<float>(blind);
    m.flight.lift_time = static_cast<float>(lift_time);
    m.social_fade = static_cast<std::size_t>(fade);
    m.altitude_pull = pull;
    if (o.scene == "free") {
        if (f.has("roost-gain") && kr > 0) {
            error = "--roost-gain: the free scene has no roost";
            return false;
        }
        m.roost_gain = 0;
        m.scheduled_disturbances = false;
    }
    if (const auto v = m.validate(); !v) {
        error = std::string("invalid parameter ") + v.field + ": " + v.reason;
        return false;
    }
    return true;
}

// The run's state: the flock's snapshot with its birds' positions and velocities.
inline std::vector<unsigned char> save_starlings(const boids::starling::flock<fvec3>& f, const std::vector<fvec3>& p,
                                                 const std::vector<fvec3>& v) {
    std::vector<unsigned char> bytes;
    f.save(bytes, p, v);
    return bytes;
}
inline bool load_starlings(const std::string& path, const std::vector<unsigned char>& bytes,
                           boids::starling::flock<fvec3>& f, std::vector<fvec3>& p, std::vector<fvec3>& v,
                           std::string& error) {
    const boids::validation valid = f.load(boids::span<const unsigned char>(bytes), p, v);
    if (!valid) error = snapshot_error(path, valid);
    return valid.ok();
}

// Flies the scene up to o.seconds, from the start or (`loaded`) from the state in
// f, p, v; returns what it measured and leaves the final state in p, v. With
// `saved`, the state at o.save_at seconds goes there.
inline starling_stats run_starlings(const starling_options& o, boids::starling::flock<fvec3>& f, std::vector<fvec3>& p,
                                    std::vector<fvec3>& v, double& wall_ms_per_step, bool loaded = false,
                                    std::vector<unsigned char>* saved = nullptr,
                                    starling_measurement<fvec3>* measure = nullptr) {
    if (!loaded) {
        boids::starling::starting_cloud(o.seed, static_cast<std::size_t>(o.birds), o.model, p, v);
        f.reset(o.model, p.size());
    }
    const double dt = static_cast<double>(f.parameters().dt);
    const auto steps = static_cast<std::size_t>(std::llround(o.seconds / dt));
    const auto save_step = static_cast<std::size_t>(std::llround(o.save_at / dt));
    const std::size_t first = f.steps();
    if (saved != nullptr && save_step == first) *saved = save_starlings(f, p, v);
    starling_stats stats;
    double wall = 0;
    boids::thread_pool threads(static_cast<std::size_t>(o.threads));  // kept for the whole run
    for (std::size_t s = first; s < steps; ++s) {
        const auto t0 = std::chrono::steady_clock::now();
        f.step(boids::span<fvec3>(p), boids::span<fvec3>(v), threads);
        wall += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (f.time() > 5.0 + 1e-9) stats.add(f, p, v);
        if (measure != nullptr) measure->after_step(f, p, v);
        if (saved != nullptr && f.steps() == save_step) *saved = save_starlings(f, p, v);
    }
    wall_ms_per_step = steps > first ? wall / static_cast<double>(steps - first) : 0.0;
    return stats;
}

inline std::string starling_json(const starling_options& o, const boids::starling::flock<fvec3>& f,
                                 const starling_stats& s, double wall_ms_per_step) {
    // A measure with nothing to measure (no birds, no neighbour, a run under 5 s) is null.
    auto num = [](bool defined, double x) {
        if (!defined) return std::string("null");
        char b[32];
        std::snprintf(b, sizeof b, "%.6g", x);
        return std::string(b);
    };
    const bool any = s.samples > 0;
    const bool near = s.nearest_samples > 0;
    const double n = static_cast<double>(std::max<std::size_t>(s.samples, 1));
    const double v0 = static_cast<double>(o.model.flight.preferred_speed);
    std::string out = "{\"birds\": " + std::to_string(o.birds) + ", \"seconds\": " + num(true, o.seconds) +
                      ", \"preferred_speed\": " + num(true, v0) + ", \"speed_band\": [" +
                      num(true, v0 * static_cast<double>(o.model.flight.min_speed_fraction)) + ", " +
                      num(true, v0 * static_cast<double>(o.model.flight.max_speed_fraction)) + "]" +
                      ", \"speed_min\": " + num(any, s.speed_min) + ", \"speed_max\": " + num(any, s.speed_max) +
                      ", \"altitude_min\": " + num(any, s.altitude_min) +
                      ", \"altitude_max\": " + num(any, s.altitude_max) +
                      ", \"roost_radius\": " + num(true, static_cast<double>(f.roost_radius())) +
                      ", \"roost_distance_mean\": " + num(any, s.roost_distance_sum / n) +
                      ", \"polarization_mean\": " + num(any, s.polarization_sum / n) +
                      ", \"nearest_min\": " + num(near, s.nearest_min) + ", \"nearest_mean\": " +
                      num(near, s.nearest_sum / static_cast<double>(std::max<std::size_t>(s.nearest_samples, 1))) +
                      ", \"disturbances\": [";
    bool first = true;
    for (const auto& d : f.disturbances()) {
        out += std::string(first ? "" : ", ") + "{\"t\": " + num(true, d.t) +
               ", \"seeded\": " + std::to_string(d.seeded) + ", \"reached\": " + std::to_string(d.reached) + "}";
        first = false;
    }
    out += "], \"wall_ms_per_step\": " + num(true, wall_ms_per_step) + "}";
    return out;
}

inline int starlings_main(const arguments& args, std::string& error) {
    starling_options o;
    if (!parse_starlings(args, o, error)) return 2;
    boids::starling::flock<fvec3> f;
    std::vector<fvec3> p, v;
    if (!o.load.empty()) {
        std::vector<unsigned char> bytes;
        if (!read_snapshot(o.load, bytes, error) || !load_starlings(o.load, bytes, f, p, v, error)) return 2;
        o.model = f.parameters();
        o.scene = o.model.roost_gain == 0 && !o.model.scheduled_disturbances ? "free" : "roost";
        o.model_name = o.model.separation_ahead > 1 ? "field" : "source";
        o.birds = p.size();
        o.seed = f.parameters().seed;
        o.perception_every = f.parameters().perception_every;
        if (!o.save.empty() &&
            std::llround(o.save_at / static_cast<double>(o.model.dt)) < static_cast<long long>(f.steps())) {
            error = "--save-at: before the loaded time " + std::to_string(f.time()) + " s";
            return 2;
        }
    }
    double wall = 0;
    std::vector<unsigned char> saved;
    starling_measurement<fvec3> measure;
    measure.turn_at = o.turn_at;
    measure.first = measure.next = o.measure_from;
    const starling_stats s = run_starlings(o, f, p, v, wall, !o.load.empty(), o.save.empty() ? nullptr : &saved,
                                           o.measure.empty() && o.turn_at < 0 ? nullptr : &measure);
    if (!o.save.empty() && !write_snapshot(o.save, saved, error)) return 2;
    const std::string measured = o.measure.empty() ? "" : measure.json(o.scene, o.model_name, p.size(), o.seed);
    if (!o.measure.empty() && o.measure != "-" && !write_file_atomically(o.measure, measured + "\n", error)) return 2;
    if (!o.out.empty()) {
        std::vector<row> rows;
        rows.reserve(p.size());
        for (std::size_t i = 0; i < p.size(); ++i) rows.push_back({p[i].x, p[i].y, p[i].z, v[i].x, v[i].y, v[i].z});
        if (!write_file_atomically(o.out, format_csv("x,y,z,vx,vy,vz", rows), error)) return 2;
    }
    std::printf("starlings: %llu birds, %.6g s in steps of %.6g s, perception every %llu, %llu threads, %.3f ms/step\n",
                o.birds, o.seconds, static_cast<double>(o.model.dt), o.perception_every, o.threads, wall);
    if (o.json) std::printf("%s\n", starling_json(o, f, s, wall).c_str());
    if (o.measure == "-") std::printf("%s\n", measured.c_str());  // last: the line a script reads
    return 0;
}

}  // namespace lab

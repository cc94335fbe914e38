// boids_web.cpp - the labs in a browser: boids-demo's scenes (examples/demo/scenes.hpp)
// behind a small C interface for web/app.js. Compiled to WebAssembly by
// scripts/build-web.sh; the page draws what these functions leave in memory.
#ifdef __EMSCRIPTEN__
#  include <emscripten/emscripten.h>
#else  // the native build of the same scenes, for the speed comparison (web/native_speed.cpp)
#  define EMSCRIPTEN_KEEPALIVE
#endif
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include "flock.hpp"   // boids-lab's flock run, for the native-equality check
#include "scenes.hpp"  // boids-demo's scenes: warm-up, flock and hawk, starlings

namespace {
demo::warmup_scene warmup;
demo::flock_scene the_flock;
demo::starling_scene starlings;
std::vector<float> drawn;  // x, y[, z], vx, vy[, vz] per boid, for the page
std::string text;          // the last string handed out
}  // namespace

extern "C" {

// --- warm-up: one vehicle; mode 0 seek, 1 flee, 2 arrive ---
EMSCRIPTEN_KEEPALIVE void warmup_set(int mode, float max_speed, float max_force, float reaction_time, float slow_radius,
                                     float panic_radius) {
    warmup.mode = mode;
    warmup.limits = {max_speed, max_force, reaction_time, 0.f};
    warmup.slow_radius = slow_radius;
    warmup.panic_radius = panic_radius;
}
EMSCRIPTEN_KEEPALIVE void warmup_target(float x, float y) { warmup.target = {x, y}; }
EMSCRIPTEN_KEEPALIVE float* warmup_step(float dt) {
    if (warmup.limits.validate().ok()) warmup.step(dt);
    drawn = {warmup.position.x, warmup.position.y, warmup.velocity.x,
             warmup.velocity.y, warmup.target.x,   warmup.target.y};
    return drawn.data();
}

// --- flock and hawk (the lesson's lab, float) ---
EMSCRIPTEN_KEEPALIVE void flock_reset(int count, int seed) {
    the_flock.count = count;
    the_flock.seed = static_cast<std::uint64_t>(seed);
    the_flock.reset();
}
EMSCRIPTEN_KEEPALIVE void flock_weights(float separation, float alignment, float cohesion, float view_radius,
                                        float view_angle, float max_speed, float max_force, float reaction_time,
                                        int topological, int k) {
    the_flock.cfg.separation_weight = separation;
    the_flock.cfg.alignment_weight = alignment;
    the_flock.cfg.cohesion_weight = cohesion;
    the_flock.cfg.view_radius = view_radius;
    the_flock.cfg.view_angle = view_angle;
    the_flock.cfg.limits.max_speed = max_speed;
    the_flock.cfg.limits.max_force = max_force;
    the_flock.cfg.limits.reaction_time = reaction_time;
    the_flock.cfg.neighbors =
        topological != 0 ? boids::neighborhood_kind::topological : boids::neighborhood_kind::metric;
    the_flock.cfg.k = static_cast<std::size_t>(k > 0 ? k : 1);
}
EMSCRIPTEN_KEEPALIVE void flock_hawk(int active, float x, float y) {
    the_flock.hawk_active = active != 0;
    the_flock.cfg.predator = {x, y};
}
EMSCRIPTEN_KEEPALIVE void flock_preset(const char* name) { the_flock.preset(name); }
EMSCRIPTEN_KEEPALIVE float flock_world_width() { return the_flock.cfg.world.size[0]; }
EMSCRIPTEN_KEEPALIVE float flock_world_height() { return the_flock.cfg.world.size[1]; }
EMSCRIPTEN_KEEPALIVE int flock_count() { return static_cast<int>(the_flock.positions.size()); }
EMSCRIPTEN_KEEPALIVE float* flock_step(float dt) {
    the_flock.step(dt);
    drawn.resize(the_flock.positions.size() * 4);
    for (std::size_t i = 0; i < the_flock.positions.size(); ++i) {
        drawn[4 * i] = the_flock.positions[i].x;
        drawn[4 * i + 1] = the_flock.positions[i].y;
        drawn[4 * i + 2] = the_flock.velocities[i].x;
        drawn[4 * i + 3] = the_flock.velocities[i].y;
    }
    return drawn.data();
}
EMSCRIPTEN_KEEPALIVE double flock_step_ms() { return the_flock.step_ms; }
EMSCRIPTEN_KEEPALIVE float flock_spacing() {
    the_flock.measure();
    return the_flock.spacing;
}
EMSCRIPTEN_KEEPALIVE float flock_order() { return the_flock.order; }

// --- starlings (3D) ---
EMSCRIPTEN_KEEPALIVE void starlings_reset(int count, int seed) {
    starlings.count = count;
    starlings.seed = static_cast<std::uint64_t>(seed);
    starlings.reset();
}
// 1: the parameters matched to the field data (else the source's); 1: free flight (else
// over the roost). Starts over.
EMSCRIPTEN_KEEPALIVE void starlings_model(int field, int free_flight) { starlings.use(field != 0, free_flight != 0); }
EMSCRIPTEN_KEEPALIVE void starlings_set(float alignment, float cohesion, float separation_radius, float noise,
                                        float roost_gain, float preferred_speed, float max_acceleration,
                                        float response_time) {
    starlings.params.alignment = alignment;
    starlings.params.cohesion = cohesion;
    starlings.params.separation_radius = separation_radius;
    starlings.params.noise = noise;
    starlings.params.roost_gain = roost_gain;
    starlings.params.flight.preferred_speed = preferred_speed;
    starlings.params.flight.max_acceleration = max_acceleration;
    starlings.params.flight.response_time = response_time;
}
EMSCRIPTEN_KEEPALIVE void starlings_neighbours(int k) { starlings.params.k = static_cast<std::size_t>(k > 0 ? k : 1); }
EMSCRIPTEN_KEEPALIVE int starlings_count() { return static_cast<int>(starlings.positions.size()); }
EMSCRIPTEN_KEEPALIVE float* starlings_step(double seconds) {
    starlings.advance(seconds);
    drawn.resize(starlings.positions.size() * 6);
    for (std::size_t i = 0; i < starlings.positions.size(); ++i) {
        const auto& p = starlings.positions[i];
        const auto& v = starlings.velocities[i];
        std::memcpy(&drawn[6 * i], &p.x, sizeof(float) * 3);
        std::memcpy(&drawn[6 * i + 3], &v.x, sizeof(float) * 3);
    }
    return drawn.data();
}
EMSCRIPTEN_KEEPALIVE double starlings_step_ms() { return starlings.step_ms; }
EMSCRIPTEN_KEEPALIVE float starlings_polarization() { return starlings.polarization; }

// --- the lesson run as boids-lab runs it (double): CSV in, CSV after `steps` out ---
EMSCRIPTEN_KEEPALIVE const char* lesson_run(const char* csv, int steps) {
    std::string error;
    const auto rows = lab::parse_csv(csv, "x,y,vx,vy", error);
    if (!rows) {
        text = "error: " + error;
        return text.c_str();
    }
    lab::flock_options o;
    o.steps = static_cast<unsigned long long>(steps);
    lab::flock_state s;
    for (const auto& r : *rows) {
        s.positions.push_back({r[0], r[1]});
        s.velocities.push_back({r[2], r[3]});
    }
    lab::run_flock(o, s);
    text = lab::format_csv("x,y,vx,vy", lab::to_rows(s));
    return text.c_str();
}
}

// scenes.hpp - boids-demo's simulations, without any window code: each scene owns
// its state and the library's parts, steps with a fixed dt, and exposes what the
// panel edits. The rules are the library's; nothing here re-implements one.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include <boids/boids.hpp>
#include "crowd.hpp"      // boids-lab's crowd scenes
#include "formation.hpp"  // boids-lab's formation scene
#include "starlings.hpp"  // boids-lab's starling scene set-up

namespace demo {

struct vec2 {
    float x, y;
};
}  // namespace demo
BOIDS_REGISTER_VECTOR2(demo::vec2, float, x, y)

namespace demo {

// The warm-up: one vehicle seeking, fleeing or arriving at a target.
struct warmup_scene {
    enum mode_t { seek, flee, arrive };
    boids::world<float, 2> world = boids::world<float, 2>::box(boids::edges::wrap, {800.f, 450.f});
    boids::steering_limits<float> limits{220.f, 440.f, 0.2f, 0.f};
    float slow_radius = 140.f, panic_radius = 200.f;
    int mode = seek;
    vec2 position{120.f, 225.f}, velocity{0.f, -120.f}, target{470.f, 225.f};
    vec2 last_force{0.f, 0.f};

    vec2 force() const {
        switch (mode) {
        case flee:
            return boids::flee<vec2>{target, panic_radius, limits, boids::flee_outside::brake}(position, velocity);
        case arrive:
            return boids::arrive<vec2>{target, slow_radius, limits, 1.f, boids::arrive_ramp::linear}(position,
                                                                                                     velocity);
        default: return boids::seek<vec2>{target, limits}(position, velocity);
        }
    }
    void step(float dt) {
        last_force = force();
        boids::integrate(position, velocity, last_force, dt, limits);
        boids::confine(world, position, velocity);
    }
};

enum class finder_choice { all_pairs, grid, automatic };

// Flock and Hawk: the lesson's lab with every parameter exposed.
struct flock_scene {
    boids::flock_config<vec2> cfg = boids::lesson::config<vec2>();
    std::vector<vec2> positions, velocities;
    boids::flock_workspace<vec2> ws;
    boids::all_pairs<vec2> pairs;
    boids::uniform_grid<vec2> grid;
    boids::auto_finder<vec2> automatic;
    finder_choice finder = finder_choice::grid;
    boids::world<float, 2> finder_world{};
    float finder_radius = -1.f;
    bool toroidal = false;
    int count = 60;
    std::uint64_t seed = 7;
    bool hawk_active = false;
    double step_ms = 0;
    float spacing = 0, order = 0;
    std::vector<float> spacing_history, order_history;

    void reset() {
        cfg.world.kind = toroidal ? boids::edges::toroidal : boids::edges::wrap;
        // Bigger flocks get a bigger world at the lesson's density (60 in 900 x 540).
        const float scale = std::max(1.f, std::sqrt(static_cast<float>(count) / 60.f));
        cfg.world.size = {900.f * scale, 540.f * scale};
        boids::lesson::scatter(seed, cfg, positions, velocities, static_cast<std::size_t>(count));
        spacing_history.clear();
        order_history.clear();
    }

    // Presets for the three floats that make the difference.
    void preset(const std::string& name) {
        const auto lesson = boids::lesson::config<vec2>();
        cfg.separate.falloff = boids::separation_falloff::lesson;
        cfg.separation_weight = lesson.separation_weight;
        cfg.alignment_weight = lesson.alignment_weight;
        cfg.cohesion_weight = lesson.cohesion_weight;
        cfg.view_angle = lesson.view_angle;
        if (name == "insects") {  // jittery, loose, barely aligned
            cfg.separation_weight = 2.5f;
            cfg.alignment_weight = 0.15f;
            cfg.cohesion_weight = 1.2f;
            cfg.view_angle = 360.f;
        } else if (name == "fish") {  // a tight, well-aligned school
            cfg.separation_weight = 1.2f;
            cfg.alignment_weight = 2.0f;
            cfg.cohesion_weight = 1.0f;
            cfg.view_angle = 300.f;
        } else if (name == "Godot") {  // "closer = pushier"
            cfg.separate.falloff = boids::separation_falloff::inverse_square;
            cfg.separate.strength = 20000.f;
            cfg.separation_weight = 1.f;
            cfg.alignment_weight = 1.f;
            cfg.cohesion_weight = 1.f;
        }
    }

    void step(float dt) {
        if (!cfg.validate().ok()) return;  // the panel never lets it get here, but be safe
        cfg.has_predator = hawk_active;
        const auto start = std::chrono::steady_clock::now();
        boids::span<vec2> p(positions), v(velocities);
        // Finders keep their buffers between steps; rebuild them only when the world
        // or the radius the panel edits has changed.
        if (cfg.world.kind != finder_world.kind || cfg.world.size != finder_world.size ||
            cfg.view_radius != finder_radius) {
            finder_world = cfg.world;
            finder_radius = cfg.view_radius;
            pairs = boids::all_pairs<vec2>(cfg.world);
            grid = boids::uniform_grid<vec2>(cfg.world, cfg.view_radius);
            automatic = boids::auto_finder<vec2>(cfg.world, cfg.view_radius);
        }
        switch (finder) {
        case finder_choice::all_pairs: boids::flock_step(p, v, cfg, pairs, ws, dt); break;
        case finder_choice::grid: boids::flock_step(p, v, cfg, grid, ws, dt); break;
        case finder_choice::automatic: boids::flock_step(p, v, cfg, automatic, ws, dt); break;
        }
        step_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }

    // The lesson's gauges (spacing through the grid, so 100,000 boids stay cheap).
    void measure() {
        boids::uniform_grid<vec2> g(cfg.world, cfg.view_radius);
        spacing = boids::mean_nearest_distance(boids::span<const vec2>(positions), g);
        order = boids::heading_order(boids::span<const vec2>(velocities));
        spacing_history.push_back(spacing);
        order_history.push_back(order);
        if (spacing_history.size() > 240) {
            spacing_history.erase(spacing_history.begin());
            order_history.erase(order_history.begin());
        }
    }
};

// The starling model in 3D: the lab's scene (a cloud over the roost), flown with
// the model's own dt whatever the frame rate, every parameter the source leaves to
// a slider exposed.
struct starling_scene {
    boids::starling::params<float> params{};
    boids::starling::flock<lab::fvec3> model;
    std::vector<lab::fvec3> positions, velocities;
    int count = 3000, threads = 1;
    std::uint64_t seed = 1;
    double pending = 0, step_ms = 0;
    float polarization = 0;
    // Threads kept from frame to frame; replaced when the slider moves.
    std::unique_ptr<boids::thread_pool> pool;

    // The model's parameters: the source's or those matching the field data
    // (starling::field_params), over the roost or in free flight (no roost, no
    // scheduled disturbances); then starts over.
    bool field = false, free_flight = false;
    void use(bool field_model, bool free) {
        field = field_model;
        free_flight = free;
        params = field ? boids::starling::field_params<float>() : boids::starling::params<float>{};
        if (free_flight) {
            params.roost_gain = 0;
            params.scheduled_disturbances = false;
        }
        reset();
    }
    // One bird on the flock's left edge starts a turn now.
    void start_turn() {
        if (!positions.empty())
            model.start_turn(lab::starling_measurement<lab::fvec3>::edge_bird(positions, velocities));
    }

    void reset() {
        params.seed = seed;
        boids::starling::starting_cloud(seed, static_cast<std::size_t>(count), params, positions, velocities);
        model.reset(params, positions.size());
        pending = 0;
    }
    // Advances by `seconds` of real time in the model's fixed steps (at most 4 a frame).
    void advance(double seconds) {
        if (!params.validate().ok()) return;
        pending = std::min(pending + seconds, 4.0 * static_cast<double>(params.dt));
        // Gains and speeds apply at once; k, candidates and perception need a reset.
        auto& live = model.tune();
        live.alignment = params.alignment;
        live.cohesion = params.cohesion;
        live.separation_radius = params.separation_radius;
        live.noise = params.noise;
        live.roost_gain = params.roost_gain;
        live.flight = params.flight;
        const auto wanted = static_cast<std::size_t>(std::max(threads, 1));
        if (!pool || pool->concurrency() != wanted) pool = std::make_unique<boids::thread_pool>(wanted);
        while (pending >= static_cast<double>(params.dt)) {
            const auto start = std::chrono::steady_clock::now();
            model.step(boids::span<lab::fvec3>(positions), boids::span<lab::fvec3>(velocities), *pool);
            step_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            pending -= static_cast<double>(params.dt);
        }
        polarization = boids::polarization(boids::span<const lab::fvec3>(velocities));
    }
    [[nodiscard]] lab::fvec3 centroid() const {
        double x = 0, y = 0, z = 0;
        for (const auto& p : positions) {
            x += static_cast<double>(p.x);
            y += static_cast<double>(p.y);
            z += static_cast<double>(p.z);
        }
        const double n = static_cast<double>(std::max<std::size_t>(positions.size(), 1));
        return {static_cast<float>(x / n), static_cast<float>(y / n), static_cast<float>(z / n)};
    }
};

// Crowds: boids-lab's scenes (RVO2's circle and blocks, the doorway, the crossing, the
// pillars), stepped once a frame; a click sends every agent toward the clicked point,
// each keeping its place in the crowd, along the navigation field planned anew.
struct crowd_scene {
    static constexpr const char* names[] = {"circle", "blocks", "doorway", "crossing", "pillars"};
    int scenario = 2;  // an index into names
    int count = 0;     // 0: the scene's own
    std::unique_ptr<lab::crowd_scene> scene;
    boids::uniform_grid<lab::vec2> grid{boids::world_for<lab::vec2>{}, 15.0};
    boids::uniform_grid<lab::vec2> gauge{boids::world_for<lab::vec2>{}, 3.0};
    boids::crowd_workspace<lab::vec2> ws;
    boids::thread_pool pool{1};
    double min_x = 0, min_y = 0, width = 1, height = 1;  // what the view shows
    std::size_t arrived = 0, overlaps = 0, steps = 0;
    double closest = 0, step_ms = 0;
    float pass_right = 0.1f, horizon = 10.f;  // the panel's sliders, copied into the config

    void reset() {
        const char* name = names[std::clamp(scenario, 0, 4)];
        const std::size_t n = count > 0 ? static_cast<std::size_t>(count) : lab::crowd_default_agents(name);
        scene = std::make_unique<lab::crowd_scene>(name, n, 0);
        pass_right = float(scene->config.pass_right);
        horizon = float(scene->config.time_horizon);
        gauge.set_cell_size(2 * scene->radius);
        double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
        scene->bounds(x0, y0, x1, y1);
        const double margin = 4 * scene->radius;
        min_x = x0 - margin;
        min_y = y0 - margin;
        width = x1 - x0 + 2 * margin;
        height = y1 - y0 + 2 * margin;
        steps = 0;
        arrived = scene->aim();
        overlaps = 0;
        closest = std::numeric_limits<double>::infinity();
    }
    void step() {
        if (!scene) reset();
        const auto start = std::chrono::steady_clock::now();
        scene->step(grid, ws, pool);
        step_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        ++steps;
        closest = std::numeric_limits<double>::infinity();
        overlaps = lab::count_contacts(gauge, *scene, closest);
        arrived = scene->aim();
    }
    // Every agent heads for `at` plus its offset from the crowd's centre now.
    void send_to(lab::vec2 at) {
        if (!scene || scene->position.empty()) return;
        lab::vec2 c{0, 0};
        for (const auto& p : scene->position) c = boids::add(c, p);
        c = boids::scale(c, 1.0 / static_cast<double>(scene->position.size()));
        for (std::size_t i = 0; i < scene->position.size(); ++i)
            scene->goal[i] = boids::add(at, boids::sub(scene->position[i], c));
        scene->goals_changed();
        arrived = scene->aim();
    }
};

// Formations: boids-lab's formation scene stepped once a frame; dragging moves the
// goal, the anchor marches there (through the gap when the wall is between) and the
// squad follows in formation.
struct formation_scene {
    int pattern = 0;  // wedge, line, column, circle, grid
    int members = 24;
    float gap = 4.5f;  // m, 0: no wall
    bool crowd = true;
    std::unique_ptr<lab::formation_scene> scene;
    boids::uniform_grid<lab::vec2> grid{boids::world_for<lab::vec2>{}, 5.0};
    boids::uniform_grid<lab::vec2> gauge{boids::world_for<lab::vec2>{}, 1.0};
    boids::crowd_workspace<lab::vec2> ws;
    boids::thread_pool pool{1};
    double min_x = -42, min_y = -20, width = 84, height = 40;  // what the view shows
    double mean_error = 0, worst_error = 0, closest = 0, step_ms = 0;
    std::size_t beyond = 0, steps = 0;

    void reset() {
        static const char* names[] = {"wedge", "line", "column", "circle", "grid"};
        lab::formation_options o;
        o.pattern = names[std::clamp(pattern, 0, 4)];
        o.members = static_cast<unsigned long long>(std::max(members, 1));
        o.gap = crowd ? static_cast<double>(gap) : 0.0;
        o.avoidance = crowd ? "crowd" : "steering";
        scene = std::make_unique<lab::formation_scene>(o);
        steps = 0;
        measure();
    }
    void measure() {
        scene->errors(mean_error, worst_error);
        closest = lab::closest_pair(gauge, scene->position, 4 * scene->radius);
        beyond = 0;
        for (const auto& p : scene->position) beyond += p.x > 0.5 + scene->radius ? 1 : 0;
    }
    void step() {
        if (!scene) reset();
        const auto start = std::chrono::steady_clock::now();
        scene->step(worst_error, crowd, grid, gauge, ws, pool);
        step_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        ++steps;
        measure();
    }
    void send_to(lab::vec2 at) {
        if (scene) scene->goal = at;
    }
};

}  // namespace demo

// custom_blend.cpp - flock_step on its fast path with a blend of your own.
//
// The step finds every boid's neighbours and sums them (a neighborhood_summary);
// the blend turns the boid and its summary into an acceleration. Here: the three
// flock rules, a goal that moves, four predators, two species with their own
// weights, and rocks to steer round: a few lines each, and still the fused kernel.
#include <boids/boids.hpp>
#include <glm/vec2.hpp>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
    using vec = glm::vec2;
    // The neighbourhood (metric, 50 px, no cone) and the limits the step integrates with.
    boids::flock_config<vec> cfg;
    cfg.world = boids::world_for<vec>::box(boids::edges::toroidal, {1600.f, 1000.f});
    cfg.limits = boids::steering_limits<float>{160.f, 320.f, 0.25f, 60.f};
    cfg.view_radius = 50.f;
    cfg.separate = boids::separation<vec>{22.f, boids::separation_falloff::lesson};
    const auto lim = cfg.limits;

    std::vector<vec> pos, vel;
    boids::lesson::scatter(5, cfg, pos, vel, 4000);
    // Per-boid data the blend reads by index: a species (0 or 1) and its weights.
    std::vector<unsigned char> species(pos.size());
    for (std::size_t i = 0; i < species.size(); ++i) species[i] = static_cast<unsigned char>(i % 3 == 0);
    const std::array<float, 2> cohesion_weight{0.8f, 0.3f}, goal_weight{0.1f, 0.4f};

    std::array<vec, 4> predators{vec(200, 200), vec(1400, 200), vec(200, 800), vec(1400, 800)};
    const std::array<boids::sphere<vec>, 2> rocks{{{vec(800, 500), 60.f}, {vec(400, 300), 40.f}}};
    vec goal(800, 500);

    // The rules as parts: each reads the summary; seek, flee and avoid read the boid.
    const boids::separation_rule<vec> separate{cfg.separate, lim};
    const boids::alignment_rule<vec> align{boids::alignment<vec>{}, lim};
    const boids::cohesion_rule<vec> cohere{boids::cohesion<vec>{}, lim};
    const boids::avoid_obstacles<vec> avoid{boids::span<const boids::sphere<vec>>(rocks.data(), rocks.size()), 4.f,
                                            lim};

    auto blend = [&](const boids::boid_view<vec>& b, const boids::neighborhood_summary<vec>& s) {
        const std::size_t kind = species[b.index];
        vec a = separate(b, s) * 1.8f + align(b, s) * 1.0f + cohere(b, s) * cohesion_weight[kind];
        a += boids::seek<vec>{goal, lim}(b.position, b.velocity) * goal_weight[kind];
        for (const vec& hawk : predators) {  // flee every predator within 150 px, across the torus's edge too
            const vec away = boids::offset(cfg.world, hawk, b.position);
            a += boids::flee<vec>{vec(0), 150.f, lim, boids::flee_outside::ignore}(away, b.velocity) * 3.0f;
        }
        // Rocks first: a priority blend keeps the dodge whole when there is one.
        return boids::blend_priority(lim.max_force, 1e-3f, avoid(b.position, b.velocity),
                                     boids::clamp_magnitude(a, lim.max_force));
    };

    boids::uniform_grid<vec> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<vec> ws;
    const float dt = 1.f / 60.f;
    for (int step = 0; step < 600; ++step) {
        const float t = static_cast<float>(step) * dt;
        goal = vec(800.f + 300.f * std::cos(0.3f * t), 500.f + 200.f * std::sin(0.3f * t));
        for (auto& hawk : predators) hawk.x = std::fmod(hawk.x + 120.f * dt, 1600.f);
        boids::flock_step(pos, vel, cfg, grid, ws, dt, blend);
    }
    std::printf("10 s, %zu boids: order %.3f, spacing %.1f px; path: %s (%s), %zu boids off the kernel\n", pos.size(),
                static_cast<double>(boids::heading_order(vel)),
                static_cast<double>(boids::mean_nearest_distance(pos, grid)),
                ws.report.path == boids::flock_path::fused_kernel ? "fused kernel" : "per boid", ws.report.reason,
                ws.report.boids_off_kernel);
    bool finite = true;
    for (std::size_t i = 0; i < pos.size(); ++i)
        finite = finite && boids::is_finite(pos[i]) && boids::is_finite(vel[i]);
    return finite && ws.report.path == boids::flock_path::fused_kernel ? 0 : 1;
}

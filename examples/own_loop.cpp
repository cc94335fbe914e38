// own_loop.cpp - the lesson's flock written as a user's own loop, from the same
// parts flock_step uses: a finder, the rules, a blend, the integrator.
// Every boid looks at the same old state; then all move.
#include <boids/boids.hpp>
#include <glm/vec2.hpp>
#include <cstdio>
#include <vector>

int main() {
    using vec = glm::vec2;
    const auto cfg = boids::lesson::config<vec>();  // the lesson's parameters, in float
    std::vector<vec> pos, vel;
    boids::lesson::scatter(7, cfg, pos, vel, 60);

    boids::uniform_grid<vec> grid(cfg.world, cfg.view_radius);
    std::vector<vec> accel(pos.size());
    std::vector<boids::neighbor<float, 2>> scratch(64);  // reused: no allocation per step
    const float dt = 1.f / 60.f;

    for (int step = 0; step < 600; ++step) {
        grid.build(boids::span<const vec>(pos));
        for (std::size_t i = 0; i < pos.size(); ++i) {  // look
            boids::buffer_sink<float, 2> found{boids::span<boids::neighbor<float, 2>>(scratch)};
            const auto cone = boids::vision_cone<float, 2>::from(vel[i], cfg.view_angle);
            grid.for_each_within(i, cfg.view_radius, cone, found);
            const auto hood = found.result();
            // Our own blend: the lesson's weights, but we could add anything here.
            accel[i] = boids::blend_weighted(
                cfg.limits.max_force, boids::weighted<vec>{1.8f, cfg.separate(i, vel[i], hood, cfg.limits)},
                boids::weighted<vec>{1.0f, cfg.align(vel[i], hood, boids::span<const vec>(vel), cfg.limits)},
                boids::weighted<vec>{0.8f, cfg.cohere(vel[i], hood, cfg.limits)});
        }
        for (std::size_t i = 0; i < pos.size(); ++i) {  // then move
            boids::integrate(pos[i], vel[i], accel[i], dt, cfg.limits);
            boids::confine(cfg.world, pos[i], vel[i]);
        }
    }
    std::printf("after 10 s: spacing %.1f px, order %.3f\n",
                static_cast<double>(boids::mean_nearest_distance(boids::span<const vec>(pos), cfg.world)),
                static_cast<double>(boids::heading_order(boids::span<const vec>(vel))));
    return 0;
}

// large_flock.cpp - a flock of 200,000 boids stepped on a thread pool, with the
// program's own arrays kept in the grid's cell order (neighbors/cell_order.hpp) so
// the step's passes over them run in sequence instead of at random.
#include <boids/boids.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

struct vec2 {
    float x, y;
};
BOIDS_REGISTER_VECTOR2(vec2, float, x, y)

int main() {
    const std::size_t n = 200000;
    const float side = std::sqrt(float(n));  // about one boid per unit of area
    boids::flock_config<vec2> cfg;
    cfg.world.kind = boids::edges::toroidal;
    cfg.world.size = {side, side};
    cfg.limits = {1.0f, 2.0f, 0.5f, 0.3f};  // max speed, max force, reaction time, min speed
    cfg.view_radius = 2.2f;
    cfg.separate = {1.1f, boids::separation_falloff::inverse_square, 0.05f};
    cfg.align = {boids::social_form::linear, 1.0f};
    cfg.cohere = {boids::social_form::linear, 0.2f};
    if (const auto check = cfg.validate(); !check) {
        std::fprintf(stderr, "large_flock: %s %s\n", check.field, check.reason);
        return 1;
    }

    std::vector<vec2> pos, vel;
    boids::lesson::scatter(42, cfg, pos, vel, n);
    std::vector<std::uint32_t> tag(n);  // something of ours per boid: it must follow its boid
    for (std::size_t i = 0; i < n; ++i) tag[i] = static_cast<std::uint32_t>(i);

    boids::uniform_grid<vec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<vec2> ws;
    boids::thread_pool pool(std::thread::hardware_concurrency());  // ours, kept between frames
    std::vector<vec2> scratch;                                     // reused by every reorder
    std::vector<std::uint32_t> tag_scratch;

    const int frames = 96, reorder_every = 32;
    double unordered_ms = 0, ordered_ms = 0;
    for (int frame = 0; frame < frames; ++frame) {
        const auto start = std::chrono::steady_clock::now();
        boids::flock_step(boids::span<vec2>(pos), boids::span<vec2>(vel), cfg, grid, ws, 0.1f, pool);
        // From frame 32 on, put every per-boid array in the order of the cells, alike:
        // grid.order() is the cell order of the positions this step started from.
        if (frame + 1 >= reorder_every && (frame + 1) % reorder_every == 0) {
            boids::apply_order(grid.order(), pos, scratch);
            boids::apply_order(grid.order(), vel, scratch);
            boids::apply_order(grid.order(), tag, tag_scratch);
        }
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        (frame < reorder_every ? unordered_ms : ordered_ms) += ms;
    }
    // The flock clumps as it flies (cohesion), so the two times are a hint, not a
    // measurement: boids-bench's step/standard2d_cell_ordered compares like with like.
    // Every tag is still there once: the arrays moved together.
    std::vector<char> seen(n, 0);
    std::size_t distinct = 0;
    for (const auto t : tag) distinct += seen[t]++ == 0 ? 1u : 0u;
    std::printf(
        "%zu boids, %zu threads: %.1f ms a frame in our own order, %.1f ms in cell order "
        "(reordered every %d frames, included); %zu of %zu tags intact\n",
        n, pool.concurrency(), unordered_ms / reorder_every, ordered_ms / (frames - reorder_every), reorder_every,
        distinct, n);
    return distinct == n ? 0 : 1;
}

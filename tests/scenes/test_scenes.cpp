// Whole scenes: the lesson's table over 30 seeds of our own, and a flock started
// on one spot.
#include "test_support.hpp"
#include <algorithm>
#include <vector>
#include <boids/flock/step.hpp>
#include <boids/gauges.hpp>
#include <boids/models/lesson.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "plain_vectors.hpp"

namespace {
struct gauges {
    double spacing, order;
};
gauges run_lesson(std::uint64_t seed, bool sep, bool ali, bool coh) {
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.use_separation = sep;
    cfg.use_alignment = ali;
    cfg.use_cohesion = coh;
    std::vector<test::dvec2> p, v;
    boids::lesson::scatter(seed, cfg, p, v, boids::lesson::default_boids);
    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<test::dvec2> ws;
    for (int step = 0; step < 600; ++step)
        boids::flock_step(boids::span<test::dvec2>(p), boids::span<test::dvec2>(v), cfg, grid, ws, boids::lesson::dt);
    return {boids::mean_nearest_distance(boids::span<const test::dvec2>(p), cfg.world),
            boids::heading_order(boids::span<const test::dvec2>(v))};
}
double median(std::vector<double> x) {
    std::sort(x.begin(), x.end());
    return x.size() % 2 ? x[x.size() / 2] : 0.5 * (x[x.size() / 2 - 1] + x[x.size() / 2]);
}
}  // namespace

TEST_CASE("the lesson's table holds in median over 30 seeds", "[scene][lesson]") {
    std::vector<double> all_s, all_o, nosep_s, noali_o, nocoh_s;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        const auto all = run_lesson(seed, true, true, true);
        all_s.push_back(all.spacing);
        all_o.push_back(all.order);
        nosep_s.push_back(run_lesson(seed, false, true, true).spacing);
        noali_o.push_back(run_lesson(seed, true, false, true).order);
        nocoh_s.push_back(run_lesson(seed, true, true, false).spacing);
    }
    const double s = median(all_s), o = median(all_o);
    CAPTURE(s, o, median(nosep_s), median(noali_o), median(nocoh_s));
    CHECK(s >= 20.0);
    CHECK(s <= 27.0);
    CHECK(o >= 0.6);
    CHECK(median(nosep_s) < 5.0);
    CHECK(median(noali_o) < 0.25);
    CHECK(median(nocoh_s) > 29.0);
}

TEST_CASE("60 boids started on one spot at rest spread apart, finite throughout", "[scene]") {
    const auto cfg = boids::lesson::config<test::dvec2>();
    std::vector<test::dvec2> p(60, test::dvec2{450, 270}), v(60, test::dvec2{0, 0});
    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<test::dvec2> ws;
    bool finite = true;
    for (int step = 0; step < 300; ++step) {
        boids::flock_step(boids::span<test::dvec2>(p), boids::span<test::dvec2>(v), cfg, grid, ws, boids::lesson::dt);
        for (std::size_t i = 0; i < p.size(); ++i) finite = finite && boids::is_finite(p[i]) && boids::is_finite(v[i]);
    }
    CHECK(finite);
    const double spacing = boids::mean_nearest_distance(boids::span<const test::dvec2>(p), cfg.world);
    CAPTURE(spacing);
    CHECK(spacing > 10.0);  // they started 0 px apart
}

TEST_CASE("the lesson flock for a million steps stays finite, in its speed band and in its world",
          "[scene][long][million steps]") {
    const auto cfg = boids::lesson::config<test::dvec2>();
    std::vector<test::dvec2> p, v;
    boids::lesson::scatter(7, cfg, p, v, boids::lesson::default_boids);
    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<test::dvec2> ws;
    const double lo = cfg.limits.min_speed * (1 - 1e-12), hi = cfg.limits.max_speed * (1 + 1e-12);
    std::size_t bad = 0;
    for (long step = 0; step < 1000000; ++step) {
        boids::flock_step(boids::span<test::dvec2>(p), boids::span<test::dvec2>(v), cfg, grid, ws, boids::lesson::dt);
        if (step % 1000 != 999) continue;  // look every 1000 steps (1,000 looks)
        for (std::size_t i = 0; i < p.size(); ++i) {
            const double s = boids::length(v[i]);
            const bool ok = boids::is_finite(p[i]) && boids::is_finite(v[i]) && s >= lo && s <= hi && p[i].x >= 0 &&
                            p[i].x < cfg.world.size[0] && p[i].y >= 0 && p[i].y < cfg.world.size[1];
            bad += ok ? 0 : 1;
        }
    }
    CHECK(bad == 0);
}

// boids/models/lesson.hpp - the Lesson 5 "Flock and Hawk" lab, as a preset of the
// library's parts (tests/fixtures/lesson/README.md states every rule).
#pragma once
#include <cmath>
#include <vector>
#include "../flock/step.hpp"
#include "../random.hpp"

namespace boids {
namespace lesson {

// 900 x 540 px, positions wrap but neighbours are not seen across the edge; 60 boids;
// speeds 60-160 px/s; 320 px/s^2; reaction 0.25 s; view 60 px in a 270 degree cone;
// separation 24 px; panic 110 px; weights 1.8 / 1.0 / 0.8 / 3.0; dt 1/60 s.
template <class V>
[[nodiscard]] flock_config<V> config() {
    static_assert(dimension_v<V> == 2, "the lesson's lab is 2D");
    using S = scalar_t<V>;
    flock_config<V> c;
    c.world = world_for<V>::box(edges::wrap, {S(900), S(540)});
    c.limits = steering_limits<S>{S(160), S(320), S(0.25), S(60)};
    c.neighbors = neighborhood_kind::metric;
    c.view_radius = S(60);
    c.view_angle = S(270);
    c.separate = separation<V>{S(24), separation_falloff::lesson};
    c.align = alignment<V>{social_form::lesson};
    c.cohere = cohesion<V>{social_form::lesson};
    c.separation_weight = S(1.8);
    c.alignment_weight = S(1.0);
    c.cohesion_weight = S(0.8);
    c.flee_weight = S(3.0);
    c.panic_radius = S(110);
    return c;
}
inline constexpr std::size_t default_boids = 60;
inline constexpr double dt = 1.0 / 60.0;

// A random start: positions uniform in the world, headings uniform, speeds uniform
// in [min_speed, max_speed]. Seeded and portable (no <random> distributions, whose
// output differs between standard libraries).
template <class V>
void scatter(std::uint64_t seed, const flock_config<V>& cfg, std::vector<V>& positions, std::vector<V>& velocities,
             std::size_t n) {
    using S = scalar_t<V>;
    positions.resize(n);
    velocities.resize(n);
    random_stream rng(hash_combine(seed, 0x6c6573736f6eull));
    for (std::size_t i = 0; i < n; ++i) {
        positions[i] = boids::generate<V>([&](std::size_t d) {
            const double extent = cfg.world.has_box() ? static_cast<double>(cfg.world.size[d]) : 100.0;
            const S x = static_cast<S>(rng.uniform(0.0, extent));
            // Rounding to S can reach the far edge itself, outside a torus's [0, size).
            return cfg.world.has_box() && !(x < cfg.world.size[d]) ? std::nextafter(cfg.world.size[d], S(0)) : x;
        });
        const V dir = boids::unit_direction<V>(rng.next());
        const double speed =
            rng.uniform(static_cast<double>(cfg.limits.min_speed), static_cast<double>(cfg.limits.max_speed));
        velocities[i] = boids::scale(dir, static_cast<S>(speed));
    }
}

}  // namespace lesson
}  // namespace boids

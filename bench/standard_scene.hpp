// bench/standard_scene.hpp - the standard scene of boids-bench and bench/ab.sh:
// N boids uniform in a square of side sqrt(N) (density 1), toroidal, view radius
// sqrt(15/pi) (about 15 neighbours), inverse-square separation + alignment +
// cohesion, no cone, speed band. In 3D a cube of side cbrt(N), radius cbrt(45/(4 pi)).
// Float vectors as a user's plain structs (f2, f3), registered with the library's
// macros. Names the library as `boids` (bench/ab.sh's sides alias their renamed
// copies); include it after <boids/boids.hpp>.
#pragma once
#include <cmath>
#include <cstddef>

namespace {
struct f2 {
    float x, y;
};
struct f3 {
    float x, y, z;
};
}  // namespace
BOIDS_REGISTER_VECTOR2(f2, float, x, y)
BOIDS_REGISTER_VECTOR3(f3, float, x, y, z)

template <class V>
boids::flock_config<V> standard_scene(std::size_t n) {
    using S = boids::scalar_t<V>;
    constexpr bool three = boids::dimension_v<V> == 3;
    const double side = three ? std::cbrt(double(n)) : std::sqrt(double(n));
    const double radius = three ? std::cbrt(45.0 / (4.0 * M_PI)) : std::sqrt(15.0 / M_PI);
    boids::flock_config<V> c;
    c.world.kind = boids::edges::toroidal;
    c.world.size.fill(S(side));
    c.limits = {S(1.0), S(2.0), S(0.5), S(0.3)};
    c.view_radius = S(radius);
    c.separate = {S(radius * 0.5), boids::separation_falloff::inverse_square, S(0.05)};
    c.align = {boids::social_form::linear, S(1.0)};
    c.cohere = {boids::social_form::linear, S(0.2)};
    c.max_neighbors = 64;
    return c;
}

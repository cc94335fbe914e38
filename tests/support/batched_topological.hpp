// A flock the grid's topological step finishes in batches (flock/detail/finish.hpp): toroidal,
// k = 7, inverse-square separation, linear alignment and cohesion. Shared by the flock
// and allocation tests.
#pragma once
#include <boids/flock/step.hpp>

namespace test {
template <class V>
boids::flock_config<V> batched_topological_config(double side) {
    using S = boids::scalar_t<V>;
    boids::flock_config<V> c;
    c.world.kind = boids::edges::toroidal;
    c.world.size.fill(static_cast<S>(side));
    c.limits = {S(1.0), S(2.0), S(0.5), S(0.3)};
    c.neighbors = boids::neighborhood_kind::topological;
    c.k = 7;
    c.view_radius = S(3.0);
    c.separate = {S(1.0), boids::separation_falloff::inverse_square, S(0.05)};
    c.align = {boids::social_form::linear, S(1.0)};
    c.cohere = {boids::social_form::linear, S(0.2)};
    return c;
}
}  // namespace test

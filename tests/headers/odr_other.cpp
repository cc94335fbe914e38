#include <boids/boids.hpp>

namespace {
struct vec2 {
    double x, y;
};
}  // namespace
BOIDS_REGISTER_VECTOR2(vec2, double, x, y)

double other_unit_step() {
    const boids::steering_limits<double> limits{10.0, 20.0, 0.5, 0.0};
    vec2 p{0, 0}, v{1, 0};
    const vec2 a = boids::seek<vec2>{vec2{5, 5}, limits}(p, v);
    boids::integrate(p, v, a, 0.1, limits);
    return boids::length(p);
}

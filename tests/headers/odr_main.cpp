// Two translation units include the umbrella header and use the same templates;
// linking them proves nothing non-inline is defined in a header.
#include <boids/boids.hpp>

double other_unit_step();

namespace {
struct vec2 {
    double x, y;
};
}  // namespace
BOIDS_REGISTER_VECTOR2(vec2, double, x, y)

int main() {
    const boids::steering_limits<double> limits{10.0, 20.0, 0.5, 0.0};
    vec2 p{0, 0}, v{1, 0};
    const vec2 a = boids::seek<vec2>{vec2{5, 5}, limits}(p, v);
    boids::integrate(p, v, a, 0.1, limits);
    const double here = boids::length(p);
    const double there = other_unit_step();
    return (here == there && here > 0) ? 0 : 1;
}

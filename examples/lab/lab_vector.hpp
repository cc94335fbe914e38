// lab_vector.hpp - boids-lab computes in double precision on its own plain
// vector types, plugged into the library through the vector policy.
#pragma once
#include <boids/vector.hpp>

namespace lab {
struct vec2 {
    double x, y;
};
struct vec3 {
    double x, y, z;
};
}  // namespace lab

BOIDS_REGISTER_VECTOR2(lab::vec2, double, x, y)
BOIDS_REGISTER_VECTOR3(lab::vec3, double, x, y, z)

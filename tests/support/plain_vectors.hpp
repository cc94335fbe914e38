// plain_vectors.hpp - vector types of the tests' own, plain structs plugged in through
// the vector policy, as a user's engine type would be.
#pragma once
#include <boids/vector.hpp>

namespace test {
struct dvec2 {
    double x, y;
};
struct dvec3 {
    double x, y, z;
};
struct fvec2 {
    float x, y;
};
struct fvec3 {
    float x, y, z;
};
}  // namespace test

BOIDS_REGISTER_VECTOR2(test::dvec2, double, x, y)
BOIDS_REGISTER_VECTOR3(test::dvec3, double, x, y, z)
BOIDS_REGISTER_VECTOR2(test::fvec2, float, x, y)
BOIDS_REGISTER_VECTOR3(test::fvec3, float, x, y, z)

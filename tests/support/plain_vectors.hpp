// plain_vectors.hpp - double-precision vector types of the tests' own, plain structs
// plugged in through the vector policy, as a user's engine type would be.
#pragma once
#include <boids/vector.hpp>

namespace test {
struct dvec2 {
    double x, y;
};
struct dvec3 {
    double x, y, z;
};
}  // namespace test

BOIDS_REGISTER_VECTOR2(test::dvec2, double, x, y)
BOIDS_REGISTER_VECTOR3(test::dvec3, double, x, y, z)

// test_support.hpp - shared by the test files: Catch2 v2/v3, the vector types every
// test runs over, and readable printing of vectors.
#pragma once
#if BOIDS_CATCH_V3
#  include <catch2/catch_all.hpp>
#else
#  include <catch2/catch.hpp>
#endif
#include <boids/vector.hpp>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#if BOIDS_TEST_HAVE_GLM
#  include <boids/glm.hpp>
#endif

// A user type with no operators at all (raylib's Vector2 shape).
struct plain_vec2 {
    float x, y;
};
struct plain_dvec3 {
    double x, y, z;
};
BOIDS_REGISTER_VECTOR2(plain_vec2, float, x, y)
BOIDS_REGISTER_VECTOR3(plain_dvec3, double, x, y, z)

#if BOIDS_TEST_HAVE_GLM
#  define BOIDS_VEC2_TYPES glm::vec2, glm::dvec2, plain_vec2
#  define BOIDS_VEC3_TYPES glm::vec3, glm::dvec3, plain_dvec3
#  define BOIDS_ALL_VEC_TYPES glm::vec2, glm::dvec2, plain_vec2, glm::vec3, glm::dvec3, plain_dvec3
#else
#  define BOIDS_VEC2_TYPES plain_vec2
#  define BOIDS_VEC3_TYPES plain_dvec3
#  define BOIDS_ALL_VEC_TYPES plain_vec2, plain_dvec3
#endif

namespace test {
template <class V>
std::string show(const V& v) {
    std::ostringstream s;
    s << '(';
    for (std::size_t i = 0; i < boids::dimension_v<V>; ++i)
        s << (i ? ", " : "") << static_cast<double>(boids::get(v, i));
    s << ')';
    return s.str();
}
// Builds a V from up to three doubles (extra ones ignored in 2D).
template <class V>
V make(double x, double y, double z = 0) {
    return boids::generate<V>(
        [&](std::size_t i) { return static_cast<boids::scalar_t<V>>(i == 0 ? x : (i == 1 ? y : z)); });
}
template <class V>
double len(const V& v) {
    return static_cast<double>(boids::length(v));
}
// Tolerance scaled to the scalar type.
template <class V>
constexpr double eps() {
    return sizeof(boids::scalar_t<V>) == 4 ? 1e-5 : 1e-12;
}
template <class V>
bool near(const V& a, const V& b, double tol) {
    for (std::size_t i = 0; i < boids::dimension_v<V>; ++i)
        if (!(std::fabs(static_cast<double>(boids::get(a, i)) - static_cast<double>(boids::get(b, i))) <= tol))
            return false;
    return true;
}
}  // namespace test

// boids/glm.hpp - registers GLM's vec2 and vec3 (float or double, any qualifier).
// Include it (boids.hpp does when GLM is on the include path).
#pragma once
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include "vector.hpp"

namespace boids {

template <class T, glm::qualifier Q>
struct vector_traits<glm::vec<2, T, Q>, std::enable_if_t<std::is_floating_point_v<T>>> {
    using scalar = T;
    static constexpr std::size_t dimension = 2;
    static constexpr scalar get(const glm::vec<2, T, Q>& v, std::size_t i) noexcept { return i == 0 ? v.x : v.y; }
    static constexpr glm::vec<2, T, Q> make(scalar x, scalar y) noexcept { return glm::vec<2, T, Q>(x, y); }
};

template <class T, glm::qualifier Q>
struct vector_traits<glm::vec<3, T, Q>, std::enable_if_t<std::is_floating_point_v<T>>> {
    using scalar = T;
    static constexpr std::size_t dimension = 3;
    static constexpr scalar get(const glm::vec<3, T, Q>& v, std::size_t i) noexcept {
        return i == 0 ? v.x : (i == 1 ? v.y : v.z);
    }
    static constexpr glm::vec<3, T, Q> make(scalar x, scalar y, scalar z) noexcept {
        return glm::vec<3, T, Q>(x, y, z);
    }
};

}  // namespace boids

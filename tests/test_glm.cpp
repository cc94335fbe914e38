// Tests of boids/glm.hpp: GLM's types are registered for every qualifier.
#include "test_support.hpp"
#include <glm/vec4.hpp>

#if BOIDS_TEST_HAVE_GLM
TEST_CASE("GLM vectors of every precision qualifier are registered", "[glm]") {
    STATIC_REQUIRE(boids::is_vector_v<glm::vec2>);
    STATIC_REQUIRE(boids::is_vector_v<glm::dvec3>);
    STATIC_REQUIRE(boids::is_vector_v<glm::vec<2, float, glm::highp>>);
    STATIC_REQUIRE(boids::is_vector_v<glm::vec<3, double, glm::lowp>>);
    STATIC_REQUIRE(boids::is_vector_v<glm::vec<2, float, glm::packed_mediump>>);
    STATIC_REQUIRE_FALSE(boids::is_vector_v<glm::ivec2>);  // integer vectors are not steering vectors
    STATIC_REQUIRE_FALSE(boids::is_vector_v<glm::vec4>);
    const glm::vec<3, double, glm::lowp> v(1, 2, 2);
    CHECK(boids::length(v) == 3.0);
    // GLM's own v.length() is the component count: ours is the magnitude.
    CHECK(v.length() == 3);
    const glm::vec2 w(3, 4);
    CHECK(boids::length(w) == 5.f);
}
#endif  // without GLM (not installed) these tests are not built; run-tests.sh installs it

// Tests of boids/flock/config.hpp: flock_config::validate names the field it refuses,
// and the cap reads as documented.
#include "test_support.hpp"
#include <boids/flock/config.hpp>
#include <limits>
#include <string>

TEMPLATE_TEST_CASE("flock_config::validate names the field, for metric and topological neighbours", "[config]",
                   plain_vec2, plain_dvec3) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    boids::flock_config<V> cfg;
    CHECK(cfg.validate());
    // A topological view_radius is finite too (docs/reference.md): "any distance" is a
    // radius wider than the flock.
    cfg.neighbors = boids::neighborhood_kind::topological;
    cfg.view_radius = std::numeric_limits<S>::infinity();
    CHECK(std::string(cfg.validate().field) == "view_radius");
    cfg.view_radius = S(1e6);
    CHECK(cfg.validate());
    cfg.k = 0;
    CHECK(std::string(cfg.validate().field) == "k");
    cfg.k = 7;
    cfg.view_angle = S(400);
    CHECK(std::string(cfg.validate().field) == "view_angle");
    cfg.view_angle = S(270);
    cfg.separate.radius = -S(1);
    CHECK(std::string(cfg.validate().field) == "separation.radius");
    cfg.separate.radius = S(1);
    CHECK(cfg.validate());
    // No cap: 0 and no_cap read the same.
    cfg.max_neighbors = 0;
    CHECK(cfg.neighbor_cap() == boids::no_cap);
    cfg.max_neighbors = 16;
    CHECK(cfg.neighbor_cap() == 16);
}

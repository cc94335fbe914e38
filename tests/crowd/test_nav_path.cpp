// crowd/nav_path.hpp: A* pulled taut, against the mazes' true shortest paths; every
// leg clear; no route where there is none.
#include "test_support.hpp"
#include <cmath>
#include <vector>
#include <boids/crowd/nav_path.hpp>
#include "nav_mazes.hpp"

namespace {
using V = test::dvec2;
using S = double;
}  // namespace

TEST_CASE("find_path: corridors within 2% of the shortest path, every leg clear", "[crowd][nav]") {
    for (const auto& m : nav_test::mazes(1.5, 0.375)) {
        boids::nav_grid<V> grid(m.obstacles, m.area);
        std::vector<V> corners;
        for (const auto& trip : m.trips) {
            INFO(m.name << ": from (" << trip.first.x << ", " << trip.first.y << ")");
            REQUIRE(boids::find_path(grid, trip.first, trip.second, corners));
            REQUIRE(corners.size() >= 2);
            CHECK(corners.front().x == trip.first.x);
            CHECK(corners.back().y == trip.second.y);
            S length = 0;
            for (std::size_t i = 0; i + 1 < corners.size(); ++i) {
                CHECK(grid.clear_line(corners[i], corners[i + 1]));
                length += boids::distance(corners[i], corners[i + 1]);
                for (int k = 0; k <= 50; ++k)
                    CHECK(m.distance_to_edges(boids::add_scaled(corners[i], boids::sub(corners[i + 1], corners[i]),
                                                                k / 50.0)) >= m.area.clearance);
            }
            const S shortest = m.shortest(trip.first, trip.second);
            INFO("corners " << corners.size() << ", length " << length << ", shortest " << shortest);
            CHECK(length <= shortest * 1.02);
            CHECK(length >= shortest * 0.999);
        }
    }
}

TEST_CASE("find_path: no route, the same cell, a start on a wall", "[crowd][nav]") {
    nav_test::maze m("rooms", 60, 1.0, 0.5);
    m.box(29, 0, 31, 60);
    boids::nav_grid<V> grid(m.obstacles, m.area);
    std::vector<V> corners = {V{1, 1}};
    CHECK_FALSE(boids::find_path(grid, V{10, 10}, V{50, 10}, corners));
    CHECK(corners.empty());
    CHECK_FALSE(boids::find_path(grid, V{10, 10}, V{-100, 10}, corners));
    REQUIRE(boids::find_path(grid, V{10, 10}, V{10.1, 10.1}, corners));
    CHECK(corners.size() == 2);
    REQUIRE(boids::find_path(grid, V{28.8, 10}, V{5, 50}, corners));  // in the band the clearance shuts
    CHECK(corners.size() == 2);
}

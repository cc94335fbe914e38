// crowd/nav_field.hpp: routes along the field against the true shortest paths of
// mazes (a visibility graph over the obstacles grown by the clearance), clearance kept
// from every edge, congestion, and what a field gives where there is no route.
#include "test_support.hpp"
#include <cmath>
#include <limits>
#include <vector>
#include <boids/crowd/nav_field.hpp>
#include <boids/crowd/nav_path.hpp>
#include "nav_mazes.hpp"

namespace {
using V = test::dvec2;
using S = double;
using nav_test::maze;

// Walks the field from `from` as an agent would (nav_field::preferred_velocity:
// straight at the goal once it is in view on the grid), in steps of a quarter cell; returns the route's length, or
// infinity when it does not arrive. `closest` gets the least distance from any point
// of the route to any edge.
// With `sight` false the walk follows the field alone, to within two cells of the goal.
S walk(const boids::nav_field<V>& field, const maze& m, V from, V to, S& closest, bool sight = true) {
    const S step = field.grid().cell() * 0.25;
    S length = 0;
    V p = from;
    closest = std::numeric_limits<S>::infinity();
    for (int i = 0; i < 200000; ++i) {
        closest = std::min(closest, m.distance_to_edges(p));
        if (sight ? field.grid().clear_line(p, to) : boids::distance(p, to) < 2 * field.grid().cell()) {
            const S rest = boids::distance(p, to);
            for (S t = 0; t < rest; t += step)
                closest = std::min(closest, m.distance_to_edges(boids::add_scaled(p, boids::sub(to, p), t / rest)));
            return length + rest;
        }
        const V d = field.direction(p);
        if (boids::length(d) < 0.5) return std::numeric_limits<S>::infinity();
        p = boids::add_scaled(p, d, step);
        length += step;
    }
    return std::numeric_limits<S>::infinity();
}

// A 60 x 60 room with a wall across it at x 29..31 and two doors in it, y 18..24
// and 40..46; clearance 1, cells of 0.5.
maze two_doors() {
    maze m("doors", 60, 1.0, 0.5);
    m.box(29, 0, 31, 18);
    m.box(29, 24, 31, 40);
    m.box(29, 46, 31, 60);
    return m;
}
}  // namespace

// Cells of a quarter of the clearance, as docs/crowds.md advises.
TEST_CASE("nav_field: routes within 2% of the shortest path on mazes, clear of every edge", "[crowd][nav]") {
    for (const maze& m : nav_test::mazes(1.5, 0.375)) {
        boids::nav_grid<V> grid(m.obstacles, m.area);
        REQUIRE(grid.problem().ok());
        boids::nav_field<V> field(grid);
        for (const auto& trip : m.trips) {
            INFO(m.name << ": from (" << trip.first.x << ", " << trip.first.y << ") to (" << trip.second.x << ", "
                        << trip.second.y << ")");
            REQUIRE(field.set_goal(trip.second));
            REQUIRE(field.build());
            const S shortest = m.shortest(trip.first, trip.second);
            REQUIRE(std::isfinite(shortest));
            S closest = 0;
            const S route = walk(field, m, trip.first, trip.second, closest);
            INFO("route " << route << ", shortest " << shortest << ", closest to an edge " << closest);
            CHECK(route <= shortest * 1.02);
            CHECK(route >= shortest * 0.999);
            CHECK(closest >= m.area.clearance);
            // The field's own cost at the start agrees with the route.
            CHECK(field.distance(trip.first) == Approx(shortest).epsilon(0.04));
            // The field alone, without the last straight leg.
            const S along = walk(field, m, trip.first, trip.second, closest, false);
            CHECK(along <= shortest * 1.03);
            CHECK(closest >= m.area.clearance);
        }
    }
}

TEST_CASE("nav_field: goals, unreachable ground, many goals at once, and no goal", "[crowd][nav]") {
    nav_test::maze m("rooms", 60, 1.0, 0.5);
    m.box(29, 0, 31, 60);  // a wall from floor to ceiling: the right half cannot be reached
    boids::nav_grid<V> grid(m.obstacles, m.area);
    boids::nav_field<V> field(grid);
    CHECK_FALSE(field.build());  // no goal yet
    CHECK(boids::length(field.direction(V{10, 10})) == 0);
    CHECK(field.distance(V{10, 10}) == boids::nav_field<V>::unreachable);
    CHECK_FALSE(field.set_goal(V{-50, -50}));  // off the grid, no walkable cell near
    REQUIRE(field.set_goal(V{10, 30}));
    REQUIRE(field.build());
    CHECK(field.distance(V{50, 30}) == boids::nav_field<V>::unreachable);
    CHECK(boids::length(field.direction(V{50, 30})) == 0);
    const V d = field.direction(V{20, 30});
    CHECK(d.x == Approx(-1).margin(1e-6));
    CHECK(field.distance(V{20, 30}) == Approx(10).epsilon(0.01));
    // Inside the wall: nothing; beside it, in the band the clearance shuts: away from it.
    CHECK(boids::length(field.direction(V{30, 30})) == 0);
    CHECK(field.direction(V{28.2, 30}).x < -0.9);
    // A goal on a wall counts from the walkable cell nearest it.
    REQUIRE(field.set_goal(V{29.5, 10}));
    REQUIRE(field.build());
    CHECK(field.distance(V{20, 10}) == Approx(7.5).margin(1.0));
    // Two goals: each point leads to the nearer; not finite points read nothing.
    const V goals[2] = {{5, 5}, {5, 55}};
    REQUIRE(field.set_goals(boids::span<const V>(goals, 2)));
    REQUIRE(field.build());
    CHECK(field.direction(V{5, 20}).y < -0.99);
    CHECK(field.direction(V{5, 40}).y > 0.99);
    CHECK(boids::length(field.direction(V{std::nan(""), 3})) == 0);
    CHECK(boids::length(field.preferred_velocity(V{5, 5}, V{5, 5}, 2)) == 0);
    CHECK(boids::length(field.preferred_velocity(V{5, 20}, V{5, 5}, 2)) == Approx(2));
    CHECK(boids::length(field.preferred_velocity(V{5, 5.5}, V{5, 5}, 2)) == Approx(1));  // slowing within 1
}

TEST_CASE("nav_field: congestion sends a crowd to the other door, and against-flow costs more", "[crowd][nav]") {
    const maze m = two_doors();
    boids::nav_grid<V> grid(m.obstacles, m.area);
    boids::nav_field<V> field(grid);
    REQUIRE(field.set_goal(V{50, 25}));
    REQUIRE(field.build());
    const V start{10, 25};
    const S free_cost = field.distance(start);
    CHECK(field.direction(V{25, 30}).y < 0);  // through the lower door
    // A crowd standing in the lower door.
    std::vector<V> crowd, still;
    for (S x = 26; x <= 34; x += 1)
        for (S y = 18; y <= 24; y += 1) crowd.push_back({x, y});
    boids::nav_congestion<S> congestion;
    congestion.density = 4;
    congestion.agent_radius = 1;
    field.set_crowd(boids::span<const V>(crowd), {}, congestion);
    REQUIRE(field.build());
    CHECK(field.distance(start) > free_cost);
    CHECK(field.direction(V{25, 30}).y > 0);  // now through the upper door
    // The same crowd walking with the field costs nothing extra; against it, more.
    congestion.density = 0;
    congestion.counterflow = 4;
    std::vector<V> with(crowd.size(), V{1, 0}), against(crowd.size(), V{-1, 0});
    field.clear_crowd();
    REQUIRE(field.build());
    field.set_crowd(boids::span<const V>(crowd), boids::span<const V>(with), congestion);
    REQUIRE(field.build());
    CHECK(field.distance(start) == Approx(free_cost));
    field.set_crowd(boids::span<const V>(crowd), boids::span<const V>(against), congestion);
    REQUIRE(field.build());
    CHECK(field.distance(start) > free_cost + 1);
    // Invalid congestion counts nothing.
    congestion.agent_radius = -1;
    field.set_crowd(boids::span<const V>(crowd), boids::span<const V>(against), congestion);
    REQUIRE(field.build());
    CHECK(field.distance(start) == Approx(free_cost));
}

TEST_CASE(
    "nav_field: the counterflow covers a walker's way ahead, as far as it walks in `ahead` seconds, not through walls",
    "[crowd][nav]") {
    // The goal is to the right of the wall, so the field runs +x on its left.
    const maze m = two_doors();
    boids::nav_grid<V> grid(m.obstacles, m.area);
    boids::nav_field<V> field(grid);
    REQUIRE(field.set_goal(V{50, 25}));
    REQUIRE(field.build());
    // The cost per length the crowd gives the cell at `where`.
    auto cost_at = [&](const std::vector<V>& at, const std::vector<V>& vel, S ahead, V where) {
        boids::nav_congestion<S> congestion;
        congestion.counterflow = 4;
        congestion.agent_radius = 1;
        congestion.ahead = ahead;
        field.set_crowd(boids::span<const V>(at), boids::span<const V>(vel), congestion);
        return field.slowness().empty() ? S(1) : field.slowness()[grid.cell_at(where)];
    };
    // One walker at (20, 52) going -x at speed 0.5, against the field (which runs to
    // the upper door: +x and -y).
    const std::vector<V> walker{{20, 52}}, against{{-0.5, 0}}, standing{{0, 0}};
    const V ahead_3{17, 52}, ahead_8{12, 52}, behind_3{23, 52};
    CHECK(cost_at(walker, against, 0, V{20, 52}) > 2);  // its footprint
    CHECK(cost_at(walker, against, 0, ahead_3) == 1);
    CHECK(cost_at(walker, against, 10, ahead_3) > 2);  // 10 s at 0.5: 5 ahead
    CHECK(cost_at(walker, against, 10, ahead_8) == 1);
    CHECK(cost_at(walker, against, 20, ahead_8) > 2);
    CHECK(cost_at(walker, against, 20, behind_3) == 1);
    CHECK(cost_at(walker, standing, 20, ahead_3) == 1);  // standing: no way ahead
    // Walking +x is with the field: no cost, however far ahead.
    CHECK(cost_at(walker, std::vector<V>{{0.5, 0}}, 20, V{23, 52}) == 1);
    // The way ahead changes the routes: the field's cost from behind the walker's way.
    field.set_crowd(boids::span<const V>(walker), boids::span<const V>(against), boids::nav_congestion<S>{0, 4, 1, 0});
    REQUIRE(field.build());
    const S near_only = field.distance(V{8, 52});
    REQUIRE(field.build());  // again: the directions of the field with the walker in it
    field.set_crowd(boids::span<const V>(walker), boids::span<const V>(against), boids::nav_congestion<S>{0, 4, 1, 20});
    REQUIRE(field.build());
    CHECK(field.distance(V{8, 52}) > near_only);
    // A walker at the wall's right face, going -x into it: nothing beyond the wall.
    const std::vector<V> at_wall{{33, 10}};
    CHECK(cost_at(at_wall, against, 40, V{32.5, 10}) > 2);
    CHECK(cost_at(at_wall, against, 40, V{26, 10}) == 1);
    // The set boids-lab crowd builds with is valid, for the radius given.
    const auto lab = boids::nav_congestion<S>::for_crowd(1.5);
    CHECK(lab.validate());
    CHECK(lab.agent_radius == 1.5);
    CHECK(lab.ahead > 0);
    // Invalid: a negative or infinite `ahead` is named.
    boids::nav_congestion<S> bad;
    bad.ahead = -1;
    CHECK(std::string(bad.validate().field) == "ahead");
    bad.ahead = std::numeric_limits<S>::infinity();
    CHECK(std::string(bad.validate().field) == "ahead");
}

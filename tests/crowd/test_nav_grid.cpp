// crowd/nav_grid.hpp: which cells are walkable (every point of them at the clearance,
// outside every obstacle), updates as obstacles arrive, lines of sight, bad areas.
#include "test_support.hpp"
#include <cmath>
#include <cstring>
#include <vector>
#include <boids/crowd/nav_grid.hpp>
#include <boids/random.hpp>
#include "nav_mazes.hpp"

namespace {
using V = test::dvec2;
using S = double;

bool inside_any(const nav_test::maze& m, V p) {
    for (const auto& poly : m.convex) {
        bool in = true;
        for (std::size_t i = 0; i < poly.size() && in; ++i) {
            const V a = poly[i], b = poly[(i + 1) % poly.size()];
            in = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) > 0;
        }
        if (in) return true;
    }
    return p.x <= 0 || p.y <= 0 || p.x >= m.size || p.y >= m.size;
}
}  // namespace

TEST_CASE("nav_grid: every point of a walkable cell keeps the clearance; cells far from walls are walkable",
          "[crowd][nav]") {
    for (const auto& m : nav_test::mazes(1.5, 0.5)) {
        boids::nav_grid<V> grid(m.obstacles, m.area);
        REQUIRE(grid.problem().ok());
        REQUIRE(grid.columns() == 200);
        REQUIRE(grid.rows() == 200);
        std::size_t walkable = 0;
        for (std::size_t c = 0; c < grid.size(); ++c) {
            const V centre = grid.centre(c);
            const S h = 0.5 * grid.cell();
            if (grid.walkable(c)) {
                ++walkable;
                for (const V corner : {V{centre.x - h, centre.y - h}, V{centre.x + h, centre.y - h},
                                       V{centre.x - h, centre.y + h}, V{centre.x + h, centre.y + h}, centre}) {
                    INFO(m.name << " cell " << c);
                    CHECK(m.distance_to_edges(corner) >= m.area.clearance);
                    CHECK_FALSE(inside_any(m, corner));
                }
            } else if (!inside_any(m, centre)) {
                // Shut only for the clearance: a corner lies too near an edge, with one cell's slack.
                CHECK(m.distance_to_edges(centre) < m.area.clearance + 0.71 * grid.cell() + 1e-9);
            }
            if (m.distance_to_edges(centre) > 1e-9)
                CHECK(grid.inside(c) == inside_any(m, centre));  // on an edge: either
        }
        CHECK(walkable > grid.size() / 2);
    }
}

TEST_CASE("nav_grid: obstacles added later are taken in by update(), as a fresh grid would", "[crowd][nav]") {
    auto mazes = nav_test::mazes(1.5, 0.5);
    nav_test::maze& m = mazes[3];  // pillars
    boids::crowd_obstacles<V> later(10.0);
    const V room[4] = {{0, 0}, {100, 0}, {100, 100}, {0, 100}};
    REQUIRE(later.add_boundary(boids::span<const V>(room, 4)));
    boids::nav_grid<V> grid(later, m.area);
    CHECK_FALSE(grid.update());  // nothing new
    for (const auto& poly : m.convex) REQUIRE(later.add_polygon(boids::span<const V>(poly)));
    CHECK(grid.update());
    boids::nav_grid<V> fresh(m.obstacles, m.area);
    for (std::size_t c = 0; c < grid.size(); ++c) {
        INFO("cell " << c);
        CHECK(grid.walkable(c) == fresh.walkable(c));
        CHECK(grid.inside(c) == fresh.inside(c));
    }
}

TEST_CASE("nav_grid: lines of sight, cells of points, nearest walkable cell", "[crowd][nav]") {
    nav_test::maze m("wall", 40, 1.0, 0.5);
    m.box(19, 0, 21, 30);
    m.obstacles.add_segment(V{5, 35}, V{15, 35});
    boids::nav_grid<V> grid(m.obstacles, m.area);
    CHECK(grid.clear_line(V{5, 5}, V{15, 25}));
    CHECK_FALSE(grid.clear_line(V{5, 5}, V{35, 5}));     // through the wall
    CHECK_FALSE(grid.clear_line(V{10, 33}, V{10, 38}));  // through the thin wall
    CHECK_FALSE(grid.clear_line(V{5, 5}, V{25, 31}));    // grazing the wall's corner, inside the clearance
    CHECK(grid.clear_line(V{5, 20}, V{25, 38}));         // over the corner, clear
    CHECK(grid.clear_line(V{18.0, 10}, V{10, 10}));      // from the band the clearance shuts: it may leave
    CHECK(grid.clear_line(V{10, 10}, V{18.0, 12}));      // and enter it at the end
    CHECK(grid.clear_line(V{18.0, 10}, V{18.0, 25}));    // or run along it, never meeting a walkable cell
    CHECK_FALSE(grid.clear_line(V{3, 34}, V{17, 34}));   // but not out of it and back in: along the thin wall
    CHECK_FALSE(grid.clear_line(V{20, 10}, V{10, 10}));  // from inside an obstacle: never
    CHECK_FALSE(grid.clear_line(V{-1, 10}, V{10, 10}));  // off the grid
    CHECK(grid.cell_at(V{-0.1, 3}) == grid.none);
    CHECK(grid.cell_at(V{40, 3}) == grid.none);
    CHECK(grid.cell_at(V{std::nan(""), 3}) == grid.none);
    CHECK(grid.cell_at(V{0.7, 0.2}) == 1);
    const std::size_t near = grid.nearest_walkable(V{20, 10});
    REQUIRE(near != grid.none);
    CHECK(std::fabs(grid.centre(near).x - 20) == Approx(2.75).margin(0.3));
    CHECK(grid.nearest_walkable(V{20, 10}, 2) == grid.none);  // the wall is wider than 2 cells each way
    CHECK(grid.nearest_walkable(V{-30, -30}) == grid.none);
    // Fuzzed: a line the grid calls clear stays at the clearance from every edge.
    boids::random_stream rng(7);
    int clear = 0;
    for (int i = 0; i < 2000; ++i) {
        const V a{rng.uniform(2.0, 38.0), rng.uniform(2.0, 38.0)}, b{rng.uniform(2.0, 38.0), rng.uniform(2.0, 38.0)};
        if (!grid.walkable_at(a) || !grid.walkable_at(b) || !grid.clear_line(a, b)) continue;
        ++clear;
        for (int k = 0; k <= 100; ++k) {
            const V p = boids::add_scaled(a, boids::sub(b, a), k / 100.0);
            CHECK(m.distance_to_edges(p) >= 1.0);
        }
    }
    CHECK(clear > 300);
}

// clear_line as its definition reads, cell by cell (the grid's own jumps across open ground).
bool clear_line_cell_by_cell(const boids::nav_grid<V>& grid, V a, V b) {
    if (grid.cell_at(a) == grid.none || grid.cell_at(b) == grid.none) return false;
    bool clear = true, met = false, shut = false;
    grid.for_each_cell_on(a, b, [&](std::size_t c) {
        if (grid.inside(c)) return clear = false;
        if (grid.walkable(c)) {
            if (met && shut) return clear = false;
            met = true;
            shut = false;
        } else {
            shut = true;
        }
        return true;
    });
    return clear;
}

TEST_CASE("nav_grid: clear_line's jumps across open ground agree with the walk cell by cell", "[crowd][nav]") {
    for (const auto& m : nav_test::mazes(1.5, 0.5)) {
        boids::nav_grid<V> grid(m.obstacles, m.area);
        boids::random_stream rng(11);
        int clear = 0, checked = 0;
        for (int i = 0; i < 4000; ++i) {
            // Ends anywhere, or a quarter cell off the cell corners (the walk then goes
            // through corners), or along a row. (Ends exactly on a corner touch cells the
            // two walks may count differently; neither misses a cell inside an obstacle.)
            V a{rng.uniform(0.0, 100.0), rng.uniform(0.0, 100.0)}, b{rng.uniform(0.0, 100.0), rng.uniform(0.0, 100.0)};
            if (i % 4 == 1) {
                a = {std::floor(a.x) + 0.125, std::floor(a.y) + 0.125};
                b = {std::floor(b.x) + 0.125, std::floor(b.y) + 0.125};
            } else if (i % 4 == 2) {
                b = {b.x, a.y};  // along a row
            }
            const bool fast = grid.clear_line(a, b);
            INFO(m.name << " (" << a.x << ", " << a.y << ") to (" << b.x << ", " << b.y << ")");
            CHECK(fast == clear_line_cell_by_cell(grid, a, b));
            clear += fast ? 1 : 0;
            ++checked;
        }
        CHECK(clear > checked / 20);
    }
}

TEST_CASE("nav_area: a bad area is reported by field, and the grid is empty", "[crowd][nav]") {
    boids::crowd_obstacles<V> none(10.0);
    auto field_of = [&](boids::nav_area<V> a) {
        boids::nav_grid<V> grid(none, a);
        CHECK(grid.size() == 0);
        CHECK_FALSE(grid.walkable_at(V{1, 1}));
        CHECK_FALSE(grid.clear_line(V{1, 1}, V{2, 2}));
        return std::string(grid.problem().field);
    };
    boids::nav_area<V> a;
    a.upper = {10, 10};
    CHECK(boids::nav_grid<V>(none, a).size() == 100);
    auto b = a;
    b.cell = 0;
    CHECK(field_of(b) == "cell");
    b = a;
    b.cell = 1e-5;
    CHECK(field_of(b) == "cell");  // too many cells
    b = a;
    b.upper = {-1, 10};
    CHECK(field_of(b) == "upper");
    b = a;
    b.lower = {std::nan(""), 0};
    CHECK(field_of(b) == "lower");
    b = a;
    b.clearance = -1;
    CHECK(field_of(b) == "clearance");
}

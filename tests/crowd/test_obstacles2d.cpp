// Crowds among static obstacles (crowd/obstacles2d.hpp with crowd/orca.hpp): the edge
// store, walls kept off, no centre ever crossing an edge (fuzzed), RVO2's Blocks, the
// doorway, an idle agent that steps aside and returns.
#include "test_support.hpp"
#include <cmath>
#include <cstring>
#include <vector>
#include <boids/crowd/obstacles2d.hpp>
#include <boids/crowd/orca.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "plain_vectors.hpp"

namespace {
using V = test::dvec2;
using S = double;

boids::crowd_agents<V> agents_of(std::vector<V>& p, std::vector<V>& v, const std::vector<V>& pref,
                                 const std::vector<S>& radius, const std::vector<S>& speed,
                                 const std::vector<S>& share = {}) {
    return {boids::span<V>(p),
            boids::span<V>(v),
            boids::span<const V>(pref),
            boids::span<const S>(radius),
            boids::span<const S>(speed),
            boids::span<const S>(share),
            {},
            {}};
}

// Whether p lies inside (or on) the convex polygon `poly` (counterclockwise), by the
// sign of every edge: an independent check of crowd_obstacles::crosses.
bool inside_convex(const std::vector<V>& poly, V p) {
    for (std::size_t i = 0; i < poly.size(); ++i) {
        const V a = poly[i], b = poly[(i + 1) % poly.size()];
        if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0) return false;
    }
    return true;
}
}  // namespace

TEST_CASE("crowd_obstacles: a wrong outline is refused with its reason, and nothing is added", "[crowd][obstacles]") {
    boids::crowd_obstacles<V> o(5.0);
    auto refused = [&](std::vector<V> poly, bool boundary, const char* word) {
        const std::size_t edges = o.edges().size();
        const bool added =
            boundary ? o.add_boundary(boids::span<const V>(poly)) : o.add_polygon(boids::span<const V>(poly));
        CHECK_FALSE(added);
        CHECK(o.edges().size() == edges);
        INFO(o.refusal());
        CHECK(std::strstr(o.refusal(), word) != nullptr);
        CHECK(std::strchr(o.refusal(), '\n') == nullptr);
    };
    const std::vector<V> clockwise = {{0, 0}, {0, 10}, {10, 10}, {10, 0}};
    refused(clockwise, false, "clockwise");
    refused(clockwise, true, "clockwise");  // a boundary is listed counterclockwise too
    refused({{0, 0}, {5, 0}, {10, 0}}, false, "one line");
    refused({{0, 0}, {10, 10}, {10, 0}, {0, 20}}, false, "cross");          // a bow tie
    refused({{0, 0}, {10, 0}, {10, 10}, {5, 0}, {0, 10}}, false, "cross");  // a vertex on another edge
    refused({{0, 0}, {10, 0}, {5, 0}, {5, 5}}, false, "doubles back");      // a spike
    refused({{0, 0}, {10, 0}, {10, 0}, {0, 10}}, false, "length 0");
    refused({{0, 0}, {10, 0}, {10, std::nan("")}}, false, "finite");
    refused({{3, 3}}, false, "two vertices");
    refused({{0, 0}, {0, 0}}, false, "length 0");  // a wall of no length
    CHECK(o.empty());
    CHECK(o.outlines().empty());

    const std::vector<V> room = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
    const std::vector<V> l_shape = {{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 4}, {0, 4}};  // not convex, accepted
    REQUIRE(o.add_boundary(boids::span<const V>(room)));
    CHECK(std::strlen(o.refusal()) == 0);
    REQUIRE(o.add_polygon(boids::span<const V>(l_shape)));
    REQUIRE(o.add_segment(V{20, 0}, V{20, 5}));
    REQUIRE(o.outlines().size() == 3);
    CHECK(o.outlines()[0].boundary);
    CHECK(o.outlines()[1].first == 4);
    CHECK(o.outlines()[1].count == 6);
    CHECK_FALSE(o.outlines()[2].boundary);
    // Agents inside the room stay inside: the stored boundary faces in.
    CHECK(o.crosses(5, 5, 5, -5));
    CHECK_FALSE(o.crosses(5, 5, 6, 6));
}

TEST_CASE("crowd_obstacles: polygons, boundaries and walls; near, crosses and push_out", "[crowd][obstacles]") {
    boids::crowd_obstacles<V> o(5.0);
    CHECK_FALSE(o.add_polygon(boids::span<const V>()));
    const V one[1] = {{0, 0}};
    CHECK_FALSE(o.add_polygon(boids::span<const V>(one, 1)));
    const V nan[3] = {{0, 0}, {1, 0}, {std::nan(""), 1}};
    CHECK_FALSE(o.add_polygon(boids::span<const V>(nan, 3)));
    const V twice[3] = {{0, 0}, {0, 0}, {1, 1}};
    CHECK_FALSE(o.add_polygon(boids::span<const V>(twice, 3)));
    CHECK(o.empty());

    const V box[4] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
    REQUIRE(o.add_polygon(boids::span<const V>(box, 4)));
    REQUIRE(o.edges().size() == 4);
    for (const auto& e : o.edges()) CHECK(e.convex);
    std::vector<std::pair<S, std::uint32_t>> near;
    o.near(5, -3, 4, near);  // below the box: only the bottom edge faces it
    REQUIRE(near.size() == 1);
    CHECK(near[0].second == 0);
    CHECK(near[0].first == Approx(9));
    o.near(-2, -2, 4, near);  // by the corner: two edges, the nearer first
    REQUIRE(near.size() == 2);
    CHECK(near[0].first <= near[1].first);
    o.near(5, 5, 100, near);  // inside: every edge faces away
    CHECK(near.empty());

    CHECK(o.crosses(5, -1, 5, 1));           // into the box
    CHECK(o.crosses(-1, 5, 11, 5));          // right through it
    CHECK(o.crosses(-1, -1, 0, 0));          // onto a corner
    CHECK_FALSE(o.crosses(-1, -1, -1, 11));  // beside it
    CHECK_FALSE(o.crosses(11, -1, 12, 20));

    S x = 5, y = -0.5;
    CHECK(o.push_out(x, y, 1.0));
    CHECK(x == Approx(5));
    CHECK(y == Approx(-1));
    CHECK_FALSE(o.push_out(x, y, 0.9));

    // A boundary: inside it is free, leaving it is crossing.
    boids::crowd_obstacles<V> room;
    REQUIRE(room.add_boundary(boids::span<const V>(box, 4)));
    for (const auto& e : room.edges()) CHECK_FALSE(e.convex);  // the room's corners, seen from inside
    CHECK(room.crosses(5, 5, 5, 11));
    CHECK_FALSE(room.crosses(5, 5, 9, 9));
    room.near(5, 1, 2, near);
    REQUIRE(near.size() == 1);
    CHECK(near[0].first == Approx(1));

    // A wall segment is closed from both sides.
    boids::crowd_obstacles<V> wall;
    REQUIRE(wall.add_segment(V{0, -5}, V{0, 5}));
    CHECK(wall.crosses(-1, 0, 1, 0));
    CHECK(wall.crosses(1, 0, -1, 0));
    CHECK_FALSE(wall.crosses(-1, 6, 1, 6));
}

TEST_CASE("an agent walking into a wall stops short of it, as RVO2's do", "[crowd][obstacles]") {
    boids::crowd_obstacles<V> o;
    const V block[4] = {{10, -20}, {12, -20}, {12, 20}, {10, 20}};
    REQUIRE(o.add_polygon(boids::span<const V>(block, 4)));
    std::vector<V> p{{0, 0}}, v{{0, 0}}, pref{{2, 0}};
    const std::vector<S> radius{1}, speed{2};
    boids::crowd_config<S> cfg;
    boids::crowd_workspace<V> ws;
    boids::all_pairs<V> finder(boids::world_for<V>{});
    S nearest = 100;
    for (int s = 0; s < 200; ++s) {
        boids::crowd_step(agents_of(p, v, pref, radius, speed), o, cfg, finder, ws);
        nearest = std::min(nearest, 10 - p[0].x);
    }
    CHECK(nearest >= 1 - 1e-6);         // the centre stays a radius off the wall
    CHECK(nearest < 1.1);               // and gets there
    CHECK(boids::length(v[0]) < 0.05);  // and waits there
}

TEST_CASE("no agent's centre crosses an edge: 10,000 random runs", "[crowd][obstacles][fuzz]") {
    boids::random_stream rng(2027);
    std::size_t steps = 0, outside = 0, inside_block = 0, not_finite = 0, reverted = 0;
    boids::crowd_workspace<V> ws;
    for (int run = 0; run < 10000; ++run) {
        // A room, a convex block in it, agents placed in the room outside the block.
        const S w = rng.uniform(4, 30), h = rng.uniform(4, 30);
        const std::vector<V> room{{0, 0}, {w, 0}, {w, h}, {0, h}};
        const V c{rng.uniform(0.3 * w, 0.7 * w), rng.uniform(0.3 * h, 0.7 * h)};
        const std::size_t sides = 3 + rng.next() % 4;
        const S size = rng.uniform(0.5, 0.25 * std::min(w, h));
        std::vector<V> block;
        for (std::size_t k = 0; k < sides; ++k) {
            const S a = 6.283185307179586 * static_cast<S>(k) / static_cast<S>(sides) + rng.uniform(0, 0.5);
            block.push_back({c.x + size * std::cos(a), c.y + size * std::sin(a)});
        }
        boids::crowd_obstacles<V> o(rng.uniform(0.5, 10));
        REQUIRE(o.add_boundary(boids::span<const V>(room)));
        REQUIRE(o.add_polygon(boids::span<const V>(block)));
        const std::size_t n = 1 + rng.next() % 8;
        std::vector<V> p, v, pref(n);
        std::vector<S> radius, speed, share;
        while (p.size() < n) {
            const V at{rng.uniform(0.01, w - 0.01), rng.uniform(0.01, h - 0.01)};
            if (inside_convex(block, at)) continue;
            p.push_back(at);
            v.push_back({rng.uniform(-3, 3), rng.uniform(-3, 3)});
            radius.push_back(rng.next() % 5 == 0 ? 0.0 : rng.uniform(0.05, 2));
            speed.push_back(rng.next() % 7 == 0 ? 0.0 : rng.uniform(0.1, 8));
            share.push_back(rng.uniform(0, 1));
        }
        boids::crowd_config<S> cfg;
        cfg.dt = rng.uniform(0.05, 1.0);
        cfg.time_horizon = rng.uniform(0.5, 10);
        cfg.time_horizon_obstacle = rng.uniform(0.1, 10);
        boids::all_pairs<V> finder(boids::world_for<V>{});
        for (int s = 0; s < 12; ++s) {
            for (V& q : pref) q = {rng.uniform(-10, 10), rng.uniform(-10, 10)};  // often straight at a wall
            boids::crowd_step(agents_of(p, v, pref, radius, speed, share), o, cfg, finder, ws);
            reverted += ws.last_reverted;
            ++steps;
            for (std::size_t i = 0; i < n; ++i) {
                if (!boids::is_finite(p[i]) || !boids::is_finite(v[i])) ++not_finite;
                if (!(p[i].x > 0 && p[i].x < w && p[i].y > 0 && p[i].y < h)) ++outside;
                if (inside_convex(block, p[i])) ++inside_block;
            }
        }
    }
    CHECK(steps == 120000);
    CHECK(not_finite == 0);
    CHECK(outside == 0);
    CHECK(inside_block == 0);
    CHECK(reverted > 0);  // the guarantee was needed, not idle
}

TEST_CASE("an idle agent steps aside for one that must pass, and goes back", "[crowd]") {
    // Agent 0 stands at its goal and gives way fully (responsibility 1); agent 1 walks
    // straight through that spot and never yields (0).
    std::vector<V> p{{0, 0}, {-20, 0.2}}, v(2, V{0, 0}), pref(2);
    const std::vector<V> goal{{0, 0}, {20, 0.2}};
    const std::vector<S> radius{1.5}, speed{2}, share{1, 0};
    boids::crowd_config<S> cfg;
    boids::crowd_workspace<V> ws;
    boids::all_pairs<V> finder(boids::world_for<V>{});
    S aside = 0, closest = 100, mover_swerve = 0;
    int step = 0;
    for (; step < 1000; ++step) {
        for (std::size_t i = 0; i < 2; ++i) {
            const V to = boids::sub(goal[i], p[i]);
            const S d = boids::length(to);
            pref[i] = d > 1 ? boids::scale(to, 1 / d) : to;
        }
        boids::crowd_step(agents_of(p, v, pref, radius, speed, share), cfg, finder, ws);
        aside = std::max(aside, boids::length(p[0]));
        closest = std::min(closest, boids::length(boids::sub(p[0], p[1])));
        mover_swerve = std::max(mover_swerve, std::fabs(p[1].y - 0.2));
        if (p[1].x > 19 && boids::length(p[0]) < 0.01) break;
    }
    CHECK(step < 1000);                  // the mover arrived and the idle agent is back
    CHECK(aside > 1.5);                  // it really stepped out of the way
    CHECK(closest >= 3 * (1 - 0.5e-4));  // without touching
    CHECK(mover_swerve < 0.05);          // the mover kept its line
}

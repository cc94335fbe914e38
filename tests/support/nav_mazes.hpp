// Mazes with known shortest paths for the navigation tests: convex obstacles in a
// square room, and the true shortest route between two points at a given clearance,
// found on a visibility graph over the obstacles grown by the clearance (each
// corner's arc as 16 chords, which shortens a route by far less than the tests'
// tolerance).
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>
#include <boids/crowd/nav_grid.hpp>
#include "plain_vectors.hpp"

namespace nav_test {
using V = test::dvec2;
using S = double;

struct maze {
    std::string name;
    S size = 100;
    boids::crowd_obstacles<V> obstacles{10.0};
    boids::nav_area<V> area;
    std::vector<std::vector<V>> convex;  // the obstacles, counterclockwise
    std::vector<std::pair<V, V>> trips;

    maze(std::string n, S side, S clearance, S cell) : name(std::move(n)), size(side) {
        area.lower = {0, 0};
        area.upper = {side, side};
        area.cell = cell;
        area.clearance = clearance;
        const V room[4] = {{0, 0}, {side, 0}, {side, side}, {0, side}};
        obstacles.add_boundary(boids::span<const V>(room, 4));
    }
    void add(std::vector<V> polygon) {
        obstacles.add_polygon(boids::span<const V>(polygon));
        convex.push_back(std::move(polygon));
    }
    void box(S x0, S y0, S x1, S y1) { add({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}); }

    [[nodiscard]] S distance_to_edges(V p) const {
        S best = std::numeric_limits<S>::infinity();
        const auto& edges = obstacles.edges();
        for (const auto& e : edges) {
            const auto& n = edges[e.next];
            const S ex = n.x - e.x, ey = n.y - e.y;
            S t = ((p.x - e.x) * ex + (p.y - e.y) * ey) / (ex * ex + ey * ey);
            t = std::clamp(t, 0.0, 1.0);
            best = std::min(best, std::hypot(p.x - (e.x + t * ex), p.y - (e.y + t * ey)));
        }
        return best;
    }

    // The obstacles grown by the clearance: each vertex becomes an arc of 17 points.
    [[nodiscard]] std::vector<std::vector<V>> grown() const {
        std::vector<std::vector<V>> out;
        const S c = area.clearance;
        for (const auto& poly : convex) {
            std::vector<V> g;
            const std::size_t m = poly.size();
            for (std::size_t i = 0; i < m; ++i) {
                const V prev = poly[(i + m - 1) % m], v = poly[i], next = poly[(i + 1) % m];
                const S a0 = std::atan2(-(v.x - prev.x), v.y - prev.y);  // outward normal of the edge before
                S a1 = std::atan2(-(next.x - v.x), next.y - v.y);        // and of the edge after
                while (a1 < a0) a1 += 2 * M_PI;
                for (int k = 0; k <= 16; ++k) {
                    const S a = a0 + (a1 - a0) * k / 16.0;
                    g.push_back({v.x + c * std::cos(a), v.y + c * std::sin(a)});
                }
            }
            out.push_back(std::move(g));
        }
        return out;
    }

    // The shortest route from a to b keeping the clearance from every edge.
    [[nodiscard]] S shortest(V a, V b) const {
        const auto polys = grown();
        const S c = area.clearance;
        std::vector<V> nodes = {a, b};
        auto in_room = [&](V p) {
            return p.x >= c - 1e-9 && p.y >= c - 1e-9 && p.x <= size - c + 1e-9 && p.y <= size - c + 1e-9;
        };
        // Whether the segment runs through a grown obstacle's inside (touching is fine).
        auto blocked = [&](V p, V q) {
            for (const auto& g : polys) {
                S t0 = 0, t1 = 1;
                bool outside = false;
                for (std::size_t i = 0; i < g.size() && !outside; ++i) {
                    const V u = g[i], w = g[(i + 1) % g.size()];
                    const S ex = w.x - u.x, ey = w.y - u.y;
                    // Inside: left of every edge, by more than a hair.
                    const S at_p = ex * (p.y - u.y) - ey * (p.x - u.x);
                    const S at_q = ex * (q.y - u.y) - ey * (q.x - u.x);
                    const S len = std::hypot(ex, ey), eps = 1e-7 * len;
                    if (at_p <= eps && at_q <= eps) outside = true;
                    else if (at_p < eps) t0 = std::max(t0, (eps - at_p) / (at_q - at_p));
                    else if (at_q < eps) t1 = std::min(t1, (at_p - eps) / (at_p - at_q));
                }
                if (!outside && t1 - t0 > 1e-9) return true;
            }
            return false;
        };
        for (const auto& g : polys)
            for (const V& p : g)
                if (in_room(p) && !blocked(p, p)) nodes.push_back(p);
        std::vector<S> dist(nodes.size(), std::numeric_limits<S>::infinity());
        std::vector<bool> done(nodes.size(), false);
        dist[0] = 0;
        for (;;) {
            std::size_t u = nodes.size();
            for (std::size_t i = 0; i < nodes.size(); ++i)
                if (!done[i] && (u == nodes.size() || dist[i] < dist[u])) u = i;
            if (u == nodes.size() || !std::isfinite(dist[u])) break;
            if (u == 1) return dist[1];
            done[u] = true;
            for (std::size_t v = 0; v < nodes.size(); ++v) {
                if (done[v]) continue;
                const S d = dist[u] + std::hypot(nodes[v].x - nodes[u].x, nodes[v].y - nodes[u].y);
                if (d < dist[v] && !blocked(nodes[u], nodes[v])) dist[v] = d;
            }
        }
        return dist[1];
    }
};

// Open ground, a wall to go round, a zigzag of two walls, pillars, a diamond.
inline std::vector<maze> mazes(S clearance = 1.5, S cell = 0.5) {
    std::vector<maze> out;
    {
        maze m("open", 100, clearance, cell);
        m.trips = {{{10, 10}, {90, 85}}, {{50, 12}, {13, 77}}, {{20, 50}, {80, 50}}};
        out.push_back(std::move(m));
    }
    {
        maze m("wall", 100, clearance, cell);
        m.box(48, 0, 52, 70);
        m.trips = {{{20, 20}, {80, 20}}, {{20, 90}, {85, 10}}, {{10, 60}, {90, 65}}};
        out.push_back(std::move(m));
    }
    {
        maze m("zigzag", 100, clearance, cell);
        m.box(30, 0, 33, 75);
        m.box(60, 25, 63, 100);
        m.trips = {{{10, 10}, {90, 90}}, {{90, 10}, {15, 90}}};
        out.push_back(std::move(m));
    }
    {
        maze m("pillars", 100, clearance, cell);
        m.box(30, 30, 40, 40);
        m.box(55, 50, 70, 58);
        m.box(45, 15, 50, 25);
        m.add({{50, 70}, {58, 78}, {50, 86}, {42, 78}});  // a diamond: edges off the grid's axes
        m.trips = {{{10, 10}, {90, 90}}, {{35, 5}, {60, 95}}, {{95, 54}, {10, 35}}, {{20, 78}, {80, 80}}};
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace nav_test

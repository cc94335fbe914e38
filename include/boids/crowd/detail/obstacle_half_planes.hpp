// boids/crowd/detail/obstacle_half_planes.hpp - the ORCA half-planes the edges of static
// obstacles put on an agent's velocity (crowd_obstacles gives the edges near it).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>
#include "../../span.hpp"
#include "linear_program2d.hpp"

namespace boids {
namespace detail {

// The ORCA half-planes an agent at (px, py) with velocity (vx, vy) and `radius` gets
// from the edges near it (nearest first, from crowd_obstacles::near), appended to
// `lines` from `count` on; returns the new count. RVO2's construction: a velocity is
// permitted when it keeps the agent off the obstacle for 1 / inv_horizon seconds,
// an edge already covered by an earlier half-plane adds none, and a leg that runs
// along a neighbouring edge ("foreign") is left to that edge.
template <class S, class Edge>
std::size_t obstacle_half_planes(const std::vector<Edge>& edges, span<const std::pair<S, std::uint32_t>> near, S px,
                                 S py, S vx, S vy, S radius, S inv_horizon, span<half_plane<S>> lines,
                                 std::size_t count) noexcept {
    const S radius2 = radius * radius;
    auto push = [&](S ox, S oy, S dx, S dy) {
        if (count < lines.size()) lines[count++] = half_plane<S>{ox, oy, dx, dy};
    };
    auto unit = [](S x, S y, S& ux, S& uy) {
        const S len = std::sqrt(x * x + y * y);
        ux = len > S(0) ? x / len : S(1);
        uy = len > S(0) ? y / len : S(0);
    };
    for (const auto& nb : near) {
        const Edge* o1 = &edges[nb.second];
        const Edge* o2 = &edges[o1->next];
        const S r1x = o1->x - px, r1y = o1->y - py;
        const S r2x = o2->x - px, r2y = o2->y - py;
        bool covered = false;  // both ends already out of reach under an earlier half-plane
        for (std::size_t j = 0; j < count && !covered; ++j) {
            const half_plane<S>& l = lines[j];
            covered = cross2(inv_horizon * r1x - l.px, inv_horizon * r1y - l.py, l.dx, l.dy) - inv_horizon * radius >=
                          -lp_epsilon<S> &&
                      cross2(inv_horizon * r2x - l.px, inv_horizon * r2y - l.py, l.dx, l.dy) - inv_horizon * radius >=
                          -lp_epsilon<S>;
        }
        if (covered) continue;
        const S d1 = r1x * r1x + r1y * r1y, d2 = r2x * r2x + r2y * r2y;
        const S ex = o2->x - o1->x, ey = o2->y - o1->y;
        const S s = (-r1x * ex - r1y * ey) / (ex * ex + ey * ey);  // where along the edge the agent is nearest
        const S lx = -r1x - s * ex, ly = -r1y - s * ey;
        const S dline = lx * lx + ly * ly;
        S ux, uy;
        if (s < S(0) && d1 <= radius2) {  // touching the first vertex
            if (o1->convex) {
                unit(-r1y, r1x, ux, uy);
                push(S(0), S(0), ux, uy);
            }
            continue;
        }
        if (s > S(1) && d2 <= radius2) {  // touching the second vertex (its own edge handles it unless convex)
            if (o2->convex && cross2(r2x, r2y, o2->dx, o2->dy) >= S(0)) {
                unit(-r2y, r2x, ux, uy);
                push(S(0), S(0), ux, uy);
            }
            continue;
        }
        if (s >= S(0) && s <= S(1) && dline <= radius2) {  // touching the edge
            push(S(0), S(0), -o1->dx, -o1->dy);
            continue;
        }
        // Not touching: the legs of the velocity obstacle, from one vertex when the
        // agent sees the edge end-on.
        S left_x, left_y, right_x, right_y;
        auto legs_from = [&](S rx, S ry, S d) {
            const S leg = std::sqrt(std::max(d - radius2, S(0)));
            left_x = (rx * leg - ry * radius) / d;
            left_y = (rx * radius + ry * leg) / d;
            right_x = (rx * leg + ry * radius) / d;
            right_y = (-rx * radius + ry * leg) / d;
        };
        if (s < S(0) && dline <= radius2) {
            if (!o1->convex) continue;  // the previous edge handles it
            o2 = o1;
            legs_from(r1x, r1y, d1);
        } else if (s > S(1) && dline <= radius2) {
            if (!o2->convex) continue;  // the next edge handles it
            o1 = o2;
            legs_from(r2x, r2y, d2);
        } else {
            if (o1->convex) {
                const S leg = std::sqrt(std::max(d1 - radius2, S(0)));
                left_x = (r1x * leg - r1y * radius) / d1;
                left_y = (r1x * radius + r1y * leg) / d1;
            } else {
                left_x = -o1->dx;
                left_y = -o1->dy;
            }
            if (o2->convex) {
                const S leg = std::sqrt(std::max(d2 - radius2, S(0)));
                right_x = (r2x * leg + r2y * radius) / d2;
                right_y = (-r2x * radius + r2y * leg) / d2;
            } else {
                right_x = o1->dx;
                right_y = o1->dy;
            }
        }
        const Edge& left_neighbor = edges[o1->previous];
        bool left_foreign = false, right_foreign = false;
        if (o1->convex && cross2(left_x, left_y, -left_neighbor.dx, -left_neighbor.dy) >= S(0)) {
            left_x = -left_neighbor.dx;
            left_y = -left_neighbor.dy;
            left_foreign = true;
        }
        if (o2->convex && cross2(right_x, right_y, o2->dx, o2->dy) <= S(0)) {
            right_x = o2->dx;
            right_y = o2->dy;
            right_foreign = true;
        }
        const S lcx = inv_horizon * (o1->x - px), lcy = inv_horizon * (o1->y - py);  // the cut-off's ends
        const S rcx = inv_horizon * (o2->x - px), rcy = inv_horizon * (o2->y - py);
        const S cx = rcx - lcx, cy = rcy - lcy;
        const bool one_vertex = o1 == o2;
        const S c2 = cx * cx + cy * cy;
        const S t = one_vertex || !(c2 > S(0)) ? S(0.5) : ((vx - lcx) * cx + (vy - lcy) * cy) / c2;
        const S t_left = (vx - lcx) * left_x + (vy - lcy) * left_y;
        const S t_right = (vx - rcx) * right_x + (vy - rcy) * right_y;
        const S r_h = radius * inv_horizon;
        if ((t < S(0) && t_left < S(0)) ||
            (one_vertex && t_left < S(0) && t_right < S(0))) {  // the left cut-off circle
            unit(vx - lcx, vy - lcy, ux, uy);
            push(lcx + r_h * ux, lcy + r_h * uy, uy, -ux);
            continue;
        }
        if (t > S(1) && t_right < S(0)) {  // the right cut-off circle
            unit(vx - rcx, vy - rcy, ux, uy);
            push(rcx + r_h * ux, rcy + r_h * uy, uy, -ux);
            continue;
        }
        const S inf = std::numeric_limits<S>::infinity();
        auto sq = [](S x, S y) { return x * x + y * y; };
        const S on_cutoff = t < S(0) || t > S(1) || one_vertex ? inf : sq(vx - (lcx + t * cx), vy - (lcy + t * cy));
        const S on_left = t_left < S(0) ? inf : sq(vx - (lcx + t_left * left_x), vy - (lcy + t_left * left_y));
        const S on_right = t_right < S(0) ? inf : sq(vx - (rcx + t_right * right_x), vy - (rcy + t_right * right_y));
        if (on_cutoff <= on_left && on_cutoff <= on_right) {
            push(lcx + r_h * o1->dy, lcy - r_h * o1->dx, -o1->dx, -o1->dy);
            continue;
        }
        if (on_left <= on_right) {
            if (!left_foreign) push(lcx - r_h * left_y, lcy + r_h * left_x, left_x, left_y);
            continue;
        }
        if (!right_foreign) push(rcx + r_h * right_y, rcy - r_h * right_x, -right_x, -right_y);
    }
    return count;
}

}  // namespace detail
}  // namespace boids

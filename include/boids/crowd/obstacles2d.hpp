// boids/crowd/obstacles2d.hpp - static obstacles for crowd_step in 2D: polygons agents
// stay out of and boundaries agents stay within, with RVO2's semantics (a polygon's
// vertices counterclockwise, each vertex convex or not, an edge avoided only from its
// outer side), kept in a grid of buckets so that an agent looks only at the edges near
// it.
//
// Besides the velocity constraints, crowd_step guarantees that no agent's centre
// crosses an edge during a step: an agent whose move would cross one goes back to where
// it stood. A walkable area given by its boundary is therefore never left.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>
#include "../span.hpp"
#include "../vector.hpp"
#include "../detail/box_buckets.hpp"
#include "detail/linear_program2d.hpp"
#include "detail/obstacles_by_dimension.hpp"

namespace boids {

template <class V>
class crowd_obstacles2 {
public:
    using S = scalar_t<V>;
    static_assert(dimension_v<V> == 2, "crowd_obstacles2: 2D (crowd_obstacles<V> picks by dimension)");

    // One edge of a polygon, from its vertex to the next one's.
    struct edge {
        S x = S(0), y = S(0);    // the vertex
        S dx = S(1), dy = S(0);  // unit direction to the next vertex; the obstacle lies on its left
        S length = S(0);
        std::uint32_t next = 0, previous = 0;
        bool convex = true;  // the vertex, seen from outside
    };

    // bucket: the side of the grid's square buckets (length); about the neighbour
    // distance suits most scenes.
    explicit crowd_obstacles2(S bucket = S(10)) noexcept
        : bucket_(bucket > S(0) && std::isfinite(bucket) ? bucket : S(10)) {}

    // A polygon agents stay out of, vertices counterclockwise. Two vertices make a wall
    // closed from both sides. False, with nothing added and the reason in refusal(),
    // for fewer than two vertices, a vertex that is not finite, two consecutive
    // vertices on one spot, vertices listed clockwise (or all on one line), or edges
    // that cross or touch each other.
    bool add_polygon(span<const V> vertices) { return add(points_of(vertices), false); }
    // The boundary of a walkable area, vertices counterclockwise around it: agents
    // inside stay inside (an obstacle whose outside is the area). Refused as
    // add_polygon refuses.
    bool add_boundary(span<const V> vertices) { return add(points_of(vertices), true); }
    // A wall from a to b, closed from both sides.
    bool add_segment(const V& a, const V& b) {
        const V both[2] = {a, b};
        return add_polygon(span<const V>(both, 2));
    }

    // Why the last add_polygon, add_boundary or add_segment returned false, in one
    // line; empty after one that succeeded.
    [[nodiscard]] const char* refusal() const noexcept { return refusal_; }

    // One polygon, boundary or wall as added: its edges are edges()[first, first + count).
    struct outline {
        std::uint32_t first = 0, count = 0;
        bool boundary = false;  // agents stay inside it (edges stored clockwise)
    };
    [[nodiscard]] const std::vector<outline>& outlines() const noexcept { return outlines_; }

    [[nodiscard]] bool empty() const noexcept { return edges_.empty(); }
    [[nodiscard]] const std::vector<edge>& edges() const noexcept { return edges_; }

    // The edges within `range` of (px, py) whose outer side the point is on, nearest
    // first, as (squared distance, edge) into `out` (cleared first).
    void near(S px, S py, S range, std::vector<std::pair<S, std::uint32_t>>& out) const {
        out.clear();
        if (edges_.empty() || !(range >= S(0))) return;
        for_each_bucket(px - range, py - range, px + range, py + range, [&](const std::vector<std::uint32_t>& b) {
            for (const std::uint32_t e : b) out.emplace_back(S(0), e);
        });
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        out.erase(
            std::unique(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second == b.second; }),
            out.end());
        const S range2 = range * range;
        std::size_t kept = 0;
        for (const auto& c : out) {
            const edge& e = edges_[c.second];
            if (side(e, px, py) >= S(0)) continue;  // on the inner side: the edge faces away
            const S d2 = distance_squared(e, px, py);
            if (d2 < range2) out[kept++] = {d2, c.second};
        }
        out.resize(kept);
        std::sort(out.begin(), out.end());
    }

    // Whether a centre moving from (ax, ay) to (bx, by) enters an obstacle: it starts on
    // an edge's outer side and ends on its inner side or on its line, where the edge is.
    [[nodiscard]] bool crosses(S ax, S ay, S bx, S by) const {
        if (edges_.empty() || (ax == bx && ay == by)) return false;
        bool hit = false;
        for_each_bucket(std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by),
                        [&](const std::vector<std::uint32_t>& b) {
                            for (const std::uint32_t i : b) {
                                if (hit) return;
                                const edge& e = edges_[i];
                                if (!(side(e, ax, ay) < S(0) && side(e, bx, by) >= S(0))) continue;
                                const edge& n = edges_[e.next];
                                const S s1 = detail::cross2(bx - ax, by - ay, e.x - ax, e.y - ay);
                                const S s2 = detail::cross2(bx - ax, by - ay, n.x - ax, n.y - ay);
                                if (!(s1 * s2 > S(0))) hit = true;  // the path meets the edge
                            }
                        });
        return hit;
    }

    // Moves a disc of `radius` at (px, py) that overlaps edges from their outer side
    // out of each in turn, to touch it; false where it overlaps none.
    bool push_out(S& px, S& py, S radius) const {
        if (edges_.empty() || !(radius > S(0))) return false;
        bool moved = false;
        for_each_bucket(px - radius, py - radius, px + radius, py + radius, [&](const std::vector<std::uint32_t>& b) {
            for (const std::uint32_t i : b) {
                const edge& e = edges_[i];
                if (side(e, px, py) >= S(0)) continue;
                S qx, qy;
                closest(e, px, py, qx, qy);
                const S ox = px - qx, oy = py - qy;
                const S d = std::sqrt(ox * ox + oy * oy);
                if (!(d < radius)) continue;
                const S ux = d > S(0) ? ox / d : e.dy, uy = d > S(0) ? oy / d : -e.dx;
                px = qx + ux * radius;
                py = qy + uy * radius;
                moved = true;
            }
        });
        return moved;
    }

private:
    static S side(const edge& e, S px, S py) noexcept { return detail::cross2(e.dx, e.dy, px - e.x, py - e.y); }
    static void closest(const edge& e, S px, S py, S& qx, S& qy) noexcept {
        S t = (px - e.x) * e.dx + (py - e.y) * e.dy;
        t = t < S(0) ? S(0) : (t > e.length ? e.length : t);
        qx = e.x + t * e.dx;
        qy = e.y + t * e.dy;
    }
    static S distance_squared(const edge& e, S px, S py) noexcept {
        S qx, qy;
        closest(e, px, py, qx, qy);
        return (px - qx) * (px - qx) + (py - qy) * (py - qy);
    }

    static std::vector<std::pair<S, S>> points_of(span<const V> vertices) {
        std::vector<std::pair<S, S>> p;
        p.reserve(vertices.size());
        for (const V& v : vertices) p.emplace_back(boids::get(v, 0), boids::get(v, 1));
        return p;
    }

    // Why the polygon p (as the user listed it) cannot be added; nullptr when it can.
    static const char* problem(const std::vector<std::pair<S, S>>& p) noexcept {
        const std::size_t m = p.size();
        if (m < 2) return "an obstacle needs at least two vertices";
        for (std::size_t i = 0; i < m; ++i) {
            const auto& a = p[i];
            const auto& b = p[(i + 1) % m];
            if (!std::isfinite(a.first) || !std::isfinite(a.second)) return "a vertex is not finite";
            if (a.first == b.first && a.second == b.second)
                return "two consecutive vertices on one spot (an edge of length 0)";
        }
        if (m == 2) return nullptr;
        // Twice the signed area, about the first vertex so that far-off coordinates
        // keep their precision.
        S area = S(0);
        for (std::size_t i = 1; i + 1 < m; ++i)
            area += detail::cross2(p[i].first - p[0].first, p[i].second - p[0].second, p[i + 1].first - p[0].first,
                                   p[i + 1].second - p[0].second);
        if (!(area > S(0)))
            return area < S(0) ? "vertices listed clockwise: list them counterclockwise (a boundary too)"
                               : "all vertices on one line (no area)";
        auto orient = [](const std::pair<S, S>& o, const std::pair<S, S>& a, const std::pair<S, S>& b) {
            const S c = detail::cross2(a.first - o.first, a.second - o.second, b.first - o.first, b.second - o.second);
            return c > S(0) ? 1 : (c < S(0) ? -1 : 0);
        };
        auto on_segment = [](const std::pair<S, S>& a, const std::pair<S, S>& b, const std::pair<S, S>& q) {
            return std::min(a.first, b.first) <= q.first && q.first <= std::max(a.first, b.first) &&
                   std::min(a.second, b.second) <= q.second && q.second <= std::max(a.second, b.second);
        };
        for (std::size_t i = 0; i < m; ++i) {
            const auto& a = p[i];
            const auto& b = p[(i + 1) % m];
            const auto& c = p[(i + 2) % m];
            // The next edge turning straight back along this one.
            if (orient(a, b, c) == 0 &&
                (b.first - a.first) * (c.first - b.first) + (b.second - a.second) * (c.second - b.second) < S(0))
                return "an edge doubles back along the one before it";
            for (std::size_t j = i + 2; j < m; ++j) {
                if (i == 0 && j == m - 1) continue;  // adjacent through the first vertex
                const auto& d = p[j];
                const auto& e = p[(j + 1) % m];
                const int o1 = orient(a, b, d), o2 = orient(a, b, e), o3 = orient(d, e, a), o4 = orient(d, e, b);
                const bool cross = (o1 * o2 < 0 && o3 * o4 < 0) || (o1 == 0 && on_segment(a, b, d)) ||
                                   (o2 == 0 && on_segment(a, b, e)) || (o3 == 0 && on_segment(d, e, a)) ||
                                   (o4 == 0 && on_segment(d, e, b));
                if (cross) return "two edges cross or touch (the outline must not meet itself)";
            }
        }
        return nullptr;
    }

    bool add(std::vector<std::pair<S, S>> p, bool boundary) {
        refusal_ = problem(p);
        if (refusal_ == nullptr && edges_.size() + p.size() > std::size_t{UINT32_MAX}) refusal_ = "too many edges";
        if (refusal_ != nullptr) return false;
        refusal_ = "";
        if (boundary) std::reverse(p.begin(), p.end());
        const std::size_t m = p.size();
        const auto first = static_cast<std::uint32_t>(edges_.size());
        outlines_.push_back({first, static_cast<std::uint32_t>(m), boundary});
        for (std::size_t i = 0; i < m; ++i) {
            const auto& prev = p[(i + m - 1) % m];
            const auto& a = p[i];
            const auto& b = p[(i + 1) % m];
            edge e;
            e.x = a.first;
            e.y = a.second;
            const S ex = b.first - a.first, ey = b.second - a.second;
            e.length = std::sqrt(ex * ex + ey * ey);
            e.dx = ex / e.length;
            e.dy = ey / e.length;
            e.next = first + static_cast<std::uint32_t>((i + 1) % m);
            e.previous = first + static_cast<std::uint32_t>((i + m - 1) % m);
            e.convex = m == 2 || detail::cross2(a.first - prev.first, a.second - prev.second, b.first - a.first,
                                                b.second - a.second) >= S(0);
            edges_.push_back(e);
        }
        rebuild_buckets();
        return true;
    }

    void rebuild_buckets() {
        buckets_.assign(edges_.size(), bucket_, [&](std::size_t i, S& x0, S& y0, S& x1, S& y1) {
            const edge& e = edges_[i];
            const edge& n = edges_[e.next];
            x0 = std::min(e.x, n.x);
            y0 = std::min(e.y, n.y);
            x1 = std::max(e.x, n.x);
            y1 = std::max(e.y, n.y);
            return true;
        });
    }
    // Every bucket overlapping the box, each once (an edge may sit in several).
    template <class F>
    void for_each_bucket(S x0, S y0, S x1, S y1, F&& f) const {
        buckets_.for_each_bucket(x0, y0, x1, y1,
                                 [&](const std::vector<std::uint32_t>& b, std::size_t, std::size_t) { f(b); });
    }

    S bucket_;
    std::vector<edge> edges_;
    detail::box_buckets<S> buckets_;
    std::vector<outline> outlines_;
    const char* refusal_ = "";
};

}  // namespace boids

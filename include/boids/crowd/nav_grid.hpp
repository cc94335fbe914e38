// boids/crowd/nav_grid.hpp - where agents of a given radius can walk among the
// obstacles of a crowd (crowd_obstacles), as a grid of square cells: the ground the
// navigation fields (nav_field.hpp) and paths (nav_path.hpp) are built on.
//
// A cell is walkable when every point of it lies outside every obstacle and at least
// `clearance` (the agents' radius) from every edge, so a route through walkable cells
// keeps an agent's whole disc off the walls. Cells of about half the clearance suit
// most scenes: a gap is walkable when it is wider than 2 clearance + 1.5 cells.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>
#include "../config.hpp"
#include "../vector.hpp"
#include "obstacles2d.hpp"

namespace boids {

// The area a nav_grid covers and how finely.
template <class V>
struct nav_area {
    using S = scalar_t<V>;
    V lower{};                                     // the corner of least x and y
    V upper{};                                     // the corner of greatest x and y
    S cell = S(1);                                 // length: the side of a cell
    S clearance = S(0);                            // length: kept from every edge (the agents' radius)
    std::size_t max_cells = std::size_t(1) << 26;  // a guard against a cell too small for the area

    [[nodiscard]] validation validate() const noexcept {
        const S x0 = boids::get(lower, 0), y0 = boids::get(lower, 1);
        const S x1 = boids::get(upper, 0), y1 = boids::get(upper, 1);
        if (!(std::isfinite(x0) && std::isfinite(y0))) return detail::fail("lower", "must be finite");
        if (!(std::isfinite(x1) && std::isfinite(y1) && x1 > x0 && y1 > y0))
            return detail::fail("upper", "must be finite and greater than lower in x and y");
        if (!(std::isfinite(cell) && cell > S(0))) return detail::fail("cell", "must be finite and > 0");
        if (!(std::isfinite(clearance) && clearance >= S(0)))
            return detail::fail("clearance", "must be finite and >= 0");
        const double columns = std::ceil(static_cast<double>((x1 - x0) / cell));
        const double rows = std::ceil(static_cast<double>((y1 - y0) / cell));
        if (!(columns * rows <= static_cast<double>(max_cells)))
            return detail::fail("cell", "too small for the area: more cells than max_cells");
        return {};
    }
};

template <class V>
class nav_grid {
public:
    using S = scalar_t<V>;
    static_assert(dimension_v<V> == 2, "nav_grid: 2D crowds");
    static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

    // An empty grid (no cells) when the area is not valid: see problem().
    nav_grid(const crowd_obstacles2<V>& obstacles, const nav_area<V>& area) : obstacles_(&obstacles), area_(area) {
        problem_ = area.validate();
        if (!problem_) return;
        x0_ = boids::get(area.lower, 0);
        y0_ = boids::get(area.lower, 1);
        h_ = area.cell;
        columns_ = static_cast<std::size_t>(std::ceil((boids::get(area.upper, 0) - x0_) / h_));
        rows_ = static_cast<std::size_t>(std::ceil((boids::get(area.upper, 1) - y0_) / h_));
        flags_.assign(columns_ * rows_, 0);
        update();
    }

    // Takes in the outlines added to the obstacles since the grid was built or last
    // updated; the cost is that of the cells near the new edges and inside the new
    // outlines (a boundary: every cell outside it), and, when any changed, one pass
    // over the grid for the open ground around each cell. Returns whether any changed.
    bool update() {
        if (flags_.empty()) return false;
        const auto& outlines = obstacles_->outlines();
        bool changed = false;
        for (; outlines_seen_ < outlines.size(); ++outlines_seen_) {
            changed |= mark_inside(outlines[outlines_seen_]);
            changed |= mark_near(outlines[outlines_seen_]);
        }
        if (changed || sight_.size() != flags_.size()) measure_open();
        return changed;
    }

    [[nodiscard]] validation problem() const noexcept { return problem_; }
    [[nodiscard]] const nav_area<V>& area() const noexcept { return area_; }
    [[nodiscard]] const crowd_obstacles2<V>& obstacles() const noexcept { return *obstacles_; }
    [[nodiscard]] std::size_t columns() const noexcept { return columns_; }
    [[nodiscard]] std::size_t rows() const noexcept { return rows_; }
    [[nodiscard]] std::size_t size() const noexcept { return flags_.size(); }
    [[nodiscard]] S cell() const noexcept { return h_; }

    [[nodiscard]] bool walkable(std::size_t c) const noexcept { return c < flags_.size() && flags_[c] == 0; }
    // Whether the cell's centre lies inside an obstacle (not merely near an edge).
    [[nodiscard]] bool inside(std::size_t c) const noexcept { return c < flags_.size() && (flags_[c] & inside_flag); }
    // The cell holding p; none outside the grid (or for a point that is not finite).
    [[nodiscard]] std::size_t cell_at(const V& p) const noexcept {
        const S u = (boids::get(p, 0) - x0_) / h_, v = (boids::get(p, 1) - y0_) / h_;
        if (!(u >= S(0) && v >= S(0) && u < static_cast<S>(columns_) && v < static_cast<S>(rows_))) return none;
        return static_cast<std::size_t>(v) * columns_ + static_cast<std::size_t>(u);
    }
    [[nodiscard]] V centre(std::size_t c) const noexcept {
        return traits_of<V>::make(x0_ + (static_cast<S>(c % columns_) + S(0.5)) * h_,
                                  y0_ + (static_cast<S>(c / columns_) + S(0.5)) * h_);
    }
    [[nodiscard]] bool walkable_at(const V& p) const noexcept { return walkable(cell_at(p)); }

    // Whether the straight segment from a to b passes through walkable cells only,
    // apart from its ends: from a until its first walkable cell, and after its last,
    // it may cross cells that are merely near an edge (an agent pushed against a wall
    // still sees its way out), though never a cell inside an obstacle.
    [[nodiscard]] bool clear_line(const V& a, const V& b) const noexcept {
        if (cell_at(a) == none || cell_at(b) == none) return false;
        // Every cell must be outside; between the first and last walkable ones,
        // walkable. Across open ground the walk jumps: every cell within sight_[c] - 2
        // of a cell c is walkable.
        const S ax = (boids::get(a, 0) - x0_) / h_, ay = (boids::get(a, 1) - y0_) / h_;
        const S dx = (boids::get(b, 0) - x0_) / h_ - ax, dy = (boids::get(b, 1) - y0_) / h_ - ay;
        const S inf = std::numeric_limits<S>::infinity();
        const S tdx = dx != S(0) ? S(1) / std::fabs(dx) : inf, tdy = dy != S(0) ? S(1) / std::fabs(dy) : inf;
        const S per_cell = S(1) / std::max(std::fabs(dx), std::fabs(dy));  // t along the widest axis
        const std::ptrdiff_t sx = dx > S(0) ? 1 : -1, sy = dy > S(0) ? 1 : -1;
        const auto cols = static_cast<std::ptrdiff_t>(columns_), rows = static_cast<std::ptrdiff_t>(rows_);
        const auto ex = static_cast<std::ptrdiff_t>(ax + dx), ey = static_cast<std::ptrdiff_t>(ay + dy);
        const std::uint16_t* sight = sight_.data();
        bool met_walkable = false, shut_since = false;
        // The cell's sight_, or 0 when the line is not clear there.
        auto visit = [&](std::ptrdiff_t x, std::ptrdiff_t y) -> std::uint16_t {
            const std::uint16_t o = sight[y * cols + x];
            if (o == 0) return 0;  // inside an obstacle
            if (o >= 2) {
                if (met_walkable && shut_since) return 0;
                met_walkable = true;
                shut_since = false;
            } else {
                shut_since = true;
            }
            return o;
        };
        S t = S(0);
        for (;;) {  // from the point at t: a walk from cell to cell until a jump
            const S px = ax + t * dx, py = ay + t * dy;
            // The cell the rest of the walk starts in: after a jump that lands on a
            // cell's edge, the one on the walk's side of it.
            auto cell_of = [&](S q, S d) {
                return static_cast<std::ptrdiff_t>(t > S(0) && d < S(0) ? std::ceil(q) - S(1) : std::floor(q));
            };
            auto cx = std::clamp(cell_of(px, dx), std::ptrdiff_t(0), cols - 1);
            auto cy = std::clamp(cell_of(py, dy), std::ptrdiff_t(0), rows - 1);
            S tx = dx != S(0) ? t + (dx > S(0) ? (static_cast<S>(cx + 1) - px) : (px - static_cast<S>(cx))) * tdx : inf;
            S ty = dy != S(0) ? t + (dy > S(0) ? (static_cast<S>(cy + 1) - py) : (py - static_cast<S>(cy))) * tdy : inf;
            std::size_t left = static_cast<std::size_t>(std::abs(ex - cx) + std::abs(ey - cy)) + 1;
            bool jumped = false;
            while (!jumped) {
                const std::uint16_t open = visit(cx, cy);
                if (open == 0) return false;
                if ((cx == ex && cy == ey) || left-- == 0) return true;
                if (open >= 3 && met_walkable && !shut_since) {
                    // Every cell within open - 2 of this one is walkable: skip to half a
                    // cell (along the widest axis) before the line leaves their square.
                    const S reach = static_cast<S>(open - 2);
                    const S next = std::min(tx + reach * tdx, ty + reach * tdy) - S(0.5) * per_cell;
                    if (next >= S(1)) return true;
                    if (next > std::min(tx, ty)) {
                        t = next;
                        jumped = true;
                        continue;
                    }
                }
                if (tx == ty) {  // through a corner: the two cells beside it are touched too
                    if (cx + sx >= 0 && cx + sx < cols && visit(cx + sx, cy) == 0) return false;
                    if (cy + sy >= 0 && cy + sy < rows && visit(cx, cy + sy) == 0) return false;
                    cx += sx;
                    cy += sy;
                    t = tx;
                    tx += tdx;
                    ty += tdy;
                    if (left > 0) --left;
                } else if (tx < ty) {
                    cx += sx;
                    t = tx;
                    tx += tdx;
                } else {
                    cy += sy;
                    t = ty;
                    ty += tdy;
                }
                if (cx < 0 || cy < 0 || cx >= cols || cy >= rows) return true;
            }
        }
    }

    // Calls f(cell) for every cell the segment from a to b touches, in order from a,
    // until f returns false. Both ends must lie in the grid.
    template <class F>
    void for_each_cell_on(const V& a, const V& b, F&& f) const noexcept {
        const S ax = (boids::get(a, 0) - x0_) / h_, ay = (boids::get(a, 1) - y0_) / h_;
        const S bx = (boids::get(b, 0) - x0_) / h_, by = (boids::get(b, 1) - y0_) / h_;
        auto cx = static_cast<std::ptrdiff_t>(ax), cy = static_cast<std::ptrdiff_t>(ay);
        const auto ex = static_cast<std::ptrdiff_t>(bx), ey = static_cast<std::ptrdiff_t>(by);
        const S dx = bx - ax, dy = by - ay;
        const std::ptrdiff_t sx = dx > S(0) ? 1 : -1, sy = dy > S(0) ? 1 : -1;
        const S inf = std::numeric_limits<S>::infinity();
        const S tdx = dx != S(0) ? S(1) / std::fabs(dx) : inf, tdy = dy != S(0) ? S(1) / std::fabs(dy) : inf;
        S tx = dx != S(0) ? (dx > S(0) ? (static_cast<S>(cx + 1) - ax) : (ax - static_cast<S>(cx))) * tdx : inf;
        S ty = dy != S(0) ? (dy > S(0) ? (static_cast<S>(cy + 1) - ay) : (ay - static_cast<S>(cy))) * tdy : inf;
        const auto cols = static_cast<std::ptrdiff_t>(columns_);
        // Steps: at most the cells between the ends; the guard bounds rounding.
        std::size_t left = static_cast<std::size_t>(std::abs(ex - cx) + std::abs(ey - cy)) + 1;
        for (;;) {
            if (!f(static_cast<std::size_t>(cy * cols + cx))) return;
            if ((cx == ex && cy == ey) || left-- == 0) return;
            if (tx == ty) {  // through a corner: the two cells beside it are touched too
                if (cx + sx >= 0 && cx + sx < cols && !f(static_cast<std::size_t>(cy * cols + cx + sx))) return;
                if (cy + sy >= 0 && cy + sy < static_cast<std::ptrdiff_t>(rows_) &&
                    !f(static_cast<std::size_t>((cy + sy) * cols + cx)))
                    return;
                cx += sx;
                cy += sy;
                tx += tdx;
                ty += tdy;
                if (left > 0) --left;
            } else if (tx < ty) {
                cx += sx;
                tx += tdx;
            } else {
                cy += sy;
                ty += tdy;
            }
            if (cx < 0 || cy < 0 || cx >= cols || cy >= static_cast<std::ptrdiff_t>(rows_)) return;
        }
    }

    // The walkable cell nearest p (by centre, searched ring by ring out to `rings`
    // cells); none when there is none that close.
    [[nodiscard]] std::size_t nearest_walkable(const V& p, std::size_t rings = 8) const noexcept {
        const S u = (boids::get(p, 0) - x0_) / h_ - S(0.5), v = (boids::get(p, 1) - y0_) / h_ - S(0.5);
        if (!(std::isfinite(u) && std::isfinite(v))) return none;
        const S far = static_cast<S>(rings) + S(2);  // farther out than this: no cell within `rings`
        const auto cu = static_cast<std::ptrdiff_t>(std::floor(std::clamp(u, -far, static_cast<S>(columns_) + far)));
        const auto cv = static_cast<std::ptrdiff_t>(std::floor(std::clamp(v, -far, static_cast<S>(rows_) + far)));
        std::size_t best = none;
        S best_d = std::numeric_limits<S>::infinity();
        for (std::size_t ring = 0; ring <= rings; ++ring) {
            const auto r = static_cast<std::ptrdiff_t>(ring);
            for (std::ptrdiff_t j = cv - r; j <= cv + r + 1; ++j)
                for (std::ptrdiff_t i = cu - r; i <= cu + r + 1; ++i) {
                    if (i < 0 || j < 0 || i >= static_cast<std::ptrdiff_t>(columns_) ||
                        j >= static_cast<std::ptrdiff_t>(rows_))
                        continue;
                    const std::size_t c = static_cast<std::size_t>(j) * columns_ + static_cast<std::size_t>(i);
                    if (!walkable(c)) continue;
                    const S d = boids::distance_squared(centre(c), p);
                    if (d < best_d) {
                        best_d = d;
                        best = c;
                    }
                }
            if (best != none) return best;
        }
        return none;
    }

private:
    static constexpr std::uint8_t inside_flag = 1, near_flag = 2;

    // Cells whose centre lies inside a polygon, or outside a boundary.
    bool mark_inside(const typename crowd_obstacles2<V>::outline& o) {
        if (o.count < 3) return false;  // a wall has no inside
        const auto& edges = obstacles_->edges();
        bool changed = false;
        std::vector<S> xs;
        for (std::size_t r = 0; r < rows_; ++r) {
            const S y = y0_ + (static_cast<S>(r) + S(0.5)) * h_;
            xs.clear();
            for (std::uint32_t k = 0; k < o.count; ++k) {
                const auto& e = edges[o.first + k];
                const auto& n = edges[e.next];
                if ((e.y <= y) == (n.y <= y)) continue;  // half-open: a vertex on the row counts once
                xs.push_back(e.x + (y - e.y) * (n.x - e.x) / (n.y - e.y));
            }
            std::sort(xs.begin(), xs.end());
            auto fill = [&](S from, S to) {  // centres in [from, to)
                const S a = std::ceil((from - x0_) / h_ - S(0.5)), b = std::ceil((to - x0_) / h_ - S(0.5));
                const auto i0 = static_cast<std::size_t>(std::clamp(a, S(0), static_cast<S>(columns_)));
                const auto i1 = static_cast<std::size_t>(std::clamp(b, S(0), static_cast<S>(columns_)));
                for (std::size_t i = i0; i < i1; ++i) {
                    std::uint8_t& f = flags_[r * columns_ + i];
                    changed |= (f & inside_flag) == 0;
                    f |= inside_flag;
                }
            };
            const S lo = std::numeric_limits<S>::lowest(), hi = std::numeric_limits<S>::max();
            if (o.boundary) {
                if (xs.empty()) {
                    fill(lo, hi);
                    continue;
                }
                fill(lo, xs.front());
                for (std::size_t k = 1; k + 1 < xs.size(); k += 2) fill(xs[k], xs[k + 1]);
                fill(xs.back(), hi);
            } else {
                for (std::size_t k = 0; k + 1 < xs.size(); k += 2) fill(xs[k], xs[k + 1]);
            }
        }
        return changed;
    }

    // Cells with a point closer to an edge than the clearance: their centre lies
    // within clearance + half the cell's diagonal.
    bool mark_near(const typename crowd_obstacles2<V>::outline& o) {
        const auto& edges = obstacles_->edges();
        const S reach = area_.clearance + h_ * S(0.7071068);
        const S reach2 = reach * reach;
        bool changed = false;
        const std::uint32_t count = o.count == 2 ? 1 : o.count;  // a wall: one segment
        for (std::uint32_t k = 0; k < count; ++k) {
            const auto& e = edges[o.first + k];
            const auto& n = edges[e.next];
            const S ylo = std::min(e.y, n.y) - reach, yhi = std::max(e.y, n.y) + reach;
            const auto r0 = row_at_or_after(ylo), r1 = row_at_or_after(yhi);
            for (std::size_t r = r0; r < r1; ++r) {
                const S y = y0_ + (static_cast<S>(r) + S(0.5)) * h_;
                // The edge's x within reach of this row, widened by the reach.
                S xa = e.x, xb = n.x;
                if (e.y != n.y) {
                    const S ta = std::clamp((y - reach - e.y) / (n.y - e.y), S(0), S(1));
                    const S tb = std::clamp((y + reach - e.y) / (n.y - e.y), S(0), S(1));
                    xa = e.x + ta * (n.x - e.x);
                    xb = e.x + tb * (n.x - e.x);
                }
                const S xlo = std::min(xa, xb) - reach, xhi = std::max(xa, xb) + reach;
                const S a = std::ceil((xlo - x0_) / h_ - S(0.5)), b = std::ceil((xhi - x0_) / h_ - S(0.5));
                const auto i0 = static_cast<std::size_t>(std::clamp(a, S(0), static_cast<S>(columns_)));
                const auto i1 = static_cast<std::size_t>(std::clamp(b, S(0), static_cast<S>(columns_)));
                for (std::size_t i = i0; i < i1; ++i) {
                    const S x = x0_ + (static_cast<S>(i) + S(0.5)) * h_;
                    S t = (x - e.x) * e.dx + (y - e.y) * e.dy;
                    t = std::clamp(t, S(0), e.length);
                    const S qx = e.x + t * e.dx - x, qy = e.y + t * e.dy - y;
                    if (!(qx * qx + qy * qy < reach2)) continue;
                    std::uint8_t& f = flags_[r * columns_ + i];
                    changed |= (f & near_flag) == 0;
                    f |= near_flag;
                }
            }
        }
        return changed;
    }
    // sight_[c], what clear_line reads of a cell in one load: 0 inside an obstacle,
    // 1 outside but not walkable, else 1 + the chessboard distance to the nearest cell
    // that is not walkable (or past the grid's edge), at most 65535, so that every cell
    // within sight_[c] - 2 of c is walkable: two passes of a chamfer distance.
    void measure_open() {
        sight_.assign(flags_.size(), 0);
        const std::size_t cols = columns_;
        auto at = [&](std::size_t x, std::size_t y) -> std::uint16_t& { return sight_[y * cols + x]; };
        for (std::size_t y = 0; y < rows_; ++y)
            for (std::size_t x = 0; x < cols; ++x) {
                if (flags_[y * cols + x] != 0) continue;
                unsigned m = 1;  // beside the grid's edge
                if (x > 0 && y > 0 && x + 1 < cols) {
                    m = std::min({at(x - 1, y), at(x - 1, y - 1), at(x, y - 1), at(x + 1, y - 1)}) + 1u;
                }
                at(x, y) = static_cast<std::uint16_t>(std::min(m, 65534u));
            }
        for (std::size_t y = rows_; y-- > 0;)
            for (std::size_t x = cols; x-- > 0;) {
                std::uint16_t& o = at(x, y);
                if (o == 0) continue;
                if (x + 1 >= cols || y + 1 >= rows_ || x == 0) {
                    o = 1;
                    continue;
                }
                const unsigned m = std::min({at(x + 1, y), at(x + 1, y + 1), at(x, y + 1), at(x - 1, y + 1)}) + 1u;
                if (m < o) o = static_cast<std::uint16_t>(m);
            }
        for (std::size_t c = 0; c < sight_.size(); ++c) {
            std::uint16_t& o = sight_[c];
            o = o != 0 ? static_cast<std::uint16_t>(o + 1) : (flags_[c] & inside_flag) != 0 ? 0 : 1;
        }
    }

    // The first row whose centre lies at or after y (clamped to [0, rows]).
    [[nodiscard]] std::size_t row_at_or_after(S y) const noexcept {
        const S a = std::ceil((y - y0_) / h_ - S(0.5));
        return static_cast<std::size_t>(std::clamp(a, S(0), static_cast<S>(rows_)));
    }

    const crowd_obstacles2<V>* obstacles_;
    nav_area<V> area_;
    validation problem_{};
    S x0_ = S(0), y0_ = S(0), h_ = S(1);
    std::size_t columns_ = 0, rows_ = 0, outlines_seen_ = 0;
    std::vector<std::uint8_t> flags_;
    std::vector<std::uint16_t> sight_;
};

}  // namespace boids

// boids/crowd/nav_field.hpp - a navigation field: the travel cost from every walkable
// cell of a nav_grid to the nearest of a set of goals, and the direction to walk from
// any point, which any number of agents heading for those goals share (a flow field,
// as RTS games move their units).
//
// The cost is the eikonal equation's solution by fast marching (Sethian), so routes run
// straight across open ground and round corners at the clearance, rather than in the
// eight directions of a grid search. An optional congestion term (Treuille, Cooper and
// Popovic's continuum crowds, simplified) makes ground that other agents occupy, or
// walk across against the field, cost more, so that crowds spread over other openings
// and counter-flows keep apart.
//
// Cost: build() is O(n log n) in the walkable cells n (docs/crowds.md); direction() and
// distance() read four cells, allocate nothing and may run on any number of threads at once.
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
#include "nav_grid.hpp"

namespace boids {

// How much a crowd slows the field's routes: a cell's cost per length is
// 1 + density * (agents covering its centre) + counterflow * (the same, each weighted
// by how squarely it walks against the field there, 0 to 1).
template <class S>
struct nav_congestion {
    S density = S(0);
    S counterflow = S(0);
    S agent_radius = S(0.5);  // length: an agent covers the cells within this of its centre
    S ahead = S(0);           // s: the counterflow also covers each agent's way over this time ahead
    // What boids-lab crowd builds with: lanes through doors, other openings taken (docs/crowds.md).
    [[nodiscard]] static nav_congestion for_crowd(S radius) noexcept { return {S(0.5), S(12), radius, S(30)}; }

    [[nodiscard]] validation validate() const noexcept {
        if (!(std::isfinite(density) && density >= S(0))) return detail::fail("density", "must be finite and >= 0");
        if (!(std::isfinite(counterflow) && counterflow >= S(0)))
            return detail::fail("counterflow", "must be finite and >= 0");
        if (!(std::isfinite(agent_radius) && agent_radius > S(0)))
            return detail::fail("agent_radius", "must be finite and > 0");
        if (!(std::isfinite(ahead) && ahead >= S(0))) return detail::fail("ahead", "must be finite and >= 0");
        return {};
    }
};

template <class V>
class nav_field {
public:
    using S = scalar_t<V>;
    static constexpr S unreachable = std::numeric_limits<S>::infinity();

    // The grid must outlive the field; after grid.update() changes cells, build again.
    explicit nav_field(const nav_grid<V>& grid) : grid_(&grid) {}

    // The goals: the field leads to the nearest. A goal off the walkable cells counts
    // from the walkable cell nearest it (within 8 cells). False when none of them has
    // one; the goals apply at the next build().
    bool set_goal(const V& goal) { return set_goals(span<const V>(&goal, 1)); }
    bool set_goals(span<const V> goals) {
        goals_.clear();
        for (const V& g : goals) {
            const std::size_t c = grid_->walkable_at(g) ? grid_->cell_at(g) : grid_->nearest_walkable(g);
            if (c != nav_grid<V>::none) goals_.push_back({g, c});
        }
        return !goals_.empty();
    }

    // The crowd whose congestion the next build() counts (velocities may be empty:
    // density alone; intents, the way each means to go, e.g. its preferred velocity,
    // set the way ahead that nav_congestion::ahead covers, else the velocities do).
    // Replaces the last crowd; empty positions clear it.
    void set_crowd(span<const V> position, span<const V> velocity, const nav_congestion<S>& congestion,
                   span<const V> intent = {}) {
        slowness_.assign(grid_->size(), S(1));
        if (position.empty() || !congestion.validate() ||
            (congestion.density == S(0) && congestion.counterflow == S(0)))
            return;
        const S h = grid_->cell(), r = congestion.agent_radius, r2 = r * r;
        const auto reach = static_cast<std::ptrdiff_t>(std::ceil(r / h)) + 1;
        const auto columns = static_cast<std::ptrdiff_t>(grid_->columns());
        const auto rows = static_cast<std::ptrdiff_t>(grid_->rows());
        const bool have_directions = direction_x_.size() == grid_->size();
        S ux = S(0), uy = S(0);                              // the heading's components
        auto unit = [&](const V& v, V& heading, S& speed) {  // false where v is zero or not finite
            speed = boids::length(v);
            if (!(std::isfinite(speed) && speed > S(0))) return false;
            ux = boids::get(v, 0) / speed;
            uy = boids::get(v, 1) / speed;
            heading = boids::scale(v, S(1) / speed);
            return true;
        };
        for (std::size_t i = 0; i < position.size(); ++i) {
            const V& p = position[i];
            if (grid_->cell_at(p) == nav_grid<V>::none) continue;
            S speed = S(0);
            V heading{};  // its velocity's direction, then its intent's
            bool walking = i < velocity.size() && unit(velocity[i], heading, speed);
            // The cells within r of `at`: density, and counterflow x weight if heading against the field.
            auto cover = [&](const V& at, S density, S weight) {
                const std::size_t centre = grid_->cell_at(at);
                if (centre == nav_grid<V>::none) return;
                const auto hx = static_cast<std::ptrdiff_t>(centre % grid_->columns());
                const auto hy = static_cast<std::ptrdiff_t>(centre / grid_->columns());
                for (std::ptrdiff_t y = std::max<std::ptrdiff_t>(hy - reach, 0); y <= std::min(hy + reach, rows - 1);
                     ++y)
                    for (std::ptrdiff_t x = std::max<std::ptrdiff_t>(hx - reach, 0);
                         x <= std::min(hx + reach, columns - 1); ++x) {
                        const auto c = static_cast<std::size_t>(y * columns + x);
                        if (!(boids::distance_squared(grid_->centre(c), at) <= r2)) continue;
                        S cost = density;
                        if (have_directions && walking) {
                            const S against = -(ux * direction_x_[c] + uy * direction_y_[c]);
                            if (against > S(0)) cost += weight * congestion.counterflow * against;
                        }
                        slowness_[c] += cost;
                    }
            };
            cover(p, congestion.density, S(1));
            if (i < intent.size()) walking = unit(intent[i], heading, speed);
            if (!have_directions || !walking || congestion.counterflow == S(0)) continue;
            // The way ahead fades along it (a claim, not a wall: one agent can still cross it).
            for (S t = r, way = congestion.ahead * speed; t <= way; t += r) {
                const V at = boids::add_scaled(p, heading, t);
                if (!grid_->walkable_at(at)) break;
                cover(at, S(0), S(1) - t / (way + r));
            }
        }
    }
    void clear_crowd() { slowness_.clear(); }

    // Marches the cost out from the goals over the walkable cells (the grid as it is
    // now); false when there is no goal. Allocates only on the first build of a grid.
    bool build() {
        const std::size_t n = grid_->size();
        cost_.assign(n, unreachable);
        direction_x_.assign(n, S(0));
        direction_y_.assign(n, S(0));
        state_.assign(n, far);
        heap_.clear();
        slot_.assign(n, no_slot);
        if (goals_.empty() || n == 0) return false;
        const bool slowed = slowness_.size() == n;
        const S h = grid_->cell();
        // Around each goal, the cells in its view within three cells start at their
        // straight distance: the march's error lies mostly at its sources.
        const auto columns = static_cast<std::ptrdiff_t>(grid_->columns());
        const auto rows = static_cast<std::ptrdiff_t>(grid_->rows());
        for (const goal_cell& g : goals_) {
            const auto gx = static_cast<std::ptrdiff_t>(g.cell % grid_->columns());
            const auto gy = static_cast<std::ptrdiff_t>(g.cell / grid_->columns());
            for (std::ptrdiff_t y = std::max<std::ptrdiff_t>(gy - 3, 0);
                 y <= std::min<std::ptrdiff_t>(gy + 3, rows - 1); ++y)
                for (std::ptrdiff_t x = std::max<std::ptrdiff_t>(gx - 3, 0);
                     x <= std::min<std::ptrdiff_t>(gx + 3, columns - 1); ++x) {
                    const auto c = static_cast<std::size_t>(y * columns + x);
                    if (!grid_->walkable(c)) continue;
                    const V centre = grid_->centre(c);
                    if (c != g.cell && !grid_->clear_line(centre, grid_->centre(g.cell))) continue;
                    const V aim = grid_->walkable_at(g.point) ? g.point : grid_->centre(g.cell);
                    const S d = boids::distance(centre, aim) * (slowed ? slowness_[c] : S(1));
                    if (d < cost_[c]) {
                        cost_[c] = d;
                        const S len = boids::distance(centre, aim);
                        direction_x_[c] = len > S(0) ? (boids::get(aim, 0) - boids::get(centre, 0)) / len : S(0);
                        direction_y_[c] = len > S(0) ? (boids::get(aim, 1) - boids::get(centre, 1)) / len : S(0);
                        state_[c] = source;
                        heap_update(c, d);
                    }
                }
        }
        while (!heap_.empty()) {
            const std::size_t c = heap_pop();
            state_[c] = state_[c] == source ? source_done : frozen;  // a source keeps its straight direction
            const auto x = static_cast<std::ptrdiff_t>(c % grid_->columns());
            const auto y = static_cast<std::ptrdiff_t>(c / grid_->columns());
            const std::ptrdiff_t nx[4] = {x - 1, x + 1, x, x}, ny[4] = {y, y, y - 1, y + 1};
            for (int k = 0; k < 4; ++k) {
                if (nx[k] < 0 || ny[k] < 0 || nx[k] >= columns || ny[k] >= rows) continue;
                const auto m = static_cast<std::size_t>(ny[k] * columns + nx[k]);
                if (state_[m] >= frozen || !grid_->walkable(m)) continue;
                const S f = (slowed ? slowness_[m] : S(1)) * h;
                const S a = frozen_cost(nx[k] - 1, ny[k], nx[k] + 1, ny[k]);
                const S b = frozen_cost(nx[k], ny[k] - 1, nx[k], ny[k] + 1);
                S value;
                if (!(std::fabs(a - b) < f)) {  // one side only (the other farther or unknown)
                    value = std::min(a, b) + f;
                } else {
                    value = S(0.5) * (a + b + std::sqrt(S(2) * f * f - (a - b) * (a - b)));
                }
                if (value < cost_[m]) {
                    cost_[m] = value;
                    state_[m] = trial;
                    heap_update(m, value);
                }
            }
        }
        // Directions: down the cost's upwind differences; a cell the march did not
        // reach but that borders one it did (a cell near a wall, where a pushed agent
        // may stand) points to its cheapest neighbour.
        for (std::size_t c = 0; c < n; ++c) {
            if (state_[c] == source_done) continue;
            const auto x = static_cast<std::ptrdiff_t>(c % grid_->columns());
            const auto y = static_cast<std::ptrdiff_t>(c / grid_->columns());
            if (cost_[c] < unreachable) {
                S gx = S(0), gy = S(0);
                upwind(cost_[c], at(x - 1, y), at(x + 1, y), gx);
                upwind(cost_[c], at(x, y - 1), at(x, y + 1), gy);
                const S len = std::sqrt(gx * gx + gy * gy);
                if (len > S(0)) {
                    direction_x_[c] = -gx / len;
                    direction_y_[c] = -gy / len;
                }
                continue;
            }
            if (grid_->inside(c)) continue;
            S best = unreachable;
            std::ptrdiff_t bx = 0, by = 0;
            for (std::ptrdiff_t dy = -1; dy <= 1; ++dy)
                for (std::ptrdiff_t dx = -1; dx <= 1; ++dx) {
                    const S v = at(x + dx, y + dy) + (dx != 0 && dy != 0 ? S(1.4142136) : S(1)) * h;
                    if (v < best) {
                        best = v;
                        bx = dx;
                        by = dy;
                    }
                }
            if (best < unreachable) {
                const S len = std::sqrt(static_cast<S>(bx * bx + by * by));
                direction_x_[c] = static_cast<S>(bx) / len;
                direction_y_[c] = static_cast<S>(by) / len;
            }
        }
        return true;
    }

    // The travel cost from p to the nearest goal (a length where there is no congestion),
    // interpolated between the cells around p; unreachable where none was reached.
    [[nodiscard]] S distance(const V& p) const noexcept {
        S sum = S(0), weight = S(0);
        corners(p, [&](std::size_t c, S w) {
            if (cost_[c] < unreachable) {
                sum += w * cost_[c];
                weight += w;
            }
        });
        return weight > S(0) ? sum / weight : unreachable;
    }

    // The unit direction to walk from p toward the nearest goal, interpolated between
    // the cells around p; zero where there is none (no route, or outside the grid).
    [[nodiscard]] V direction(const V& p) const noexcept {
        S x = S(0), y = S(0);
        corners(p, [&](std::size_t c, S w) {
            x += w * direction_x_[c];
            y += w * direction_y_[c];
        });
        const S len = std::sqrt(x * x + y * y);
        if (!(len > S(1e-6))) {
            const std::size_t c = grid_->cell_at(p);
            if (c == nav_grid<V>::none || direction_x_.size() != grid_->size()) return boids::zero<V>();
            return traits_of<V>::make(direction_x_[c], direction_y_[c]);
        }
        return traits_of<V>::make(x / len, y / len);
    }

    // A preferred velocity for an agent at p bound for its own `goal` (one of the
    // field's goals, or a point near them): straight at it once the way is clear on
    // the grid, slowing within `slow_within` of it; along the field until then.
    [[nodiscard]] V preferred_velocity(const V& p, const V& goal, S speed, S slow_within = S(1)) const noexcept {
        if (grid_->clear_line(p, goal)) {
            const V to = boids::sub(goal, p);
            const S d = boids::length(to);
            if (!(d > S(0))) return boids::zero<V>();
            return boids::scale(to, speed / std::max(d, slow_within > S(0) ? slow_within : d));
        }
        return boids::scale(direction(p), speed);
    }

    [[nodiscard]] const nav_grid<V>& grid() const noexcept { return *grid_; }
    // Per cell (index x + columns * y): the cost, and the direction's components.
    [[nodiscard]] span<const S> costs() const noexcept { return span<const S>(cost_); }
    [[nodiscard]] span<const S> directions_x() const noexcept { return span<const S>(direction_x_); }
    [[nodiscard]] span<const S> directions_y() const noexcept { return span<const S>(direction_y_); }
    // The cost per length of each cell the next build() counts (1 + set_crowd's; empty: no crowd).
    [[nodiscard]] span<const S> slowness() const noexcept { return span<const S>(slowness_); }

private:
    // A source starts with its straight distance; the march settles it unchanged.
    enum : std::uint8_t { far = 0, trial = 1, frozen = 2, source = 3, source_done = 4 };
    static bool settled(std::uint8_t state) noexcept { return state == frozen || state == source_done; }
    struct goal_cell {
        V point;
        std::size_t cell;
    };

    [[nodiscard]] S at(std::ptrdiff_t x, std::ptrdiff_t y) const noexcept {
        if (x < 0 || y < 0 || x >= static_cast<std::ptrdiff_t>(grid_->columns()) ||
            y >= static_cast<std::ptrdiff_t>(grid_->rows()))
            return unreachable;
        return cost_[static_cast<std::size_t>(y) * grid_->columns() + static_cast<std::size_t>(x)];
    }
    // The smaller cost of two neighbours that the march has settled.
    [[nodiscard]] S frozen_cost(std::ptrdiff_t x1, std::ptrdiff_t y1, std::ptrdiff_t x2,
                                std::ptrdiff_t y2) const noexcept {
        auto settled_cost = [&](std::ptrdiff_t x, std::ptrdiff_t y) {
            if (x < 0 || y < 0 || x >= static_cast<std::ptrdiff_t>(grid_->columns()) ||
                y >= static_cast<std::ptrdiff_t>(grid_->rows()))
                return unreachable;
            const std::size_t c = static_cast<std::size_t>(y) * grid_->columns() + static_cast<std::size_t>(x);
            return settled(state_[c]) ? cost_[c] : unreachable;
        };
        return std::min(settled_cost(x1, y1), settled_cost(x2, y2));
    }
    // The cost's slope along one axis from the cheaper neighbour (0 when neither is
    // cheaper than the cell).
    void upwind(S here, S below, S above, S& slope) const noexcept {
        const S h = grid_->cell();
        if (below < here && below <= above) slope = (here - below) / h;
        else if (above < here) slope = (above - here) / h;
    }
    // Calls f(cell, weight) for the (up to four) cells whose centres surround p, with
    // bilinear weights; outside the grid, the nearest edge cells.
    template <class F>
    void corners(const V& p, F&& f) const noexcept {
        if (direction_x_.size() != grid_->size() || grid_->size() == 0) return;
        const auto& a = grid_->area();
        const S h = grid_->cell();
        S u = (boids::get(p, 0) - boids::get(a.lower, 0)) / h - S(0.5);
        S v = (boids::get(p, 1) - boids::get(a.lower, 1)) / h - S(0.5);
        if (!(std::isfinite(u) && std::isfinite(v))) return;
        const S cmax = static_cast<S>(grid_->columns() - 1), rmax = static_cast<S>(grid_->rows() - 1);
        u = std::clamp(u, S(0), cmax);
        v = std::clamp(v, S(0), rmax);
        const auto i0 = static_cast<std::size_t>(u), j0 = static_cast<std::size_t>(v);
        const std::size_t i1 = std::min(i0 + 1, grid_->columns() - 1), j1 = std::min(j0 + 1, grid_->rows() - 1);
        const S tu = u - static_cast<S>(i0), tv = v - static_cast<S>(j0);
        const std::size_t cols = grid_->columns();
        f(j0 * cols + i0, (S(1) - tu) * (S(1) - tv));
        if (i1 != i0) f(j0 * cols + i1, tu * (S(1) - tv));
        if (j1 != j0) f(j1 * cols + i0, (S(1) - tu) * tv);
        if (i1 != i0 && j1 != j0) f(j1 * cols + i1, tu * tv);
    }

    const nav_grid<V>* grid_;
    std::vector<goal_cell> goals_;
    std::vector<S> cost_, direction_x_, direction_y_, slowness_;
    std::vector<std::uint8_t> state_;
    // The march's front: a binary heap of (cost, cell) that knows where each cell sits (a
    // cell whose cost falls moves up, not in twice); a pop picks the cheaper child branch-free.
    static constexpr std::uint32_t no_slot = 0xFFFFFFFFu;
    std::vector<std::pair<S, std::uint32_t>> heap_;
    std::vector<std::uint32_t> slot_;

    void heap_place(std::size_t at, const std::pair<S, std::uint32_t>& e) noexcept {
        heap_[at] = e;
        slot_[e.second] = static_cast<std::uint32_t>(at);
    }
    void heap_update(std::size_t cell, S key) {
        std::size_t at = slot_[cell];
        if (at == no_slot) {
            at = heap_.size();
            heap_.push_back({key, static_cast<std::uint32_t>(cell)});
        }
        const std::pair<S, std::uint32_t> e{key, static_cast<std::uint32_t>(cell)};
        while (at > 0) {
            const std::size_t parent = (at - 1) / 2;
            if (!(e.first < heap_[parent].first)) break;
            heap_place(at, heap_[parent]);
            at = parent;
        }
        heap_place(at, e);
    }
    std::size_t heap_pop() noexcept {
        const std::size_t top = heap_.front().second;
        slot_[top] = no_slot;
        const std::pair<S, std::uint32_t> last = heap_.back();
        heap_.pop_back();
        const std::size_t size = heap_.size();
        if (size == 0) return top;
        std::size_t at = 0;
        for (;;) {
            std::size_t child = 2 * at + 1;
            if (child >= size) break;
            child += static_cast<std::size_t>(child + 1 < size && heap_[child + 1].first < heap_[child].first);
            if (!(heap_[child].first < last.first)) break;
            heap_place(at, heap_[child]);
            at = child;
        }
        heap_place(at, last);
        return top;
    }
};

}  // namespace boids

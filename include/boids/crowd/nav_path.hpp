// boids/crowd/nav_path.hpp - a route of its own for an agent that shares its goal
// with no other: the shortest path over a nav_grid's walkable cells (A*, eight
// directions), pulled taut into a corridor of corners that follow_path can walk.
//
// Cost: A* visits at most every walkable cell once (O(n log n)); it allocates its
// working arrays per call, so plan when a goal changes, not every step.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>
#include "../vector.hpp"
#include "nav_grid.hpp"

namespace boids {

// Writes the corners of a shortest route from `from` to `to` into `corners` (cleared
// first): `from`, the corners where the route turns (walkable cell centres), then
// `to`. Every straight leg between two corners passes through walkable cells only
// (grid.clear_line). A point off the walkable cells starts or ends at the walkable
// cell nearest it (within 8 cells). False, with `corners` empty, when there is no
// route.
template <class V>
bool find_path(const nav_grid<V>& grid, const V& from, const V& to, std::vector<V>& corners) {
    using S = scalar_t<V>;
    corners.clear();
    constexpr std::size_t none = nav_grid<V>::none;
    const std::size_t start = grid.walkable_at(from) ? grid.cell_at(from) : grid.nearest_walkable(from);
    const std::size_t goal = grid.walkable_at(to) ? grid.cell_at(to) : grid.nearest_walkable(to);
    if (start == none || goal == none) return false;
    const std::size_t n = grid.size(), columns = grid.columns();
    const auto cols = static_cast<std::ptrdiff_t>(columns), rows = static_cast<std::ptrdiff_t>(grid.rows());
    const S h = grid.cell(), diagonal = h * S(1.4142135623730951);
    std::vector<S> cost(n, std::numeric_limits<S>::infinity());
    std::vector<std::uint32_t> parent(n, std::numeric_limits<std::uint32_t>::max());
    std::vector<std::pair<S, std::uint32_t>> open;
    const auto gx = static_cast<std::ptrdiff_t>(goal % columns), gy = static_cast<std::ptrdiff_t>(goal / columns);
    auto estimate = [&](std::size_t c) {  // octile distance: never more than the grid route
        const auto dx = static_cast<S>(std::abs(static_cast<std::ptrdiff_t>(c % columns) - gx));
        const auto dy = static_cast<S>(std::abs(static_cast<std::ptrdiff_t>(c / columns) - gy));
        return h * (std::max(dx, dy) - std::min(dx, dy)) + diagonal * std::min(dx, dy);
    };
    cost[start] = S(0);
    open.push_back({estimate(start), static_cast<std::uint32_t>(start)});
    bool found = false;
    while (!open.empty()) {
        std::pop_heap(open.begin(), open.end(), std::greater<>());
        const auto [f, c32] = open.back();
        open.pop_back();
        const std::size_t c = c32;
        if (f > cost[c] + estimate(c)) continue;  // a stale entry
        if (c == goal) {
            found = true;
            break;
        }
        const auto x = static_cast<std::ptrdiff_t>(c % columns), y = static_cast<std::ptrdiff_t>(c / columns);
        for (std::ptrdiff_t dy = -1; dy <= 1; ++dy)
            for (std::ptrdiff_t dx = -1; dx <= 1; ++dx) {
                if (dx == 0 && dy == 0) continue;
                const std::ptrdiff_t mx = x + dx, my = y + dy;
                if (mx < 0 || my < 0 || mx >= cols || my >= rows) continue;
                const auto m = static_cast<std::size_t>(my * cols + mx);
                if (!grid.walkable(m)) continue;
                // A diagonal step needs both cells beside it: it never cuts a corner.
                if (dx != 0 && dy != 0 &&
                    (!grid.walkable(static_cast<std::size_t>(y * cols + mx)) ||
                     !grid.walkable(static_cast<std::size_t>(my * cols + x))))
                    continue;
                const S g = cost[c] + (dx != 0 && dy != 0 ? diagonal : h);
                if (!(g < cost[m])) continue;
                cost[m] = g;
                parent[m] = static_cast<std::uint32_t>(c);
                open.push_back({g + estimate(m), static_cast<std::uint32_t>(m)});
                std::push_heap(open.begin(), open.end(), std::greater<>());
            }
    }
    if (!found) return false;
    std::vector<std::size_t> cells;
    for (std::size_t c = goal; c != start; c = parent[c]) cells.push_back(c);
    cells.push_back(start);
    std::reverse(cells.begin(), cells.end());
    // Pulled taut: from each corner, on to the farthest cell still in view.
    corners.push_back(from);
    V anchor = from;
    std::size_t i = 0;
    while (i + 1 < cells.size()) {
        if (grid.clear_line(anchor, to)) break;
        std::size_t j = i + 1;
        while (j + 1 < cells.size() && grid.clear_line(anchor, grid.centre(cells[j + 1]))) ++j;
        anchor = grid.centre(cells[j]);
        corners.push_back(anchor);
        i = j;
    }
    corners.push_back(to);
    return true;
}

}  // namespace boids

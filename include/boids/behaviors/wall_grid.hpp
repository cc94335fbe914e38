// boids/behaviors/wall_grid.hpp - the walls near an agent, out of a level's many: a grid
// of buckets over the walls, built once, that selects those within a radius for
// avoid_walls and follow_wall. Their cost grows with every wall they are given; given
// the walls within their wall_range(), they return what they would with all of them.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>
#include "../detail/box_buckets.hpp"
#include "../span.hpp"
#include "avoid_obstacles.hpp"

namespace boids {

// The walls a query selected, kept by the caller from one query to the next so that a
// steady-state query allocates nothing.
template <class V>
struct wall_selection {
    std::vector<std::uint32_t> indices;  // into the grid's walls, ascending
    std::vector<wall<V>> walls;          // those walls, in the same order

    [[nodiscard]] span<const wall<V>> view() const noexcept { return {walls.data(), walls.size()}; }
};

template <class V>
class wall_grid {
public:
    static_assert(dimension_v<V> == 2, "wall_grid is 2D (its walls are segments)");
    using S = scalar_t<V>;

    // The walls are copied. bucket: the side of the grid's square buckets (length), about
    // the radius you query suits; one that is not finite and > 0 gives a 64th of the
    // walls' extent. It grows where the level would need more than about 4 buckets a wall
    // (bucket() is the side used). Walls that are not finite go in no bucket and are never
    // selected (follow_wall's validate() rejects them).
    explicit wall_grid(span<const wall<V>> walls, S bucket) : walls_(walls.begin(), walls.end()) {
        // At most about 4 buckets a wall, so that a bucket far smaller than the level
        // costs neither memory nor the time of visiting empty buckets.
        const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(4.0 * static_cast<double>(walls_.size()))));
        buckets_.assign(
            walls_.size(), bucket,
            [&](std::size_t i, S& x0, S& y0, S& x1, S& y1) { return box(walls_[i], x0, y0, x1, y1); },
            std::min<std::size_t>(std::max<std::size_t>(side, 8), 1024));
        bucket_ = buckets_.cell();
        first_bucket_.resize(walls_.size());
        for (std::size_t i = 0; i < walls_.size(); ++i) {
            S x0 = S(0), y0 = S(0), x1 = S(0), y1 = S(0);
            if (box(walls_[i], x0, y0, x1, y1)) first_bucket_[i] = {buckets_.column(x0), buckets_.row(y0)};
        }
    }

    [[nodiscard]] const std::vector<wall<V>>& walls() const noexcept { return walls_; }
    [[nodiscard]] S bucket() const noexcept { return bucket_; }

    // The walls whose nearest point lies within `radius` of `position`, in the order
    // they were given, into `out` (cleared first). An infinite radius selects every
    // finite wall; a NaN or negative one, none.
    void near(const V& position, S radius, wall_selection<V>& out) const {
        out.indices.clear();
        out.walls.clear();
        if (!(radius >= S(0)) || !boids::is_finite(position)) return;
        const S px = boids::get(position, 0), py = boids::get(position, 1);
        // The buckets of the query's box, a few roundings wider: a wall whose distance
        // rounds to the radius may lie a hair outside the box.
        const S reach = radius + (radius + std::fabs(px) + std::fabs(py)) * S(4) * std::numeric_limits<S>::epsilon() +
                        S(4) * std::numeric_limits<S>::denorm_min();
        const std::size_t query_column = buckets_.column(px - reach), query_row = buckets_.row(py - reach);
        buckets_.for_each_bucket(
            px - reach, py - reach, px + reach, py + reach,
            [&](const std::vector<std::uint32_t>& items, std::size_t column, std::size_t row) {
                for (const std::uint32_t i : items) {
                    // A wall sits in every bucket its box covers: take it in the first
                    // of those the query visits (its lowest row, then column, in the query's).
                    const bucket_index& first = first_bucket_[i];
                    if (column != std::max(first.column, query_column) || row != std::max(first.row, query_row))
                        continue;
                    if (boids::distance(position, detail::nearest_on_wall(walls_[i], position)) <= radius)
                        out.indices.push_back(i);
                }
            });
        std::sort(out.indices.begin(), out.indices.end());
        for (const std::uint32_t i : out.indices) out.walls.push_back(walls_[i]);
    }

private:
    static bool box(const wall<V>& w, S& x0, S& y0, S& x1, S& y1) noexcept {
        if (!boids::is_finite(w.a) || !boids::is_finite(w.b)) return false;
        x0 = std::min(boids::get(w.a, 0), boids::get(w.b, 0));
        y0 = std::min(boids::get(w.a, 1), boids::get(w.b, 1));
        x1 = std::max(boids::get(w.a, 0), boids::get(w.b, 0));
        y1 = std::max(boids::get(w.a, 1), boids::get(w.b, 1));
        return true;
    }
    struct bucket_index {
        std::size_t column = 0, row = 0;
    };
    std::vector<wall<V>> walls_;
    std::vector<bucket_index> first_bucket_;  // of each wall's box: its lowest column and row
    S bucket_ = S(1);
    detail::box_buckets<S> buckets_;
};

}  // namespace boids

// boids/behaviors/obstacle_grid.hpp - the round obstacles near an agent, out of a level's
// many: a grid of buckets over the obstacles' centres (2D or 3D), built once, that
// selects those whose surface lies within a range for avoid_obstacles and
// context_steering. Their cost grows with every obstacle they are given; given those
// within their obstacle_range(), they return what they would with all of them.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>
#include "../span.hpp"
#include "pursue_evade.hpp"

namespace boids {

// The obstacles a query selected, kept by the caller from one query to the next so that
// a steady-state query allocates nothing.
template <class V>
struct obstacle_selection {
    std::vector<std::uint32_t> indices;  // into the grid's obstacles, ascending
    std::vector<sphere<V>> obstacles;    // those obstacles, in the same order

    [[nodiscard]] span<const sphere<V>> view() const noexcept { return {obstacles.data(), obstacles.size()}; }
};

template <class V>
class obstacle_grid {
public:
    using S = scalar_t<V>;
    static constexpr std::size_t dimension = dimension_v<V>;

    // The obstacles are copied. bucket: the side of the grid's square (cubic) buckets, about
    // the range you query suits; one that is not finite and > 0 gives about two obstacles
    // a bucket. It grows where the level would need more than about 4 buckets an obstacle
    // (bucket() is the side used). An obstacle wider than a bucket (radius > bucket()) is
    // looked at by every query, so give a bucket at least as wide as most obstacles.
    // Obstacles that are not finite (centre or radius) are never selected.
    explicit obstacle_grid(span<const sphere<V>> obstacles, S bucket) : obstacles_(obstacles.begin(), obstacles.end()) {
        std::array<S, dimension> high{};
        low_.fill(std::numeric_limits<S>::max());
        high.fill(std::numeric_limits<S>::lowest());
        std::size_t finite = 0;
        for (const sphere<V>& o : obstacles_) {
            if (!usable(o)) continue;
            ++finite;
            for (std::size_t d = 0; d < dimension; ++d) {
                low_[d] = std::min(low_[d], boids::get(o.centre, d));
                high[d] = std::max(high[d], boids::get(o.centre, d));
            }
        }
        const bool asked = bucket > S(0) && std::isfinite(bucket);
        bucket_ = asked ? bucket : S(1);
        if (finite == 0) return;
        S extent = S(0);
        for (std::size_t d = 0; d < dimension; ++d) extent = std::max(extent, high[d] - low_[d]);
        if (!std::isfinite(extent)) {  // a world wider than S holds: no buckets, every query looks at all
            for (std::size_t i = 0; i < obstacles_.size(); ++i)
                if (usable(obstacles_[i])) large_.push_back(static_cast<std::uint32_t>(i));
            return;
        }
        // About two obstacles a bucket, were they spread evenly over the widest side's cube.
        if (!asked)
            bucket = extent / std::max(S(1), std::floor(std::pow(static_cast<S>(finite) / S(2), S(1) / S(dimension))));
        if (!(bucket > S(0))) bucket = S(1);  // every obstacle on one spot
        // At most about 4 buckets an obstacle, so that a bucket far smaller than the level
        // costs neither memory nor the time of visiting empty buckets.
        const double most = std::max(64.0, 4.0 * static_cast<double>(finite));
        bucket = std::max(bucket, extent / static_cast<S>(std::floor(std::pow(most, 1.0 / double(dimension)))));
        while (cells(high, bucket) > most) bucket *= S(1.25);
        bucket_ = bucket;
        std::size_t total = 1;
        for (std::size_t d = 0; d < dimension; ++d) {
            count_[d] = static_cast<std::size_t>((high[d] - low_[d]) / bucket_) + 1;
            total *= count_[d];
        }
        // Counting sort by bucket: each bucket's obstacles stay in ascending order.
        start_.assign(total + 1, 0);
        for (std::size_t i = 0; i < obstacles_.size(); ++i) {
            const sphere<V>& o = obstacles_[i];
            if (!usable(o)) continue;
            if (o.radius > bucket_) {
                large_.push_back(static_cast<std::uint32_t>(i));
                continue;
            }
            small_radius_ = std::max(small_radius_, o.radius);
            ++start_[bucket_of(o.centre) + 1];
        }
        for (std::size_t c = 0; c < total; ++c) start_[c + 1] += start_[c];
        items_.resize(start_[total]);
        std::vector<std::uint32_t> next(start_.begin(), start_.end() - 1);
        for (std::size_t i = 0; i < obstacles_.size(); ++i) {
            const sphere<V>& o = obstacles_[i];
            if (usable(o) && !(o.radius > bucket_)) items_[next[bucket_of(o.centre)]++] = static_cast<std::uint32_t>(i);
        }
    }

    [[nodiscard]] const std::vector<sphere<V>>& obstacles() const noexcept { return obstacles_; }
    [[nodiscard]] S bucket() const noexcept { return bucket_; }

    // The finite obstacles whose surface lies within `radius` of `position` (the distance
    // to the centre less the radius, <= radius; inside counts), in the order they were
    // given, into `out` (cleared first). An infinite radius selects every finite
    // obstacle; a NaN or negative one, or a position that is not finite, none.
    void near(const V& position, S radius, obstacle_selection<V>& out) const { near(position, {radius, S(0)}, out); }

    // The same, each obstacle's surface within range.distance + range.per_radius x its
    // radius (0 if negative), the behaviours' obstacle_range(); a per_radius that is NaN
    // or negative selects none.
    void near(const V& position, const sphere_range<S>& range, obstacle_selection<V>& out) const {
        out.indices.clear();
        out.obstacles.clear();
        const S radius = range.distance, grow = range.per_radius;
        if (!(radius >= S(0)) || !(grow >= S(0)) || !boids::is_finite(position)) return;
        auto take = [&](std::uint32_t i) {
            const sphere<V>& o = obstacles_[i];
            const S bound = radius + grow * std::max(o.radius, S(0));
            if (boids::distance(position, o.centre) - o.radius <= bound) out.indices.push_back(i);
        };
        if (!start_.empty()) {
            // The buckets of the centres that can be near, a few roundings wider: an
            // obstacle whose distance rounds to the radius may lie a hair outside.
            const S farthest = radius + (S(1) + grow) * small_radius_;
            S sum = farthest;
            for (std::size_t d = 0; d < dimension; ++d) sum += std::fabs(boids::get(position, d));
            const S reach =
                farthest + sum * S(8) * std::numeric_limits<S>::epsilon() + S(4) * std::numeric_limits<S>::denorm_min();
            std::array<std::size_t, dimension> from{}, to{};
            for (std::size_t d = 0; d < dimension; ++d) {
                from[d] = index(d, boids::get(position, d) - reach);
                to[d] = index(d, boids::get(position, d) + reach);
            }
            std::array<std::size_t, dimension> at = from;
            for (;;) {  // every bucket from `from` to `to`, the first axis fastest
                std::size_t c = 0;
                for (std::size_t d = dimension; d-- > 0;) c = c * count_[d] + at[d];
                for (std::uint32_t k = start_[c]; k < start_[c + 1]; ++k) take(items_[k]);
                std::size_t d = 0;
                for (; d < dimension && at[d] == to[d]; ++d) at[d] = from[d];
                if (d == dimension) break;
                ++at[d];
            }
        }
        for (const std::uint32_t i : large_) take(i);
        std::sort(out.indices.begin(), out.indices.end());
        for (const std::uint32_t i : out.indices) out.obstacles.push_back(obstacles_[i]);
    }

private:
    static bool usable(const sphere<V>& o) noexcept { return boids::is_finite(o.centre) && std::isfinite(o.radius); }

    double cells(const std::array<S, dimension>& high, S side) const noexcept {
        double total = 1;
        for (std::size_t d = 0; d < dimension; ++d) total *= std::floor(double((high[d] - low_[d]) / side)) + 1.0;
        return total;
    }
    std::size_t index(std::size_t d, S x) const noexcept {
        const S f = (x - low_[d]) / bucket_;
        if (!(f > S(0))) return 0;  // also NaN
        if (!(f < static_cast<S>(count_[d]))) return count_[d] - 1;
        return static_cast<std::size_t>(f);
    }
    std::size_t bucket_of(const V& centre) const noexcept {
        std::size_t c = 0;
        for (std::size_t d = dimension; d-- > 0;) c = c * count_[d] + index(d, boids::get(centre, d));
        return c;
    }

    std::vector<sphere<V>> obstacles_;
    std::vector<std::uint32_t> large_;  // finite obstacles wider than a bucket, ascending
    std::vector<std::uint32_t> start_;  // bucket c's obstacles: items_[start_[c]] to items_[start_[c + 1]]
    std::vector<std::uint32_t> items_;  // bucket by bucket, ascending within each
    std::array<S, dimension> low_{};
    std::array<std::size_t, dimension> count_{};
    S bucket_ = S(1), small_radius_ = S(0);  // the largest radius in a bucket (0 if none is larger)
};

}  // namespace boids

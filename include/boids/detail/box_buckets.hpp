// boids/detail/box_buckets.hpp - a grid of square buckets over 2D boxes (the bounding
// boxes of segments), so that a query near a point looks only at the items whose boxes
// share a bucket with its own: the crowd's obstacle edges, the walls a behaviour reads.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace boids::detail {

template <class S>
class box_buckets {
public:
    // Items 0 to count-1, item i's box given by box(i, x0, y0, x1, y1) (x0 <= x1, y0 <= y1);
    // an item for which box returns false goes in no bucket. `bucket` is the side asked;
    // one that is not finite and > 0 gives a 64th of the items' extent. It grows so that
    // no side holds more than `most` buckets.
    template <class Box>
    void assign(std::size_t count, S bucket, Box&& box, std::size_t most = 1024) {
        min_x_ = min_y_ = std::numeric_limits<S>::max();
        S max_x = std::numeric_limits<S>::lowest(), max_y = max_x;
        S x0 = S(0), y0 = S(0), x1 = S(0), y1 = S(0);
        for (std::size_t i = 0; i < count; ++i) {
            if (!box(i, x0, y0, x1, y1)) continue;
            min_x_ = std::min(min_x_, x0);
            min_y_ = std::min(min_y_, y0);
            max_x = std::max(max_x, x1);
            max_y = std::max(max_y, y1);
        }
        buckets_.clear();
        columns_ = rows_ = 0;
        const bool asked = bucket > S(0) && std::isfinite(bucket);
        cell_ = asked ? bucket : S(1);
        if (!(min_x_ <= max_x)) return;  // no item in any bucket
        const S span_x = max_x - min_x_, span_y = max_y - min_y_;
        if (!asked) bucket = std::max(span_x, span_y) / S(64);
        if (!(bucket > S(0))) bucket = S(1);                                        // every item on one spot
        cell_ = std::max(bucket, std::max(span_x, span_y) / static_cast<S>(most));  // grows for vast worlds
        columns_ = static_cast<std::size_t>(span_x / cell_) + 1;
        rows_ = static_cast<std::size_t>(span_y / cell_) + 1;
        buckets_.assign(columns_ * rows_, {});
        for (std::size_t i = 0; i < count; ++i) {
            if (!box(i, x0, y0, x1, y1)) continue;
            // Cells the box covers: for a segment, a superset of those it passes.
            const std::size_t c0 = column(x0), c1 = column(x1), r0 = row(y0), r1 = row(y1);
            for (std::size_t r = r0; r <= r1; ++r)
                for (std::size_t c = c0; c <= c1; ++c)
                    buckets_[r * columns_ + c].push_back(static_cast<std::uint32_t>(i));
        }
    }

    // Every bucket overlapping the box (x0, y0)-(x1, y1), each once, as f(its items, its
    // column, its row); an item may sit in several.
    template <class F>
    void for_each_bucket(S x0, S y0, S x1, S y1, F&& f) const {
        if (buckets_.empty() || !(x0 <= x1 && y0 <= y1)) return;  // also NaN
        const std::size_t c0 = column(x0), c1 = column(x1), r0 = row(y0), r1 = row(y1);
        for (std::size_t r = r0; r <= r1; ++r)
            for (std::size_t c = c0; c <= c1; ++c) f(buckets_[r * columns_ + c], c, r);
    }

    [[nodiscard]] S cell() const noexcept { return cell_; }  // the side of a bucket
    [[nodiscard]] std::size_t column(S x) const noexcept { return clamp_index((x - min_x_) / cell_, columns_); }
    [[nodiscard]] std::size_t row(S y) const noexcept { return clamp_index((y - min_y_) / cell_, rows_); }

private:
    static std::size_t clamp_index(S f, std::size_t count) noexcept {
        if (!(f > S(0))) return 0;  // also NaN
        if (!(f < static_cast<S>(count))) return count - 1;
        return static_cast<std::size_t>(f);
    }

    S cell_ = S(1), min_x_ = S(0), min_y_ = S(0);
    std::size_t columns_ = 0, rows_ = 0;
    std::vector<std::vector<std::uint32_t>> buckets_;
};

}  // namespace boids::detail

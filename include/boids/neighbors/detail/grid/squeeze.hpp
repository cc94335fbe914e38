// boids/neighbors/detail/grid/squeeze.hpp - flocks far apart in one dense grid: per
// axis, the widest empty stretches between them are squeezed out of the coordinates
// the cells count, so each flock keeps cells of the size asked instead of all of them
// sharing cells stretched over the empty space between.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include "bounds.hpp"
#include "../../../span.hpp"
#include "../../../vector.hpp"

namespace boids {
namespace detail {

// A map of one axis with up to `most` stretches cut out: a coordinate past stretch j
// counts removed[j] less, one inside it counts as its start. It never decreases and
// never moves two coordinates further apart, so cells within a query's reach of its own
// in squeezed coordinates still hold every boid within the radius; a boid inside a
// removed stretch is only slower to find. Computed as max_j min(x - removed[j],
// end[j]): one rounding, and the same for one coordinate as for a chunk of them.
template <class S>
struct axis_squeeze {
    static constexpr std::size_t most = 16;
    std::size_t count = 0;              // stretches cut out (0: the identity)
    std::array<S, most + 1> removed{};  // before piece j of the axis (removed[0] = 0)
    std::array<S, most + 1> end{};      // where piece j ends, squeezed (the last: +inf)

    [[nodiscard]] S operator()(S x) const noexcept {
        if (count == 0) return x;
        S c = x > end[0] ? end[0] : x;  // NaN stays NaN (cell 0), as unsqueezed
        for (std::size_t j = 1; j <= count; ++j) {
            S t = x - removed[j];
            t = t > end[j] ? end[j] : t;
            c = c < t ? t : c;
        }
        return c;
    }
    // The same for m coordinates at once, in loops that vectorise.
    template <std::size_t M>
    void apply(S (&x)[M]) const noexcept {
        S c[M];
        for (std::size_t k = 0; k < M; ++k) c[k] = x[k] > end[0] ? end[0] : x[k];
        for (std::size_t j = 1; j <= count; ++j) {
            const S r = removed[j], e = end[j];
            for (std::size_t k = 0; k < M; ++k) {
                S t = x[k] - r;
                t = t > e ? e : t;
                c[k] = c[k] < t ? t : c[k];
            }
        }
        for (std::size_t k = 0; k < M; ++k) x[k] = c[k];
    }
};

// Per axis of the box [lo, hi] (outside a torus, where cells of side `cell` over the
// box would be more than `cap`): the widest empty stretches between the finite
// positions, each at least two cells long, found exactly from the least and greatest
// coordinate in each of 512 equal bins (one pass over every boid; a boid outside the
// box counts at its edge). An axis the boids fill is left as it is, and so is the whole
// box where, squeezed, it would still need cells more than twice the size asked (many
// flocks scattered on every axis): the squeeze would then cost more than it saves.
// `stride`: every stride-th boid only (see squeeze_gaps).
template <class V>
std::array<axis_squeeze<scalar_t<V>>, dimension_v<V>> squeeze_gaps_of(span<const V> positions, std::size_t stride,
                                                                      const std::array<scalar_t<V>, dimension_v<V>>& lo,
                                                                      const std::array<scalar_t<V>, dimension_v<V>>& hi,
                                                                      scalar_t<V> cell, double cap) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>, bins = 512, most = axis_squeeze<scalar>::most;
    std::array<axis_squeeze<scalar>, dim> out{};
    std::array<std::array<scalar, bins>, dim> least, greatest;
    std::array<scalar, dim> to_bin{};  // 0: an axis left as it is (no width, or an infinite one)
    for (std::size_t d = 0; d < dim; ++d) {
        least[d].fill(std::numeric_limits<scalar>::max());
        greatest[d].fill(std::numeric_limits<scalar>::lowest());
        const scalar width = hi[d] - lo[d];
        if (width > scalar(2) * cell && width <= std::numeric_limits<scalar>::max()) to_bin[d] = scalar(bins) / width;
    }
    for (std::size_t i = 0; i < positions.size(); i += stride) {
        const V& p = positions[i];
        if (!boids::is_finite(p)) continue;
        for (std::size_t d = 0; d < dim; ++d) {
            if (!(to_bin[d] > scalar(0))) continue;  // (an infinite width times 0 would be NaN)
            const scalar x = std::min(std::max(boids::get(p, d), lo[d]), hi[d]);
            const scalar u = (x - lo[d]) * to_bin[d];
            const std::size_t b = std::min(static_cast<std::size_t>(u), bins - 1);
            least[d][b] = std::min(least[d][b], x);
            greatest[d][b] = std::max(greatest[d][b], x);
        }
    }
    for (std::size_t d = 0; d < dim; ++d) {
        if (!(to_bin[d] > scalar(0))) continue;
        struct stretch {
            scalar from, to;
        };
        std::array<stretch, most + 1> kept{};  // the widest so far, widest first
        std::size_t found = 0, last = bins;    // last: the previous occupied bin
        for (std::size_t b = 0; b < bins; ++b) {
            if (!(least[d][b] <= greatest[d][b])) continue;
            if (last != bins) {
                const stretch s{greatest[d][last], least[d][b]};
                if (s.to - s.from >= scalar(2) * cell) {
                    std::size_t at = std::min(found, most);  // insertion into the widest `most`
                    while (at > 0 && kept[at - 1].to - kept[at - 1].from < s.to - s.from) {
                        kept[at] = kept[at - 1];
                        --at;
                    }
                    if (at < most) kept[at] = s;
                    found = std::min(found + 1, most);
                }
            }
            last = b;
        }
        std::sort(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(found),
                  [](const stretch& a, const stretch& b) { return a.from < b.from; });
        axis_squeeze<scalar>& q = out[d];
        q.count = found;
        double removed = 0;
        for (std::size_t j = 0; j < found; ++j) {
            q.end[j] = kept[j].from - q.removed[j];
            removed += static_cast<double>(kept[j].to) - static_cast<double>(kept[j].from);
            q.removed[j + 1] = static_cast<scalar>(removed);
        }
        q.end[found] = std::numeric_limits<scalar>::infinity();
    }
    std::array<scalar, dim> across{};
    for (std::size_t d = 0; d < dim; ++d) across[d] = out[d](hi[d]) - lo[d];
    if (product_of(whole_cells(across, cell)) > cap * static_cast<double>(std::size_t(1) << dim)) return {};
    return out;
}

// The same, over every boid, where a sample of about 2,048 (whose stretches can only be
// wider) does not already show that the squeeze would not pay.
template <class V>
std::array<axis_squeeze<scalar_t<V>>, dimension_v<V>> squeeze_gaps(span<const V> positions,
                                                                   const std::array<scalar_t<V>, dimension_v<V>>& lo,
                                                                   const std::array<scalar_t<V>, dimension_v<V>>& hi,
                                                                   scalar_t<V> cell, double cap) {
    const std::size_t stride = positions.size() / 2048;
    if (stride > 1) {
        const auto sampled = squeeze_gaps_of(positions, stride, lo, hi, cell, cap);
        bool any = false;
        for (const auto& q : sampled) any = any || q.count > 0;
        if (!any) return {};
    }
    return squeeze_gaps_of(positions, 1, lo, hi, cell, cap);
}

}  // namespace detail
}  // namespace boids

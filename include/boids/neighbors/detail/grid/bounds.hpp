// boids/neighbors/detail/grid/bounds.hpp - the box a grid's cells cover: the bounding box
// of the finite positions, and over a torus too large to tile, whether the flock lies
// within less than half of it on every axis, across a seam or not.
#pragma once
#include <algorithm>
#include <array>
#include <bitset>
#include <cmath>
#include <cstdint>
#include <limits>
#include "../../world.hpp"
#include "../../../span.hpp"

namespace boids {
namespace detail {

template <class V>
struct bounds_of_flock {
    using scalar = scalar_t<V>;
    static constexpr std::size_t dim = dimension_v<V>;
    // Per axis, the least and greatest coordinate; across a seam (seam[d]) those of
    // the coordinates below the cut counted a box's size further on (grid_layout::local).
    std::array<scalar, dim> lo, hi;
    std::array<bool, dim> seam{};
    std::array<scalar, dim> cut{};  // across a seam: below it, past the seam
    bool compact = false;           // over a torus: every boid in the box, within less than half of it
};

// `compact_wanted`: over a torus, whether to look for a compact flock at all (else the
// scan is skipped: its cells tile the box); `across_seams`: whether one may lie across
// a seam. Compact ends the scan at the first chunk of 64 that shows otherwise.
template <class V>
bounds_of_flock<V> flock_bounds(span<const V> positions, const world_for<V>& world, bool compact_wanted,
                                bool across_seams) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>, chunk = 64;
    const std::size_t count = positions.size();
    const bool toroidal = world.kind == edges::toroidal;
    bounds_of_flock<V> box;
    box.compact = toroidal && compact_wanted && count > 0;
    auto& lo = box.lo;
    auto& hi = box.hi;
    bool& compact = box.compact;
    auto scan = [&](std::size_t i0, std::size_t i1) {
        for (std::size_t i = i0; i < i1; ++i) {
            if (!boids::is_finite(positions[i])) {
                compact = false;
                continue;
            }
            for (std::size_t d = 0; d < dim; ++d) {
                lo[d] = std::min(lo[d], boids::get(positions[i], d));
                hi[d] = std::max(hi[d], boids::get(positions[i], d));
            }
        }
    };
    lo.fill(std::numeric_limits<scalar>::max());
    hi.fill(std::numeric_limits<scalar>::lowest());
    bool wide = false;  // some axis spans half the torus or more
    for (std::size_t i0 = 0; i0 < count && (compact || !toroidal) && !wide; i0 += chunk) {
        scan(i0, std::min(count, i0 + chunk));
        for (std::size_t d = 0; d < dim && compact; ++d) {
            compact = lo[d] >= scalar(0) && hi[d] < world.size[d];
            wide = wide || hi[d] - lo[d] >= world.size[d] * scalar(0.499);
        }
    }
    compact = compact && (!wide || across_seams);
    if (!compact || !wide) return box;
    // Wide, yet maybe within less than half across a seam: the whole bounds again, and
    // which of 64 equal bins per axis hold boids (stopping once more than 34 do: the
    // boids then span more than half).
    constexpr std::size_t bins = 64;
    std::array<std::uint64_t, dim> held{};
    lo.fill(std::numeric_limits<scalar>::max());
    hi.fill(std::numeric_limits<scalar>::lowest());
    for (std::size_t i0 = 0; i0 < count && compact; i0 += chunk) {
        const std::size_t i1 = std::min(count, i0 + chunk);
        scan(i0, i1);
        for (std::size_t d = 0; d < dim && compact; ++d) {
            compact = lo[d] >= scalar(0) && hi[d] < world.size[d];
            if (!compact) break;
            const scalar to_bin = scalar(bins) / world.size[d];  // infinite for a size below 64 / max
            std::uint64_t h = held[d];
            for (std::size_t i = i0; i < i1; ++i) {  // coordinates in [0, size): bins 0 to 64, or NaN (0 * inf)
                const scalar f = boids::get(positions[i], d) * to_bin;
                const auto bin = f < scalar(bins) ? static_cast<std::int32_t>(f) : std::int32_t(bins - 1);
                h |= std::uint64_t(1) << bin;
            }
            held[d] = h;
            compact = std::bitset<bins>(h).count() <= 34;
        }
    }
    // Each wide axis is cut in the middle of its widest run of empty bins, and the
    // boids below the cut count a box's size further on.
    for (std::size_t d = 0; d < dim && compact; ++d) {
        if (hi[d] - lo[d] < world.size[d] * scalar(0.499)) continue;
        std::size_t best = 0, best_end = 0, run = 0;
        for (std::size_t b = 0; b < 2 * bins; ++b) {  // twice round: a run across bin 0
            run = (held[d] >> (b % bins) & 1u) != 0 ? 0 : std::min(run + 1, bins);
            if (run > best) best = run, best_end = b % bins;
        }
        if (best < bins / 2 - 2) {  // more than half the torus
            compact = false;
            break;
        }
        const std::size_t middle = (best_end + bins - best / 2) % bins;
        const scalar cut = static_cast<scalar>(middle) * (world.size[d] / scalar(bins));
        scalar a = std::numeric_limits<scalar>::max(), z = std::numeric_limits<scalar>::lowest();
        const scalar size = world.size[d];
        scalar u[chunk];
        for (std::size_t i0 = 0; i0 < count; i0 += chunk) {     // in loops without branches (vectorised):
            const std::size_t m = std::min(chunk, count - i0);  // half the boids lie past the cut
            for (std::size_t k = 0; k < m; ++k) u[k] = boids::get(positions[i0 + k], d);
            for (std::size_t k = 0; k < m; ++k) {
                const scalar past = u[k] < cut ? size : scalar(0);
                u[k] = u[k] + past;
            }
            for (std::size_t k = 0; k < m; ++k) {
                a = u[k] < a ? u[k] : a;
                z = u[k] > z ? u[k] : z;
            }
        }
        compact = z - a < world.size[d] * scalar(0.499);
        lo[d] = a;
        hi[d] = z;
        box.seam[d] = compact;
        box.cut[d] = cut;
    }
    if (!compact) box.seam.fill(false);
    return box;
}

// Whole cells of side `cell` per axis of `extent` (at least one; one where not finite).
template <class S, std::size_t D>
std::array<double, D> whole_cells(const std::array<S, D>& extent, S cell) noexcept {
    std::array<double, D> cells{};
    for (std::size_t d = 0; d < D; ++d) {
        const double c = std::floor(static_cast<double>(extent[d]) / static_cast<double>(cell));
        cells[d] = std::isfinite(c) ? std::max(1.0, std::min(c, 1e9)) : 1.0;
    }
    return cells;
}
template <std::size_t D>
double product_of(const std::array<double, D>& cells) noexcept {
    double total = 1;
    for (const double c : cells) total *= c;
    return total;
}
// Fewer cells until there are at most `cap`: the axes that still have cells to spare
// shrink alike (a flat cloud, one axis at a single cell, must not keep the others' counts).
template <std::size_t D>
void shrink_to_cap(std::array<double, D>& cells, double cap) noexcept {
    double total = product_of(cells);
    while (total > cap) {
        double spare = 0;
        for (std::size_t d = 0; d < D; ++d) spare += cells[d] > 1.0 ? 1.0 : 0.0;
        const double f = std::pow(total / cap, 1.0 / spare);
        for (std::size_t d = 0; d < D; ++d)
            if (cells[d] > 1.0) cells[d] = std::max(1.0, std::floor(cells[d] / f));
        total = product_of(cells);
    }
}

// Outside a torus, where more than `cap` cells of side `cell` would cover the bounding
// box [lo, hi]: the box narrowed, axis by axis, to the fewest of 256 equal bins that
// hold all but 1/32 of the boids (of a sample), then again within those, until it
// shrinks no more (to within a bin's width of the flock's bulk on each axis). A few
// strays far from the flock then sit in the edge cells (cell coordinates are clamped,
// and every query takes the edge cells to reach out to infinity) instead of widening
// every cell of the flock to span the gap.
template <class V>
void narrow_to_bulk(span<const V> positions, std::array<scalar_t<V>, dimension_v<V>>& lo,
                    std::array<scalar_t<V>, dimension_v<V>>& hi, scalar_t<V> cell, double cap) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>, bins = 256;
    auto cells_needed = [&] {
        double total = 1;
        for (std::size_t d = 0; d < dim; ++d)
            total *= std::max(1.0, std::floor(static_cast<double>(hi[d] - lo[d]) / static_cast<double>(cell)));
        return total;
    };
    if (!(cells_needed() > cap)) return;
    // Every boid of a small flock, else a sample of about 2,048 (every stride-th): the
    // box needs only the bulk's extent, and a boid left outside it is found all the same.
    const std::size_t stride = std::max<std::size_t>(1, positions.size() / 2048);
    std::size_t finite = 0;
    std::array<std::array<std::uint32_t, bins>, dim> held;
    for (int round = 0; round < 8; ++round) {
        std::array<scalar, dim> to_bin{};  // 0: an axis left as it is (no width, or an infinite one)
        for (std::size_t d = 0; d < dim; ++d) {
            held[d].fill(0);
            const scalar width = hi[d] - lo[d];
            if (width > scalar(0) && width <= std::numeric_limits<scalar>::max()) to_bin[d] = scalar(bins) / width;
        }
        for (std::size_t i = 0; i < positions.size(); i += stride) {
            const V& p = positions[i];
            if (!boids::is_finite(p)) continue;
            if (round == 0) ++finite;
            for (std::size_t d = 0; d < dim; ++d) {
                const scalar u = (boids::get(p, d) - lo[d]) * to_bin[d];
                if (u >= scalar(0) && u <= scalar(bins)) ++held[d][std::min(static_cast<std::size_t>(u), bins - 1)];
            }
        }
        const std::size_t keep = finite - finite / 32;  // per axis, within the box
        bool shrunk = false;
        for (std::size_t d = 0; d < dim; ++d) {
            if (!(to_bin[d] > scalar(0) && to_bin[d] < std::numeric_limits<scalar>::infinity())) continue;
            std::size_t best_a = 0, best_z = bins, a = 0, sum = 0;  // the narrowest [a, z) holding `keep`
            for (std::size_t z = 0; z < bins; ++z) {
                sum += held[d][z];
                while (a < z && sum - held[d][a] >= keep) sum -= held[d][a++];
                if (sum >= keep && z + 1 - a < best_z - best_a) best_a = a, best_z = z + 1;
            }
            if (best_z - best_a > bins / 2) continue;  // the flock fills this axis
            const scalar width = (hi[d] - lo[d]) / scalar(bins);
            const scalar new_lo = lo[d] + static_cast<scalar>(best_a) * width;
            hi[d] = std::min(hi[d], lo[d] + static_cast<scalar>(best_z) * width);
            lo[d] = new_lo;
            shrunk = true;
        }
        if (!shrunk) break;
    }
}

}  // namespace detail
}  // namespace boids

// boids/neighbors/detail/grid/layout.hpp - how a grid cuts space into cells (grid_layout),
// with the cell arithmetic every other part of the grid uses.
//
// A dense grid numbers its cells row by row; a hashed one keeps them in 2N buckets
// by a hash of the cell coordinates. Over a torus both tile the box with a whole
// number of cells per side and wrap cell coordinates; elsewhere a hashed grid's
// cells are unbounded ("open").
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include "../../world.hpp"
#include "bounds.hpp"
#include "squeeze.hpp"
#include "../../../random.hpp"
#include "../../../span.hpp"

namespace boids {
namespace detail {

// Calls f(offset) for every offset in the box [lo, hi], the last axis fastest.
template <std::size_t D, class F>
void iterate_box(const std::array<std::int32_t, D>& lo, const std::array<std::int32_t, D>& hi,
                 std::array<std::int32_t, D>& cur, std::size_t d, F&& f) {
    if (d == D) {
        f(static_cast<const std::array<std::int32_t, D>&>(cur));
        return;
    }
    for (std::int32_t o = lo[d]; o <= hi[d]; ++o) {
        cur[d] = o;
        iterate_box(lo, hi, cur, d + 1, f);
    }
}

template <class V, bool Hashed>
struct grid_layout {
    using scalar = scalar_t<V>;
    static constexpr std::size_t dim = dimension_v<V>;
    using cell_t = std::array<std::int32_t, dim>;
    static constexpr std::size_t cell_chunk = 64;  // boids whose cells are found together

    world_for<V> world{};
    scalar cell_size = scalar(1);
    scalar max_abs = scalar(0);         // the largest finite coordinate (the box size when toroidal)
    scalar seen_abs = scalar(0);        // the same, as fit() found it outside a torus (see padded_cell())
    std::array<std::int32_t, dim> n{};  // cells per axis (0 for an open hashed grid)
    std::array<scalar, dim> w{};        // cell widths
    std::array<scalar, dim> origin{};
    bool tiles = true;  // a torus's cells tile its box (see torus())
    // Per axis, cells over a flock that lies across the torus's seam, and where its part
    // past the seam ends (see local()).
    std::array<bool, dim> seam{};
    std::array<scalar, dim> cut{};
    std::array<std::int32_t, dim> seam_cell{};        // the first cell past the seam
    std::array<axis_squeeze<scalar>, dim> squeeze{};  // outside a torus: flocks far apart (see local())
    cell_t cmin{}, cmax{};                            // an open hashed grid's occupied cells
    std::size_t mask = 0;                             // a hashed grid's bucket mask

    // A cell size that is not > 0 becomes infinite: one cell, slow but never a lost neighbour.
    [[nodiscard]] static scalar usable_cell(scalar size) noexcept {
        return size > scalar(0) ? size : std::numeric_limits<scalar>::infinity();
    }

    // A hashed grid over a world without a torus: cells without bounds. Over a torus a
    // hashed grid lays its cells out as a dense one does and only keeps them in buckets.
    [[nodiscard]] bool open_hashed() const noexcept { return Hashed && world.kind != edges::toroidal; }
    // Whether the cells tile a torus (their coordinates wrap across its seams). A dense
    // grid over a torus too large to tile with cells of the size asked (more than about
    // 8 a boid) whose flock lies within less than half of it on every axis covers the
    // flock as in a box world instead: every pair's direct offset is then its minimum
    // image, or across a seam (seam[d]) its offset in local() coordinates is. Cells
    // there have an edge on the seam, so each holds boids of one side.
    [[nodiscard]] bool torus() const noexcept { return world.kind == edges::toroidal && tiles; }
    // Whether offsets need their minimum image: cells that tile a torus, or lie across a seam.
    [[nodiscard]] bool images() const noexcept {
        bool any = torus();
        for (std::size_t d = 0; d < dim; ++d) any = any || seam[d];
        return any;
    }
    // A coordinate as the cells count it: across a seam, the flock's part past it (below
    // cut) a box's size further on; elsewhere, less the empty stretches squeezed out.
    [[nodiscard]] scalar local(scalar x, std::size_t d) const noexcept {
        return seam[d] ? x + seam_image(x, d) : squeeze[d](x);
    }
    // The image of a position across a seam on axis d: the box's size past the seam,
    // else 0. Two positions' offset plus the difference of their images is their
    // minimum image.
    [[nodiscard]] scalar seam_image(scalar x, std::size_t d) const noexcept {
        return seam[d] && x < cut[d] ? world.size[d] : scalar(0);
    }
    // The largest coordinate that rounding slack must allow for, before the finite
    // positions of an open world: a torus's size, twice it across a seam.
    [[nodiscard]] scalar coordinate_bound() const noexcept {
        scalar bound = scalar(0);
        for (std::size_t d = 0; d < dim; ++d) {
            if (torus()) bound = std::max(bound, world.size[d]);
            if (seam[d]) bound = std::max(bound, scalar(2) * world.size[d]);
        }
        return bound;
    }

    // Cells are a little wider than asked, so that rounding can never hide a neighbour
    // in a cell the query skips while a plain reach of one still suffices (reach_for):
    // by four times the slack at the largest coordinate (a torus's size where its cells
    // tile it, where a margin wider than needed can cost a whole cell across: 13 cells a
    // side instead of 14), elsewhere by at least 1/64 of the cell.
    [[nodiscard]] scalar padded_cell() const noexcept {
        constexpr scalar eps = std::numeric_limits<scalar>::epsilon();
        const scalar largest = std::max(coordinate_bound(), torus() ? scalar(0) : seen_abs);
        const scalar margin = scalar(4) * (scalar(16) * eps * cell_size + scalar(8) * eps * largest);
        const bool fits = std::isfinite(margin) && (torus() || margin > cell_size / scalar(64));
        return fits ? cell_size + margin : cell_size * (scalar(1) + scalar(1) / scalar(64));
    }

    // How far rounding can move a computed distance, or a point across a cell edge:
    // relative to the distance, and absolute relative to the largest coordinate.
    [[nodiscard]] scalar slack(scalar distance) const noexcept {
        constexpr scalar eps = std::numeric_limits<scalar>::epsilon();
        return scalar(16) * eps * distance + scalar(8) * eps * max_abs;
    }

    [[nodiscard]] scalar narrowest_cell() const noexcept {
        scalar m = w[0];
        for (std::size_t d = 1; d < dim; ++d) m = std::min(m, w[d]);
        return m;
    }

    // Cells per axis and their widths for these positions.
    void fit(span<const V> positions) {
        const std::size_t count = positions.size();
        squeeze = {}, seam = {}, seen_abs = scalar(0);  // this fit's alone (padded_cell() reads them)
        if (open_hashed()) {
            for (std::size_t d = 0; d < dim; ++d) {
                n[d] = 0;
                w[d] = padded_cell();
                origin[d] = scalar(0);
            }
            return;
        }
        std::array<scalar, dim> extent{};
        // The bounding box of the finite positions. Over a torus too large to tile with
        // cells of the size asked (more than about 8 a boid, so tiling would widen them),
        // whether every boid lies in the box within less than half of it on every axis,
        // across a seam (where that pays) or not.
        const bool toroidal = world.kind == edges::toroidal;
        const double cap = std::max(4096.0, 8.0 * static_cast<double>(count));
        tiles = true;  // padded_cell() reads it
        double tiled = 1;
        if (toroidal && !Hashed && count > 0)
            for (std::size_t d = 0; d < dim; ++d)
                tiled *=
                    std::max(1.0, std::floor(static_cast<double>(world.size[d]) / static_cast<double>(padded_cell())));
        // Across a seam, blocks near it see their candidates through two images, which
        // costs about what cells a quarter wider than asked do: tiling is left that far.
        const bounds_of_flock<V> box =
            flock_bounds(positions, world, tiled > cap, tiled > cap * std::pow(1.25, static_cast<double>(dim)));
        std::array<scalar, dim> lo = box.lo, hi = box.hi;
        seam = box.seam;
        cut = box.cut;
        tiles = !box.compact;
        for (std::size_t d = 0; d < dim && !torus(); ++d)
            if (hi[d] >= lo[d]) seen_abs = std::max(seen_abs, std::max(std::fabs(lo[d]), std::fabs(hi[d])));
        if (torus()) {  // the cells tile the box, so that their coordinates wrap
            for (std::size_t d = 0; d < dim; ++d) {
                origin[d] = scalar(0);
                extent[d] = world.size[d];
            }
        } else {  // any other world, or a torus's compact flock: the bounding box of the
                  // finite positions, so that a flock packed in a corner of a large box gets
                  // the cells it needs (outside a torus, less any far strays)
            if (!toroidal) narrow_to_bulk(positions, lo, hi, padded_cell(), cap);
            for (std::size_t d = 0; d < dim; ++d) {
                if (!(hi[d] >= lo[d])) lo[d] = hi[d] = scalar(0);
                origin[d] = lo[d];
                extent[d] = hi[d] - lo[d];
            }
        }
        // Whole cells no smaller than cell_size; a dense grid's total capped near 8 per
        // boid (a hashed grid stores only its buckets, so its cells keep the size asked).
        std::array<double, dim> cells = whole_cells(extent, padded_cell());
        if (!toroidal && !Hashed && product_of(cells) > cap) {  // flocks far apart (squeeze.hpp)
            squeeze = squeeze_gaps(positions, lo, hi, padded_cell(), cap);
            for (std::size_t d = 0; d < dim; ++d) extent[d] = squeeze[d](hi[d]) - origin[d];
            cells = whole_cells(extent, padded_cell());
        }
        if (!Hashed) shrink_to_cap(cells, cap);
        for (std::size_t d = 0; d < dim; ++d) {
            n[d] = static_cast<std::int32_t>(cells[d]);
            w[d] = extent[d] > scalar(0) ? extent[d] / static_cast<scalar>(n[d]) : padded_cell();
            if (!(w[d] >= padded_cell())) w[d] = padded_cell();  // rounding of extent / n
            if (seam[d]) {  // a cell edge on the seam, so that a cell holds boids of one side
                const scalar before = std::ceil((world.size[d] - origin[d]) / w[d]);
                origin[d] = world.size[d] - before * w[d];
                if (origin[d] + static_cast<scalar>(n[d]) * w[d] < hi[d]) ++n[d];
                seam_cell[d] = static_cast<std::int32_t>(before);
            }
        }
    }

    // How many buckets `count` boids are sorted into (a hashed grid: about 2 per boid).
    std::size_t buckets_for(std::size_t count) noexcept {
        if (Hashed) {
            std::size_t nb = 16;
            while (nb < 2 * count) nb *= 2;
            mask = nb - 1;
            return nb;
        }
        std::size_t nb = 1;
        for (std::size_t d = 0; d < dim; ++d) nb *= static_cast<std::size_t>(n[d]);
        return nb;
    }

    [[nodiscard]] std::int32_t cell_coord(scalar x, std::size_t d) const noexcept {
        if (torus() && std::isfinite(x)) x = world_for<V>::wrap_scalar(x, world.size[d]);
        const scalar u = (local(x, d) - origin[d]) / w[d];
        // An open hashed grid's cells are unbounded, within limits whose differences fit int32.
        const scalar hi = open_hashed() ? scalar(1 << 29) : static_cast<scalar>(n[d] - 1);
        const scalar lo = open_hashed() ? -scalar(1 << 29) : scalar(0);
        // A dense grid's cells start at 0, where truncation is the floor: u < 0 goes
        // to cell 0 by either. (std::floor is a call or a dozen instructions without SSE4.1.)
        scalar t = Hashed ? std::floor(u) : u;
        if (!(t >= lo)) t = (t < lo) ? lo : scalar(0);  // NaN goes to cell 0
        if (t > hi) t = hi;
        return static_cast<std::int32_t>(t);
    }

    // The cells of a chunk of coordinates (x[d][k], the first m of cell_chunk lanes
    // real, the rest finite), as cell_coord finds them. `no_wrap`: no coordinate needs
    // wrapping (a torus's chunk inside its box, or any other world), so the cells are
    // found in loops without branches or calls, which the compiler vectorises
    // (cell_coord's operations in its order, so the same cells); else one by one.
    void cells_of_chunk(const scalar (&x)[dim][cell_chunk], std::size_t m, bool no_wrap,
                        std::int32_t (&cell)[dim][cell_chunk]) const noexcept {
        if (no_wrap) {
            for (std::size_t d = 0; d < dim; ++d) {
                const scalar o = origin[d], width = w[d], hi = static_cast<scalar>(n[d] - 1);
                const scalar c = cut[d], size = world.size[d];
                auto along = [&](const scalar(&xs)[cell_chunk], auto across_seam) {
                    for (std::size_t k = 0; k < cell_chunk; ++k) {
                        scalar xk = xs[k];
                        if constexpr (decltype(across_seam)::value) {  // local(), in a form that vectorises
                            const scalar past = xk < c ? size : scalar(0);
                            xk = xk + past;
                        }
                        const scalar u = (xk - o) / width;
                        scalar t = u >= scalar(0) ? u : scalar(0);  // below 0 and NaN: cell 0
                        t = t > hi ? hi : t;
                        cell[d][k] = static_cast<std::int32_t>(t);
                    }
                };
                if (seam[d] || squeeze[d].count == 0) {
                    if (seam[d]) along(x[d], std::true_type{});
                    else along(x[d], std::false_type{});
                } else {
                    scalar xs[cell_chunk];
                    std::copy(x[d], x[d] + cell_chunk, xs);
                    squeeze[d].apply(xs);
                    along(xs, std::false_type{});
                }
            }
        } else {
            for (std::size_t d = 0; d < dim; ++d)
                for (std::size_t k = 0; k < m; ++k) cell[d][k] = cell_coord(x[d][k], d);
        }
    }

    [[nodiscard]] std::size_t bucket_of(const cell_t& c) const noexcept {
        if (Hashed) {
            std::uint64_t h = 0;
            for (std::size_t d = 0; d < dim; ++d)
                h = hash_combine(h, static_cast<std::uint64_t>(static_cast<std::uint32_t>(c[d])));
            return static_cast<std::size_t>(h) & mask;
        }
        std::size_t b = 0;
        for (std::size_t d = dim; d-- > 0;) b = b * static_cast<std::size_t>(n[d]) + static_cast<std::size_t>(c[d]);
        return b;
    }

    [[nodiscard]] std::int32_t last_ring() const noexcept {
        std::int32_t last = 0;
        for (std::size_t d = 0; d < dim; ++d) last = std::max(last, open_hashed() ? cmax[d] - cmin[d] : n[d]);
        return last;
    }

    // Cells within `reach` of the query cannot be skipped: reach = ceil(radius / w).
    [[nodiscard]] std::int32_t reach_for(scalar radius) const noexcept {
        const scalar r = radius + slack(radius);
        std::int32_t reach = 1;
        for (std::size_t d = 0; d < dim; ++d) {
            const scalar c = std::ceil(r / w[d]);
            const scalar limit = static_cast<scalar>(open_hashed() ? last_ring() + 1 : n[d]);
            const std::int32_t rr = !(c <= limit) ? static_cast<std::int32_t>(limit) : static_cast<std::int32_t>(c);
            reach = std::max(reach, rr);
        }
        return reach;
    }

    // True when the box of cells within `reach` holds more cells than there are boids.
    [[nodiscard]] bool too_many_cells(std::int32_t reach, std::size_t boids) const noexcept {
        double cells = 1;
        for (std::size_t d = 0; d < dim; ++d) {
            double side = 2.0 * reach + 1.0;
            if (!open_hashed()) side = std::min(side, static_cast<double>(n[d]));
            cells *= side;
        }
        return cells > 2.0 * static_cast<double>(boids) + 64.0;
    }

    // The offsets along axis d that name distinct cells: for a toroidal axis the
    // window of n cells centred on the query, elsewhere those that stay inside.
    void axis_window(std::size_t d, std::int32_t c, std::int32_t& lo, std::int32_t& hi) const noexcept {
        if (open_hashed()) {
            lo = std::numeric_limits<std::int32_t>::min() / 4;
            hi = std::numeric_limits<std::int32_t>::max() / 4;
            return;
        }
        if (torus()) {
            lo = -((n[d] - 1) / 2);
            hi = lo + n[d] - 1;
        } else {
            lo = -c;
            hi = n[d] - 1 - c;
        }
    }
    // Per axis, the offsets in [-reach, reach] that name distinct, existing cells.
    void clipped_offsets(const cell_t& c, std::int32_t reach, std::array<std::int32_t, dim>& lo,
                         std::array<std::int32_t, dim>& hi) const noexcept {
        for (std::size_t d = 0; d < dim; ++d) {
            std::int32_t wl, wh;
            axis_window(d, c[d], wl, wh);
            lo[d] = std::max(-reach, wl);
            hi[d] = std::min(reach, wh);
        }
    }
    [[nodiscard]] std::int32_t wrap_cell(std::int32_t c, std::size_t d) const noexcept {
        if (!torus()) return c;
        c %= n[d];
        return c < 0 ? c + n[d] : c;
    }

    // The gap along axis d between coordinate x and (unwrapped) cell j, less rounding
    // slack. Outside a torus the edge cells also hold the points beyond the box (they
    // are clamped into them), so they reach out to infinity.
    [[nodiscard]] scalar cell_gap(scalar x, std::int32_t j, std::size_t d) const noexcept {
        x = local(x, d);
        scalar lo = origin[d] + static_cast<scalar>(j) * w[d];
        scalar hi = lo + w[d];
        if (!torus()) {
            if (j <= 0) lo = -std::numeric_limits<scalar>::infinity();
            if (j >= n[d] - 1) hi = std::numeric_limits<scalar>::infinity();
        }
        const scalar g = std::max(std::max(lo - x, x - hi), scalar(0));
        return std::max(g - slack(g), scalar(0));
    }
};

}  // namespace detail
}  // namespace boids

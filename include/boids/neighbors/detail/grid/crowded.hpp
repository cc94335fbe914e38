// boids/neighbors/detail/grid/crowded.hpp - a second level of cells inside the cells that hold
// hundreds of boids. A grid's cells are capped at about 8 a boid over the box its
// flock spans, so boids packed within a pixel while as many others spread over the
// world (a spawn beside a flock) share a few cells; the k-nearest query reads only
// the sub-cells its ball touches there, not the whole cell.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace boids {
namespace detail {

// Cells holding more boids than this get sub-cells.
inline constexpr std::size_t crowded_cell_size = 512;

// The sub-cells of every crowded cell of one build: each crowded cell's box of boids
// cut into about half as many sub-cells as it holds boids, numbered along x first,
// and the cell's slots sorted by sub-cell (in slot order within one).
template <class S, std::size_t D>
struct crowded_cells {
    struct sub_grid {
        std::size_t bucket = 0;              // the cell's bucket
        std::array<std::int32_t, D> cell{};  // and its index along each axis
        std::array<S, D> origin{}, w{};
        std::array<std::int32_t, D> n{};
        std::size_t first = 0;  // its first sub-cell in start
    };
    static constexpr std::size_t padding = 16;  // slot and pos are readable this far past their end

    std::vector<sub_grid> grids;       // by ascending bucket
    std::vector<std::uint32_t> start;  // sub-cell c holds entries [start[c], start[c + 1])
    std::vector<std::uint32_t> slot;   // each entry's slot in the grid
    std::vector<S> pos;                // each entry's position per axis, stride apart
    std::size_t stride = 0;
    std::vector<std::uint32_t> sub;  // the build's scratch: each entry's sub-cell
    std::vector<S> sorting;          // and one cell's coordinates along an axis

    [[nodiscard]] const sub_grid* find(std::size_t bucket) const noexcept {
        const auto at = std::lower_bound(grids.begin(), grids.end(), bucket,
                                         [](const sub_grid& s, std::size_t b) { return s.bucket < b; });
        return at != grids.end() && at->bucket == bucket ? &*at : nullptr;
    }
    // The sub-cell (index along each axis) that holds coordinate x on axis d, clamped
    // into the grid; queries widen their range by one sub-cell for rounding.
    [[nodiscard]] static S sub_coord(const sub_grid& sg, S x, std::size_t d) noexcept {
        const S j = std::floor((x - sg.origin[d]) / sg.w[d]);
        return std::min(std::max(S(0), j), static_cast<S>(sg.n[d] - 1));  // (NaN: 0)
    }
};

// The sub-grid of the cell holding slots [s0, s1) of g, over the box of all but its
// outermost 1/64 of boids on each side of each axis (strays sharing the cell would
// spread it thin; sub_coord clamps them into the edge sub-cells); false where it could
// mislead a query: positions not finite, or spanning more than a quarter of a torus
// (a cell across a seam).
template <class G, class SubGrid, class S>
bool size_sub_grid(const G& g, std::size_t s0, std::size_t s1, SubGrid& sg, std::vector<S>& sorting) {
    constexpr std::size_t dim = G::dim;
    const std::size_t n = g.order.size(), m = s1 - s0, trim = m / 64;
    const double target = static_cast<double>(m) / 2.0;  // sub-cells: about 2 boids each
    double volume = 1;
    int live = 0;  // axes along which the boids spread
    std::array<S, dim> extent{}, least{};
    for (std::size_t d = 0; d < dim; ++d) {
        const S* x = g.spos.data() + d * n;
        S lo = x[s0], hi = x[s0];
        bool finite = true;
        for (std::size_t s = s0; s < s1; ++s) {
            finite = finite && std::isfinite(x[s]);
            lo = std::min(lo, x[s]);
            hi = std::max(hi, x[s]);
        }
        const S bound = g.layout.images() ? g.layout.world.size[d] / S(4) : std::numeric_limits<S>::max();
        if (!(finite && hi - lo <= bound)) return false;
        if (trim > 0) {
            sorting.assign(x + s0, x + s1);
            const auto low = sorting.begin() + static_cast<std::ptrdiff_t>(trim);
            const auto high = sorting.end() - 1 - static_cast<std::ptrdiff_t>(trim);
            std::nth_element(sorting.begin(), low, sorting.end());
            lo = *low;
            std::nth_element(low + 1, high, sorting.end());
            hi = *high;
        }
        // Sub-cells wide enough that rounding moves a point less than one across.
        least[d] = std::max(S(64) * std::numeric_limits<S>::epsilon() * std::max(std::fabs(lo), std::fabs(hi)),
                            S(64) * std::numeric_limits<S>::min());
        sg.origin[d] = lo;
        extent[d] = hi - lo;
        if (extent[d] > least[d]) {
            volume *= static_cast<double>(extent[d]);
            ++live;
        }
    }
    const double side = live > 0 ? std::pow(volume / target, 1.0 / live) : 0.0;
    for (std::size_t d = 0; d < dim; ++d) {
        double cells = 1;
        if (extent[d] > least[d] && side > 0) {
            cells = std::min(std::ceil(static_cast<double>(extent[d]) / side),
                             std::floor(static_cast<double>(extent[d]) / static_cast<double>(least[d])));
            cells = std::min(std::max(cells, 1.0), target + 1);
        }
        sg.n[d] = static_cast<std::int32_t>(cells);
        sg.w[d] = std::max(extent[d] / static_cast<S>(sg.n[d]), least[d]);
    }
    return true;
}

// The sub-grids of every cell of g (a dense grid) holding more than
// crowded_cell_size boids; none where no cell does (a scan of the cells only then).
// No allocation once the buffers have grown to a flock's crowd.
template <class G>
void build_crowded(G& g) {
    using S = typename G::scalar;
    constexpr std::size_t dim = G::dim;
    auto& cr = g.crowded;
    cr.grids.clear();
    if (!g.near_ready || g.most_in_a_cell <= crowded_cell_size) return;
    const std::size_t n = g.order.size();
    std::size_t entries = 0, cells = 0;
    for (std::size_t s = 0; s < n;) {
        const std::size_t b = g.layout.bucket_of(g.scell[s]), e = g.bucket_start[b + 1];
        typename crowded_cells<S, dim>::sub_grid sg;
        if (e - s > crowded_cell_size && size_sub_grid(g, s, e, sg, cr.sorting)) {
            sg.bucket = b;
            sg.cell = g.scell[s];
            sg.first = cells;
            std::size_t count = 1;
            for (std::size_t d = 0; d < dim; ++d) count *= static_cast<std::size_t>(sg.n[d]);
            if (count > std::numeric_limits<std::uint32_t>::max() - cells) break;  // (sub-cells count in 32 bits)
            cells += count;
            entries += e - s;
            cr.grids.push_back(sg);
        }
        s = e;
    }
    cr.start.assign(cells + 1, 0);
    cr.sub.resize(entries);
    cr.slot.resize(entries + cr.padding);
    cr.stride = entries + cr.padding;
    cr.pos.resize(dim * cr.stride);
    std::size_t at = 0;
    for (const auto& sg : cr.grids) {  // count
        for (std::size_t s = g.bucket_start[sg.bucket]; s < g.bucket_start[sg.bucket + 1]; ++s, ++at) {
            std::size_t c = 0;
            for (std::size_t d = dim; d-- > 0;) {
                const S j = cr.sub_coord(sg, g.spos[d * n + s], d);
                c = c * static_cast<std::size_t>(sg.n[d]) + static_cast<std::size_t>(j);
            }
            cr.sub[at] = static_cast<std::uint32_t>(sg.first + c);
            ++cr.start[sg.first + c + 1];
        }
    }
    for (std::size_t c = 0; c < cells; ++c) cr.start[c + 1] += cr.start[c];
    at = 0;
    for (const auto& sg : cr.grids) {  // place, in slot order: start[c] moves to the end of c
        for (std::size_t s = g.bucket_start[sg.bucket]; s < g.bucket_start[sg.bucket + 1]; ++s, ++at) {
            const std::uint32_t to = cr.start[cr.sub[at]]++;
            cr.slot[to] = static_cast<std::uint32_t>(s);
            for (std::size_t d = 0; d < dim; ++d) cr.pos[d * cr.stride + to] = g.spos[d * n + s];
        }
    }
    for (std::size_t c = cells; c > 0; --c) cr.start[c] = cr.start[c - 1];
    cr.start[0] = 0;
    for (std::size_t j = entries; j < cr.stride; ++j) {  // finite lanes past the end
        cr.slot[j] = 0;
        for (std::size_t d = 0; d < dim; ++d) cr.pos[d * cr.stride + j] = S(0);
    }
}

}  // namespace detail
}  // namespace boids

// boids/neighbors/detail/grid/crowded.hpp - a second level of cells inside the cells that hold
// hundreds of boids. A grid's cells are capped at about 8 a boid over the box its
// flock spans, so boids packed within a pixel while as many others spread over the
// world (a spawn beside a flock) share a few cells; the k-nearest and metric queries
// read only the sub-cells their ball touches there, not the whole cell, and boids
// stacked on one spot (over half a sub-cell) find their nearest in the stack at once.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>
#include "layout.hpp"

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
    // Per sub-cell, where over half its entries share one spot (a stack): how many, and
    // the first of them; 0 and 0 where none.
    std::vector<std::uint32_t> spot_count, spot_first;
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

// How far along an axis a point may lie from p whose offset from it squares (and sums)
// to at most r^2 after rounding: a little beyond r, and at least 2 sqrt(min) (nearer,
// a square may round to 0 whatever r).
template <class S>
[[nodiscard]] S reach_with_rounding(S r) noexcept {
    return std::max(r * (S(1) + 4 * std::numeric_limits<S>::epsilon()),
                    S(2) * std::sqrt(std::numeric_limits<S>::min()));
}

// How far rounding may carry, along axis d, a point of sub-grid sg from where its
// sub-cell says it lies, or the offset to it from x (a query's point, as the image
// `shift` of the cell sees it) from the exact one: a few units in the last place of
// the largest magnitude involved, r (the reach) among them.
template <class SubGrid, class S>
[[nodiscard]] S sub_cell_slack(const SubGrid& sg, S x, S shift, S r, std::size_t d) noexcept {
    const S span = std::fabs(sg.origin[d]) + sg.w[d] * static_cast<S>(sg.n[d]);
    return S(16) * std::numeric_limits<S>::epsilon() * (span + S(2) * (std::fabs(x) + std::fabs(shift)) + r) +
           S(64) * std::numeric_limits<S>::min();
}

// The sub-cells of `sg` along each axis, lo..hi, that may hold a point whose offset
// from p squares to at most r^2 (reach_with_rounding): those of the box around that
// ball, wider by `slack` (sub_cell_slack, per axis); sub_coord is monotonic, so a
// point in the box lies in them. Over a torus (`images`), p as near the cell as its
// images go.
template <class World, class S, std::size_t D>
void sub_cells_within(const crowded_cells<S, D>& cr, const typename crowded_cells<S, D>::sub_grid& sg,
                      const std::array<S, D>& p, S r, bool images, const World& world, const std::array<S, D>& slack,
                      std::array<std::int32_t, D>& lo, std::array<std::int32_t, D>& hi) noexcept {
    r = reach_with_rounding(r);
    for (std::size_t d = 0; d < D; ++d) {
        S x = p[d];
        if (images) {
            const S middle = sg.origin[d] + S(0.5) * sg.w[d] * static_cast<S>(sg.n[d]);
            x = middle - World::minimum_image(middle - x, world.size[d]);
        }
        lo[d] = static_cast<std::int32_t>(cr.sub_coord(sg, x - (r + slack[d]), d));
        hi[d] = static_cast<std::int32_t>(cr.sub_coord(sg, x + (r + slack[d]), d));
    }
}

// The same, with the slack of a query at p (over a torus, of any image of it: the
// world's size its shift).
template <class World, class S, std::size_t D>
void sub_cells_within(const crowded_cells<S, D>& cr, const typename crowded_cells<S, D>::sub_grid& sg,
                      const std::array<S, D>& p, S r, bool images, const World& world, std::array<std::int32_t, D>& lo,
                      std::array<std::int32_t, D>& hi) noexcept {
    std::array<S, D> slack{};
    for (std::size_t d = 0; d < D; ++d)
        slack[d] = sub_cell_slack(sg, p[d], images ? world.size[d] : S(0), reach_with_rounding(r), d);
    sub_cells_within(cr, sg, p, r, images, world, slack, lo, hi);
}

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
        least[d] = std::max(S(8) * std::numeric_limits<S>::epsilon() * std::max(std::fabs(lo), std::fabs(hi)),
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

// Each sub-cell's stack, where over half its entries share one spot: found by a
// vote (the majority's candidate) and a count.
template <class S, std::size_t D>
void find_stacks(crowded_cells<S, D>& cr, std::size_t cells) {
    cr.spot_count.assign(cells, 0);
    cr.spot_first.assign(cells, 0);
    auto same = [&](std::size_t a, std::size_t b) {
        bool equal = true;
        for (std::size_t d = 0; d < D; ++d) equal = equal && cr.pos[d * cr.stride + a] == cr.pos[d * cr.stride + b];
        return equal;
    };
    for (std::size_t c = 0; c < cells; ++c) {
        const std::size_t e0 = cr.start[c], e1 = cr.start[c + 1];
        if (e1 - e0 < 2) continue;
        std::size_t candidate = e0, votes = 0;
        for (std::size_t e = e0; e < e1; ++e) {
            if (votes == 0) candidate = e;
            votes = same(e, candidate) ? votes + 1 : votes - 1;
        }
        std::size_t count = 0, first = e1;
        for (std::size_t e = e0; e < e1; ++e)
            if (same(e, candidate) && count++ == 0) first = e;
        if (2 * count > e1 - e0) {
            cr.spot_count[c] = static_cast<std::uint32_t>(count);
            cr.spot_first[c] = static_cast<std::uint32_t>(first);
        }
    }
}

// Whether no boid outside slot si's cell can lie at a distance from it that squares
// to 0: each neighbouring cell more than a rounding's gap away.
template <class G>
[[nodiscard]] bool apart_from_other_cells(const G& g, std::size_t si) noexcept {
    using S = typename G::scalar;
    using world_t = std::decay_t<decltype(g.layout.world)>;
    const auto& lay = g.layout;
    const auto& c = g.scell[si];
    for (std::size_t d = 0; d < G::dim; ++d) {
        // (A torus's cell is the wrapped coordinate's.)
        const S p = g.spos[d * g.order.size() + si];
        const S x = lay.torus() ? world_t::wrap_scalar(p, lay.world.size[d]) : p;
        for (const std::int32_t j : {c[d] - 1, c[d] + 1}) {
            if (!lay.torus() && (j < 0 || j >= lay.n[d])) continue;  // no cell there
            const S gap = lay.cell_gap(x, j, d);
            if (!(gap * gap >= std::numeric_limits<S>::min())) return false;
        }
    }
    return true;
}

// Whether a boid of slots [s0, s1) off the spot p lies at an offset from it that
// squares to 0 (a rounding's distance, or a torus's image of it).
template <class G>
[[nodiscard]] bool rounds_onto(const G& g, std::size_t s0, std::size_t s1,
                               const std::array<typename G::scalar, G::dim>& p) noexcept {
    using S = typename G::scalar;
    const std::size_t n = g.order.size();
    for (std::size_t s = s0; s < s1; ++s) {
        bool on = true;
        S d2 = S(0);
        for (std::size_t d = 0; d < G::dim; ++d) {
            const S x = g.spos[d * n + s], o = g.layout.world.offset_component(p[d], x, d);
            on = on && x == p[d];
            d2 += o * o;
        }
        if (!on && d2 == S(0)) return true;
    }
    return false;
}

// Keeps the stacks that no other boid can join at distance 0: of their cell, a boid off
// the spot can only where some coordinate of it lies near 0 (within about 1e-11 in
// float); of a neighbouring cell, only where the spot lies on the cells' border. Those
// are looked at, boid by boid, up to about 4 times the flock in all; beyond, dropped.
template <class G>
void confirm_stacks(G& g) {
    using S = typename G::scalar;
    constexpr std::size_t dim = G::dim;
    auto& cr = g.crowded;
    const auto& lay = g.layout;
    const std::size_t n = g.order.size();
    // Distinct coordinates at least this far from 0 differ by a normal number's root.
    const S apart = S(4) * std::sqrt(std::numeric_limits<S>::min()) / std::numeric_limits<S>::epsilon();
    std::size_t budget = 4 * n + 4096;
    for (const auto& sg : cr.grids) {
        std::size_t cells = 1;
        for (std::size_t d = 0; d < dim; ++d) cells *= static_cast<std::size_t>(sg.n[d]);
        for (std::size_t c = sg.first; c < sg.first + cells; ++c) {
            if (cr.spot_count[c] == 0) continue;
            const std::size_t si = cr.slot[cr.spot_first[c]];
            std::array<S, dim> p{};
            bool far_from_zero = true;
            for (std::size_t d = 0; d < dim; ++d) {
                p[d] = g.spos[d * n + si];
                far_from_zero = far_from_zero && std::fabs(p[d]) >= apart;
            }
            bool joined = false;
            auto look = [&](std::size_t s0, std::size_t s1) {
                if (joined || s1 - s0 > budget) return void(joined = true);
                budget -= s1 - s0;
                joined = rounds_onto(g, s0, s1, p);
            };
            if (!far_from_zero) look(g.bucket_start[sg.bucket], g.bucket_start[sg.bucket + 1]);
            if (!apart_from_other_cells(g, si)) {
                std::array<std::int32_t, dim> lo{}, hi{}, o{};
                lay.clipped_offsets(sg.cell, 1, lo, hi);
                iterate_box(lo, hi, o, 0, [&](const std::array<std::int32_t, dim>& off) {
                    std::array<std::int32_t, dim> cell{};
                    for (std::size_t d = 0; d < dim; ++d) cell[d] = lay.wrap_cell(sg.cell[d] + off[d], d);
                    if (cell == sg.cell) return;
                    const std::size_t b = lay.bucket_of(cell);
                    look(g.bucket_start[b], g.bucket_start[b + 1]);
                });
            }
            if (joined) cr.spot_count[c] = 0;
        }
    }
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
    find_stacks(cr, cells);
    confirm_stacks(g);
}

// The stack on slot si's very spot in a crowded cell's sub-cell, that no other boid
// joins at distance 0 (find_stacks, confirm_stacks): how many boids share it, and its
// sub-cell's entries from the first of them (in slot order, so in index order); a
// count of 0 where there is none.
struct own_stack {
    std::size_t count = 0, first = 0, end = 0;
};
template <class G>
[[nodiscard]] own_stack stack_on_own_spot(const G& g, std::size_t si) noexcept {
    const auto& cr = g.crowded;
    const std::size_t b = g.layout.bucket_of(g.scell[si]);
    const auto* sg =
        g.bucket_start[b + 1] - g.bucket_start[b] > crowded_cell_size && !cr.grids.empty() ? cr.find(b) : nullptr;
    if (sg == nullptr) return {};
    const std::size_t n = g.order.size();
    std::size_t c = 0;
    for (std::size_t d = G::dim; d-- > 0;)
        c = c * static_cast<std::size_t>(sg->n[d]) + static_cast<std::size_t>(cr.sub_coord(*sg, g.spos[d * n + si], d));
    c += sg->first;
    const std::size_t count = cr.spot_count[c], first = cr.spot_first[c];
    for (std::size_t d = 0; count > 0 && d < G::dim; ++d)
        if (!(cr.pos[d * cr.stride + first] == g.spos[d * n + si])) return {};
    return {count, first, cr.start[c + 1]};
}

}  // namespace detail
}  // namespace boids

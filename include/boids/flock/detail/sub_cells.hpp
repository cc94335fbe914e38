// boids/flock/detail/sub_cells.hpp - a capped metric step's boids in a crowded cell (one
// holding hundreds, such as a flock spawned within a pixel beside others spread over
// the world): their nearest are looked for in the sub-cells around their own
// (neighbors/detail/grid/crowded.hpp), so that a boid reads about as many candidates
// as it heeds, not the whole crowd.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>
#include "../../executor.hpp"
#include "../../neighbors/query.hpp"
#include "../workspace.hpp"
#include "kernel.hpp"
#include "rings.hpp"

namespace boids {
namespace detail {

// Calls visit(e0, e1) for each row along x of sub-cells lo..hi of `sg` (sub-cells are
// numbered along x first: a row is one run of the sub-cells' entries), narrowed to the
// sub-cells that may hold a point within rr of the query.
template <class S, std::size_t D, class Visit>
void for_each_sub_row(const crowded_cells<S, D>& cr, const block_source<S, D>& src, S rr, Visit&& visit) {
    const std::array<S, D>& p = src.at;
    const sub_grid_t<S, D>& sg = *src.sub;
    std::array<std::int32_t, D> j = src.lo;
    for (;;) {
        // How near p the row's points lie across x: within the slack of their sub-cells
        // (sub_coord rounds them by less); the edge rows hold the cell's strays, however far.
        S across = S(0);
        std::size_t c = 0;
        for (std::size_t d = D; d-- > 1;) {
            c = c * static_cast<std::size_t>(sg.n[d]) + static_cast<std::size_t>(j[d]);
            const S below = j[d] == 0 ? S(0) : sg.origin[d] + static_cast<S>(j[d]) * sg.w[d] - p[d] - src.slack[d];
            const S above =
                j[d] == sg.n[d] - 1 ? S(0) : p[d] - (sg.origin[d] + static_cast<S>(j[d] + 1) * sg.w[d]) - src.slack[d];
            const S gap = std::max(std::max(below, above), S(0));
            across += gap * gap;
        }
        if (across <= rr * rr) {
            const S half = std::sqrt(rr * rr - across) + src.slack[0];  // of the row's stretch within rr
            const auto x0 = std::max(static_cast<std::int32_t>(cr.sub_coord(sg, p[0] - half, 0)), src.lo[0]);
            const auto x1 = std::min(static_cast<std::int32_t>(cr.sub_coord(sg, p[0] + half, 0)), src.hi[0]);
            c = sg.first + c * static_cast<std::size_t>(sg.n[0]);
            if (x0 <= x1)
                visit(std::size_t{cr.start[c + static_cast<std::size_t>(x0)]},
                      std::size_t{cr.start[c + static_cast<std::size_t>(x1) + 1]});
        }
        std::size_t d = 1;
        for (; d < D; ++d) {
            if (j[d] < src.hi[d]) {
                ++j[d];
                break;
            }
            j[d] = src.lo[d];
        }
        if (d == D) return;
    }
}

// A step's velocities per axis: by slot (n apart), and for the crowded cells' entries
// in their sub-cells' order (the sub-cells' stride apart), so that a row of sub-cells
// is copied whole rather than slot by slot.
template <class S>
struct step_velocities {
    const S* by_slot = nullptr;
    const S* by_entry = nullptr;
};

// Gathers step_velocities::by_entry into `out` from the velocities by slot, in
// parallel; nothing where no cell is crowded. `out` keeps its largest size.
template <class G, class S, class Executor>
void gather_crowded_velocities(const G& g, const S* by_slot, std::vector<S>& out, std::size_t tasks,
                               Executor& executor) {
    const auto& cr = g.crowded;
    if (cr.grids.empty()) return;
    constexpr std::size_t D = G::dim;
    const std::size_t n = g.order.size(), entries = cr.stride;
    if (out.size() < D * entries) out.resize(D * entries);
    executor(tasks, [&](std::size_t t) {
        const index_range range = task_range(entries, t, tasks);
        for (std::size_t d = 0; d < D; ++d)
            for (std::size_t e = range.begin; e < range.end; ++e) out[d * entries + e] = by_slot[d * n + cr.slot[e]];
    });
}

// Fills `block` with the boids of the task's sources (scratch.sources; see
// for_each_sub_row; positions from the sub-cells' copies or the grid's), growing it in
// the task's storage where they do not fit.
template <class G, class S, std::size_t D>
void fill_from_sources(const G& g, S rr, step_velocities<S> vels, task_scratch<S, D>& scratch,
                       candidate_block<S, D>& block) {
    const auto& cr = g.crowded;
    const std::size_t n = g.order.size();
    // Room for every boid of the sources' cells (so the rows are walked once): the
    // storage grows to the largest crowd met, then stays.
    std::size_t most = 0;
    bool shifted = false;
    for (const auto& src : scratch.sources) {
        for (std::size_t d = 0; d < D; ++d) shifted = shifted || src.shift[d] != S(0);
        most += src.s1 - src.s0;
    }
    if (most > block.capacity) block = scratch.block_for(scratch.sub, most);
    std::size_t at = 0;
    for (const auto& src : scratch.sources) {
        const std::size_t from_at = at;
        if (src.sub == nullptr) {
            for (std::size_t d = 0; d < D; ++d) {
                std::copy(g.spos.data() + d * n + src.s0, g.spos.data() + d * n + src.s1, block.pos[d] + at);
                std::copy(vels.by_slot + d * n + src.s0, vels.by_slot + d * n + src.s1, block.vel[d] + at);
            }
            at += src.s1 - src.s0;
        } else {
            for_each_sub_row(cr, src, rr, [&](std::size_t e0, std::size_t e1) {
                for (std::size_t d = 0; d < D; ++d) {
                    const S* from = cr.pos.data() + d * cr.stride;
                    std::copy(from + e0, from + e1, block.pos[d] + at);
                    const S* vel_from = vels.by_entry + d * cr.stride;
                    std::copy(vel_from + e0, vel_from + e1, block.vel[d] + at);
                }
                at += e1 - e0;
            });
        }
        for (std::size_t d = 0; shifted && d < D; ++d)
            std::fill(block.shift_row[d] + from_at, block.shift_row[d] + at, src.shift[d]);
    }
    block.size = at;
    block.shifted = shifted;
    block.per_lane = false;  // each source's shift is its minimum image
    for (std::size_t d = 0; d < D; ++d) {
        block.shift[d] = shifted ? block.shift_row[d] : block.no_shift;
        for (std::size_t k = at; k < at + block_lanes<S>; ++k) {
            block.pos[d][k] = block_sentinel<S>;
            if (shifted) block.shift_row[d][k] = S(0);
        }
    }
}

// Whether a crowded cell lies within `reach` cells of cell c (along every axis, round a
// torus): its boids' neighbours then read sub-cells (sum_in_sub_cells).
template <class G>
[[nodiscard]] bool crowded_cell_within(const G& g, const typename G::cell_t& c, std::int32_t reach) noexcept {
    const auto& lay = g.layout;
    if (g.crowded.grids.size() > 64) return true;  // (cheaper to try than to look)
    for (const auto& sg : g.crowded.grids) {
        bool within = true;
        for (std::size_t d = 0; d < G::dim; ++d) {
            std::int32_t apart = sg.cell[d] > c[d] ? sg.cell[d] - c[d] : c[d] - sg.cell[d];
            if (lay.torus()) apart = std::min(apart, lay.n[d] - apart);
            within = within && apart <= reach;
        }
        if (within) return true;
    }
    return false;
}

// Sums the boid in `slot`, at `p`, beside or inside crowded cells over the boids within
// rr of it, where they prove to hold every boid it heeds: of the cells around its own,
// those within rr, and of those that are crowded, only the sub-cells within rr.
// heeded(block) gives the squared radius holding its `look.heed` nearest seen in a block
// (`look.full_r2` where it sees fewer); where no boid outside the block can be as near,
// sum(block, r2) runs the kernel within it. rr starts as the radius of the ball that
// holds them at its own cell's density and widens up to four times, while the cells
// within `look.most_reach` of its own hold it; false where that proves nothing, or
// where the block the caller reads otherwise (`otherwise` candidates) costs less, and
// the caller reads the cells around as usual. Which block a boid sums depends on its
// position alone: the same bits on any threads.
template <class Runs, class S, std::size_t D, class Heeded, class Sum>
BOIDS_DETAIL_OUT_OF_LINE bool sum_in_sub_cells(const Runs& runs, std::size_t slot, const std::array<S, D>& p,
                                               const nearest_search<S>& look, std::size_t otherwise,
                                               step_velocities<S> vels, task_scratch<S, D>& scratch, Heeded&& heeded,
                                               Sum&& sum) {
    const auto& g = runs.cells();
    const auto& lay = g.layout;
    const auto& cr = g.crowded;
    const auto& c = g.scell[slot];
    const std::size_t b = lay.bucket_of(c);
    const sub_grid_t<S, D>* own = g.bucket_start[b + 1] - g.bucket_start[b] > crowded_cell_size ? cr.find(b) : nullptr;
    // The density that sizes the first ball: of the own cell's sub-grid (over the axes it
    // spans), else of the cell.
    double volume = 1, boids = static_cast<double>(g.bucket_start[b + 1] - g.bucket_start[b]);
    int live = 0;
    for (std::size_t d = 0; d < D; ++d) {
        const double side = own != nullptr ? static_cast<double>(own->n[d]) * static_cast<double>(own->w[d])
                                           : static_cast<double>(lay.w[d]);
        if (own == nullptr || own->n[d] > 1) {
            volume *= side;
            ++live;
        }
    }
    if (live == 0 || !(volume > 0)) return false;  // a cell's boids on one spot: the caller's
    const double want =
        1.25 * static_cast<double>(look.heed + 1) / static_cast<double>(look.share);  // seen, to heed them
    // Where the block the caller reads otherwise holds not four times that, it costs less.
    if (static_cast<double>(otherwise) < 4 * want) return false;
    double rr = radius_of_ball(want * volume / boids, static_cast<std::size_t>(live));
    S narrowest = lay.w[0];
    for (std::size_t d = 1; d < D; ++d) narrowest = std::min(narrowest, lay.w[d]);
    candidate_block<S, D> block = scratch.block_for(scratch.sub, 0);
    for (int attempt = 0; attempt < 5; ++attempt) {
        // The cells within `reach` of its own, each through the image nearest it: on a
        // torus at least 2 reach + 1 cells across (so that no cell is two of them), not
        // across a seam of cells that follow the flock over a torus's edge.
        const auto reach = static_cast<std::int32_t>(
            std::min(std::ceil(rr / static_cast<double>(narrowest)), static_cast<double>(look.most_reach)));
        std::array<std::int32_t, D> lo{}, hi{}, off{};
        lay.clipped_offsets(c, reach, lo, hi);
        for (std::size_t d = 0; d < D; ++d) {
            if (lay.torus() && lay.n[d] < 2 * reach + 1) return false;
            if (runs.block_across_seam(slot, reach, d)) return false;
        }
        const auto outside = static_cast<double>(runs.outside_distance(slot, reach));  // boids beyond those cells
        const auto r = static_cast<S>(std::min(rr, outside));
        const S read = reach_with_rounding(r);  // every boid whose offset squares to r^2 or less
        scratch.sources.clear();                // (keeps its storage: a step allocates none once grown)
        iterate_box(lo, hi, off, 0, [&](const std::array<std::int32_t, D>& o) {
            std::array<std::int32_t, D> cell{};
            block_source<S, D> src;
            S gap2 = S(0);
            for (std::size_t d = 0; d < D; ++d) {
                cell[d] = c[d] + o[d];
                const S gap = lay.cell_gap(p[d], cell[d], d);  // (of the unwrapped cell)
                gap2 += gap * gap;
                if (cell[d] < 0 && lay.torus()) {  // past the low edge: its boids sit a world size lower
                    cell[d] += lay.n[d];
                    src.shift[d] = -lay.world.size[d];
                } else if (cell[d] >= lay.n[d] && lay.torus()) {
                    cell[d] -= lay.n[d];
                    src.shift[d] = lay.world.size[d];
                }
                src.at[d] = p[d] - src.shift[d];
            }
            if (gap2 > read * read) return;  // every boid there lies further than r
            const std::size_t bc = lay.bucket_of(cell);
            src.s0 = g.bucket_start[bc];
            src.s1 = g.bucket_start[bc + 1];
            src.sub = src.s1 - src.s0 > crowded_cell_size ? cr.find(bc) : nullptr;
            // (src.at is already the image nearest the cell.)
            if (src.sub != nullptr) {
                for (std::size_t d = 0; d < D; ++d)
                    src.slack[d] = sub_cell_slack(*src.sub, src.at[d], src.shift[d], read, d);
                sub_cells_within(cr, *src.sub, src.at, r, false, lay.world, src.slack, src.lo, src.hi);
            }
            scratch.sources.push_back(src);
        });
        fill_from_sources(g, read, vels, scratch, block);
        const S cut = heeded(block);
        if (cut < r * r) {
            sum(block, cut);
            return true;
        }
        if (!(rr < outside) && reach == look.most_reach) return false;  // no wider here
        // Wider: to the ball its heeded nearest span where the block held them, else twice.
        rr = cut < look.full_r2 ? std::max(rr * 1.25, 1.05 * std::sqrt(static_cast<double>(cut))) : rr * 2;
    }
    return false;
}

}  // namespace detail
}  // namespace boids

// boids/neighbors/detail/grid/build.hpp - a grid's build: a counting sort of the boids into
// cell order, O(N + cells), with the positions copied into per-axis arrays in that
// order, so a query scans contiguous runs of candidates. Buffers are reused: after
// the first build of a given size no build allocates.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>
#include "../../../executor.hpp"
#include "../../../detail/prefetch.hpp"
#include "cells.hpp"

namespace boids {
namespace detail {

// What a build needs besides the index itself, kept between builds.
template <class V, bool Hashed>
struct grid_build_scratch {
    std::vector<std::size_t> cursor, pbucket;                    // each bucket's next free slot; each boid's bucket
    std::vector<typename grid_layout<V, Hashed>::cell_t> pcell;  // each boid's cell (hashed grids)
    std::vector<std::size_t> task_counts;                        // the parallel build's counts per task and cell
    std::vector<std::size_t> owner, handed;  // the parallel build's cells per task, and its lists of boids
    std::vector<scalar_t<V>> task_max_abs;
    std::vector<unsigned char> task_inside;  // per task of the parallel build: its boids all lie in the box
};

// A dense grid's first pass over boids [b, e): each boid's bucket (into pbucket),
// counted in counts[bucket]; max_abs takes the largest finite |coordinate| of an open
// world. Chunk by chunk (see grid_layout::cells_of_chunk).
template <class V>
void count_dense_cells(const grid_layout<V, false>& g, span<const V> positions, std::size_t b, std::size_t e,
                       std::size_t* pbucket, std::size_t* counts, scalar_t<V>& max_abs) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>, chunk = grid_layout<V, false>::cell_chunk;
    const bool torus = g.torus();
    scalar x[dim][chunk];
    std::int32_t cell[dim][chunk];
    for (std::size_t i0 = b; i0 < e; i0 += chunk) {
        const std::size_t m = std::min(chunk, e - i0);
        for (std::size_t k = 0; k < chunk; ++k)
            for (std::size_t d = 0; d < dim; ++d) x[d][k] = k < m ? boids::get(positions[i0 + k], d) : scalar(0);
        int in_box = 1;
        for (std::size_t d = 0; d < dim; ++d) {
            if (torus) {
                const scalar size = g.world.size[d];
                for (std::size_t k = 0; k < chunk; ++k)
                    in_box &= static_cast<int>(x[d][k] >= scalar(0)) & static_cast<int>(x[d][k] < size);
            } else {
                scalar big = max_abs;
                for (std::size_t k = 0; k < chunk; ++k) {
                    const scalar a = std::fabs(x[d][k]);
                    big = a <= std::numeric_limits<scalar>::max() && a > big ? a : big;  // skips inf and NaN
                }
                max_abs = big;
            }
        }
        g.cells_of_chunk(x, m, in_box != 0, cell);
        for (std::size_t k = 0; k < m; ++k) {
            typename grid_layout<V, false>::cell_t c;
            for (std::size_t d = 0; d < dim; ++d) c[d] = cell[d][k];
            const std::size_t bucket = g.bucket_of(c);
            pbucket[i0 + k] = bucket;
            ++counts[bucket];
        }
    }
}

// Placing, its second half: with the order known, slots s0 up to s1 get their boids'
// cells and positions, read from the boids (in random order: reads, which overlap)
// and written in slot order. Written from each boid in index order, they made three
// or four more stores per boid to random places, which beyond the caches wait for
// their lines one after another (a million boids: 44-72 ms a build). A dense grid's
// cells are found again from the positions just read, not read from a per-boid
// array: one random line per boid instead of two. Returns whether every position
// lies in the box.
template <class V, bool Hashed>
bool fill_slots(grid_cells<V, Hashed>& g, const grid_build_scratch<V, Hashed>& scratch, span<const V> positions,
                std::size_t s0, std::size_t s1) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>, chunk = grid_layout<V, Hashed>::cell_chunk;
    constexpr std::size_t ahead = 16;  // slots: about a memory latency of this loop
    const std::size_t n = g.order.size();
    const auto& world = g.layout.world;
    bool inside = true;
    scalar x[dim][chunk];
    std::int32_t cell[dim][chunk];
    for (std::size_t c0 = s0; c0 < s1; c0 += chunk) {
        const std::size_t m = std::min(chunk, s1 - c0);
        int in_box = 1;
        for (std::size_t k = 0; k < m; ++k) {
            const std::size_t s = c0 + k;
            if (s + ahead < s1) {
                const std::size_t j = g.order[s + ahead];
                prefetch<prefetch_for::reading>(positions.data() + j);
                if (Hashed) prefetch<prefetch_for::reading>(scratch.pcell.data() + j);
            }
            const std::size_t i = g.order[s];
            if (Hashed) g.scell[s] = scratch.pcell[i];
            for (std::size_t d = 0; d < dim; ++d) {
                const scalar xd = boids::get(positions[i], d);
                g.spos[d * n + s] = xd;
                x[d][k] = xd;
                in_box &= static_cast<int>(xd >= scalar(0)) & static_cast<int>(xd < world.size[d]);
            }
        }
        inside = inside && in_box != 0;
        if (!Hashed) {
            for (std::size_t k = m; k < chunk; ++k)
                for (std::size_t d = 0; d < dim; ++d) x[d][k] = scalar(0);
            g.layout.cells_of_chunk(x, m, in_box != 0 || !g.layout.torus(), cell);
            for (std::size_t k = 0; k < m; ++k)
                for (std::size_t d = 0; d < dim; ++d) g.scell[c0 + k][d] = cell[d][k];
        }
    }
    return inside;
}

// The arrays of a build of n boids into nb buckets, sized (no allocation once they are).
template <class V, bool Hashed>
void size_for_build(grid_cells<V, Hashed>& g, grid_build_scratch<V, Hashed>& scratch, std::size_t n) {
    scratch.pbucket.resize(n);
    g.order.resize(n);
    g.slot.resize(n);
    g.scell.resize(n);
    const std::size_t want = n * dimension_v<V> + grid_cells<V, Hashed>::padding;
    if (g.spos.size() != want) g.spos.assign(want, scalar_t<V>(0));  // every slot is written by fill_slots
}

template <class V, bool Hashed>
void build_grid(grid_cells<V, Hashed>& g, grid_build_scratch<V, Hashed>& scratch, span<const V> positions) {
    using scalar = scalar_t<V>;
    constexpr std::size_t dim = dimension_v<V>;
    auto& lay = g.layout;
    const std::size_t n = positions.size();
    lay.fit(positions);
    const std::size_t nb = lay.buckets_for(n);
    g.bucket_start.assign(nb + 1, 0);
    if (Hashed) scratch.pcell.resize(n);  // a dense grid finds a boid's cell again in fill_slots
    size_for_build(g, scratch, n);
    lay.max_abs = lay.coordinate_bound();
    if constexpr (Hashed) {
        for (std::size_t i = 0; i < n; ++i) {
            typename grid_layout<V, Hashed>::cell_t c{};
            for (std::size_t d = 0; d < dim; ++d) {
                const scalar x = boids::get(positions[i], d);
                c[d] = lay.cell_coord(x, d);
                if (!lay.torus() && std::fabs(x) <= std::numeric_limits<scalar>::max())
                    lay.max_abs = std::max(lay.max_abs, std::fabs(x));
            }
            scratch.pcell[i] = c;
            scratch.pbucket[i] = lay.bucket_of(c);
            ++g.bucket_start[scratch.pbucket[i] + 1];
        }
        lay.cmin.fill(std::numeric_limits<std::int32_t>::max());
        lay.cmax.fill(std::numeric_limits<std::int32_t>::min());
    } else {
        count_dense_cells(lay, positions, 0, n, scratch.pbucket.data(), g.bucket_start.data() + 1, lay.max_abs);
    }
    g.most_in_a_cell = 0;
    for (std::size_t b = 0; b < nb; ++b) {
        g.most_in_a_cell = std::max(g.most_in_a_cell, g.bucket_start[b + 1]);  // (still the count)
        g.bucket_start[b + 1] += g.bucket_start[b];
    }
    scratch.cursor.assign(g.bucket_start.begin(), g.bucket_start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t s = scratch.cursor[scratch.pbucket[i]]++;
        g.order[s] = i;
        g.slot[i] = s;
        if constexpr (Hashed)
            for (std::size_t d = 0; d < dim; ++d) {
                lay.cmin[d] = std::min(lay.cmin[d], scratch.pcell[i][d]);
                lay.cmax[d] = std::max(lay.cmax[d], scratch.pcell[i][d]);
            }
    }
    g.prepare_nearest(fill_slots(g, scratch, positions, 0, n));  // every position in the box?
}

// The same index, built by `tasks` tasks of `executor` (see executor.hpp): each
// counts a contiguous range of boids into cells, then places the boids of its own
// contiguous range of cells, in index order, so the result is the sequential
// build's, bit for bit. Placing reads every boid's cell once per task (O(N) each):
// cheap beside the placing itself for the thread counts of a desktop.
template <class V, class Executor>
void build_grid(grid_cells<V, false>& g, grid_build_scratch<V, false>& scratch, span<const V> positions,
                Executor&& executor, std::size_t tasks) {
    using scalar = scalar_t<V>;
    const std::size_t n = positions.size();
    if (tasks <= 1 || n < 8192) {  // below this, starting tasks costs more than it saves
        build_grid(g, scratch, positions);
        return;
    }
    auto& lay = g.layout;
    lay.fit(positions);
    const std::size_t nb = lay.buckets_for(n);
    size_for_build(g, scratch, n);
    scratch.task_counts.resize(tasks * nb);  // each task zeroes its own counts
    scratch.task_max_abs.assign(tasks, scalar(0));
    scratch.task_inside.assign(tasks, 0);
    executor(tasks, [&](std::size_t t) {  // cells, and counts per task
        const index_range r = task_range(n, t, tasks);
        scalar max_abs = scalar(0);
        std::size_t* counts = scratch.task_counts.data() + t * nb;
        std::fill(counts, counts + nb, std::size_t(0));
        count_dense_cells(lay, positions, r.begin, r.end, scratch.pbucket.data(), counts, max_abs);
        scratch.task_max_abs[t] = max_abs;
    });
    lay.max_abs = lay.coordinate_bound();
    for (std::size_t t = 0; t < tasks; ++t) lay.max_abs = std::max(lay.max_abs, scratch.task_max_abs[t]);
    g.bucket_start.resize(nb + 1);
    std::size_t next = 0;
    g.most_in_a_cell = 0;
    for (std::size_t b = 0; b < nb; ++b) {  // and each task's counts become its first slot in each cell
        g.bucket_start[b] = next;
        for (std::size_t t = 0; t < tasks; ++t) {
            const std::size_t count = scratch.task_counts[t * nb + b];
            scratch.task_counts[t * nb + b] = next;
            next += count;
        }
        g.most_in_a_cell = std::max(g.most_in_a_cell, next - g.bucket_start[b]);
    }
    g.bucket_start[nb] = next;
    scratch.cursor.resize(nb);  // each task copies its own cells' starts
    // The slots are shared out by whole cells, task u taking cells owner[u] up to
    // owner[u + 1], so that each task writes only its own part of the sorted arrays.
    // (Tasks that each placed a range of boids wrote into the same cache lines: the
    // placing ran slower on two threads than on one.)
    scratch.owner.resize(tasks + 1);
    const auto starts = g.bucket_start.begin();
    for (std::size_t u = 0; u < tasks; ++u)
        scratch.owner[u] = static_cast<std::size_t>(
            std::lower_bound(starts, starts + static_cast<std::ptrdiff_t>(nb), task_range(n, u, tasks).begin) - starts);
    scratch.owner[tasks] = nb;
    scratch.handed.resize(n + tasks);
    executor(tasks, [&](std::size_t u) {
        const std::size_t lo = scratch.owner[u], cells = scratch.owner[u + 1] - lo;
        std::copy(starts + static_cast<std::ptrdiff_t>(lo), starts + static_cast<std::ptrdiff_t>(lo + cells),
                  scratch.cursor.begin() + static_cast<std::ptrdiff_t>(lo));
        // The boids this task places, in index order: every bucket is compared (no
        // branch, the list's end moves by the answer), which is cheaper than the
        // mispredicted branch of an unsorted flock. List u starts at its first slot
        // plus u, so its one write past its end stays inside it.
        std::size_t* list = scratch.handed.data() + g.bucket_start[lo] + u;
        std::size_t m = 0;
        for (std::size_t i = 0; i < n; ++i) {
            list[m] = i;
            m += static_cast<std::size_t>(scratch.pbucket[i] - lo < cells);
        }
        for (std::size_t j = 0; j < m; ++j) {
            const std::size_t i = list[j];
            g.order[scratch.cursor[scratch.pbucket[i]]++] = i;
        }
        const bool in = fill_slots(g, scratch, positions, g.bucket_start[lo], g.bucket_start[lo + cells]);
        scratch.task_inside[u] = in ? 1 : 0;
        // Each boid's slot, written by the task that counted it (a contiguous range of
        // boids, from its own first slot in each cell: the same slots, in index order
        // within a cell): boids of every cell written by the task that placed them
        // shared cache lines of slot[] with the other task's, line by line.
        const index_range r = task_range(n, u, tasks);
        std::size_t* first = scratch.task_counts.data() + u * nb;
        for (std::size_t i = r.begin; i < r.end; ++i) g.slot[i] = first[scratch.pbucket[i]]++;
    });
    bool inside = true;
    for (std::size_t t = 0; t < tasks; ++t) inside = inside && scratch.task_inside[t] == 1;
    g.prepare_nearest(inside);
}

}  // namespace detail
}  // namespace boids

// boids/detail/grid_core.hpp - the cell index behind uniform_grid and hashed_grid.
//
// build() is a counting sort of the boids into cell order, O(N + cells), with the
// positions copied into per-axis arrays in that order, so a query scans contiguous
// runs of candidates. Buffers are reused: after the first build of a given size no
// build or query allocates.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>
#include "../neighbors/query.hpp"
#include "../neighbors/world.hpp"
#include "../random.hpp"
#include "../strided.hpp"
#include "block_distances.hpp"
#include "keep_within.hpp"
#include "pack.hpp"
#include "prefetch.hpp"

namespace boids {
namespace detail {

template <class V, bool Hashed>
class grid_core {
public:
    using scalar = scalar_t<V>;
    static constexpr std::size_t dim = dimension_v<V>;
    using neighbor_type = neighbor<scalar, dim>;
    using cell_t = std::array<std::int32_t, dim>;

    // Dense grids hand out runs of slots that hold only candidates from the query's
    // block of cells (hashed buckets also hold strangers), so a kernel can scan them.
    static constexpr bool has_contiguous_runs = !Hashed;
    // Per-axis arrays are readable this many slots past their end (zeros), so a
    // kernel may load whole lanes and mask the tail.
    static constexpr std::size_t padding = 16;
    static constexpr std::size_t cell_chunk = 64;  // boids whose cells are found together (dense_cells, fill_slots)

    grid_core() = default;
    // cell_size: the edge of a cell, usually the view radius (> 0). In a box world the
    // cells are widened so a whole number of them fills each side.
    // A cell size that is not > 0 (an assert where asserts are on) becomes infinite:
    // one cell for the whole flock, slow but never a lost neighbour.
    grid_core(const world_for<V>& w, scalar cell_size) noexcept : world_(w), cell_size_(usable_cell(cell_size)) {
        BOIDS_ASSERT(cell_size > 0 && std::isfinite(cell_size), "grid: cell size must be finite and > 0");
    }

    // A new cell edge for the next build(), keeping the buffers (no allocation).
    void set_cell_size(scalar cell_size) noexcept {
        BOIDS_ASSERT(cell_size > 0 && std::isfinite(cell_size), "grid: cell size must be finite and > 0");
        cell_size_ = usable_cell(cell_size);
    }

    [[nodiscard]] const world_for<V>& world() const noexcept { return world_; }
    [[nodiscard]] std::size_t size() const noexcept { return order_.size(); }
    [[nodiscard]] scalar cell_size() const noexcept { return cell_size_; }
    [[nodiscard]] std::array<std::int32_t, dim> cells_per_axis() const noexcept { return n_; }
    [[nodiscard]] std::size_t bucket_count() const noexcept { return bucket_start_.empty() ? 0 : bucket_start_.size() - 1; }
    // Boid indices in cell order, and their positions along axis d in the same order.
    [[nodiscard]] span<const std::size_t> order() const noexcept { return {order_.data(), order_.size()}; }
    [[nodiscard]] span<const scalar> sorted_axis(std::size_t d) const noexcept {
        return {spos_.data() + d * order_.size(), order_.size()};
    }

    void build(span<const V> positions) {
        const std::size_t n = positions.size();
        layout(positions);
        const std::size_t nb = buckets_for(n);
        bucket_start_.assign(nb + 1, 0);
        if (Hashed) pcell_.resize(n);  // a dense grid finds a boid's cell again in fill_slots
        pbucket_.resize(n);
        max_abs_ = scalar(0);
        if (world_.kind == edges::toroidal)
            for (std::size_t d = 0; d < dim; ++d) max_abs_ = std::max(max_abs_, world_.size[d]);
        if (Hashed) {
            for (std::size_t i = 0; i < n; ++i) {
                cell_t c{};
                for (std::size_t d = 0; d < dim; ++d) {
                    const scalar x = boids::get(positions[i], d);
                    c[d] = cell_coord(x, d);
                    if (world_.kind != edges::toroidal && std::fabs(x) <= std::numeric_limits<scalar>::max())
                        max_abs_ = std::max(max_abs_, std::fabs(x));
                }
                pcell_[i] = c;
                pbucket_[i] = bucket_of(c);
                ++bucket_start_[pbucket_[i] + 1];
            }
        } else {
            dense_cells(positions, 0, n, bucket_start_.data() + 1, max_abs_);
        }
        for (std::size_t b = 0; b < nb; ++b) bucket_start_[b + 1] += bucket_start_[b];
        cursor_.assign(bucket_start_.begin(), bucket_start_.end() - 1);
        order_.resize(n);
        slot_.resize(n);
        scell_.resize(n);
        if (spos_.size() != n * dim + padding) spos_.assign(n * dim + padding, scalar(0));  // every slot is written below
        if (Hashed) {
            cmin_.fill(std::numeric_limits<std::int32_t>::max());
            cmax_.fill(std::numeric_limits<std::int32_t>::min());
        }
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t s = cursor_[pbucket_[i]]++;
            order_[s] = i;
            slot_[i] = s;
            if (Hashed)
                for (std::size_t d = 0; d < dim; ++d) {
                    cmin_[d] = std::min(cmin_[d], pcell_[i][d]);
                    cmax_[d] = std::max(cmax_[d], pcell_[i][d]);
                }
        }
        prepare_nearest(fill_slots(positions, 0, n));  // every position in the box? (the by-distance query needs it in a torus)
    }

    // Positions that are members of your own structs (strided.hpp): gathered into
    // the grid's own array first (no allocation once it has the flock's size).
    void build(strided_span<const V> positions) {
        gathered_.resize(positions.size());
        for (std::size_t i = 0; i < positions.size(); ++i) gathered_[i] = positions[i];
        build(span<const V>(gathered_.data(), gathered_.size()));
    }

    // The same index, built by `tasks` tasks of `executor` (see executor.hpp): each
    // counts a contiguous range of boids into cells, then places the boids of its own
    // contiguous range of cells, in index order, so the result is the sequential
    // build's, bit for bit. Placing reads every boid's cell once per task (O(N) each):
    // cheap beside the placing itself for the thread counts of a desktop.
    template <class Executor>
    void build(span<const V> positions, Executor&& executor, std::size_t tasks) {
        const std::size_t n = positions.size();
        if (Hashed || tasks <= 1 || n < 8192) {  // below this, starting tasks costs more than it saves
            build(positions);
            return;
        }
        layout(positions);
        const std::size_t nb = buckets_for(n);
        pbucket_.resize(n);
        order_.resize(n);
        slot_.resize(n);
        scell_.resize(n);
        if (spos_.size() != n * dim + padding) spos_.assign(n * dim + padding, scalar(0));  // every slot is written below
        task_counts_.resize(tasks * nb);  // each task zeroes its own counts
        task_max_abs_.assign(tasks, scalar(0));
        task_inside_.assign(tasks, 0);
        const bool torus = world_.kind == edges::toroidal;
        executor(tasks, [&](std::size_t t) {  // cells, and counts per task
            const std::size_t b = n * t / tasks, e = n * (t + 1) / tasks;
            scalar max_abs = scalar(0);
            std::size_t* counts = task_counts_.data() + t * nb;
            std::fill(counts, counts + nb, std::size_t(0));
            dense_cells(positions, b, e, counts, max_abs);
            task_max_abs_[t] = max_abs;
        });
        max_abs_ = scalar(0);
        if (torus)
            for (std::size_t d = 0; d < dim; ++d) max_abs_ = std::max(max_abs_, world_.size[d]);
        for (std::size_t t = 0; t < tasks; ++t) max_abs_ = std::max(max_abs_, task_max_abs_[t]);
        bucket_start_.resize(nb + 1);
        std::size_t next = 0;
        for (std::size_t b = 0; b < nb; ++b) {
            bucket_start_[b] = next;
            for (std::size_t t = 0; t < tasks; ++t) next += task_counts_[t * nb + b];
        }
        bucket_start_[nb] = next;
        cursor_.resize(nb);  // each task copies its own cells' starts
        // The slots are shared out by whole cells, task u taking cells owner_[u] up to
        // owner_[u + 1], so that each task writes only its own part of the sorted arrays.
        // (Tasks that each placed a range of boids wrote into the same cache lines: the
        // placing ran slower on two threads than on one.)
        owner_.resize(tasks + 1);
        for (std::size_t u = 0; u < tasks; ++u)
            owner_[u] = static_cast<std::size_t>(
                std::lower_bound(bucket_start_.begin(), bucket_start_.begin() + static_cast<std::ptrdiff_t>(nb), n * u / tasks) -
                bucket_start_.begin());
        owner_[tasks] = nb;
        handed_.resize(n + tasks);
        executor(tasks, [&](std::size_t u) {
            const std::size_t lo = owner_[u], span_of = owner_[u + 1] - lo;
            std::copy(bucket_start_.begin() + static_cast<std::ptrdiff_t>(lo),
                      bucket_start_.begin() + static_cast<std::ptrdiff_t>(lo + span_of), cursor_.begin() + static_cast<std::ptrdiff_t>(lo));
            // The boids this task places, in index order: every bucket is compared (no
            // branch, the list's end moves by the answer), which is cheaper than the
            // mispredicted branch of an unsorted flock. List u starts at its first slot
            // plus u, so its one write past its end stays inside it.
            std::size_t* list = handed_.data() + bucket_start_[lo] + u;
            std::size_t m = 0;
            for (std::size_t i = 0; i < n; ++i) {
                list[m] = i;
                m += static_cast<std::size_t>(pbucket_[i] - lo < span_of);
            }
            for (std::size_t j = 0; j < m; ++j) {
                const std::size_t i = list[j];
                const std::size_t s = cursor_[pbucket_[i]]++;
                order_[s] = i;
                slot_[i] = s;
            }
            task_inside_[u] = fill_slots(positions, bucket_start_[lo], bucket_start_[lo + span_of]) ? 1 : 0;
        });
        bool inside = true;
        for (std::size_t t = 0; t < tasks; ++t) inside = inside && task_inside_[t] == 1;
        prepare_nearest(inside);
    }

    [[nodiscard]] std::size_t slot_of(std::size_t i) const noexcept { return slot_[i]; }
    // Whether every position of the last build lies in the box [0, size) on every
    // axis (found while sorting; what a toroidal world expects of its boids).
    [[nodiscard]] bool all_in_box() const noexcept { return inside_; }

    // One past the last slot of the cell that holds `slot`.
    [[nodiscard]] std::size_t cell_end_of(std::size_t slot) const noexcept {
        return bucket_start_[bucket_of(scell_[slot]) + 1];
    }

    // How a query of a given radius walks the grid; the same for every boid, so a
    // step works it out once.
    struct run_plan {
        std::int32_t reach;
        bool scan_all;  // more cells than boids in the block: one run over everything
    };
    [[nodiscard]] run_plan plan_for(scalar radius) const noexcept {
        const std::int32_t reach = reach_for(radius);
        return {reach, too_many_cells(reach)};
    }

    // The runs of slots [s0, s1) holding every candidate within the plan's radius of
    // the boid in `slot` (itself included), each slot in exactly one run. Dense grids only.
    template <class Visit>
    void for_each_run(std::size_t slot, const run_plan& plan, Visit&& visit) const {
        static_assert(!Hashed, "for_each_run: hashed buckets are not runs of candidates");
        if (plan.scan_all) {
            visit(std::size_t{0}, order_.size());
            return;
        }
        for_each_cell_in_box(scell_[slot], plan.reach,
                             [&](std::size_t s0, std::size_t s1, const cell_t*) { visit(s0, s1); });
    }

    // Whether for_each_run_with_image applies: a torus at least 2 reach + 1 cells
    // across on every axis, so each cell of the block is reached once, through one image.
    [[nodiscard]] bool runs_have_one_image(const run_plan& plan) const noexcept {
        if (Hashed || world_.kind != edges::toroidal || plan.scan_all) return false;
        for (std::size_t d = 0; d < dim; ++d)
            if (n_[d] < 2 * plan.reach + 1) return false;
        return true;
    }
    // The runs of for_each_run, in the same order, each with the shift (per axis:
    // -size, 0 or +size) that takes its candidates to the image nearest the query:
    // visit(s0, s1, shift). For a candidate within the radius, (x - p) + shift is
    // the minimum-image offset, the very operation offset_component performs.
    // Only when runs_have_one_image(plan).
    template <class Visit>
    void for_each_run_with_image(std::size_t slot, const run_plan& plan, Visit&& visit) const {
        BOIDS_ASSERT(runs_have_one_image(plan), "grid: runs reach some cells through two images");
        const cell_t& c = scell_[slot];
        const std::int32_t r = plan.reach;
        std::array<std::int32_t, dim> lo{}, hi{};
        for (std::size_t d = 1; d < dim; ++d) {
            lo[d] = -r;
            hi[d] = r;
        }
        cell_t o{};
        iterate_box(lo, hi, o, 0, [&](const cell_t& off) {
            cell_t cell{};
            scalar shift[dim] = {};
            for (std::size_t d = 1; d < dim; ++d) {
                std::int32_t j = c[d] + off[d];
                if (j < 0) {  // the cell past the low edge: its boids sit a world size lower
                    j += n_[d];
                    shift[d] = -world_.size[d];
                } else if (j >= n_[d]) {
                    j -= n_[d];
                    shift[d] = world_.size[d];
                }
                cell[d] = j;
            }
            std::int32_t x0 = c[0] - r, x1 = c[0] + r;
            auto run = [&](std::int32_t a, std::int32_t b) {
                cell[0] = a;
                const std::size_t b0 = bucket_of(cell);
                visit(bucket_start_[b0], bucket_start_[b0 + static_cast<std::size_t>(b - a) + 1],
                      static_cast<const scalar*>(shift));
            };
            if (x0 < 0) {
                shift[0] = -world_.size[0];
                run(n_[0] + x0, n_[0] - 1);
                shift[0] = scalar(0);
                x0 = 0;
            } else if (x1 >= n_[0]) {
                shift[0] = world_.size[0];
                run(0, x1 - n_[0]);
                shift[0] = scalar(0);
                x1 = n_[0] - 1;
            }
            run(x0, x1);
        });
    }

    // Every other boid within `radius` of boid i and inside the cone, to `sink`.
    template <class Sink>
    void for_each_within(std::size_t i, scalar radius, const vision_cone<scalar, dim>& cone,
                         Sink&& sink) const {
        BOIDS_ASSERT(i < order_.size(), "grid: query index out of range");
        const std::size_t si = slot_[i];
        const scalar r2 = radius * radius;
        std::array<scalar, dim> p{};
        for (std::size_t d = 0; d < dim; ++d) p[d] = spos_[d * order_.size() + si];
        const std::int32_t reach = reach_for(radius);
        auto visit = [&](std::size_t s0, std::size_t s1, const cell_t* only) {
            scan(i, p, s0, s1, only, [&](const neighbor_type& nb) {
                if (nb.distance_squared <= r2 && cone.sees(nb.offset, nb.distance_squared)) sink(nb);
            });
        };
        if (too_many_cells(reach)) visit(0, order_.size(), nullptr);  // a scan is cheaper
        else for_each_cell_in_box(scell_[si], reach, visit);
    }
    template <class Sink>
    void for_each_within(std::size_t i, scalar radius, Sink&& sink) const {
        for_each_within(i, radius, vision_cone<scalar, dim>{}, sink);
    }

    // The k nearest other boids within max_radius (k = out.capacity()), ties to the
    // lower index. Dense grids visit cells nearest first and stop once no unvisited
    // cell can hold anything nearer than the k-th found; otherwise, rings of cells.
    // `radius_hint` (optional, > 0): a guess of the k-th distance, such as last step's;
    // a good one saves the density estimate. It never changes the result.
    void nearest(std::size_t i, k_nearest<scalar, dim>& out,
                 scalar max_radius = std::numeric_limits<scalar>::infinity(), scalar radius_hint = scalar(0)) const {
        BOIDS_ASSERT(i < order_.size(), "grid: query index out of range");
        nearest_in_slot(slot_[i], out, max_radius, radius_hint);
    }
    // The same for the boid in slot s (order()[s]): loops that walk the grid in cell
    // order, where neighbouring queries share cells in cache, call this.
    void nearest_in_slot(std::size_t s, k_nearest<scalar, dim>& out,
                         scalar max_radius = std::numeric_limits<scalar>::infinity(),
                         scalar radius_hint = scalar(0)) const {
        BOIDS_ASSERT(s < order_.size(), "grid: query slot out of range");
        out.clear();
        if (out.capacity() == 0) return;
        if constexpr (!Hashed) {
            if (nearest_by_distance(s, out, max_radius, radius_hint)) return;
        }
        nearest_by_rings(order_[s], out, max_radius);
    }

    // The k nearest (k = out.capacity(), within max_radius) of the boid in every slot
    // of [b, e), exactly as nearest_in_slot finds them: out is filled, then
    // visit(s, out) is called, slot by slot. The boids of one cell share one block
    // of candidates (the block of cells around theirs, copied once), which each
    // scans in a single loop: the fast way to ask for every boid's neighbours.
    template <class Visit>
    void nearest_in_slots(std::size_t b, std::size_t e, k_nearest<scalar, dim>& out, scalar max_radius,
                          Visit&& visit) const {
        BOIDS_ASSERT(b <= e && e <= order_.size(), "grid: slot range out of range");
        const std::size_t k = out.capacity();
        const run_plan plan{1, false};
        const bool torus = world_.kind == edges::toroidal;
        bool blocks = !Hashed && near_ready_ && k > 0 && k <= max_nearest_k && !too_many_cells(1);
        if constexpr (!Hashed) blocks = blocks && (!torus || runs_have_one_image(plan));
        auto one = [&](std::size_t s) {
            nearest_in_slot(s, out, max_radius);
            visit(s, static_cast<const k_nearest<scalar, dim>&>(out));
        };
        if (!blocks) {
            for (std::size_t s = b; s < e; ++s) one(s);
            return;
        }
        if constexpr (!Hashed) {
            constexpr std::size_t cap = block_size;
            constexpr std::size_t room = cap + 2 * distance_padding<scalar>;
            scalar bx[dim][room];      // the block: positions, per axis
            scalar bshift[dim][room];  // and each candidate's torus image
            const scalar* block_x[dim];
            const scalar* block_shift[dim];
            for (std::size_t d = 0; d < dim; ++d) {
                block_x[d] = bx[d];
                block_shift[d] = bshift[d];
            }
            std::uint32_t bslot[room];
            scalar d2[room];
            std::uint32_t slot[room];
            const std::size_t n = order_.size();
            const scalar r2 = max_radius * max_radius;
            // The widest ball any block holds whole: the second try of a query whose
            // ball held fewer than k, before the query on its own.
            scalar wmin = w_[0];
            for (std::size_t d = 1; d < dim; ++d) wmin = std::min(wmin, w_[d]);
            const scalar t_wide = wmin - scalar(2) * slack(wmin);
            bool wide_fits = true;
            for (std::size_t d = 0; d < dim; ++d)
                wide_fits = wide_fits && std::ceil((t_wide + slack(t_wide)) / w_[d]) <= scalar(1);
            const scalar t2_wide = std::min(t_wide * t_wide, r2);
            for (std::size_t s = b; s < e;) {
                const std::size_t cell_end = std::min(cell_end_of(s), e);
                const std::size_t cell_begin = bucket_start_[bucket_of(scell_[s])];
                std::size_t size = 0, self_base = 0;
                bool fits = true;
                auto add = [&](std::size_t r0, std::size_t r1, const scalar* shift) {
                    if (!fits || r1 - r0 > cap - size) {
                        fits = false;
                        return;
                    }
                    if (cell_begin >= r0 && cell_begin < r1) self_base = size + (cell_begin - r0);
                    // Whole packs, as fill_block copies (flock_kernel.hpp): runs are short.
                    // Lanes past the run are read (the grid's arrays are padded) and
                    // written, then overwritten by the next run or the padding below.
                    using P = pack<scalar>;
                    const std::size_t m = r1 - r0;
                    for (std::size_t d = 0; d < dim; ++d) {
                        const scalar* from = spos_.data() + d * n + r0;
                        for (std::size_t j = 0; j < m; j += P::lanes) P::store(bx[d] + size + j, P::load(from + j));
                        if (torus) {
                            const typename P::f image = P::splat(shift != nullptr ? shift[d] : scalar(0));
                            for (std::size_t j = 0; j < m; j += P::lanes) P::store(bshift[d] + size + j, image);
                        }
                    }
                    for (std::size_t j = 0; j < m; ++j) bslot[size + j] = static_cast<std::uint32_t>(r0 + j);
                    size += m;
                };
                if (torus) for_each_run_with_image(s, plan, add);
                else for_each_run(s, plan, [&](std::size_t r0, std::size_t r1) { add(r0, r1, nullptr); });
                if (!fits) {
                    for (; s < cell_end; ++s) one(s);
                    continue;
                }
                for (std::size_t j = size; j < size + distance_padding<scalar>; ++j) {  // finite lanes past the end
                    for (std::size_t d = 0; d < dim; ++d) bx[d][j] = bshift[d][j] = scalar(0);
                }
                // The ball is the same for every boid of the cell: its radius, and whether
                // the block reaches past it on every axis.
                const scalar guess = guess_radius_squared(scell_[s], size, k);
                const scalar t2 = std::min(guess > scalar(0) ? guess : w_[0] * w_[0], r2);
                const scalar t = std::sqrt(t2);
                bool inside_block = true;
                for (std::size_t d = 0; d < dim; ++d)
                    inside_block = inside_block && std::ceil((t + slack(t)) / w_[d]) <= scalar(1);
                const bool wide_inside = wide_fits && t_wide > t;
                for (; s < cell_end; ++s) {
                    std::array<scalar, dim> p{};
                    bool finite = true;
                    for (std::size_t d = 0; d < dim; ++d) {
                        p[d] = spos_[d * n + s];
                        finite = finite && std::isfinite(p[d]);
                    }
                    if (!finite || !inside_block) {  // not finite, or a ball wider than the block
                        one(s);
                        continue;
                    }
                    // (x - p) + shift: within the block's reach, the minimum image exactly
                    // as append_distances computes it
                    if (torus) block_distances<true>(avx_, block_x, block_shift, p.data(), size, d2);
                    else block_distances<false>(avx_, block_x, block_shift, p.data(), size, d2);
                    out.add_candidates(size);
                    d2[self_base + (s - cell_begin)] = std::numeric_limits<scalar>::infinity();
                    std::size_t within = count_within(avx_, d2, size, t2);
                    scalar ball2 = t2;
                    if (within < k && wide_inside && t2 < t2_wide) {
                        ball2 = t2_wide;
                        within = count_within(avx_, d2, size, ball2);
                    }
                    out.clear();
                    if ((within < k && ball2 < r2) || !select_nearest(p, d2, bslot, slot, size, ball2, within, out)) {
                        one(s);
                        continue;
                    }
                    visit(s, static_cast<const k_nearest<scalar, dim>&>(out));
                }
            }
        }
    }

private:
    // --- k nearest: a radius guessed from the local density, then selection ---
    //
    // Branches the CPU cannot predict cost more here than arithmetic, so the query is
    // shaped as straight-line loops: a radius that should hold about 1.6 k boids (from
    // the density of the 3^D block of cells around the query), squared distances to
    // every slot in the cells that ball touches (one run of slots per row of cells),
    // a larger ball in the rare case it holds fewer than k, and the k nearest picked
    // by counting ranks, not by a heap.
    static constexpr std::size_t max_nearest_k = 64;
    static constexpr std::size_t scratch_size = 1024;
    static constexpr std::int32_t max_nearest_reach = 16;
    static constexpr std::size_t block_size = 512;  // candidates in nearest_in_slots' block

    // Whether the by-distance query can run on this build: dense, indices that fit
    // 32 bits, and in a toroidal world every point inside the box (the branch-free
    // minimum image assumes it).
    // `inside`: every position lies in [0, size) on every axis (found while sorting).
    void prepare_nearest(bool inside) {
        inside_ = inside;
        near_ready_ = !Hashed && order_.size() < (std::size_t(1) << 31) && (world_.kind != edges::toroidal || inside);
    }

    // The gap along axis d between coordinate x and (unwrapped) cell j, less rounding
    // slack. Outside a torus the edge cells also hold the points beyond the box (they
    // are clamped into them), so they reach out to infinity.
    [[nodiscard]] scalar cell_gap(scalar x, std::int32_t j, std::size_t d) const noexcept {
        scalar lo = origin_[d] + static_cast<scalar>(j) * w_[d];
        scalar hi = lo + w_[d];
        if (world_.kind != edges::toroidal) {
            if (j <= 0) lo = -std::numeric_limits<scalar>::infinity();
            if (j >= n_[d] - 1) hi = std::numeric_limits<scalar>::infinity();
        }
        const scalar g = std::max(std::max(lo - x, x - hi), scalar(0));
        return std::max(g - slack(g), scalar(0));
    }

    // One query's point and the world's sizes, as packs, made once per query.
    struct query_packs {
        typename pack<scalar>::f p[dim], size[dim], half[dim], neg_half[dim];
        bool torus;
    };
    [[nodiscard]] query_packs packs_for(const std::array<scalar, dim>& p) const noexcept {
        using P = pack<scalar>;
        query_packs q;
        q.torus = world_.kind == edges::toroidal;
        for (std::size_t d = 0; d < dim; ++d) {
            q.p[d] = P::splat(p[d]);
            q.size[d] = P::splat(world_.size[d]);
            q.half[d] = P::splat(world_.size[d] * scalar(0.5));
            q.neg_half[d] = P::splat(-(world_.size[d] * scalar(0.5)));
        }
        return q;
    }

    // Appends the squared distances to every slot in cells within sqrt(t2) of p
    // (cells c + o, |o_d| <= reach_d), row by row. False when the scratch is full.
    bool scan_ball(const std::array<scalar, dim>& p, const query_packs& qp, const cell_t& c, std::size_t si, scalar t2,
                   const std::array<std::int32_t, dim>& reach, scalar* d2, std::uint32_t* slot,
                   std::size_t& count) const noexcept {
        const bool torus = world_.kind == edges::toroidal;
        // Per axis beyond x, each offset's cell (-1: outside a box) and its squared gap.
        constexpr std::size_t side = 2 * max_nearest_reach + 1;
        std::int32_t cell_at[dim][side];
        scalar gap2_at[dim][side];
        for (std::size_t d = 1; d < dim; ++d)
            for (std::int32_t o = -reach[d]; o <= reach[d]; ++o) {
                const std::int32_t j = c[d] + o;
                const auto at = static_cast<std::size_t>(o + max_nearest_reach);
                const scalar g = cell_gap(p[d], j, d);
                gap2_at[d][at] = g * g;
                if (torus) cell_at[d][at] = j < 0 ? j + n_[d] : (j >= n_[d] ? j - n_[d] : j);
                else cell_at[d][at] = (j < 0 || j >= n_[d]) ? -1 : j;
            }
        bool ok = true;
        auto run = [&](std::int32_t x0, std::int32_t x1, cell_t cell) {
            if (!ok || x1 < x0) return;
            cell[0] = x0;
            const std::size_t b0 = bucket_of(cell);
            const std::size_t s0 = bucket_start_[b0], s1 = bucket_start_[b0 + static_cast<std::size_t>(x1 - x0) + 1];
            if (count + (s1 - s0) > scratch_size) {
                ok = false;
                return;
            }
            const std::size_t start = count;
            append_distances(qp, s0, s1, d2, slot, count);
            if (si >= s0 && si < s1) d2[start + (si - s0)] = std::numeric_limits<scalar>::infinity();
        };
        // One row of cells along x: those within the budget left after the row's gap,
        // found by arithmetic (a little wide for rounding: an extra cell costs time only).
        auto row = [&](cell_t cell, scalar g2) {
            if (g2 > t2) return;
            const scalar budget = std::sqrt(t2 - g2);
            const scalar wide = budget + scalar(2) * slack(budget);
            const scalar lo = std::ceil((p[0] - wide - origin_[0]) / w_[0]) - scalar(1);
            const scalar hi = std::floor((p[0] + wide - origin_[0]) / w_[0]);
            std::int32_t x0 = c[0] - reach[0], x1 = c[0] + reach[0];
            // Clamped toward c before the cast: far outside a box, lo and hi can leave int's range.
            if (lo > static_cast<scalar>(x0)) x0 = static_cast<std::int32_t>(std::min(lo, static_cast<scalar>(c[0])));
            if (hi < static_cast<scalar>(x1)) x1 = static_cast<std::int32_t>(std::max(hi, static_cast<scalar>(c[0])));
            if (!torus) {
                run(std::max(x0, 0), std::min(x1, n_[0] - 1), cell);
            } else if (x0 < 0) {
                run(n_[0] + x0, n_[0] - 1, cell);
                run(0, x1, cell);
            } else if (x1 >= n_[0]) {
                run(x0, n_[0] - 1, cell);
                run(0, x1 - n_[0], cell);
            } else {
                run(x0, x1, cell);
            }
        };
        for (std::int32_t oy = -reach[1]; oy <= reach[1]; ++oy) {
            const auto ay = static_cast<std::size_t>(oy + max_nearest_reach);
            if (cell_at[1][ay] < 0) continue;
            cell_t cell{};
            cell[1] = cell_at[1][ay];
            if constexpr (dim == 2) {
                row(cell, gap2_at[1][ay]);
            } else {
                for (std::int32_t oz = -reach[2]; oz <= reach[2]; ++oz) {
                    const std::size_t az = static_cast<std::size_t>(oz + max_nearest_reach);
                    if (cell_at[2][az] < 0) continue;
                    cell[2] = cell_at[2][az];
                    row(cell, gap2_at[1][ay] + gap2_at[2][az]);
                }
            }
        }
        return ok;
    }

    // Squared distances from the query to the slots [s0, s1), appended to the scratch
    // a pack of lanes at a time (lanes past s1 are written, then overwritten or ignored).
    void append_distances(const query_packs& q, std::size_t s0, std::size_t s1, scalar* d2, std::uint32_t* slot,
                          std::size_t& count) const noexcept {
        using P = pack<scalar>;
        using F = typename P::f;
        const std::size_t n = order_.size();
        for (std::size_t t = s0; t < s1; t += P::lanes) {
            F sum = P::splat(scalar(0));
            for (std::size_t d = 0; d < dim; ++d) {
                F x = P::load(spos_.data() + d * n + t) - q.p[d];
                if (q.torus) {  // the minimum image, as offset_component computes it for points in the box
                    x = x - q.size[d] * P::ones_where(x > q.half[d]);
                    x = x + q.size[d] * P::ones_where(x < q.neg_half[d]);
                }
                sum = sum + x * x;
            }
            const std::size_t at = count + (t - s0);
            std::memcpy(d2 + at, &sum, sizeof sum);
            for (std::size_t k = 0; k < P::lanes; ++k) slot[at + k] = static_cast<std::uint32_t>(t + k);
        }
        count += s1 - s0;
    }

    // For each of the first `count` squared distances, how many are below it:
    // visit(a, rank). A pack of them at a time against every other, broadcast: no
    // horizontal sum per element. The array is readable (+inf) a pack past count.
    template <class Visit>
    static void rank_below(const scalar* d2, std::size_t count, Visit&& visit) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        using P = pack<scalar>;
        using I = typename pack_types<scalar>::i;
        for (std::size_t a0 = 0; a0 < count; a0 += P::lanes) {
            const typename P::f va = P::load(d2 + a0);
            I below0{}, below1{};
            std::size_t b = 0;
            for (; b + 1 < count; b += 2) {
                below0 -= (P::splat(d2[b]) < va);  // a true lane is -1
                below1 -= (P::splat(d2[b + 1]) < va);
            }
            if (b < count) below0 -= (P::splat(d2[b]) < va);
            const I below = below0 + below1;
            for (std::size_t l = 0; l < P::lanes && a0 + l < count; ++l) visit(a0 + l, static_cast<std::size_t>(below[l]));
        }
#else
        for (std::size_t a = 0; a < count; ++a) visit(a, count_below(d2, count, d2[a]));
#endif
    }

    // How many of the first `count` squared distances are below x; the array is
    // readable (and +inf) up to two packs past count. Integer mask sums in two
    // chains: the adds do not wait on each other.
    static std::size_t count_below(const scalar* d2, std::size_t count, scalar x) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        using P = pack<scalar>;
        using I = typename pack_types<scalar>::i;
        const typename P::f limit = P::splat(x);
        I below0{}, below1{};
        for (std::size_t t = 0; t < count; t += 2 * P::lanes) {
            below0 -= (P::load(d2 + t) < limit);  // a true lane is -1
            below1 -= (P::load(d2 + t + P::lanes) < limit);
        }
        const I total = below0 + below1;
        std::size_t sum = 0;
        for (std::size_t k = 0; k < P::lanes; ++k) sum += static_cast<std::size_t>(total[k]);
        return sum;
#else
        std::size_t sum = 0;
        for (std::size_t t = 0; t < count; ++t) sum += d2[t] < x ? 1 : 0;
        return sum;
#endif
    }

    // A radius that should hold about 1.6 k boids, from the density of the block of
    // cells around c (block_count boids in it, the query included).
    [[nodiscard]] scalar guess_radius_squared(const cell_t& c, std::size_t block_count, std::size_t k) const noexcept {
        std::size_t block_cells = 1;
        std::array<std::int32_t, dim> lo{}, hi{};
        clipped_offsets(c, 1, lo, hi);
        for (std::size_t d = 0; d < dim; ++d) block_cells *= static_cast<std::size_t>(hi[d] - lo[d] + 1);
        double cell_volume = 1;
        for (std::size_t d = 0; d < dim; ++d) cell_volume *= static_cast<double>(w_[d]);
        const double density = static_cast<double>(std::max<std::size_t>(block_count, 2) - 1) /
                               (static_cast<double>(block_cells) * cell_volume);
        const double ball = dim == 2 ? 3.14159265358979323846 : 4.18879020478639098;  // pi, 4 pi / 3
        const double volume = 1.6 * static_cast<double>(k) / (density * ball);  // of the ball to scan
        const double guess2 = dim == 2 ? volume : std::cbrt(volume) * std::cbrt(volume);
        return static_cast<scalar>(std::min(guess2, static_cast<double>(std::numeric_limits<scalar>::max())));
    }

    // Returns false, having reported nothing, when this query needs the ring walk.
    bool nearest_by_distance(std::size_t si, k_nearest<scalar, dim>& out, scalar max_radius, scalar hint) const {
        const std::size_t k = out.capacity();
        if (!near_ready_ || k > max_nearest_k || too_many_cells(1)) return false;
        const std::size_t n = order_.size();
        const cell_t c = scell_[si];
        std::array<scalar, dim> p{};
        for (std::size_t d = 0; d < dim; ++d) {
            p[d] = spos_[d * n + si];
            if (!std::isfinite(p[d])) return false;
        }
        const scalar r2 = max_radius * max_radius;
        scalar t2 = hint * hint;
        if (!(hint > scalar(0) && t2 > scalar(0) && t2 <= std::numeric_limits<scalar>::max())) {
            std::size_t block_count = 0;
            for_each_cell_in_box(c, 1, [&](std::size_t s0, std::size_t s1, const cell_t*) { block_count += s1 - s0; });
            t2 = guess_radius_squared(c, block_count, k);
        }
        if (!(t2 > scalar(0))) t2 = w_[0] * w_[0];
        t2 = std::min(t2, r2);
        scalar d2[scratch_size + 2 * pack<scalar>::lanes];
        std::uint32_t slot[scratch_size + 2 * pack<scalar>::lanes];
        std::size_t count = 0, within = 0;
        const query_packs qp = packs_for(p);
        for (;;) {
            std::array<std::int32_t, dim> reach{};
            const scalar t = std::sqrt(t2);
            for (std::size_t d = 0; d < dim; ++d) {
                const scalar cells = std::ceil((t + slack(t)) / w_[d]);
                if (!(cells <= scalar(max_nearest_reach))) return false;  // sparse here: the ring walk
                reach[d] = std::max<std::int32_t>(1, static_cast<std::int32_t>(cells));
                if (world_.kind == edges::toroidal && n_[d] < 2 * reach[d] + 1) return false;
            }
            count = 0;
            const bool scanned = scan_ball(p, qp, c, si, t2, reach, d2, slot, count);
            out.add_candidates(count);
            if (!scanned) return false;
            within = count_within(avx_, d2, count, t2);
            if (within >= k || !(t2 < r2)) break;
            t2 = std::min(t2 * scalar(2.5), r2);  // too few: a ball about 1.6 times wider
        }
        return select_nearest(p, d2, slot, slot, count, t2, within, out);
    }

    // The k nearest (k = out.capacity()) among `count` candidates: squared distances
    // in d2 (room for two packs more), slots in from_slot; `within` of them lie within
    // t2, and there are at least k or t2 is the caller's limit. Ranked by (distance,
    // index). False (nothing reported) when too many share one distance for this.
    // d2 and slot are compacted in place (slot may be from_slot).
    bool select_nearest(const std::array<scalar, dim>& p, scalar* d2, const std::uint32_t* from_slot,
                        std::uint32_t* slot, std::size_t count, scalar t2, std::size_t within,
                        k_nearest<scalar, dim>& out) const {
        const std::size_t k = out.capacity();
        const std::size_t n = order_.size();
        // Too many to rank cheaply: shrink the radius while it keeps k.
        for (int tries = 0; tries < 4 && within > 2 * k + 8; ++tries) {
            const scalar smaller = t2 * static_cast<scalar>(std::pow(1.2 * static_cast<double>(k) / static_cast<double>(within), 2.0 / static_cast<double>(dim)));
            const std::size_t w2 = count_within(avx_, d2, count, smaller);
            if (w2 < k) break;
            t2 = smaller;
            within = w2;
        }
        // Many at one distance (boids stacked on one spot): the ring walk copes better.
        if (within > 4 * k + 64) return false;
        // Keep those within t2, then rank them by (distance, index) by counting.
        const std::size_t kept = keep_within(avx_, d2, from_slot, count, t2, d2, slot);
        const std::size_t take = std::min(k, kept);
        std::array<std::uint32_t, max_nearest_k + 1> pick;  // one more: the ranks past k
        for (std::size_t q = 0; q < take; ++q) pick[q] = std::numeric_limits<std::uint32_t>::max();
        std::size_t placed = 0;
        for (std::size_t t = kept; t < kept + 2 * pack<scalar>::lanes; ++t) d2[t] = std::numeric_limits<scalar>::infinity();
        rank_below(d2, kept, [&](std::size_t a, std::size_t below) {  // without a branch to mispredict
            // min(below, take) by masks (compilers turn a min into a branch here): the
            // ranks past k go to pick[take], which is never read
            const std::size_t in = below < take ? 1 : 0;
            pick[take ^ ((below ^ take) & (std::size_t(0) - in))] = static_cast<std::uint32_t>(a);
            placed += in;
        });
        bool ranks_clean = placed == take;
        for (std::size_t q = 0; q < take; ++q) ranks_clean = ranks_clean && pick[q] != std::numeric_limits<std::uint32_t>::max();
        if (!ranks_clean) {  // equal distances: rank again, the lower boid index first
            for (std::size_t a = 0; a < kept; ++a) {
                std::size_t below = 0;
                for (std::size_t b = 0; b < kept; ++b)
                    below += (d2[b] < d2[a] || (d2[b] == d2[a] && order_[slot[b]] < order_[slot[a]])) ? std::size_t(1) : std::size_t(0);
                if (below < take) pick[below] = static_cast<std::uint32_t>(a);
            }
        }
        const bool torus = world_.kind == edges::toroidal;
        for (std::size_t q = 0; q < take; ++q) {
            const std::size_t s = slot[pick[q]];
            neighbor_type& nb = out.append_ranked();  // ranks ascend with q
            nb.index = order_[s];
            nb.distance_squared = d2[pick[q]];
            for (std::size_t d = 0; d < dim; ++d) {
                // offset_component's arithmetic, for points inside the box (near_ready_)
                scalar x = spos_[d * n + s] - p[d];
                if (torus) {
                    const scalar w = world_.size[d], half = w * scalar(0.5);
                    if (x > half) x -= w;
                    else if (x < -half) x += w;
                }
                nb.offset[d] = x;
            }
        }
        return true;
    }

    // Rings of cells widen until no unvisited cell can hold anything nearer than the
    // k-th found: hashed grids, and queries the sorted offsets cannot finish.
    void nearest_by_rings(std::size_t i, k_nearest<scalar, dim>& out, scalar max_radius) const {
        out.clear();
        const std::size_t si = slot_[i];
        const cell_t c = scell_[si];
        std::array<scalar, dim> p{};
        for (std::size_t d = 0; d < dim; ++d) p[d] = spos_[d * order_.size() + si];
        const scalar r2 = max_radius * max_radius;
        scalar wmin = w_[0];
        for (std::size_t d = 1; d < dim; ++d) wmin = std::min(wmin, w_[d]);
        const std::int32_t last = last_ring();
        auto offer = [&](std::size_t s0, std::size_t s1, const cell_t* only) {
            out.add_candidates(s1 - s0);
            scan(i, p, s0, s1, only, [&](const neighbor_type& nb) {
                if (nb.distance_squared <= r2) out(nb);
            });
        };
        // Rings 0 and 1 together first, as the metric query walks them (runs of
        // cells): in a flock of even density the k nearest are nearly always there.
        std::int32_t first_ring = 0;
        if (!too_many_cells(1)) {
            for_each_cell_in_box(c, 1, offer);
            const scalar bound = wmin - slack(wmin);
            if (out.full() && bound > scalar(0) && out.worst_distance_squared() < bound * bound) return;
            if (bound > max_radius) return;
            first_ring = 2;
        }
        for (std::int32_t ring = first_ring; ring <= last; ++ring) {
            if (too_many_cells(ring)) {  // sparse and spread out: scan everything once
                out.clear();
                out.add_candidates(order_.size());
                scan(i, p, 0, order_.size(), nullptr, [&](const neighbor_type& nb) {
                    if (nb.distance_squared <= r2) out(nb);
                });
                return;
            }
            for_each_cell_on_ring(c, ring, offer);
            // Unvisited boids lie at least ring * wmin away.
            const scalar bound = scalar(ring) * wmin - slack(scalar(ring) * wmin);
            if (out.full() && bound > scalar(0) && out.worst_distance_squared() < bound * bound) return;
            if (bound > max_radius) return;
        }
    }

    // --- layout: cells per axis and their widths ---
    void layout(span<const V> positions) {
        const std::size_t n = positions.size();
        if (hashed_open()) {
            for (std::size_t d = 0; d < dim; ++d) {
                n_[d] = 0;
                w_[d] = padded_cell();
                origin_[d] = scalar(0);
            }
            return;
        }
        std::array<scalar, dim> extent{};
        if (world_.has_box()) {
            for (std::size_t d = 0; d < dim; ++d) {
                origin_[d] = scalar(0);
                extent[d] = world_.size[d];
            }
        } else {  // open world, dense grid: the bounding box of the finite positions
            std::array<scalar, dim> lo, hi;
            lo.fill(std::numeric_limits<scalar>::max());
            hi.fill(std::numeric_limits<scalar>::lowest());
            for (std::size_t i = 0; i < n; ++i) {
                if (!boids::is_finite(positions[i])) continue;
                for (std::size_t d = 0; d < dim; ++d) {
                    lo[d] = std::min(lo[d], boids::get(positions[i], d));
                    hi[d] = std::max(hi[d], boids::get(positions[i], d));
                }
            }
            for (std::size_t d = 0; d < dim; ++d) {
                if (!(hi[d] >= lo[d])) lo[d] = hi[d] = scalar(0);
                origin_[d] = lo[d];
                extent[d] = hi[d] - lo[d];
            }
        }
        // Whole cells no smaller than cell_size; the total capped near 8 per boid.
        const double cap = std::max(4096.0, 8.0 * static_cast<double>(n));
        std::array<double, dim> cells{};
        double total = 1;
        for (std::size_t d = 0; d < dim; ++d) {
            const double c = std::floor(static_cast<double>(extent[d]) / static_cast<double>(padded_cell()));
            cells[d] = std::isfinite(c) ? std::max(1.0, std::min(c, 1e9)) : 1.0;
            total *= cells[d];
        }
        if (total > cap) {
            const double f = std::pow(total / cap, 1.0 / static_cast<double>(dim));
            for (std::size_t d = 0; d < dim; ++d) cells[d] = std::max(1.0, std::floor(cells[d] / f));
        }
        for (std::size_t d = 0; d < dim; ++d) {
            n_[d] = static_cast<std::int32_t>(cells[d]);
            w_[d] = extent[d] > scalar(0) ? extent[d] / static_cast<scalar>(n_[d]) : padded_cell();
            if (!(w_[d] >= padded_cell())) w_[d] = padded_cell();  // rounding of extent / n
        }
    }

    std::size_t buckets_for(std::size_t n) {
        if (Hashed) {
            std::size_t nb = 16;
            while (nb < 2 * n) nb *= 2;
            mask_ = nb - 1;
            return nb;
        }
        std::size_t nb = 1;
        for (std::size_t d = 0; d < dim; ++d) nb *= static_cast<std::size_t>(n_[d]);
        return nb;
    }

    // Placing, its second half: with order_ known, slots s0 up to s1 get their boids'
    // cells and positions, read from the boids (in random order: reads, which overlap)
    // and written in slot order. Written from each boid in index order, they made
    // three or four more stores per boid to random places, which beyond the caches
    // wait for their lines one after another (a million boids: 44-72 ms a build).
    // A dense grid's cells are found again from the positions just read (as
    // dense_cells found them, chunk by chunk), not read from a per-boid array: one
    // random line per boid instead of two. Returns whether every position lies in the box.
    bool fill_slots(span<const V> positions, std::size_t s0, std::size_t s1) {
        constexpr std::size_t ahead = 16;  // slots: about a memory latency of this loop
        const std::size_t n = order_.size();
        bool inside = true;
        scalar x[dim][cell_chunk];
        std::int32_t cell[dim][cell_chunk];
        for (std::size_t c0 = s0; c0 < s1; c0 += cell_chunk) {
            const std::size_t m = std::min(cell_chunk, s1 - c0);
            int in_box = 1;
            for (std::size_t k = 0; k < m; ++k) {
                const std::size_t s = c0 + k;
                if (s + ahead < s1) {
                    const std::size_t j = order_[s + ahead];
                    prefetch<prefetch_for::reading>(positions.data() + j);
                    if (Hashed) prefetch<prefetch_for::reading>(pcell_.data() + j);
                }
                const std::size_t i = order_[s];
                if (Hashed) scell_[s] = pcell_[i];
                for (std::size_t d = 0; d < dim; ++d) {
                    const scalar xd = boids::get(positions[i], d);
                    spos_[d * n + s] = xd;
                    x[d][k] = xd;
                    in_box &= static_cast<int>(xd >= scalar(0)) & static_cast<int>(xd < world_.size[d]);
                }
            }
            inside = inside && in_box != 0;
            if (!Hashed) {
                for (std::size_t k = m; k < cell_chunk; ++k)
                    for (std::size_t d = 0; d < dim; ++d) x[d][k] = scalar(0);
                cells_of_chunk(x, m, in_box != 0 || world_.kind != edges::toroidal, cell);
                for (std::size_t k = 0; k < m; ++k)
                    for (std::size_t d = 0; d < dim; ++d) scell_[c0 + k][d] = cell[d][k];
            }
        }
        return inside;
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
                const scalar origin = origin_[d], w = w_[d], hi = static_cast<scalar>(n_[d] - 1);
                for (std::size_t k = 0; k < cell_chunk; ++k) {
                    const scalar u = (x[d][k] - origin) / w;
                    scalar t = u >= scalar(0) ? u : scalar(0);  // below 0 and NaN: cell 0
                    t = t > hi ? hi : t;
                    cell[d][k] = static_cast<std::int32_t>(t);
                }
            }
        } else {
            for (std::size_t d = 0; d < dim; ++d)
                for (std::size_t k = 0; k < m; ++k) cell[d][k] = cell_coord(x[d][k], d);
        }
    }

    // A dense grid's first pass over boids [b, e): each boid's bucket, counted in
    // counts[bucket]; max_abs takes the largest finite |coordinate| of an open world.
    // Chunk by chunk (see cells_of_chunk).
    void dense_cells(span<const V> positions, std::size_t b, std::size_t e, std::size_t* counts, scalar& max_abs) {
        constexpr std::size_t chunk = cell_chunk;
        const bool torus = world_.kind == edges::toroidal;
        scalar x[dim][chunk];
        std::int32_t cell[dim][chunk];
        for (std::size_t i0 = b; i0 < e; i0 += chunk) {
            const std::size_t m = std::min(chunk, e - i0);
            for (std::size_t k = 0; k < chunk; ++k)
                for (std::size_t d = 0; d < dim; ++d) x[d][k] = k < m ? boids::get(positions[i0 + k], d) : scalar(0);
            int in_box = 1;
            for (std::size_t d = 0; d < dim; ++d) {
                if (torus) {
                    const scalar size = world_.size[d];
                    for (std::size_t k = 0; k < chunk; ++k) in_box &= static_cast<int>(x[d][k] >= scalar(0)) & static_cast<int>(x[d][k] < size);
                } else {
                    scalar big = max_abs;
                    for (std::size_t k = 0; k < chunk; ++k) {
                        const scalar a = std::fabs(x[d][k]);
                        big = a <= std::numeric_limits<scalar>::max() && a > big ? a : big;  // skips inf and NaN
                    }
                    max_abs = big;
                }
            }
            cells_of_chunk(x, m, in_box != 0, cell);
            for (std::size_t k = 0; k < m; ++k) {
                cell_t c;
                for (std::size_t d = 0; d < dim; ++d) c[d] = cell[d][k];
                const std::size_t bucket = bucket_of(c);
                pbucket_[i0 + k] = bucket;
                ++counts[bucket];
            }
        }
    }

    [[nodiscard]] std::int32_t cell_coord(scalar x, std::size_t d) const noexcept {
        const bool torus = world_.kind == edges::toroidal;
        if (torus && std::isfinite(x)) x = world_for<V>::wrap_scalar(x, world_.size[d]);
        const scalar u = (x - origin_[d]) / w_[d];
        // A torus's cells tile its box (hashed or not); an open hashed grid's cells are
        // unbounded, within limits whose differences fit int32.
        const bool open_hashed = Hashed && !torus;
        const scalar hi = open_hashed ? scalar(1 << 29) : static_cast<scalar>(n_[d] - 1);
        const scalar lo = open_hashed ? -scalar(1 << 29) : scalar(0);
        // A dense grid's cells start at 0, where truncation is the floor: u < 0 goes
        // to cell 0 by either. (std::floor is a call or a dozen instructions without SSE4.1.)
        scalar t = Hashed ? std::floor(u) : u;
        if (!(t >= lo)) t = (t < lo) ? lo : scalar(0);  // NaN goes to cell 0
        if (t > hi) t = hi;
        return static_cast<std::int32_t>(t);
    }

    [[nodiscard]] std::size_t bucket_of(const cell_t& c) const noexcept {
        if (Hashed) {
            std::uint64_t h = 0;
            for (std::size_t d = 0; d < dim; ++d)
                h = hash_combine(h, static_cast<std::uint64_t>(static_cast<std::uint32_t>(c[d])));
            return static_cast<std::size_t>(h) & mask_;
        }
        std::size_t b = 0;
        for (std::size_t d = dim; d-- > 0;) b = b * static_cast<std::size_t>(n_[d]) + static_cast<std::size_t>(c[d]);
        return b;
    }

    // Cells within `reach` of the query cannot be skipped: reach = ceil(radius / w).
    [[nodiscard]] std::int32_t reach_for(scalar radius) const noexcept {
        const scalar r = radius + slack(radius);
        std::int32_t reach = 1;
        for (std::size_t d = 0; d < dim; ++d) {
            const scalar c = std::ceil(r / w_[d]);
            const scalar limit = static_cast<scalar>(hashed_open() ? last_ring() + 1 : n_[d]);
            const std::int32_t rr = !(c <= limit) ? static_cast<std::int32_t>(limit) : static_cast<std::int32_t>(c);
            reach = std::max(reach, rr);
        }
        return reach;
    }

    // Cells are a little wider than asked, so that rounding can never hide a neighbour
    // in a cell the query skips while a plain reach of one still suffices (reach_for:
    // the radius plus its slack within a cell). By 1/64 of the cell, or in a torus,
    // whose positions lie in the box, by four times the slack there: a torus's cells
    // tile it, and a margin wider than needed can cost a whole cell across (the
    // standard 3D scene of 10,000 boids: 13 cells a side instead of 14, a quarter
    // more candidates a boid).
    [[nodiscard]] scalar padded_cell() const noexcept {
        if (world_.kind == edges::toroidal) {
            scalar largest = scalar(0);
            for (std::size_t d = 0; d < dim; ++d) largest = std::max(largest, world_.size[d]);
            constexpr scalar eps = std::numeric_limits<scalar>::epsilon();
            const scalar margin = scalar(4) * (scalar(16) * eps * cell_size_ + scalar(8) * eps * largest);
            if (std::isfinite(margin)) return cell_size_ + margin;
        }
        return cell_size_ * (scalar(1) + scalar(1) / scalar(64));
    }

    // How far rounding can move a computed distance, or a point across a cell edge:
    // relative to the distance, and absolute relative to the largest coordinate.
    [[nodiscard]] scalar slack(scalar distance) const noexcept {
        constexpr scalar eps = std::numeric_limits<scalar>::epsilon();
        return scalar(16) * eps * distance + scalar(8) * eps * max_abs_;
    }

    // True when the box of cells within `reach` holds more cells than there are boids.
    [[nodiscard]] bool too_many_cells(std::int32_t reach) const noexcept {
        double cells = 1;
        for (std::size_t d = 0; d < dim; ++d) {
            double side = 2.0 * reach + 1.0;
            if (!hashed_open()) side = std::min(side, static_cast<double>(n_[d]));
            cells *= side;
        }
        return cells > 2.0 * static_cast<double>(order_.size()) + 64.0;
    }

    [[nodiscard]] static scalar usable_cell(scalar cell_size) noexcept {
        return cell_size > scalar(0) ? cell_size : std::numeric_limits<scalar>::infinity();
    }

    // A hashed grid over a world without a torus: cells without bounds. Over a torus a
    // hashed grid lays its cells out as a dense one does (a whole number tiles each
    // side, and cell coordinates wrap), and only keeps them in hashed buckets.
    [[nodiscard]] bool hashed_open() const noexcept { return Hashed && world_.kind != edges::toroidal; }

    [[nodiscard]] std::int32_t last_ring() const noexcept {
        std::int32_t last = 0;
        for (std::size_t d = 0; d < dim; ++d)
            last = std::max(last, hashed_open() ? cmax_[d] - cmin_[d] : n_[d]);
        return last;
    }

    // The offsets along axis d that name distinct cells: for a toroidal axis the
    // window of n cells centred on the query, elsewhere those that stay inside.
    void axis_window(std::size_t d, std::int32_t c, std::int32_t& lo, std::int32_t& hi) const noexcept {
        if (hashed_open()) {
            lo = std::numeric_limits<std::int32_t>::min() / 4;
            hi = std::numeric_limits<std::int32_t>::max() / 4;
            return;
        }
        if (world_.kind == edges::toroidal) {
            lo = -((n_[d] - 1) / 2);
            hi = lo + n_[d] - 1;
        } else {
            lo = -c;
            hi = n_[d] - 1 - c;
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
        if (world_.kind != edges::toroidal) return c;
        c %= n_[d];
        return c < 0 ? c + n_[d] : c;
    }

    // Visits every point in the box of cells [c - reach, c + reach], each cell once.
    // Dense: merges each row along x into contiguous runs of slots.
    template <class Visit>
    void for_each_cell_in_box(const cell_t& c, std::int32_t reach, Visit&& visit) const {
        std::array<std::int32_t, dim> lo{}, hi{};
        clipped_offsets(c, reach, lo, hi);
        if (Hashed) {
            cell_t o{};
            iterate_box(lo, hi, o, 0, [&](const cell_t& off) {
                cell_t cell{};
                for (std::size_t d = 0; d < dim; ++d) cell[d] = wrap_cell(c[d] + off[d], d);
                visit_hashed_cell(cell, visit);
            });
            return;
        }
        // Rows: every (y[, z]) offset; along x one run, or two when a toroidal row wraps.
        std::array<std::int32_t, dim> rlo = lo, rhi = hi;
        rlo[0] = rhi[0] = 0;
        cell_t o{};
        iterate_box(rlo, rhi, o, 0, [&](const cell_t& off) {
            cell_t cell{};
            for (std::size_t d = 1; d < dim; ++d) cell[d] = wrap_cell(c[d] + off[d], d);
            std::int32_t x0 = c[0] + lo[0], x1 = c[0] + hi[0];
            if (x0 < 0) {  // toroidal: [n + x0, n) then [0, x1]
                visit_dense_run(cell, n_[0] + x0, n_[0] - 1, visit);
                x0 = 0;
            } else if (x1 >= n_[0]) {
                visit_dense_run(cell, 0, x1 - n_[0], visit);
                x1 = n_[0] - 1;
            }
            visit_dense_run(cell, x0, x1, visit);
        });
    }

    // Visits the cells whose Chebyshev offset from c is exactly `ring`.
    template <class Visit>
    void for_each_cell_on_ring(const cell_t& c, std::int32_t ring, Visit&& visit) const {
        std::array<std::int32_t, dim> lo{}, hi{};
        clipped_offsets(c, ring, lo, hi);
        cell_t o{};
        iterate_box(lo, hi, o, 0, [&](const cell_t& off) {
            std::int32_t m = 0;
            for (std::size_t d = 0; d < dim; ++d) m = std::max(m, off[d] < 0 ? -off[d] : off[d]);
            if (m != ring) return;
            cell_t cell{};
            for (std::size_t d = 0; d < dim; ++d) cell[d] = wrap_cell(c[d] + off[d], d);
            if (Hashed) visit_hashed_cell(cell, visit);
            else visit_dense_run(cell, cell[0], cell[0], visit);
        });
    }

    template <class F>
    static void iterate_box(const std::array<std::int32_t, dim>& lo, const std::array<std::int32_t, dim>& hi,
                            cell_t& cur, std::size_t d, F&& f) {
        if (d == dim) {
            f(cur);
            return;
        }
        for (std::int32_t o = lo[d]; o <= hi[d]; ++o) {
            cur[d] = o;
            iterate_box(lo, hi, cur, d + 1, f);
        }
    }

    template <class Visit>
    void visit_dense_run(cell_t cell, std::int32_t x0, std::int32_t x1, Visit& visit) const {
        if (x1 < x0) return;
        cell[0] = x0;
        const std::size_t b0 = bucket_of(cell);
        const std::size_t b1 = b0 + static_cast<std::size_t>(x1 - x0);
        visit(bucket_start_[b0], bucket_start_[b1 + 1], static_cast<const cell_t*>(nullptr));
    }
    template <class Visit>
    void visit_hashed_cell(const cell_t& cell, Visit& visit) const {
        const std::size_t b = bucket_of(cell);
        visit(bucket_start_[b], bucket_start_[b + 1], &cell);
    }

    // The candidates in slots [s0, s1) (only those in cell *only, when given).
    template <class F>
    void scan(std::size_t self, const std::array<scalar, dim>& p, std::size_t s0, std::size_t s1,
              const cell_t* only, F&& f) const {
        const std::size_t n = order_.size();
        for (std::size_t s = s0; s < s1; ++s) {
            if (order_[s] == self) continue;
            if (only != nullptr && scell_[s] != *only) continue;
            neighbor_type nb{order_[s], scalar(0), {}};
            for (std::size_t d = 0; d < dim; ++d) {
                nb.offset[d] = world_.offset_component(p[d], spos_[d * n + s], d);
                nb.distance_squared += nb.offset[d] * nb.offset[d];
            }
            f(nb);
        }
    }

    world_for<V> world_{};
    scalar cell_size_ = scalar(1);
    scalar max_abs_ = scalar(0);  // the largest finite coordinate (the box size when toroidal)
    std::array<std::int32_t, dim> n_{};
    std::array<scalar, dim> w_{};
    std::array<scalar, dim> origin_{};
    std::array<std::int32_t, dim> cmin_{}, cmax_{};
    std::size_t mask_ = 0;
    std::vector<std::size_t> bucket_start_, cursor_, order_, slot_, pbucket_;
    std::vector<cell_t> pcell_, scell_;
    std::vector<std::size_t> task_counts_;  // the parallel build's counts per task and cell
    std::vector<std::size_t> owner_, handed_;  // the parallel build's cells per task, and its lists of boids
    std::vector<scalar> task_max_abs_;
    std::vector<unsigned char> task_inside_;  // per task of the parallel build: its boids all lie in the box
    std::vector<scalar> spos_;
    std::vector<V> gathered_;  // build(strided_span)'s copy of the positions
    bool inside_ = true;       // every position of this build lies in [0, size) on every axis
    bool near_ready_ = false;  // the by-distance k-nearest query suits this build
    bool avx_ = avx_at_run_time();  // the k-nearest selection's AVX build runs here
};

} // namespace detail
} // namespace boids

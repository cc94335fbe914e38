// boids/flock/detail/fused.hpp - flock_step's machinery: a boid's move, the
// batched last stage, and the fused metric step over a dense grid.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include "../../executor.hpp"
#include "../blend.hpp"
#include "../config.hpp"
#include "../workspace.hpp"
#include "finish.hpp"
#include "block_fill.hpp"
#include "kernel.hpp"
#include "rings.hpp"
#include "sub_cells.hpp"
#include "../../detail/prefetch.hpp"

namespace boids {

namespace detail {
// One boid's move: semi-implicit Euler in the speed band, then the world's edges.
template <class V>
void move_boid(V& position, V& velocity, const V& acceleration, scalar_t<V> dt, const flock_config<V>& cfg) noexcept {
    boids::integrate(position, velocity, acceleration, dt, cfg.limits);
    boids::confine(cfg.world, position, velocity);
}

template <class F, class = void>
struct has_contiguous_runs : std::false_type {};
template <class F>
struct has_contiguous_runs<F, std::enable_if_t<F::has_contiguous_runs>> : std::true_type {};

template <class Finder>
std::size_t slot_of(const Finder& finder, std::size_t i) {
    if constexpr (has_contiguous_runs<Finder>::value) return finder.slot_of(i);
    else return i;
}

// Lane k of one of a batch's per-axis arrays, as a V.
template <class V, class S, std::size_t D, std::size_t N>
[[nodiscard]] V lane_of(const S (&a)[D][N], std::size_t k) noexcept {
    return boids::generate<V>([&](std::size_t d) { return a[d][k]; });
}

// Hands each boid of a finished batch its new state: done(slot, p, v). A lane marked
// for a rarer branch is redone by move_boid, from its old state, with the
// acceleration redo_accel(k, p, v) gives it.
template <class V, class RedoAccel, class Done>
void hand_back(finish_batch<scalar_t<V>, dimension_v<V>>& batch, const flock_config<V>& cfg, scalar_t<V> dt,
               RedoAccel&& redo_accel, Done&& done) {
    for (std::size_t k = 0; k < batch.size; ++k) {
        V p = lane_of<V>(batch.new_p, k);
        V v = lane_of<V>(batch.new_v, k);
        if (batch.redo[k]) {
            p = lane_of<V>(batch.p, k);
            v = lane_of<V>(batch.v, k);
            move_boid(p, v, redo_accel(k, p, v), dt, cfg);
        }
        done(batch.slot[k], p, v);
    }
    batch.size = 0;
}

// Finishes the boids waiting in `batch` (flock/detail/finish.hpp) with the ready-made blend
// and hands each one's slot and new state to done(slot, p, v).
template <class V, class Done>
void finish_waiting_boids(bool avx, finish_batch<scalar_t<V>, dimension_v<V>>& batch, const flock_config<V>& cfg,
                          scalar_t<V> dt, Done&& done) {
    finish_batch_lanes(avx, batch, cfg, dt);
    hand_back<V>(
        batch, cfg, dt,
        [&](std::size_t k, const V& p, const V& v) {
            return flock_acceleration_from_sums(p, v, static_cast<std::size_t>(batch.count[k]),
                                                lane_of<V>(batch.push, k), boids::zero<V>(), false,
                                                lane_of<V>(batch.offset, k), lane_of<V>(batch.velocity, k), cfg);
        },
        done);
}

// A blend of the user's over a batch: the boids waiting in `batch` (their own state,
// with their summaries and indices beside it) are asked of the blend one after
// another, which lets the processor overlap them, and moved pack-wide. done(slot, p, v)
// as above.
template <class V, class Blend, class Done>
void move_waiting_boids(bool avx, finish_batch<scalar_t<V>, dimension_v<V>>& batch,
                        const neighborhood_summary<V>* summaries, const std::size_t* index, const Blend& blend,
                        const flock_config<V>& cfg, scalar_t<V> dt, Done&& done) {
    constexpr std::size_t D = dimension_v<V>;
    for (std::size_t k = 0; k < batch.size; ++k) {
        const V a = blend_at(blend, index[k], lane_of<V>(batch.p, k), lane_of<V>(batch.v, k), summaries[k], dt);
        for (std::size_t d = 0; d < D; ++d) batch.accel[d][k] = boids::get(a, d);
    }
    finish_batch_lanes<true>(avx, batch, cfg, dt);
    hand_back<V>(
        batch, cfg, dt, [&](std::size_t k, const V&, const V&) { return lane_of<V>(batch.accel, k); }, done);
}

// The fused metric step over a dense grid: gathers velocities into cell order, then,
// cell by cell, copies the cell's candidates into a block, computes each of its
// boids' sums over it (flock/detail/kernel.hpp) and moves the boid at once, into the
// workspace by slot; a last pass copies the new states to the caller's arrays. A boid
// with more neighbours than max_neighbors runs the kernel again within the radius of
// its nearest ones (heeded_radius_squared); one that follows such a boid is counted
// from its distances before the kernel runs at all. Every boid sees the old state: the kernel
// reads only the grid's copies, and the rare boid that takes the general path (boids
// on one spot, a tie in distance, a crowded boid with a cone) reads the caller's
// arrays, which are not written until every boid has moved. Returns false (having
// changed nothing, and saying why) when this step cannot use it: a state that is not
// finite, a coordinate beyond a quarter of the largest float, or a toroidal position
// outside the box (keep positions in [0, size), as confine() does).
template <class V, class Grid, class Blend, class Executor>
const char* fused_metric_step(span<V> positions, span<V> velocities, const flock_config<V>& cfg, const Grid& grid,
                              flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend, std::size_t tasks,
                              Executor& executor) {
    const span<const V> pos(positions.data(), positions.size());
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    const std::size_t n = pos.size();
    // Lane indices are floating-point numbers in the kernel: exact below 2^mantissa.
    if (static_cast<double>(n) >= std::ldexp(1.0, std::numeric_limits<S>::digits - 1))
        return "more boids than the kernel's lane indices count exactly (2^23 in float)";
    const auto runs = grid.runs();  // the grid as the kernel reads it
    // Offsets by images only where the grid says they need them (offsets_need_images).
    const bool images = cfg.world.kind == edges::toroidal && runs.offsets_need_images();
    const auto order = runs.order();
    constexpr std::size_t padding = decltype(runs)::padding;
    if (ws.sorted_velocities.size() != n * D + padding) ws.sorted_velocities.assign(n * D + padding, S(0));
    if (ws.finished_states.size() != n) ws.finished_states.resize(n);
    // Every position in the box: found by the grid's build while it sorted (in the
    // same box: a grid of another world takes the general path).
    if (cfg.world.kind == edges::toroidal && !(runs.all_in_box() && runs.world().size == cfg.world.size))
        return "a toroidal position outside the box [0, size) (or a grid over another world)";
    const S* axes = runs.axis(0).data();      // positions per axis, n apart, in cell order
    constexpr std::size_t gather_ahead = 24;  // slots: about a memory latency of this loop
    executor(tasks, [&](std::size_t t) {      // gather, in parallel: every task checks its slots
        const index_range range = task_range(n, t, tasks);
        const std::size_t b = range.begin, e = range.end;
        bool ok = true;
        for (std::size_t s = b; s < e; ++s) {
            if (s + gather_ahead < e) prefetch<prefetch_for::reading>(velocities.data() + order[s + gather_ahead]);
            const V& v = velocities[order[s]];
            ok = ok && boids::is_finite(v);
            for (std::size_t d = 0; d < D; ++d) {
                const S x = axes[d * n + s];                          // positions[order[s]], read in order
                if (!(std::fabs(x) < position_limit<S>)) ok = false;  // finite, and far from the kernel's sentinels
                ws.sorted_velocities[d * n + s] = boids::get(v, d);
            }
        }
        ws.task_ok[t] = ok ? 1 : 0;
    });
    for (std::size_t t = 0; t < tasks; ++t)
        if (ws.task_ok[t] == 0)
            return "a position or velocity that is not finite, or a coordinate beyond a quarter of the largest scalar";
    const bool cone = cfg.view_angle < S(360);
    const S cos_half = vision_cone<S, D>::cos_half_of(cfg.view_angle);  // once per step, not per boid
    const bool linear = cfg.separate.falloff == separation_falloff::linear;
    auto plan = runs.plan_for(cfg.view_radius);
    const std::size_t heed = cfg.neighbor_cap();
    const bool capped = heed < n;  // else no boid can be crowded
    if (capped)
        gather_crowded_velocities(runs.cells(), ws.sorted_velocities.data(), ws.crowded_velocities, tasks, executor);
    // Cells sized for the cap (the grid sizes them so where the flock is dense:
    // cells_for_query): a boid's nearest are first looked for in the one or two
    // rings of cells around its own (the near block), and the whole radius is
    // read only for a boid whose nearest that block cannot prove.
    const bool two_level = capped && plan.reach > 1 && runs.sized_for_nearest();
    // A grid a few cells across, whose every block would hold the whole flock: one block
    // of every slot in order, filled once per task, with the minimum image lane by lane
    // (not where cells are sized for the cap: a flock packed within a view radius or
    // two would have every boid read all of it).
    bool whole = !two_level;
    for (std::size_t d = 0; d < D; ++d) whole = whole && runs.cells_per_axis()[d] <= 2 * plan.reach + 1;
    if (whole) plan.scan_all = true;
    const bool avx = avx_at_run_time();
    executor(tasks, [&](std::size_t t) {
        const index_range range = task_range(n, t, tasks);
        const std::size_t b = range.begin, e = range.end;
        task_scratch<S, D>& scratch = ws.scratch[t];
        const S* vels = ws.sorted_velocities.data();
        const block_filler<std::decay_t<decltype(runs)>, S, D> filler{runs, axes, vels, n, scratch};
        const span<const V> old_vel(velocities.data(), n);  // unchanged until every boid has moved
        candidate_block<S, D> block = scratch.block_for(scratch.full, 0);
        kernel_query<S, D> q{};
        for (std::size_t d = 0; d < D; ++d) {
            q.size[d] = cfg.world.size[d];
            q.half[d] = cfg.world.size[d] * S(0.5);
        }
        q.r2 = cfg.view_radius * cfg.view_radius;
        q.sep_radius = cfg.separate.radius;
        q.sep_r2 = cfg.separate.radius * cfg.separate.radius;
        // Boids whose sums are known wait here for their last stage, done pack-wide.
        finish_batch<S, D> batch{};  // zeros: the lanes past its size compute on finite leftovers
        constexpr bool ready_made = is_ready_made_blend<Blend>::value;
        const bool batched = ready_made && batch_finish_supported(cfg);
        // A blend of the user's: its boids wait with their summaries (move_waiting_boids).
        neighborhood_summary<V> waiting[ready_made ? 1 : finish_batch<S, D>::capacity];
        std::size_t waiting_index[ready_made ? 1 : finish_batch<S, D>::capacity];
        auto finish_waiting = [&] {
            auto store = [&](std::size_t slot, const V& p, const V& v) { ws.finished_states[slot] = {p, v}; };
            if constexpr (ready_made) finish_waiting_boids(avx, batch, cfg, dt, store);
            else move_waiting_boids(avx, batch, waiting, waiting_index, blend, cfg, dt, store);
        };
        std::size_t cell_end = b;  // the blocks hold the candidates of slots up to here
        // Crowded boids (more neighbours than they heed) come in runs, in cell order.
        bool last_crowded = false;  // the boid before was crowded
        const S full_r2 = q.r2;
        const run_plan near_plan{runs.nearest_reach(), false};
        // Across a seam: one image a candidate where a cell's boids share a side (rule.image,
        // this cell's), else per lane.
        const bool seams = images && runs.across_seams() && !plan.scan_all;
        image_rule<S> rule{images, seams, nullptr};
        S cell_image[D] = {};
        candidate_block<S, D> near = scratch.block_for(scratch.near, 0);
        bool filled = false;        // the block holds this cell's candidates within the radius
        bool beside_crowd = false;  // a crowded cell lies within the radius of this cell (sub_cells.hpp)
        const nearest_search<S> look{heed, vision_cone<S, D>::share_of(cfg.view_angle), full_r2,
                                     plan.scan_all ? 2 : std::min(plan.reach, D == 2 ? 8 : 4)};  // sub_cells.hpp
        for (std::size_t s = b; s < e; ++s) {
            if (s >= cell_end) {
                cell_end = plan.scan_all ? e : runs.cell_end_of(s);
                if (seams) rule.image = runs.one_side_image(s, cell_end, cell_image);
                filled = !two_level;  // else the whole radius is filled when a boid of the cell needs it
                beside_crowd =
                    capped && !runs.cells().crowded.grids.empty() &&
                    crowded_cell_within(runs.cells(), runs.cell_of(s),
                                        plan.scan_all ? std::numeric_limits<std::int32_t>::max() / 4 : plan.reach);
                if (two_level) filler.fill(near_plan, s, rule, scratch.near, near);
                else filler.fill(plan, s, rule, scratch.full, block);
            }
            const std::size_t i = order[s];
            // This boid's own state from the cell-ordered copies: sequential reads.
            const V p_i = boids::generate<V>([&](std::size_t d) { return axes[d * n + s]; });
            const V v_i = boids::generate<V>([&](std::size_t d) { return vels[d * n + s]; });
            neighborhood_sums<S, D> sums;
            for (std::size_t d = 0; d < D; ++d) q.p[d] = axes[d * n + s];
            bool use_cone = false;
            if (cone) {
                const auto vc = vision_cone<S, D>::from(v_i, cfg.view_angle, cos_half);
                q.heading = vc.heading;
                q.cos_half = vc.cos_half_angle;
                use_cone = !vc.all_around;
            }
            // The kernel over `blk`, its candidates taking the minimum image as the block says.
            S cut_r2 = full_r2;  // where the kernel last cut its radius (its heeded nearest lie within)
            auto run = [&](const candidate_block<S, D>& blk) {
                with_wrap_mode(blk, [&](auto wrap) {
                    constexpr wrap_mode W = decltype(wrap)::value;
                    constexpr bool N = !ready_made;  // the nearest distance, for a blend of the user's
                    if (use_cone)
                        linear ? block_sums<W, true, true, N>(avx, q, blk, sums)
                               : block_sums<W, true, false, N>(avx, q, blk, sums);
                    else
                        linear ? block_sums<W, false, true, N>(avx, q, blk, sums)
                               : block_sums<W, false, false, N>(avx, q, blk, sums);
                });
            };
            // The squared radius within which it sees exactly its `heed` nearest in `blk`.
            auto heeded = [&](const candidate_block<S, D>& blk, std::size_t neighbours) {
                return with_wrap_mode(blk, [&](auto wrap) {
                    constexpr wrap_mode W = decltype(wrap)::value;
                    S* scratch_d2 = scratch.distances.data();
                    return use_cone ? heeded_radius_squared<W, true>(avx, blk, q, heed, neighbours, scratch_d2)
                                    : heeded_radius_squared<W, false>(avx, blk, q, heed, neighbours, scratch_d2);
                });
            };
            // Beside a crowd, the boids within a ball around it, the crowd's from its sub-cells:
            // first where the near block holds the crowd too, else where that block fails.
            auto in_sub_cells = [&](std::size_t otherwise) {
                return sum_in_sub_cells(
                    runs, s, q.p, look, otherwise, step_velocities<S>{vels, ws.crowded_velocities.data()}, scratch,
                    [&](const auto& blk) { return heeded(blk, neighbours_unknown); },
                    [&](const auto& blk, S r2) {
                        q.r2 = cut_r2 = r2;
                        run(blk);
                        q.r2 = full_r2;
                    });
            };
            // At least its cap of others on its very spot, stacked in its sub-cell: it heeds
            // the stack's first (the general path below, without a kernel's count).
            const bool on_spot = beside_crowd && runs.on_crowded_spot(s, heed);
            const bool crowd_first = beside_crowd && (!two_level || near.size > crowded_cell_size);
            bool summed = on_spot;
            if (crowd_first && !on_spot) summed = in_sub_cells(two_level ? near.size : block.size);
            S near_cut = full_r2;  // where the near block saw more than its cap: their radius
            if (!summed && two_level && near.size > heed + 1) {
                // Crowded within the near block, with its nearest closer than any boid
                // outside it: they are its nearest of all, summed from that block alone.
                // (Which block sums a boid depends on its cell alone, never on the boid
                // before it, which another task may hold: the same bits on any threads.)
                const S cut = near_cut = heeded(near, neighbours_unknown);
                if (proves_nearest(runs, s, near_plan.reach, cut, full_r2)) {
                    q.r2 = cut_r2 = cut;
                    run(near);
                    q.r2 = full_r2;
                    summed = true;
                }
            }
            if (!summed && beside_crowd && !crowd_first)
                summed = in_sub_cells(n);  // (the whole radius: at most every boid)
            if (!summed && two_level)
                summed = sum_in_wider_rings(
                    filler, rule, s, near_plan.reach, plan.reach, near_cut, look,
                    [&](const auto& blk) { return heeded(blk, neighbours_unknown); },
                    [&](const auto& blk, S r2) {
                        q.r2 = cut_r2 = r2;
                        run(blk);
                        q.r2 = full_r2;
                    });
            if (!summed && !filled) {
                filler.fill(plan, s, rule, scratch.full, block);
                filled = true;
            }
            if (!summed) {
                if (last_crowded && capped) {
                    // Likely crowded too: counted from the distances rather than by a first
                    // run of the kernel. Not crowded after all: q.r2 comes back as it was.
                    q.r2 = cut_r2 = heeded(block, neighbours_unknown);
                    run(block);
                    last_crowded = q.r2 < full_r2 || sums.count > heed;
                    q.r2 = full_r2;
                } else {
                    run(block);
                    last_crowded = sums.count > heed;
                    if (last_crowded && sums.coincident == 0) {
                        // Crowded: it heeds its max_neighbors nearest, summed by the kernel with
                        // its radius cut to the last of them (a tie there: the general path below).
                        q.r2 = cut_r2 = heeded(block, sums.count);
                        run(block);
                        q.r2 = full_r2;
                    }
                }
            }
            V a;
            if (on_spot || sums.coincident > 0 || sums.count > heed) {  // rare: the exact general path
                if (on_spot || sums.coincident > 0) ++scratch.off.on_one_spot;
                else ++scratch.off.tied_at_cap;
                const std::size_t coincident = on_spot ? heed : sums.coincident;
                if (filled && cut_r2 == full_r2 && sums.count > heed) cut_r2 = heeded(block, sums.count);
                const S within = cut_r2 < full_r2 ? std::sqrt(cut_r2) * S(1.0 + 1.0 / 64) : cfg.view_radius;
                const auto seen = gather_heeded(i, s, runs, grid, old_vel, cfg, coincident, within, scratch.neighbors);
                a = blend_at(blend, i, p_i, v_i, boids::summarize(i, old_vel, seen, cfg.separate), dt);
            } else if (batched) {
                if (batch.add(s, sums.count, p_i, v_i, to_vector<V>(sums.push), to_vector<V>(sums.offset),
                              to_vector<V>(sums.velocity)))
                    finish_waiting();
                continue;
            } else if constexpr (!ready_made) {
                waiting[batch.size] = summary_of<V>(sums);
                waiting_index[batch.size] = i;
                if (batch.add_state(s, p_i, v_i)) finish_waiting();
                continue;
            } else {
                a = blend_at(blend, i, p_i, v_i, summary_of<V>(sums), dt);
            }
            // Move (as flock_step's move pass would): p_i and v_i are boid i's state, bit for bit.
            V p = p_i, v = v_i;
            move_boid(p, v, a, dt, cfg);
            ws.finished_states[s] = {p, v};
        }
        finish_waiting();
    });
    // The new state goes to the caller's arrays in index order: random reads of the
    // copies by slot, which overlap, where writing each boid as it moved made random
    // stores, which beyond the caches wait for their lines one after another.
    constexpr std::size_t copy_ahead = 16;
    executor(tasks, [&](std::size_t t) {
        const index_range range = task_range(n, t, tasks);
        const std::size_t b = range.begin, e = range.end;
        for (std::size_t i = b; i < e; ++i) {
            if (i + copy_ahead < e) {
                prefetch<prefetch_for::reading>(ws.finished_states.data() + runs.slot_of(i + copy_ahead));
            }
            const auto& moved = ws.finished_states[runs.slot_of(i)];
            positions[i] = moved.position;
            velocities[i] = moved.velocity;
        }
    });
    return nullptr;
}
}  // namespace detail

}  // namespace boids

// boids/flock/detail/stages.hpp - the stages of flock_step (flock/step.hpp), each a
// function: build the index; the fused kernel (summarise, blend and move at once, on
// a dense grid with metric neighbours); otherwise summarise and blend boid by boid,
// then move all.
#pragma once
#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>
#include "../../executor.hpp"
#include "../../neighbors/query.hpp"
#include "../blend.hpp"
#include "../config.hpp"
#include "../summary.hpp"
#include "../workspace.hpp"
#include "finish.hpp"
#include "fused.hpp"

namespace boids {
namespace detail {
// Tells a dense grid the query of this step, so that it sizes its cells for the flock.
template <class V, class Grid>
void serve_step_queries(Grid& grid, const flock_config<V>& cfg, std::size_t n) noexcept {
    using S = scalar_t<V>;
    if (cfg.neighbors == neighborhood_kind::topological) {
        grid.serve_queries(cfg.view_radius, std::max<std::size_t>(cfg.k, 1), S(1), false);
        return;
    }
    const S seen = vision_cone<S, dimension_v<V>>::share_of(cfg.view_angle);  // of the directions, with the cone
    grid.serve_queries(cfg.view_radius, cfg.neighbor_cap() < n ? cfg.neighbor_cap() : no_cap, seen);
}

template <class Blend, class V>
inline constexpr bool is_blend_v =
    std::is_invocable_r_v<V, const Blend&, const boid_view<V>&, const neighborhood_summary<V>&>;
}  // namespace detail

namespace detail {
// 1. The finder's index over the old positions. A dense grid is told the query first,
// so that it sizes its cells for this flock, and builds in parallel.
template <class V, class Finder, class Executor>
void build_index(Finder& finder, const flock_config<V>& cfg, span<const V> pos, Executor& executor) {
    if constexpr (has_contiguous_runs<std::remove_cv_t<Finder>>::value) {
        serve_step_queries(finder, cfg, pos.size());
        finder.build(pos, executor, concurrency_of(executor));
    } else {
        finder.build(pos);
    }
}

// 2 to 4 at once, where the fused kernel serves (a dense grid, metric neighbours in
// the finder's order): true when it moved every boid. ws.report says which path
// runs and why.
template <class V, class Finder, class Blend, class Executor>
bool fused_step(span<V> positions, span<V> velocities, const flock_config<V>& cfg, Finder& finder,
                flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend, std::size_t tasks, Executor& executor) {
    ws.report = flock_step_report{flock_path::per_boid, "", 0};
    if constexpr (has_contiguous_runs<std::remove_cv_t<Finder>>::value) {
        if (cfg.neighbors != neighborhood_kind::metric) {
            ws.report.reason = "topological neighbours: the grid's batched k-nearest query per cell";
        } else if (cfg.order != neighbor_order::finder) {
            ws.report.reason = "neighbor_order::by_index: every boid's neighbours sorted by index";
        } else if (const char* why =
                       fused_metric_step(positions, velocities, cfg, finder, ws, dt, blend, tasks, executor)) {
            ws.report.reason = why;
        } else {
            ws.report = fused_report(ws.scratch);
            return true;
        }
    } else {
        ws.report.reason = "the finder is not a dense grid (all_pairs, hashed_grid): a query per boid";
    }
    return false;
}

// 2 and 3 boid by boid: each boid's neighbours summed in the old state and blended
// into an acceleration (ws.accelerations, by slot); over a dense grid in its cell
// order (slots), where consecutive queries share cells in cache (the order changes no
// result). With `batched` (the ready-made blend), boids whose sums are known wait for
// their last stage, done pack-wide (finish.hpp: the per-boid functions' bits); their
// new state is kept by slot until every boid has looked.
template <class V, class Finder, class Blend, class Executor>
void summarize_and_blend(span<const V> pos, span<const V> vel, const flock_config<V>& cfg, const Finder& finder,
                         flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend, bool batched, std::size_t tasks,
                         Executor& executor) {
    constexpr bool in_slots = has_contiguous_runs<std::remove_cv_t<Finder>>::value;
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    const std::size_t n = pos.size();
    const bool avx = avx_at_run_time();
    if (batched && ws.finished.size() != n) {
        ws.finished_states.resize(n);
        ws.finished.resize(n);
    }
    executor(tasks, [&](std::size_t t) {  // look
        const index_range range = task_range(n, t, tasks);
        const std::size_t b = range.begin, e = range.end;
        auto& buf = ws.scratch[t].neighbors;
        // (zeros: lanes past its size compute on finite leftovers; only where it is used)
        std::optional<finish_batch<S, D>> batch;
        if (batched) batch.emplace();
        auto finish_waiting = [&] {
            if (!batched) return;
            finish_waiting_boids(avx, *batch, cfg, dt, [&](std::size_t slot, const V& p, const V& v) {
                ws.finished_states[slot] = {p, v};
                ws.finished[slot] = 1;
            });
        };
        // Boid i, in slot s, with the neighbours it sees.
        auto look = [&](std::size_t s, std::size_t i, neighborhood<V> nbrs) {
            if (batched) ws.finished[s] = 0;
            if (!boids::is_finite(pos[i]) || !boids::is_finite(vel[i])) {  // not seen, and gets no steering
                ws.accelerations[s] = boids::zero<V>();
                return;
            }
            const auto summary = boids::summarize(i, vel, nbrs, cfg.separate);
            if (!batched ||
                summary.coincident > 0) {  // the blend boid by boid (the batch leaves coincident boids to it)
                ws.accelerations[s] = blend_at(blend, i, pos[i], vel[i], summary, dt);
                return;
            }
            if (batch->add(s, summary.count, pos[i], vel[i], summary.push, summary.offset_sum, summary.velocity_sum))
                finish_waiting();
        };
        if constexpr (in_slots) {
            if (cfg.neighbors == neighborhood_kind::topological) {  // the grid's batch: a block of candidates per cell
                const std::size_t k = std::min(cfg.k, n);           // k larger than the flock: all of it
                if (buf.size() < std::max<std::size_t>(k, 1)) buf.resize(std::max<std::size_t>(k, 1));
                const span<neighbor<S, D>> held(buf.data(), k);
                k_nearest<S, D> knn(held, k);
                finder.nearest_in_slots(b, e, knn, cfg.view_radius, [&](std::size_t s, const auto& found) {
                    look(s, finder.order()[s], seen_neighbors(held, found.size(), vel, cfg));
                });
                finish_waiting();
                return;
            }
        }
        for (std::size_t k = b; k < e; ++k) {
            std::size_t i = k;
            if constexpr (in_slots) i = finder.order()[k];
            look(k, i, gather_neighbors(i, finder, vel, cfg, buf));
        }
        finish_waiting();
    });
}

// 4. Every boid moves (semi-implicit Euler in the speed band, then the world's edges),
// or takes the state the batch above gave it.
template <class V, class Finder, class Executor>
void move_all(span<V> positions, span<V> velocities, const flock_config<V>& cfg, const Finder& finder,
              flock_workspace<V>& ws, scalar_t<V> dt, bool batched, std::size_t tasks, Executor& executor) {
    constexpr bool in_slots = has_contiguous_runs<std::remove_cv_t<Finder>>::value;
    const std::size_t n = positions.size();
    executor(tasks, [&](std::size_t t) {
        const index_range range = task_range(n, t, tasks);
        const std::size_t b = range.begin, e = range.end;
        for (std::size_t i = b; i < e; ++i) {
            const std::size_t at = in_slots ? slot_of(finder, i) : i;
            if (batched && ws.finished[at] != 0) {  // moved by the batch above
                positions[i] = ws.finished_states[at].position;
                velocities[i] = ws.finished_states[at].velocity;
                continue;
            }
            if (!boids::is_finite(positions[i]) || !boids::is_finite(velocities[i])) continue;
            move_boid(positions[i], velocities[i], ws.accelerations[at], dt, cfg);
        }
    });
}
}  // namespace detail

}  // namespace boids

// boids/flock/step.hpp - the flock step over flat arrays, in four stages:
//
//   1. finder.build(positions)                 (all_pairs: nothing; grids: counting sort)
//   2. every boid's neighbourhood, in the old state, summed (summary.hpp)
//   3. a blend turns each boid and its summary into an acceleration (yours, or the
//      ready-made flock_rules of flock/blend.hpp)
//   4. all move: semi-implicit Euler in the speed band, and the world's edges
//
// (A dense grid's metric step fuses 2 to 4: it reads only copies of the old state,
// so a boid can move as soon as its acceleration is known, into the workspace; the
// new states reach your arrays once all have moved. The result is the same.)
// config.hpp holds the parameters, workspace.hpp the workspace and the path report. The
// workspace owns every buffer: after the first step of a given flock size, a step
// allocates nothing (thread_count's threads aside).
#pragma once
#include <algorithm>
#include <optional>
#include <type_traits>
#include <vector>
#include "detail/fused.hpp"
#include "../executor.hpp"
#include "blend.hpp"
#include "config.hpp"
#include "../neighbors/auto_finder.hpp"
#include "../strided.hpp"
#include "summary.hpp"
#include "workspace.hpp"

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
    const S seen = cfg.view_angle < S(360) ? std::fmax(cfg.view_angle, S(0)) / S(360) : S(1);
    grid.serve_queries(cfg.view_radius, cfg.neighbor_cap() < n ? cfg.neighbor_cap() : no_cap, seen);
}

template <class Blend, class V>
inline constexpr bool is_blend_v =
    std::is_invocable_r_v<V, const Blend&, const boid_view<V>&, const neighborhood_summary<V>&>;
}  // namespace detail

// One step of the whole flock, in four stages: build the finder's index; sum every
// boid's neighbourhood in the old state (cfg says which neighbours: metric or
// topological, radius, cone, k, separation's falloff); ask `blend` for each boid's
// acceleration from its summary; move every boid (semi-implicit Euler in cfg's speed
// band, then the world's edges). positions and velocities are updated in place.
// `blend(const boid_view<V>&, const neighborhood_summary<V>&) -> V` is any callable;
// an answer that is not finite counts as zero. ws.report says which path ran and why.
// Arrays of different sizes (an assert where asserts are on) step the boids that
// have both; a negative or NaN dt steps as dt = 0.
template <class V, class Finder, class Blend, class Executor = sequential,
          class = std::enable_if_t<detail::is_blend_v<Blend, V>>>
void flock_step(detail::identity_t<span<V>> positions, detail::identity_t<span<V>> velocities,
                const flock_config<V>& cfg, Finder& finder, flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend,
                Executor&& executor = {}) {
    BOIDS_ASSERT(positions.size() == velocities.size(), "flock_step: positions and velocities differ in size");
    BOIDS_ASSERT(dt >= 0, "flock_step: dt must be >= 0");
    if (!(dt >= 0)) dt = 0;
    const std::size_t n = std::min(positions.size(), velocities.size());
    positions = positions.subspan(0, n);
    velocities = velocities.subspan(0, n);
    const std::size_t tasks = detail::task_count(n, 256, executor);
    ws.prepare(n, tasks);
    const span<const V> pos(positions.data(), n);
    const span<const V> vel(velocities.data(), n);
    if constexpr (detail::has_contiguous_runs<std::remove_cv_t<Finder>>::value) {
        // A dense grid, told the query so that it sizes its cells for this flock, and
        // built in parallel.
        detail::serve_step_queries(finder, cfg, n);
        finder.build(pos, executor, detail::concurrency_of(executor));
    } else {
        finder.build(pos);
    }

    ws.report = flock_step_report{flock_path::per_boid, "", 0};
    if constexpr (detail::has_contiguous_runs<std::remove_cv_t<Finder>>::value) {
        if (cfg.neighbors != neighborhood_kind::metric) {
            ws.report.reason = "topological neighbours: the grid's batched k-nearest query per cell";
        } else if (cfg.order != neighbor_order::finder) {
            ws.report.reason = "neighbor_order::by_index: every boid's neighbours sorted by index";
        } else if (const char* why =
                       detail::fused_metric_step(positions, velocities, cfg, finder, ws, dt, blend, tasks, executor)) {
            ws.report.reason = why;
        } else {
            ws.report = detail::fused_report(ws.scratch);
            return;  // looked and moved
        }
    } else {
        ws.report.reason = "the finder is not a dense grid (all_pairs, hashed_grid): a query per boid";
    }
    // Otherwise boid by boid; over a dense grid in its cell order (slots), where
    // consecutive queries share cells in cache. The order of the loop changes no result.
    constexpr bool in_slots = detail::has_contiguous_runs<std::remove_cv_t<Finder>>::value;
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    // Boids whose sums are known wait for their last stage, done pack-wide
    // (flock/detail/finish.hpp: the per-boid functions' bits); their new state is kept by
    // slot until every boid has looked. The others get an acceleration, moved below.
    const bool batched = detail::is_ready_made_blend<Blend>::value && detail::batch_finish_supported(cfg);
    const bool avx = detail::avx_at_run_time();
    if (batched && ws.finished.size() != n) {
        ws.finished_states.resize(n);
        ws.finished.resize(n);
    }
    executor(tasks, [&](std::size_t t) {  // look
        const detail::index_range range = detail::task_range(n, t, tasks);
        const std::size_t b = range.begin, e = range.end;
        auto& buf = ws.scratch[t].neighbors;
        // (zeros: lanes past its size compute on finite leftovers; only where it is used)
        std::optional<detail::finish_batch<S, D>> batch;
        if (batched) batch.emplace();
        auto finish_waiting = [&] {
            if (!batched) return;
            detail::finish_waiting_boids(avx, *batch, cfg, dt, [&](std::size_t slot, const V& p, const V& v) {
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
                ws.accelerations[s] = detail::blend_at(blend, i, pos[i], vel[i], summary);
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
                    look(s, finder.order()[s], detail::seen_neighbors(held, found.size(), vel, cfg));
                });
                finish_waiting();
                return;
            }
        }
        for (std::size_t k = b; k < e; ++k) {
            std::size_t i = k;
            if constexpr (in_slots) i = finder.order()[k];
            look(k, i, detail::gather_neighbors(i, finder, vel, cfg, buf));
        }
        finish_waiting();
    });
    executor(tasks, [&](std::size_t t) {  // then move
        const detail::index_range range = detail::task_range(n, t, tasks);
        const std::size_t b = range.begin, e = range.end;
        for (std::size_t i = b; i < e; ++i) {
            const std::size_t at = in_slots ? detail::slot_of(finder, i) : i;
            if (batched && ws.finished[at] != 0) {  // moved by the batch above
                positions[i] = ws.finished_states[at].position;
                velocities[i] = ws.finished_states[at].velocity;
                continue;
            }
            if (!boids::is_finite(positions[i]) || !boids::is_finite(velocities[i])) continue;
            detail::move_boid(positions[i], velocities[i], ws.accelerations[at], dt, cfg);
        }
    });
}

// With an auto_finder, the step runs on the finder it chooses for this flock size,
// with that finder's own fast path (the grid's fused kernel above the crossover).
template <class V, class Blend, class Executor = sequential, class = std::enable_if_t<detail::is_blend_v<Blend, V>>>
void flock_step(detail::identity_t<span<V>> positions, detail::identity_t<span<V>> velocities,
                const flock_config<V>& cfg, auto_finder<V>& finder, flock_workspace<V>& ws, scalar_t<V> dt,
                const Blend& blend, Executor&& executor = {}) {
    finder.with_chosen(positions.size(), [&](auto& chosen) {
        flock_step<V>(positions, velocities, cfg, chosen, ws, dt, blend, executor);
    });
}

// The step with the ready-made blend (flock_rules: cfg's three rules and its predator).
template <class V, class Finder, class Executor = sequential,
          class = std::enable_if_t<!detail::is_blend_v<std::decay_t<Executor>, V>>>
void flock_step(detail::identity_t<span<V>> positions, detail::identity_t<span<V>> velocities,
                const flock_config<V>& cfg, Finder& finder, flock_workspace<V>& ws, scalar_t<V> dt,
                Executor&& executor = {}) {
    flock_step<V>(positions, velocities, cfg, finder, ws, dt, flock_rules<V>(cfg), executor);
}

// The step over vectors inside your own structs (strided.hpp): gathered into the
// workspace, stepped as above, and written back to those members only.
template <class V, class Finder, class Blend, class Executor = sequential,
          class = std::enable_if_t<detail::is_blend_v<Blend, V>>>
void flock_step(strided_span<V> positions, strided_span<V> velocities, const flock_config<V>& cfg, Finder& finder,
                flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend, Executor&& executor = {}) {
    const std::size_t n = std::min(positions.size(), velocities.size());
    ws.gathered_positions.resize(n);
    ws.gathered_velocities.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        ws.gathered_positions[i] = positions[i];
        ws.gathered_velocities[i] = velocities[i];
    }
    flock_step<V>(span<V>(ws.gathered_positions), span<V>(ws.gathered_velocities), cfg, finder, ws, dt, blend,
                  executor);
    for (std::size_t i = 0; i < n; ++i) {
        positions[i] = ws.gathered_positions[i];
        velocities[i] = ws.gathered_velocities[i];
    }
}
template <class V, class Finder, class Executor = sequential,
          class = std::enable_if_t<!detail::is_blend_v<std::decay_t<Executor>, V>>>
void flock_step(strided_span<V> positions, strided_span<V> velocities, const flock_config<V>& cfg, Finder& finder,
                flock_workspace<V>& ws, scalar_t<V> dt, Executor&& executor = {}) {
    flock_step(positions, velocities, cfg, finder, ws, dt, flock_rules<V>(cfg), executor);
}

}  // namespace boids

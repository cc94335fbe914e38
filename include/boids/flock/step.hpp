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
#include "detail/stages.hpp"
#include "../executor.hpp"
#include "blend.hpp"
#include "config.hpp"
#include "../neighbors/auto_finder.hpp"
#include "../strided.hpp"
#include "summary.hpp"
#include "workspace.hpp"

namespace boids {
namespace detail {
// How this translation unit gets its steps: compiled here, or taken from
// boids::prebuilt (BOIDS_PREBUILT). The last template argument of every flock_step
// names it, so that the two ways are two functions: translation units built one way
// and the other link into one program without two bodies for one function.
struct step_from_headers {};
struct step_from_prebuilt {};
#if defined(BOIDS_PREBUILT)
using step_build = step_from_prebuilt;
#else
using step_build = step_from_headers;
#endif
// The vector types whose step boids::prebuilt holds for any blend (flock/prebuilt.hpp
// says which, where BOIDS_PREBUILT is defined; none otherwise).
template <class V>
struct prebuilt_vector : std::false_type {};
// What flock_step takes for an executor (executor.hpp): executor(tasks, work).
template <class Executor>
inline constexpr bool is_executor_v = std::is_invocable_v<Executor&, std::size_t, void (*)(std::size_t)>;
// True for an executor; else the error a newcomer needs (a blend of the wrong shape
// lands here, in the executor's place).
template <class Executor>
constexpr bool checked_executor() {
    constexpr bool ok = is_executor_v<std::remove_reference_t<Executor>>;
    static_assert(ok,
                  "flock_step: the argument after dt is neither a blend, callable as blend(const boid_view<V>&, "
                  "const neighborhood_summary<V>&) and returning V, nor an executor, callable as "
                  "executor(std::size_t tasks, work)");
    return ok;
}
template <class V, class Finder, class Blend, class Executor>
inline constexpr bool takes_prebuilt_step =
    std::conjunction_v<prebuilt_vector<V>, std::is_same<Finder, uniform_grid<V>>,
                       std::is_same<std::decay_t<Executor>, sequential>, std::negation<is_ready_made_blend<Blend>>,
                       std::negation<std::is_same<Blend, blend_ref<V>>>>;
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
          class = std::enable_if_t<detail::is_blend_v<Blend, V>, detail::step_build>>
void flock_step(detail::identity_t<span<V>> positions, detail::identity_t<span<V>> velocities,
                const flock_config<V>& cfg, Finder& finder, flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend,
                Executor&& executor = {}) {
    if constexpr (detail::takes_prebuilt_step<V, Finder, Blend, Executor>) {  // flock/prebuilt.hpp
        flock_step<V>(positions, velocities, cfg, finder, ws, dt, detail::blend_ref<V>(blend), sequential{});
    } else {
        BOIDS_ASSERT(positions.size() == velocities.size(), "flock_step: positions and velocities differ in size");
        BOIDS_ASSERT(dt >= 0, "flock_step: dt must be >= 0");
        if (!(dt >= 0)) dt = 0;
        const std::size_t n = std::min(positions.size(), velocities.size());
        positions = positions.subspan(0, n);
        velocities = velocities.subspan(0, n);
        const std::size_t tasks = detail::task_count(n, 256, executor);
        ws.prepare(n, tasks);
        const span<const V> pos(positions.data(), n), vel(velocities.data(), n);
        detail::build_index(finder, cfg, pos, executor);  // 1
        if (detail::fused_step(positions, velocities, cfg, finder, ws, dt, blend, tasks, executor))
            return;  // 2 to 4 at once
        const bool batched = detail::is_ready_made_blend<Blend>::value && detail::batch_finish_supported(cfg);
        detail::summarize_and_blend(pos, vel, cfg, finder, ws, dt, blend, batched, tasks, executor);  // 2 and 3
        detail::move_all(positions, velocities, cfg, finder, ws, dt, batched, tasks, executor);       // 4
    }
}

// With an auto_finder, the step runs on the finder it chooses for this flock size,
// with that finder's own fast path (the grid's fused kernel above the crossover).
template <class V, class Blend, class Executor = sequential,
          class = std::enable_if_t<detail::is_blend_v<Blend, V>, detail::step_build>>
void flock_step(detail::identity_t<span<V>> positions, detail::identity_t<span<V>> velocities,
                const flock_config<V>& cfg, auto_finder<V>& finder, flock_workspace<V>& ws, scalar_t<V> dt,
                const Blend& blend, Executor&& executor = {}) {
    finder.with_chosen(positions.size(), [&](auto& chosen) {
        flock_step<V>(positions, velocities, cfg, chosen, ws, dt, blend, executor);
    });
}

// The step with the ready-made blend (flock_rules: cfg's three rules and its predator).
template <class V, class Finder, class Executor = sequential,
          class = std::enable_if_t<!detail::is_blend_v<std::decay_t<Executor>, V>, detail::step_build>>
void flock_step(detail::identity_t<span<V>> positions, detail::identity_t<span<V>> velocities,
                const flock_config<V>& cfg, Finder& finder, flock_workspace<V>& ws, scalar_t<V> dt,
                Executor&& executor = {}) {
    if constexpr (detail::checked_executor<Executor>())  // else one clear error, not the step's
        flock_step<V>(positions, velocities, cfg, finder, ws, dt, flock_rules<V>(cfg), executor);
}

// The step over vectors inside your own structs (strided.hpp): gathered into the
// workspace, stepped as above, and written back to those members only.
template <class V, class Finder, class Blend, class Executor = sequential,
          class = std::enable_if_t<detail::is_blend_v<Blend, V>, detail::step_build>>
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
          class = std::enable_if_t<!detail::is_blend_v<std::decay_t<Executor>, V>, detail::step_build>>
void flock_step(strided_span<V> positions, strided_span<V> velocities, const flock_config<V>& cfg, Finder& finder,
                flock_workspace<V>& ws, scalar_t<V> dt, Executor&& executor = {}) {
    if constexpr (detail::checked_executor<Executor>())
        flock_step(positions, velocities, cfg, finder, ws, dt, flock_rules<V>(cfg), executor);
}

}  // namespace boids

#if defined(BOIDS_PREBUILT)  // linked with boids::prebuilt: the step comes compiled
#  include "prebuilt.hpp"
#endif

// boids/crowd/detail/orca3d.hpp - a crowd step in 3D (see crowd/orca.hpp): RVO2-3D's
// half-spaces from neighbours, spheres and planes, the 3D linear programs, then the
// shared last stages.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include "../agents.hpp"
#include "linear_program3d.hpp"
#include "../obstacles3d.hpp"
#include "../../executor.hpp"
#include "../../neighbors/query.hpp"
#include "../../span.hpp"
#include "../../vector.hpp"
#include "orca_finish.hpp"

namespace boids::detail {

// The ORCA half-space agent i (at relative position 0, velocity vi) gets from a
// neighbour at relative position r with velocity vj, as RVO2-3D builds it, i taking
// `share` of the change. `tie`: a side to step to when the geometry names none.
template <class S>
half_space<S> orca_half_space(const vec3s<S>& r, const vec3s<S>& vi, const vec3s<S>& vj, S combined, S share,
                              S inv_horizon, S inv_dt, S tie) noexcept {
    const vec3s<S> w0 = sub3(vi, vj);
    const S dist2 = dot3(r, r);
    const S combined2 = combined * combined;
    vec3s<S> n{}, u{};
    auto toward = [&](const vec3s<S>& w, S reach) {  // out of the sphere of radius reach around the cut-off centre
        const S len = std::sqrt(dot3(w, w));
        n = len > S(0) ? vec3s<S>{w[0] / len, w[1] / len, w[2] / len} : vec3s<S>{tie, S(0), S(0)};
        u = {(reach - len) * n[0], (reach - len) * n[1], (reach - len) * n[2]};
    };
    if (dist2 > combined2) {
        const vec3s<S> w = axpy3(-inv_horizon, r, w0);
        const S w2 = dot3(w, w);
        const S d = dot3(w, r);
        if (d < S(0) && d * d > combined2 * w2) {
            toward(w, combined * inv_horizon);
        } else {  // the cone's side
            const S a = dist2, b = dot3(r, w0);
            const vec3s<S> rw = cross3(r, w0);
            const S c = dot3(w0, w0) - dot3(rw, rw) / (dist2 - combined2);
            const S t = (b + std::sqrt(std::max(b * b - a * c, S(0)))) / a;
            toward(axpy3(-t, r, w0), combined * t);
        }
    } else {
        toward(axpy3(-inv_dt, r, w0), combined * inv_dt);
    }
    half_space<S> h;
    h.normal = n;
    h.point = axpy3(share, u, vi);
    return h;
}

// Steps (1) to (3) of the top of this header in 3D; obstacles may be null.
template <class V, class Finder, class Executor>
void choose_velocities3d(const crowd_agents<V>& agents, const crowd_obstacles3<V>* obstacles,
                         const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws,
                         Executor&& executor) {
    using S = scalar_t<V>;
    const std::size_t n = agents.size();
    const span<const V> pos(agents.position.data(), n);
    const std::size_t k = cfg.max_neighbors;
    const std::size_t tasks = task_count(n, 256, executor);
    ws.prepare(n, tasks, k);
    ws.found.resize(n * k);  // every agent's nearest, kept for the projection
    ws.found_count.resize(n);
    const std::size_t extra = obstacles == nullptr ? 0 : obstacles->spheres().size() + obstacles->planes().size();
    for (auto& b : ws.tasks) {
        if (b.spaces.size() < k + extra) b.spaces.resize(k + extra);
        if (b.projected_spaces.size() < k + extra) b.projected_spaces.resize(k + extra);
    }
    finder.build(pos);
    const S inv_dt = S(1) / cfg.dt;
    auto v3 = [](const V& v) { return vec3s<S>{boids::get(v, 0), boids::get(v, 1), boids::get(v, 2)}; };
    executor(tasks, [&](std::size_t t) {
        const index_range range = task_range(n, t, tasks);
        typename crowd_workspace<V>::task_buffers& b = ws.tasks[t];
        for (std::size_t i = range.begin; i < range.end; ++i) {
            const V pref = agents.preferred_velocity[i];
            ws.found_count[i] = no_list;
            if (!boids::is_finite(pos[i]) || !boids::is_finite(agents.velocity[i]) || !boids::is_finite(pref)) {
                ws.new_velocity[i] = boids::zero<V>();
                continue;
            }
            const vec3s<S> pi = v3(pos[i]), vi = v3(agents.velocity[i]);
            const S ri = agents.radius_of(i), speed = agents.max_speed_of(i);
            std::size_t m = 0;
            if (obstacles != nullptr) {
                const S horizon = agents.time_horizon_obstacle_of(i, cfg.time_horizon_obstacle);
                const S inv_h = S(1) / horizon;
                for (const auto& sp : obstacles->spheres()) {  // a still agent that never gives way
                    const vec3s<S> r = sub3(v3(sp.centre), pi);
                    const S reach = horizon * speed + ri + sp.radius;
                    if (dot3(r, r) >= reach * reach) continue;
                    b.spaces[m++] = orca_half_space(r, vi, vec3s<S>{}, ri + sp.radius, S(1), inv_h, inv_dt, S(1));
                }
                for (const auto& pl : obstacles->planes()) {  // n . v >= -(gap) / horizon, or back out within a step
                    const vec3s<S> nrm = v3(pl.normal);
                    const S gap = dot3(sub3(pi, v3(pl.point)), nrm) - ri;
                    if (gap >= horizon * speed) continue;
                    const S least = gap > S(0) ? -gap * inv_h : -gap * inv_dt;
                    half_space<S> h;
                    h.normal = nrm;
                    h.point = {least * nrm[0], least * nrm[1], least * nrm[2]};
                    b.spaces[m++] = h;
                }
            }
            const std::size_t hard = m;
            if (k > 0) {
                k_nearest<S, 3> near(span<neighbor<S, 3>>(ws.found.data() + i * k, k), k);
                finder.nearest(i, near, cfg.neighbor_distance);
                ws.found_count[i] = static_cast<std::uint32_t>(near.result().size());
                const S inv_horizon = S(1) / agents.time_horizon_of(i, cfg.time_horizon);
                for (const neighbor<S, 3>& nb : near.result()) {
                    const std::size_t j = nb.index;
                    const V vj = agents.velocity[j];
                    if (!boids::is_finite(vj) || !boids::is_finite(pos[j])) continue;
                    const S combined = ri + agents.radius_of(j);
                    if (!(combined > S(0))) continue;
                    b.spaces[m++] =
                        orca_half_space(vec3s<S>{nb.offset[0], nb.offset[1], nb.offset[2]}, vi, v3(vj), combined,
                                        agents.share(i, j), inv_horizon, inv_dt, i < j ? S(1) : S(-1));
                }
            }
            const span<const half_space<S>> all(b.spaces.data(), m);
            vec3s<S> v{};
            const std::size_t failed = lp3d(all, speed, v3(pref), false, v);
            if (failed < m)
                lp3d_least_violation(all, failed, speed, v, span<half_space<S>>(b.projected_spaces.data(), m), hard);
            V chosen = traits_of<V>::make(v[0], v[1], v[2]);
            if (!boids::is_finite(chosen)) chosen = boids::zero<V>();
            ws.new_velocity[i] = boids::clamp_magnitude(chosen, speed);
        }
    });
}

// The step: every agent's new velocity, then crowd_finish: move, separate agents still
// overlapping, undo crossings.
template <class V, class Finder, class Executor>
void crowd_step3d(const crowd_agents<V>& agents, const crowd_obstacles3<V>* obstacles,
                  const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws, Executor&& executor) {
    BOIDS_ASSERT(cfg.validate(), "crowd_step: invalid crowd_config (call validate() for the reason)");
    if (!cfg.validate()) return;
    if (obstacles != nullptr && obstacles->empty()) obstacles = nullptr;
    choose_velocities3d(agents, obstacles, cfg, finder, ws, executor);
    crowd_finish(
        agents, cfg, ws, obstacles != nullptr,
        [&](std::size_t i) { return obstacles->push_out(agents.position[i], agents.radius_of(i)); },
        [&](std::size_t i) { return obstacles->crosses(ws.old_position[i], agents.position[i]); });
}

}  // namespace boids::detail

// boids/detail/crowd_orca2d.hpp - a crowd step in 2D (see crowd/orca.hpp): RVO2's
// half-planes from neighbours and obstacle edges, the 2D linear programs, then the
// shared last stages.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include "../crowd/agents.hpp"
#include "../crowd/linear_program.hpp"
#include "../crowd/obstacles.hpp"
#include "../executor.hpp"
#include "../neighbors/query.hpp"
#include "../span.hpp"
#include "../vector.hpp"
#include "crowd_orca_finish.hpp"

namespace boids::detail {

// The ORCA half-plane that agent i (at relative position 0, velocity vi) gets from a
// neighbour at relative position (rx, ry) with velocity (vjx, vjy), of combined
// radius `combined`, i's share `share`. `tie`: +1 or -1, a fixed side to step to when
// the two sit on one spot with one velocity (where the geometry names none).
template <class S>
half_plane<S> orca_half_plane(S rx, S ry, S vix, S viy, S vjx, S vjy, S combined, S share, S inv_horizon, S inv_dt,
                              S tie) noexcept {
    const S wx0 = vix - vjx, wy0 = viy - vjy;  // relative velocity
    const S dist2 = rx * rx + ry * ry;
    const S combined2 = combined * combined;
    half_plane<S> line;
    S ux, uy;
    auto cut_off = [&](S inv_t) {  // project on the cut-off circle of time 1 / inv_t
        S wx = wx0 - inv_t * rx, wy = wy0 - inv_t * ry;
        S wlen = std::sqrt(wx * wx + wy * wy);
        if (!(wlen > S(0))) {  // on one spot with one velocity: apart along a fixed side
            wx = tie;
            wy = S(0);
            wlen = S(0);
        }
        const S unit_x = wlen > S(0) ? wx / wlen : wx, unit_y = wlen > S(0) ? wy / wlen : wy;
        line.dx = unit_y;
        line.dy = -unit_x;
        ux = (combined * inv_t - wlen) * unit_x;
        uy = (combined * inv_t - wlen) * unit_y;
    };
    if (dist2 > combined2) {  // apart
        const S wx = wx0 - inv_horizon * rx, wy = wy0 - inv_horizon * ry;
        const S w2 = wx * wx + wy * wy;
        const S dot1 = wx * rx + wy * ry;
        if (dot1 < S(0) && dot1 * dot1 > combined2 * w2) {
            cut_off(inv_horizon);
        } else {  // project on a leg of the velocity obstacle
            const S leg = std::sqrt(dist2 - combined2);
            if (cross2(rx, ry, wx, wy) > S(0)) {  // the left leg
                line.dx = (rx * leg - ry * combined) / dist2;
                line.dy = (rx * combined + ry * leg) / dist2;
            } else {  // the right leg
                line.dx = -(rx * leg + ry * combined) / dist2;
                line.dy = -(-rx * combined + ry * leg) / dist2;
            }
            const S dot2 = wx0 * line.dx + wy0 * line.dy;
            ux = dot2 * line.dx - wx0;
            uy = dot2 * line.dy - wy0;
        }
    } else {  // already touching: apart within one step
        cut_off(inv_dt);
    }
    line.px = vix + share * ux;
    line.py = viy + share * uy;
    return line;
}

template <class V, class Finder, class Executor>
void crowd_step(const crowd_agents<V>& agents, const crowd_obstacles<V>* obstacles,
                const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws, Executor&& executor) {
    using S = scalar_t<V>;
    BOIDS_ASSERT(cfg.validate(), "crowd_step: invalid crowd_config (call validate() for the reason)");
    if (!cfg.validate()) return;
    if (obstacles != nullptr && obstacles->empty()) obstacles = nullptr;
    const std::size_t n = agents.size();
    const span<const V> pos(agents.position.data(), n);
    const std::size_t k = cfg.max_neighbors;
    const std::size_t tasks = task_count(n, 256, executor);
    ws.prepare(n, tasks, k);
    finder.build(pos);
    const S inv_dt = S(1) / cfg.dt;
    const S turn_cos = std::cos(cfg.pass_right), turn_sin = std::sin(cfg.pass_right);
    executor(tasks, [&](std::size_t t) {  // every agent chooses, in the old state
        const index_range range = task_range(n, t, tasks);
        typename crowd_workspace<V>::task_buffers& b = ws.tasks[t];
        k_nearest<S, 2> near(span<neighbor<S, 2>>(b.neighbors.data(), k), k);
        for (std::size_t i = range.begin; i < range.end; ++i) {
            const V vi = agents.velocity[i];
            const V pref = agents.preferred_velocity[i];
            if (!boids::is_finite(pos[i]) || !boids::is_finite(vi) || !boids::is_finite(pref)) {
                ws.new_velocity[i] = boids::zero<V>();  // not seen by others, and stays where it is
                continue;
            }
            const S px = boids::get(pos[i], 0), py = boids::get(pos[i], 1);
            const S vx = boids::get(vi, 0), vy = boids::get(vi, 1);
            const S ri = agents.radius_of(i);
            const S speed = agents.max_speed_of(i);
            std::size_t hard = 0;
            if (obstacles != nullptr) {
                const S horizon = agents.time_horizon_obstacle_of(i, cfg.time_horizon_obstacle);
                obstacles->near(px, py, horizon * speed + ri, b.edges);
                if (b.lines.size() < k + b.edges.size()) {
                    b.lines.resize(k + b.edges.size());
                    b.projected.resize(k + b.edges.size());
                }
                hard = obstacle_half_planes(obstacles->edges(), span<const std::pair<S, std::uint32_t>>(b.edges), px,
                                            py, vx, vy, ri, S(1) / horizon, span<half_plane<S>>(b.lines), 0);
            }
            std::size_t m = hard;
            S most_share = S(0);  // the largest share of giving way this agent takes
            if (k > 0) {
                finder.nearest(i, near, cfg.neighbor_distance);
                const S inv_horizon = S(1) / agents.time_horizon_of(i, cfg.time_horizon);
                for (const neighbor<S, 2>& nb : near.result()) {
                    const std::size_t j = nb.index;
                    const V vj = agents.velocity[j];
                    if (!boids::is_finite(vj) || !boids::is_finite(pos[j])) continue;
                    const S combined = ri + agents.radius_of(j);
                    if (!(combined > S(0))) continue;  // points do not collide
                    const S share = agents.share(i, j);
                    most_share = std::max(most_share, share);
                    b.lines[m++] =
                        orca_half_plane(nb.offset[0], nb.offset[1], vx, vy, boids::get(vj, 0), boids::get(vj, 1),
                                        combined, share, inv_horizon, inv_dt, i < j ? S(1) : S(-1));
                }
            }
            const span<const half_plane<S>> all(b.lines.data(), m);
            velocity2<S> v{};
            velocity2<S> aim{boids::get(pref, 0), boids::get(pref, 1)};
            if (m > hard && cfg.pass_right > S(0) && most_share > S(0)) {
                // The bias is for those who give way: full from an even share on, none
                // for an agent that gives way to nobody.
                const S f = std::min(S(1), S(2) * most_share);
                const S c = f == S(1) ? turn_cos : std::cos(f * cfg.pass_right);
                const S sn = f == S(1) ? turn_sin : std::sin(f * cfg.pass_right);
                aim = {aim.x * c + aim.y * sn, aim.y * c - aim.x * sn};
            }
            const std::size_t failed = linear_program2(all, speed, aim, false, v);
            if (failed < m) linear_program3(all, failed, speed, v, span<half_plane<S>>(b.projected.data(), m), hard);
            V chosen = traits_of<V>::make(v.x, v.y);
            if (!boids::is_finite(chosen)) chosen = boids::zero<V>();
            ws.new_velocity[i] = boids::clamp_magnitude(chosen, speed);  // rounding can leave it a hair beyond
        }
    });
    crowd_finish(
        agents, cfg, ws, obstacles != nullptr,
        [&](std::size_t i) {
            S x = boids::get(agents.position[i], 0), y = boids::get(agents.position[i], 1);
            if (!obstacles->push_out(x, y, agents.radius_of(i))) return false;
            agents.position[i] = traits_of<V>::make(x, y);
            return true;
        },
        [&](std::size_t i) {
            return obstacles->crosses(boids::get(ws.old_position[i], 0), boids::get(ws.old_position[i], 1),
                                      boids::get(agents.position[i], 0), boids::get(agents.position[i], 1));
        });
}

}  // namespace boids::detail

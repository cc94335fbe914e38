// boids/crowd/detail/orca2d.hpp - a crowd step in 2D (see crowd/orca.hpp): RVO2's
// half-planes from neighbours and obstacle edges, the 2D linear programs, then the
// shared last stages.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include "../agents.hpp"
#include "linear_program2d.hpp"
#include "../obstacles2d.hpp"
#include "obstacle_half_planes.hpp"
#include "../../executor.hpp"
#include "../../neighbors/query.hpp"
#include "../../span.hpp"
#include "../../vector.hpp"
#include "orca_finish.hpp"

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

// crowd_config::patience: which agents give way this step, from the old state alone
// (ws.giving_way), and each agent's new wait (ws.new_waiting). An agent is held up
// when it made less than 0.3 of its preferred speed toward where it wants to go.
template <class V, class Finder, class Executor>
void decide_giving_way(const crowd_agents<V>& agents, span<const scalar_t<V>> waiting,
                       const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws, std::size_t tasks,
                       Executor&& executor) {
    using S = scalar_t<V>;
    const std::size_t n = agents.size();
    const span<const V> pos(agents.position.data(), n);
    constexpr std::size_t slots = crowd_workspace<V>::ahead_slots;
    ws.new_waiting.resize(n);
    ws.giving_way.assign(n, 0);
    ws.aside.assign(n, boids::zero<V>());
    ws.ahead.assign(n * slots, std::uint32_t(0xFFFFFFFFu));
    // Whether j was held up, and its claim to go first.
    auto held_up = [&](std::size_t j, S& unit_x, S& unit_y, S& speed) {
        const V p = agents.preferred_velocity[j], v = agents.velocity[j];
        speed = boids::length(p);
        if (!(speed > S(0)) || !std::isfinite(speed) || !boids::is_finite(v) || !boids::is_finite(pos[j])) {
            speed = S(0);
            return false;
        }
        unit_x = boids::get(p, 0) / speed;
        unit_y = boids::get(p, 1) / speed;
        return boids::get(v, 0) * unit_x + boids::get(v, 1) * unit_y < S(0.3) * speed;
    };
    auto claim = [&](bool held, std::size_t j) { return held ? waiting[j] + cfg.dt : cfg.patience; };
    const std::size_t k = cfg.max_neighbors;
    executor(tasks, [&](std::size_t t) {
        const index_range range = task_range(n, t, tasks);
        for (std::size_t i = range.begin; i < range.end; ++i) {
            S ux = S(0), uy = S(0), speed = S(0);
            const bool held = held_up(i, ux, uy, speed);
            const S w = waiting[i];
            ws.new_waiting[i] = held && std::isfinite(w) ? w + cfg.dt : S(0);
            ws.found_count[i] = no_list;
            if (!boids::is_finite(pos[i])) continue;  // the second pass skips it too
            // The step's own query, kept in place for its second pass.
            k_nearest<S, 2> near(span<neighbor<S, 2>>(ws.found.data() + i * k, k), k);
            finder.nearest(i, near, cfg.neighbor_distance);
            const auto found = near.result();
            ws.found_count[i] = static_cast<std::uint32_t>(found.size());
            const S ri = agents.radius_of(i);
            const S mine = claim(held, i);
            S longest = S(-1);  // the longest wait of those i steps aside for so far
            std::size_t kept = 0;
            for (const neighbor<S, 2>& nb : found) {
                const std::size_t j = nb.index;
                const S rj = agents.radius_of(j), reach = ri + rj + ri;
                if (!(nb.distance_squared > S(0)) || nb.distance_squared > reach * reach) continue;
                S jx = S(0), jy = S(0), js = S(0);
                const bool other_held = held_up(j, jx, jy, js);
                if (!(js > S(0))) continue;
                // Wanting to go nowhere much (under half j's speed) and standing in the path of j,
                // held up for `patience` or longer: step out of that path, square to it, on the
                // side i stands (the longest wait first; found is nearest first, so a tie keeps
                // the nearer). i's own aim brings it back once j is past.
                if (other_held && waiting[j] >= cfg.patience && speed < S(0.5) * js && waiting[j] > longest) {
                    const S ox = -nb.offset[0], oy = -nb.offset[1];  // from j to i
                    const S across = jx * oy - jy * ox;              // > 0: i stands left of j's path
                    if (ox * jx + oy * jy > S(0) && std::fabs(across) < ri + rj) {
                        longest = waiting[j];
                        const S side = across > S(0) ? js : -js;
                        ws.aside[i] = traits_of<V>::make(-jy * side, jx * side);
                    }
                }
                if (!(speed > S(0))) continue;  // wants to go nowhere: gives way to nobody
                const S d = std::sqrt(nb.distance_squared);
                const S in_front = (nb.offset[0] * ux + nb.offset[1] * uy) / d;
                if (!(in_front > S(0.5))) continue;
                const S along = jx * ux + jy * uy;
                if (along > S(0) && kept < slots) ws.ahead[i * slots + kept++] = static_cast<std::uint32_t>(j);
                // Against it, or held up across its way (streams crossing), and wanting nearly its
                // speed: one slowing to a stop at its goal is not given way to.
                const bool against = js >= S(0.95) * speed && (along < S(-0.5) || (other_held && along < S(0.3)));
                if (held && against) {
                    const S theirs = claim(other_held, j);
                    if (theirs > mine || (theirs == mine && j < i)) ws.giving_way[i] = 1;
                }
            }
        }
    });
    // Those close behind an agent giving way give way too, eight agents deep (a pass
    // that adds nobody ends it; none giving way, none to follow).
    if (std::find(ws.giving_way.begin(), ws.giving_way.end(), 1) == ws.giving_way.end()) return;
    ws.giving_way_next.resize(n);
    for (int depth = 0; depth < 8; ++depth) {
        bool added = false;
        for (std::size_t i = 0; i < n; ++i) {
            unsigned char g = ws.giving_way[i];
            for (std::size_t s = 0; s < slots && g == 0; ++s) {
                const std::uint32_t j = ws.ahead[i * slots + s];
                if (j != 0xFFFFFFFFu && ws.giving_way[j] != 0) g = 1;
            }
            added |= g != ws.giving_way[i];
            ws.giving_way_next[i] = g;
        }
        ws.giving_way.swap(ws.giving_way_next);
        if (!added) break;
    }
}

// The half-planes agent i's velocity must keep to (b.lines): the obstacle edges near
// it first (`hard`, never violated), then one per neighbour, where agent i takes its
// share of avoiding j (the whole share, or none, where one of them gives way).
// Returns the count; `hard` and `most_share` (the largest share i takes) come back.
// Its neighbours: ws.found's list, made here unless giving way made it.
template <class V, class Finder>
std::size_t half_planes_of(std::size_t i, const crowd_agents<V>& agents, const crowd_obstacles2<V>* obstacles,
                           const crowd_config<scalar_t<V>>& cfg, const Finder& finder, crowd_workspace<V>& ws,
                           typename crowd_workspace<V>::task_buffers& b, bool give_way, std::size_t& hard,
                           scalar_t<V>& most_share) {
    using S = scalar_t<V>;
    const std::size_t k = cfg.max_neighbors;
    const V pi_ = agents.position[i], vi = agents.velocity[i];
    const S px = boids::get(pi_, 0), py = boids::get(pi_, 1), vx = boids::get(vi, 0), vy = boids::get(vi, 1);
    const S ri = agents.radius_of(i), speed = agents.max_speed_of(i);
    hard = 0;
    if (obstacles != nullptr) {
        const S horizon = agents.time_horizon_obstacle_of(i, cfg.time_horizon_obstacle);
        obstacles->near(px, py, horizon * speed + ri, b.edges);
        if (b.lines.size() < k + b.edges.size()) {
            b.lines.resize(k + b.edges.size());
            b.projected.resize(k + b.edges.size());
        }
        hard = obstacle_half_planes(obstacles->edges(), span<const std::pair<S, std::uint32_t>>(b.edges), px, py, vx,
                                    vy, ri, S(1) / horizon, span<half_plane<S>>(b.lines), 0);
    }
    std::size_t m = hard;
    most_share = S(0);
    if (k == 0) return m;
    if (!give_way) {
        k_nearest<S, 2> near(span<neighbor<S, 2>>(ws.found.data() + i * k, k), k);
        finder.nearest(i, near, cfg.neighbor_distance);
        ws.found_count[i] = static_cast<std::uint32_t>(near.result().size());
    }
    const span<const neighbor<S, 2>> found(ws.found.data() + i * k, ws.found_count[i]);
    const S inv_horizon = S(1) / agents.time_horizon_of(i, cfg.time_horizon);
    for (const neighbor<S, 2>& nb : found) {
        const std::size_t j = nb.index;
        const V vj = agents.velocity[j];
        if (!boids::is_finite(vj) || !boids::is_finite(agents.position[j])) continue;
        const S combined = ri + agents.radius_of(j);
        if (!(combined > S(0))) continue;  // points do not collide
        S share = agents.share(i, j);
        if (give_way && ws.giving_way[i] != ws.giving_way[j]) share = ws.giving_way[i] ? S(1) : S(0);
        most_share = std::max(most_share, share);
        b.lines[m++] = orca_half_plane(nb.offset[0], nb.offset[1], vx, vy, boids::get(vj, 0), boids::get(vj, 1),
                                       combined, share, inv_horizon, S(1) / cfg.dt, i < j ? S(1) : S(-1));
    }
    return m;
}

// What agent i aims at: its preferred velocity; back and to its right while it gives
// way; turned toward its right by pass_right (in full from an even share on) where
// it takes a share of avoiding others. full_turn: pass_right's cosine and sine, once a step.
template <class S>
velocity2<S> aim_of(velocity2<S> pref, bool giving_way, S most_share, bool has_neighbours, const crowd_config<S>& cfg,
                    velocity2<S> full_turn) noexcept {
    if (giving_way) return {S(0.5) * (pref.y - pref.x), S(-0.5) * (pref.x + pref.y)};
    if (!(has_neighbours && cfg.pass_right > S(0) && most_share > S(0))) return pref;
    const S f = std::min(S(1), S(2) * most_share);
    const S c = f == S(1) ? full_turn.x : std::cos(f * cfg.pass_right);
    const S sn = f == S(1) ? full_turn.y : std::sin(f * cfg.pass_right);
    return {pref.x * c + pref.y * sn, pref.y * c - pref.x * sn};
}

// Every agent chooses its new velocity (ws.new_velocity), all in the old state: the
// velocity nearest its aim within every half-plane and its top speed, or the one
// that violates the worst agent half-plane least while keeping every hard one.
template <class V, class Finder, class Executor>
void choose_velocities2d(const crowd_agents<V>& agents, const crowd_obstacles2<V>* obstacles,
                         const crowd_config<scalar_t<V>>& cfg, const Finder& finder, crowd_workspace<V>& ws,
                         bool give_way, std::size_t tasks, Executor& executor) {
    using S = scalar_t<V>;
    const std::size_t n = agents.size();
    const velocity2<S> full_turn{std::cos(cfg.pass_right), std::sin(cfg.pass_right)};
    executor(tasks, [&](std::size_t t) {
        const index_range range = task_range(n, t, tasks);
        typename crowd_workspace<V>::task_buffers& b = ws.tasks[t];
        for (std::size_t i = range.begin; i < range.end; ++i) {
            const V pref = agents.preferred_velocity[i];
            if (!boids::is_finite(agents.position[i]) || !boids::is_finite(agents.velocity[i]) ||
                !boids::is_finite(pref)) {
                ws.new_velocity[i] = boids::zero<V>();  // not seen by others, and stays where it is
                if (!give_way) ws.found_count[i] = no_list;
                continue;
            }
            std::size_t hard = 0;
            S most_share = S(0);
            const std::size_t m = half_planes_of(i, agents, obstacles, cfg, finder, ws, b, give_way, hard, most_share);
            const span<const half_plane<S>> all(b.lines.data(), m);
            // Stepping aside comes before giving way: one at rest that gives way by a share moves nobody.
            const bool aside = give_way && !boids::is_zero(ws.aside[i]);
            const V wanted = aside ? ws.aside[i] : pref;
            const velocity2<S> aim =
                aim_of(velocity2<S>{boids::get(wanted, 0), boids::get(wanted, 1)},
                       give_way && ws.giving_way[i] && !aside, most_share, m > hard, cfg, full_turn);
            const S speed = agents.max_speed_of(i);
            velocity2<S> v{};
            const std::size_t failed = linear_program2(all, speed, aim, false, v);
            if (failed < m) linear_program3(all, failed, speed, v, span<half_plane<S>>(b.projected.data(), m), hard);
            V chosen = traits_of<V>::make(v.x, v.y);
            if (!boids::is_finite(chosen)) chosen = boids::zero<V>();
            ws.new_velocity[i] = boids::clamp_magnitude(chosen, speed);  // rounding can leave it a hair beyond
        }
    });
}

// The step: who gives way (decided in the old state), every agent's new velocity,
// then crowd_finish: move, separate agents still overlapping, undo crossings.
template <class V, class Finder, class Executor>
void crowd_step2d(const crowd_agents<V>& agents, const crowd_obstacles2<V>* obstacles,
                  const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws, Executor&& executor) {
    using S = scalar_t<V>;
    BOIDS_ASSERT(cfg.validate(), "crowd_step: invalid crowd_config (call validate() for the reason)");
    if (!cfg.validate()) return;
    if (obstacles != nullptr && obstacles->empty()) obstacles = nullptr;
    const std::size_t n = agents.size(), tasks = task_count(n, 256, executor);
    ws.prepare(n, tasks, cfg.max_neighbors);
    ws.found.resize(n * cfg.max_neighbors);  // every agent's nearest, for the whole step
    ws.found_count.resize(n);
    finder.build(span<const V>(agents.position.data(), n));
    const bool give_way = cfg.patience > S(0) && cfg.max_neighbors > 0;
    span<S> waiting = agents.waiting;
    if (give_way) {
        if (waiting.size() < n) {
            if (ws.waiting.size() != n) ws.waiting.assign(n, S(0));
            waiting = span<S>(ws.waiting);
        }
        decide_giving_way(agents, span<const S>(waiting.data(), n), cfg, finder, ws, tasks, executor);
    }
    choose_velocities2d(agents, obstacles, cfg, finder, ws, give_way, tasks, executor);
    ws.last_giving_way = 0;
    for (std::size_t i = 0; give_way && i < n; ++i) {
        waiting[i] = ws.new_waiting[i];
        ws.last_giving_way += ws.giving_way[i];
    }
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

// boids/crowd/orca.hpp - reciprocal collision avoidance for crowds (ORCA, as in
// RVO2 and, in 3D, RVO2-3D), over the user's arrays and the library's finders,
// followed by a projection that removes whatever overlap the velocities could not
// prevent. 2D agents avoid polygons (crowd/obstacles.hpp), 3D agents spheres and
// planes (crowd/obstacles3d.hpp).
//
// Each step: (1) the finder is built on the positions and every agent finds its
// max_neighbors nearest within neighbor_distance, and the obstacle edges within reach,
// in the old state; (2) each edge makes a half-plane of velocities that keeps the agent
// off it for time_horizon_obstacle seconds, and each neighbour j one that keeps i and j
// apart for time_horizon seconds, of which i takes the share responsibility_i /
// (responsibility_i + responsibility_j) (0.5 each by default: RVO2's reciprocity);
// (3) the new velocity is the one nearest the preferred velocity that satisfies every
// half-plane within max_speed, or, when none does, the one that violates the worst
// agent half-plane least while keeping the obstacles'; (4) every agent moves,
// x += v dt; (5) agents still closer than the sum of their radii, or than their radius
// to an edge, are pushed apart along the line between them, split by the same shares,
// pass after pass, until none overlaps by more than overlap_tolerance; (6) an agent
// whose move crossed an obstacle edge, and the agents of a jam the passes could not
// loosen, go back to where they stood. (1) to (3) are spread over the executor's
// threads; (4) to (6) run in index order. The same bits for any thread count.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>
#include "../executor.hpp"
#include "../neighbors/query.hpp"
#include "../span.hpp"
#include "../vector.hpp"
#include "../detail/crowd_contacts.hpp"
#include "linear_program.hpp"
#include "linear_program3d.hpp"
#include "obstacles.hpp"
#include "obstacles3d.hpp"

namespace boids {

template <class S>
struct crowd_config {
    S dt = S(0.25);                   // s
    S neighbor_distance = S(15);      // length: agents farther than this are not avoided
    std::size_t max_neighbors = 10;   // the nearest this many are avoided
    S time_horizon = S(10);           // s: how far ahead collisions with agents are avoided
    S time_horizon_obstacle = S(10);  // s: the same for obstacles
    // Residual overlap the projection leaves, as a fraction of the pair's mean radius.
    S overlap_tolerance = S(1e-4);
    std::size_t projection_passes = 8;  // at most
    // Radians: an agent with neighbours aims this much to the right of its preferred
    // velocity, so that symmetric encounters (head-on, a circle of agents swapping
    // sides) turn into passing on the right instead of a standstill; less for an agent
    // whose shares are all under 0.5, none for one that gives way to nobody. 0: RVO2's
    // aim. 2D only: in 3D there is no one "right".
    S pass_right = S(0.1);

    [[nodiscard]] validation validate() const noexcept {
        if (!(std::isfinite(dt) && dt > 0)) return detail::fail("dt", "must be finite and > 0");
        if (!(std::isfinite(neighbor_distance) && neighbor_distance >= 0))
            return detail::fail("neighbor_distance", "must be finite and >= 0");
        if (!(std::isfinite(time_horizon) && time_horizon > 0))
            return detail::fail("time_horizon", "must be finite and > 0");
        if (!(std::isfinite(time_horizon_obstacle) && time_horizon_obstacle > 0))
            return detail::fail("time_horizon_obstacle", "must be finite and > 0");
        if (!(std::isfinite(overlap_tolerance) && overlap_tolerance >= 0 && overlap_tolerance < 1))
            return detail::fail("overlap_tolerance", "must be in [0, 1)");
        if (!(std::isfinite(pass_right) && pass_right >= 0 && pass_right < S(1.5)))
            return detail::fail("pass_right", "must be in [0, 1.5) radians");
        return {};
    }
};

// The crowd's arrays, one entry per agent (the caller owns them all). The step writes
// positions and velocities; radius, max_speed and responsibility may be empty (every
// agent 0.5, 2 and 0.5) or hold one entry for all; so may the time horizons (empty:
// the config's).
template <class V>
struct crowd_agents {
    using S = scalar_t<V>;
    span<V> position;
    span<V> velocity;
    span<const V> preferred_velocity;  // where each wants to go, length / s
    span<const S> radius;              // length, >= 0
    span<const S> max_speed;           // length / s, >= 0
    span<const S> responsibility;      // [0, 1]: how readily it gives way (0: never, if the other does)
    span<const S> time_horizon;        // s, > 0: per agent, in place of crowd_config's
    span<const S> time_horizon_obstacle;

    [[nodiscard]] std::size_t size() const noexcept {
        return std::min(std::min(position.size(), velocity.size()), preferred_velocity.size());
    }
    [[nodiscard]] S radius_of(std::size_t i) const noexcept { return pick(radius, i, S(0.5)); }
    [[nodiscard]] S max_speed_of(std::size_t i) const noexcept { return pick(max_speed, i, S(2)); }
    [[nodiscard]] S responsibility_of(std::size_t i) const noexcept { return pick(responsibility, i, S(0.5)); }
    [[nodiscard]] S time_horizon_of(std::size_t i, S fallback) const noexcept {
        return positive(time_horizon, i, fallback);
    }
    [[nodiscard]] S time_horizon_obstacle_of(std::size_t i, S fallback) const noexcept {
        return positive(time_horizon_obstacle, i, fallback);
    }
    // The share of avoiding each other that agent i takes against j.
    [[nodiscard]] S share(std::size_t i, std::size_t j) const noexcept {
        const S a = responsibility_of(i), b = responsibility_of(j);
        return a + b > S(0) ? a / (a + b) : S(0.5);
    }

private:
    static S pick(span<const S> a, std::size_t i, S fallback) noexcept {
        if (a.empty()) return fallback;
        const S x = a[a.size() == 1 ? 0 : std::min(i, a.size() - 1)];
        return std::isfinite(x) && x >= S(0) ? x : fallback;
    }
    static S positive(span<const S> a, std::size_t i, S fallback) noexcept {
        const S x = pick(a, i, fallback);
        return x > S(0) ? x : fallback;
    }
};

// What crowd_step keeps between steps (no allocation once it has held the crowd).
template <class V>
struct crowd_workspace {
    using S = scalar_t<V>;
    struct task_buffers {  // one per task of the executor
        std::vector<neighbor<S, dimension_v<V>>> neighbors;
        std::vector<half_plane<S>> lines, projected;          // 2D
        std::vector<half_space<S>> spaces, projected_spaces;  // 3D
        std::vector<std::pair<S, std::uint32_t>> edges;
    };
    std::vector<V> new_velocity;
    std::vector<task_buffers> tasks;
    std::vector<V> old_position;  // where each agent stood before the move
    std::vector<unsigned char> reverted;
    detail::contact_list<V> contacts;  // pairs near contact, for the projection
    std::size_t last_passes = 0;       // projection passes the last step used
    std::size_t last_overlaps = 0;     // overlapping pairs the last step's projection met first
    std::size_t last_reverted = 0;     // agents the last step sent back to where they stood

    void prepare(std::size_t n, std::size_t task_count, std::size_t k) {
        if (new_velocity.size() != n) new_velocity.resize(n);
        if (old_position.size() != n) old_position.resize(n);
        reverted.assign(n, 0);
        if (tasks.size() < task_count) tasks.resize(task_count);
        for (task_buffers& b : tasks) {
            if (b.neighbors.size() < k) b.neighbors.resize(k);
            if (b.lines.size() < k) b.lines.resize(k);
            if (b.projected.size() < k) b.projected.resize(k);
        }
    }
};

namespace detail {

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

}  // namespace detail

namespace detail {

// Steps (4) to (6), in index order, for any dimension: every agent moves with its new
// velocity (ws.new_velocity), then overlap is pushed out and agents whose move crossed
// an obstacle, or who stay jammed, go back. push_out(i): moves agent i off the
// obstacles, true if it moved; crosses(i): whether i's move from ws.old_position[i]
// crossed one.
template <class V, class PushOut, class Crosses>
void crowd_finish(const crowd_agents<V>& agents, const crowd_config<scalar_t<V>>& cfg, crowd_workspace<V>& ws,
                  bool any_obstacles, PushOut&& push_out, Crosses&& crosses) {
    using S = scalar_t<V>;
    const std::size_t n = agents.size();
    const span<const V> pos(agents.position.data(), n);
    const S inv_dt = S(1) / cfg.dt;
    for (std::size_t i = 0; i < n; ++i) {  // then every agent moves
        ws.old_position[i] = agents.position[i];
        agents.velocity[i] = ws.new_velocity[i];
        if (boids::is_finite(agents.position[i]))
            agents.position[i] = boids::add_scaled(agents.position[i], agents.velocity[i], cfg.dt);
    }
    ws.last_overlaps = 0;
    ws.last_passes = 0;
    ws.last_reverted = 0;
    S widest = S(0);
    for (std::size_t i = 0; i < n; ++i) widest = std::max(widest, agents.radius_of(i));
    if (!(widest > S(0)) && !any_obstacles) return;
    auto radius_of = [&](std::size_t i) { return agents.radius_of(i); };
    const S slack = S(0.5) * cfg.overlap_tolerance;
    // Then overlap is pushed out, pair by pair in index order, each pair apart to the
    // sum of radii and the tolerance more, split by the shares; agents out of walls.
    bool clear = !(widest > S(0));
    bool moved_any = false;
    if (!clear) {
        ws.contacts.make(pos, widest, radius_of);
        for (std::size_t pass = 0; pass < cfg.projection_passes; ++pass) {
            if (pass > 0 && !ws.contacts.still_exact(pos)) ws.contacts.make(pos, widest, radius_of);
            std::size_t pushes = ws.contacts.for_each_overlap(
                pos, slack, [&](std::size_t i, std::size_t j, const V& unit, S dist, S combined) {
                    const S gap = combined * (S(1) + cfg.overlap_tolerance) - dist;
                    const S si = agents.share(i, j);
                    agents.position[i] = boids::add_scaled(agents.position[i], unit, -gap * si);
                    agents.position[j] = boids::add_scaled(agents.position[j], unit, gap * (S(1) - si));
                });
            if (pass == 0) ws.last_overlaps = pushes;
            if (any_obstacles)
                for (std::size_t i = 0; i < n; ++i)
                    if (boids::is_finite(pos[i]) && push_out(i)) ++pushes;
            if (pushes == 0) {
                clear = true;
                break;
            }
            moved_any = true;
            ws.last_passes = pass + 1;
        }
    }
    // An agent whose move crossed an obstacle edge, and the agents of a jam the passes
    // could not loosen, go back to where they stood (which crossed and overlapped
    // nothing) and wait (velocity zero), until none is left.
    auto revert = [&](std::size_t a) {
        if (ws.reverted[a] != 0) return false;
        ws.reverted[a] = 1;
        agents.position[a] = ws.old_position[a];
        agents.velocity[a] = boids::zero<V>();
        ++ws.last_reverted;
        return true;
    };
    for (std::size_t round = 0; round <= n; ++round) {
        std::size_t newly = 0;
        if (any_obstacles)
            for (std::size_t i = 0; i < n; ++i) {
                if (ws.reverted[i] != 0 || !boids::is_finite(pos[i]) || !boids::is_finite(ws.old_position[i])) continue;
                if (crosses(i) && revert(i)) ++newly;
            }
        if (round > 0 || newly > 0 || !clear) {
            if (!(widest > S(0))) break;
            ws.contacts.make(pos, widest, radius_of);
            ws.contacts.for_each_overlap(pos, slack, [&](std::size_t i, std::size_t j, const V&, S, S) {
                if (revert(i)) ++newly;
                if (revert(j)) ++newly;
            });
        }
        if (newly == 0) break;
    }
    if (!moved_any) return;
    for (std::size_t i = 0; i < n; ++i) {  // the velocity an agent pushed aside really had
        if (ws.reverted[i] != 0 || !boids::is_finite(pos[i]) || !boids::is_finite(ws.old_position[i])) continue;
        const V moved = boids::scale(boids::sub(agents.position[i], ws.old_position[i]), inv_dt);
        agents.velocity[i] = boids::clamp_magnitude(moved, agents.max_speed_of(i));
    }
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
void crowd_choose3(const crowd_agents<V>& agents, const crowd_obstacles3<V>* obstacles,
                   const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws, Executor&& executor) {
    using S = scalar_t<V>;
    const std::size_t n = agents.size();
    const span<const V> pos(agents.position.data(), n);
    const std::size_t k = cfg.max_neighbors;
    const std::size_t tasks = task_count(n, 256, executor);
    ws.prepare(n, tasks, k);
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
        k_nearest<S, 3> near(span<neighbor<S, 3>>(b.neighbors.data(), k), k);
        for (std::size_t i = range.begin; i < range.end; ++i) {
            const V pref = agents.preferred_velocity[i];
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
                finder.nearest(i, near, cfg.neighbor_distance);
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

template <class V, class Finder, class Executor>
void crowd_step3(const crowd_agents<V>& agents, const crowd_obstacles3<V>* obstacles,
                 const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws, Executor&& executor) {
    BOIDS_ASSERT(cfg.validate(), "crowd_step: invalid crowd_config (call validate() for the reason)");
    if (!cfg.validate()) return;
    if (obstacles != nullptr && obstacles->empty()) obstacles = nullptr;
    crowd_choose3(agents, obstacles, cfg, finder, ws, executor);
    crowd_finish(
        agents, cfg, ws, obstacles != nullptr,
        [&](std::size_t i) { return obstacles->push_out(agents.position[i], agents.radius_of(i)); },
        [&](std::size_t i) { return obstacles->crosses(ws.old_position[i], agents.position[i]); });
}

}  // namespace detail

// One step of the crowd (see the top of this header). `finder`: any finder of the
// library over an open world (uniform_grid, hashed_grid, all_pairs, auto_finder); its
// cell size about neighbor_distance. Invalid configurations (see validate()) step
// nothing where asserts are off.
template <class V, class Finder, class Executor = sequential>
void crowd_step(const crowd_agents<V>& agents, const crowd_config<scalar_t<V>>& cfg, Finder& finder,
                crowd_workspace<V>& ws, Executor&& executor = {}) {
    static_assert(dimension_v<V> == 2 || dimension_v<V> == 3, "crowd_step: 2D or 3D agents");
    if constexpr (dimension_v<V> == 2)
        detail::crowd_step(agents, static_cast<const crowd_obstacles<V>*>(nullptr), cfg, finder, ws, executor);
    else detail::crowd_step3(agents, static_cast<const crowd_obstacles3<V>*>(nullptr), cfg, finder, ws, executor);
}

// The same among static obstacles (crowd/obstacles.hpp): no agent's centre crosses an
// edge, and agents keep off them as RVO2's do.
template <class V, class Finder, class Executor = sequential>
void crowd_step(const crowd_agents<V>& agents, const crowd_obstacles<V>& obstacles,
                const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws,
                Executor&& executor = {}) {
    detail::crowd_step(agents, &obstacles, cfg, finder, ws, executor);
}

// The same in 3D among spheres and planes (crowd/obstacles3d.hpp).
template <class V, class Finder, class Executor = sequential>
void crowd_step(const crowd_agents<V>& agents, const crowd_obstacles3<V>& obstacles,
                const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws,
                Executor&& executor = {}) {
    detail::crowd_step3(agents, &obstacles, cfg, finder, ws, executor);
}

}  // namespace boids

// boids/crowd/detail/orca_finish.hpp - the last stages of a crowd step, the same in 2D and
// 3D: the move, the projection that pushes overlap apart, and the agents sent back.
#pragma once
#include <algorithm>
#include <cstddef>
#include "../agents.hpp"
#include "../../span.hpp"
#include "../../vector.hpp"

namespace boids::detail {

// Every agent takes its new velocity (ws.new_velocity) and moves with it; where it
// stood is kept in ws.old_position.
template <class V>
void move_agents(const crowd_agents<V>& agents, scalar_t<V> dt, crowd_workspace<V>& ws) {
    for (std::size_t i = 0; i < agents.size(); ++i) {
        ws.old_position[i] = agents.position[i];
        agents.velocity[i] = ws.new_velocity[i];
        if (boids::is_finite(agents.position[i]))
            agents.position[i] = boids::add_scaled(agents.position[i], agents.velocity[i], dt);
    }
}

// Overlap pushed out, pair by pair in index order, each pair apart to the sum of radii
// and the tolerance more, split by the shares, and agents out of walls (push_out(i):
// true if it moved i), for up to cfg.projection_passes passes. Returns whether it ended
// clear; `moved` tells whether any pass moved an agent.
template <class V, class RadiusOf, class Near, class PushOut>
[[nodiscard]] bool separate_agents(const crowd_agents<V>& agents, const crowd_config<scalar_t<V>>& cfg,
                                   crowd_workspace<V>& ws, scalar_t<V> widest, RadiusOf&& radius_of, Near& near,
                                   bool any_obstacles, PushOut&& push_out, bool& moved) {
    using S = scalar_t<V>;
    const std::size_t n = agents.size();
    const span<const V> pos(agents.position.data(), n);
    const S slack = S(0.5) * cfg.overlap_tolerance;
    moved = false;
    if (!(widest > S(0))) return true;
    ws.contacts.make(pos, widest, radius_of, near);
    for (std::size_t pass = 0; pass < cfg.projection_passes; ++pass) {
        if (pass > 0 && !ws.contacts.still_exact(pos)) ws.contacts.make(pos, widest, radius_of, near);
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
        if (pushes == 0) return true;
        moved = true;
        ws.last_passes = pass + 1;
    }
    return false;
}

// An agent whose move crossed an obstacle edge (crosses(i)), and the agents of a jam the
// passes could not loosen, go back to where they stood (which crossed and overlapped
// nothing) and wait (velocity zero), until none is left.
template <class V, class RadiusOf, class Near, class Crosses>
void undo_crossings(const crowd_agents<V>& agents, const crowd_config<scalar_t<V>>& cfg, crowd_workspace<V>& ws,
                    scalar_t<V> widest, RadiusOf&& radius_of, Near& near, bool any_obstacles, bool clear,
                    Crosses&& crosses) {
    using S = scalar_t<V>;
    const std::size_t n = agents.size();
    const span<const V> pos(agents.position.data(), n);
    const S slack = S(0.5) * cfg.overlap_tolerance;
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
            ws.contacts.make(pos, widest, radius_of, near);
            ws.contacts.for_each_overlap(pos, slack, [&](std::size_t i, std::size_t j, const V&, S, S) {
                if (revert(i)) ++newly;
                if (revert(j)) ++newly;
            });
        }
        if (newly == 0) break;
    }
}

// The velocity an agent pushed aside really had: its move over the step, within its
// top speed (agents sent back keep zero).
template <class V>
void velocities_from_moves(const crowd_agents<V>& agents, scalar_t<V> dt, crowd_workspace<V>& ws) {
    using S = scalar_t<V>;
    const S inv_dt = S(1) / dt;
    for (std::size_t i = 0; i < agents.size(); ++i) {
        const V& p = agents.position[i];
        if (ws.reverted[i] != 0 || !boids::is_finite(p) || !boids::is_finite(ws.old_position[i])) continue;
        const V moved = boids::scale(boids::sub(p, ws.old_position[i]), inv_dt);
        agents.velocity[i] = boids::clamp_magnitude(moved, agents.max_speed_of(i));
    }
}

// Steps (4) to (6), in index order, for any dimension: move, separate, undo crossings.
// push_out(i): moves agent i off the obstacles, true if it moved; crosses(i): whether
// i's move from ws.old_position[i] crossed one. ws.found holds the step's lists of
// every agent's nearest (no_list where it has none), which name the candidates for
// contact.
template <class V, class PushOut, class Crosses>
void crowd_finish(const crowd_agents<V>& agents, const crowd_config<scalar_t<V>>& cfg, crowd_workspace<V>& ws,
                  bool any_obstacles, PushOut&& push_out, Crosses&& crosses) {
    using S = scalar_t<V>;
    move_agents(agents, cfg.dt, ws);
    ws.last_overlaps = 0;
    ws.last_passes = 0;
    ws.last_reverted = 0;
    S widest = S(0);
    for (std::size_t i = 0; i < agents.size(); ++i) widest = std::max(widest, agents.radius_of(i));
    if (!(widest > S(0)) && !any_obstacles) return;
    auto radius_of = [&](std::size_t i) { return agents.radius_of(i); };
    const std::size_t n = agents.size(), k = cfg.max_neighbors;
    listed_neighbours<V> near{
        {ws.found.data(), n * k}, {ws.found_count.data(), n}, k, cfg.neighbor_distance, {ws.old_position.data(), n}};
    bool moved = false;
    const bool clear = separate_agents(agents, cfg, ws, widest, radius_of, near, any_obstacles, push_out, moved);
    undo_crossings(agents, cfg, ws, widest, radius_of, near, any_obstacles, clear, crosses);
    if (moved) velocities_from_moves(agents, cfg.dt, ws);
}

}  // namespace boids::detail

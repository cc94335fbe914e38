// boids/crowd/detail/orca_finish.hpp - the last stages of a crowd step, the same in 2D and
// 3D: the move, the projection that pushes overlap apart, and the agents sent back.
#pragma once
#include <algorithm>
#include <cstddef>
#include "../agents.hpp"
#include "../../span.hpp"
#include "../../vector.hpp"

namespace boids::detail {

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

}  // namespace boids::detail

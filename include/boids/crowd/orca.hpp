// boids/crowd/orca.hpp - reciprocal collision avoidance for crowds (ORCA, as in
// RVO2 and, in 3D, RVO2-3D), over the user's arrays and the library's finders,
// followed by a projection that removes whatever overlap the velocities could not
// prevent. 2D agents avoid polygons (crowd/obstacles2d.hpp), 3D agents spheres and
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
#include "../executor.hpp"
#include "../vector.hpp"
#include "agents.hpp"
#include "obstacles2d.hpp"
#include "obstacles3d.hpp"
#include "detail/orca2d.hpp"
#include "detail/orca3d.hpp"

namespace boids {

// One step of the crowd (see the top of this header). `finder`: any finder of the
// library over an open world (uniform_grid, hashed_grid, all_pairs, auto_finder); its
// cell size about neighbor_distance. Invalid configurations (see validate()) step
// nothing where asserts are off.
template <class V, class Finder, class Executor = sequential>
void crowd_step(const crowd_agents<V>& agents, const crowd_config<scalar_t<V>>& cfg, Finder& finder,
                crowd_workspace<V>& ws, Executor&& executor = {}) {
    static_assert(dimension_v<V> == 2 || dimension_v<V> == 3, "crowd_step: 2D or 3D agents");
    if constexpr (dimension_v<V> == 2)
        detail::crowd_step2d(agents, static_cast<const crowd_obstacles2<V>*>(nullptr), cfg, finder, ws, executor);
    else detail::crowd_step3d(agents, static_cast<const crowd_obstacles3<V>*>(nullptr), cfg, finder, ws, executor);
}

// The same among static obstacles (crowd/obstacles2d.hpp): no agent's centre crosses an
// edge, and agents keep off them as RVO2's do.
template <class V, class Finder, class Executor = sequential>
void crowd_step(const crowd_agents<V>& agents, const crowd_obstacles2<V>& obstacles,
                const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws,
                Executor&& executor = {}) {
    detail::crowd_step2d(agents, &obstacles, cfg, finder, ws, executor);
}

// The same in 3D among spheres and planes (crowd/obstacles3d.hpp).
template <class V, class Finder, class Executor = sequential>
void crowd_step(const crowd_agents<V>& agents, const crowd_obstacles3<V>& obstacles,
                const crowd_config<scalar_t<V>>& cfg, Finder& finder, crowd_workspace<V>& ws,
                Executor&& executor = {}) {
    detail::crowd_step3d(agents, &obstacles, cfg, finder, ws, executor);
}

}  // namespace boids

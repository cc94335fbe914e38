// boids/behaviors/group.hpp - agents among agents: queueing, following a leader,
// and avoiding collisions with agents that are not flying alongside.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include "../agent.hpp"
#include "../flock/rules.hpp"
#include "frame.hpp"
#include "pursue_evade.hpp"

namespace boids {

// Brake while another agent is close ahead (within `distance` ahead and `width` to
// either side), so a crowd files through a door instead of piling up. Zero otherwise.
// It reads each neighbour, which a summary does not hold: its second argument is the
// list a neighbour search wrote (`buffer_sink::result()`).
template <class V>
struct queue {
    using S = scalar_t<V>;
    S distance;
    S width;
    steering_limits<S> limits;

    [[nodiscard]] bool blocked(const V& velocity, neighborhood<V> nbrs) const noexcept {
        const V f = boids::normalized_or_zero(velocity);
        if (boids::is_zero(f)) return false;
        for (const auto& n : nbrs) {
            const V off = detail::to_vector<V>(n.offset);
            const S along = boids::dot(off, f);
            if (!(along > S(0) && along < distance)) continue;
            if (boids::length(boids::add_scaled(off, f, -along)) < width) return true;
        }
        return false;
    }
    // The agent call, with the agent's neighbours (a blend called as `blend(agent, neighbours)`
    // hands them over; the others get what they take).
    [[nodiscard]] V operator()(const boid_view<V>& agent, neighborhood<V> nbrs) const noexcept {
        return (*this)(agent.velocity, nbrs);
    }
    [[nodiscard]] V operator()(const V& velocity, neighborhood<V> nbrs) const noexcept {
        if (!blocked(velocity, nbrs)) return boids::zero<V>();
        return boids::steer_toward(boids::zero<V>(), velocity, limits);  // brake toward rest
    }
};

// Arrive at a point `behind` the leader; if in front of the leader (within `sight`
// ahead of it and `width` of its path), step aside out of its way first.
template <class V>
struct follow_leader {
    using S = scalar_t<V>;
    V leader;
    V leader_velocity;
    S behind;
    steering_limits<S> limits;
    S sight = S(0);           // 0: 2 * behind
    S width = S(0);           // 0: behind
    S slowing_radius = S(0);  // 0: behind

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        const local_frame<V> f = local_frame<V>::from_heading(leader_velocity);
        const S see = sight > S(0) ? sight : S(2) * behind;
        const S half_width = width > S(0) ? width : behind;
        const V rel = boids::sub(position, leader);
        const S along = boids::dot(rel, f.forward);
        const V lateral = boids::add_scaled(rel, f.forward, -along);
        if (along > S(0) && along < see && boids::length(lateral) < half_width && !boids::is_zero(leader_velocity)) {
            V aside = boids::normalized_or_zero(lateral);
            if (boids::is_zero(aside)) aside = f.side;
            return boids::steer_toward(boids::scale(aside, limits.max_speed), velocity, limits);
        }
        const V target = boids::add_scaled(leader, f.forward, -behind);
        const S slow = slowing_radius > S(0) ? slowing_radius : behind;
        return detail::arrive_moving(target, leader_velocity, slow, limits, position, velocity);  // then keep its pace
    }
};

// Unaligned collision avoidance: of the agents whose predicted paths bring them
// within 2 * radius of us within `horizon` seconds, take the soonest and steer
// away from where it will be at the moment of closest approach.
template <class V>
struct avoid_collisions {
    using S = scalar_t<V>;
    S radius;
    S horizon;
    steering_limits<S> limits;
    span<const V> positions{};  // everyone's, for the agent call (the agent is at agent.index)
    span<const V> velocities{};

    // The agent call, against the positions and velocities held: agent.index is the
    // agent itself (its own state is read from the arrays, as the others' is). An index
    // outside them (an assert where asserts are on) steers nowhere.
    [[nodiscard]] V operator()(const boid_view<V>& agent) const noexcept {
        BOIDS_ASSERT(agent.index < positions.size() && positions.size() == velocities.size(),
                     "avoid_collisions: positions and velocities must hold every agent");
        if (!(agent.index < positions.size() && positions.size() == velocities.size())) return boids::zero<V>();
        return (*this)(agent.index, positions, velocities);
    }

    [[nodiscard]] V operator()(std::size_t self, span<const V> all_positions,
                               span<const V> all_velocities) const noexcept {
        const V& p = all_positions[self];
        const V& v = all_velocities[self];
        S soonest = std::numeric_limits<S>::infinity();
        V away = boids::zero<V>();
        for (std::size_t j = 0; j < all_positions.size(); ++j) {
            if (j == self || !boids::is_finite(all_positions[j]) || !boids::is_finite(all_velocities[j])) continue;
            const V dp = boids::sub(all_positions[j], p), dv = boids::sub(all_velocities[j], v);
            const S dv2 = boids::length_squared(dv);
            const S t = dv2 > S(0) ? -boids::dot(dp, dv) / dv2 : S(0);
            if (!(t >= S(0) && t <= horizon && t < soonest)) continue;
            const V gap = boids::add_scaled(dp, dv, t);  // them minus us at closest approach
            if (boids::length(gap) >= S(2) * radius) continue;
            soonest = t;
            away = boids::negate(gap);
            if (boids::is_zero(away)) away = local_frame<V>::from_heading(v).side;  // dead centre: our side
        }
        if (soonest == std::numeric_limits<S>::infinity()) return boids::zero<V>();
        const V dir =
            boids::normalized_or_zero(boids::add(boids::normalized_or_zero(away), boids::normalized_or_zero(v)));
        return boids::steer_toward(
            boids::scale(boids::is_zero(dir) ? boids::normalized_or_zero(away) : dir, limits.max_speed), v, limits);
    }
};

}  // namespace boids

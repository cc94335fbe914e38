// boids/crowd/agents.hpp - what a crowd step reads and keeps: its configuration
// (crowd_config), the agents' arrays (crowd_agents, over the caller's storage) and the
// step's own buffers (crowd_workspace). The step itself: crowd/orca.hpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>
#include "../config.hpp"
#include "../neighbors/query.hpp"
#include "../span.hpp"
#include "../vector.hpp"
#include "detail/contacts.hpp"
#include "detail/linear_program2d.hpp"
#include "detail/linear_program3d.hpp"

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
    // Seconds: giving way where agents meet and stick (a doorway, a corridor, streams
    // crossing). An agent that made no headway last step and faces one heading the
    // other way, or one held up too heading across its way, within its radius of
    // touching and wanting nearly its speed (95%: not one slowing down at its goal),
    // steps back and to its right if the other has the better claim, and those close
    // behind it going its way step back with it. An agent on the move claims
    // `patience`; one held up claims how long it has waited; so a stream through a gap
    // keeps going until those waiting against it have waited `patience`, and then
    // turns. An agent that wants to go nowhere much (one standing at its goal) steps out
    // of the path of one held up behind it for `patience` or more. 0: never (RVO2). 2D only.
    S patience = S(10);

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
        if (!(std::isfinite(patience) && patience >= 0)) return detail::fail("patience", "must be finite and >= 0");
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
    // s: how long each agent has been held up (crowd_config::patience), which the step
    // reads and writes. Empty: the workspace keeps it, by index, and starts again
    // from 0 when the number of agents changes; give your own array (zeros to start)
    // to keep each agent's wait across adding and removing agents.
    span<S> waiting{};

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
    struct task_buffers {                                     // one per task of the executor
        std::vector<half_plane<S>> lines, projected;          // 2D
        std::vector<half_space<S>> spaces, projected_spaces;  // 3D
        std::vector<std::pair<S, std::uint32_t>> edges;
    };
    std::vector<V> new_velocity;
    std::vector<task_buffers> tasks;
    std::vector<V> old_position;  // where each agent stood before the move
    std::vector<unsigned char> reverted;
    detail::contact_list<V> contacts;     // pairs near contact, for the projection
    std::size_t last_passes = 0;          // projection passes the last step used
    std::size_t last_overlaps = 0;        // overlapping pairs the last step's projection met first
    std::size_t last_reverted = 0;        // agents the last step sent back to where they stood
    std::size_t last_giving_way = 0;      // agents that gave way in the last step (crowd_config::patience)
    std::vector<S> waiting, new_waiting;  // patience: the waits, when the agents hold none
    std::vector<unsigned char> giving_way, giving_way_next;
    std::vector<V> aside;              // patience: the aim of an agent stepping out of a stuck one's way (zero: none)
    std::vector<std::uint32_t> ahead;  // per agent, up to ahead_slots close ahead going its way
    // Each agent's nearest this step, max_neighbors apart (found_count of them, or
    // detail::no_list): its half-planes', giving way's and the projection's.
    std::vector<neighbor<S, dimension_v<V>>> found;
    std::vector<std::uint32_t> found_count;
    static constexpr std::size_t ahead_slots = 4;

    void prepare(std::size_t n, std::size_t task_count, std::size_t k) {
        if (new_velocity.size() != n) new_velocity.resize(n);
        if (old_position.size() != n) old_position.resize(n);
        reverted.assign(n, 0);
        if (tasks.size() < task_count) tasks.resize(task_count);
        for (task_buffers& b : tasks) {
            if (b.lines.size() < k) b.lines.resize(k);
            if (b.projected.size() < k) b.projected.resize(k);
        }
    }
};

}  // namespace boids

// crowd_circle.hpp - RVO2's circle for the crowd tests: agents of radius 1.5 on a ring
// (200 across for 250 agents, scaled with N), each walking to the point opposite at
// speed 1 of at most 2, a seeded jitter of +-0.01 breaking the symmetry.
#pragma once
#include <boids/crowd/agents.hpp>
#include <boids/random.hpp>
#include <cmath>
#include <cstdint>
#include <vector>
#include "plain_vectors.hpp"

namespace test {

struct crowd_circle {
    double radius = 1.5, max_speed = 2.0;
    std::vector<dvec2> position, velocity, preferred, goal;
    boids::crowd_config<double> config{};

    crowd_circle(std::size_t n, std::uint64_t seed) {
        config.dt = 0.25;
        config.neighbor_distance = 15;
        config.max_neighbors = 10;
        config.time_horizon = 10;
        config.time_horizon_obstacle = 10;
        const double ring = 200.0 * static_cast<double>(n) / 250.0;
        boids::random_stream rng(boids::hash_combine(seed, 0xC40Du));
        for (std::size_t i = 0; i < n; ++i) {
            const double a = 2 * boids::pi<double> * static_cast<double>(i) / static_cast<double>(n);
            const double jx = rng.uniform(-0.01, 0.01);
            const double jy = rng.uniform(-0.01, 0.01);
            position.push_back({ring * std::cos(a) + jx, ring * std::sin(a) + jy});
            goal.push_back({-ring * std::cos(a), -ring * std::sin(a)});
        }
        velocity.assign(n, dvec2{0, 0});
        preferred.assign(n, dvec2{0, 0});
    }
    // Each preferred velocity: at speed 1 toward the goal, slower within 1 of it.
    void aim() {
        for (std::size_t i = 0; i < position.size(); ++i) {
            const dvec2 to = boids::sub(goal[i], position[i]);
            const double d = boids::length(to);
            preferred[i] = d > 1.0 ? boids::scale(to, 1.0 / d) : to;
        }
    }
    boids::crowd_agents<dvec2> agents() {
        return {boids::span<dvec2>(position),
                boids::span<dvec2>(velocity),
                boids::span<const dvec2>(preferred),
                boids::span<const double>(&radius, 1),
                boids::span<const double>(&max_speed, 1),
                {},
                {},
                {}};
    }
};

}  // namespace test

// compare.cpp - RVO2's Circle and Blocks scenarios run by RVO2 itself, measured the way
// `boids-lab crowd` measures ours, for the side-by-side table in docs/crowds.md.
// Built by scripts/compare-rvo2.sh against an RVO2 source tree the user provides.
// Usage: rvo2-compare circle|blocks [agents] [max_steps]
#include <RVO.h>
#include <boids/neighbors/uniform_grid.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace gauge_space {
struct vec2 {
    double x, y;
};
}  // namespace gauge_space
BOIDS_REGISTER_VECTOR2(gauge_space::vec2, double, x, y)
using gauge_space::vec2;

int main(int argc, char** argv) {
    const std::string scenario = argc > 1 ? argv[1] : "circle";
    const std::size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 250;
    const std::size_t max_steps = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 100000000;
    RVO::RVOSimulator sim;
    std::vector<RVO::Vector2> goals;
    sim.setTimeStep(0.25F);
    float radius = 1.5F, arrive = 1.5F;
    if (scenario == "circle") {
        sim.setAgentDefaults(15.0F, 10U, 10.0F, 10.0F, radius, 2.0F);
        const float ring = 200.0F * static_cast<float>(n) / 250.0F;
        for (std::size_t i = 0; i < n; ++i) {
            const float a = static_cast<float>(i) * 6.28318530717958647692F * (1.0F / static_cast<float>(n));
            sim.addAgent(ring * RVO::Vector2(std::cos(a), std::sin(a)));
            goals.push_back(-sim.getAgentPosition(i));
        }
    } else if (scenario == "blocks") {
        radius = 2.0F;
        arrive = 20.0F;
        sim.setAgentDefaults(15.0F, 10U, 5.0F, 5.0F, radius, 2.0F);
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j) {
                const float a = 55.0F + 10.0F * static_cast<float>(i), b = 55.0F + 10.0F * static_cast<float>(j);
                sim.addAgent(RVO::Vector2(a, b));
                goals.emplace_back(-75.0F, -75.0F);
                sim.addAgent(RVO::Vector2(-a, b));
                goals.emplace_back(75.0F, -75.0F);
                sim.addAgent(RVO::Vector2(a, -b));
                goals.emplace_back(-75.0F, 75.0F);
                sim.addAgent(RVO::Vector2(-a, -b));
                goals.emplace_back(75.0F, 75.0F);
            }
        const float blocks[4][4][2] = {{{-10, 40}, {-40, 40}, {-40, 10}, {-10, 10}},
                                       {{10, 40}, {10, 10}, {40, 10}, {40, 40}},
                                       {{10, -40}, {40, -40}, {40, -10}, {10, -10}},
                                       {{-10, -40}, {-10, -10}, {-40, -10}, {-40, -40}}};
        for (const auto& b : blocks) {
            std::vector<RVO::Vector2> poly;
            for (const auto& v : b) poly.emplace_back(v[0], v[1]);
            sim.addObstacle(poly);
        }
        sim.processObstacles();
    } else {
        std::fprintf(stderr, "rvo2-compare: unknown scenario '%s' (circle, blocks)\n", scenario.c_str());
        return 2;
    }
    const std::size_t count = sim.getNumAgents();
    std::vector<vec2> at(count);
    boids::uniform_grid<vec2> gauge(boids::world_for<vec2>{}, 2.0 * radius);
    std::size_t steps = 0, arrived = 0, overlaps = 0;
    double closest = std::numeric_limits<double>::infinity(), wall = 0;
    const double touching = 2.0 * radius * (1 - 0.5e-4);
    for (;;) {
        arrived = 0;
        for (std::size_t i = 0; i < count; ++i) {
            RVO::Vector2 to = goals[i] - sim.getAgentPosition(i);
            arrived += RVO::absSq(to) <= arrive * arrive ? 1 : 0;
            if (RVO::absSq(to) > 1.0F) to = RVO::normalize(to);
            if (scenario == "blocks") {  // the example's nudge against symmetric standstills
                const float angle = static_cast<float>(std::rand()) * 6.2831853F / static_cast<float>(RAND_MAX);
                const float dist = static_cast<float>(std::rand()) * 0.0001F / static_cast<float>(RAND_MAX);
                to = to + dist * RVO::Vector2(std::cos(angle), std::sin(angle));
            }
            sim.setAgentPrefVelocity(i, to);
        }
        if (arrived == count || steps >= max_steps) break;
        const auto t0 = std::chrono::steady_clock::now();
        sim.doStep();
        wall += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ++steps;
        for (std::size_t i = 0; i < count; ++i) at[i] = {sim.getAgentPosition(i).x(), sim.getAgentPosition(i).y()};
        gauge.build(boids::span<const vec2>(at));
        for (std::size_t i = 0; i < count; ++i)
            gauge.for_each_within(i, 2.0 * radius, [&](const boids::neighbor<double, 2>& nb) {
                if (nb.index < i) return;
                const double d = std::sqrt(nb.distance_squared);
                closest = std::min(closest, d);
                overlaps += d < touching ? 1 : 0;
            });
    }
    std::printf(
        "{\"agents\": %zu, \"steps\": %zu, \"seconds\": %g, \"closest\": %s, \"overlaps\": %zu, "
        "\"ms_per_step\": %.4g, \"arrived\": %zu}\n",
        count, steps, 0.25 * static_cast<double>(steps),
        std::isfinite(closest) ? std::to_string(closest).c_str() : "null", overlaps,
        steps > 0 ? wall / static_cast<double>(steps) : 0.0, arrived);
}

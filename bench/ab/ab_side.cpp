// bench/ab/ab_side.cpp - one side of bench/ab.sh, built once per side against a copy
// of the headers whose namespace the script renamed to BOIDS_AB_NS (so that both
// copies live in one program), defining BOIDS_AB_MAKE.
#include <boids/boids.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>
#include "ab_side.hpp"

namespace boids = BOIDS_AB_NS;  // what standard_scene.hpp names
#include "../standard_scene.hpp"

namespace {
template <class V>
class side final : public ab_side {
public:
    side(const ab_scene& scene, const ab_run& run)
        : cfg_(standard_scene<V>(scene.boids)), grid_(cfg_.world, cfg_.view_radius), pool_(run.threads) {
        cfg_.view_angle = static_cast<float>(run.view_angle);
        if (scene.topological) {
            cfg_.neighbors = boids::neighborhood_kind::topological;
            cfg_.k = 7;
        }
        boids::lesson::scatter(1234, cfg_, start_p_, start_v_, scene.boids);
        for (long k = 0; k < scene.settle_steps; ++k)  // a running flock: denser groups, crowded boids
            boids::flock_step(boids::span<V>(start_p_), boids::span<V>(start_v_), cfg_, grid_, ws_, 0.1f, pool_);
        p_ = start_p_;
        v_ = start_v_;
    }
    double step() override {
        if (++steps_ % 20 == 0) {  // no allocation: the sizes are the same
            p_ = start_p_;
            v_ = start_v_;
        }
        const auto t0 = std::chrono::steady_clock::now();
        boids::flock_step(boids::span<V>(p_), boids::span<V>(v_), cfg_, grid_, ws_, 0.1f, pool_);
        const auto t1 = std::chrono::steady_clock::now();
        return std::chrono::duration<double, std::micro>(t1 - t0).count();
    }
    std::uint64_t digest() const override {
        std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the bytes
        const auto* bytes = reinterpret_cast<const unsigned char*>(p_.data());
        for (std::size_t k = 0; k < p_.size() * sizeof(V); ++k) h = (h ^ bytes[k]) * 1099511628211ull;
        return h;
    }

private:
    boids::flock_config<V> cfg_;
    boids::uniform_grid<V> grid_;
    boids::flock_workspace<V> ws_;
    boids::thread_pool pool_;
    std::vector<V> start_p_, start_v_, p_, v_;
    long steps_ = 0;
};

// RVO2's circle: agents on a circle (2.5 radii of arc apart, at least 100 across),
// each walking to the point opposite; after the settling steps, restarted from there
// every 20 steps like the flock.
template <class V>
class crowd_side final : public ab_side {
public:
    using S = boids::scalar_t<V>;
    crowd_side(const ab_scene& scene, const ab_run& run)
        : grid_(boids::world_for<V>{}, cfg_.neighbor_distance), pool_(run.threads) {
        const std::size_t n = scene.boids;
        const double circle = std::max(50.0, 2.5 * static_cast<double>(n) / (2 * 3.141592653589793));
        start_p_.resize(n);
        goal_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const double a = 2 * 3.141592653589793 * static_cast<double>(i) / static_cast<double>(n);
            start_p_[i] = boids::generate<V>([&](std::size_t d) {
                return static_cast<S>(d == 0 ? circle * std::cos(a) : d == 1 ? circle * std::sin(a) : 0.0);
            });
            goal_[i] = boids::scale(start_p_[i], S(-1));
        }
        start_v_.assign(n, boids::zero<V>());
        preferred_.assign(n, boids::zero<V>());
        for (long k = 0; k < scene.settle_steps; ++k) advance(start_p_, start_v_);
        p_ = start_p_;
        v_ = start_v_;
    }
    double step() override {
        if (++steps_ % 20 == 0) {
            p_ = start_p_;
            v_ = start_v_;
        }
        const auto t0 = std::chrono::steady_clock::now();
        advance(p_, v_);
        const auto t1 = std::chrono::steady_clock::now();
        return std::chrono::duration<double, std::micro>(t1 - t0).count();
    }
    std::uint64_t digest() const override {
        std::uint64_t h = 1469598103934665603ull;
        const auto* bytes = reinterpret_cast<const unsigned char*>(p_.data());
        for (std::size_t k = 0; k < p_.size() * sizeof(V); ++k) h = (h ^ bytes[k]) * 1099511628211ull;
        return h;
    }

private:
    void advance(std::vector<V>& p, std::vector<V>& v) {
        for (std::size_t i = 0; i < p.size(); ++i)  // straight at the goal, 2 a second, slowing on arrival
            preferred_[i] = boids::clamp_magnitude(boids::scale(boids::sub(goal_[i], p[i]), S(1) / cfg_.dt), S(2));
        boids::crowd_agents<V> agents;
        agents.position = boids::span<V>(p);
        agents.velocity = boids::span<V>(v);
        agents.preferred_velocity = boids::span<const V>(preferred_);
        boids::crowd_step(agents, cfg_, grid_, ws_, pool_);
    }
    boids::crowd_config<S> cfg_{};
    boids::uniform_grid<V> grid_;
    boids::crowd_workspace<V> ws_;
    boids::thread_pool pool_;
    std::vector<V> start_p_, start_v_, goal_, preferred_, p_, v_;
    long steps_ = 0;
};
}  // namespace

ab_side* BOIDS_AB_MAKE(const ab_scene& scene, const ab_run& run) {
    if (scene.crowd) {
        if (run.dim == 3) return new crowd_side<f3>(scene, run);
        return new crowd_side<f2>(scene, run);
    }
    if (run.dim == 3) return new side<f3>(scene, run);
    return new side<f2>(scene, run);
}

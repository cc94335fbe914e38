// boids/behaviors/context.hpp - context steering: decide over a ring of directions.
//
// Each of N directions (a ring in 2D, a Fibonacci sphere in 3D) gets an interest
// (how well it leads to the target) and a danger (how soon an obstacle lies along
// it). Directions more dangerous than the safest are masked out; of the rest the
// most interesting wins, refined by its neighbours so the choice is smooth. Unlike
// a weighted sum, a blocked direction is never chosen half-way: the agent does not
// steer into the obstacle it is trying to avoid.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include "../span.hpp"
#include "pursue_evade.hpp"

namespace boids {

template <class V, std::size_t N = 32>
struct context_steering {
    using S = scalar_t<V>;
    static_assert(N >= 4, "context_steering needs at least 4 directions");
    span<const sphere<V>> obstacles;
    S agent_radius;
    S look_ahead;  // length: obstacles farther than this along a direction do not count
    steering_limits<S> limits;
    S slowing_radius = S(0);    // 0: no slowing at the target
    V goal = boids::zero<V>();  // the target of the shorthand call (position, velocity), as in a blend

    // Obstacles whose surface lies further than this from the agent never change a call:
    // pass the ones nearer (obstacle_grid::near) and the call gives the same result as
    // with all of them. A look-ahead that is not a number: an infinite distance.
    [[nodiscard]] sphere_range<S> obstacle_range() const noexcept {
        // A ray meets an obstacle no nearer than its surface less the agent's radius.
        const S edge = std::max(look_ahead, S(0)) + agent_radius;
        const S eps = S(64) * std::numeric_limits<S>::epsilon();
        // Nearer than the square root of the smallest normal number, squares vanish and a
        // centre counts as inside: those are in range too.
        const S tiny = S(4) * std::sqrt(std::numeric_limits<S>::min());
        const S distance = std::max(edge * S(1.0001) + std::fabs(edge) * eps, S(0)) + tiny;
        if (!std::isfinite(distance)) return {std::numeric_limits<S>::infinity(), S(0)};
        return {distance, S(2) * eps};
    }

    [[nodiscard]] static V direction(std::size_t i) noexcept {
        if constexpr (dimension_v<V> == 2) {
            const S a = S(2) * pi<S> * static_cast<S>(i) / static_cast<S>(N);
            return boids::generate<V>([&](std::size_t d) { return d == 0 ? std::cos(a) : std::sin(a); });
        } else {
            const S z = S(1) - S(2) * (static_cast<S>(i) + S(0.5)) / static_cast<S>(N);
            const S r = std::sqrt(std::max(S(0), S(1) - z * z));
            const S a = S(2.399963229728653) * static_cast<S>(i);  // the golden angle
            return boids::generate<V>(
                [&](std::size_t d) { return d == 0 ? r * std::cos(a) : (d == 1 ? r * std::sin(a) : z); });
        }
    }

    // How soon (0: far or never, 1: right here) a ray from p along dir meets an obstacle.
    [[nodiscard]] S danger(const V& p, const V& dir) const noexcept {
        S worst = 0;
        for (const auto& o : obstacles) {
            const V rel = boids::sub(o.centre, p);
            const S reach = o.radius + agent_radius;
            if (reach < S(0)) continue;  // smaller than nothing (a negative radius): no obstacle
            const S along = boids::dot(rel, dir);
            const S c2 = boids::length_squared(rel) - reach * reach;
            if (c2 <= S(0)) {  // inside: every direction inward is dangerous
                worst = std::max(worst, along > S(0) ? S(1) : S(0));
                continue;
            }
            const S disc = along * along - c2;
            if (along <= S(0) || disc < S(0)) continue;
            const S hit = along - std::sqrt(disc);
            if (hit < look_ahead) worst = std::max(worst, S(1) - hit / look_ahead);
        }
        return worst;
    }

    // The chosen unit direction (zero when the agent is on the target).
    [[nodiscard]] V choose(const V& position, const V& target) const noexcept {
        const V want = boids::normalized_or_zero(boids::sub(target, position));
        if (boids::is_zero(want)) return boids::zero<V>();
        std::array<S, N> interest{}, risk{};
        S safest = std::numeric_limits<S>::infinity();
        for (std::size_t i = 0; i < N; ++i) {
            const V d = direction(i);
            interest[i] = std::max(S(0), (boids::dot(d, want) + S(1)) * S(0.5));  // behind still beats blocked
            risk[i] = danger(position, d);
            safest = std::min(safest, risk[i]);
        }
        std::size_t best = N;
        for (std::size_t i = 0; i < N; ++i) {
            if (risk[i] > safest + S(0.05)) continue;  // masked
            if (best == N || interest[i] > interest[best]) best = i;
        }
        // Smooth: the best direction and its unmasked neighbours, weighted by interest.
        V sum = boids::scale(direction(best), interest[best]);
        if constexpr (dimension_v<V> == 2) {
            for (std::size_t n : {(best + N - 1) % N, (best + 1) % N})
                if (!(risk[n] > safest + S(0.05))) sum = boids::add_scaled(sum, direction(n), interest[n] * S(0.5));
        }
        V dir = boids::normalized_or_zero(sum);
        if (boids::is_zero(dir)) dir = direction(best);
        return dir;
    }

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        return (*this)(position, velocity, goal);
    }
    [[nodiscard]] V operator()(const V& position, const V& velocity, const V& target) const noexcept {
        const V dir = choose(position, target);
        S speed = limits.max_speed;
        if (slowing_radius > S(0)) speed *= std::min(S(1), boids::distance(position, target) / slowing_radius);
        return boids::steer_toward(boids::scale(dir, speed), velocity, limits);
    }
};

}  // namespace boids

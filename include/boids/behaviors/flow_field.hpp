// boids/behaviors/flow_field.hpp - a grid of desired velocities that a whole crowd
// shares (the lesson's "next lesson"): each agent samples it where it stands,
// bilinearly (trilinearly in 3D), and steers toward that velocity.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include "../span.hpp"
#include "../steer.hpp"

namespace boids {

// cells[i] is the desired velocity at origin + cell * (x, y[, z]) with i = x + nx*(y + ny*z).
// Samples outside the grid take the nearest edge value.
template <class V>
struct flow_field {
    using S = scalar_t<V>;
    static constexpr std::size_t D = dimension_v<V>;
    V origin;
    S cell = S(1);
    std::array<std::size_t, D> count{};
    span<const V> cells;

    [[nodiscard]] bool valid() const noexcept {
        std::size_t n = 1;
        for (std::size_t d = 0; d < D; ++d) n *= count[d];
        return n > 0 && n == cells.size() && cell > S(0) && std::isfinite(cell);
    }

    [[nodiscard]] V sample(const V& position) const noexcept {
        if (!valid()) return boids::zero<V>();
        std::array<std::size_t, D> i0{}, i1{};
        std::array<S, D> t{};
        for (std::size_t d = 0; d < D; ++d) {
            S u = (boids::get(position, d) - boids::get(origin, d)) / cell;
            const S hi = static_cast<S>(count[d] - 1);
            u = !(u >= S(0)) ? S(0) : (u > hi ? hi : u);  // NaN -> 0
            const S f = std::floor(u);
            i0[d] = static_cast<std::size_t>(f);
            i1[d] = std::min(i0[d] + 1, count[d] - 1);
            t[d] = u - f;
        }
        V sum = boids::zero<V>();
        for (std::size_t corner = 0; corner < (std::size_t(1) << D); ++corner) {
            S w = 1;
            std::size_t index = 0, stride = 1;
            for (std::size_t d = 0; d < D; ++d) {
                const bool upper = (corner >> d) & 1u;
                w *= upper ? t[d] : S(1) - t[d];
                index += (upper ? i1[d] : i0[d]) * stride;
                stride *= count[d];
            }
            if (w != S(0)) sum = boids::add_scaled(sum, cells[index], w);
        }
        return sum;
    }
};

template <class V>
struct follow_flow {
    flow_field<V> field;
    steering_limits<scalar_t<V>> limits;

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        return boids::steer_toward(boids::clamp_magnitude(field.sample(position), limits.max_speed), velocity, limits);
    }
};

}  // namespace boids

// boids/behaviors/frame.hpp - an agent's local frame (forward, side, up) from its
// heading, for behaviours that think "ahead of" or "to the left of" an agent.
// 2D: side is forward turned a quarter left. 3D: side is horizontal (world up +y),
// up completes the right-handed frame. A zero heading gives the +x frame.
#pragma once
#include "../vector.hpp"

namespace boids {

template <class V>
struct local_frame {
    V forward, side, up;

    [[nodiscard]] static local_frame from_heading(const V& heading) noexcept {
        using S = scalar_t<V>;
        local_frame f;
        f.forward = boids::normalized_or_zero(heading);
        if (boids::is_zero(f.forward)) f.forward = boids::unit_axis<V>(0);
        if constexpr (dimension_v<V> == 2) {
            f.side = boids::generate<V>(
                [&](std::size_t i) { return i == 0 ? -boids::get(f.forward, 1) : boids::get(f.forward, 0); });
            f.up = boids::zero<V>();
        } else {
            V s = boids::cross(boids::unit_axis<V>(1), f.forward);
            if (boids::length_squared(s) < S(1e-12)) s = boids::cross(boids::unit_axis<V>(2), f.forward);
            f.side = boids::normalized_or_zero(s);
            f.up = boids::cross(f.forward, f.side);
        }
        return f;
    }
    // Local (forward, side, up) coordinates to a world direction.
    [[nodiscard]] V to_world(const V& local) const noexcept {
        V w = boids::add_scaled(boids::scale(forward, boids::get(local, 0)), side, boids::get(local, 1));
        if constexpr (dimension_v<V> == 3) w = boids::add_scaled(w, up, boids::get(local, 2));
        return w;
    }
};

}  // namespace boids

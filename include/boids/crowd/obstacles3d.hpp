// boids/crowd/obstacles3d.hpp - static obstacles for crowd_step in 3D: spheres agents
// stay out of (avoided as an agent that never moves and gives way to nobody) and planes
// agents stay on one side of (a floor, walls, a ceiling: each a half-space). As in
// 2D, no agent's centre crosses one during a step: an agent whose move would goes back.
// The step reads every obstacle for every agent: meant for tens of them.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>
#include "../vector.hpp"
#include "detail/obstacles_by_dimension.hpp"

namespace boids {

template <class V>
class crowd_obstacles3 {
public:
    using S = scalar_t<V>;
    static_assert(dimension_v<V> == 3, "crowd_obstacles3: 3D (crowd_obstacles<V> picks by dimension)");
    struct sphere {
        V centre;
        S radius;
    };
    struct plane {
        V point;
        V normal;  // unit, toward the side agents keep to
    };

    // False (and nothing added) for a centre or radius that is not finite, or a radius <= 0.
    bool add_sphere(const V& centre, S radius) {
        if (!boids::is_finite(centre) || !(std::isfinite(radius) && radius > S(0))) return false;
        spheres_.push_back({centre, radius});
        return true;
    }
    // Agents stay on the side `normal` points to. False for a zero or non-finite normal.
    bool add_plane(const V& point, const V& normal) {
        if (!boids::is_finite(point) || !boids::is_finite(normal)) return false;
        const S len = boids::length(normal);
        if (!(len > S(0)) || !std::isfinite(len)) return false;
        planes_.push_back({point, boids::scale(normal, S(1) / len)});
        return true;
    }
    [[nodiscard]] bool empty() const noexcept { return spheres_.empty() && planes_.empty(); }
    [[nodiscard]] const std::vector<sphere>& spheres() const noexcept { return spheres_; }
    [[nodiscard]] const std::vector<plane>& planes() const noexcept { return planes_; }

    // Whether a centre moving from a to b enters an obstacle: it ends behind a plane it
    // started in front of, or passes into a sphere it started outside.
    [[nodiscard]] bool crosses(const V& a, const V& b) const noexcept {
        for (const plane& p : planes_)
            if (boids::dot(boids::sub(a, p.point), p.normal) >= S(0) &&
                boids::dot(boids::sub(b, p.point), p.normal) < S(0))
                return true;
        const V ab = boids::sub(b, a);
        const S ab2 = boids::length_squared(ab);
        for (const sphere& s : spheres_) {
            const V ac = boids::sub(s.centre, a);
            const S r2 = s.radius * s.radius;
            if (boids::length_squared(ac) < r2) continue;  // started inside: not ours to judge
            S t = ab2 > S(0) ? boids::dot(ac, ab) / ab2 : S(0);
            t = t < S(0) ? S(0) : (t > S(1) ? S(1) : t);
            if (boids::length_squared(boids::sub(boids::add_scaled(a, ab, t), s.centre)) < r2) return true;
        }
        return false;
    }
    // Moves a ball of `radius` at x that overlaps obstacles from outside off each in
    // turn, to touch it; false where it overlaps none.
    bool push_out(V& x, S radius) const noexcept {
        if (!(radius > S(0))) return false;
        bool moved = false;
        for (const plane& p : planes_) {
            const S d = boids::dot(boids::sub(x, p.point), p.normal);
            if (d >= S(0) && d < radius) {
                x = boids::add_scaled(x, p.normal, radius - d);
                moved = true;
            }
        }
        for (const sphere& s : spheres_) {
            const V off = boids::sub(x, s.centre);
            const S d = boids::length(off);
            if (d >= s.radius && d < s.radius + radius) {
                const V unit = d > S(0) ? boids::scale(off, S(1) / d) : boids::unit_axis<V>(0);
                x = boids::add_scaled(s.centre, unit, s.radius + radius);
                moved = true;
            }
        }
        return moved;
    }

private:
    std::vector<sphere> spheres_;
    std::vector<plane> planes_;
};

}  // namespace boids

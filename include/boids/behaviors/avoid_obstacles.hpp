// boids/behaviors/avoid_obstacles.hpp - keeping out of things: round obstacles (circles in
// 2D, spheres in 3D), walls (2D segments), whatever the caller's own ray cast meets, and
// a box to stay inside.
//
// Each returns zero while nothing threatens, so it composes best in a priority
// blend ahead of what the agent wants to do (blend_priority).
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include "../span.hpp"
#include "frame.hpp"
#include "pursue_evade.hpp"

namespace boids {

// Steer around spheres that lie in a detection box ahead: as long as the agent can
// stop within it (length = agent radius + speed * look_ahead + speed^2 / (2 max_force)),
// it never enters an obstacle. Overlapping an obstacle already: straight out.
template <class V>
struct avoid_obstacles {
    using S = scalar_t<V>;
    span<const sphere<V>> obstacles;
    S agent_radius;
    steering_limits<S> limits;
    S look_ahead = S(0.5);  // s
    S clearance = S(0.1);   // pass at least this fraction of (radius + agent radius) wide

    // Obstacles whose surface lies further than this from the agent (a distance, and more
    // for wider obstacles) never change a call at this velocity: pass the ones nearer
    // (obstacle_grid::near) and the call gives the same result as with all of them.
    // Parameters that are not numbers, a negative agent_radius or look_ahead, or a
    // clearance below -1: an infinite distance (every obstacle).
    [[nodiscard]] sphere_range<S> obstacle_range(const V& velocity) const noexcept {
        const sphere_range<S> every{std::numeric_limits<S>::infinity(), S(0)};
        if (!(agent_radius >= S(0) && look_ahead >= S(0) && clearance >= S(-1))) return every;
        // The detection box takes in centres as far ahead as its length + reach and as far
        // aside as the reach with its clearance (reach = radius + agent radius): within
        // |(box + agent radius, k agent radius)| + radius |(1, k)| of the agent.
        const S k = S(1) + clearance;
        const S ahead = detection_length(boids::length(velocity)) + agent_radius;
        const S base = std::hypot(ahead, k * agent_radius);
        const S grow = std::hypot(S(1), k) - S(1);
        const S eps = S(64) * std::numeric_limits<S>::epsilon();
        const sphere_range<S> range{base * (S(1.0001) + eps), grow * S(1.0001) + S(2) * eps};
        return std::isfinite(range.distance) && std::isfinite(range.per_radius) ? range : every;
    }

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        const S speed = boids::length(velocity);
        const local_frame<V> f = local_frame<V>::from_heading(velocity);
        const S box = detection_length(speed);
        const sphere<V>* nearest = nullptr;
        S nearest_along = std::numeric_limits<S>::infinity();
        V lateral_of_nearest = boids::zero<V>();
        for (const auto& o : obstacles) {
            const V rel = boids::sub(o.centre, position);
            const S reach = o.radius + agent_radius;
            const S d = boids::length(rel);
            if (d < reach) {  // inside (or touching): out along the shortest way
                V out = boids::normalized_or_zero(boids::negate(rel));
                if (boids::is_zero(out)) out = boids::negate(f.forward);
                return boids::scale(out, limits.max_force);
            }
            const S along = boids::dot(rel, f.forward);
            if (along <= S(0) || along - reach > box) continue;
            const V lateral = boids::add_scaled(rel, f.forward, -along);
            if (boids::length(lateral) >= reach * (S(1) + clearance)) continue;
            if (along < nearest_along) {
                nearest_along = along;
                nearest = &o;
                lateral_of_nearest = lateral;
            }
        }
        if (nearest == nullptr) return boids::zero<V>();
        // Away from the obstacle's side (head-on: to our side), braking harder the nearer it is.
        V away = boids::normalized_or_zero(boids::negate(lateral_of_nearest));
        if (boids::is_zero(away)) away = f.side;
        const S reach = nearest->radius + agent_radius;
        const S urgency = std::clamp(S(1) - (nearest_along - reach) / std::max(box, S(1e-9)), S(0), S(1));
        const V a = boids::add_scaled(boids::scale(away, limits.max_force), f.forward, -limits.max_force * urgency);
        return boids::clamp_magnitude(a, limits.max_force);
    }

private:
    [[nodiscard]] S detection_length(S speed) const noexcept {
        const S braking = limits.max_force > S(0) ? speed * speed / (S(2) * limits.max_force) : S(0);
        return agent_radius + speed * look_ahead + braking;
    }
};

// A wall: the segment from a to b (2D).
template <class V>
struct wall {
    V a, b;
};

namespace detail {
// The point of wall w nearest to q (of a zero-length wall, its one point).
template <class V>
[[nodiscard]] V nearest_on_wall(const wall<V>& w, const V& q) noexcept {
    using S = scalar_t<V>;
    const V ab = boids::sub(w.b, w.a);
    const S l2 = boids::length_squared(ab);
    const S t = l2 > S(0) ? std::fmin(std::fmax(boids::dot(boids::sub(q, w.a), ab) / l2, S(0)), S(1)) : S(0);
    return boids::add_scaled(w.a, ab, t);
}
// Where the segment from `origin` along `ray` meets wall w, as a fraction of ray (0 to
// 1), or -1 where it does not (running parallel counts as not meeting). Nearly
// parallel, the fractions are mostly rounding: a wall further from the origin than
// the ray is long is never met, whatever they say.
template <class V>
[[nodiscard]] scalar_t<V> wall_crossing(const V& origin, const V& ray, const wall<V>& w) noexcept {
    using S = scalar_t<V>;
    const V e = boids::sub(w.b, w.a);
    const S denom = boids::get(ray, 0) * boids::get(e, 1) - boids::get(ray, 1) * boids::get(e, 0);
    if (denom == S(0)) return S(-1);
    const V ap = boids::sub(w.a, origin);
    const S t = (boids::get(ap, 0) * boids::get(e, 1) - boids::get(ap, 1) * boids::get(e, 0)) / denom;
    const S u = (boids::get(ap, 0) * boids::get(ray, 1) - boids::get(ap, 1) * boids::get(ray, 0)) / denom;
    if (!(t >= S(0) && t <= S(1) && u >= S(0) && u <= S(1))) return S(-1);
    const S reach = boids::length(ray) * S(1.000001);
    return boids::distance(origin, nearest_on_wall(w, origin)) <= reach ? t : S(-1);
}
// The wall's direction turned a quarter left (as long as the wall).
template <class V>
[[nodiscard]] V wall_normal(const wall<V>& w) noexcept {
    const V e = boids::sub(w.b, w.a);
    return boids::generate<V>([&](std::size_t i) { return i == 0 ? -boids::get(e, 1) : boids::get(e, 0); });
}

// The feelers ahead of an agent: one ahead of feeler_length, and half as long at
// +-45 degrees to each side (and, in 3D, above and below).
template <class V>
struct feelers {
    static constexpr std::size_t count = dimension_v<V> == 2 ? 3 : 5;
    V ray[count];

    feelers(const V& velocity, scalar_t<V> feeler_length) noexcept {
        using S = scalar_t<V>;
        const local_frame<V> f = local_frame<V>::from_heading(velocity);
        const S c = S(0.70710678118654752);
        auto whisker = [&](const V& across, S turn) {  // half length, 45 degrees toward `across` (turn = +-c)
            return boids::scale(boids::add(boids::scale(f.forward, c), boids::scale(across, turn)),
                                feeler_length * S(0.5));
        };
        ray[0] = boids::scale(f.forward, feeler_length);
        ray[1] = whisker(f.side, c);
        ray[2] = whisker(f.side, -c);
        if constexpr (count == 5) {
            ray[3] = whisker(f.up, c);
            ray[4] = whisker(f.up, -c);
        }
    }
};
// The push of the deepest crossing so far: out along the surface's normal (turned to
// face the feeler's root), in proportion to the depth past the surface.
template <class V>
struct deepest_crossing {
    scalar_t<V> depth = 0;
    V push = boids::zero<V>();

    void add(scalar_t<V> d, const V& normal, const V& feeler, scalar_t<V> feeler_length,
             scalar_t<V> max_force) noexcept {
        using S = scalar_t<V>;
        if (!(d > depth)) return;
        depth = d;
        V n = boids::normalized_or_zero(normal);
        if (boids::dot(n, feeler) > S(0)) n = boids::negate(n);  // toward our side
        push = boids::scale(n, max_force * std::min(S(1), S(2) * d / feeler_length));
    }
};
}  // namespace detail

// Three feelers (ahead, and half as long at +-45 degrees); the deepest one that
// crosses a wall pushes out along the wall's normal, in proportion to the depth.
template <class V>
struct avoid_walls {
    static_assert(dimension_v<V> == 2, "avoid_walls is 2D (in 3D use avoid_obstacles or stay_within)");
    using S = scalar_t<V>;
    span<const wall<V>> walls;
    steering_limits<S> limits;
    S feeler_length = S(1);

    // Walls further than this from the agent never change a call: pass the ones nearer
    // (wall_grid::near) and the call gives the same result as with all of them.
    [[nodiscard]] S wall_range() const noexcept { return feeler_length * S(1.0001); }

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        const detail::feelers<V> feelers(velocity, feeler_length);
        detail::deepest_crossing<V> deepest;
        for (const V& feeler : feelers.ray) {
            for (const auto& w : walls) {
                const S t = detail::wall_crossing(position, feeler, w);
                if (t < S(0)) continue;
                const V normal = detail::wall_normal(w);
                deepest.add((S(1) - t) * boids::length(feeler), normal, feeler, feeler_length, limits.max_force);
            }
        }
        return deepest.push;
    }
};

// Where the caller's ray cast met a surface.
template <class V>
struct ray_hit {
    V point;   // the first point of the surface along the ray
    V normal;  // the surface's normal there, either way round (any length but zero)
};

// avoid_walls' feelers against the world of the caller's engine, in 2D or 3D (there two
// more, above and below): `raycast(from, to, hit)` returns true and fills `hit` where
// the segment from `from` to `to` first meets something solid (a physics engine's
// ray query, a tile map's line walk). The deepest crossing pushes out along the
// surface's normal, in proportion to its depth: make one with make_avoid_by_raycast.
template <class V, class Raycast>
struct avoid_by_raycast {
    using S = scalar_t<V>;
    Raycast raycast;  // bool(const V& from, const V& to, ray_hit<V>& hit)
    steering_limits<S> limits;
    S feeler_length = S(1);

    [[nodiscard]] V operator()(const V& position, const V& velocity) const {
        const detail::feelers<V> feelers(velocity, feeler_length);
        detail::deepest_crossing<V> deepest;
        for (const V& feeler : feelers.ray) {
            ray_hit<V> hit{position, boids::zero<V>()};
            if (!raycast(position, boids::add(position, feeler), hit)) continue;
            const S d = boids::length(feeler) - boids::distance(position, hit.point);
            if (boids::is_finite(hit.normal) && !boids::is_zero(hit.normal))
                deepest.add(d, hit.normal, feeler, feeler_length, limits.max_force);
        }
        return deepest.push;
    }
};

template <class V, class Raycast>
[[nodiscard]] avoid_by_raycast<V, std::decay_t<Raycast>> make_avoid_by_raycast(
    Raycast&& raycast, const steering_limits<scalar_t<V>>& limits, scalar_t<V> feeler_length) {
    return {std::forward<Raycast>(raycast), limits, feeler_length};
}

// Stay inside the box [low, high]: when the position predicted look_ahead seconds ahead
// leaves it (shrunk by margin), brake at full force along each offending axis. With
// look_ahead >= max_speed / (2 max_force) (the default look_ahead = max_speed / max_force
// doubles that) the agent turns back before the edge instead of being teleported.
template <class V>
struct stay_within {
    using S = scalar_t<V>;
    V low, high;
    steering_limits<S> limits;
    S margin = S(0);
    S look_ahead = S(-1);  // s; negative: max_speed / max_force

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        const S t =
            look_ahead >= S(0) ? look_ahead : (limits.max_force > S(0) ? limits.max_speed / limits.max_force : S(0));
        const V ahead = boids::predict(position, velocity, t);
        bool any = false;
        const V a = boids::generate<V>([&](std::size_t i) {
            const S lo = boids::get(low, i) + margin, hi = boids::get(high, i) - margin;
            const S x = boids::get(ahead, i), p = boids::get(position, i), v = boids::get(velocity, i);
            if (p < lo || (x < lo && v < S(0))) {  // outside, or heading out: push back in
                any = true;
                return limits.max_force;
            }
            if (p > hi || (x > hi && v > S(0))) {
                any = true;
                return -limits.max_force;
            }
            return S(0);
        });
        return any ? boids::clamp_magnitude(a, limits.max_force) : boids::zero<V>();
    }
};

}  // namespace boids

// boids/behaviors/path.hpp - following a polyline path (an A* route) smoothly.
//
// The agent predicts where it will be prediction_time seconds ahead; only if that
// point would leave the path's corridor (radius) does it steer, toward a point a
// little further along the path. On an open path it arrives at the end.
#pragma once
#include <algorithm>
#include <limits>
#include <vector>
#include "../span.hpp"
#include "seek_flee_arrive.hpp"

namespace boids {

template <class V>
struct path_point {
    V point;
    scalar_t<V> along;     // distance along the path
    scalar_t<V> distance;  // from the query to `point`
};

// A polyline with a corridor radius; closed paths join the last point to the first.
template <class V>
struct polyline_path {
    span<const V> points;
    scalar_t<V> radius = scalar_t<V>(1);
    bool closed = false;

    [[nodiscard]] std::size_t segments() const noexcept {
        if (points.size() < 2) return 0;
        return closed ? points.size() : points.size() - 1;
    }
    [[nodiscard]] scalar_t<V> length() const noexcept {
        scalar_t<V> l = 0;
        for (std::size_t i = 0; i < segments(); ++i) l += boids::distance(points[i], points[(i + 1) % points.size()]);
        return l;
    }
    // The nearest point of the path to q (the single point of a one-point path).
    [[nodiscard]] path_point<V> nearest(const V& q) const noexcept {
        using S = scalar_t<V>;
        if (points.empty()) return {q, S(0), S(0)};
        if (segments() == 0) return {points[0], S(0), boids::distance(q, points[0])};
        path_point<V> best{points[0], S(0), std::numeric_limits<S>::infinity()};
        S along = 0;
        for (std::size_t i = 0; i < segments(); ++i) {
            const V& a = points[i];
            const V& b = points[(i + 1) % points.size()];
            const V ab = boids::sub(b, a);
            const S l2 = boids::length_squared(ab);
            S t = l2 > S(0) ? boids::dot(boids::sub(q, a), ab) / l2 : S(0);
            t = std::clamp(t, S(0), S(1));
            const V p = boids::add_scaled(a, ab, t);
            const S d = boids::distance(q, p);
            if (d < best.distance) best = {p, along + t * std::sqrt(l2), d};
            along += std::sqrt(l2);
        }
        return best;
    }
    // The point `along` length units from the start (wrapping on closed paths).
    [[nodiscard]] V at(scalar_t<V> along) const noexcept {
        using S = scalar_t<V>;
        if (points.empty()) return boids::zero<V>();
        if (segments() == 0) return points[0];
        const S total = length();
        if (closed && total > S(0)) {
            along = std::fmod(along, total);
            if (along < S(0)) along += total;
        }
        for (std::size_t i = 0; i < segments(); ++i) {
            const V& a = points[i];
            const V& b = points[(i + 1) % points.size()];
            const S l = boids::distance(a, b);
            if (along <= l || i + 1 == segments()) {
                const S t = l > S(0) ? std::clamp(along / l, S(0), S(1)) : S(0);
                return boids::add_scaled(a, boids::sub(b, a), t);
            }
            along -= l;
        }
        return points[points.size() - 1];
    }
};

template <class V>
struct follow_path {
    using S = scalar_t<V>;
    polyline_path<V> path;
    steering_limits<S> limits;
    S prediction_time = S(0.5);  // s
    S look_ahead = S(0);         // how far along the path to aim when correcting (0: the radius)
    S slowing_radius = S(0);     // open paths: arrive at the end over this distance (0: 4 reaction times of travel)

    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        if (path.points.empty()) return boids::steer_toward(boids::zero<V>(), velocity, limits);  // nowhere to go: stop
        const S total = path.length();
        const S slow = slowing_radius > S(0) ? slowing_radius : S(4) * limits.reaction_time * limits.max_speed;
        const S ahead = look_ahead > S(0) ? look_ahead : std::max(path.radius, S(0));
        const path_point<V> here = path.nearest(position);
        if (!path.closed && (path.segments() == 0 || total - here.along <= slow)) {  // the end: arrive
            return arrive<V>{path.at(total), slow, limits, S(0)}(position, velocity);
        }
        const V future = boids::predict(position, velocity, prediction_time);
        const path_point<V> there = path.nearest(future);
        const S speed = boids::length(velocity);
        const bool leaving = there.distance > path.radius;
        const bool stalled = speed < S(0.25) * limits.max_speed;
        if (!leaving && !stalled && there.along >= here.along)  // on course: no turning, only cruise speed
            return boids::steer_toward(boids::scale(boids::normalized_or_zero(velocity), limits.max_speed), velocity,
                                       limits);
        // Aim a little further along the path than where we are (or will be).
        const S from = std::max(here.along, there.along);
        return seek<V>{path.at(from + ahead), limits}(position, velocity);
    }
};

}  // namespace boids

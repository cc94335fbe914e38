// boids/crowd/detail/linear_program3d.hpp - the 3D linear programs behind ORCA in 3D: the
// velocity nearest the preferred one on the permitted side of every half-space and
// within the speed sphere, and, when none exists, the one that violates the worst of
// them least. RVO2-3D's arithmetic, in the scalar type of the caller's vectors.
#pragma once
#include <array>
#include <cmath>
#include <cstddef>
#include "../../span.hpp"
#include "linear_program2d.hpp"

namespace boids {

// A plane through `point` with unit `normal`; permitted: normal . (v - point) >= 0.
template <class S>
struct half_space {
    std::array<S, 3> point{};
    std::array<S, 3> normal{S(0), S(0), S(1)};
};

namespace detail {

template <class S>
using vec3s = std::array<S, 3>;

template <class S>
constexpr S dot3(const vec3s<S>& a, const vec3s<S>& b) noexcept {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
template <class S>
constexpr vec3s<S> cross3(const vec3s<S>& a, const vec3s<S>& b) noexcept {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
template <class S>
constexpr vec3s<S> axpy3(S t, const vec3s<S>& a, const vec3s<S>& b) noexcept {  // t a + b
    return {t * a[0] + b[0], t * a[1] + b[1], t * a[2] + b[2]};
}
template <class S>
constexpr vec3s<S> sub3(const vec3s<S>& a, const vec3s<S>& b) noexcept {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
template <class S>
vec3s<S> unit3(const vec3s<S>& a) noexcept {
    const S len = std::sqrt(dot3(a, a));
    return len > S(0) ? vec3s<S>{a[0] / len, a[1] / len, a[2] / len} : vec3s<S>{S(0), S(0), S(1)};
}
template <class S>
bool violates(const half_space<S>& h, const vec3s<S>& v) noexcept {
    return dot3(h.normal, sub3(h.point, v)) > S(0);
}

// The optimum on the line (point, unit direction) given the planes before `at`.
template <class S>
bool lp3d_line(span<const half_space<S>> planes, std::size_t at, const vec3s<S>& point, const vec3s<S>& direction,
               S radius, const vec3s<S>& opt, bool direction_opt, vec3s<S>& result) noexcept {
    const S d = dot3(point, direction);
    const S discriminant = d * d + radius * radius - dot3(point, point);
    if (!(discriminant >= S(0))) return false;
    const S root = std::sqrt(discriminant);
    S t_left = -d - root, t_right = -d + root;
    for (std::size_t i = 0; i < at; ++i) {
        const S numerator = dot3(sub3(planes[i].point, point), planes[i].normal);
        const S denominator = dot3(direction, planes[i].normal);
        if (denominator * denominator <= lp_epsilon<S>) {
            if (numerator > S(0)) return false;
            continue;
        }
        const S t = numerator / denominator;
        if (denominator >= S(0)) t_left = t > t_left ? t : t_left;
        else t_right = t < t_right ? t : t_right;
        if (t_left > t_right) return false;
    }
    S t;
    if (direction_opt) {
        t = dot3(opt, direction) > S(0) ? t_right : t_left;
    } else {
        t = dot3(direction, sub3(opt, point));
        t = t < t_left ? t_left : (t > t_right ? t_right : t);
    }
    result = axpy3(t, direction, point);
    return true;
}

// The optimum on plane `at` given the planes before it.
template <class S>
bool lp3d_plane(span<const half_space<S>> planes, std::size_t at, S radius, const vec3s<S>& opt, bool direction_opt,
                vec3s<S>& result) noexcept {
    const half_space<S>& p = planes[at];
    const S dist = dot3(p.point, p.normal);
    const S radius2 = radius * radius;
    if (dist * dist > radius2) return false;
    const S plane_radius2 = radius2 - dist * dist;
    const vec3s<S> centre{dist * p.normal[0], dist * p.normal[1], dist * p.normal[2]};
    if (direction_opt) {
        const vec3s<S> along = axpy3(-dot3(opt, p.normal), p.normal, opt);
        const S len2 = dot3(along, along);
        result = len2 <= lp_epsilon<S> ? centre : axpy3(std::sqrt(plane_radius2 / len2), along, centre);
    } else {
        result = axpy3(dot3(sub3(p.point, opt), p.normal), p.normal, opt);
        if (dot3(result, result) > radius2) {
            const vec3s<S> off = sub3(result, centre);
            const S len2 = dot3(off, off);
            result = len2 > S(0) ? axpy3(std::sqrt(plane_radius2 / len2), off, centre) : centre;
        }
    }
    for (std::size_t i = 0; i < at; ++i) {
        if (!violates(planes[i], result)) continue;
        const vec3s<S> c = cross3(planes[i].normal, p.normal);
        if (dot3(c, c) <= lp_epsilon<S>) return false;  // parallel and opposed
        const vec3s<S> direction = unit3(c);
        const vec3s<S> line_normal = cross3(direction, p.normal);
        const S along = dot3(sub3(planes[i].point, p.point), planes[i].normal) / dot3(line_normal, planes[i].normal);
        const vec3s<S> point = axpy3(along, line_normal, p.point);
        if (!lp3d_line(planes, i, point, direction, radius, opt, direction_opt, result)) return false;
    }
    return true;
}

// The optimum over every plane within the sphere; returns planes.size() when feasible,
// else the index of the plane that failed (result: the optimum before it).
template <class S>
std::size_t lp3d(span<const half_space<S>> planes, S radius, const vec3s<S>& opt, bool direction_opt,
                 vec3s<S>& result) noexcept {
    const S opt2 = dot3(opt, opt);
    if (direction_opt) result = {opt[0] * radius, opt[1] * radius, opt[2] * radius};
    else if (opt2 > radius * radius) result = axpy3(radius / std::sqrt(opt2) - S(1), opt, opt);
    else result = opt;
    for (std::size_t i = 0; i < planes.size(); ++i) {
        if (!violates(planes[i], result)) continue;
        const vec3s<S> before = result;
        if (!lp3d_plane(planes, i, radius, opt, direction_opt, result)) {
            result = before;
            return i;
        }
    }
    return planes.size();
}

// No velocity satisfies every plane from `begin` on: the one that least violates the
// worst (a 4D program, solved by projecting onto each violated plane in turn). The
// first `hard` planes (obstacles) are kept as they are. `scratch`: room for
// planes.size() planes.
template <class S>
void lp3d_least_violation(span<const half_space<S>> planes, std::size_t begin, S radius, vec3s<S>& result,
                          span<half_space<S>> scratch, std::size_t hard = 0) noexcept {
    S distance = S(0);
    for (std::size_t i = begin; i < planes.size(); ++i) {
        const half_space<S>& pi = planes[i];
        if (!(dot3(pi.normal, sub3(pi.point, result)) > distance)) continue;
        std::size_t m = 0;
        for (std::size_t j = 0; j < hard; ++j) scratch[m++] = planes[j];
        for (std::size_t j = hard; j < i; ++j) {
            const half_space<S>& pj = planes[j];
            half_space<S> q;
            const vec3s<S> c = cross3(pj.normal, pi.normal);
            if (dot3(c, c) <= lp_epsilon<S>) {
                if (dot3(pi.normal, pj.normal) > S(0)) continue;  // same way: j adds nothing
                q.point = {S(0.5) * (pi.point[0] + pj.point[0]), S(0.5) * (pi.point[1] + pj.point[1]),
                           S(0.5) * (pi.point[2] + pj.point[2])};
            } else {
                const vec3s<S> line_normal = cross3(c, pi.normal);
                const S along = dot3(sub3(pj.point, pi.point), pj.normal) / dot3(line_normal, pj.normal);
                q.point = axpy3(along, line_normal, pi.point);
            }
            const vec3s<S> e = sub3(pj.normal, pi.normal);
            if (!(dot3(e, e) > S(0))) continue;
            q.normal = unit3(e);
            scratch[m++] = q;
        }
        const vec3s<S> before = result;
        const span<const half_space<S>> projected(scratch.data(), m);
        if (lp3d(projected, radius, pi.normal, true, result) < m) result = before;
        distance = dot3(pi.normal, sub3(pi.point, result));
    }
}

}  // namespace detail
}  // namespace boids

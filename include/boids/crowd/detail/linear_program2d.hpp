// boids/crowd/detail/linear_program2d.hpp - the 2D linear programs behind ORCA: the velocity
// nearest the preferred one that lies on the permitted side of every half-plane and
// within the speed circle, and, when no velocity satisfies them all, the one that
// violates the worst of them least.
//
// A half-plane is a line (a point and a unit direction); the permitted side is on the
// line's left. The arithmetic is RVO2's (van den Berg et al., "Reciprocal n-body
// collision avoidance", 2011), in the scalar type of the caller's vectors.
#pragma once
#include <cmath>
#include <cstddef>
#include "../../span.hpp"

namespace boids {

template <class S>
struct half_plane {
    S px = S(0), py = S(0);  // a point on the line
    S dx = S(1), dy = S(0);  // its unit direction: the permitted side is on its left
};

namespace detail {

template <class S>
[[nodiscard]] constexpr S cross2(S ax, S ay, S bx, S by) noexcept {
    return ax * by - ay * bx;
}
template <class S>
inline constexpr S lp_epsilon = S(1e-5);

template <class S>
struct velocity2 {
    S x = S(0), y = S(0);
};

// The optimum on line `at` given the lines before it, within the circle of `radius`:
// nearest opt (or, with direction_opt, farthest along opt). False when infeasible.
template <class S>
bool linear_program1(span<const half_plane<S>> lines, std::size_t at, S radius, velocity2<S> opt, bool direction_opt,
                     velocity2<S>& result) noexcept {
    const half_plane<S>& l = lines[at];
    const S dot = l.px * l.dx + l.py * l.dy;
    const S discriminant = dot * dot + radius * radius - (l.px * l.px + l.py * l.py);
    if (!(discriminant >= S(0))) return false;  // the speed circle lies wholly outside this line
    const S root = std::sqrt(discriminant);
    S t_left = -dot - root, t_right = -dot + root;
    for (std::size_t i = 0; i < at; ++i) {
        const half_plane<S>& o = lines[i];
        const S denominator = cross2(l.dx, l.dy, o.dx, o.dy);
        const S numerator = cross2(o.dx, o.dy, l.px - o.px, l.py - o.py);
        if (std::fabs(denominator) <= lp_epsilon<S>) {  // parallel
            if (numerator < S(0)) return false;
            continue;
        }
        const S t = numerator / denominator;
        if (denominator >= S(0)) t_right = t < t_right ? t : t_right;
        else t_left = t > t_left ? t : t_left;
        if (t_left > t_right) return false;
    }
    S t;
    if (direction_opt) {
        t = opt.x * l.dx + opt.y * l.dy > S(0) ? t_right : t_left;
    } else {
        t = l.dx * (opt.x - l.px) + l.dy * (opt.y - l.py);
        t = t < t_left ? t_left : (t > t_right ? t_right : t);
    }
    result = {l.px + t * l.dx, l.py + t * l.dy};
    return true;
}

// The optimum over every line within the circle; returns lines.size() when feasible,
// else the index of the line that failed (result: the optimum before it).
template <class S>
std::size_t linear_program2(span<const half_plane<S>> lines, S radius, velocity2<S> opt, bool direction_opt,
                            velocity2<S>& result) noexcept {
    const S opt2 = opt.x * opt.x + opt.y * opt.y;
    if (direction_opt) {
        result = {opt.x * radius, opt.y * radius};
    } else if (opt2 > radius * radius) {
        const S f = radius / std::sqrt(opt2);
        result = {opt.x * f, opt.y * f};
    } else {
        result = opt;
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const half_plane<S>& l = lines[i];
        if (cross2(l.dx, l.dy, l.px - result.x, l.py - result.y) > S(0)) {  // result is on the wrong side
            const velocity2<S> before = result;
            if (!linear_program1(lines, i, radius, opt, direction_opt, result)) {
                result = before;
                return i;
            }
        }
    }
    return lines.size();
}

// No velocity satisfies every line from `begin` on: the one that least violates the
// worst of them (a 3D program, solved as RVO2 does by projecting the lines onto each
// violated one in turn). The first `hard` lines (obstacles) are kept as they are,
// never traded off. `scratch` holds room for lines.size() lines.
template <class S>
void linear_program3(span<const half_plane<S>> lines, std::size_t begin, S radius, velocity2<S>& result,
                     span<half_plane<S>> scratch, std::size_t hard = 0) noexcept {
    S distance = S(0);
    for (std::size_t i = begin; i < lines.size(); ++i) {
        const half_plane<S>& li = lines[i];
        if (!(cross2(li.dx, li.dy, li.px - result.x, li.py - result.y) > distance)) continue;
        std::size_t m = 0;
        for (std::size_t j = 0; j < hard; ++j) scratch[m++] = lines[j];
        for (std::size_t j = hard; j < i; ++j) {
            const half_plane<S>& lj = lines[j];
            half_plane<S> p;
            const S determinant = cross2(li.dx, li.dy, lj.dx, lj.dy);
            if (std::fabs(determinant) <= lp_epsilon<S>) {
                if (li.dx * lj.dx + li.dy * lj.dy > S(0)) continue;  // same direction: j adds nothing
                p.px = S(0.5) * (li.px + lj.px);
                p.py = S(0.5) * (li.py + lj.py);
            } else {
                const S t = cross2(lj.dx, lj.dy, li.px - lj.px, li.py - lj.py) / determinant;
                p.px = li.px + t * li.dx;
                p.py = li.py + t * li.dy;
            }
            const S ex = lj.dx - li.dx, ey = lj.dy - li.dy;
            const S len = std::sqrt(ex * ex + ey * ey);
            if (!(len > S(0))) continue;
            p.dx = ex / len;
            p.dy = ey / len;
            scratch[m++] = p;
        }
        const velocity2<S> before = result;
        const span<const half_plane<S>> projected(scratch.data(), m);
        if (linear_program2(projected, radius, velocity2<S>{-li.dy, li.dx}, true, result) < m) result = before;
        distance = cross2(li.dx, li.dy, li.px - result.x, li.py - result.y);
    }
}

}  // namespace detail
}  // namespace boids

// boids/models/detail/measures.hpp - the starling measures' helpers: points in
// double precision, the finite birds, a 3x3 eigenvector, directions on the sphere.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>
#include "../../config.hpp"
#include "../../span.hpp"
#include "../../vector.hpp"

namespace boids {
namespace detail {
namespace field {

using point3 = std::array<double, 3>;

template <class V>
[[nodiscard]] point3 to_point(const V& v) noexcept {
    return {static_cast<double>(boids::get(v, 0)), static_cast<double>(boids::get(v, 1)),
            static_cast<double>(boids::get(v, 2))};
}
[[nodiscard]] inline double dot3(const point3& a, const point3& b) noexcept {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
[[nodiscard]] inline bool finite3(const point3& a) noexcept {
    return std::isfinite(a[0]) && std::isfinite(a[1]) && std::isfinite(a[2]);
}

// The birds whose position and velocity are both finite: the others are not measured.
template <class V>
void finite_birds(span<const V> positions, span<const V> velocities, std::vector<point3>& p, std::vector<point3>& v) {
    const std::size_t n = std::min(positions.size(), velocities.size());
    p.clear();
    v.clear();
    for (std::size_t i = 0; i < n; ++i) {
        const point3 x = to_point(positions[i]), u = to_point(velocities[i]);
        if (finite3(x) && finite3(u)) {
            p.push_back(x);
            v.push_back(u);
        }
    }
}

// The unit eigenvector of the smallest eigenvalue of the symmetric 3x3 matrix m
// (Jacobi rotations; exact enough after a few sweeps for a 3x3).
[[nodiscard]] inline point3 smallest_eigenvector(std::array<std::array<double, 3>, 3> m) noexcept {
    std::array<std::array<double, 3>, 3> e{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    for (int sweep = 0; sweep < 32; ++sweep) {
        const double off = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
        if (!(off > 1e-30)) break;
        for (std::size_t p = 0; p < 2; ++p)
            for (std::size_t q = p + 1; q < 3; ++q) {
                if (m[p][q] == 0) continue;
                const double theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
                const double c = 1 / std::sqrt(t * t + 1), s = t * c;
                for (std::size_t k = 0; k < 3; ++k) {  // m <- m J, then J^T m
                    const double a = m[k][p], b = m[k][q];
                    m[k][p] = c * a - s * b;
                    m[k][q] = s * a + c * b;
                }
                for (std::size_t k = 0; k < 3; ++k) {
                    const double a = m[p][k], b = m[q][k];
                    m[p][k] = c * a - s * b;
                    m[q][k] = s * a + c * b;
                }
                for (std::size_t k = 0; k < 3; ++k) {
                    const double a = e[k][p], b = e[k][q];
                    e[k][p] = c * a - s * b;
                    e[k][q] = s * a + c * b;
                }
            }
    }
    std::size_t lowest = 0;
    for (std::size_t k = 1; k < 3; ++k)
        if (m[k][k] < m[lowest][lowest]) lowest = k;
    return {e[0][lowest], e[1][lowest], e[2][lowest]};
}

// `count` directions spread evenly over the sphere (a Fibonacci lattice).
[[nodiscard]] inline std::vector<point3> sphere_directions(std::size_t count) {
    std::vector<point3> d(count);
    const double golden = boids::pi<double> * (3.0 - std::sqrt(5.0));
    for (std::size_t i = 0; i < count; ++i) {
        const double y = 1 - 2 * (static_cast<double>(i) + 0.5) / static_cast<double>(count);
        const double r = std::sqrt(std::max(0.0, 1 - y * y)), a = golden * static_cast<double>(i);
        d[i] = {r * std::cos(a), y, r * std::sin(a)};
    }
    return d;
}

// Each point's distance to the convex hull of all, from within, over `directions`
// directions (see border_distances).
[[nodiscard]] inline std::vector<double> hull_distances(const std::vector<point3>& p, std::size_t directions) {
    std::vector<double> out(p.size(), std::numeric_limits<double>::infinity());
    for (const point3& d : sphere_directions(directions)) {
        double outermost = -std::numeric_limits<double>::infinity();
        for (const auto& x : p) outermost = std::max(outermost, dot3(x, d));
        for (std::size_t i = 0; i < p.size(); ++i) out[i] = std::min(out[i], outermost - dot3(p[i], d));
    }
    return out;
}

// The first zero of C (bins with no pair skipped), interpolated between the centres
// of the bins on each side; `size` when C stays positive.
[[nodiscard]] inline double first_zero(const std::vector<double>& c, const std::vector<std::size_t>& pairs, double w,
                                       double size) {
    double last_r = 0, last_c = 0;
    bool any = false;
    for (std::size_t b = 0; b < c.size(); ++b) {
        if (pairs[b] == 0) continue;
        const double r = (static_cast<double>(b) + 0.5) * w;
        if (any && last_c > 0 && c[b] <= 0) return last_r + (r - last_r) * last_c / (last_c - c[b]);
        if (!any && c[b] <= 0) return r * 0.5;  // already uncorrelated in the first bin
        last_r = r;
        last_c = c[b];
        any = true;
    }
    return size;
}

}  // namespace field
}  // namespace detail
}  // namespace boids

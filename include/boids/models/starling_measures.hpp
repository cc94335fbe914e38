// boids/models/starling_measures.hpp - what the field studies of starling flocks
// measure, from any 3D flock's positions and velocities:
//   - neighbour anisotropy gamma(n) (Ballerini et al., PNAS 2008), interior birds only;
//   - the connected correlations of speed and direction fluctuations C(r) and their
//     correlation lengths xi, the first zeros (Cavagna et al., PNAS 2010), and the
//     flock's linear size L;
//   - how a turn crosses the flock (Attanasi et al., Nature Physics 2014): each bird's
//     turning time against its distance from the first bird to turn.
// Any consistent units (the starling model's are metres and seconds).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>
#include "../neighbors/uniform_grid.hpp"
#include "../span.hpp"
#include "../vector.hpp"
#include "detail/measures.hpp"

namespace boids {
namespace starling {

// Each bird's distance to the flock's border, taken as the convex hull of the birds:
// the smallest gap, over `directions` directions spread over the sphere, between the
// bird and the outermost bird along that direction. An estimate from above that
// tightens with more directions; 0 on the hull.
template <class V>
[[nodiscard]] std::vector<double> border_distances(span<const V> positions, std::size_t directions = 256) {
    std::vector<boids::detail::field::point3> p;
    p.reserve(positions.size());
    for (const V& x : positions) p.push_back(boids::detail::field::to_point(x));
    return boids::detail::field::hull_distances(p, directions);
}

// The structure of the neighbourhood, over the interior birds: those farther from the
// border than from their `ranks`-th nearest neighbour, so that no neighbour up to that
// rank is missing beyond the border (the papers' exclusion of the border).
struct neighbour_structure {
    // gamma[n - 1], n = 1..ranks: the squared projection on the flock's direction of
    // flight of the direction in which the n-th neighbours are scarcest (the eigenvector
    // of the smallest eigenvalue of the interior birds' mean u u^T, u the unit vector to
    // the n-th neighbour). 1/3 on average when the neighbours show no preferred
    // direction; near 1 when none sits ahead or behind. Empty when no bird is interior
    // or the flock has no direction.
    std::vector<double> gamma;
    std::vector<double> rank_distance;  // the mean distance to the n-th neighbour, interior birds
    std::size_t interior = 0;           // interior birds measured
    double nearest_mean = 0;            // the mean nearest-neighbour distance, every bird (0: fewer than 2)
};

template <class V>
[[nodiscard]] neighbour_structure neighbour_anisotropy(span<const V> positions, span<const V> velocities,
                                                       std::size_t ranks = 20) {
    static_assert(dimension_v<V> == 3, "starling measures: 3D only");
    using S = scalar_t<V>;
    using boids::detail::field::point3;
    neighbour_structure out;
    std::vector<point3> p, v;
    boids::detail::field::finite_birds(positions, velocities, p, v);
    const std::size_t n = p.size();
    if (n < 2 || ranks == 0) return out;
    const std::size_t k = std::min(ranks, n - 1);
    // Cells about the k-th neighbour's reach in the bounding box: speed only.
    point3 lo = p[0], hi = p[0], mean_v{0, 0, 0};
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t d = 0; d < 3; ++d) {
            lo[d] = std::min(lo[d], p[i][d]);
            hi[d] = std::max(hi[d], p[i][d]);
            mean_v[d] += v[i][d];
        }
    const double volume = std::max((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]), 1e-30);
    const double cell = std::cbrt(volume * static_cast<double>(k + 1) / static_cast<double>(n));
    std::vector<V> at(n);
    for (std::size_t i = 0; i < n; ++i)
        at[i] = boids::generate<V>([&](std::size_t d) { return static_cast<S>(p[i][d]); });
    uniform_grid<V> grid(world_for<V>{}, static_cast<S>(std::isfinite(cell) && cell > 1e-9 ? cell : 1.0));
    grid.build(span<const V>(at));
    const std::vector<double> border = boids::detail::field::hull_distances(p, 256);
    std::vector<neighbor<S, 3>> buffer(k);
    std::vector<std::array<std::array<double, 3>, 3>> m(k, std::array<std::array<double, 3>, 3>{});
    out.rank_distance.assign(k, 0.0);
    double nearest_sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        k_nearest<S, 3> knn(span<neighbor<S, 3>>(buffer), k);
        grid.nearest(i, knn);
        const auto found = knn.result();
        if (found.empty()) continue;
        nearest_sum += std::sqrt(static_cast<double>(found[0].distance_squared));
        if (found.size() < k || !(border[i] > std::sqrt(static_cast<double>(found[k - 1].distance_squared)))) continue;
        ++out.interior;
        for (std::size_t r = 0; r < k; ++r) {
            const double len = std::sqrt(static_cast<double>(found[r].distance_squared));
            out.rank_distance[r] += len;
            if (!(len > 0)) continue;  // a bird on the same spot shows no direction
            point3 u;
            for (std::size_t d = 0; d < 3; ++d) u[d] = static_cast<double>(found[r].offset[d]) / len;
            for (std::size_t a = 0; a < 3; ++a)
                for (std::size_t b = 0; b < 3; ++b) m[r][a][b] += u[a] * u[b];
        }
    }
    out.nearest_mean = nearest_sum / static_cast<double>(n);
    const double speed = std::sqrt(boids::detail::field::dot3(mean_v, mean_v));
    if (out.interior == 0 || !(speed > 0)) {
        out.rank_distance.clear();
        return out;
    }
    const point3 heading{mean_v[0] / speed, mean_v[1] / speed, mean_v[2] / speed};
    out.gamma.resize(k);
    for (std::size_t r = 0; r < k; ++r) {
        out.rank_distance[r] /= static_cast<double>(out.interior);
        const double w = boids::detail::field::dot3(boids::detail::field::smallest_eigenvector(m[r]), heading);
        out.gamma[r] = w * w;
    }
    return out;
}

// The connected correlation functions of the birds' fluctuations around the flock's
// means, C(r) = sum over pairs at distance r of f_i . f_j / their count, divided by
// the mean f_i . f_i: for the speed (f_i = |v_i| - mean speed) and the direction
// (f_i = v_i/|v_i| - the mean of those unit vectors).
struct correlation_functions {
    double size = 0;       // L: the largest distance between two birds
    double bin_width = 0;  // C's bins: [b w, (b + 1) w), b = 0..bins - 1, over [0, L]
    std::vector<double> speed, direction;
    std::vector<std::size_t> pairs;  // pairs per bin (C is 0 where there are none)
    // The first zeros of C (interpolated between the centres of the bins on each
    // side): the correlation lengths. 0 when the fluctuations are all zero; L when C
    // stays positive.
    double xi_speed = 0, xi_direction = 0;
};

template <class V>
[[nodiscard]] correlation_functions correlations(span<const V> positions, span<const V> velocities,
                                                 std::size_t bins = 64) {
    static_assert(dimension_v<V> == 3, "starling measures: 3D only");
    using boids::detail::field::point3;
    correlation_functions out;
    std::vector<point3> p, v;
    boids::detail::field::finite_birds(positions, velocities, p, v);
    const std::size_t n = p.size();
    if (n < 2 || bins == 0) return out;
    std::vector<double> speed(n);
    std::vector<point3> dir(n);
    double mean_speed = 0;
    point3 mean_dir{0, 0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        speed[i] = std::sqrt(boids::detail::field::dot3(v[i], v[i]));
        const double inv = speed[i] > 0 ? 1 / speed[i] : 0;
        dir[i] = {v[i][0] * inv, v[i][1] * inv, v[i][2] * inv};
        mean_speed += speed[i];
        for (std::size_t d = 0; d < 3; ++d) mean_dir[d] += dir[i][d];
    }
    mean_speed /= static_cast<double>(n);
    double var_speed = 0, var_dir = 0;
    for (std::size_t i = 0; i < n; ++i) {
        speed[i] -= mean_speed;
        for (std::size_t d = 0; d < 3; ++d) dir[i][d] -= mean_dir[d] / static_cast<double>(n);
        var_speed += speed[i] * speed[i];
        var_dir += boids::detail::field::dot3(dir[i], dir[i]);
    }
    double size2 = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const point3 d{p[j][0] - p[i][0], p[j][1] - p[i][1], p[j][2] - p[i][2]};
            size2 = std::max(size2, boids::detail::field::dot3(d, d));
        }
    out.size = std::sqrt(size2);
    out.speed.assign(bins, 0.0);
    out.direction.assign(bins, 0.0);
    out.pairs.assign(bins, 0);
    if (!(out.size > 0)) return out;
    out.bin_width = out.size / static_cast<double>(bins);
    const double per_bin = 1 / out.bin_width;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const point3 d{p[j][0] - p[i][0], p[j][1] - p[i][1], p[j][2] - p[i][2]};
            const auto b =
                std::min(bins - 1, static_cast<std::size_t>(std::sqrt(boids::detail::field::dot3(d, d)) * per_bin));
            out.speed[b] += speed[i] * speed[j];
            out.direction[b] += boids::detail::field::dot3(dir[i], dir[j]);
            ++out.pairs[b];
        }
    const double norm_speed = var_speed > 0 ? static_cast<double>(n) / var_speed : 0;
    const double norm_dir = var_dir > 0 ? static_cast<double>(n) / var_dir : 0;
    for (std::size_t b = 0; b < bins; ++b) {
        const double count = out.pairs[b] > 0 ? static_cast<double>(out.pairs[b]) : 1;
        out.speed[b] *= norm_speed / count;
        out.direction[b] *= norm_dir / count;
    }
    out.xi_speed = var_speed > 0 ? boids::detail::field::first_zero(out.speed, out.pairs, out.bin_width, out.size) : 0;
    out.xi_direction =
        var_dir > 0 ? boids::detail::field::first_zero(out.direction, out.pairs, out.bin_width, out.size) : 0;
    return out;
}

// How a turn crosses the flock. start() takes the flock when the first bird turns;
// observe() is called after every step. A bird's turning time is the first time its
// direction of flight is more than `threshold` radians off its direction at the
// start; its amplitude is the fastest it turned (rad/s) over the whole observation.
template <class V>
class turn_tracker {
public:
    struct summary {
        std::size_t birds = 0, reached = 0;            // followed, and turned past the threshold
        double speed = 0;                              // of propagation: 1 / the slope of turning time against distance
        double r2 = 0;                                 // of that line (1: every bird on it)
        double delay = 0;                              // the line's turning time at distance 0, after start()
        double far_distance = 0;                       // the farthest bird reached, from the first
        double amplitude_near = 0, amplitude_far = 0;  // median amplitudes of the nearest and farthest tenths reached
    };

    void start(span<const V> positions, span<const V> velocities, std::size_t first, double t, double threshold = 0.5) {
        // No such first bird: nothing is followed.
        const std::size_t m = std::min(positions.size(), velocities.size()), n = first < m ? m : 0;
        start_ = t;
        last_ = t;
        threshold_ = threshold;
        distance_.assign(n, 0.0);
        arrival_.assign(n, std::numeric_limits<double>::quiet_NaN());
        amplitude_.assign(n, 0.0);
        initial_.assign(n, {0, 0, 0});
        previous_.assign(n, {0, 0, 0});
        if (n == 0) return;
        const boids::detail::field::point3 origin = boids::detail::field::to_point(positions[first]);
        for (std::size_t i = 0; i < n; ++i) {
            const boids::detail::field::point3 x = boids::detail::field::to_point(positions[i]);
            distance_[i] = std::sqrt((x[0] - origin[0]) * (x[0] - origin[0]) + (x[1] - origin[1]) * (x[1] - origin[1]) +
                                     (x[2] - origin[2]) * (x[2] - origin[2]));
            initial_[i] = previous_[i] = unit(velocities[i]);
        }
    }

    void observe(span<const V> velocities, double t) {
        const double h = t - last_;
        if (!(h > 0)) return;
        last_ = t;
        for (std::size_t i = 0; i < std::min(velocities.size(), initial_.size()); ++i) {
            const boids::detail::field::point3 u = unit(velocities[i]);
            if (std::isnan(arrival_[i]) && angle(u, initial_[i]) > threshold_) arrival_[i] = t - start_;
            amplitude_[i] = std::max(amplitude_[i], angle(u, previous_[i]) / h);
            previous_[i] = u;
        }
    }

    // Per bird: the distance from the first bird at the start, the turning time after
    // the start (NaN: not turned yet), the amplitude in rad/s.
    [[nodiscard]] span<const double> distances() const noexcept { return {distance_.data(), distance_.size()}; }
    [[nodiscard]] span<const double> arrivals() const noexcept { return {arrival_.data(), arrival_.size()}; }
    [[nodiscard]] span<const double> amplitudes() const noexcept { return {amplitude_.data(), amplitude_.size()}; }

    [[nodiscard]] summary result() const {
        summary s;
        s.birds = distance_.size();
        std::vector<std::size_t> reached;
        for (std::size_t i = 0; i < s.birds; ++i)
            if (!std::isnan(arrival_[i]) && std::isfinite(distance_[i])) reached.push_back(i);
        s.reached = reached.size();
        if (reached.empty()) return s;
        // Least squares: arrival = delay + slope * distance.
        double sd = 0, sa = 0;
        for (std::size_t i : reached) {
            sd += distance_[i];
            sa += arrival_[i];
            s.far_distance = std::max(s.far_distance, distance_[i]);
        }
        const double m = static_cast<double>(reached.size()), md = sd / m, ma = sa / m;
        double sdd = 0, sda = 0, saa = 0;
        for (std::size_t i : reached) {
            sdd += (distance_[i] - md) * (distance_[i] - md);
            sda += (distance_[i] - md) * (arrival_[i] - ma);
            saa += (arrival_[i] - ma) * (arrival_[i] - ma);
        }
        const double slope = sdd > 0 ? sda / sdd : 0;
        s.delay = ma - slope * md;
        s.speed = slope > 0 ? 1 / slope : std::numeric_limits<double>::infinity();
        s.r2 = sdd > 0 && saa > 0 ? sda * sda / (sdd * saa) : 0;
        std::sort(reached.begin(), reached.end(), [&](std::size_t a, std::size_t b) {
            return distance_[a] < distance_[b] || (distance_[a] == distance_[b] && a < b);
        });
        const std::size_t tenth = std::max<std::size_t>(1, reached.size() / 10);
        auto median = [&](std::size_t b) {
            std::vector<double> a;
            for (std::size_t j = b; j < b + tenth; ++j) a.push_back(amplitude_[reached[j]]);
            std::nth_element(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(a.size() / 2), a.end());
            return a[a.size() / 2];
        };
        s.amplitude_near = median(0);
        s.amplitude_far = median(reached.size() - tenth);
        return s;
    }

private:
    [[nodiscard]] static boids::detail::field::point3 unit(const V& v) noexcept {
        boids::detail::field::point3 u = boids::detail::field::to_point(v);
        const double len = std::sqrt(boids::detail::field::dot3(u, u));
        if (!(len > 0) || !std::isfinite(len)) return {0, 0, 0};
        return {u[0] / len, u[1] / len, u[2] / len};
    }
    [[nodiscard]] static double angle(const boids::detail::field::point3& a,
                                      const boids::detail::field::point3& b) noexcept {
        // atan2 of |a x b| and a . b: accurate for small angles too.
        const boids::detail::field::point3 c{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                                             a[0] * b[1] - a[1] * b[0]};
        return std::atan2(std::sqrt(boids::detail::field::dot3(c, c)), boids::detail::field::dot3(a, b));
    }

    double start_ = 0, last_ = 0, threshold_ = 0.5;
    std::vector<double> distance_, arrival_, amplitude_;
    std::vector<boids::detail::field::point3> initial_, previous_;
};

}  // namespace starling
}  // namespace boids

// boids/detail/flock_kernel.hpp - the metric flock step's inner loop over a dense
// grid's runs of candidates, shaped so compilers vectorise it.
//
// The rules only need sums over the neighbourhood (count, offsets, velocities,
// separation push), so the kernel never materialises neighbour records. Each run
// of slots is read in blocks of `lanes` with a mask for the run's end, the boid
// itself, the radius and the cone; every lane keeps its own partial sums, which are
// added in a fixed order at the end. No reassociation is needed (so no -ffast-math)
// and the result does not depend on threads. It does depend on the order of the
// runs, so it differs in the last bits from the index-ordered generic path.
#pragma once
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include "pack.hpp"
#include "../flocking.hpp"
#include "../neighbors/query.hpp"
#include "../neighbors/world.hpp"

namespace boids {
namespace detail {

template <class S, std::size_t D>
struct neighborhood_sums {
    std::size_t count = 0;
    std::size_t coincident = 0;  // neighbours on exactly the same spot
    std::array<S, D> offset{};   // sum of offsets (cohesion)
    std::array<S, D> velocity{}; // sum of velocities (alignment)
    std::array<S, D> push{};     // separation push, coincident neighbours excluded
};

// One boid's query: its position (p), the cone, the radii, its slot, and the grid's
// per-axis positions and the matching velocities.
template <class S, std::size_t D>
struct kernel_query {
    std::array<S, D> p, heading, size, half;
    S r2, sep_r2, sep_radius, cos_half;
    std::size_t self, n;
    const S* pos;
    const S* vel;
};

// Sums over runs of candidates, a pack of lanes at a time. Lane indices are kept as
// floating-point numbers (exact below 2^24 boids in float), so every comparison is
// between packs of one type. All inputs are finite here (checked when velocities
// were gathered), so masking by multiplying with 0 or 1 is exact.
template <bool Toroidal, bool Cone, bool Linear, class S, std::size_t D>
struct lane_sums {
    using P = pack<S>;
    using F = typename P::f;
    F count = P::splat(S(0)), coincident = P::splat(S(0));
    F offset[D], velocity[D], push[D];

    lane_sums() noexcept {
        for (std::size_t d = 0; d < D; ++d) offset[d] = velocity[d] = push[d] = P::splat(S(0));
    }

    void scan(const kernel_query<S, D>& q, std::size_t s0, std::size_t s1) noexcept {
        // Constants and sums live in locals while the loop runs: no store through
        // `this` can then alias what the loop reads, and all of it fits in registers.
        const S* pos[D];
        const S* vel[D];
        F p[D], size[D], half[D], neg_half[D], heading[D];
        F l_count = count, l_coincident = coincident, l_offset[D], l_velocity[D], l_push[D];
        for (std::size_t d = 0; d < D; ++d) {
            pos[d] = q.pos + d * q.n;
            vel[d] = q.vel + d * q.n;
            p[d] = P::splat(q.p[d]);
            size[d] = P::splat(q.size[d]);
            half[d] = P::splat(q.half[d]);
            neg_half[d] = P::splat(-q.half[d]);
            heading[d] = P::splat(q.heading[d]);
            l_offset[d] = offset[d];
            l_velocity[d] = velocity[d];
            l_push[d] = push[d];
        }
        const F zero = P::splat(S(0)), one = P::splat(S(1)), minus_one = P::splat(S(-1));
        const F r2 = P::splat(q.r2), sep_r2 = P::splat(q.sep_r2), sep_radius = P::splat(q.sep_radius);
        const F cos2 = P::splat(q.cos_half * q.cos_half);
        const bool cos_positive = q.cos_half >= S(0);
        const F lane = P::iota();
        const F end = P::splat(static_cast<S>(s1)), self = P::splat(static_cast<S>(q.self));
        for (std::size_t t = s0; t < s1; t += P::lanes) {
            const F index = lane + static_cast<S>(t);
            F dx[D];
            F d2 = zero;
            for (std::size_t d = 0; d < D; ++d) {
                F x = P::load(pos[d] + t) - p[d];
                if constexpr (Toroidal) {
                    x = x - size[d] * P::ones_where(x > half[d]);
                    x = x + size[d] * P::ones_where(x < neg_half[d]);
                }
                dx[d] = x;
                d2 = d2 + x * x;
            }
            F m = P::ones_where(index < end) * P::ones_where(index != self) * P::ones_where(d2 <= r2);
            if constexpr (Cone) {  // dot >= cos * |x|, in squares (see cone_sees)
                F dot = zero;
                for (std::size_t d = 0; d < D; ++d) dot = dot + dx[d] * heading[d];
                const F ahead = P::ones_where(dot >= zero);
                const F lhs = dot * dot, rhs = cos2 * d2;
                if (cos_positive) m = m * ahead * P::ones_where(lhs >= rhs);
                else m = m * (one - (one - ahead) * P::ones_where(lhs > rhs));
            }
            const F apart = P::ones_where(d2 > zero);
            const F ms = m * apart * P::ones_where(d2 < sep_r2);
            const F safe = d2 * apart + (one - apart);
            F w;
            if constexpr (Linear) {
                F dist = safe;
                for (std::size_t k = 0; k < P::lanes; ++k) P::set(dist, k, std::sqrt(P::get(safe, k)));
                w = (one - dist / sep_radius) / dist * minus_one;
            } else {
                w = minus_one / safe;
            }
            w = w * ms;
            l_count = l_count + m;
            l_coincident = l_coincident + m * (one - apart);
            for (std::size_t d = 0; d < D; ++d) {
                l_offset[d] = l_offset[d] + m * dx[d];
                l_velocity[d] = l_velocity[d] + m * P::load(vel[d] + t);
                l_push[d] = l_push[d] + w * dx[d];
            }
        }
        count = l_count;
        coincident = l_coincident;
        for (std::size_t d = 0; d < D; ++d) {
            offset[d] = l_offset[d];
            velocity[d] = l_velocity[d];
            push[d] = l_push[d];
        }
    }

    void reduce(neighborhood_sums<S, D>& out) const noexcept {
        out.count = static_cast<std::size_t>(P::sum(count));
        out.coincident = static_cast<std::size_t>(P::sum(coincident));
        for (std::size_t d = 0; d < D; ++d) {
            out.offset[d] = P::sum(offset[d]);
            out.velocity[d] = P::sum(velocity[d]);
            out.push[d] = P::sum(push[d]);
        }
    }
};

template <bool Toroidal, bool Cone, bool Linear, class S, std::size_t D, class Grid>
void gather_sums(const Grid& grid, const kernel_query<S, D>& q, const typename Grid::run_plan& plan,
                 neighborhood_sums<S, D>& out) {
    lane_sums<Toroidal, Cone, Linear, S, D> lanes;
    grid.for_each_run(q.self, plan, [&](std::size_t s0, std::size_t s1) { lanes.scan(q, s0, s1); });
    lanes.reduce(out);
}

} // namespace detail
} // namespace boids

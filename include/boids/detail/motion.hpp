// boids/detail/motion.hpp - the speed band and the walls, written once over "lanes":
// one lane (one_lane below) for the per-boid functions (apply_speed_band in steer.hpp,
// confine in neighbors/world.hpp) and a pack of lanes (detail/pack.hpp) for the flock's
// batched last stage (flock/detail/finish.inl). Both paths run this very code, so they
// give the same bits and cannot drift apart.
//
// A lane whose case this code does not cover (a speed whose square is not a normal
// number) is reported, and the caller takes the robust per-boid path for it.
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include "../config.hpp"

namespace boids {
namespace detail {

// One lane with the members of a pack that the motion needs: the scalar path's packs.
template <class S>
struct one_lane {
    using scalar = S;
    using f = S;
    using mask = bool;
    static constexpr std::size_t lanes = 1;
    [[nodiscard]] static f splat(S s) noexcept { return s; }
    [[nodiscard]] static f select(mask m, f a, f b) noexcept { return m ? a : b; }
    [[nodiscard]] static mask both(mask a, mask b) noexcept { return a && b; }
    [[nodiscard]] static mask either(mask a, mask b) noexcept { return a || b; }
    [[nodiscard]] static mask but_not(mask a, mask b) noexcept { return a && !b; }
    [[nodiscard]] static mask all() noexcept { return true; }
    [[nodiscard]] static f sqrt(f x) noexcept { return std::sqrt(x); }
};

// The motion's members, always inlined (motion_avx, built for AVX, is included by
// flock/detail/finish.hpp where the AVX dispatch is on).
#define BOIDS_DETAIL_MOTION motion
#define BOIDS_DETAIL_MOTION_SPEC BOIDS_DETAIL_HOT
#include "motion.inl"
#undef BOIDS_DETAIL_MOTION
#undef BOIDS_DETAIL_MOTION_SPEC

}  // namespace detail
}  // namespace boids

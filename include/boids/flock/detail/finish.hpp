// boids/flock/detail/finish.hpp - the fused step's last stage for a batch of boids:
// the rules' blend from the kernel's sums, the force clamp, the speed band, the move
// and the world's edges, one boid a lane.
//
// Each lane performs the very operations of flock_acceleration_from_sums and
// move_boid (flock/blend.hpp, flock/detail/fused.hpp), in the same order, so it gives their bits; no lane
// depends on another, so the pack width changes nothing either. The rarer branches
// of those functions (a length that is zero or not a normal number, a wrap that
// needs fmod, ...) are not written twice: such a lane is marked, and the caller
// redoes that boid with the functions themselves. Supported: every separation falloff
// and social form (the lesson's and the linear ones), without a predator
// (batch_finish_supported); a blend with a predator takes the per-boid path. Like the kernel,
// the body (finish.inl) is built a second time for AVX, taken at run time.
#pragma once
#include <cstddef>
#include <limits>
#include "../../detail/motion.hpp"
#include "../../detail/pack.hpp"
#include "../rules.hpp"
#include "../../neighbors/world.hpp"

namespace boids {
namespace detail {

// Boids waiting for their last stage: their slots, their own state and their sums.
template <class S, std::size_t D>
struct finish_batch {
    static constexpr std::size_t capacity = 32;
    static constexpr std::size_t stride = capacity + 16;  // whole packs past the last boid
    std::size_t size = 0;
    std::size_t slot[capacity];
    S count[stride];
    S p[D][stride], v[D][stride], push[D][stride], offset[D][stride], velocity[D][stride];
    // Or, for a blend of the user's, each boid's acceleration (given, not computed).
    S accel[D][stride];
    // Out: the new state, and the lanes to redo with the per-boid functions.
    S new_p[D][stride], new_v[D][stride];
    bool redo[stride];

    // Queues the boid in slot `at` with only its own state (its acceleration is
    // given later, in accel). True when the batch is now full.
    template <class Vec>
    bool add_state(std::size_t at, const Vec& own_p, const Vec& own_v) noexcept {
        const std::size_t k = size++;
        slot[k] = at;
        for (std::size_t d = 0; d < D; ++d) {
            p[d][k] = boids::get(own_p, d);
            v[d][k] = boids::get(own_v, d);
        }
        return size == capacity;
    }

    // Queues the boid in slot `at`: its neighbour count, its own state and its sums
    // (vectors of the user's type). True when the batch is now full.
    template <class Vec>
    bool add(std::size_t at, std::size_t neighbours, const Vec& own_p, const Vec& own_v, const Vec& push_sum,
             const Vec& offset_sum, const Vec& velocity_sum) noexcept {
        const std::size_t k = size++;
        slot[k] = at;
        count[k] = static_cast<S>(neighbours);
        for (std::size_t d = 0; d < D; ++d) {
            p[d][k] = boids::get(own_p, d);
            v[d][k] = boids::get(own_v, d);
            push[d][k] = boids::get(push_sum, d);
            offset[d][k] = boids::get(offset_sum, d);
            velocity[d][k] = boids::get(velocity_sum, d);
        }
        return size == capacity;
    }
};

template <class Config>
[[nodiscard]] bool batch_finish_supported(const Config& cfg) noexcept {
    if (cfg.has_predator) return false;
    const auto f = cfg.separate.falloff;
    if (cfg.use_separation && f != separation_falloff::inverse_square && f != separation_falloff::linear &&
        f != separation_falloff::lesson)
        return false;
    const bool lesson = (cfg.use_separation && f == separation_falloff::lesson) ||
                        (cfg.use_alignment && cfg.align.form == social_form::lesson) ||
                        (cfg.use_cohesion && cfg.cohere.form == social_form::lesson);
    return !lesson || cfg.limits.reaction_time > 0;  // else steer_toward's own check, per boid
}

#define BOIDS_DETAIL_FINISH finish_batch_lanes_of_width
#define BOIDS_DETAIL_FINISH_SPEC inline
#define BOIDS_DETAIL_FINISH_PACK pack<S>
#define BOIDS_DETAIL_FINISH_MOTION motion
#include "finish.inl"
#undef BOIDS_DETAIL_FINISH
#undef BOIDS_DETAIL_FINISH_SPEC
#undef BOIDS_DETAIL_FINISH_PACK
#undef BOIDS_DETAIL_FINISH_MOTION

#if BOIDS_DETAIL_AVX_DISPATCH
// The same body built for AVX (no FMA: the same bits), called, not inlined.
#  define BOIDS_DETAIL_FINISH finish_batch_lanes_avx
#  define BOIDS_DETAIL_FINISH_SPEC __attribute__((target("avx"))) inline
#  define BOIDS_DETAIL_FINISH_PACK pack_avx<S, 32>
#  define BOIDS_DETAIL_MOTION motion_avx
#  define BOIDS_DETAIL_MOTION_SPEC __attribute__((target("avx"))) BOIDS_DETAIL_INLINE
#  include "../../detail/motion.inl"
#  undef BOIDS_DETAIL_MOTION
#  undef BOIDS_DETAIL_MOTION_SPEC
#  define BOIDS_DETAIL_FINISH_MOTION motion_avx
#  include "finish.inl"
#  undef BOIDS_DETAIL_FINISH
#  undef BOIDS_DETAIL_FINISH_SPEC
#  undef BOIDS_DETAIL_FINISH_PACK
#  undef BOIDS_DETAIL_FINISH_MOTION
#endif

// The last stage of lanes [0, b.size): new_p, new_v and redo. `avx`: take the AVX
// build (avx_at_run_time()); it changes speed only. Given: the accelerations are in
// b.accel (a blend of the user's), so only the move is done.
template <bool Given = false, class S, std::size_t D, class Config>
void finish_batch_lanes(bool avx, finish_batch<S, D>& b, const Config& cfg, S dt) noexcept {
    BOIDS_DETAIL_PICK_BUILD(avx, (finish_batch_lanes_avx<Given>(b, cfg, dt)),
                            (finish_batch_lanes_of_width<Given>(b, cfg, dt)));
}

}  // namespace detail
}  // namespace boids

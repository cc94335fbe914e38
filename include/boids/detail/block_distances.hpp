// boids/detail/block_distances.hpp - the k-nearest batch's loops over a block of
// candidates (grid/knn_batched.hpp): squared distances from one point, and how many lie
// within a limit. Their AVX build is taken where the CPU has it (avx_at_run_time());
// it gives the same results, twice the lanes at a time.
#pragma once
#include <cstddef>
#include "pack.hpp"

namespace boids {
namespace detail {

// Lanes a block must be readable (and d2 writable) past its end: a pack of either build.
template <class S>
constexpr std::size_t distance_padding = 32 / sizeof(S);

#define BOIDS_DETAIL_DISTANCES_SPEC inline
#define BOIDS_DETAIL_DISTANCES_PACK pack<S>
#define BOIDS_DETAIL_DISTANCES_SQUARED block_distances_of_width
#define BOIDS_DETAIL_DISTANCES_COUNT count_within_of_width
#include "block_distances.inl"
#undef BOIDS_DETAIL_DISTANCES_SPEC
#undef BOIDS_DETAIL_DISTANCES_PACK
#undef BOIDS_DETAIL_DISTANCES_SQUARED
#undef BOIDS_DETAIL_DISTANCES_COUNT

#if BOIDS_DETAIL_AVX_DISPATCH
#  define BOIDS_DETAIL_DISTANCES_SPEC __attribute__((target("avx"))) inline
#  define BOIDS_DETAIL_DISTANCES_PACK pack_avx<S, 32>
#  define BOIDS_DETAIL_DISTANCES_SQUARED block_distances_avx
#  define BOIDS_DETAIL_DISTANCES_COUNT count_within_avx
#  include "block_distances.inl"
#  undef BOIDS_DETAIL_DISTANCES_SPEC
#  undef BOIDS_DETAIL_DISTANCES_PACK
#  undef BOIDS_DETAIL_DISTANCES_SQUARED
#  undef BOIDS_DETAIL_DISTANCES_COUNT
#endif

// `avx`: take the AVX build (avx_at_run_time()); it changes speed only.
template <bool Torus, std::size_t D, class S>
void block_distances(bool avx, const S* const (&x)[D], const S* const (&shift)[D], const S* p, std::size_t size,
                     S* d2) noexcept {
    BOIDS_DETAIL_PICK_BUILD(avx, (block_distances_avx<Torus>(x, shift, p, size, d2)),
                            (block_distances_of_width<Torus>(x, shift, p, size, d2)));
}

template <class S>
std::size_t count_within(bool avx, const S* d2, std::size_t count, S t2) noexcept {
    return BOIDS_DETAIL_PICK_BUILD(avx, (count_within_avx(d2, count, t2)), (count_within_of_width(d2, count, t2)));
}

}  // namespace detail
}  // namespace boids

// boids/detail/pack.hpp - a few lanes of floats for the vectorised kernels.
//
// With g++ and clang++ a pack is a GNU vector: 16 bytes (4 floats or 2 doubles: SSE2
// on x86-64, NEON on ARM), 32 bytes when AVX is enabled. Anything
// else (MSVC), or BOIDS_NO_VECTOR_EXTENSIONS, gets packs of one lane: the same
// kernel, scalar. Comparisons become 0/1 multipliers, never branches.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include "../config.hpp"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(BOIDS_NO_VECTOR_EXTENSIONS)
#  define BOIDS_DETAIL_VECTOR_PACKS 1
#  define BOIDS_DETAIL_INLINE inline __attribute__((always_inline))
#else
#  define BOIDS_DETAIL_VECTOR_PACKS 0
#  define BOIDS_DETAIL_INLINE inline
#endif

// A rare path kept out of the hot loop that calls it, so that the loop's own calls
// stay within the compiler's budget for inlining.
#if defined(__GNUC__) || defined(__clang__)
#  define BOIDS_DETAIL_OUT_OF_LINE __attribute__((noinline))
#else
#  define BOIDS_DETAIL_OUT_OF_LINE
#endif

// Shuffles of packs, where the compiler has them (clang++, g++ 12 and later).
#if BOIDS_DETAIL_VECTOR_PACKS && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12))
#  define BOIDS_DETAIL_PACK_SHUFFLES 1
#else
#  define BOIDS_DETAIL_PACK_SHUFFLES 0
#endif

namespace boids {
namespace detail {

#if BOIDS_DETAIL_VECTOR_PACKS
// 32 bytes where the compiler may use AVX (-mavx, -march=native, ...), else 16.
// Every translation unit that includes boids should be built with the same
// instruction-set flags, as with any header library that uses SIMD (GLM, Eigen).
// The flock kernel's results do not depend on the width (see flock/detail/kernel.hpp).
#  if defined(__AVX__)
#    define BOIDS_DETAIL_PACK_BYTES 32
#  else
#    define BOIDS_DETAIL_PACK_BYTES 16
#  endif
template <class S>
struct same_size_int;
template <>
struct same_size_int<float> {
    using type = std::int32_t;
};
template <>
struct same_size_int<double> {
    using type = std::int64_t;
};

template <class S, std::size_t Bytes = BOIDS_DETAIL_PACK_BYTES>
struct pack_types {
    typedef S f __attribute__((vector_size(Bytes)));
    typedef typename same_size_int<S>::type i __attribute__((vector_size(Bytes)));
    static constexpr std::size_t lanes = Bytes / sizeof(S);
};
#else
#  define BOIDS_DETAIL_PACK_BYTES 0
template <class S, std::size_t Bytes = 0>
struct pack_types {
    using f = S;
    using i = bool;
    static constexpr std::size_t lanes = 1;
};
#endif

// Where a kernel may also be built for AVX and picked at run time (see
// flock/detail/kernel.hpp): g++ or clang++ on x86-64, when the build itself is not AVX
// already. BOIDS_NO_RUNTIME_DISPATCH turns it off. The choice never changes a result.
#if BOIDS_DETAIL_VECTOR_PACKS && !defined(__AVX__) && !defined(BOIDS_NO_RUNTIME_DISPATCH) && \
    (defined(__x86_64__) || defined(__i386__))
#  define BOIDS_DETAIL_AVX_DISPATCH 1
#else
#  define BOIDS_DETAIL_AVX_DISPATCH 0
#endif

// Whether the AVX builds (pack_avx) run on this CPU: the dispatch is on and the CPU
// has AVX. Asked once per step or per grid; the answer changes speed only, never a
// result.
[[nodiscard]] inline bool avx_at_run_time() noexcept {
#if BOIDS_DETAIL_AVX_DISPATCH
    return __builtin_cpu_supports("avx") != 0;
#else
    return false;
#endif
}

// The one place a kernel's build is picked at run time: the AVX build's call where
// `avx` (avx_at_run_time()) holds and the dispatch is on, the kernel's own build's
// call elsewhere. Each call is an expression in parentheses. Speed only, never a result.
#if BOIDS_DETAIL_AVX_DISPATCH
#  define BOIDS_DETAIL_PICK_BUILD(avx, avx_call, own_call) ((avx) ? avx_call : own_call)
#else
#  define BOIDS_DETAIL_PICK_BUILD(avx, avx_call, own_call) (static_cast<void>(avx), own_call)
#endif

// Every member is always inlined.
#define BOIDS_DETAIL_PACK pack
#define BOIDS_DETAIL_PACK_DEFAULT = BOIDS_DETAIL_PACK_BYTES
#define BOIDS_DETAIL_PACK_SPEC BOIDS_DETAIL_INLINE
#define BOIDS_DETAIL_PACK_IS_AVX 0
#include "pack.inl"
#undef BOIDS_DETAIL_PACK_IS_AVX
#undef BOIDS_DETAIL_PACK
#undef BOIDS_DETAIL_PACK_DEFAULT
#undef BOIDS_DETAIL_PACK_SPEC

#if BOIDS_DETAIL_AVX_DISPATCH
// The same packs for code built for AVX (used as pack_avx<S, 32>).
#  define BOIDS_DETAIL_PACK pack_avx
#  define BOIDS_DETAIL_PACK_DEFAULT
#  define BOIDS_DETAIL_PACK_SPEC __attribute__((target("avx"))) BOIDS_DETAIL_INLINE
#  define BOIDS_DETAIL_PACK_IS_AVX 1
#  include "pack.inl"
#  undef BOIDS_DETAIL_PACK_IS_AVX
#  undef BOIDS_DETAIL_PACK
#  undef BOIDS_DETAIL_PACK_DEFAULT
#  undef BOIDS_DETAIL_PACK_SPEC
#endif

}  // namespace detail
}  // namespace boids

// boids/detail/pack.hpp - a few lanes of floats for the vectorised kernels.
//
// With g++ and clang++ a pack is a GNU vector: 16 bytes (4 floats or 2 doubles: SSE2
// on x86-64, NEON on ARM), 32 bytes when AVX is enabled. Anything
// else (MSVC), or BOIDS_NO_VECTOR_EXTENSIONS, gets packs of one lane: the same
// kernel, scalar. Comparisons become 0/1 multipliers, never branches.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(BOIDS_NO_VECTOR_EXTENSIONS)
#  define BOIDS_DETAIL_VECTOR_PACKS 1
#  define BOIDS_DETAIL_INLINE inline __attribute__((always_inline))
#else
#  define BOIDS_DETAIL_VECTOR_PACKS 0
#  define BOIDS_DETAIL_INLINE inline
#endif

namespace boids {
namespace detail {

#if BOIDS_DETAIL_VECTOR_PACKS
// 32 bytes where the compiler may use AVX (-mavx, -march=native, ...), else 16.
// Every translation unit that includes boids should be built with the same
// instruction-set flags, as with any header library that uses SIMD (GLM, Eigen).
#  if defined(__AVX__)
#    define BOIDS_DETAIL_PACK_BYTES 32
#  else
#    define BOIDS_DETAIL_PACK_BYTES 16
#  endif
typedef float f32xN __attribute__((vector_size(BOIDS_DETAIL_PACK_BYTES)));
typedef std::int32_t i32xN __attribute__((vector_size(BOIDS_DETAIL_PACK_BYTES)));
typedef double f64xN __attribute__((vector_size(BOIDS_DETAIL_PACK_BYTES)));
typedef std::int64_t i64xN __attribute__((vector_size(BOIDS_DETAIL_PACK_BYTES)));

template <class S>
struct pack_types;
template <>
struct pack_types<float> {
    using f = f32xN;
    using i = i32xN;
    static constexpr std::size_t lanes = BOIDS_DETAIL_PACK_BYTES / sizeof(float);
};
template <>
struct pack_types<double> {
    using f = f64xN;
    using i = i64xN;
    static constexpr std::size_t lanes = BOIDS_DETAIL_PACK_BYTES / sizeof(double);
};
#else
template <class S>
struct pack_types {
    using f = S;
    using i = bool;
    static constexpr std::size_t lanes = 1;
};
#endif

template <class S>
struct pack {
    using f = typename pack_types<S>::f;
    static constexpr std::size_t lanes = pack_types<S>::lanes;

    [[nodiscard]] static f load(const S* p) noexcept {
        f r;
        std::memcpy(&r, p, sizeof r);
        return r;
    }
    static void store(S* p, f v) noexcept { std::memcpy(p, &v, sizeof v); }
    [[nodiscard]] static f splat(S s) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return s - f{};  // a broadcast; s - (+0) is s exactly, -0 and NaN included
#else
        return s;
#endif
    }
    // 1 where the comparison held, 0 elsewhere.
    template <class M>
    [[nodiscard]] static f ones_where(M mask) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        const f one = splat(S(1));
        M bits;
        std::memcpy(&bits, &one, sizeof bits);
        bits &= mask;
        f r;
        std::memcpy(&r, &bits, sizeof r);
        return r;
#else
        return mask ? S(1) : S(0);
#endif
    }
    // Masks: what a comparison of packs gives (all bits set in a true lane).
    using mask = typename pack_types<S>::i;
#if BOIDS_DETAIL_VECTOR_PACKS
    // Bit casts between packs of one size (compilers emit no instruction for them).
    [[nodiscard]] static mask as_bits(f x) noexcept {
        mask m;
        std::memcpy(&m, &x, sizeof m);
        return m;
    }
    [[nodiscard]] static f as_floats(mask m) noexcept {
        f x;
        std::memcpy(&x, &m, sizeof x);
        return x;
    }
#endif
    // x where m holds, +0 elsewhere: a bitwise and, exact for finite x.
    [[nodiscard]] static f keep(mask m, f x) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return as_floats(as_bits(x) & m);
#else
        return m ? x : S(0);
#endif
    }
    // x where m does not hold, +0 elsewhere.
    [[nodiscard]] static f keep_unless(mask m, f x) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return as_floats(~m & as_bits(x));
#else
        return m ? S(0) : x;
#endif
    }
    // a where m holds, b elsewhere.
    [[nodiscard]] static f select(mask m, f a, f b) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return as_floats((m & as_bits(a)) | (~m & as_bits(b)));
#else
        return m ? a : b;
#endif
    }
    [[nodiscard]] static mask both(mask a, mask b) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return a & b;
#else
        return a && b;
#endif
    }
    [[nodiscard]] static mask but_not(mask a, mask b) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return a & ~b;
#else
        return a && !b;
#endif
    }
    // True in the first k lanes (k <= lanes).
    [[nodiscard]] static mask first(std::size_t k) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        mask m{};
        for (std::size_t l = 0; l < lanes; ++l) m[l] = l < k ? -1 : 0;
        return m;
#else
        return k > 0;
#endif
    }
    [[nodiscard]] static mask all() noexcept { return first(lanes); }

    // The lanes added in a fixed order (so results never depend on anything else).
    // Pairwise: lane k plus lane k + lanes/2, and so on down to one. Always inlined:
    // a kernel ends with several of these, and a call each costs more than the adds.
    [[nodiscard]] static BOIDS_DETAIL_INLINE S sum(f v) noexcept {
        S lane[lanes];
        std::memcpy(lane, &v, sizeof v);
        for (std::size_t width = lanes / 2; width > 0; width /= 2)
            for (std::size_t k = 0; k < width; ++k) lane[k] += lane[k + width];
        return lane[0];
    }
    [[nodiscard]] static S get(const f& v, std::size_t k) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return v[k];
#else
        (void)k;
        return v;
#endif
    }
    static void set(f& v, std::size_t k, S s) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        v[k] = s;
#else
        (void)k;
        v = s;
#endif
    }
};

} // namespace detail
} // namespace boids

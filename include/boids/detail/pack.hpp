// boids/detail/pack.hpp - a few lanes of floats for the vectorised kernels.
//
// With g++ and clang++ a pack is a 16-byte GNU vector (4 floats or 2 doubles: SSE2
// on x86-64, NEON on ARM, wider ISAs through the same code when enabled). Anything
// else (MSVC), or BOIDS_NO_VECTOR_EXTENSIONS, gets packs of one lane: the same
// kernel, scalar. Comparisons become 0/1 multipliers, never branches.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(BOIDS_NO_VECTOR_EXTENSIONS)
#  define BOIDS_DETAIL_VECTOR_PACKS 1
#else
#  define BOIDS_DETAIL_VECTOR_PACKS 0
#endif

namespace boids {
namespace detail {

#if BOIDS_DETAIL_VECTOR_PACKS
typedef float f32x4 __attribute__((vector_size(16)));
typedef std::int32_t i32x4 __attribute__((vector_size(16)));
typedef double f64x2 __attribute__((vector_size(16)));
typedef std::int64_t i64x2 __attribute__((vector_size(16)));

template <class S>
struct pack_types;
template <>
struct pack_types<float> {
    using f = f32x4;
    using i = i32x4;
    static constexpr std::size_t lanes = 4;
};
template <>
struct pack_types<double> {
    using f = f64x2;
    using i = i64x2;
    static constexpr std::size_t lanes = 2;
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
    [[nodiscard]] static f splat(S s) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return s - f{};  // a broadcast; s - (+0) is s exactly, -0 and NaN included
#else
        return s;
#endif
    }
    // 0, 1, 2, ... as scalars (lane numbers).
    [[nodiscard]] static f iota() noexcept {
        f r{};
        for (std::size_t k = 0; k < lanes; ++k) set(r, k, static_cast<S>(k));
        return r;
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
    // The lanes added in a fixed order (so results never depend on anything else).
    [[nodiscard]] static S sum(f v) noexcept {
        S s = 0;
        for (std::size_t k = 0; k < lanes; ++k) s += get(v, k);
        return s;
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

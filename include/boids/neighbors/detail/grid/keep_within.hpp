// boids/neighbors/detail/grid/keep_within.hpp - the k-nearest query's compaction: of `count`
// squared distances and their slots, those within t2, in order.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include "../../../detail/pack.hpp"

namespace boids {
namespace detail {

// out_d2/out_slot may be d2/slot themselves: a write never passes the reads still to
// come. Returns how many were kept.
template <class S>
std::size_t keep_within_scalar(const S* d2, const std::uint32_t* slot, std::size_t count, S t2, S* out_d2,
                               std::uint32_t* out_slot) noexcept {
    std::size_t kept = 0;
    for (std::size_t j = 0; j < count; ++j) {  // every one written, the count moved by the test: no branch
        out_d2[kept] = d2[j];
        out_slot[kept] = slot[j];
        kept += d2[j] <= t2 ? 1 : 0;
    }
    return kept;
}

// An AVX build where the dispatch has one, or where the whole build is AVX.
#if BOIDS_DETAIL_VECTOR_PACKS && (defined(__x86_64__) || defined(__i386__)) && \
    (BOIDS_DETAIL_AVX_DISPATCH || defined(__AVX__))
#  define BOIDS_DETAIL_KEEP_WITHIN_AVX 1
#else
#  define BOIDS_DETAIL_KEEP_WITHIN_AVX 0
#endif

#if BOIDS_DETAIL_KEEP_WITHIN_AVX
// Eight at a time: each half's kept lanes are moved to its front by a permutation
// looked up from its mask (vpermilps), then stored whole at the end of those kept so
// far; lanes past them are overwritten by the next store or left unread. Reads up to
// 7 entries past count (ignored) and writes up to 3 past those kept: the arrays need
// that room.
__attribute__((target("avx"))) inline std::size_t keep_within_avx(const float* d2, const std::uint32_t* slot,
                                                                  std::size_t count, float t2, float* out_d2,
                                                                  std::uint32_t* out_slot) noexcept {
    using f8 = pack_types<float, 32>::f;
    using i8 = pack_types<float, 32>::i;
    using f4 = pack_types<float, 16>::f;
    using i4 = pack_types<float, 16>::i;
    // For each 4-bit mask: the lanes it holds, lowest first (then anything).
    alignas(16) static constexpr std::int32_t front[16][4] = {
        {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
        {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0}, {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
    static constexpr unsigned char held[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    const f8 limit = t2 - f8{};
    std::size_t kept = 0;
    for (std::size_t j = 0; j < count; j += 8) {
        f8 v;
        i8 s;
        std::memcpy(&v, d2 + j, sizeof v);
        std::memcpy(&s, slot + j, sizeof s);
        const i8 in = v <= limit;
        f8 in_f;
        std::memcpy(&in_f, &in, sizeof in_f);
        auto bits = static_cast<unsigned>(__builtin_ia32_movmskps256(in_f));
        const std::size_t rest = count - j;
        bits &= rest >= 8 ? 0xFFu : (1u << rest) - 1u;  // the lanes past count are not candidates
        for (unsigned h = 0; h < 2; ++h) {              // the low half, then the high one
            const unsigned m = (bits >> (4 * h)) & 15u;
            f4 vh, sh;
            std::memcpy(&vh, reinterpret_cast<const unsigned char*>(&v) + 16 * h, sizeof vh);
            std::memcpy(&sh, reinterpret_cast<const unsigned char*>(&s) + 16 * h, sizeof sh);
            i4 perm;
            std::memcpy(&perm, front[m], sizeof perm);
            const f4 vk = __builtin_ia32_vpermilvarps(vh, perm);
            const f4 sk = __builtin_ia32_vpermilvarps(sh, perm);
            std::memcpy(out_d2 + kept, &vk, sizeof vk);
            std::memcpy(out_slot + kept, &sk, sizeof sk);
            kept += held[m];
        }
    }
    return kept;
}
#endif

// The AVX build where `avx` (avx_at_run_time()) or the whole build is AVX, and S is
// float; the same result.
template <class S>
std::size_t keep_within(bool avx, const S* d2, const std::uint32_t* slot, std::size_t count, S t2, S* out_d2,
                        std::uint32_t* out_slot) noexcept {
#if BOIDS_DETAIL_KEEP_WITHIN_AVX
    if constexpr (sizeof(S) == 4) {
#  if defined(__AVX__)
        avx = true;
#  endif
        if (avx) return keep_within_avx(d2, slot, count, t2, out_d2, out_slot);
    }
#endif
    (void)avx;
    return keep_within_scalar(d2, slot, count, t2, out_d2, out_slot);
}

}  // namespace detail
}  // namespace boids

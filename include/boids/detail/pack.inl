// boids/detail/pack.inl - the members of a pack, included by pack.hpp once as
// `pack` (inlined) and, where the AVX dispatch is on, once more as `pack_avx`, whose
// members are built for AVX: clang++ refuses, and g++ warns about, 32-byte vectors
// passed to or from a function built without AVX. Not a header of its own.
//
// (inside namespace boids::detail; BOIDS_DETAIL_PACK names the template,
// BOIDS_DETAIL_PACK_DEFAULT gives Bytes its default, BOIDS_DETAIL_PACK_SPEC says how
// the members are built)

template <class S, std::size_t Bytes BOIDS_DETAIL_PACK_DEFAULT>
struct BOIDS_DETAIL_PACK {
    using scalar = S;
    using f = typename pack_types<S, Bytes>::f;
    static constexpr std::size_t lanes = pack_types<S, Bytes>::lanes;

    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f load(const S* p) noexcept {
        f r;
        std::memcpy(&r, p, sizeof r);
        return r;
    }
    static BOIDS_DETAIL_PACK_SPEC void store(S* p, f v) noexcept { std::memcpy(p, &v, sizeof v); }
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f splat(S s) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return s - f{};  // a broadcast; s - (+0) is s exactly, -0 and NaN included
#else
        return s;
#endif
    }
    // 1 where the comparison held, 0 elsewhere.
    template <class M>
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f ones_where(M mask) noexcept {
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
    using mask = typename pack_types<S, Bytes>::i;
#if BOIDS_DETAIL_VECTOR_PACKS
    // Bit casts between packs of one size (compilers emit no instruction for them).
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC mask as_bits(f x) noexcept {
        mask m;
        std::memcpy(&m, &x, sizeof m);
        return m;
    }
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f as_floats(mask m) noexcept {
        f x;
        std::memcpy(&x, &m, sizeof x);
        return x;
    }
#endif
    // x where m holds, +0 elsewhere: a bitwise and, exact for finite x.
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f keep(mask m, f x) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return as_floats(as_bits(x) & m);
#else
        return m ? x : S(0);
#endif
    }
    // The minimum image of offsets x between points inside a box of side `size`
    // (half, neg_half: +-size / 2), lane by lane: world::minimum_image's arithmetic.
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f minimum_image(f x, f size, f half, f neg_half) noexcept {
        x = x - keep(x > half, size);
        return x + keep(x < neg_half, size);
    }
    // x where m does not hold, +0 elsewhere.
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f keep_unless(mask m, f x) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return as_floats(~m & as_bits(x));
#else
        return m ? S(0) : x;
#endif
    }
    // a where m holds, b elsewhere: on vector packs the vector conditional, one blend
    // where the target has one (AVX, SSE4.1), three bitwise operations elsewhere.
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f select(mask m, f a, f b) noexcept { return m ? a : b; }
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC mask both(mask a, mask b) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return a & b;
#else
        return a && b;
#endif
    }
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC mask but_not(mask a, mask b) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return a & ~b;
#else
        return a && !b;
#endif
    }
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC mask either(mask a, mask b) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return a | b;
#else
        return a || b;
#endif
    }
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f abs(f x) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return as_floats(as_bits(x) & ~as_bits(splat(S(-0.0))));  // the sign bit cleared
#else
        return std::fabs(x);
#endif
    }
    // Whether m holds in lane k.
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC bool lane_on(mask m, std::size_t k) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return m[k] != 0;
#else
        (void)k;
        return m;
#endif
    }
    // The square root of every lane, correctly rounded as std::sqrt is (so the same
    // bits), in one instruction where the target has one.
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f sqrt(f x) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__)
        if constexpr (Bytes == 16 && sizeof(S) == 4) return __builtin_ia32_sqrtps(x);
        if constexpr (Bytes == 16 && sizeof(S) == 8) return __builtin_ia32_sqrtpd(x);
#  if defined(__AVX__) || BOIDS_DETAIL_PACK_IS_AVX
        if constexpr (Bytes == 32 && sizeof(S) == 4) return __builtin_ia32_sqrtps256(x);
        if constexpr (Bytes == 32 && sizeof(S) == 8) return __builtin_ia32_sqrtpd256(x);
#  endif
#endif
#if BOIDS_DETAIL_VECTOR_PACKS
        f r = x;
        BOIDS_DETAIL_UNROLL
        for (std::size_t k = 0; k < lanes; ++k) r[k] = std::sqrt(x[k]);
        return r;
#else
        return std::sqrt(x);
#endif
    }
    // True in the first k lanes (k <= lanes).
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC mask first(std::size_t k) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        mask m{};
        BOIDS_DETAIL_UNROLL
        for (std::size_t l = 0; l < lanes; ++l) m[l] = l < k ? -1 : 0;
        return m;
#else
        return k > 0;
#endif
    }
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC mask all() noexcept { return first(lanes); }

    // The lanes added in a fixed order (so results never depend on anything else).
    // Pairwise: lane k plus lane k + lanes/2, and so on down to one. Always inlined:
    // a kernel ends with several of these, and a call each costs more than the adds.
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC S sum(f v) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        if constexpr (Bytes == 32) {
            // The first width, lane k + lane k + lanes/2, is the low half plus the high
            // half: one vector add, where lane by lane it took a dozen moves and adds.
            using half = typename pack_types<S, 16>::f;
            half lo, hi;
            std::memcpy(&lo, &v, sizeof lo);
            std::memcpy(&hi, reinterpret_cast<const unsigned char*>(&v) + sizeof lo, sizeof hi);
            return sum_lanes<lanes / 2>(lo + hi);
        } else {
            return sum_lanes<lanes>(v);
        }
#else
        return v;
#endif
    }
    // out[k] = sum(in[k]) for every k, bit for bit. Packs of eight lanes go through
    // the tree eight at a time, as shuffles across packs (21 instructions for eight
    // sums where one sum alone takes about 10).
    template <std::size_t N>
    static BOIDS_DETAIL_PACK_SPEC void sum_each(const f (&in)[N], S (&out)[N]) noexcept {
#if BOIDS_DETAIL_PACK_SHUFFLES
        if constexpr (lanes == 8) {
            BOIDS_DETAIL_UNROLL
            for (std::size_t g = 0; g < N; g += 8) {
                f x[8];
                BOIDS_DETAIL_UNROLL
                for (std::size_t k = 0; k < 8; ++k) x[k] = g + k < N ? in[g + k] : f{};
                // Width 4, pack pairs (a, b): [a0+a4 .. a3+a7 | b0+b4 .. b3+b7].
                f w4[4];
                BOIDS_DETAIL_UNROLL
                for (std::size_t k = 0; k < 4; ++k)
                    w4[k] = __builtin_shufflevector(x[2 * k], x[2 * k + 1], 0, 1, 2, 3, 8, 9, 10, 11) +
                            __builtin_shufflevector(x[2 * k], x[2 * k + 1], 4, 5, 6, 7, 12, 13, 14, 15);
                // Width 2, within each half: [a'0+a'2, a'1+a'3, c'.., c'.. | b'.., d'..].
                f w2[2];
                BOIDS_DETAIL_UNROLL
                for (std::size_t k = 0; k < 2; ++k)
                    w2[k] = __builtin_shufflevector(w4[2 * k], w4[2 * k + 1], 0, 1, 8, 9, 4, 5, 12, 13) +
                            __builtin_shufflevector(w4[2 * k], w4[2 * k + 1], 2, 3, 10, 11, 6, 7, 14, 15);
                // Width 1: the totals of packs 0, 2, 4, 6 | 1, 3, 5, 7.
                const f total = __builtin_shufflevector(w2[0], w2[1], 0, 2, 8, 10, 4, 6, 12, 14) +
                                __builtin_shufflevector(w2[0], w2[1], 1, 3, 9, 11, 5, 7, 13, 15);
                S t[8];
                std::memcpy(t, &total, sizeof t);
                BOIDS_DETAIL_UNROLL
                for (std::size_t k = 0; k < 8; ++k)
                    if (g + k < N) out[g + k] = t[(k % 2) * 4 + k / 2];
            }
            return;
        }
#endif
        BOIDS_DETAIL_UNROLL
        for (std::size_t k = 0; k < N; ++k) out[k] = sum(in[k]);
    }
    // The rest of the tree over the first N lanes of x: widths N/2, ..., 1.
    template <std::size_t N, class X>
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC S sum_lanes(X x) noexcept {
        static_assert(N == 1 || N == 2 || N == 4, "pack::sum: 1, 2 or 4 lanes after the halves");
        S lane[N];
        std::memcpy(lane, &x, sizeof lane);
        if constexpr (N == 4) {
            lane[0] += lane[2];
            lane[1] += lane[3];
        }
        if constexpr (N >= 2) lane[0] += lane[1];
        return lane[0];
    }
};

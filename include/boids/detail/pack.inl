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
    // x where m does not hold, +0 elsewhere.
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f keep_unless(mask m, f x) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return as_floats(~m & as_bits(x));
#else
        return m ? S(0) : x;
#endif
    }
    // a where m holds, b elsewhere.
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC f select(mask m, f a, f b) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return as_floats((m & as_bits(a)) | (~m & as_bits(b)));
#else
        return m ? a : b;
#endif
    }
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
        S lane[lanes];
        std::memcpy(lane, &v, sizeof v);
        // Widths 8, 4, 2, 1 spelled out, so that every loop has a constant trip count.
        if constexpr (lanes >= 16) {
            BOIDS_DETAIL_UNROLL
            for (std::size_t k = 0; k < 8; ++k) lane[k] += lane[k + 8];
        }
        if constexpr (lanes >= 8) {
            BOIDS_DETAIL_UNROLL
            for (std::size_t k = 0; k < 4; ++k) lane[k] += lane[k + 4];
        }
        if constexpr (lanes >= 4) {
            lane[0] += lane[2];
            lane[1] += lane[3];
        }
        if constexpr (lanes >= 2) lane[0] += lane[1];
        static_assert(lanes <= 16, "pack::sum: at most 16 lanes");
        return lane[0];
    }
    [[nodiscard]] static BOIDS_DETAIL_PACK_SPEC S get(const f& v, std::size_t k) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        return v[k];
#else
        (void)k;
        return v;
#endif
    }
    static BOIDS_DETAIL_PACK_SPEC void set(f& v, std::size_t k, S s) noexcept {
#if BOIDS_DETAIL_VECTOR_PACKS
        v[k] = s;
#else
        (void)k;
        v = s;
#endif
    }
};

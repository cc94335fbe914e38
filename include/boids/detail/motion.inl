// boids/detail/motion.inl - the members of the motion, included by motion.hpp once as
// `motion` and, where the AVX dispatch is on, once more as `motion_avx` (by
// flock/detail/finish.hpp), built for AVX: a function built without AVX may not take
// or inline the AVX packs. Not a header of its own.
//
// (inside namespace boids::detail; BOIDS_DETAIL_MOTION names the struct,
// BOIDS_DETAIL_MOTION_SPEC says how its members are built)

struct BOIDS_DETAIL_MOTION {
    // The speed band on the velocities v (D axes, every lane): a speed above max_speed or
    // below min_speed is moved to it along its direction; with a floor (min_speed > 0) a
    // stopped lane gets the heading +x at min_speed. Returns the lanes left to the robust
    // path (clamp_magnitude's): those whose squared speed is not a normal number, a stopped
    // lane with a floor excepted. Their v is not to be used.
    template <class P, std::size_t D>
    [[nodiscard]] static BOIDS_DETAIL_MOTION_SPEC typename P::mask band(typename P::f (&v)[D], typename P::f min_speed,
                                                                        typename P::f max_speed, bool floor) noexcept {
        using S = typename P::scalar;
        using F = typename P::f;
        using M = typename P::mask;
        const F zero = P::splat(S(0)), one = P::splat(S(1));
        const F biggest = P::splat(std::numeric_limits<S>::max()), smallest = P::splat(std::numeric_limits<S>::min());
        M still = P::all();
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) still = P::both(still, v[d] == zero);
        F s2 = v[0] * v[0] + v[1] * v[1];
        if constexpr (D == 3) s2 = s2 + v[2] * v[2];
        const M normal = P::both(s2 >= smallest, s2 <= biggest);
        const M stopped = floor ? still : P::but_not(still, still);
        const F speed = P::sqrt(P::select(normal, s2, one));
        const F per_speed = one / speed;
        const M fast = speed > max_speed, slow = speed < min_speed;
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            const F unit = v[d] * per_speed;
            const F banded = P::select(fast, unit * max_speed, P::select(slow, unit * min_speed, v[d]));
            v[d] = P::select(stopped, d == 0 ? min_speed : zero, banded);
        }
        return P::but_not(P::but_not(P::all(), normal), stopped);
    }

    // A bounded box's walls on positions p and velocities v (every lane): a coordinate past
    // a wall is put on it, and the velocity along that axis turned inward if it points out.
    template <class P, std::size_t D, class S>
    static BOIDS_DETAIL_MOTION_SPEC void bounce(typename P::f (&p)[D], typename P::f (&v)[D], const S* size) noexcept {
        using F = typename P::f;
        using M = typename P::mask;
        const F zero = P::splat(S(0));
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            const F wall = P::splat(size[d]);
            const M low = p[d] < zero;
            const M high = p[d] > wall;
            const M flip = P::either(P::both(low, v[d] < zero), P::both(high, v[d] > zero));
            p[d] = P::select(low, zero, P::select(high, wall, p[d]));
            v[d] = P::select(flip, -v[d], v[d]);
        }
    }
};

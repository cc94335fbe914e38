// boids/detail/flock_finish.inl - the body of the batched last stage, included by
// flock_finish.hpp once as written and, where the AVX dispatch is on, once more as a
// function built for AVX (as block_sums.inl is). Not a header of its own.
//
// (inside namespace boids::detail; BOIDS_DETAIL_FINISH names the function,
// BOIDS_DETAIL_FINISH_SPEC says how it is built, BOIDS_DETAIL_FINISH_PACK names its packs)

// The last stage of lanes [0, b.size): new_p, new_v and redo. Lanes past the size
// hold leftovers and compute garbage that nobody reads.
template <class S, std::size_t D, class Config>
BOIDS_DETAIL_FINISH_SPEC void BOIDS_DETAIL_FINISH(finish_batch<S, D>& b, const Config& cfg, S dt) noexcept {
    using P = BOIDS_DETAIL_FINISH_PACK;
    using F = typename P::f;
    using M = typename P::mask;
    const F zero = P::splat(S(0)), one = P::splat(S(1));
    const F biggest = P::splat(std::numeric_limits<S>::max()), smallest = P::splat(std::numeric_limits<S>::min());
    const F strength = P::splat(cfg.separate.strength);
    const F w_sep = P::splat(cfg.separation_weight), w_align = P::splat(cfg.alignment_weight),
            w_cohere = P::splat(cfg.cohesion_weight);
    const F g_align = P::splat(cfg.align.gain), g_cohere = P::splat(cfg.cohere.gain);
    const F max_force = P::splat(cfg.limits.max_force), max_force2 = P::splat(cfg.limits.max_force * cfg.limits.max_force);
    const F min_speed = P::splat(cfg.limits.min_speed), max_speed = P::splat(cfg.limits.max_speed);
    const F step = P::splat(dt);
    const bool linear = cfg.separate.falloff == separation_falloff::linear;
    const bool band_floor = cfg.limits.min_speed > S(0);
    for (std::size_t at = 0; at < b.size; at += P::lanes) {
        F p[D], v[D], sum[D];
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            p[d] = P::load(b.p[d] + at);
            v[d] = P::load(b.v[d] + at);
            sum[d] = zero;
        }
        const F count = P::load(b.count + at);
        const M some = count > zero;
        const F per = one / P::select(some, count, one);  // S(1) / count
        // flock_acceleration_from_sums: sum + rule * weight, rule by rule.
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            if (cfg.use_separation) {
                const F push = P::load(b.push[d] + at);
                const F rule = (linear ? push + zero : push) * strength;  // linear adds the (zero) coincident sum
                sum[d] = sum[d] + rule * w_sep;
            }
            if (cfg.use_alignment) {
                const F rule = P::keep(some, (P::load(b.velocity[d] + at) * per - v[d]) * g_align);
                sum[d] = sum[d] + rule * w_align;
            }
            if (cfg.use_cohesion) {
                const F rule = P::keep(some, P::load(b.offset[d] + at) * per * g_cohere);
                sum[d] = sum[d] + rule * w_cohere;
            }
        }
        // clamp_magnitude(sum, max_force), then zero if not finite.
        F l2 = sum[0] * sum[0] + sum[1] * sum[1];
        if constexpr (D == 3) l2 = l2 + sum[2] * sum[2];
        const M as_is = P::both(l2 <= max_force2, l2 <= biggest);
        const M normal = P::both(l2 >= smallest, l2 <= biggest);
        M redo = P::but_not(P::all(), P::either(as_is, normal));
        const F shrink = one / P::sqrt(P::select(normal, l2, one));
        F a[D];
        M finite = P::all();
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            a[d] = P::select(as_is, sum[d], sum[d] * shrink * max_force);
            finite = P::both(finite, a[d] - a[d] == zero);
        }
        // integrate: the velocity, its speed band, then the position.
        F v1[D];
        M still = P::all();
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            v1[d] = v[d] + P::keep(finite, a[d]) * step;
            still = P::both(still, v1[d] == zero);
        }
        F s2 = v1[0] * v1[0] + v1[1] * v1[1];
        if constexpr (D == 3) s2 = s2 + v1[2] * v1[2];
        const M s_normal = P::both(s2 >= smallest, s2 <= biggest);
        const M stopped = band_floor ? still : P::but_not(still, still);  // the band's heading +x at min_speed
        redo = P::either(redo, P::but_not(P::but_not(P::all(), s_normal), stopped));
        const F speed = P::sqrt(P::select(s_normal, s2, one));
        const F per_speed = one / speed;
        const M fast = speed > max_speed, slow = speed < min_speed;
        F v2[D];
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            const F unit = v1[d] * per_speed;
            F banded = P::select(fast, unit * max_speed, P::select(slow, unit * min_speed, v1[d]));
            banded = P::select(stopped, d == 0 ? min_speed : zero, banded);
            v2[d] = banded;
            p[d] = p[d] + v2[d] * step;
        }
        // confine: wrap (only positions already in the box stay here), or walls.
        if (cfg.world.wraps()) {
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 0; d < D; ++d)
                redo = P::either(redo, P::but_not(P::all(), P::both(p[d] >= zero, p[d] < P::splat(cfg.world.size[d]))));
        } else if (cfg.world.kind == edges::bounded) {
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 0; d < D; ++d) {
                const F size = P::splat(cfg.world.size[d]);
                const M low = p[d] < zero, high = p[d] > size;
                const M flip = P::either(P::both(low, v2[d] < zero), P::both(high, v2[d] > zero));
                p[d] = P::select(low, zero, P::select(high, size, p[d]));
                v2[d] = P::select(flip, -v2[d], v2[d]);
            }
        }
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            P::store(b.new_p[d] + at, p[d]);
            P::store(b.new_v[d] + at, v2[d]);
        }
        BOIDS_DETAIL_UNROLL
        for (std::size_t k = 0; k < P::lanes; ++k) b.redo[at + k] = P::lane_on(redo, k);
    }
}

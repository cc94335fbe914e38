// boids/flock/detail/finish.inl - the body of the batched last stage, included by
// flock/detail/finish.hpp once as written and, where the AVX dispatch is on, once more as a
// function built for AVX (as block_sums.inl is). Not a header of its own.
//
// (inside namespace boids::detail; BOIDS_DETAIL_FINISH names the function,
// BOIDS_DETAIL_FINISH_SPEC says how it is built, BOIDS_DETAIL_FINISH_PACK names its packs,
// BOIDS_DETAIL_FINISH_MOTION the speed band and walls built the same way)

// The last stage of lanes [0, b.size): new_p, new_v and redo. Lanes past the size
// hold leftovers and compute garbage that nobody reads. Given: the accelerations are
// given (b.accel, a blend of the user's, already finite): only the move is done here.
template <bool Given, class S, std::size_t D, class Config>
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
    const F max_force = P::splat(cfg.limits.max_force),
            max_force2 = P::splat(cfg.limits.max_force * cfg.limits.max_force);
    const F min_speed = P::splat(cfg.limits.min_speed), max_speed = P::splat(cfg.limits.max_speed);
    const F step = P::splat(dt);
    const F per_reaction = P::splat(S(1) / cfg.limits.reaction_time);
    const bool linear = cfg.separate.falloff == separation_falloff::linear;
    const bool band_floor = cfg.limits.min_speed > S(0);
    // Which rules steer as the lesson does: toward their direction at full speed.
    const bool lesson_rule[3] = {cfg.separate.falloff == separation_falloff::lesson,
                                 cfg.align.form == social_form::lesson, cfg.cohere.form == social_form::lesson};
    const bool use_rule[3] = {cfg.use_separation, cfg.use_alignment, cfg.use_cohesion};
    const F rule_weight[3] = {w_sep, w_align, w_cohere};
    for (std::size_t at = 0; at < b.size; at += P::lanes) {
        F p[D], v[D], sum[D];
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            p[d] = P::load(b.p[d] + at);
            v[d] = P::load(b.v[d] + at);
            sum[d] = zero;
        }
        M redo = P::but_not(P::all(), P::all());
        F a[D];
        M finite = P::all();
        if constexpr (Given) {
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 0; d < D; ++d) a[d] = P::load(b.accel[d] + at);
        } else {
            const F count = P::load(b.count + at);
            const M some = count > zero;
            const F per = one / P::select(some, count, one);  // S(1) / count
            // flock_acceleration_from_sums: sum + rule * weight, rule by rule
            // (separation, alignment, cohesion).
            BOIDS_DETAIL_UNROLL
            for (std::size_t r = 0; r < 3; ++r) {
                if (!use_rule[r]) continue;
                F rule[D];
                if (!lesson_rule[r]) {
                    BOIDS_DETAIL_UNROLL
                    for (std::size_t d = 0; d < D; ++d) {
                        if (r == 0) {
                            const F push = P::load(b.push[d] + at);
                            rule[d] =
                                (linear ? push + zero : push) * strength;  // linear adds the (zero) coincident sum
                        } else if (r == 1) {
                            rule[d] = P::keep(some, (P::load(b.velocity[d] + at) * per - v[d]) * g_align);
                        } else {
                            rule[d] = P::keep(some, P::load(b.offset[d] + at) * per * g_cohere);
                        }
                    }
                } else {
                    // The lesson's rule: x (the push, the mean velocity, the offset to the
                    // centre) made a unit vector (normalized_or_zero), at full speed, steered
                    // toward (steer_toward: (desired - v) / reaction time, clamped). A zero x
                    // steers nowhere; an x whose square leaves the normal range is redone.
                    F x[D];
                    M zero_x = P::all();
                    BOIDS_DETAIL_UNROLL
                    for (std::size_t d = 0; d < D; ++d) {
                        x[d] = r == 0 ? P::load(b.push[d] + at)
                                      : (r == 1 ? P::load(b.velocity[d] + at) : P::load(b.offset[d] + at)) * per;
                        zero_x = P::both(zero_x, x[d] == zero);
                    }
                    F x2 = x[0] * x[0] + x[1] * x[1];
                    if constexpr (D == 3) x2 = x2 + x[2] * x[2];
                    M steers = P::both(x2 >= smallest, x2 <= biggest);
                    const M counted = r == 0 ? P::all() : some;  // no neighbours: no rule (before x is looked at)
                    redo = P::either(redo, P::both(counted, P::but_not(P::all(), P::either(steers, zero_x))));
                    steers = P::both(steers, counted);
                    const F unit = one / P::sqrt(P::select(steers, x2, one));
                    F s[D];
                    BOIDS_DETAIL_UNROLL
                    for (std::size_t d = 0; d < D; ++d) s[d] = (x[d] * unit * max_speed - v[d]) * per_reaction;
                    F s2 = s[0] * s[0] + s[1] * s[1];
                    if constexpr (D == 3) s2 = s2 + s[2] * s[2];
                    const M s_as_is = P::both(s2 <= max_force2, s2 <= biggest);
                    const M s_normal = P::both(s2 >= smallest, s2 <= biggest);
                    redo = P::either(redo, P::both(steers, P::but_not(P::all(), P::either(s_as_is, s_normal))));
                    const F s_shrink = one / P::sqrt(P::select(s_normal, s2, one));
                    BOIDS_DETAIL_UNROLL
                    for (std::size_t d = 0; d < D; ++d)
                        rule[d] = P::keep(steers, P::select(s_as_is, s[d], s[d] * s_shrink * max_force));
                }
                BOIDS_DETAIL_UNROLL
                for (std::size_t d = 0; d < D; ++d) sum[d] = sum[d] + rule[d] * rule_weight[r];
            }
            // clamp_magnitude(sum, max_force), then zero if not finite.
            F l2 = sum[0] * sum[0] + sum[1] * sum[1];
            if constexpr (D == 3) l2 = l2 + sum[2] * sum[2];
            const M as_is = P::both(l2 <= max_force2, l2 <= biggest);
            const M normal = P::both(l2 >= smallest, l2 <= biggest);
            redo = P::either(redo, P::but_not(P::all(), P::either(as_is, normal)));
            const F shrink = one / P::sqrt(P::select(normal, l2, one));
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 0; d < D; ++d) {
                a[d] = P::select(as_is, sum[d], sum[d] * shrink * max_force);
                finite = P::both(finite, a[d] - a[d] == zero);
            }
        }  // the rules
        // integrate: the velocity, its speed band (detail/motion.hpp), then the position.
        F v2[D];
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) v2[d] = v[d] + P::keep(finite, a[d]) * step;
        redo = P::either(redo, BOIDS_DETAIL_FINISH_MOTION::template band<P, D>(v2, min_speed, max_speed, band_floor));
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) p[d] = p[d] + v2[d] * step;
        // confine: wrap (only positions already in the box stay here), or walls.
        if (cfg.world.wraps()) {
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 0; d < D; ++d)
                redo = P::either(redo, P::but_not(P::all(), P::both(p[d] >= zero, p[d] < P::splat(cfg.world.size[d]))));
        } else if (cfg.world.kind == edges::bounded) {
            BOIDS_DETAIL_FINISH_MOTION::template bounce<P, D>(p, v2, cfg.world.size.data());
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

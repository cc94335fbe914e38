// boids/flock/detail/block_sums.inl - the flock kernel's body, included by flock/detail/kernel.hpp
// once as written and, where the AVX dispatch is on, once more as a function built
// for AVX (a function's instruction set is part of its definition, so the one body
// is defined twice, under two names). Not a header of its own.
//
// (inside namespace boids::detail; BOIDS_DETAIL_BLOCK_SUMS names the function and
// BOIDS_DETAIL_BLOCK_SUMS_SPEC says how it is built: inlined, or for AVX, and
// BOIDS_DETAIL_BLOCK_PACK names its packs: pack, or pack_avx)

// Sums over a block of candidates, eight floats (four doubles) at a time: one pack
// under AVX, two under SSE2 or NEON, eight scalar steps without vector extensions.
// Every one of those eight logical lanes keeps its own partial sums, reduced by one
// fixed tree at the end, so the result is the same bits whatever the pack width
// (flags that contract a * b + c into one fused operation aside). Masks are bitwise:
// a lane that does not count adds +0, which leaves every sum bit for bit as it was
// (sums start at +0 and so are never -0). All inputs are finite here (checked when
// the block was filled; lanes past its end hold finite leftovers, masked out).
//
// The boid itself is not told apart by its slot: it is the lane at distance 0, as a
// boid on exactly the same spot would be. Lanes at distance 0 are left out of the
// sums and counted (the boid itself included); more than one sends the caller to
// the exact general path, which handles coincident boids.
// Nearest: also find the nearest neighbour's squared distance (a blend of the user's
// may read it; the ready-made blend does not, and skips the cost).
template <wrap_mode Wrap, bool Cone, bool Linear, bool Nearest, std::size_t Bytes, class S, std::size_t D>
BOIDS_DETAIL_BLOCK_SUMS_SPEC void BOIDS_DETAIL_BLOCK_SUMS(const kernel_query<S, D>& q,
                                                          const candidate_block<S, D>& block,
                                                          neighborhood_sums<S, D>& out) noexcept {
    using P = BOIDS_DETAIL_BLOCK_PACK<S, Bytes>;
    using F = typename P::f;
    using M = typename P::mask;
    constexpr std::size_t logical = block_lanes<S>;
    constexpr std::size_t R = logical / P::lanes;  // packs per step
    F p[D], size[D], half[D], neg_half[D], heading[D];
    const F zero = P::splat(S(0)), one = P::splat(S(1)), minus_one = P::splat(S(-1));
    // One counter for two counts, both small integers (exact in any float):
    // + 1 per neighbour, + zero_weight per lane at distance 0.
    const S zero_weight = S(block_capacity_limit + 1);
    BOIDS_ASSERT(block.size <= block_capacity_limit,
                 "block_sums: more candidates than the count can tell from zero_weight");
    const F at_zero_weight = P::splat(zero_weight);
    F counts[R], offset[R][D], velocity[R][D], push[R][D], nearest[R];
    const F far = P::splat(std::numeric_limits<S>::infinity());
    BOIDS_DETAIL_UNROLL
    for (std::size_t r = 0; r < R; ++r) {
        counts[r] = zero;
        nearest[r] = far;
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) offset[r][d] = velocity[r][d] = push[r][d] = zero;
    }
    BOIDS_DETAIL_UNROLL
    for (std::size_t d = 0; d < D; ++d) {
        p[d] = P::splat(q.p[d]);
        size[d] = P::splat(q.size[d]);
        half[d] = P::splat(q.half[d]);
        neg_half[d] = P::splat(-q.half[d]);
        heading[d] = P::splat(q.heading[d]);
    }
    const F r2 = P::splat(q.r2), sep_r2 = P::splat(q.sep_r2), sep_radius = P::splat(q.sep_radius);
    const S cos2 = q.cos_half * q.cos_half;
    const F cone_k = P::splat(q.cos_half >= S(0) ? cos2 : -cos2);

    // In 3D the ten sums of a step do not fit the sixteen AVX registers beside the
    // work: the velocities are summed in a second loop over the masks kept by the
    // first (the same additions in the same order, so the same bits), a chunk of
    // 32 steps at a time, so that the masks take 1 KB of the stack whatever the block.
    constexpr bool velocities_after = D >= 3;
    constexpr std::size_t chunk_steps = 32;
    M kept[velocities_after ? chunk_steps * R : 1];

    // Packs in order, R to a step. Lanes past the block's end hold fill_block's
    // sentinel, so far away that they add +0 to every sum, as a masked lane would: no
    // mask for the end. No lambdas here: a lambda's call operator would not be built
    // for AVX with the function that holds it.
    const std::size_t chunk = velocities_after ? chunk_steps * logical : std::max<std::size_t>(block.size, 1);
    for (std::size_t c0 = 0; c0 < block.size; c0 += chunk) {
        const std::size_t c1 = std::min(block.size, c0 + chunk);
        std::size_t packs = 0;
        for (std::size_t t = c0; t < c1; t += logical) BOIDS_DETAIL_UNROLL
        for (std::size_t r = 0; r < R; ++r) {
            const std::size_t at = t + r * P::lanes;
            if (at >= c1) break;
            F dx[D];
            F d2{};
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 0; d < D; ++d) {
                F x = P::load(block.pos[d] + at) - p[d];
                if constexpr (Wrap == wrap_mode::per_shift) {
                    x = x + P::load(block.shift[d] + at);
                } else if constexpr (Wrap == wrap_mode::per_lane) {
                    x = P::minimum_image(x, size[d], half[d], neg_half[d]);
                }
                dx[d] = x;
                d2 = d == 0 ? x * x : d2 + x * x;  // +0 + x*x would be x*x: the same bits
            }
            M in = d2 <= r2;
            if constexpr (Cone) {  // dot >= cos * |x|, in squares with dot's sign (see cone_sees)
                F dot = dx[0] * heading[0];
                BOIDS_DETAIL_UNROLL
                for (std::size_t d = 1; d < D; ++d) dot = dot + dx[d] * heading[d];
                in = P::both(in, dot * P::abs(dot) >= cone_k * d2);
            }
            const M apart = d2 > zero;
            const M m = P::both(in, apart);
            // A lane at distance 0 gives w = -inf here (and a sentinel lane NaN under the
            // linear falloff): both are masked out below, as bits, so no lane needs a
            // safe divisor.
            F w;
            if constexpr (Linear) {
                const F dist = P::sqrt(d2);
                w = (one - dist / sep_radius) / dist * minus_one;
            } else {
                w = minus_one / d2;
            }
            w = P::keep(P::both(m, d2 < sep_r2), w);
            counts[r] = counts[r] + P::keep(in, P::select(apart, one, at_zero_weight));
            if constexpr (Nearest)  // a minimum: the same whatever the order
                nearest[r] = P::select(P::both(m, d2 < nearest[r]), d2, nearest[r]);
            if constexpr (velocities_after) kept[packs++] = m;
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 0; d < D; ++d) {
                offset[r][d] = offset[r][d] + P::keep(m, dx[d]);
                if constexpr (!velocities_after)
                    velocity[r][d] = velocity[r][d] + P::keep(m, P::load(block.vel[d] + at));
                push[r][d] = push[r][d] + w * dx[d];
            }
        }
        if constexpr (velocities_after) {
            std::size_t k = 0;
            for (std::size_t t = c0; t < c1; t += logical) BOIDS_DETAIL_UNROLL
            for (std::size_t r = 0; r < R; ++r) {
                const std::size_t at = t + r * P::lanes;
                if (at >= c1) break;
                const M m = kept[k++];
                BOIDS_DETAIL_UNROLL
                for (std::size_t d = 0; d < D; ++d)
                    velocity[r][d] = velocity[r][d] + P::keep(m, P::load(block.vel[d] + at));
            }
        }
    }  // chunks

    // The tree: logical lane l = r * P::lanes + k; first l + (l + logical/2), and so on
    // (across the R packs, then within the pack).
    // Widths R/2 down to 1, as a loop of constant trip count (so that it unrolls).
    static_assert(R == 1 || R == 2 || R == 4 || R == 8, "block_sums: 1, 2, 4 or 8 packs a step");
    BOIDS_DETAIL_UNROLL
    for (std::size_t halving = 0; halving < 3; ++halving) {
        const std::size_t width = std::size_t(4) >> halving;
        if (width >= R) continue;
        BOIDS_DETAIL_UNROLL
        for (std::size_t r = 0; r < width; ++r) {
            counts[r] = counts[r] + counts[r + width];
            if constexpr (Nearest)
                nearest[r] = P::select(nearest[r + width] < nearest[r], nearest[r + width], nearest[r]);
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 0; d < D; ++d) {
                offset[r][d] = offset[r][d] + offset[r + width][d];
                velocity[r][d] = velocity[r][d] + velocity[r + width][d];
                push[r][d] = push[r][d] + push[r + width][d];
            }
        }
    }
    // Then within the pack: all 1 + 3 D sums at once.
    F lanes_of[1 + 3 * D];
    S total[1 + 3 * D];
    lanes_of[0] = counts[0];
    BOIDS_DETAIL_UNROLL
    for (std::size_t d = 0; d < D; ++d) {
        lanes_of[1 + d] = offset[0][d];
        lanes_of[1 + D + d] = velocity[0][d];
        lanes_of[1 + 2 * D + d] = push[0][d];
    }
    P::sum_each(lanes_of, total);
    const auto both = static_cast<std::size_t>(total[0]);
    const std::size_t zeros = both / static_cast<std::size_t>(zero_weight);
    out.count = both % static_cast<std::size_t>(zero_weight);
    out.at_zero = zeros;
    out.coincident = zeros > 0 ? zeros - 1 : 0;  // less the boid itself
    if constexpr (Nearest) {
        S near_lanes[P::lanes];
        P::store(near_lanes, nearest[0]);
        S near = near_lanes[0];
        for (std::size_t k = 1; k < P::lanes; ++k) near = near_lanes[k] < near ? near_lanes[k] : near;
        out.nearest_squared = near;
    }
    BOIDS_DETAIL_UNROLL
    for (std::size_t d = 0; d < D; ++d) {
        out.offset[d] = total[1 + d];
        out.velocity[d] = total[1 + D + d];
        out.push[d] = total[1 + 2 * D + d];
    }
}

// d2[j] = the squared distance of candidate j as the kernel above measures it (the
// same operations, so the same bits), or +infinity where the cone hides it: what a
// crowded boid ranks its candidates by (heeded_radius_squared). Writes whole steps of
// `logical` lanes: up to logical - 1 past size.
template <wrap_mode Wrap, bool Cone, std::size_t Bytes, class S, std::size_t D>
BOIDS_DETAIL_BLOCK_SUMS_SPEC void BOIDS_DETAIL_SEEN_DISTANCES(const kernel_query<S, D>& q,
                                                              const candidate_block<S, D>& block, S* d2) noexcept {
    using P = BOIDS_DETAIL_BLOCK_PACK<S, Bytes>;
    using F = typename P::f;
    F p[D], size[D], half[D], neg_half[D], heading[D];
    BOIDS_DETAIL_UNROLL
    for (std::size_t d = 0; d < D; ++d) {
        p[d] = P::splat(q.p[d]);
        size[d] = P::splat(q.size[d]);
        half[d] = P::splat(q.half[d]);
        neg_half[d] = P::splat(-q.half[d]);
        heading[d] = P::splat(q.heading[d]);
    }
    const S cos2 = q.cos_half * q.cos_half;
    const F cone_k = P::splat(q.cos_half >= S(0) ? cos2 : -cos2);
    const F far = P::splat(std::numeric_limits<S>::infinity());
    for (std::size_t at = 0; at < block.size; at += P::lanes) {
        F dx[D];
        F sq{};
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            F x = P::load(block.pos[d] + at) - p[d];
            if constexpr (Wrap == wrap_mode::per_shift) {
                x = x + P::load(block.shift[d] + at);
            } else if constexpr (Wrap == wrap_mode::per_lane) {
                x = P::minimum_image(x, size[d], half[d], neg_half[d]);
            }
            dx[d] = x;
            sq = d == 0 ? x * x : sq + x * x;
        }
        if constexpr (Cone) {
            F dot = dx[0] * heading[0];
            BOIDS_DETAIL_UNROLL
            for (std::size_t d = 1; d < D; ++d) dot = dot + dx[d] * heading[d];
            sq = P::select(dot * P::abs(dot) >= cone_k * sq, sq, far);
        }
        P::store(d2 + at, sq);
    }
}

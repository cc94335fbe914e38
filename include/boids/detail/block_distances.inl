// boids/detail/block_distances.inl - the k-nearest batch's two loops over a block,
// included by block_distances.hpp once as written and, where the AVX dispatch is on,
// once more built for AVX (as block_sums.inl). Not a header of its own.
//
// (inside namespace boids::detail; BOIDS_DETAIL_DISTANCES_SPEC says how the functions
// are built, BOIDS_DETAIL_DISTANCES_PACK names their packs, and
// BOIDS_DETAIL_DISTANCES_SQUARED and BOIDS_DETAIL_DISTANCES_COUNT name them)

// d2[j] = |x_j - p|^2 for j < size, x_j + shift_j where Torus: the same operations in
// every lane, ((x - p) + shift)^2 summed axis by axis from +0, so the same bits in
// either build. Reads and writes whole packs: up to one pack past size.
template <bool Torus, std::size_t D, class S>
BOIDS_DETAIL_DISTANCES_SPEC void BOIDS_DETAIL_DISTANCES_SQUARED(const S* const (&x)[D], const S* const (&shift)[D],
                                                                const S* p, std::size_t size, S* d2) noexcept {
    using P = BOIDS_DETAIL_DISTANCES_PACK;
    typename P::f q[D];
    BOIDS_DETAIL_UNROLL
    for (std::size_t d = 0; d < D; ++d) q[d] = P::splat(p[d]);
    for (std::size_t j = 0; j < size; j += P::lanes) {
        typename P::f sum = P::splat(S(0));
        BOIDS_DETAIL_UNROLL
        for (std::size_t d = 0; d < D; ++d) {
            typename P::f u = P::load(x[d] + j) - q[d];
            if constexpr (Torus) u = u + P::load(shift[d] + j);
            sum = sum + u * u;
        }
        P::store(d2 + j, sum);
    }
}

// How many of d2[0, count) are <= t2 (reads none past count). Four sums, so that the
// loop is not one chain of additions, each waiting for the last (a crowded boid's
// search counts a block several times).
template <class S>
BOIDS_DETAIL_DISTANCES_SPEC std::size_t BOIDS_DETAIL_DISTANCES_COUNT(const S* d2, std::size_t count, S t2) noexcept {
    using P = BOIDS_DETAIL_DISTANCES_PACK;
    constexpr std::size_t L = P::lanes;
    typename P::f hits = P::splat(S(0)), hits1 = hits, hits2 = hits, hits3 = hits;
    const typename P::f limit = P::splat(t2);
    std::size_t t = 0;
    for (; t + 4 * L <= count; t += 4 * L) {
        hits = hits + P::ones_where(P::load(d2 + t) <= limit);
        hits1 = hits1 + P::ones_where(P::load(d2 + t + L) <= limit);
        hits2 = hits2 + P::ones_where(P::load(d2 + t + 2 * L) <= limit);
        hits3 = hits3 + P::ones_where(P::load(d2 + t + 3 * L) <= limit);
    }
    for (; t + L <= count; t += L) hits = hits + P::ones_where(P::load(d2 + t) <= limit);
    hits = (hits + hits1) + (hits2 + hits3);
    std::size_t total = static_cast<std::size_t>(P::sum(hits));  // small whole numbers: exact
    for (; t < count; ++t) total += d2[t] <= t2 ? 1 : 0;
    return total;
}

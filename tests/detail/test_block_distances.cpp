// Tests of boids/detail/block_distances.hpp: the k-nearest batch's squared distances
// and counts within a limit give, in their AVX build as in their default one, the bits
// of the plain per-candidate arithmetic.
#include "test_support.hpp"
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>
#include <boids/detail/block_distances.hpp>

namespace {
template <class S, std::size_t D, bool Torus>
void check_distances(std::mt19937& rng, std::size_t size, bool avx) {
    std::uniform_real_distribution<double> u(-6.0, 6.0);
    const std::size_t room = size + boids::detail::distance_padding<S>;
    std::vector<S> x[D], shift[D];
    S p[D];
    for (std::size_t d = 0; d < D; ++d) {
        x[d].assign(room, S(0));  // the lanes past size are read: finite, as the grid pads them
        shift[d].assign(room, S(0));
        p[d] = static_cast<S>(u(rng));
        for (std::size_t j = 0; j < size; ++j) {
            x[d][j] = static_cast<S>(u(rng));
            const int pick = static_cast<int>(rng() % 3);
            shift[d][j] = pick == 0 ? S(0) : pick == 1 ? S(12.5) : S(-12.5);
        }
    }
    if (size > 2)
        for (std::size_t d = 0; d < D; ++d) x[d][1] = p[d];  // the boid itself: exactly 0
    const S* xs[D];
    const S* ss[D];
    for (std::size_t d = 0; d < D; ++d) {
        xs[d] = x[d].data();
        ss[d] = shift[d].data();
    }
    std::vector<S> got(room, S(-1));
    boids::detail::block_distances<Torus>(avx, xs, ss, p, size, got.data());
    std::size_t same = 0;
    for (std::size_t j = 0; j < size; ++j) {
        S want = S(0);
        for (std::size_t d = 0; d < D; ++d) {
            S v = x[d][j] - p[d];
            if (Torus) v = v + shift[d][j];
            const S sq = v * v;  // two statements: no contraction into one rounding
            want = want + sq;
        }
#if defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)
        // The compiler may fuse a multiply and an add here or in the library (as under
        // -march=native): within a few roundings, then.
        const bool close = std::fabs(got[j] - want) <= S(4) * std::numeric_limits<S>::epsilon() * want;
        same += close ? std::size_t(1) : std::size_t(0);
#else
        same += std::memcmp(&want, &got[j], sizeof(S)) == 0 ? std::size_t(1) : std::size_t(0);
#endif
    }
    CAPTURE(size, avx, D, Torus);
    REQUIRE(same == size);
}
}  // namespace

TEMPLATE_TEST_CASE("block_distances gives the plain arithmetic's bits in either build",
                   "[uniform_grid][block_distances]", float, double) {
    using S = TestType;
    std::mt19937 rng(11);
    for (std::size_t size = 0; size <= 41; ++size)
        for (bool avx : {false, boids::detail::avx_at_run_time()}) {
            check_distances<S, 2, false>(rng, size, avx);
            check_distances<S, 2, true>(rng, size, avx);
            check_distances<S, 3, false>(rng, size, avx);
            check_distances<S, 3, true>(rng, size, avx);
        }
}

TEMPLATE_TEST_CASE("count_within counts those at most t2, reading none past count, in either build",
                   "[uniform_grid][block_distances]", float, double) {
    using S = TestType;
    std::mt19937 rng(13);
    std::uniform_real_distribution<double> u(0.0, 4.0);
    const S inf = std::numeric_limits<S>::infinity();
    const S t2 = S(1.5);
    std::vector<std::size_t> counts;  // every count up to 41, then several times the unrolled loop's step
    for (std::size_t count = 0; count <= 41; ++count) counts.push_back(count);
    for (std::size_t count : {64u, 100u, 257u}) counts.push_back(count);
    for (const std::size_t count : counts)
        for (int trial = 0; trial < 10; ++trial)
            for (bool avx : {false, boids::detail::avx_at_run_time()}) {
                // Past count: values within t2, which must not be counted.
                std::vector<S> d2(count + 16, S(0));
                std::size_t want = 0;
                for (std::size_t j = 0; j < count; ++j) {
                    const int pick = static_cast<int>(rng() % 6);
                    d2[j] = pick == 0 ? t2 : pick == 1 ? inf : pick == 2 ? std::nextafter(t2, inf) : S(u(rng));
                    if (trial == 0 && j % 3 == 0) d2[j] = std::numeric_limits<S>::quiet_NaN();  // never within
                    want += d2[j] <= t2 ? std::size_t(1) : std::size_t(0);
                }
                CAPTURE(count, trial, avx);
                REQUIRE(boids::detail::count_within(avx, d2.data(), count, t2) == want);
            }
}

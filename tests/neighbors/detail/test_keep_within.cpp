// Tests of boids/neighbors/detail/grid/keep_within.hpp: the k-nearest query's compaction keeps, in
// order, exactly the candidates within the ball, in its AVX build as in its scalar
// one, into other arrays or in place.
#include "test_support.hpp"
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>
#include <boids/neighbors/detail/grid/keep_within.hpp>

TEMPLATE_TEST_CASE("keep_within keeps those within t2, in order, in either build", "[uniform_grid][keep_within]", float,
                   double) {
    using S = TestType;
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(0.0, 4.0);
    const S inf = std::numeric_limits<S>::infinity();
    for (std::size_t count = 0; count <= 41; ++count)
        for (int trial = 0; trial < 20; ++trial)
            for (bool in_place : {false, true})
                for (bool avx : {false, boids::detail::avx_at_run_time()}) {
                    const S t2 = S(1.5);
                    // Room past count, as the grid's arrays have: read, never kept.
                    std::vector<S> d2(count + 16, S(0));
                    std::vector<std::uint32_t> slot(count + 16, 7u);
                    for (std::size_t j = 0; j < count; ++j) {
                        const int pick = static_cast<int>(rng() % 8);
                        d2[j] = pick == 0 ? t2 : pick == 1 ? inf : pick == 2 ? std::nextafter(t2, inf) : S(u(rng));
                        if (trial == 0 && j % 3 == 0) d2[j] = std::numeric_limits<S>::quiet_NaN();  // never within
                        slot[j] = static_cast<std::uint32_t>(1000 + j);
                    }
                    std::vector<S> want_d2;
                    std::vector<std::uint32_t> want_slot;
                    for (std::size_t j = 0; j < count; ++j)
                        if (d2[j] <= t2) {
                            want_d2.push_back(d2[j]);
                            want_slot.push_back(slot[j]);
                        }
                    std::vector<S> out_d2(count + 16, S(-1));
                    std::vector<std::uint32_t> out_slot(count + 16, 0u);
                    S* od2 = in_place ? d2.data() : out_d2.data();
                    std::uint32_t* oslot = in_place ? slot.data() : out_slot.data();
                    const std::size_t kept =
                        boids::detail::keep_within(avx, d2.data(), slot.data(), count, t2, od2, oslot);
                    CAPTURE(count, trial, in_place, avx);
                    REQUIRE(kept == want_d2.size());
                    bool same = true;
                    for (std::size_t q = 0; q < kept; ++q)
                        same = same && std::memcmp(&od2[q], &want_d2[q], sizeof(S)) == 0 && oslot[q] == want_slot[q];
                    REQUIRE(same);
                }
}

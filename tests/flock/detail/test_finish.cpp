// Tests of boids/flock/detail/finish.hpp: the fused step's batched last stage (blend,
// force clamp, speed band, move, edges) gives the bits of the per-boid functions it
// stands in for, lane by lane, and hands back the lanes it cannot do.
#include "test_support.hpp"
#include <cstring>
#include <random>
#include <boids/flock/step.hpp>

namespace {
template <class S>
bool same_bits(S a, S b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}
// Where the compiler may fuse a * b + c (FMA contraction), the pack code and the
// scalar code may round differently: then only closeness is promised.
template <class S>
bool agrees(S a, S b) {
#if defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)
    return std::fabs(a - b) <= S(1e-5) * (S(1) + std::fabs(b));
#else
    return same_bits(a, b);
#endif
}
}  // namespace

TEMPLATE_TEST_CASE("the batched last stage gives the per-boid functions' bits, lane by lane", "[flock][finish]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    std::mt19937 rng(12);
    auto uniform = [&](double lo, double hi) { return S(std::uniform_real_distribution<double>(lo, hi)(rng)); };
    for (auto kind : {boids::edges::open, boids::edges::bounded, boids::edges::wrap, boids::edges::toroidal})
        for (auto falloff : {boids::separation_falloff::inverse_square, boids::separation_falloff::linear,
                             boids::separation_falloff::lesson})
            for (auto form : {boids::social_form::linear, boids::social_form::lesson})  // alignment's and cohesion's
                for (S min_speed : {S(0), S(0.3)})
                    for (bool extreme : {false, true})
                        for (bool avx :
                             {false, boids::detail::avx_at_run_time()}) {  // the AVX build where the CPU has it
                            boids::flock_config<V> cfg;
                            cfg.world.kind = kind;
                            cfg.world.size.fill(S(20));
                            cfg.limits = {S(1.5), S(2), S(0.5), min_speed};
                            cfg.separate = {S(1), falloff, S(0.05)};
                            cfg.align = {form, S(1)};
                            cfg.cohere = {form, S(0.2)};
                            cfg.alignment_weight = S(0.7);
                            REQUIRE(boids::detail::batch_finish_supported(cfg));
                            const S dt = S(0.1);
                            boids::detail::finish_batch<S, D> b;
                            b.size = 29;  // not a whole number of packs
                            for (std::size_t k = 0; k < b.size; ++k) {
                                b.count[k] = S(k % 5 == 0 ? 0 : k % 17);
                                for (std::size_t d = 0; d < D; ++d) {
                                    // Ordinary: inside the box, moderate sums. Extreme: positions
                                    // that leave the box, zero velocities, sums that overflow or vanish.
                                    b.p[d][k] = extreme && k % 3 == 0 ? uniform(-0.3, 0.2) : uniform(1, 19);
                                    b.v[d][k] = extreme && k % 4 == 1 ? S(0) : uniform(-2, 2);
                                    b.push[d][k] = extreme && k % 7 == 2   ? S(1e30)
                                                   : extreme && k % 7 == 3 ? S(1e-30)
                                                                           : uniform(-50, 50);
                                    b.offset[d][k] = uniform(-20, 20);
                                    b.velocity[d][k] = uniform(-20, 20);
                                    if (extreme &&
                                        k % 6 == 4) {  // sums that point nowhere (the lesson's zero direction)
                                        b.push[d][k] = S(0);
                                        b.offset[d][k] = S(0);
                                        b.velocity[d][k] = S(0);
                                    }
                                }
                            }
                            boids::detail::finish_batch_lanes(avx, b, cfg, dt);
                            std::size_t redone = 0, mismatched = 0;
                            for (std::size_t k = 0; k < b.size; ++k) {
                                auto lane = [&](const S(&a)[D][boids::detail::finish_batch<S, D>::stride]) {
                                    return boids::generate<V>([&](std::size_t d) { return a[d][k]; });
                                };
                                V p = lane(b.p), v = lane(b.v);
                                const V a = boids::flock_acceleration_from_sums(
                                    p, v, static_cast<std::size_t>(b.count[k]), lane(b.push), boids::zero<V>(), false,
                                    lane(b.offset), lane(b.velocity), cfg);
                                boids::detail::move_boid(p, v, a, dt, cfg);
                                if (b.redo[k]) {
                                    ++redone;
                                    continue;
                                }
                                for (std::size_t d = 0; d < D; ++d)
                                    if (!agrees(b.new_p[d][k], boids::get(p, d)) ||
                                        !agrees(b.new_v[d][k], boids::get(v, d)))
                                        ++mismatched;
                            }
                            CAPTURE(static_cast<int>(kind), static_cast<int>(falloff), static_cast<int>(form),
                                    min_speed, extreme, avx, redone);
                            CHECK(mismatched == 0);
                            if (!extreme) CHECK(redone == 0);  // ordinary boids never leave the pack
                            // Positions that leave a wrapping box need fmod: handed back.
                            if (extreme && cfg.world.wraps()) CHECK(redone > 0);
                            if (extreme && !cfg.world.wraps()) CHECK(redone < b.size / 2);
                        }
}

TEST_CASE("the batch takes every falloff and form; a predator takes the per-boid path", "[flock][finish]") {
    boids::flock_config<plain_vec2> cfg;
    cfg.separate.falloff = boids::separation_falloff::linear;
    cfg.align.form = boids::social_form::linear;
    cfg.cohere.form = boids::social_form::linear;
    CHECK(boids::detail::batch_finish_supported(cfg));
    auto c = cfg;
    c.separate.falloff = boids::separation_falloff::lesson;
    c.align.form = boids::social_form::lesson;
    c.cohere.form = boids::social_form::lesson;
    CHECK(boids::detail::batch_finish_supported(c));  // the library's defaults
    c = cfg;
    c.has_predator = true;
    CHECK_FALSE(boids::detail::batch_finish_supported(c));
    // The lesson's rules steer over the reaction time; without one, steer_toward's
    // own check speaks (per boid), not the batch.
    c = cfg;
    c.align.form = boids::social_form::lesson;
    c.limits.reaction_time = 0;
    CHECK_FALSE(boids::detail::batch_finish_supported(c));
    c.use_alignment = false;  // not used: no matter
    CHECK(boids::detail::batch_finish_supported(c));
}

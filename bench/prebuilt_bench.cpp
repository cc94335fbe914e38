// bench/prebuilt_bench.cpp - what boids::prebuilt costs at run time. Compiled twice into
// boids-bench-prebuilt: once as the headers alone (benchmarks "prebuilt/headers/...")
// and once with BOIDS_PREBUILT, its steps taken from the library ("prebuilt/library/...").
// The standard scene over glm::vec2 (bench/standard_scene.hpp), 10,000 boids:
//   - ready_made: flock_step with flock_rules. The headers' side passes an executor of
//     its own type (sequential in all but name), so that it compiles its own copy of the
//     step rather than sharing the library's;
//   - own_blend: a blend of the user's (the three rules through make_weighted_blend, in a
//     lambda of each side's own):
//     the headers' side compiles the step for it; the library's side takes the step
//     over a blend_ref, which calls the blend through a pointer, boid by boid.
// Run with --benchmark_enable_random_interleaving=true to interleave the two sides.
#include <benchmark/benchmark.h>
#include <boids/boids.hpp>
#include <cstddef>
#include <vector>
#include "standard_scene.hpp"

#if defined(BOIDS_PREBUILT)
#  define BOIDS_BENCH_SIDE "prebuilt/library/"
#  define BOIDS_BENCH_REGISTER register_library_side
#else
#  define BOIDS_BENCH_SIDE "prebuilt/headers/"
#  define BOIDS_BENCH_REGISTER register_headers_side
#endif

namespace {
using V = glm::vec2;

struct headers_sequential {  // sequential, under a type the library holds no step for
    template <class F>
    void operator()(std::size_t tasks, F&& work) const {
        for (std::size_t t = 0; t < tasks; ++t) work(t);
    }
    [[nodiscard]] std::size_t concurrency() const noexcept { return 1; }
};

template <bool OwnBlend>
void step(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto cfg = standard_scene<V>(n);
    const auto lim = cfg.limits;
    std::vector<V> p, v;
    boids::lesson::scatter(1234, cfg, p, v, n);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    const auto rules =
        boids::make_weighted_blend(lim.max_force, boids::weight(1.f, boids::separation_rule<V>{cfg.separate, lim}),
                                   boids::weight(1.f, boids::alignment_rule<V>{cfg.align, lim}),
                                   boids::weight(1.f, boids::cohesion_rule<V>{cfg.cohere, lim}));
    // A lambda: a type of this translation unit's own, so that each side keeps its own step.
    const auto own = [&rules](const boids::boid_view<V>& b, const boids::neighborhood_summary<V>& s) {
        return rules(b, s);
    };
    for (auto _ : state) {
        if constexpr (OwnBlend) {
            boids::flock_step(p, v, cfg, grid, ws, 0.05f, own);
        } else {
#if defined(BOIDS_PREBUILT)
            boids::flock_step(p, v, cfg, grid, ws, 0.05f);
#else
            boids::flock_step(p, v, cfg, grid, ws, 0.05f, headers_sequential{});
#endif
        }
        benchmark::DoNotOptimize(p.data());
    }
    state.counters["path"] = ws.report.path == boids::flock_path::fused_kernel ? 1 : 0;
}
}  // namespace

void BOIDS_BENCH_REGISTER() {
    benchmark::RegisterBenchmark(BOIDS_BENCH_SIDE "ready_made/10000", step<false>)->Arg(10000)->UseRealTime();
    benchmark::RegisterBenchmark(BOIDS_BENCH_SIDE "own_blend/10000", step<true>)->Arg(10000)->UseRealTime();
}

#if !defined(BOIDS_PREBUILT)
void register_library_side();
int main(int argc, char** argv) {
    register_headers_side();
    register_library_side();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}
#endif

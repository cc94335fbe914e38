// boids-bench: neighbour search and whole flock steps.
//   neighbors/<metric|topological>/<2d|3d>/<all_pairs|grid>/N
//   neighbors/<metric|topological>/<2d|3d>/grid_cell_order/N  (queries in the grid's cell order)
//   neighbors/metric/2d/<grid|hashed>_torus_patch/N/widen:W  (the flock across the corner of
//     a torus W times its side)
//   step/<lesson|standard2d|standard3d>/<all_pairs|grid|auto>/N/threads:T
//   step/standard2d_cone270/grid, step/standard<2d|3d>_topological7/grid
//   step/standard<2d|3d>_cell_ordered/grid  (the caller's arrays kept in cell order)
//   step/standard2d_settled/grid  (the standard 2D scene after 1,000 steps of flocking)
//   step/standard2d_open_stray/grid/N/threads:T/far:F  (in an open world, one boid F away)
//   step/standard2d_open_flocks/<grid|hashed>/N/threads:T/flocks:F/map:M  (F flocks at
//     random spots of an open map M wide)
//   step/lesson_spawn/grid/N/jitter:J  (the first step of N lesson boids spawned on one
//     spot, or within J px of it; beside:1, every other boid spread over the world);
//     step/lesson_spawn_topological7/... the same boids heeding their 7 nearest;
//     step/lesson_spawn_second/.../cap:C the step after the first from rest, max_neighbors C;
//     step/lesson_spawn_spread/grid/N/after:S/golden:G the step S steps after such a spawn
//   step/spawn3d_spread/grid/N/after:S/beside:B  (3D: N boids spawned on one spot in an open
//     world at 3 units/s, view radius 20, a 270-degree cone, cap 7, the step S steps on;
//     B of them spread over a cube 200 across instead)
// Counters: ns_per_boid; neighbors_per_boid and candidates_per_boid (the boids each
// query looks at, itself included), the latter two counted untimed for the steps.
// The standard scene: N boids uniform in a square of side sqrt(N) (density 1),
// toroidal, view radius sqrt(15/pi) (about 15 neighbours), float, inverse-square
// separation + alignment + cohesion, no cone, speed band, dt = 0.1. In 3D a cube of
// side cbrt(N), radius cbrt(45/(4 pi)).
#include <benchmark/benchmark.h>
#if __has_include(<nanoflann.hpp>)
#  include <nanoflann.hpp>
#endif
#include "crowd.hpp"
#include "starlings.hpp"
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include <boids/boids.hpp>
#include "lab_vector.hpp"
#include "standard_scene.hpp"

namespace {

template <class V>
void scatter(std::size_t n, const boids::flock_config<V>& c, std::vector<V>& p, std::vector<V>& v) {
    boids::lesson::scatter(1234, c, p, v, n);
}

enum finder_kind { all_pairs_k, grid_k, auto_k, hashed_k };

// The candidates per boid of a metric query of `radius` (the boids it looks at,
// itself included): a grid's runs of slots, the cells of its block (the same runs
// the step's kernel reads), or every boid for all-pairs. Untimed.
template <class V, class F>
double metric_candidates_per_boid(const F& finder, boids::scalar_t<V> radius, std::size_t n) {
    if constexpr (std::is_same_v<F, boids::uniform_grid<V>>) {
        const auto plan = finder.runs().plan_for(radius);
        std::size_t total = 0;
        for (std::size_t s = 0; s < n; ++s)
            finder.runs().for_each_run(s, plan, [&](std::size_t s0, std::size_t s1) { total += s1 - s0; });
        return double(total) / double(n);
    } else {
        (void)finder;
        (void)radius;
        return double(n);
    }
}

// Neighbours and candidates summed over the flock (see step_counters).
template <class V, class F>
std::pair<double, double> count_for_step(F& finder, const boids::flock_config<V>& cfg, const std::vector<V>& p,
                                         const std::vector<V>& v) {
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const std::size_t n = p.size();
    finder.build(boids::span<const V>(p));
    std::size_t neighbours = 0;
    double candidates = 0;
    if (cfg.neighbors == boids::neighborhood_kind::topological) {
        std::vector<boids::neighbor<S, D>> buf(cfg.k);
        boids::k_nearest<S, D> knn(boids::span<boids::neighbor<S, D>>(buf), cfg.k);
        bool batch = false;
        if constexpr (std::is_same_v<F, boids::uniform_grid<V>>) {  // the step's batch query
            finder.nearest_in_slots(0, n, knn, cfg.view_radius, [&](std::size_t, const boids::k_nearest<S, D>& found) {
                neighbours += found.size();
            });
            batch = true;
        }
        for (std::size_t i = 0; i < n && !batch; ++i) {
            finder.nearest(i, knn, cfg.view_radius);
            neighbours += knn.size();
        }
        candidates = double(knn.candidates());
    } else {
        const S cos_half = boids::vision_cone<S, D>::cos_half_of(cfg.view_angle);
        boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);  // all_pairs' neighbours, sooner
        grid.build(boids::span<const V>(p));
        for (std::size_t i = 0; i < n; ++i) {
            const auto cone = boids::vision_cone<S, D>::from(v[i], cfg.view_angle, cos_half);
            grid.for_each_within(i, cfg.view_radius, cone, [&](const boids::neighbor<S, D>&) { ++neighbours; });
        }
        candidates = metric_candidates_per_boid<V>(finder, cfg.view_radius, n) * double(n);
    }
    return {double(neighbours), candidates};
}

// A step's counters, from the flock the timing starts at, untimed: the neighbours
// per boid (within the radius and the cone, before max_neighbors; or the k nearest
// within the radius) and the candidates per boid, found the way the step finds them.
// Counted once per scene and finder, not once per repetition or thread count;
// all-pairs' metric neighbours are counted on a grid, which finds the same ones.
template <class V, class F>
void step_counters(benchmark::State& state, const std::string& scene, F& finder, const boids::flock_config<V>& cfg,
                   const std::vector<V>& p, const std::vector<V>& v) {
    const std::size_t n = p.size();
    if (n == 0) return;
    static std::map<std::string, std::pair<double, double>> counted;  // scene -> per boid: neighbours, candidates
    auto known = counted.find(scene);
    if (known == counted.end()) {
        const auto c = count_for_step(finder, cfg, p, v);
        known = counted.emplace(scene, std::make_pair(c.first / double(n), c.second / double(n))).first;
    }
    state.counters["neighbors_per_boid"] = known->second.first;
    if (!std::is_same_v<F, boids::hashed_grid<V>>)  // a hashed grid's cells are not counted
        state.counters["candidates_per_boid"] = known->second.second;
}

// The open step on the standard 2D scene (one thread), each variant against the
// ready-made step in the same run:
//   blend     the three rules written as a blend of your own over the summary
//             (separation_rule, alignment_rule, cohesion_rule in make_weighted_blend)
//   custom    those, a seek toward a moving point (weight 0.1) and flight from 4 predators
//   entities  the ready-made step over members of a 32-byte struct (strided_span)
enum class open_variant { blend, custom, entities };
struct bench_entity {
    int id;
    float hp;
    f2 pos, vel;
    float extra[2];
};
void bm_open_step(benchmark::State& state, open_variant variant) {
    using V = f2;
    using S = float;
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto cfg = standard_scene<V>(n);
    const auto lim = cfg.limits;
    std::vector<V> p, v;
    scatter(n, cfg, p, v);
    const std::vector<V> p0 = p, v0 = v;
    std::vector<bench_entity> ents(n);
    static_assert(sizeof(bench_entity) >= 32, "the issue's stride: 32 bytes or more");
    auto reset = [&] {
        p = p0;
        v = v0;
        for (std::size_t i = 0; i < n; ++i) ents[i] = bench_entity{static_cast<int>(i), 1.f, p0[i], v0[i], {0.f, 0.f}};
    };
    reset();
    const auto rules =
        boids::make_weighted_blend(lim.max_force, boids::weight(S(1), boids::separation_rule<V>{cfg.separate, lim}),
                                   boids::weight(S(1), boids::alignment_rule<V>{cfg.align, lim}),
                                   boids::weight(S(1), boids::cohesion_rule<V>{cfg.cohere, lim}));
    const S side = cfg.world.size[0];
    V goal{side * S(0.5), side * S(0.5)};
    V predators[4] = {{side * S(0.25), side * S(0.25)},
                      {side * S(0.75), side * S(0.25)},
                      {side * S(0.25), side * S(0.75)},
                      {side * S(0.75), side * S(0.75)}};
    auto custom = [&](const boids::boid_view<V>& b, const boids::neighborhood_summary<V>& sm) {
        V a = rules(b, sm);
        a = boids::add_scaled(a, boids::seek<V>{goal, lim}(b.position, b.velocity), S(0.1));
        for (const V& hawk : predators) {
            const V away = boids::offset(cfg.world, hawk, b.position);
            a = boids::add_scaled(
                a, boids::flee<V>{boids::zero<V>(), S(4), lim, boids::flee_outside::ignore}(away, b.velocity), S(1));
        }
        return boids::clamp_magnitude(a, lim.max_force);
    };
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    const S dt = S(0.1);
    const auto pos = boids::members(ents, &bench_entity::pos);
    const auto vel = boids::members(ents, &bench_entity::vel);
    auto step = [&] {
        switch (variant) {
        case open_variant::blend: boids::flock_step(p, v, cfg, grid, ws, dt, rules); break;
        case open_variant::custom: boids::flock_step(p, v, cfg, grid, ws, dt, custom); break;
        case open_variant::entities: boids::flock_step(pos, vel, cfg, grid, ws, dt); break;
        }
    };
    step();  // sizes the grid and the workspace: untimed, as in bm_step
    reset();
    std::size_t since_reset = 0, steps = 0;
    for (auto _ : state) {
        if (++since_reset == 10) {
            state.PauseTiming();
            reset();
            since_reset = 0;
            state.ResumeTiming();
        }
        goal = V{side * S(0.5) + S(3) * std::cos(S(0.01) * S(steps)), goal.y};
        for (V& hawk : predators) hawk.x = std::fmod(hawk.x + S(0.1), side);
        ++steps;
        step();
    }
    state.counters["ns_per_boid"] = benchmark::Counter(
        double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["fused_kernel"] = ws.report.path == boids::flock_path::fused_kernel ? 1 : 0;
}

// Every boid's neighbours, the index rebuilt each time. by_cell (grids): the queries
// walk the grid's cell order, as a step does, so neighbouring queries share their
// cells in cache; topological ones then go through the batch query.
template <class V, class F>
// widen > 1: the finder's torus is that many times the scene's, the flock a patch
// across its corner (the scene's positions moved back by half its side, then wrapped).
void run_neighbors(benchmark::State& state, F& finder, bool topological, bool by_cell = false, double widen = 1) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto cfg = standard_scene<V>(n);
    std::vector<V> p, v;
    scatter(n, cfg, p, v);
    if (widen > 1)
        for (V& x : p)
            x = boids::generate<V>([&](std::size_t d) {
                const auto side = cfg.world.size[d];
                return boids::world_for<V>::wrap_scalar(boids::get(x, d) - side / 2,
                                                        static_cast<boids::scalar_t<V>>(side * widen));
            });
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    std::vector<boids::neighbor<S, D>> buf(64);
    double found = 0, looked_at = 0;
    finder.build(boids::span<const V>(p));  // the first build sizes the index: untimed
    for (auto _ : state) {
        finder.build(boids::span<const V>(p));
        std::size_t total = 0, candidates = 0;  // candidates: counted by the k-nearest queries
        bool done = false;
        if constexpr (std::is_same_v<F, boids::uniform_grid<V>>) {
            if (by_cell && topological) {  // one block of candidates per cell
                boids::k_nearest<S, D> sink(boids::span<boids::neighbor<S, D>>(buf), 7);
                finder.nearest_in_slots(0, n, sink, std::numeric_limits<S>::infinity(),
                                        [&](std::size_t, const boids::k_nearest<S, D>& k) { total += k.size(); });
                candidates = sink.candidates();
                done = true;
            }
        }
        for (std::size_t q = 0; q < n && !done; ++q) {
            std::size_t i = q;
            if constexpr (std::is_same_v<F, boids::uniform_grid<V>>) i = by_cell ? finder.order()[q] : q;
            boids::k_nearest<S, D> sink(boids::span<boids::neighbor<S, D>>(buf), topological ? 7 : 64);
            if (topological) finder.nearest(i, sink);
            else finder.for_each_within(i, cfg.view_radius, sink);
            total += sink.size();
            candidates += sink.candidates();
        }
        found = double(total);
        looked_at = double(candidates);
        benchmark::DoNotOptimize(total);
    }
    if (!topological) looked_at = metric_candidates_per_boid<V>(finder, cfg.view_radius, n) * double(n);  // untimed
    state.SetComplexityN(state.range(0));
    state.counters["neighbors_per_boid"] = found / double(n);
    if (!std::is_same_v<F, boids::hashed_grid<V>> || topological)  // a hashed grid's cells are not counted
        state.counters["candidates_per_boid"] = looked_at / double(n);
    state.counters["ns_per_boid"] = benchmark::Counter(
        double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The standard scene's flock across the corner of a torus `widen` times its side
// (too large to tile with cells of the radius, a few per boid): a uniform grid's cells
// then cover the flock, a hashed grid's tile the torus at the radius in hashed buckets.
template <class V>
void bm_neighbors_wide(benchmark::State& state, bool hashed) {
    auto world = standard_scene<V>(static_cast<std::size_t>(state.range(0))).world;
    const double widen = static_cast<double>(state.range(1));
    for (auto& side : world.size) side = static_cast<boids::scalar_t<V>>(side * widen);
    const auto radius = standard_scene<V>(static_cast<std::size_t>(state.range(0))).view_radius;
    if (hashed) {
        boids::hashed_grid<V> f(world, radius);
        run_neighbors<V>(state, f, false, false, widen);
    } else {
        boids::uniform_grid<V> f(world, radius);
        run_neighbors<V>(state, f, false, false, widen);
    }
}

template <class V>
void bm_neighbors_by_cell(benchmark::State& state, bool topological) {
    const auto cfg = standard_scene<V>(static_cast<std::size_t>(state.range(0)));
    boids::uniform_grid<V> f(cfg.world, cfg.view_radius);
    run_neighbors<V>(state, f, topological, true);
}

template <class V>
void bm_neighbors(benchmark::State& state, bool topological, finder_kind kind) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto cfg = standard_scene<V>(n);
    if (kind == all_pairs_k) {
        boids::all_pairs<V> f(cfg.world);
        run_neighbors<V>(state, f, topological);
    } else {
        boids::uniform_grid<V> f(cfg.world, cfg.view_radius);
        run_neighbors<V>(state, f, topological);
    }
}

template <class V>
// cell_ordered: the caller keeps its arrays in the grid's cell order (apply_order,
// cell_order.hpp), here every 10 steps inside the timing, from a start in cell order.
// settle_steps: the scene is first stepped this many times, untimed, so that it has
// flocked (denser groups, many boids with more neighbours than max_neighbors).
// stray >= 0: the scene in an open world, boid 0 moved `stray` away on every axis (0: none).
// flocks > 1 (with stray >= 0): the boids split into that many flocks of the scene's
// density, each at a random spot (seeded) of a map `apart` wide.
void bm_step(benchmark::State& state, finder_kind kind, bool lesson, double view_angle = 360, bool topological = false,
             bool cell_ordered = false, int settle_steps = 0, double stray = -1, std::size_t flocks = 1,
             double apart = 0) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto threads = static_cast<std::size_t>(state.range(1));
    auto cfg = lesson ? boids::flock_config<V>{} : standard_scene<V>(n);
    double dt = 0.1;
    if constexpr (boids::dimension_v<V> == 2) {
        if (lesson) {
            cfg = boids::lesson::config<V>();
            dt = boids::lesson::dt;
        }
    }
    cfg.view_angle = static_cast<boids::scalar_t<V>>(view_angle);
    if (topological) {
        cfg.neighbors = boids::neighborhood_kind::topological;
        cfg.k = 7;
    }
    std::vector<V> p, v, scratch;
    scatter(n, cfg, p, v);
    if (stray >= 0) {
        cfg.world = boids::world_for<V>::unbounded();
        if (stray > 0) p[0] = boids::generate<V>([&](std::size_t) { return static_cast<boids::scalar_t<V>>(stray); });
        const double shrink = 1.0 / std::sqrt(static_cast<double>(flocks));  // each flock at the scene's density
        boids::random_stream spots(99);
        std::vector<double> at(flocks * 3);
        for (auto& x : at) x = spots.uniform(0, apart);
        for (std::size_t i = 0; flocks > 1 && i < n; ++i) {
            const std::size_t f = i * flocks / n;  // the scatter is uniform: each flock a square of the scene's density
            p[i] = boids::generate<V>([&](std::size_t d) {
                return static_cast<boids::scalar_t<V>>(boids::get(p[i], d) * shrink + at[f * 3 + d]);
            });
        }
    }
    if (settle_steps > 0) {
        boids::uniform_grid<V> g(cfg.world, cfg.view_radius);
        boids::flock_workspace<V> w;
        for (int k = 0; k < settle_steps; ++k)
            boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, g, w, boids::scalar_t<V>(dt));
    }
    if (cell_ordered) {
        boids::uniform_grid<V> g(cfg.world, cfg.view_radius);
        g.build(boids::span<const V>(p));
        boids::apply_order(g.order(), p, scratch);
        boids::apply_order(g.order(), v, scratch);
    }
    boids::flock_workspace<V> ws;
    const auto p0 = p, v0 = v;
    boids::thread_pool pool(threads);  // as an engine would: threads kept from step to step
    auto go = [&](auto& finder) {
        // The first step sizes the grid and the workspace (allocations, and the first
        // touch of their pages), which a running program pays once: untimed. At a
        // million boids a repetition times a single step, which was this one.
        boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, finder, ws, boids::scalar_t<V>(dt), pool);
        p = p0;
        v = v0;
        std::size_t since_reset = 0;
        for (auto _ : state) {
            // The scene starts uniform; left running it clumps (cohesion), which would
            // measure another density. Restart it every 10 steps, outside the timing.
            if (++since_reset == 10) {
                state.PauseTiming();
                p = p0;
                v = v0;
                since_reset = 0;
                state.ResumeTiming();
            }
            boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, finder, ws, boids::scalar_t<V>(dt), pool);
            if constexpr (std::is_same_v<std::remove_reference_t<decltype(finder)>, boids::uniform_grid<V>>) {
                if (cell_ordered && since_reset == 5) {  // once in ten steps, timed
                    boids::apply_order(finder.order(), p, scratch);
                    boids::apply_order(finder.order(), v, scratch);
                }
            }
        }
    };
    // The scene, whatever the thread count (the counters' cache key, per finder type).
    const std::string scene = std::to_string(lesson) + "/" + std::to_string(view_angle) + "/" +
                              std::to_string(topological) + "/" + std::to_string(cell_ordered) + "/" +
                              std::to_string(settle_steps) + "/" + std::to_string(n) + "/" + std::to_string(stray) +
                              "/" + std::to_string(flocks) + "/" + std::to_string(apart);
    if (kind == all_pairs_k) {
        boids::all_pairs<V> f(cfg.world);
        go(f);
        step_counters(state, scene, f, cfg, p0, v0);
    } else if (kind == grid_k) {
        boids::uniform_grid<V> f(cfg.world, cfg.view_radius);
        go(f);
        step_counters(state, scene, f, cfg, p0, v0);
    } else if (kind == hashed_k) {
        boids::hashed_grid<V> f(cfg.world, cfg.view_radius);
        go(f);
        step_counters(state, scene, f, cfg, p0, v0);
    } else {
        boids::auto_finder<V> f(cfg.world, cfg.view_radius);
        go(f);
        f.with_chosen(n, [&](auto& chosen) { step_counters(state, scene, chosen, cfg, p0, v0); });
    }
    state.SetComplexityN(state.range(0));
    state.counters["ns_per_boid"] = benchmark::Counter(
        double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The first step of N lesson boids spawned on one spot (jitter 0) or within `jitter` px
// of it, headings seeded: every repetition starts again from the spawn. `beside` 1:
// every other boid spread over the world instead (a spawn beside a flock).
void bm_spawn_step(benchmark::State& state, bool topological, bool second = false) {
    using V = f2;
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto jitter = static_cast<float>(state.range(1));
    const bool beside = state.range(2) != 0;
    auto cfg = boids::lesson::config<V>();
    if (topological) cfg.neighbors = boids::neighborhood_kind::topological;
    if (second) cfg.max_neighbors = static_cast<std::size_t>(state.range(3));
    boids::random_stream rng(5);
    std::vector<V> p0(n), v0(n);
    for (std::size_t i = 0; i < n; ++i) {
        const V u = boids::unit_direction<V>(rng.next());
        const auto r = static_cast<float>(rng.uniform(0, 1)) * jitter;
        p0[i] = {400.0f + r * u.x, 225.0f + r * u.y};
        if (beside && i % 2 == 1) p0[i] = {float(rng.uniform(0, 800)), float(rng.uniform(0, 450))};
        v0[i] = second ? V{0.0f, 0.0f} : boids::scale(boids::unit_direction<V>(rng.next()), 100.0f);
    }
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    if (second)
        boids::flock_step(boids::span<V>(p0), boids::span<V>(v0), cfg, grid, ws, boids::scalar_t<V>(boids::lesson::dt));
    std::vector<V> p = p0, v = v0;
    boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, boids::scalar_t<V>(boids::lesson::dt));
    for (auto _ : state) {
        state.PauseTiming();
        p = p0;
        v = v0;
        state.ResumeTiming();
        boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, boids::scalar_t<V>(boids::lesson::dt));
    }
    state.counters["off_kernel"] = static_cast<double>(ws.report.boids_off_kernel);
}

// Steps the flock `after` times over the grid, then times the step from there (the
// state put back before each).
template <class V>
void time_step_after(benchmark::State& state, const boids::flock_config<V>& cfg, std::vector<V> p0, std::vector<V> v0,
                     boids::scalar_t<V> dt, long after) {
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    for (long step = 0; step < after; ++step)
        boids::flock_step(boids::span<V>(p0), boids::span<V>(v0), cfg, grid, ws, dt);
    std::vector<V> p = p0, v = v0;
    for (auto _ : state) {
        state.PauseTiming();
        p = p0;
        v = v0;
        state.ResumeTiming();
        boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, dt);
    }
    state.counters["off_kernel"] = static_cast<double>(ws.report.boids_off_kernel);
    state.counters["cell_size"] = static_cast<double>(grid.cell_size());
}

// N lesson boids spawned on one spot, `after` steps on, the step from there. Headings
// seeded (golden 0): the spawn spreads out on a ring about one boid thick, packed tens
// of boids to a pixel of its length, and a few denser clumps; or spaced by the golden
// angle (golden 1): a disc whose rings of boids pack tens to a square pixel, with
// sparse gaps between them (cells sized for the rings hold too few around a boid in
// a gap).
void bm_spawn_spread(benchmark::State& state) {
    using V = f2;
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto cfg = boids::lesson::config<V>();
    const auto dt = boids::scalar_t<V>(boids::lesson::dt);
    boids::random_stream rng(5);
    std::vector<V> p0(n, V{400.0f, 225.0f}), v0(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float golden = 2.39996323f * static_cast<float>(i);
        v0[i] = state.range(2) != 0 ? V{100.0f * std::cos(golden), 100.0f * std::sin(golden)}
                                    : boids::scale(boids::unit_direction<V>(rng.next()), 100.0f);
    }
    time_step_after(state, cfg, std::move(p0), std::move(v0), dt, state.range(1));
}

// A 3D spawn (see the header): the flock is a shell within a view radius of the spot
// for its first steps, packed hundreds to a cubic unit.
void bm_spawn3d_spread(benchmark::State& state) {
    using V = f3;
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto beside = static_cast<std::size_t>(state.range(2));
    boids::flock_config<V> cfg;
    cfg.view_radius = 20;
    cfg.view_angle = 270;
    cfg.max_neighbors = 7;
    cfg.limits = {6.0f, 10.0f, 0.25f, 2.0f};  // max speed, force, reaction time, min speed
    cfg.separate.radius = 2;
    boids::random_stream rng(7);
    std::vector<V> p0(n, V{0, 0, 0}), v0(n);
    for (auto& v : v0) v = boids::scale(boids::exact_unit_direction<V>(rng.next()), 3.0f);
    for (std::size_t i = 0; i < beside && i < n; ++i)
        p0[n - 1 - i] = V{rng.uniform(-100.0f, 100.0f), rng.uniform(-100.0f, 100.0f), rng.uniform(-100.0f, 100.0f)};
    const float dt = 1.0f / 30;
    time_step_after(state, cfg, std::move(p0), std::move(v0), dt, state.range(1));
}

// The metric step's kernel alone (flock/detail/kernel.hpp): one boid's sums over a
// block of `size` candidates uniform in the cube of side 3 radii around it, as a
// cell's block of the standard scene holds (43 in 2D, 97 in 3D); hot in the cache.
// What the kernel costs without the step around it: ns per call and per pack of eight.
template <std::size_t D>
void bm_kernel(benchmark::State& state) {
    using S = float;
    const auto size = static_cast<std::size_t>(state.range(0));
    const S radius = D == 3 ? S(std::cbrt(45.0 / (4.0 * M_PI))) : S(std::sqrt(15.0 / M_PI));
    constexpr std::size_t lanes = boids::detail::block_lanes<S>;
    std::vector<S> store(3 * D * (size + lanes), S(0));
    boids::detail::candidate_block<S, D> block;
    for (std::size_t d = 0; d < D; ++d) {
        block.pos[d] = store.data() + d * (size + lanes);
        block.vel[d] = store.data() + (D + d) * (size + lanes);
        block.shift[d] = store.data() + (2 * D + d) * (size + lanes);
    }
    block.size = size;
    block.capacity = size;
    boids::random_stream rng{7};
    for (std::size_t k = 0; k < size + lanes; ++k)
        for (std::size_t d = 0; d < D; ++d) {
            block.pos[d][k] =
                k < size ? S(10) + S(3) * radius * S(rng.uniform(-0.5, 0.5)) : boids::detail::block_sentinel<S>;
            block.vel[d][k] = S(rng.uniform(-0.5, 0.5));
        }
    boids::detail::kernel_query<S, D> q{};
    for (std::size_t d = 0; d < D; ++d) {
        q.p[d] = S(10);
        q.size[d] = S(100);
        q.half[d] = S(50);
    }
    q.r2 = radius * radius;
    q.sep_radius = radius / 2;
    q.sep_r2 = q.sep_radius * q.sep_radius;
    const bool avx = boids::detail::avx_at_run_time();
    boids::detail::neighborhood_sums<S, D> sums;
    std::size_t found = 0;
    for (auto _ : state) {
        boids::detail::block_sums<boids::detail::wrap_mode::none, false, false>(avx, q, block, sums);
        found += sums.count;
        benchmark::DoNotOptimize(sums);
    }
    state.counters["neighbors"] = double(found) / double(state.iterations());
    state.counters["ns_per_pack"] =
        benchmark::Counter(double((size + lanes - 1) / lanes) * 1e-9,
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

const std::vector<long> sizes{100, 300, 500, 1000, 2000, 10000, 100000};

void register_all() {
    benchmark::RegisterBenchmark("kernel/2d", bm_kernel<2>)->Arg(8)->Arg(43);
    benchmark::RegisterBenchmark("kernel/3d", bm_kernel<3>)->Arg(8)->Arg(97);
    for (bool topo : {false, true})
        for (int d : {2, 3})
            for (finder_kind k : {all_pairs_k, grid_k}) {
                const std::string name = std::string("neighbors/") + (topo ? "topological" : "metric") + "/" +
                                         (d == 2 ? "2d" : "3d") + "/" + (k == all_pairs_k ? "all_pairs" : "grid");
                auto* b = d == 2 ? benchmark::RegisterBenchmark(
                                       name.c_str(), [=](benchmark::State& s) { bm_neighbors<f2>(s, topo, k); })
                                 : benchmark::RegisterBenchmark(
                                       name.c_str(), [=](benchmark::State& s) { bm_neighbors<f3>(s, topo, k); });
                for (long n : sizes)
                    if (k == grid_k || n <= 10000) b->Arg(n);
                b->Complexity(k == all_pairs_k ? benchmark::oNSquared : benchmark::oN)->Unit(benchmark::kMicrosecond);
            }
    for (bool hashed : {false, true}) {
        const std::string name = std::string("neighbors/metric/2d/") + (hashed ? "hashed" : "grid") + "_torus_patch";
        auto* b =
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) { bm_neighbors_wide<f2>(s, hashed); });
        for (long widen : {1L, 20L}) b->Args({10000, widen});
        b->ArgNames({"", "widen"})->Unit(benchmark::kMicrosecond);
    }
    for (bool topo : {false, true})
        for (int d : {2, 3}) {
            const std::string name = std::string("neighbors/") + (topo ? "topological" : "metric") + "/" +
                                     (d == 2 ? "2d" : "3d") + "/grid_cell_order";
            auto* b = d == 2 ? benchmark::RegisterBenchmark(
                                   name.c_str(), [=](benchmark::State& s) { bm_neighbors_by_cell<f2>(s, topo); })
                             : benchmark::RegisterBenchmark(
                                   name.c_str(), [=](benchmark::State& s) { bm_neighbors_by_cell<f3>(s, topo); });
            for (long n : {10000L, 100000L}) b->Arg(n);
            b->Unit(benchmark::kMicrosecond);
        }
    {
        auto* cone = benchmark::RegisterBenchmark("step/standard2d_cone270/grid",
                                                  [](benchmark::State& s) { bm_step<f2>(s, grid_k, false, 270); });
        for (long n : {10000L, 100000L}) cone->Args({n, 1});
        cone->ArgNames({"", "threads"})->Unit(benchmark::kMicrosecond)->UseRealTime();
        // The same scene with the 7 nearest (within the view radius) as neighbours.
        auto* topo2 = benchmark::RegisterBenchmark(
            "step/standard2d_topological7/grid", [](benchmark::State& s) { bm_step<f2>(s, grid_k, false, 360, true); });
        auto* topo3 = benchmark::RegisterBenchmark(
            "step/standard3d_topological7/grid", [](benchmark::State& s) { bm_step<f3>(s, grid_k, false, 360, true); });
        for (auto* b : {topo2, topo3}) {
            for (long n : {10000L, 100000L}) b->Args({n, 1});
            b->ArgNames({"", "threads"})->Unit(benchmark::kMicrosecond)->UseRealTime();
        }
        // The standard 2D scene after 1,000 steps (100 s) of flocking: groups several
        // times denser than the start, where many boids heed only their 64 nearest.
        auto* settled = benchmark::RegisterBenchmark("step/standard2d_settled/grid", [](benchmark::State& s) {
            bm_step<f2>(s, grid_k, false, 360, false, false, 1000);
        });
        for (long t : {1L, 2L}) settled->Args({10000, t});
        settled->ArgNames({"", "threads"})->Unit(benchmark::kMicrosecond)->UseRealTime();
        // The standard 2D scene in an open world, one boid `far` away: cells over the
        // flock, the stray in an edge cell (far:0, none).
        auto* stray = benchmark::RegisterBenchmark("step/standard2d_open_stray/grid", [](benchmark::State& s) {
            bm_step<f2>(s, grid_k, false, 360, false, false, 0, static_cast<double>(s.range(2)));
        });
        for (long far : {0L, 1000L, 100000L}) stray->Args({10000, 1, far});
        stray->ArgNames({"", "threads", "far"})->Unit(benchmark::kMicrosecond)->UseRealTime();
        // The same boids as F flocks of the scene's density at random spots of an open
        // map M wide (a game's flocks over its world, stepped together); the hashed grid
        // beside it, on its per-boid path.
        for (finder_kind k : {grid_k, hashed_k}) {
            const std::string name = std::string("step/standard2d_open_flocks/") + (k == grid_k ? "grid" : "hashed");
            auto* flocks = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) {
                bm_step<f2>(s, k, false, 360, false, false, 0, 0.0, static_cast<std::size_t>(s.range(2)),
                            static_cast<double>(s.range(3)));
            });
            for (long f : {1L, 8L, 16L, 32L})
                if (k == grid_k || f == 8) flocks->Args({10000, 1, f, 50000});
            flocks->ArgNames({"", "threads", "flocks", "map"})->Unit(benchmark::kMicrosecond)->UseRealTime();
        }
        // The standard scenes with the caller's arrays kept in cell order.
        auto* ord2 = benchmark::RegisterBenchmark("step/standard2d_cell_ordered/grid", [](benchmark::State& s) {
            bm_step<f2>(s, grid_k, false, 360, false, true);
        });
        auto* ord3 = benchmark::RegisterBenchmark("step/standard3d_cell_ordered/grid", [](benchmark::State& s) {
            bm_step<f3>(s, grid_k, false, 360, false, true);
        });
        for (auto* b : {ord2, ord3}) {
            for (long n : {10000L, 100000L, 1000000L})
                for (long t : {1L, 2L}) b->Args({n, t});
            b->ArgNames({"", "threads"})->Unit(benchmark::kMicrosecond)->UseRealTime();
        }
    }
    // Boids spawned on one spot: the first step (a neighbour on the very spot takes the
    // per-boid path's seeded push, pair by pair).
    auto* spawn =
        benchmark::RegisterBenchmark("step/lesson_spawn/grid", [](benchmark::State& s) { bm_spawn_step(s, false); });
    for (long n : {1000L, 5000L})
        for (long jitter : {0L, 1L}) spawn->Args({n, jitter, 0});
    spawn->Args({20000, 1, 1});
    spawn->Args({20000, 0, 1});
    spawn->ArgNames({"", "jitter", "beside"})->Unit(benchmark::kMillisecond)->UseRealTime();
    // The step after, from rest: a spawn on one spot has moved out onto a ring a step
    // wide, where boids share spots and tie in distance after rounding.
    auto* after = benchmark::RegisterBenchmark("step/lesson_spawn_second/grid",
                                               [](benchmark::State& s) { bm_spawn_step(s, false, true); });
    for (long cap : {7L, 256L}) after->Args({20000, 0, 0, cap})->Args({20000, 0, 1, cap});
    after->ArgNames({"", "jitter", "beside", "cap"})->Unit(benchmark::kMillisecond)->UseRealTime();
    auto* spread = benchmark::RegisterBenchmark("step/lesson_spawn_spread/grid", bm_spawn_spread);
    for (long golden : {0L, 1L})
        spread->Args({20000, 100, golden})->Args({50000, 100, golden})->Args({50000, 300, golden});
    spread->ArgNames({"", "after", "golden"})->Unit(benchmark::kMillisecond)->UseRealTime();
    auto* spread3d = benchmark::RegisterBenchmark("step/spawn3d_spread/grid", bm_spawn3d_spread);
    for (long after : {10L, 30L, 60L}) spread3d->Args({30000, after, 0});
    spread3d->Args({30000, 30, 300});
    spread3d->ArgNames({"", "after", "beside"})->Unit(benchmark::kMillisecond)->UseRealTime();
    auto* spawn7 = benchmark::RegisterBenchmark("step/lesson_spawn_topological7/grid",
                                                [](benchmark::State& s) { bm_spawn_step(s, true); });
    for (long n : {5000L, 20000L})
        for (long jitter : {0L, 1L}) spawn7->Args({n, jitter, 0});
    spawn7->Args({20000, 1, 1});
    spawn7->ArgNames({"", "jitter", "beside"})->Unit(benchmark::kMillisecond)->UseRealTime();
    for (auto variant : {open_variant::blend, open_variant::custom, open_variant::entities}) {
        const char* name = variant == open_variant::blend    ? "step/standard2d_blend/grid"
                           : variant == open_variant::custom ? "step/standard2d_custom/grid"
                                                             : "step/standard2d_entities/grid";
        auto* b = benchmark::RegisterBenchmark(name, [=](benchmark::State& s) { bm_open_step(s, variant); });
        for (long n : {10000L, 100000L}) {
            if (variant == open_variant::entities && n > 10000) continue;
            b->Args({n, 1});
        }
        b->ArgNames({"", "threads"})->Unit(benchmark::kMicrosecond)->UseRealTime();
    }
    for (finder_kind k : {all_pairs_k, grid_k, auto_k}) {
        const std::string fk = k == all_pairs_k ? "all_pairs" : (k == grid_k ? "grid" : "auto");
        auto* lesson = benchmark::RegisterBenchmark(("step/lesson/" + fk).c_str(),
                                                    [=](benchmark::State& s) { bm_step<lab::vec2>(s, k, true); });
        for (long n : {10, 20, 30, 40, 50, 60, 100, 200, 300, 500}) lesson->Args({n, 1});
        lesson->Unit(benchmark::kMicrosecond)->UseRealTime();
        if (k == auto_k) continue;
        for (int d : {2, 3}) {
            const std::string name = std::string("step/standard") + (d == 2 ? "2d" : "3d") + "/" + fk;
            auto* b = d == 2 ? benchmark::RegisterBenchmark(name.c_str(),
                                                            [=](benchmark::State& s) { bm_step<f2>(s, k, false); })
                             : benchmark::RegisterBenchmark(name.c_str(),
                                                            [=](benchmark::State& s) { bm_step<f3>(s, k, false); });
            for (long n : {100L, 500L, 10000L, 100000L, 1000000L})
                for (long t : {1L, 2L})
                    if ((k == grid_k || n <= 10000) && (t == 1 || n >= 10000)) b->Args({n, t});
            b->ArgNames({"", "threads"})->Unit(benchmark::kMicrosecond)->UseRealTime();
        }
    }
}

// The starling model (issue 8): one whole step of the 3D scene, and, when
// nanoflann is installed, what nanoflann needs for the same perception: build its
// k-d tree and find the 24 nearest of every bird (same cloud, same run).
void starling_cloud_after(std::size_t n, double seconds, std::vector<lab::fvec3>& p, std::vector<lab::fvec3>& v,
                          boids::starling::flock<lab::fvec3>& f, std::size_t every) {
    boids::starling::params<float> m;
    m.perception_every = every;
    boids::starling::starting_cloud(1, n, m, p, v);
    f.reset(m, n);
    const auto steps = static_cast<std::size_t>(seconds * 30);
    for (std::size_t s = 0; s < steps; ++s) f.step(boids::span<lab::fvec3>(p), boids::span<lab::fvec3>(v));
}

void bm_starling_step(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto threads = static_cast<std::size_t>(state.range(1));
    const auto every = static_cast<std::size_t>(state.range(2));
    std::vector<lab::fvec3> p, v;
    boids::starling::flock<lab::fvec3> f;
    starling_cloud_after(n, 1.0, p, v, f, every);  // a second of flight: the grid's cells have adapted
    boids::thread_pool pool(threads);
    for (auto _ : state) f.step(boids::span<lab::fvec3>(p), boids::span<lab::fvec3>(v), pool);
    state.counters["ns_per_bird"] = benchmark::Counter(
        double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

#if __has_include(<nanoflann.hpp>)
struct cloud_adaptor {
    const std::vector<lab::fvec3>* p;
    std::size_t kdtree_get_point_count() const { return p->size(); }
    float kdtree_get_pt(std::size_t i, std::size_t d) const {
        return d == 0 ? (*p)[i].x : (d == 1 ? (*p)[i].y : (*p)[i].z);
    }
    template <class B>
    bool kdtree_get_bbox(B&) const {
        return false;
    }
};

void bm_nanoflann_perception(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    std::vector<lab::fvec3> p, v;
    boids::starling::flock<lab::fvec3> f;
    starling_cloud_after(n, 1.0, p, v, f, 1);
    cloud_adaptor a{&p};
    using tree_t =
        nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<float, cloud_adaptor>, cloud_adaptor, 3>;
    std::vector<unsigned> idx(25);
    std::vector<float> d2(25);
    for (auto _ : state) {
        tree_t tree(3, a, nanoflann::KDTreeSingleIndexAdaptorParams(10));
        tree.buildIndex();
        std::size_t total = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const float q[3] = {p[i].x, p[i].y, p[i].z};
            total += tree.knnSearch(q, 25, idx.data(), d2.data());  // itself and its 24 nearest
        }
        benchmark::DoNotOptimize(total);
    }
    state.counters["ns_per_bird"] = benchmark::Counter(
        double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
#endif

// RVO2's Circle through boids-lab's scene: one iteration is a whole run (until every
// agent is home; at 10,000 agents the first 2,000 steps), timed by the step alone.
void bm_crowd_circle(benchmark::State& state) {
    lab::crowd_options o;
    o.agents = static_cast<unsigned long long>(state.range(0));
    o.threads = static_cast<unsigned long long>(state.range(1));
    o.max_steps = o.agents >= 10000 ? 2000 : 100000;
    lab::crowd_result r;
    for (auto _ : state) {
        r = lab::run_crowd(o);
        state.SetIterationTime(r.ms_per_step * static_cast<double>(r.steps) * 1e-3);
    }
    state.counters["ms_per_step"] = r.ms_per_step;
    state.counters["steps"] = static_cast<double>(r.steps);
    state.counters["overlaps"] = static_cast<double>(r.overlaps);
    state.counters["arrived"] = static_cast<double>(r.arrived);
}

void register_starlings() {
    auto* c = benchmark::RegisterBenchmark("crowd/circle", bm_crowd_circle);
    for (long n : {250L, 1000L, 10000L})
        for (long t : {1L, 2L}) c->Args({n, t});
    c->ArgNames({"", "threads"})->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

    auto* s = benchmark::RegisterBenchmark("starlings/step", bm_starling_step);
    for (long n : {3000L, 10000L, 100000L}) s->Args({n, 1, 1});
    s->Args({100000, 2, 1});  // two threads against the one above
    s->Args({100000, 2, 2});  // the source's mode for 100,000 birds, perception every 2 steps, on 2 cores
    s->ArgNames({"", "threads", "every"})->Unit(benchmark::kMillisecond)->UseRealTime();
#if __has_include(<nanoflann.hpp>)
    auto* k = benchmark::RegisterBenchmark("starlings/nanoflann_build_and_24_nearest", bm_nanoflann_perception);
    for (long n : {3000L, 10000L, 100000L}) k->Arg(n);
    k->Unit(benchmark::kMillisecond);
#endif
}

}  // namespace

int main(int argc, char** argv) {
    register_starlings();
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

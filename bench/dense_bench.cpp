// boids-bench's packed flocks: the step where every boid sees hundreds of others.
//   step/dense2d/grid/5000/patch:P/cone:C/cap:K      5,000 lesson boids (radius 60 px)
//        uniform in a P x P px square of a 2000 x 2000 px torus, one thread;
//        cone C degrees (360: none); the nearest K count (0: no cap); the 200 px
//        patch also on two threads (.../threads:2); the 100 px patch lies within
//        a view radius of every boid
//   step/dense2d_own_loop/grid/...                   the same step as a plain loop of
//        one's own over a grid of cells the radius wide: for_each_within with the
//        cone, std::nth_element to the nearest K, the rules, the move
//   step/dense3d/grid/20000/ball:R/cone:C/cap:K      20,000 boids in a ball of R view
//        radii (radius 1) in an open world (the grid covers the flock); and
//        dense3d_own_loop
//   step/box3d/grid/20000/ball:6/WORLD/side:S/cap:16 the ball of 6 radii in the corner
//        of a bounded or toroidal box S radii across (200, 2000), or (toroidal_seams)
//        across the torus's seams, centred on its corner
//   neighbors/knn3d/grid/20000/ball:R/k:K            the k nearest of every boid
//        (nearest_in_slots), the grid's cell the radius or the grid's own pick (K 64,
//        65 and 256: the ball of 6 and the grid's pick only)
// Counters: neighbors_per_boid (within the radius and the cone, before the cap),
// off_kernel (boids the step handed to its per-boid path), cell_per_radius (the
// cell size the grid picked, in view radii).
#include <benchmark/benchmark.h>
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>
#include <boids/boids.hpp>
#include "standard_scene.hpp"

namespace {

struct dense_scene {
    bool three = false;
    double extent = 800;  // 2D: the square's side, px; 3D: the ball's radius, in view radii
    double cone = 360;
    std::size_t cap = 0;  // 0: no cap
    // 3D: the world, a box of this side (0: open) whose corner holds the ball; a
    // torus's ball may sit across its seams instead, centred on the corner.
    boids::edges edges = boids::edges::open;
    double side = 0;
    bool across_seams = false;
};

template <class V>
boids::flock_config<V> dense_config(const dense_scene& sc) {
    using S = boids::scalar_t<V>;
    boids::flock_config<V> c;
    if constexpr (boids::dimension_v<V> == 2) {
        c = boids::lesson::config<V>();
        c.world = boids::world_for<V>::box(boids::edges::toroidal, {S(2000), S(2000)});
    } else {
        c.limits = {S(2), S(5), S(0.5), S(0.5)};
        c.view_radius = S(1);
        c.separate = {S(0.5), boids::separation_falloff::linear, S(10)};
        c.align = {boids::social_form::linear, S(1)};
        c.cohere = {boids::social_form::linear, S(0.3)};
        if (sc.side > 0) c.world = boids::world_for<V>::box(sc.edges, {S(sc.side), S(sc.side), S(sc.side)});
    }
    c.view_angle = S(sc.cone);
    c.max_neighbors = sc.cap == 0 ? boids::no_cap : sc.cap;
    return c;
}

template <class V>
void dense_flock(const dense_scene& sc, std::size_t n, std::vector<V>& p, std::vector<V>& v) {
    using S = boids::scalar_t<V>;
    constexpr bool three = boids::dimension_v<V> == 3;
    boids::random_stream rng(2024);
    p.resize(n);
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        V x;
        do {
            x = boids::generate<V>([&](std::size_t) { return S(rng.uniform(-1.0, 1.0)); });
        } while (three && boids::dot(x, x) > S(1));
        p[i] = boids::generate<V>([&](std::size_t d) {
            if (sc.across_seams) return boids::world_for<V>::wrap_scalar(S(sc.extent) * boids::get(x, d), S(sc.side));
            return three ? S(100) + S(sc.extent) * boids::get(x, d)
                         : S(10) + S(sc.extent * 0.5) * (boids::get(x, d) + 1);
        });
        const double speed = three ? rng.uniform(2.0, 5.0) : rng.uniform(60.0, 160.0);
        v[i] = boids::scale(boids::unit_direction<V>(rng.next()), S(speed));
    }
}

// Neighbours within the radius and the cone, per boid, before the cap (untimed).
template <class V>
double neighbours_per_boid(const boids::flock_config<V>& cfg, const std::vector<V>& p, const std::vector<V>& v) {
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    grid.build(boids::span<const V>(p));
    std::size_t total = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const auto cone = boids::vision_cone<S, D>::from(v[i], cfg.view_angle);
        grid.for_each_within(i, cfg.view_radius, cone, [&](const boids::neighbor<S, D>&) { ++total; });
    }
    return double(total) / double(p.size());
}

// One's own loop over the library's grid: the neighbours of each boid into a vector,
// the nearest `cap` by std::nth_element, the rules, then every boid moves.
template <class V>
struct own_loop {
    using S = boids::scalar_t<V>;
    static constexpr std::size_t D = boids::dimension_v<V>;
    boids::flock_config<V> cfg;
    boids::uniform_grid<V> grid;
    std::vector<boids::neighbor<S, D>> found;
    std::vector<V> accel;
    explicit own_loop(const boids::flock_config<V>& c) : cfg(c), grid(c.world, c.view_radius) {
        grid.set_cell_size(c.view_radius);
    }
    void step(std::vector<V>& p, std::vector<V>& v, S dt) {
        const std::size_t n = p.size();
        grid.build(boids::span<const V>(p));
        accel.resize(n);
        const auto rules = boids::flock_rules<V>(cfg);
        const std::size_t cap = cfg.neighbor_cap();
        for (std::size_t i = 0; i < n; ++i) {
            found.clear();
            const auto cone = boids::vision_cone<S, D>::from(v[i], cfg.view_angle);
            grid.for_each_within(i, cfg.view_radius, cone,
                                 [&](const boids::neighbor<S, D>& nb) { found.push_back(nb); });
            if (found.size() > cap) {
                std::nth_element(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(cap), found.end(),
                                 [](const auto& a, const auto& b) { return a.distance_squared < b.distance_squared; });
                found.resize(cap);
            }
            const boids::neighborhood<V> nbrs(found.data(), found.size());
            accel[i] = rules(boids::boid_view<V>{i, p[i], v[i]},
                             boids::summarize(i, boids::span<const V>(v), nbrs, cfg.separate));
        }
        for (std::size_t i = 0; i < n; ++i) {
            boids::integrate(p[i], v[i], accel[i], dt, cfg.limits);
            boids::confine(cfg.world, p[i], v[i]);
        }
    }
};

template <class V>
void bm_dense_step(benchmark::State& state, dense_scene sc, bool own, std::size_t threads = 1) {
    using S = boids::scalar_t<V>;
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto cfg = dense_config<V>(sc);
    std::vector<V> p, v;
    dense_flock(sc, n, p, v);
    const auto p0 = p, v0 = v;
    const S dt = S(1.0 / 60.0);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    own_loop<V> mine(cfg);
    boids::thread_pool pool(threads);
    auto step = [&] {
        if (own) mine.step(p, v, dt);
        else if (threads > 1) boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, dt, pool);
        else boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, dt);
    };
    step();  // sizes the buffers: untimed
    p = p0;
    v = v0;
    std::size_t since_reset = 0, off = 0;
    for (auto _ : state) {
        if (++since_reset == 10) {  // keep the density the scene names
            state.PauseTiming();
            p = p0;
            v = v0;
            since_reset = 0;
            state.ResumeTiming();
        }
        step();
        off = std::max(off, ws.report.boids_off_kernel);
    }
    state.counters["neighbors_per_boid"] = neighbours_per_boid(cfg, p0, v0);
    if (!own) {
        state.counters["off_kernel"] = double(off);
        state.counters["cell_per_radius"] = double(grid.cell_size() / cfg.view_radius);
    }
}

// The k nearest of every boid of the 3D ball, as the topological step finds them.
void bm_knn3d(benchmark::State& state, double ball, std::size_t k, bool own_cell) {
    using V = f3;
    using S = float;
    const auto n = static_cast<std::size_t>(state.range(0));
    dense_scene sc{true, ball, 360, k};
    const auto cfg = dense_config<V>(sc);
    std::vector<V> p, v;
    dense_flock(sc, n, p, v);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    if (own_cell) {  // the grid's pick for a query of the k nearest within the radius
        grid.serve_queries(cfg.view_radius, k, S(1), false);
        grid.build(boids::span<const V>(p), boids::sequential{}, 1);
        grid.set_cell_size(grid.cell_size());
    }
    std::vector<boids::neighbor<S, 3>> buf(k);
    boids::k_nearest<S, 3> knn(boids::span<boids::neighbor<S, 3>>(buf), k);
    std::size_t total = 0;
    for (auto _ : state) {
        grid.build(boids::span<const V>(p));
        grid.nearest_in_slots(0, n, knn, cfg.view_radius,
                              [&](std::size_t, const boids::k_nearest<S, 3>& found) { total += found.size(); });
        benchmark::DoNotOptimize(total);
    }
    state.counters["cell_per_radius"] = double(grid.cell_size() / cfg.view_radius);
    state.counters["ns_per_boid"] = benchmark::Counter(
        double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

std::string dense_name(const char* kind, std::size_t n, const char* extent_key, double extent, double cone,
                       std::size_t cap) {
    auto num = [](double x) {
        std::string s = std::to_string(x);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
    };
    return std::string("step/") + kind + "/grid/" + std::to_string(n) + "/" + extent_key + ":" + num(extent) +
           "/cone:" + num(cone) + "/cap:" + std::to_string(cap);
}

// The 2D and 3D scenes, each as flock_step and as one's own loop.
template <class V>
void register_dense(const char* kind, std::size_t n, const char* extent_key, std::initializer_list<double> extents,
                    double on_two_threads) {
    for (bool own : {false, true})
        for (double extent : extents)
            for (double cone : {270.0, 360.0})
                for (std::size_t cap : {std::size_t(7), std::size_t(16), std::size_t(256), std::size_t(0)}) {
                    const dense_scene sc{boids::dimension_v<V> == 3, extent, cone, cap};
                    const std::string k = std::string(kind) + (own ? "_own_loop" : "");
                    const auto name = dense_name(k.c_str(), n, extent_key, extent, cone, cap);
                    benchmark::RegisterBenchmark(name.c_str(),
                                                 [=](benchmark::State& s) { bm_dense_step<V>(s, sc, own); })
                        ->Arg(static_cast<long>(n))
                        ->Unit(benchmark::kMillisecond)
                        ->UseRealTime();
                }
    // One scene's step on two threads, beside its one-thread runs above.
    for (double cone : {270.0, 360.0})
        for (std::size_t cap : {std::size_t(7), std::size_t(0)}) {
            const dense_scene sc{boids::dimension_v<V> == 3, on_two_threads, cone, cap};
            const auto name = dense_name(kind, n, extent_key, on_two_threads, cone, cap) + "/threads:2";
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) { bm_dense_step<V>(s, sc, false, 2); })
                ->Arg(static_cast<long>(n))
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
}

const bool registered = [] {
    register_dense<f2>("dense2d", 5000, "patch", {800.0, 400.0, 200.0, 100.0}, 200.0);
    register_dense<f3>("dense3d", 20000, "ball", {6.0, 4.0, 3.0}, 3.0);
    // The ball of 6 radii in a box 200 radii across, in its corner, or 2,000 across.
    // Over a torus, also across its seams (centred on its corner).
    for (int world = 0; world < 3; ++world)
        for (double side : {200.0, 2000.0}) {
            dense_scene sc{true, 6.0, 360.0, 16};
            sc.edges = world == 0 ? boids::edges::bounded : boids::edges::toroidal;
            sc.side = side;
            sc.across_seams = world == 2;
            const std::string name = std::string("step/box3d/grid/20000/ball:6/") +
                                     (world == 0   ? "bounded"
                                      : world == 1 ? "toroidal"
                                                   : "toroidal_seams") +
                                     "/side:" + std::to_string(int(side)) + "/cap:16";
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) { bm_dense_step<f3>(s, sc, false); })
                ->Arg(20000)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
    for (double ball : {6.0, 4.0, 3.0})
        for (std::size_t k : {std::size_t(7), std::size_t(24), std::size_t(64), std::size_t(65), std::size_t(256)})
            for (bool own_cell : {false, true}) {
                if (k > 24 && (ball != 6.0 || !own_cell)) continue;  // large k: the grid's cells, one ball
                const std::string name = std::string("neighbors/knn3d/grid/20000/ball:") + std::to_string(int(ball)) +
                                         "/k:" + std::to_string(k) + (own_cell ? "/cell:picked" : "/cell:radius");
                benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) { bm_knn3d(s, ball, k, own_cell); })
                    ->Arg(20000)
                    ->Unit(benchmark::kMillisecond);
            }
    return true;
}();

}  // namespace

// Tests of boids/flock/step.hpp: the step's contract.
#include <algorithm>
#include <cmath>
#include <atomic>
#include "test_support.hpp"
#include "batched_topological.hpp"
#include "neighbor_check.hpp"
#include <cstring>
#include <limits>
#include <vector>
#include <boids/flock/step.hpp>
#include <boids/models/lesson.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/auto_finder.hpp>
#include <boids/neighbors/hashed_grid.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "plain_vectors.hpp"

namespace {
template <class V>
bool same_bits(const std::vector<V>& a, const std::vector<V>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(V)) == 0);
}

// A 3D toroidal flock of the physics model's shape (topological, linear rules).
boids::flock_config<test::dvec3> cube_config(double side) {
    boids::flock_config<test::dvec3> c;
    c.world = boids::world<double, 3>::box(boids::edges::toroidal, {side, side, side});
    c.limits = {2.0, 5.0, 0.5, 0.5};
    c.neighbors = boids::neighborhood_kind::topological;
    c.k = 7;
    c.view_radius = 3.0;
    c.separate = {1.0, boids::separation_falloff::linear, 10.0, 5};
    c.align = {boids::social_form::linear, 1.0};
    c.cohere = {boids::social_form::linear, 0.3};
    return c;
}

// The same flock stepped in the grid's order (the fused kernel where it applies) and
// by index (the exact general path): the largest difference after `steps` steps, in
// the positions or in the velocities.
template <class V>
double finder_against_index(const boids::flock_config<V>& cfg, const std::vector<V>& p0, const std::vector<V>& v0,
                            int steps, bool positions) {
    auto run = [&](boids::neighbor_order order) {
        auto c = cfg;
        c.order = order;
        auto p = p0, v = v0;
        boids::uniform_grid<V> grid(c.world, c.view_radius);
        boids::flock_workspace<V> ws;
        for (int s = 0; s < steps; ++s) boids::flock_step(boids::span<V>(p), boids::span<V>(v), c, grid, ws, 1.0 / 60);
        return positions ? p : v;
    };
    const auto fast = run(boids::neighbor_order::finder);
    const auto exact = run(boids::neighbor_order::by_index);
    double worst = 0;
    for (std::size_t i = 0; i < fast.size(); ++i)
        for (std::size_t d = 0; d < boids::dimension_v<V>; ++d)
            worst = std::max(worst, std::fabs(boids::get(fast[i], d) - boids::get(exact[i], d)));
    return worst;
}

// The flock from (p0, v0) after `steps` steps of dt 0.1 over a fresh uniform grid and
// workspace, on `executor`: what the thread tests compare across executors.
template <class V, class Executor>
std::pair<std::vector<V>, std::vector<V>> grid_steps(const boids::flock_config<V>& cfg, const std::vector<V>& p0,
                                                     const std::vector<V>& v0, int steps, Executor&& executor) {
    auto p = p0, v = v0;
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    for (int s = 0; s < steps; ++s)
        boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, 0.1, executor);
    return std::make_pair(p, v);
}

// Whether `steps` steps on one thread and on a pool of two give the same flock, bit for bit.
template <class V>
bool same_bits_on_two_threads(const boids::flock_config<V>& cfg, const std::vector<V>& p0, const std::vector<V>& v0,
                              int steps) {
    const auto one = grid_steps(cfg, p0, v0, steps, boids::sequential{});
    boids::thread_pool pool(2);
    const auto pooled = grid_steps(cfg, p0, v0, steps, pool);
    return same_bits(one.first, pooled.first) && same_bits(one.second, pooled.second);
}
}  // namespace

TEST_CASE("grid and all-pairs steps give the same flock, bit for bit", "[flock]") {
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.order = boids::neighbor_order::by_index;
    cfg.has_predator = true;
    cfg.predator = {450, 270};
    std::vector<test::dvec2> p0, v0;
    boids::lesson::scatter(3, cfg, p0, v0, 200);
    auto run = [&](auto finder) {
        auto p = p0, v = v0;
        boids::flock_workspace<test::dvec2> ws;
        for (int s = 0; s < 200; ++s)
            boids::flock_step(boids::span<test::dvec2>(p), boids::span<test::dvec2>(v), cfg, finder, ws, 1.0 / 60);
        return std::make_pair(p, v);
    };
    const auto a = run(boids::all_pairs<test::dvec2>(cfg.world));
    const auto g = run(boids::uniform_grid<test::dvec2>(cfg.world, cfg.view_radius));
    const auto h = run(boids::hashed_grid<test::dvec2>(cfg.world, cfg.view_radius));
    CHECK(same_bits(a.first, g.first));
    CHECK(same_bits(a.second, g.second));
    CHECK(same_bits(a.first, h.first));
}

namespace {
// A step written out with the per-boid functions (what flock_step did before its
// batched last stage): every boid's acceleration over all-pairs neighbours, then
// every boid moved. The reference the batched steps must equal.
template <class V>
void per_boid_step(std::vector<V>& p, std::vector<V>& v, const boids::flock_config<V>& cfg, double dt) {
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    boids::all_pairs<V> finder(cfg.world);
    finder.build(boids::span<const V>(p));
    std::vector<boids::neighbor<S, D>> buf(std::max(cfg.k, cfg.max_neighbors));
    std::vector<V> a(p.size());
    const boids::span<const V> pos(p), vel(v);
    for (std::size_t i = 0; i < p.size(); ++i)
        a[i] = boids::flock_acceleration(
            i, pos, vel, boids::find_neighbors(i, finder, vel, cfg, boids::span<boids::neighbor<S, D>>(buf)), cfg);
    for (std::size_t i = 0; i < p.size(); ++i)
        if (boids::is_finite(p[i]) && boids::is_finite(v[i])) boids::detail::move_boid(p[i], v[i], a[i], S(dt), cfg);
}

// flock_step finishes boids a pack at a time (flock/detail/finish.hpp), over any finder; the
// per-boid step above does it boid by boid. Coincident boids, a boid whose velocity
// is not finite, one outside the world and one at rest take the rarer branches.
template <class V>
void check_batched_step(const boids::flock_config<V>& cfg, std::size_t n, std::uint64_t seed) {
    REQUIRE(boids::detail::batch_finish_supported(cfg));
    std::vector<V> p0, v0;
    boids::lesson::scatter(seed, cfg, p0, v0, n);
    for (std::size_t i = 0; i < 10; ++i) p0[100 + i] = p0[i];
    v0[50] = boids::generate<V>([](std::size_t) { return std::numeric_limits<double>::quiet_NaN(); });
    p0[60] = boids::generate<V>([&](std::size_t d) { return cfg.world.size[d] * 3.5; });
    v0[70] = boids::zero<V>();
#if defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)
    // The compiler may fuse a * b + c (as under -march=native), differently in the pack
    // code and the per-boid code: then one step, and closeness only.
    const int steps = 1;
#else
    const int steps = 30;
#endif
    auto run = [&](auto finder) {
        auto p = p0, v = v0;
        boids::flock_workspace<V> ws;
        for (int s = 0; s < steps; ++s) boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, finder, ws, 0.1);
        return std::make_pair(p, v);
    };
    auto reference = std::make_pair(p0, v0);
    for (int s = 0; s < steps; ++s) per_boid_step(reference.first, reference.second, cfg, 0.1);
    auto agree = [&](const std::pair<std::vector<V>, std::vector<V>>& x) {
#if defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)
        auto close = [](const std::vector<V>& a, const std::vector<V>& b) {
            for (std::size_t i = 0; i < a.size(); ++i)
                for (std::size_t d = 0; d < boids::dimension_v<V>; ++d) {
                    const double ad = boids::get(a[i], d), bd = boids::get(b[i], d);
                    if (!((std::isnan(ad) && std::isnan(bd)) || std::fabs(ad - bd) <= 1e-9 * (1 + std::fabs(bd))))
                        return false;
                }
            return true;
        };
        return close(x.first, reference.first) && close(x.second, reference.second);
#else
        return same_bits(x.first, reference.first) && same_bits(x.second, reference.second);
#endif
    };
    CHECK(agree(run(boids::all_pairs<V>(cfg.world))));
    CHECK(agree(run(boids::uniform_grid<V>(cfg.world, cfg.view_radius))));
    if (cfg.world.kind != boids::edges::toroidal) CHECK(agree(run(boids::hashed_grid<V>(cfg.world, cfg.view_radius))));
    CHECK_FALSE(same_bits(reference.first, p0));  // they moved
}
}  // namespace

TEST_CASE("the batched last stage gives the per-boid step's bits, over every finder", "[flock]") {
    SECTION("3D, topological, linear separation") { check_batched_step(cube_config(12), 1500, 5); }
    SECTION("2D, topological, inverse-square separation") {
        check_batched_step(test::batched_topological_config<test::dvec2>(40), 1200, 6);
    }
    SECTION("2D, metric, the lesson's rules, in a box") {  // by index: the same neighbours' order for every finder
        auto cfg = boids::lesson::config<test::dvec2>();
        cfg.order = boids::neighbor_order::by_index;
        check_batched_step(cfg, 300, 7);
    }
    SECTION("3D, metric, the lesson's rules, toroidal") {
        auto cfg = cube_config(12);
        cfg.neighbors = boids::neighborhood_kind::metric;
        cfg.order = boids::neighbor_order::by_index;
        cfg.separate.falloff = boids::separation_falloff::lesson;
        cfg.align.form = boids::social_form::lesson;
        cfg.cohere.form = boids::social_form::lesson;
        cfg.limits.max_speed = 2.3;  // not a power of two: a reassociated product shows
        check_batched_step(cfg, 1500, 8);
    }
}

TEST_CASE("the threaded step equals the one-thread step bit for bit", "[flock][threads]") {
    auto cfg = cube_config(12);
    SECTION("topological") {}
    SECTION("metric, through the grid's vectorised kernel") {
        cfg.neighbors = boids::neighborhood_kind::metric;
        cfg.view_angle = 300;
    }
    std::vector<test::dvec3> p0, v0;
    boids::lesson::scatter(9, cfg, p0, v0, 3000);
    auto run = [&](std::size_t threads) {
        auto p = p0, v = v0;
        boids::uniform_grid<test::dvec3> grid(cfg.world, cfg.view_radius);
        boids::flock_workspace<test::dvec3> ws;
        for (int s = 0; s < 20; ++s)
            boids::flock_step(boids::span<test::dvec3>(p), boids::span<test::dvec3>(v), cfg, grid, ws, 0.1,
                              boids::thread_count{threads});
        return p;
    };
    const auto one = run(1);
    CHECK(same_bits(one, run(2)));
    CHECK(same_bits(one, run(3)));
    CHECK(same_bits(one, run(8)));
}

TEST_CASE("a step on a thread_pool equals the sequential step bit for bit, grid built in parallel too",
          "[flock][threads]") {
    // 10,000 boids: above the size where the grid's build is split into tasks.
    auto cfg = cube_config(30);
    SECTION("metric, through the grid's vectorised kernel") { cfg.neighbors = boids::neighborhood_kind::metric; }
    SECTION("topological, through the grid's batch query") {}
    std::vector<test::dvec3> p0, v0;
    boids::lesson::scatter(4, cfg, p0, v0, 10000);
    auto run = [&](auto&& executor) { return grid_steps(cfg, p0, v0, 4, executor); };
    const auto one = run(boids::sequential{});
    boids::thread_pool two(2), three(3);
    const auto a = run(two), b = run(three), c = run(boids::thread_count{2});
    CHECK(same_bits(one.first, a.first));
    CHECK(same_bits(one.second, a.second));
    CHECK(same_bits(one.first, b.first));
    CHECK(same_bits(one.first, c.first));
    CHECK_FALSE(same_bits(one.first, p0));  // they moved
}

TEST_CASE("a step with auto_finder is the step of the finder it chooses, bit for bit", "[flock][auto_finder]") {
    // Above the crossover that is the grid with its fused metric kernel (which sums in
    // cell order, so differs from all-pairs in the last bits); below, all-pairs.
    auto cfg = boids::lesson::config<test::dvec2>();
    const std::size_t n = GENERATE(std::size_t(40), std::size_t(400));
    std::vector<test::dvec2> p0, v0;
    boids::lesson::scatter(12, cfg, p0, v0, n);
    auto run = [&](auto& finder) {
        auto p = p0, v = v0;
        boids::flock_workspace<test::dvec2> ws;
        for (int s = 0; s < 30; ++s)
            boids::flock_step(boids::span<test::dvec2>(p), boids::span<test::dvec2>(v), cfg, finder, ws, 1.0 / 60);
        return p;
    };
    boids::auto_finder<test::dvec2> chooser(cfg.world, cfg.view_radius, 100);
    boids::all_pairs<test::dvec2> pairs(cfg.world);
    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
    const auto by_auto = run(chooser);
    CAPTURE(n);
    CHECK(chooser.using_grid() == (n >= 100));
    CHECK(same_bits(by_auto, n >= 100 ? run(grid) : run(pairs)));
    if (n >= 100) CHECK_FALSE(same_bits(by_auto, run(pairs)));  // the kernel's own order, so the test can tell
}

TEST_CASE("thread_pool runs every task once per call, call after call", "[threads]") {
    boids::thread_pool pool(3);
    CHECK(pool.concurrency() == 3);
    std::vector<std::atomic<int>> hits(37);
    for (int call = 0; call < 200; ++call) pool(hits.size(), [&](std::size_t t) { hits[t].fetch_add(1); });
    std::size_t exact = 0;
    for (auto& h : hits) exact += h.load() == 200 ? std::size_t(1) : std::size_t(0);
    CHECK(exact == hits.size());
    int zero_or_one = 0;
    pool(0, [&](std::size_t) { ++zero_or_one; });
    pool(1, [&](std::size_t) { ++zero_or_one; });
    CHECK(zero_or_one == 1);
}

TEST_CASE("a step splits into eight tasks per thread, none under 256 boids, one on one thread", "[threads]") {
    // More tasks than threads, so that a thread whose ranges ran fast takes more:
    // a settled flock's dense groups make some ranges several times slower.
    CHECK(boids::detail::task_count(10000, 256, boids::sequential{}) == 1);
    CHECK(boids::detail::task_count(10000, 256, boids::thread_count{1}) == 1);
    CHECK(boids::detail::task_count(10000, 256, boids::thread_count{2}) == 16);
    CHECK(boids::detail::task_count(1000000, 256, boids::thread_count{16}) == 128);
    CHECK(boids::detail::task_count(1000, 256, boids::thread_count{4}) == 4);  // 250 boids a task
    CHECK(boids::detail::task_count(100, 256, boids::thread_count{4}) == 1);
    CHECK(boids::detail::task_count(0, 256, boids::thread_count{4}) == 1);
    // What flock_step hands an executor that says nothing of its threads (taken as 8).
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.world.size = {9000, 5400};  // the lesson's density, a hundred times the boids
    std::vector<test::dvec2> p, v;
    boids::lesson::scatter(6, cfg, p, v, 20000);
    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<test::dvec2> ws;
    std::size_t most = 0;
    auto counting = [&most](std::size_t tasks, auto&& work) {
        most = std::max(most, tasks);
        for (std::size_t t = 0; t < tasks; ++t) work(t);
    };
    boids::flock_step(boids::span<test::dvec2>(p), boids::span<test::dvec2>(v), cfg, grid, ws, 1.0 / 60, counting);
    CHECK(most == 64);
    CHECK(ws.tasks == 64);
}

TEST_CASE("a NaN boid is not seen and does not spread", "[flock][finite]") {
    const auto cfg = boids::lesson::config<test::dvec2>();
    std::vector<test::dvec2> p, v;
    boids::lesson::scatter(5, cfg, p, v, 60);
    p[10] = {std::numeric_limits<double>::quiet_NaN(), 100};
    v[20] = {std::numeric_limits<double>::infinity(), 0};
    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<test::dvec2> ws;
    for (int s = 0; s < 300; ++s)
        boids::flock_step(boids::span<test::dvec2>(p), boids::span<test::dvec2>(v), cfg, grid, ws, 1.0 / 60);
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (i == 10 || i == 20) continue;
        CAPTURE(i);
        CHECK(boids::is_finite(p[i]));
        CHECK(boids::is_finite(v[i]));
    }
}

TEST_CASE("degenerate flocks: none, one, dt = 0, k larger than the flock", "[flock][finite]") {
    auto cfg = cube_config(5);
    cfg.k = 50;
    boids::uniform_grid<test::dvec3> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<test::dvec3> ws;
    for (std::size_t n : {0u, 1u, 2u, 9u}) {
        std::vector<test::dvec3> p, v;
        boids::lesson::scatter(n, cfg, p, v, n);
        const auto before = p;
        boids::flock_step(boids::span<test::dvec3>(p), boids::span<test::dvec3>(v), cfg, grid, ws, 0.0);
        CHECK(same_bits(p, before));
        for (int s = 0; s < 50; ++s)
            boids::flock_step(boids::span<test::dvec3>(p), boids::span<test::dvec3>(v), cfg, grid, ws, 0.1);
        for (std::size_t i = 0; i < n; ++i) CHECK((boids::is_finite(p[i]) && boids::is_finite(v[i])));
    }
}

TEST_CASE("flock_config::validate names the field", "[flock]") {
    auto cfg = boids::lesson::config<test::dvec2>();
    CHECK(cfg.validate().ok());
    cfg.view_radius = -1;
    CHECK(std::string(cfg.validate().field) == "view_radius");
    cfg = boids::lesson::config<test::dvec2>();
    cfg.limits.min_speed = 500;
    CHECK(std::string(cfg.validate().field) == "min_speed");
    cfg = boids::lesson::config<test::dvec2>();
    cfg.neighbors = boids::neighborhood_kind::topological;
    cfg.k = 0;
    CHECK(std::string(cfg.validate().field) == "k");
    cfg = boids::lesson::config<test::dvec2>();
    cfg.world.size[1] = 0;
    CHECK(std::string(cfg.validate().field) == "world.size");
}

TEST_CASE("the grid's kernel (finder order) tracks the index-ordered step", "[flock]") {
    for (auto falloff : {boids::separation_falloff::lesson, boids::separation_falloff::linear}) {
        for (auto edges : {boids::edges::wrap, boids::edges::toroidal}) {
            auto cfg = boids::lesson::config<test::dvec2>();
            cfg.world.kind = edges;
            cfg.separate.falloff = falloff;
            cfg.separate.strength = 200;
            std::vector<test::dvec2> p0, v0;
            boids::lesson::scatter(4, cfg, p0, v0, 300);
            const double worst = finder_against_index(cfg, p0, v0, 60, true);
            CAPTURE(static_cast<int>(falloff), static_cast<int>(edges), worst);
            CHECK(worst < 1e-8);  // summation order only: the reference README measures ~1e-10 at 120 steps
        }
    }
}

TEST_CASE("a grid three cells across steps on one block of the whole flock, alike on any thread count",
          "[flock][threads]") {
    // Every cell's block would hold every boid: one block in slot order, filled once
    // per task, the minimum image lane by lane. 800 boids: several tasks.
    auto cfg = cube_config(9.5);
    cfg.neighbors = boids::neighborhood_kind::metric;
    cfg.max_neighbors = 256;
    std::vector<test::dvec3> p0, v0;
    boids::lesson::scatter(6, cfg, p0, v0, 800);
    boids::uniform_grid<test::dvec3> probe(cfg.world, cfg.view_radius);
    probe.build(boids::span<const test::dvec3>(p0));
    REQUIRE(probe.cells_per_axis() == std::array<std::int32_t, 3>{3, 3, 3});
    auto run = [&](auto&& executor) { return grid_steps(cfg, p0, v0, 10, executor); };
    const auto one = run(boids::sequential{});
    boids::thread_pool two(2);
    const auto a = run(two), b = run(boids::thread_count{3});
    CHECK(same_bits(one.first, a.first));
    CHECK(same_bits(one.second, a.second));
    CHECK(same_bits(one.first, b.first));
    CHECK_FALSE(same_bits(one.first, p0));  // they moved
    const double worst = finder_against_index(cfg, p0, v0, 30, true);
    CAPTURE(worst);
    CHECK(worst < 1e-8);  // the index-ordered step, but for the order of the sums
    CHECK(worst > 0);     // which differs: the kernel ran, not the general path
}

TEST_CASE("the 3D kernel tracks the index-ordered step in blocks of more candidates than one of its chunks",
          "[flock]") {
    // 800 boids in a torus 4 cells across: every block holds 27 of the 64 cells, about
    // 340 candidates, so the kernel's velocity loop (3D: a second loop over the masks
    // the first kept, 256 candidates at a time) runs over two chunks.
    auto cfg = cube_config(12.5);
    cfg.neighbors = boids::neighborhood_kind::metric;
    cfg.max_neighbors = 400;  // every boid on the kernel, none sent to the general path
    std::vector<test::dvec3> p0, v0;
    boids::lesson::scatter(5, cfg, p0, v0, 800);
    boids::uniform_grid<test::dvec3> grid(cfg.world, cfg.view_radius);
    grid.build(boids::span<const test::dvec3>(p0));
    REQUIRE(grid.cells_per_axis()[0] == 4);
    for (bool positions : {false, true}) {
        const double worst = finder_against_index(cfg, p0, v0, positions ? 20 : 1, positions);
        CAPTURE(positions, worst);
        // Summation order only (here below the velocities' last place: it reads 0).
        // Dropping the second chunk's velocities reads 0.007 and 0.018.
        CHECK(worst < 1e-9);
    }
}

TEST_CASE("the fused step moves boids as it goes, yet every boid sees the old state", "[flock]") {
    // Coincident pairs send boids to the general path in the middle of the fused
    // step, after some of their neighbours have already moved.
    for (auto edges : {boids::edges::bounded, boids::edges::toroidal}) {
        auto cfg = boids::lesson::config<test::dvec2>();
        cfg.world.kind = edges;
        std::vector<test::dvec2> p0, v0;
        boids::lesson::scatter(11, cfg, p0, v0, 400);
        for (std::size_t i = 0; i < 40; ++i) p0[200 + i] = p0[i];
        const double worst = finder_against_index(cfg, p0, v0, 1, false);
        CAPTURE(static_cast<int>(edges), worst);
        CHECK(worst < 1e-9);  // summation order only
    }
}

TEST_CASE("a toroidal boid outside the box sends the step to the general path, which wraps it", "[flock]") {
    // The fused kernel's minimum image holds only inside the box; the grid's build
    // notices a boid outside, and the step takes the exact general path instead.
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.world.kind = boids::edges::toroidal;
    std::vector<test::dvec2> p0, v0;
    boids::lesson::scatter(6, cfg, p0, v0, 300);
    p0[17] = {cfg.world.size[0] + 2.0, p0[17].y};  // a lap outside, beside boids near x = 2
    p0[18] = {1.0, p0[17].y};
    const double worst = finder_against_index(cfg, p0, v0, 1, false);
    CAPTURE(worst);
    CHECK(worst < 1e-9);  // summation order only
}

namespace {
// How many boids see more than cfg.max_neighbors others within the view radius.
template <class V>
std::size_t crowded_boids(const boids::flock_config<V>& cfg, const std::vector<V>& p) {
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    grid.build(boids::span<const V>(p));
    const boids::vision_cone<boids::scalar_t<V>, boids::dimension_v<V>> all_around{};
    std::size_t crowded = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        std::size_t seen = 0;
        grid.for_each_within(i, cfg.view_radius, all_around, [&](const auto&) { ++seen; });
        crowded += seen > cfg.max_neighbors ? 1 : 0;
    }
    return crowded;
}
}  // namespace

TEST_CASE("a crowded boid heeds its max_neighbors nearest on the kernel, as on the general path", "[flock][heed]") {
    // Boids with more neighbours than max_neighbors: the fused step finds the radius of
    // the nearest ones and runs the kernel again within it. Taking all of them, or the
    // wrong ones, moves a velocity by far more than summation order does (over 1e-3 here).
    // (With a cone too.)
    for (double angle : {360.0, 270.0})
        for (auto edges : {boids::edges::bounded, boids::edges::toroidal}) {
            auto cfg = boids::lesson::config<test::dvec2>();
            cfg.world.kind = edges;
            cfg.view_angle = angle;
            cfg.max_neighbors = 5;
            std::vector<test::dvec2> p0, v0;
            boids::lesson::scatter(21, cfg, p0, v0, 600);
            const std::size_t crowded = crowded_boids(cfg, p0);
            CAPTURE(angle, static_cast<int>(edges), crowded);
            REQUIRE(crowded > 200);
            CHECK(finder_against_index(cfg, p0, v0, 1, false) < 1e-9);  // summation order only
            CHECK(finder_against_index(cfg, p0, v0, 30, true) < 1e-8);
        }
    // 3D, metric: the same in a ball.
    auto cfg = cube_config(8.0);
    cfg.neighbors = boids::neighborhood_kind::metric;
    cfg.max_neighbors = 9;
    std::vector<test::dvec3> p0, v0;
    boids::lesson::scatter(22, cfg, p0, v0, 700);
    const std::size_t crowded = crowded_boids(cfg, p0);
    CAPTURE(crowded);
    REQUIRE(crowded > 200);
    CHECK(finder_against_index(cfg, p0, v0, 1, false) < 1e-9);
}

TEST_CASE("a crowded boid whose last heeded neighbours tie in distance takes the general path's choice by index",
          "[flock][heed]") {
    // A square lattice: every boid has 4 neighbours at 1 and 4 at sqrt(2), so the
    // 6 nearest end within a tie. The general path keeps the lower indices; a radius
    // cannot tell them apart, so the kernel hands such a boid over.
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.world.kind = boids::edges::bounded;
    cfg.view_angle = 360;
    cfg.view_radius = 1.6;
    cfg.max_neighbors = 6;
    std::vector<test::dvec2> p0, v0;
    for (int y = 0; y < 12; ++y)
        for (int x = 0; x < 12; ++x) {
            p0.push_back({20.0 + x, 20.0 + y});
            v0.push_back({1.0 + 0.01 * x, 0.5 - 0.02 * y});
        }
    REQUIRE(crowded_boids(cfg, p0) == 100);  // the inner 10 x 10
    CHECK(finder_against_index(cfg, p0, v0, 1, false) < 1e-12);
}

TEST_CASE("heeded_radius_squared: exactly the nearest within it, or a tie left to the caller", "[flock][heed]") {
    using S = float;
    boids::detail::task_scratch<S, 2> task;  // the step's own block and scratch
    boids::detail::candidate_block<S, 2> block = task.block_view();
    S* scratch = task.distances.data();
    boids::detail::kernel_query<S, 2> q{};
    q.p = {0, 0};
    q.r2 = 9;
    // The boid itself at 0, then 99 others at distinct distances 0.02 .. 1.98 apart
    // along x (and a few beyond the radius, which never count).
    block.size = 0;
    for (int j = 0; j < 110; ++j) {
        block.pos[0][block.size] = S(0.02) * static_cast<S>(j) * (j % 2 == 0 ? S(1) : S(-1)) * (j < 100 ? S(1) : S(20));
        block.pos[1][block.size] = 0;
        ++block.size;
    }
    const std::size_t neighbours = 99;
    for (bool avx : {false, boids::detail::avx_at_run_time()}) {
        for (std::size_t heed : {1u, 7u, 50u, 98u}) {
            const S t2 = boids::detail::heeded_radius_squared(avx, block, q, heed, neighbours, scratch);
            std::size_t within = 0;
            for (std::size_t j = 0; j < block.size; ++j) {
                const S x = block.pos[0][j];
                within += x * x > 0 && x * x <= t2 ? 1 : 0;
            }
            CAPTURE(avx, heed, t2);
            CHECK(within == heed);
            // Left to count the neighbours itself (a boid predicted to be crowded): the same limit.
            CHECK(boids::detail::heeded_radius_squared(avx, block, q, heed, boids::detail::neighbours_unknown,
                                                       scratch) == t2);
        }
        // Not crowded: as many neighbours as it heeds, or fewer. The radius as it was.
        for (std::size_t heed : {99u, 120u})
            CHECK(boids::detail::heeded_radius_squared(avx, block, q, heed, boids::detail::neighbours_unknown,
                                                       scratch) == q.r2);
    }
    // The 3rd nearest and the 4th at the same distance: no radius takes exactly 3.
    block.size = 0;
    for (S x : {S(0), S(1), S(2), S(3), S(-3), S(2.9f * 1.5f)}) {
        block.pos[0][block.size] = x;
        block.pos[1][block.size] = 0;
        ++block.size;
    }
    const S t2 = boids::detail::heeded_radius_squared(false, block, q, 3, 4, scratch);
    std::size_t within = 0;
    for (std::size_t j = 0; j < block.size; ++j) {
        const S x = block.pos[0][j];
        within += x * x > 0 && x * x <= t2 ? 1 : 0;
    }
    CHECK(within > 3);  // the caller sees more than it heeds and takes the general path
}

TEST_CASE("heeded_radius_squared: a block that wraps lane by lane counts each candidate's nearest image",
          "[flock][heed]") {
    using S = float;
    boids::detail::task_scratch<S, 2> task;
    boids::detail::candidate_block<S, 2> block = task.block_view();
    S* scratch = task.distances.data();
    boids::detail::kernel_query<S, 2> q{};
    q.p = {0, 0};
    q.r2 = 9;
    q.size = {10, 10};  // a torus 10 across, on which x and x - 10 are the same place
    q.half = {5, 5};
    // The boid itself, then others whose nearest image lies at 0.5, 1, 1.3, 2, 2.5 (in
    // that order of distance, none of them in the order the stored x gives).
    block.size = 0;
    for (S x : {S(0), S(9.5), S(-9), S(2), S(-8.7f), S(7.5)}) {
        block.pos[0][block.size] = x;
        block.pos[1][block.size] = 0;
        ++block.size;
    }
    block.per_lane = true;
    auto image = [](S x) { return x > S(5) ? x - S(10) : x < S(-5) ? x + S(10) : x; };
    for (bool avx : {false, boids::detail::avx_at_run_time()}) {
        for (std::size_t heed : {1u, 2u, 3u, 4u}) {
            const S t2 = boids::detail::heeded_radius_squared(avx, block, q, heed, 5, scratch);
            std::size_t within = 0;
            for (std::size_t j = 0; j < block.size; ++j) {
                const S x = image(block.pos[0][j]);
                within += x * x > 0 && x * x <= t2 ? 1 : 0;
            }
            CAPTURE(avx, heed, t2);
            CHECK(within == heed);
        }
    }
}

TEST_CASE("a flock's state is its two arrays: a fresh grid and workspace mid-run give the same bits",
          "[flock][determinism]") {
    // What rollback needs: copy the positions and velocities, step the copy with new
    // scratch (or the same), and get what the original gets. Nothing else carries over.
    auto cfg = boids::lesson::config<test::dvec2>();
    std::vector<test::dvec2> p, v;
    boids::lesson::scatter(11, cfg, p, v, 400);
    for (auto kind : {boids::neighborhood_kind::metric, boids::neighborhood_kind::topological}) {
        cfg.neighbors = kind;
        auto p1 = p, v1 = v;
        boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
        boids::flock_workspace<test::dvec2> ws;
        for (int s = 0; s < 60; ++s)
            boids::flock_step(boids::span<test::dvec2>(p1), boids::span<test::dvec2>(v1), cfg, grid, ws, 1.0 / 60);
        auto p2 = p1, v2 = v1;  // the copy, stepped with new scratch every step
        bool same = true;
        for (int s = 0; s < 60; ++s) {
            boids::flock_step(boids::span<test::dvec2>(p1), boids::span<test::dvec2>(v1), cfg, grid, ws, 1.0 / 60);
            boids::uniform_grid<test::dvec2> fresh_grid(cfg.world, cfg.view_radius);
            boids::flock_workspace<test::dvec2> fresh_ws;
            boids::flock_step(boids::span<test::dvec2>(p2), boids::span<test::dvec2>(v2), cfg, fresh_grid, fresh_ws,
                              1.0 / 60);
            same = same && same_bits(p1, p2) && same_bits(v1, v2);
        }
        CAPTURE(static_cast<int>(kind));
        CHECK(same);
        CHECK_FALSE(same_bits(p1, p));  // it moved
    }
}

namespace {
// Every boid's summary as flock_step hands it to a blend, by index (dt = 0: nothing moves).
template <class V, class Finder, class Executor = boids::sequential>
std::vector<boids::neighborhood_summary<V>> summaries_of_step(const boids::flock_config<V>& cfg,
                                                              const std::vector<V>& p0, const std::vector<V>& v0,
                                                              Finder& grid, boids::flock_workspace<V>& ws,
                                                              Executor&& ex = {}) {
    std::vector<boids::neighborhood_summary<V>> seen(p0.size());
    auto record = [&](const boids::boid_view<V>& b, const boids::neighborhood_summary<V>& s) {
        seen[b.index] = s;
        return boids::zero<V>();
    };
    auto p = p0, v = v0;
    boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, 0.0, record, ex);
    return seen;
}

// Boid i's neighbourhood by brute force: every other boid within the radius and the
// cone, the nearest max_neighbors of them kept by sorting (distance, then index).
template <class V>
boids::neighborhood_summary<V> brute_force_summary(std::size_t i, const boids::flock_config<V>& cfg,
                                                   const std::vector<V>& p, const std::vector<V>& v) {
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    struct seen_boid {
        S d2;
        std::size_t j;
        V offset;
    };
    std::vector<seen_boid> all;
    const auto cone = boids::vision_cone<S, D>::from(v[i], cfg.view_angle);
    for (std::size_t j = 0; j < p.size(); ++j) {
        if (j == i) continue;
        const V off = boids::offset(cfg.world, p[i], p[j]);
        std::array<S, D> a{};
        for (std::size_t d = 0; d < D; ++d) a[d] = boids::get(off, d);
        const S d2 = boids::dot(off, off);
        if (d2 <= cfg.view_radius * cfg.view_radius && cone.sees(a, d2)) all.push_back({d2, j, off});
    }
    std::sort(all.begin(), all.end(),
              [](const seen_boid& a, const seen_boid& b) { return a.d2 < b.d2 || (a.d2 == b.d2 && a.j < b.j); });
    if (all.size() > cfg.neighbor_cap()) all.resize(cfg.neighbor_cap());
    boids::neighborhood_summary<V> s;
    s.count = all.size();
    for (const auto& b : all) {
        s.offset_sum = boids::add(s.offset_sum, b.offset);
        s.velocity_sum = boids::add(s.velocity_sum, v[b.j]);
    }
    return s;
}

// Whether boid i's summary from the step matches brute force: the same count, and sums
// that differ by summation order only; and how many boids' do not.
template <class V>
bool matches_brute_force(std::size_t i, const boids::flock_config<V>& cfg, const std::vector<V>& p,
                         const std::vector<V>& v, const boids::neighborhood_summary<V>& got) {
    const auto want = brute_force_summary(i, cfg, p, v);
    const double scale = 1.0 + static_cast<double>(want.count);
    return got.count == want.count &&
           boids::distance(got.offset_sum, want.offset_sum) <= 1e-9 * scale * cfg.view_radius &&
           boids::distance(got.velocity_sum, want.velocity_sum) <= 1e-9 * scale * 200.0;
}
template <class V>
std::size_t summaries_off_brute_force(const boids::flock_config<V>& cfg, const std::vector<V>& p,
                                      const std::vector<V>& v, const std::vector<boids::neighborhood_summary<V>>& got) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
        if (!matches_brute_force(i, cfg, p, v, got[i])) ++wrong;
    return wrong;
}

// How many boids' summaries from two steps differ: in count, or in offset sum beyond
// what the order of summation changes.
template <class V>
std::size_t summaries_differ(const boids::flock_config<V>& cfg, const std::vector<boids::neighborhood_summary<V>>& got,
                             const std::vector<boids::neighborhood_summary<V>>& want) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i].count != want[i].count ||
            boids::distance(got[i].offset_sum, want[i].offset_sum) > 1e-9 * cfg.view_radius * 8)
            ++wrong;
    return wrong;
}

// n boids uniform in a square patch (2D) or a ball (3D) of `extent` at the origin's
// corner of the world, headings uniform, speeds 60 to 160.
template <class V>
void packed_flock(std::uint64_t seed, std::size_t n, double extent, std::vector<V>& p, std::vector<V>& v) {
    constexpr std::size_t D = boids::dimension_v<V>;
    boids::random_stream rng(seed);
    p.resize(n);
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        V x;
        do {
            x = boids::generate<V>([&](std::size_t) { return rng.uniform(-1.0, 1.0); });
        } while (D == 3 && boids::dot(x, x) > 1.0);
        p[i] = boids::generate<V>([&](std::size_t d) {
            return D == 2 ? 10.0 + extent * 0.5 * (boids::get(x, d) + 1.0) : 1000.0 + 0.5 * extent * boids::get(x, d);
        });
        v[i] = boids::scale(boids::unit_direction<V>(rng.next()), rng.uniform(60.0, 160.0));
    }
}

// n boids spawned on one spot `at`, each at `speed` in its own direction, `steps` steps of
// dt on over a fresh grid: the uneven disc or shell a game's spawn makes.
template <class V>
void spawn_on_one_spot(const boids::flock_config<V>& cfg, std::size_t n, const V& at, double speed, int steps,
                       double dt, std::vector<V>& p, std::vector<V>& v) {
    p.assign(n, at);
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = boids::scale(boids::exact_unit_direction<V>(boids::random_stream(i).next()), speed);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    for (int step = 0; step < steps; ++step) boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, dt);
}

boids::world<double, 3> open_world3d() { return boids::world<double, 3>::unbounded(); }

// cube_config's boids in an open world, one step over `grid` and one over all_pairs:
// how many boids' summaries differ (the 7 nearest: the batched query).
std::size_t open3d_summaries_differ(const std::vector<test::dvec3>& p, const std::vector<test::dvec3>& v,
                                    boids::uniform_grid<test::dvec3>& grid) {
    auto cfg = cube_config(2000.0);
    cfg.world = open_world3d();
    boids::all_pairs<test::dvec3> ref(cfg.world);
    boids::flock_workspace<test::dvec3> ws, ref_ws;
    const auto got = summaries_of_step(cfg, p, v, grid, ws);
    return summaries_differ(cfg, got, summaries_of_step(cfg, p, v, ref, ref_ws));
}

// The lesson's boids in a 2000 px world of `edges`, with this cone and cap.
boids::flock_config<test::dvec2> packed_lesson_config(boids::edges edges, double angle, std::size_t cap) {
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.world = boids::world<double, 2>::box(edges, {2000.0, 2000.0});
    cfg.view_angle = angle;
    cfg.max_neighbors = cap;
    return cfg;
}

// Moves a flock by -by on every axis of a torus of this side, wrapping it.
template <class V>
void across_seams(std::vector<V>& p, double by, double side) {
    for (auto& x : p)
        x = boids::generate<V>(
            [&](std::size_t d) { return boids::world<double, 1>::wrap_scalar(boids::get(x, d) - by, side); });
}

// Metric boids of radius 4 in a 2000 torus, with this cone and cap.
boids::flock_config<test::dvec3> packed_cube_config(double angle, std::size_t cap) {
    auto cfg = cube_config(2000.0);
    cfg.neighbors = boids::neighborhood_kind::metric;
    cfg.view_radius = 4.0;
    cfg.view_angle = angle;
    cfg.max_neighbors = cap;
    return cfg;
}
}  // namespace

TEST_CASE("every boid of a packed flock on the kernel: its summary is brute force's, whatever the cone and cap",
          "[flock][dense]") {
    // 2,000 lesson boids (radius 60) packed into 800, 400 and 200 px squares: about
    // 15, 60 and 230 neighbours each. Caps from one to none, with and without the cone.
    for (auto edges : {boids::edges::toroidal, boids::edges::bounded})
        for (double patch : {800.0, 400.0, 200.0}) {
            std::vector<test::dvec2> p, v;
            packed_flock(7, 2000, patch, p, v);
            for (double angle : {270.0, 360.0})
                for (std::size_t cap :
                     {std::size_t(1), std::size_t(7), std::size_t(16), std::size_t(256), boids::no_cap}) {
                    const auto cfg = packed_lesson_config(edges, angle, cap);
                    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
                    boids::flock_workspace<test::dvec2> ws;
                    const auto got = summaries_of_step(cfg, p, v, grid, ws);
                    CAPTURE(static_cast<int>(edges), patch, angle, cap, grid.cell_size());
                    CHECK(ws.report.path == boids::flock_path::fused_kernel);
                    CHECK(ws.report.boids_off_kernel == 0);
                    CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
                    // Capped where a boid sees far more than it keeps: the grid chose smaller cells.
                    if (patch == 200.0 && cap <= 16) CHECK(grid.cell_size() < cfg.view_radius * 0.7);
                }
        }
}

TEST_CASE("every boid of a packed 3D flock on the kernel: its summary is brute force's", "[flock][dense]") {
    // Balls 40, 20 and 10 across in the middle of a 2000 torus, and one 20 across
    // centred on its corner, across its seams (see the next test).
    struct ball {
        double extent;
        bool across_seams;
    };
    for (const ball b : {ball{40.0, false}, ball{20.0, false}, ball{10.0, false}, ball{20.0, true}}) {
        std::vector<test::dvec3> p, v;
        packed_flock(b.across_seams ? 9 : 8, 1500, b.extent, p, v);
        if (b.across_seams) across_seams(p, 1000.0, 2000.0);
        for (double angle : {300.0, 360.0})
            for (std::size_t cap : {std::size_t(7), std::size_t(64), boids::no_cap}) {
                const auto cfg = packed_cube_config(angle, cap);
                boids::uniform_grid<test::dvec3> grid(cfg.world, cfg.view_radius);
                boids::flock_workspace<test::dvec3> ws;
                const auto got = summaries_of_step(cfg, p, v, grid, ws);
                CAPTURE(b.extent, b.across_seams, angle, cap, grid.cell_size(), grid.bucket_count());
                if (b.extent <= 20.0) CHECK(grid.bucket_count() < 3000);  // tiling the torus: 12,000 cells
                CHECK(ws.report.boids_off_kernel == 0);
                CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
            }
    }
}

TEST_CASE("strays far from a packed flock: cells over the flock, every boid on the kernel, brute force's summaries",
          "[flock][dense]") {
    // 2,000 lesson boids in a 400 px square, and a few far away: flung off (one beside
    // another), parked together, or just past the flock. Over their bounding
    // box, cells of the radius would be far more than 8 a boid; the grid covers the
    // flock and clamps the strays into its edge cells.
    for (auto edges : {boids::edges::open, boids::edges::bounded}) {
        std::vector<test::dvec2> p, v;
        packed_flock(11, 2000, 400.0, p, v);
        p[3] = {90000.0, 200.0};
        p[4] = {90030.0, 210.0};
        p[5] = {150.0, -70000.0};
        p[6] = {480.0, 300.0};
        for (std::size_t i = 20; i < 30; ++i) {  // apart by no two equal distances (no ties at the cap)
            const double k = static_cast<double>(i - 20);
            p[i] = {-40000.0 + 0.37 * k * k, 50000.0 + 0.11 * k};
        }
        for (double angle : {270.0, 360.0})
            for (std::size_t cap : {std::size_t(7), std::size_t(256), boids::no_cap}) {
                auto cfg = packed_lesson_config(edges, angle, cap);
                if (edges == boids::edges::open) cfg.world = boids::world<double, 2>::unbounded();
                else cfg.world.size = {200000.0, 200000.0};
                auto q = p;
                if (edges == boids::edges::bounded)  // the strays inside the box
                    for (auto& x : q) x = {x.x + 100000.0, x.y + 100000.0};
                boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
                boids::flock_workspace<test::dvec2> ws;
                const auto got = summaries_of_step(cfg, q, v, grid, ws);
                CAPTURE(static_cast<int>(edges), angle, cap, grid.cell_size());
                CHECK(test::cells_held(grid) >= 36);  // the cells of the whole flock: one before
                CHECK(ws.report.boids_off_kernel == 0);
                CHECK(summaries_off_brute_force(cfg, q, v, got) == 0);
            }
    }
    // In 3D, the 7 nearest (the batched query), strays included, as all_pairs finds them.
    std::vector<test::dvec3> p, v;
    packed_flock(12, 3000, 20.0, p, v);  // a ball 20 across at (1000, 1000, 1000)
    p[3] = {1000.0, 1000.0, 90000.0};
    p[4] = {1000.0, 1001.0, 90000.5};
    p[5] = {-60000.0, 1000.0, 1000.0};
    for (std::size_t i = 20; i < 40; ++i) p[i] = {1000.0 + 0.3 * static_cast<double>(i * i), 1e5, 1000.0};
    boids::uniform_grid<test::dvec3> grid(open_world3d(), cube_config(2000.0).view_radius);
    CHECK(open3d_summaries_differ(p, v, grid) == 0);
    CHECK(grid.bucket_count() < 5000);  // the ball's bounds (tiling the strays' box: about 24,000)
}

TEST_CASE(
    "flocks far apart in one step: cells of the radius for each, every boid on the kernel, brute force's summaries",
    "[flock][dense]") {
    // Eight flocks of lesson boids, 150 px across, on a map 100,000 px wide (a game's
    // flocks over its world, stepped together): cells of the radius over their
    // bounding box would be far more than 8 a boid; the grid squeezes the empty
    // stretches between the flocks out and gives each flock cells of the radius.
    for (auto edges : {boids::edges::open, boids::edges::bounded}) {
        std::vector<test::dvec2> p, v;
        for (std::size_t f = 0; f < 8; ++f) {
            std::vector<test::dvec2> fp, fv;
            packed_flock(20 + f, 250, 150.0, fp, fv);
            const test::dvec2 at{30000.0 * static_cast<double>(f % 4) + 900.0 * static_cast<double>(f),
                                 60000.0 * static_cast<double>(f / 4) + 7000.0 * static_cast<double>(f % 3)};
            for (std::size_t i = 0; i < fp.size(); ++i) {
                p.push_back({fp[i].x + at.x, fp[i].y + at.y});
                v.push_back(fv[i]);
            }
        }
        for (double angle : {270.0, 360.0})
            for (std::size_t cap : {std::size_t(7), std::size_t(256), boids::no_cap}) {
                auto cfg = packed_lesson_config(edges, angle, cap);
                if (edges == boids::edges::open) cfg.world = boids::world<double, 2>::unbounded();
                else cfg.world.size = {200000.0, 200000.0};
                boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
                boids::flock_workspace<test::dvec2> ws;
                const auto got = summaries_of_step(cfg, p, v, grid, ws);
                CAPTURE(static_cast<int>(edges), angle, cap, grid.cell_size());
                CHECK(test::cells_held(grid) >= 30);  // about 6 a flock at the radius (60 px); unsqueezed, 8
                CHECK(ws.report.boids_off_kernel == 0);
                CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
            }
    }
    // In 3D, six balls far apart, the 7 nearest (the batched query), as all_pairs finds them.
    std::vector<test::dvec3> p, v;
    for (std::size_t f = 0; f < 6; ++f) {
        std::vector<test::dvec3> fp, fv;
        packed_flock(40 + f, 500, 12.0, fp, fv);  // a ball 12 across at (1000, 1000, 1000)
        const double k = static_cast<double>(f);
        for (std::size_t i = 0; i < fp.size(); ++i) {
            p.push_back({fp[i].x + 9000.0 * k, fp[i].y + 4000.0 * (k - 2.0) * (k - 3.0), fp[i].z - 3000.0 * k});
            v.push_back(fv[i]);
        }
    }
    boids::uniform_grid<test::dvec3> grid(open_world3d(), cube_config(2000.0).view_radius);
    CHECK(open3d_summaries_differ(p, v, grid) == 0);
    CHECK(test::cells_held(grid) >= 300);  // each ball about 90 (the six share squeezed axes); unsqueezed, 8
}

TEST_CASE("a packed flock across the seams of a large torus: cells over the flock, all_pairs' neighbours",
          "[flock][dense]") {
    // A torus far larger than its flock (more than about 8 cells a boid to tile it)
    // whose flock lies across its seams, centred on a corner: the grid's cells cover
    // the flock, as they do where it lies away from the seams (metric queries, against
    // brute force: the test above), and every boid finds its neighbours through the
    // seams.
    {
        std::vector<test::dvec3> p, v;
        packed_flock(9, 1500, 20.0, p, v);  // a ball 20 across at (1000, 1000, 1000)
        across_seams(p, 1000.0, 2000.0);
        // The 7 nearest, as all_pairs finds them.
        const auto cfg = cube_config(2000.0);
        boids::uniform_grid<test::dvec3> grid(cfg.world, cfg.view_radius);
        boids::all_pairs<test::dvec3> ref(cfg.world);
        boids::flock_workspace<test::dvec3> ws, ref_ws;
        const auto got = summaries_of_step(cfg, p, v, grid, ws);
        const auto want = summaries_of_step(cfg, p, v, ref, ref_ws);
        CHECK(grid.bucket_count() < 3000);
        CHECK(summaries_differ(cfg, got, want) == 0);
    }
    {
        // 10,000 boids, whose grid is built by tasks: the same bits on 1 and 2 threads.
        std::vector<test::dvec3> p, v;
        packed_flock(10, 10000, 30.0, p, v);
        across_seams(p, 1000.0, 2000.0);
        const auto cfg = packed_cube_config(360.0, 16);
        boids::thread_pool two(2);
        const auto one = grid_steps(cfg, p, v, 3, boids::sequential{}), both = grid_steps(cfg, p, v, 3, two);
        CHECK(same_bits(one.first, both.first));
        CHECK(same_bits(one.second, both.second));
        CHECK_FALSE(same_bits(one.first, p));  // they moved
    }
    {
        // Boids on the seams themselves, and an ulp before them, where rounding may put
        // a boid in the cell beside its own side's: brute force's neighbours still.
        std::vector<test::dvec3> p, v;
        packed_flock(11, 1500, 20.0, p, v);
        across_seams(p, 1000.0, 2000.0);
        for (std::size_t i = 0; i < p.size(); i += 3) {
            const std::size_t d = i % 3;
            const double on = (i / 3) % 2 == 0 ? 0.0 : std::nextafter(2000.0, 0.0);
            p[i] = boids::generate<test::dvec3>([&](std::size_t a) { return a == d ? on : boids::get(p[i], a); });
        }
        for (std::size_t cap : {std::size_t(7), boids::no_cap}) {
            const auto cfg = packed_cube_config(360.0, cap);
            boids::uniform_grid<test::dvec3> grid(cfg.world, cfg.view_radius);
            boids::flock_workspace<test::dvec3> ws;
            const auto got = summaries_of_step(cfg, p, v, grid, ws);
            CAPTURE(cap, grid.bucket_count());
            CHECK(grid.bucket_count() < 3000);
            CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
        }
    }
    // The lesson's boids in a 200 px square on the corner of a 4000 px torus. A cap of
    // 7 without a cone asks for cells of about 15 px: 70,000 would tile it, where 8 a
    // boid (16,000) is the most, so they cover the flock. Cells a quarter wider than
    // asked or less tile the torus: across a seam they cost no more than minimum
    // images lane by lane.
    std::vector<test::dvec2> p, v;
    packed_flock(7, 2000, 200.0, p, v);
    across_seams(p, 110.0, 4000.0);
    for (double angle : {270.0, 360.0})
        for (std::size_t cap : {std::size_t(7), std::size_t(256), boids::no_cap}) {
            auto cfg = packed_lesson_config(boids::edges::toroidal, angle, cap);
            cfg.world = boids::world<double, 2>::box(boids::edges::toroidal, {4000.0, 4000.0});
            boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
            boids::flock_workspace<test::dvec2> ws;
            const auto got = summaries_of_step(cfg, p, v, grid, ws);
            CAPTURE(angle, cap, grid.cell_size(), grid.bucket_count());
            const double tiled = std::pow(std::floor(4000.0 / grid.cell_size()), 2);
            if (tiled > 16000 * 1.25 * 1.25) CHECK(grid.bucket_count() < 2000);
            if (tiled < 16000) CHECK(grid.bucket_count() == static_cast<std::size_t>(tiled));
            if (cap == 7 && angle == 360.0) CHECK(grid.bucket_count() < 2000);
            CHECK(ws.report.boids_off_kernel == 0);
            CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
        }
}

TEST_CASE(
    "a 3D cone leaves its share of the sphere: a cap of hundreds in a packed ball finds its nearest in small cells",
    "[flock][dense]") {
    // 3,000 boids in a ball 12 across, radius 4, a 270-degree cone: about 85% of the
    // directions (a cap of the sphere), not the 75% a circle would leave. With that share
    // the nearest 215 lie within about 0.8 of the radius and the grid picks cells under
    // 0.45 of it; with the circle's it did not.
    std::vector<test::dvec3> p, v;
    packed_flock(5, 3000, 12.0, p, v);
    for (std::size_t cap : {std::size_t(215), std::size_t(64)}) {
        auto cfg = cube_config(2000.0);
        cfg.world = boids::world<double, 3>{};
        cfg.neighbors = boids::neighborhood_kind::metric;
        cfg.view_radius = 4.0;
        cfg.view_angle = 270;
        cfg.max_neighbors = cap;
        boids::uniform_grid<test::dvec3> grid(cfg.world, cfg.view_radius);
        boids::flock_workspace<test::dvec3> ws;
        const auto got = summaries_of_step(cfg, p, v, grid, ws);
        CAPTURE(cap, grid.cell_size());
        if (cap == 215) CHECK(grid.cell_size() < cfg.view_radius * 0.45);  // 64: cells of twice its ball, one ring
        CHECK(ws.report.boids_off_kernel == 0);
        CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
    }
}

TEST_CASE("a cap that a crowd far exceeds: the nearest found two rings of small cells out, as brute force finds them",
          "[flock][dense]") {
    // 4,000 lesson boids in a 180 px square: about 1,400 within the radius, so the
    // nearest 256 or 300 lie within about half of it; the grid picks cells of about a
    // quarter of the radius and looks two rings out. In a 90 px square (the whole
    // flock within the radius), cells of about a seventh of it, two rings out, not
    // cells as wide as the ball of the nearest.
    for (double square : {180.0, 90.0}) {
        std::vector<test::dvec2> p, v;
        packed_flock(11, 4000, square, p, v);
        for (auto edges : {boids::edges::toroidal, boids::edges::bounded})
            for (double angle : {270.0, 360.0})
                for (std::size_t cap : {std::size_t(256), std::size_t(300)}) {
                    const auto cfg = packed_lesson_config(edges, angle, cap);
                    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
                    boids::flock_workspace<test::dvec2> ws;
                    const auto got = summaries_of_step(cfg, p, v, grid, ws);
                    CAPTURE(square, static_cast<int>(edges), angle, cap, grid.cell_size());
                    CHECK(grid.cell_size() < cfg.view_radius * (square > 100.0 ? 0.45 : 0.2));
                    CHECK(ws.report.path == boids::flock_path::fused_kernel);
                    CHECK(ws.report.boids_off_kernel == 0);
                    CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
                }
        // The same bits on 1 and 2 threads.
        CHECK(same_bits_on_two_threads(packed_lesson_config(boids::edges::toroidal, 270.0, 256), p, v, 3));
    }
}

TEST_CASE("a capped flock packed within a view radius reads the cells around each boid: brute force's summaries",
          "[flock][dense]") {
    // The grid spans fewer cells than a view radius's box of them, so every block would
    // hold the whole flock; cells sized for the cap still give each boid the cells
    // around its own first. Over a large torus, a bounded box, across the torus's seams,
    // and over a torus smaller than the box of cells (each cell through the image nearest
    // the boid, lane by lane).
    struct scene {
        boids::edges edges;
        double side, patch, seams;
        std::size_t n;
    };
    for (const scene sc : {scene{boids::edges::toroidal, 2000.0, 100.0, 0.0, 2000},
                           scene{boids::edges::bounded, 2000.0, 100.0, 0.0, 2000},
                           scene{boids::edges::toroidal, 2000.0, 100.0, 60.0, 2000},
                           scene{boids::edges::toroidal, 100.0, 100.0, 0.0, 2000}}) {
        std::vector<test::dvec2> p, v;
        packed_flock(12, sc.n, sc.patch, p, v);
        if (sc.seams > 0) across_seams(p, sc.seams, sc.side);
        if (sc.side < 200.0) across_seams(p, 10.0, sc.side);  // into the box [0, side)
        for (double angle : {270.0, 360.0})
            for (std::size_t cap : {std::size_t(1), std::size_t(7), std::size_t(256)}) {
                auto cfg = packed_lesson_config(sc.edges, angle, cap);
                cfg.world = boids::world<double, 2>::box(sc.edges, {sc.side, sc.side});
                boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
                boids::flock_workspace<test::dvec2> ws;
                const auto got = summaries_of_step(cfg, p, v, grid, ws);
                CAPTURE(static_cast<int>(sc.edges), sc.side, sc.seams, angle, cap, grid.cell_size());
                const auto reach = static_cast<std::int32_t>(std::ceil(cfg.view_radius / grid.cell_size()));
                // (A cap of hundreds: cells of half the radius and more; across the large
                // torus's seams, its cells tile the torus.)
                if (cap <= 16 && (sc.seams == 0 || sc.edges == boids::edges::bounded)) {
                    for (std::size_t d = 0; d < 2; ++d) CHECK(grid.cells_per_axis()[d] <= 2 * reach + 1);
                    CHECK(grid.cell_size() < cfg.view_radius * 0.25);
                }
                CHECK(ws.report.boids_off_kernel == 0);
                CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
            }
    }
    {
        // A 3D ball 6 across, radius 4.
        std::vector<test::dvec3> p, v;
        packed_flock(13, 1500, 6.0, p, v);
        for (double angle : {300.0, 360.0})
            for (std::size_t cap : {std::size_t(7), std::size_t(64)}) {
                const auto cfg = packed_cube_config(angle, cap);
                boids::uniform_grid<test::dvec3> grid(cfg.world, cfg.view_radius);
                boids::flock_workspace<test::dvec3> ws;
                const auto got = summaries_of_step(cfg, p, v, grid, ws);
                CAPTURE(angle, cap, grid.cell_size());
                const auto reach = static_cast<std::int32_t>(std::ceil(cfg.view_radius / grid.cell_size()));
                for (std::size_t d = 0; d < 3; ++d) CHECK(grid.cells_per_axis()[d] <= 2 * reach + 1);
                CHECK(ws.report.boids_off_kernel == 0);
                CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
            }
    }
    // The same bits on 1 and 2 threads (the small torus: images lane by lane).
    std::vector<test::dvec2> p, v;
    packed_flock(14, 3000, 100.0, p, v);
    across_seams(p, 10.0, 100.0);
    auto cfg = packed_lesson_config(boids::edges::toroidal, 270.0, 7);
    cfg.world = boids::world<double, 2>::box(boids::edges::toroidal, {100.0, 100.0});
    CHECK(same_bits_on_two_threads(cfg, p, v, 3));
}

TEST_CASE("a boid the cells around its own cannot prove reads wider rings of them: brute force's summaries",
          "[flock][dense]") {
    // 6,000 lesson boids spawned on one spot, 40 steps on: a disc of uneven density,
    // rings of boids packed tens a square pixel with sparse gaps between them. The grid
    // sizes its cells for the rings, under a 16th of the radius, and a boid in a gap
    // finds too few in the cells around its own: its nearest are looked for in wider
    // boxes of cells, as far as they prove them. Over a large torus, a bounded box and
    // across the torus's seams.
    const auto spawn_cfg = packed_lesson_config(boids::edges::toroidal, 270.0, 7);
    std::vector<test::dvec2> p, v;
    spawn_on_one_spot(spawn_cfg, 6000, test::dvec2{400.0, 300.0}, 60.0, 40, 1.0 / 60, p, v);
    for (double seams : {0.0, 400.0})
        for (auto edges : {boids::edges::toroidal, boids::edges::bounded}) {
            if (seams > 0 && edges == boids::edges::bounded) continue;
            std::vector<test::dvec2> at = p;
            if (seams > 0) across_seams(at, seams, 2000.0);
            for (double angle : {270.0, 360.0})
                for (std::size_t cap : {std::size_t(1), std::size_t(7), std::size_t(16)}) {
                    if (angle > 300.0 && (seams > 0 || edges == boids::edges::bounded)) continue;  // (time)
                    const auto cfg = packed_lesson_config(edges, angle, cap);
                    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
                    boids::flock_workspace<test::dvec2> ws;
                    const auto got = summaries_of_step(cfg, at, v, grid, ws);
                    CAPTURE(seams, static_cast<int>(edges), angle, cap, grid.cell_size());
                    if (cap <= 7) CHECK(grid.cell_size() < cfg.view_radius / 16.0);
                    CHECK(ws.report.boids_off_kernel == 0);
                    CHECK(summaries_off_brute_force(cfg, at, v, got) == 0);
                }
        }
    CHECK(same_bits_on_two_threads(spawn_cfg, p, v, 3));
}

TEST_CASE("a 3D spawn packed deep inside a view radius: cells under a 16th of it, brute force's summaries",
          "[flock][dense]") {
    // 3,000 boids spawned on one spot at 3 units a second, 15 steps on: a shell about 1.5
    // across, tens of boids a cubic unit, inside a view radius of 20. The grid sizes its
    // cells for a cap of 7 there (a 16th of the radius would read hundreds of candidates
    // a boid). 5 steps on the shell is half a unit across, and the cells go below a
    // 64th of the radius, never below a 256th.
    auto make = [](boids::edges edges, double angle, std::size_t cap) {
        boids::flock_config<test::dvec3> cfg;
        if (edges != boids::edges::open) cfg.world = boids::world<double, 3>::box(edges, {400.0, 400.0, 400.0});
        cfg.view_radius = 20;
        cfg.view_angle = angle;
        cfg.max_neighbors = cap;
        cfg.limits = {6.0, 10.0, 0.25, 2.0};
        cfg.separate.radius = 2;
        return cfg;
    };
    const auto spawn_cfg = make(boids::edges::toroidal, 270.0, 7);
    std::vector<test::dvec3> p, v;
    for (int steps : {5, 15}) {
        spawn_on_one_spot(spawn_cfg, 3000, test::dvec3{200.0, 200.0, 200.0}, 3.0, steps, 1.0 / 30, p, v);
        for (auto edges : {boids::edges::toroidal, boids::edges::open})
            for (double angle : {270.0, 360.0})
                for (std::size_t cap : {std::size_t(1), std::size_t(7)}) {
                    const auto cfg = make(edges, angle, cap);
                    boids::uniform_grid<test::dvec3> grid(cfg.world, cfg.view_radius);
                    boids::flock_workspace<test::dvec3> ws;
                    const auto got = summaries_of_step(cfg, p, v, grid, ws);
                    CAPTURE(steps, static_cast<int>(edges), angle, cap, grid.cell_size());
                    CHECK(grid.cell_size() < cfg.view_radius / (steps == 5 ? 64.0 : 16.0));
                    CHECK(grid.cell_size() >= cfg.view_radius / 256.0);
                    CHECK(ws.report.boids_off_kernel == 0);
                    CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
                }
        CHECK(same_bits_on_two_threads(spawn_cfg, p, v, 3));
    }
}

TEST_CASE("a packed flock's step is the same bits on 1 and 2 threads, and over any cell size the same neighbours",
          "[flock][dense][threads]") {
    std::vector<test::dvec2> p0, v0;
    packed_flock(9, 3000, 200.0, p0, v0);
    for (std::size_t cap : {std::size_t(7), std::size_t(256), boids::no_cap}) {
        auto cfg = boids::lesson::config<test::dvec2>();
        cfg.world = boids::world<double, 2>::box(boids::edges::toroidal, {2000.0, 2000.0});
        cfg.max_neighbors = cap;
        CAPTURE(cap);
        const auto one = grid_steps(cfg, p0, v0, 4, boids::sequential{});
        boids::thread_pool pool(2);
        const auto pooled = grid_steps(cfg, p0, v0, 4, pool);
        const auto counted = grid_steps(cfg, p0, v0, 4, boids::thread_count{2});
        CHECK(same_bits(one.first, pooled.first));
        CHECK(same_bits(one.second, pooled.second));
        CHECK(same_bits(one.first, counted.first));
        CHECK(same_bits(one.second, counted.second));
        // The grid's own cells against cells of the user's: the same neighbours.
        boids::uniform_grid<test::dvec2> own(cfg.world, cfg.view_radius);
        boids::flock_workspace<test::dvec2> ws;
        const auto reference = summaries_of_step(cfg, p0, v0, own, ws);
        for (double cell : {60.0, 30.0, 11.0, 150.0}) {
            boids::uniform_grid<test::dvec2> fixed(cfg.world, cell);
            fixed.set_cell_size(cell);
            REQUIRE_FALSE(fixed.picks_cell_size());
            const auto got = summaries_of_step(cfg, p0, v0, fixed, ws);
            CHECK(fixed.cell_size() == cell);
            std::size_t differ = 0;
            for (std::size_t i = 0; i < got.size(); ++i) {
                const bool same = got[i].count == reference[i].count &&
                                  boids::distance(got[i].offset_sum, reference[i].offset_sum) < 1e-9 * 60.0 * 300;
                differ += same ? std::size_t(0) : std::size_t(1);
            }
            CAPTURE(cell);
            CHECK(differ == 0);
        }
    }
}

TEST_CASE(
    "a topological flock packed far inside a cell of the radius, alone or beside a spread flock: brute force's "
    "summaries",
    "[flock][dense]") {
    // Counted in cells of the radius such a flock looks far sparser than it is, and
    // cells sized from that count still hold all of it; the grid counts again in them.
    // On one spot (a spawn), the nearest are the lowest indices there. Beside a flock
    // spread over the world (every other boid), cells capped by the spread half hold
    // the spawn whole, and its boids read sub-cells of them.
    const double extent = GENERATE(0.5, 0.0);
    const bool beside = GENERATE(false, true);
    boids::random_stream rng(14);
    std::vector<test::dvec2> p, v;
    packed_flock(11, 1500, extent, p, v);
    for (std::size_t i = 1; beside && i < p.size(); i += 2) p[i] = {rng.uniform(0, 2000), rng.uniform(0, 2000)};
    for (auto edges : {boids::edges::toroidal, boids::edges::open}) {
        auto cfg = boids::lesson::config<test::dvec2>();
        cfg.world = boids::world<double, 2>::box(edges, {2000.0, 2000.0});
        cfg.neighbors = boids::neighborhood_kind::topological;
        cfg.view_angle = 360.0;
        boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
        boids::flock_workspace<test::dvec2> ws;
        const auto got = summaries_of_step(cfg, p, v, grid, ws);
        CAPTURE(extent, beside, static_cast<int>(edges), grid.cell_size());
        if (beside) CHECK(grid.cell_size() > 1.0);           // capped by the spread half: the spawn shares a cell
        else if (extent > 0) CHECK(grid.cell_size() < 0.1);  // a fifth of the patch
        auto metric = cfg;  // the k nearest within the radius, as brute force finds them
        metric.neighbors = boids::neighborhood_kind::metric;
        metric.max_neighbors = cfg.k;
        CHECK(summaries_off_brute_force(metric, p, v, got) == 0);
    }
    std::vector<test::dvec3> p3, v3;
    packed_flock(12, 1500, 0.02, p3, v3);
    for (std::size_t i = 1; beside && i < p3.size(); i += 2)
        p3[i] = {rng.uniform(700, 1300), rng.uniform(700, 1300), rng.uniform(700, 1300)};
    auto cfg3 = cube_config(12);
    cfg3.world = open_world3d();
    boids::uniform_grid<test::dvec3> grid3(cfg3.world, cfg3.view_radius);
    boids::flock_workspace<test::dvec3> ws3;
    const auto got3 = summaries_of_step(cfg3, p3, v3, grid3, ws3);
    CAPTURE(grid3.cell_size());
    if (beside) CHECK(grid3.cell_size() > 1.0);
    else CHECK(grid3.cell_size() < 0.005);  // a quarter of the ball's diameter
    auto metric3 = cfg3;
    metric3.neighbors = boids::neighborhood_kind::metric;
    metric3.max_neighbors = cfg3.k;
    CHECK(summaries_off_brute_force(metric3, p3, v3, got3) == 0);
}

namespace {
// Whether the boids near a spawn, and every tenth boid, have brute force's summaries:
// how many do not (the brute force is O(n) a boid: not every one of thousands).
template <class V>
std::size_t spawn_summaries_off(const boids::flock_config<V>& cfg, const std::vector<V>& p, const std::vector<V>& v,
                                const std::vector<boids::neighborhood_summary<V>>& got, const V& spawn, double near) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (i % 10 != 0 && boids::length(boids::offset(cfg.world, spawn, p[i])) > near) continue;
        if (!matches_brute_force(i, cfg, p, v, got[i])) ++wrong;
    }
    return wrong;
}

// Whether boid i's summary from the step is the per-boid query's (gather_neighbors over
// `pairs`, then summarize), bit for bit.
template <class V, class Finder>
bool same_as_per_boid_query(std::size_t i, const boids::flock_config<V>& cfg, const Finder& pairs,
                            const std::vector<V>& v, const boids::neighborhood_summary<V>& got,
                            std::vector<boids::neighbor<boids::scalar_t<V>, boids::dimension_v<V>>>& buffer) {
    auto same = [](const V& a, const V& b) { return std::memcmp(&a, &b, sizeof(V)) == 0; };
    const auto seen = boids::detail::gather_neighbors(i, pairs, boids::span<const V>(v), cfg, buffer);
    const auto want = boids::summarize(i, boids::span<const V>(v), seen, cfg.separate);
    return got.count == want.count && got.coincident == want.coincident &&
           same(got.coincident_push, want.coincident_push) && same(got.velocity_sum, want.velocity_sum) &&
           same(got.offset_sum, want.offset_sum) && same(got.push, want.push);
}

template <class V>
struct crowd_grid : boids::uniform_grid<V> {
    using boids::uniform_grid<V>::uniform_grid;
    [[nodiscard]] std::size_t crowded() const { return this->cells_.crowded.grids.size(); }
};
}  // namespace

TEST_CASE(
    "a capped metric flock spawned within a pixel beside a spread one: brute force's summaries, every boid on "
    "the kernel",
    "[flock][dense]") {
    // The spawn shares a few cells sized for the spread flock; its boids, and the spread
    // boids beside it, read the sub-cells of those cells around them. Centred on a
    // cell's corner (the spawn split across cells) or inside one near a torus's edge.
    const bool centred = GENERATE(true, false);
    const double at = centred ? 1000.0 : 14.0;
    boids::random_stream rng(21);
    std::vector<test::dvec2> p(4000), v(4000);
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double spread = i % 2 == 0 ? 0.5 : 300.0;
        p[i] = {at + rng.uniform(-spread, spread), at + rng.uniform(-spread, spread)};
        if (i % 2 == 1) p[i] = {std::fmod(p[i].x + 2000.0, 2000.0), std::fmod(p[i].y + 2000.0, 2000.0)};
        v[i] = boids::scale(boids::unit_direction<test::dvec2>(rng.next()), rng.uniform(60.0, 160.0));
    }
    struct variant {
        std::size_t cap;
        double angle;
    };
    for (auto edges : {boids::edges::toroidal, boids::edges::open})
        for (variant k : {variant{7, 270.0}, variant{256, 270.0}, variant{1, 360.0}}) {
            const auto cfg = packed_lesson_config(edges, k.angle, k.cap);
            crowd_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
            boids::flock_workspace<test::dvec2> ws;
            const auto got = summaries_of_step(cfg, p, v, grid, ws);
            CAPTURE(centred, static_cast<int>(edges), k.cap, k.angle, grid.cell_size());
            CHECK(grid.crowded() >= 1);
            CHECK(ws.report.path == boids::flock_path::fused_kernel);
            CHECK(spawn_summaries_off(cfg, p, v, got, test::dvec2{at, at}, 2.0 * cfg.view_radius) == 0);
        }
    // The same bits on 1 and 2 threads (tasks that start inside the spawn's cells).
    CHECK(same_bits_on_two_threads(packed_lesson_config(boids::edges::toroidal, 270.0, 7), p, v, 2));
    // 3D: a spawn in a ball of 0.05 beside boids spread through a cube of 300.
    std::vector<test::dvec3> p3(3000), v3(3000);
    for (std::size_t i = 0; i < p3.size(); ++i) {
        const double spread = i % 3 == 0 ? 150.0 : 0.05;
        p3[i] = boids::generate<test::dvec3>([&](std::size_t) { return 1000.0 + rng.uniform(-spread, spread); });
        v3[i] = boids::scale(boids::unit_direction<test::dvec3>(rng.next()), rng.uniform(60.0, 160.0));
    }
    for (variant k : {variant{7, 270.0}, variant{64, 360.0}}) {
        auto cfg3 = cube_config(2000.0);
        cfg3.world = open_world3d();
        cfg3.neighbors = boids::neighborhood_kind::metric;
        cfg3.view_radius = 40.0;
        cfg3.max_neighbors = k.cap;
        cfg3.view_angle = k.angle;
        crowd_grid<test::dvec3> grid3(cfg3.world, cfg3.view_radius);
        boids::flock_workspace<test::dvec3> ws3;
        const auto got3 = summaries_of_step(cfg3, p3, v3, grid3, ws3);
        CAPTURE(k.cap, k.angle, grid3.cell_size());
        CHECK(grid3.crowded() >= 1);
        CHECK(ws3.report.path == boids::flock_path::fused_kernel);
        CHECK(spawn_summaries_off(cfg3, p3, v3, got3, test::dvec3{1000.0, 1000.0, 1000.0}, 2.0 * cfg3.view_radius) ==
              0);
    }
}

TEST_CASE("boids stacked on one spot beyond the cap heed the lowest indices there, as all_pairs' per-boid query",
          "[flock][dense]") {
    // A flock spawned on one spot: each boid on it sees more others at distance 0 than
    // it heeds. A stack inside a cell, one on a torus's seam (a cell's edge), boids
    // around; stacks of hundreds, and of a thousand (crowded cells, whose sub-cells hold
    // the stacks: their boids skip the kernel).
    using V = test::dvec2;
    const std::size_t cap = GENERATE(std::size_t(7), std::size_t(40));
    const auto edges = GENERATE(boids::edges::toroidal, boids::edges::open);
    const std::size_t n = GENERATE(std::size_t(900), std::size_t(3000));
    auto cfg = boids::lesson::config<V>();
    cfg.world = boids::world<double, 2>::box(edges, {600.0, 600.0});
    cfg.max_neighbors = cap;
    boids::random_stream rng(8);
    std::vector<V> p(n), v(n);
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (i % 3 == 0) p[i] = V{217.3, 301.9};
        else if (i % 3 == 1) p[i] = V{0.0, 150.2};
        else p[i] = V{rng.uniform(0, 600), rng.uniform(0, 600)};
        v[i] = boids::scale(boids::unit_direction<V>(rng.next()), rng.uniform(60, 160));
    }
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    const auto got = summaries_of_step(cfg, p, v, grid, ws);
    CAPTURE(cap, static_cast<int>(edges), n, ws.report.reason);
    CHECK(ws.report.off_kernel.on_one_spot >= 2 * n / 3);
    CHECK(summaries_off_brute_force(cfg, p, v, got) == 0);
    // Those on a spot: the per-boid query's neighbours and sums over them, bit for bit.
    boids::all_pairs<V> pairs(cfg.world);
    pairs.build(boids::span<const V>(p));
    std::vector<boids::neighbor<double, 2>> buffer;
    std::size_t differ = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (i % 3 == 2) continue;
        if (!same_as_per_boid_query(i, cfg, pairs, v, got[i], buffer)) ++differ;
    }
    CHECK(differ == 0);
}

TEST_CASE("a cap or k beyond the flock allocates by the flock: 1 << 30, SIZE_MAX and 0 count every neighbour",
          "[flock][dense][finite]") {
    std::vector<test::dvec2> p0, v0;
    packed_flock(10, 800, 200.0, p0, v0);
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.world = boids::world<double, 2>::box(boids::edges::toroidal, {2000.0, 2000.0});
    auto run = [&](std::size_t cap, auto& finder, boids::neighborhood_kind kind) {
        auto c = cfg;
        c.max_neighbors = cap;
        c.neighbors = kind;
        c.k = cap;
        auto p = p0, v = v0;
        boids::flock_workspace<test::dvec2> ws;
        boids::flock_step(boids::span<test::dvec2>(p), boids::span<test::dvec2>(v), c, finder, ws, 1.0 / 60);
        return std::make_pair(p, v);
    };
    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
    boids::all_pairs<test::dvec2> pairs(cfg.world);
    const auto metric = boids::neighborhood_kind::metric;
    const auto none = run(boids::no_cap, grid, metric);
    for (std::size_t cap : {std::size_t(1) << 30, std::numeric_limits<std::size_t>::max(), std::size_t(0)}) {
        CAPTURE(cap);
        const auto got = run(cap, grid, metric);
        CHECK(same_bits(got.first, none.first));
        CHECK(same_bits(got.second, none.second));
        const auto per_boid = run(cap, pairs, metric);  // the per-boid path: its buffer grows by what it finds
        CHECK(same_bits(per_boid.first, run(boids::no_cap, pairs, metric).first));
        const auto topological = run(std::size_t(1) << 30, grid, boids::neighborhood_kind::topological);
        CHECK(same_bits(topological.first, run(p0.size() - 1, grid, boids::neighborhood_kind::topological).first));
    }
}

TEST_CASE(
    "a capped flock on a lattice in a crowded cell, tied at the cap, with twins: brute force's summaries, "
    "the per-boid query's bits where the kernel hands a boid over",
    "[flock][dense]") {
    // A spawn in rows: the nearest max_neighbors of nearly every boid end within a tie in
    // distance, and some boids share a point with a twin (on one spot, fewer than the
    // cap): the per-boid path, which looks for them in balls widened from where the
    // kernel found the nearest, not the whole radius.
    using V = test::dvec2;
    const std::size_t cap = GENERATE(std::size_t(7), std::size_t(40));
    const double angle = GENERATE(270.0, 360.0);
    const auto edges = GENERATE(boids::edges::toroidal, boids::edges::open);
    auto cfg = boids::lesson::config<V>();
    cfg.world = boids::world<double, 2>::box(edges, {600.0, 600.0});
    cfg.max_neighbors = cap;
    cfg.view_angle = angle;
    boids::random_stream rng(12);
    std::vector<V> p, v;
    std::vector<int> on_lattice;
    for (int row = 0; row < 24; ++row)
        for (int col = 0; col < 24; ++col) {
            const V at{217.0 + col / 8.0, 301.0 + row / 8.0};
            for (int twin = 0; twin < ((row * 24 + col) % 7 == 3 ? 2 : 1); ++twin) {
                p.push_back(at);
                on_lattice.push_back(twin + 1);
            }
        }
    for (int i = 0; i < 600; ++i) {
        p.push_back(V{rng.uniform(0, 600), rng.uniform(0, 600)});
        on_lattice.push_back(0);
    }
    for (std::size_t i = 0; i < p.size(); ++i) v.push_back(boids::scale(boids::unit_direction<V>(rng.next()), 100.0));
    crowd_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    const auto got = summaries_of_step(cfg, p, v, grid, ws);
    CAPTURE(cap, angle, static_cast<int>(edges), ws.report.reason);
    REQUIRE(grid.crowded() >= 1);
    CHECK(ws.report.boids_off_kernel > 100);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
        if ((on_lattice[i] > 0 || i % 10 == 0) && !matches_brute_force(i, cfg, p, v, got[i])) ++wrong;
    CHECK(wrong == 0);
    // Where the nearest max_neighbors end in a tie (by brute force), or a twin is seen:
    // the per-boid query's neighbours and sums over them, bit for bit.
    boids::all_pairs<V> pairs(cfg.world);
    pairs.build(boids::span<const V>(p));
    std::vector<boids::neighbor<double, 2>> buffer;
    std::size_t handed = 0, differ = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (on_lattice[i] == 0) continue;
        buffer.clear();
        const auto cone = boids::vision_cone<double, 2>::from(v[i], cfg.view_angle);
        pairs.for_each_within(i, cfg.view_radius, cone,
                              [&](const boids::neighbor<double, 2>& nb) { buffer.push_back(nb); });
        std::sort(buffer.begin(), buffer.end(),
                  [](const auto& a, const auto& b) { return a.distance_squared < b.distance_squared; });
        const bool tie = buffer.size() > cap && buffer[cap - 1].distance_squared == buffer[cap].distance_squared;
        const bool twin = !buffer.empty() && buffer[0].distance_squared == 0.0;
        if (!tie && !twin) continue;
        ++handed;
        if (!same_as_per_boid_query(i, cfg, pairs, v, got[i], buffer)) ++differ;
    }
    CHECK(handed > 100);
    CHECK(differ == 0);
}

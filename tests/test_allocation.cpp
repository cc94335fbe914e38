// No allocation in a steady-state step: a counting global operator new, in a test
// program of its own so the replacement touches nothing else.
#include "test_support.hpp"
#include "batched_topological.hpp"
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>
#include <boids/crowd/orca.hpp>
#include <boids/flock/step.hpp>
#include <boids/models/lesson.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/auto_finder.hpp>
#include <boids/neighbors/hashed_grid.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include <boids/models/starling.hpp>
#include "crowd_circle.hpp"
#include "plain_vectors.hpp"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t size) {
    ++g_allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    std::abort();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {
template <class Finder>
long allocations_after_first_step(Finder finder, boids::neighborhood_kind kind) {
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.neighbors = kind;
    std::vector<test::dvec2> p, v;
    boids::lesson::scatter(1, cfg, p, v, 500);
    boids::flock_workspace<test::dvec2> ws;
    boids::span<test::dvec2> ps(p), vs(v);
    boids::flock_step(ps, vs, cfg, finder, ws, 1.0 / 60);  // the first step sizes every buffer
    const long before = g_allocations.load();
    for (int s = 0; s < 20; ++s) boids::flock_step(ps, vs, cfg, finder, ws, 1.0 / 60);
    return g_allocations.load() - before;
}
}  // namespace

TEST_CASE("a steady-state flock step allocates nothing", "[flock][allocation]") {
    const auto cfg = boids::lesson::config<test::dvec2>();
    for (auto kind : {boids::neighborhood_kind::metric, boids::neighborhood_kind::topological}) {
        CHECK(allocations_after_first_step(boids::all_pairs<test::dvec2>(cfg.world), kind) == 0);
        CHECK(allocations_after_first_step(boids::uniform_grid<test::dvec2>(cfg.world, cfg.view_radius), kind) == 0);
        CHECK(allocations_after_first_step(boids::hashed_grid<test::dvec2>(cfg.world, cfg.view_radius), kind) == 0);
        CHECK(allocations_after_first_step(boids::auto_finder<test::dvec2>(cfg.world, cfg.view_radius), kind) == 0);
    }
    // The counter itself works: a vector allocates.
    const long before = g_allocations.load();
    std::vector<int> probe(10);
    CHECK(g_allocations.load() > before);
}

TEST_CASE("a steady-state step on a thread_pool allocates nothing, the grid built in parallel",
          "[flock][allocation][threads]") {
    // 10,000 boids: above the size where the grid's build is split into tasks.
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.world.size = {3000, 2000};
    boids::thread_pool pool(2);
    for (auto kind : {boids::neighborhood_kind::metric, boids::neighborhood_kind::topological}) {
        cfg.neighbors = kind;
        std::vector<test::dvec2> p, v;
        boids::lesson::scatter(2, cfg, p, v, 10000);
        boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
        boids::flock_workspace<test::dvec2> ws;
        boids::span<test::dvec2> ps(p), vs(v);
        boids::flock_step(ps, vs, cfg, grid, ws, 1.0 / 60, pool);
        const long before = g_allocations.load();
        for (int s = 0; s < 5; ++s) boids::flock_step(ps, vs, cfg, grid, ws, 1.0 / 60, pool);
        CHECK(g_allocations.load() - before == 0);
    }
}

TEST_CASE("a steady-state topological step whose boids finish in batches allocates nothing", "[flock][allocation]") {
    // Linear rules: the grid's topological step finishes boids pack-wide (flock/detail/finish.hpp).
    const auto cfg = test::batched_topological_config<test::dvec2>(40);
    REQUIRE(boids::detail::batch_finish_supported(cfg));
    std::vector<test::dvec2> p, v;
    boids::lesson::scatter(3, cfg, p, v, 1500);
    boids::uniform_grid<test::dvec2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<test::dvec2> ws;
    boids::span<test::dvec2> ps(p), vs(v);
    boids::flock_step(ps, vs, cfg, grid, ws, 0.1);
    const long before = g_allocations.load();
    for (int s = 0; s < 5; ++s) boids::flock_step(ps, vs, cfg, grid, ws, 0.1);
    CHECK(g_allocations.load() - before == 0);
}

TEST_CASE("a steady-state starling step allocates nothing, disturbances included", "[starling][allocation]") {
    const boids::starling::params<double> model;
    std::vector<test::dvec3> p, v;
    boids::starling::starting_cloud(1, 400, model, p, v);
    boids::starling::flock<test::dvec3> f(model, p.size());
    boids::span<test::dvec3> ps(p), vs(v);
    for (int s = 0; s < 30; ++s) f.step(ps, vs);  // the first steps size every buffer
    const long before = g_allocations.load();
    for (int s = 0; s < 180; ++s) f.step(ps, vs);  // 1 s to 7 s: the first disturbance starts at 5 s
    CHECK(g_allocations.load() - before == 0);
    CHECK(f.disturbances().size() == 1);
}

TEST_CASE("a steady-state crowd step allocates nothing, in the crush at the centre", "[crowd][allocation]") {
    // RVO2's circle of 250 agents: they meet at the centre from about step 350, where
    // the projection's list of pairs near contact is at its longest.
    boids::thread_pool pool(2);
    for (const bool threads : {false, true}) {
        for (const double patience : {10.0, 0.0}) {
            test::crowd_circle scene(250, 1);
            scene.config.patience = patience;
            boids::uniform_grid<test::dvec2> grid(boids::world_for<test::dvec2>{}, scene.config.neighbor_distance);
            boids::crowd_workspace<test::dvec2> ws;
            auto step = [&] {
                scene.aim();
                if (threads) boids::crowd_step(scene.agents(), scene.config, grid, ws, pool);
                else boids::crowd_step(scene.agents(), scene.config, grid, ws);
            };
            for (int s = 0; s < 450; ++s) step();  // the first steps size every buffer
            const long before = g_allocations.load();
            for (int s = 0; s < 100; ++s) step();
            CHECK(g_allocations.load() - before == 0);
            CHECK(ws.last_overlaps > 0);  // in the crush: the projection has pairs to push
        }
    }
}

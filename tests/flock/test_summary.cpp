// Tests of boids/flock/summary.hpp and the open flock step (flock/step.hpp): a blend of your
// own on every path, the ready-made blend's bits, and the path report.
#include "test_support.hpp"
#include <cstring>
#include <vector>
#include <boids/boids.hpp>
#include "plain_vectors.hpp"

namespace {
template <class V>
bool same_bits(const std::vector<V>& a, const std::vector<V>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(V)) == 0;
}

// The flock after `steps` steps with `blend` (or the ready-made one when none).
template <class V, class Finder, class... Blend>
std::pair<std::vector<V>, std::vector<V>> run(const boids::flock_config<V>& cfg, Finder finder, int steps,
                                              std::size_t n, boids::flock_workspace<V>& ws, const Blend&... blend) {
    std::vector<V> p, v;
    boids::lesson::scatter(21, cfg, p, v, n);
    if (!p.empty()) p[1] = p[0];  // two boids on one spot: the per-boid path's coincident push
    for (int s = 0; s < steps; ++s) boids::flock_step(p, v, cfg, finder, ws, 1.0 / 60, blend...);
    return {p, v};
}
}  // namespace

TEST_CASE("summary: the sums over a neighbourhood, by hand", "[summary]") {
    using V = test::dvec2;
    const std::vector<V> vel{{1, 0}, {0, 2}, {4, 4}};
    const boids::neighbor<double, 2> nbrs[] = {{1, 4.0, {2, 0}}, {2, 0.0, {0, 0}}};
    const boids::separation<V> sep{3.0, boids::separation_falloff::inverse_square, 1.0, 7};
    const auto s = boids::summarize<V>(0, vel, boids::neighborhood<V>(nbrs, 2), sep);
    CHECK(s.count == 2);
    CHECK((s.offset_sum.x == 2 && s.offset_sum.y == 0));
    CHECK((s.velocity_sum.x == 4 && s.velocity_sum.y == 6));
    CHECK((s.push.x == -0.5 && s.push.y == 0));  // -1/d^2 * offset
    CHECK(s.coincident == 1);
    CHECK(boids::length(s.coincident_push) == Approx(1.0));
    CHECK((s.mean_velocity().x == 2 && s.mean_velocity().y == 3));
    CHECK((s.mean_offset().x == 1 && s.mean_offset().y == 0));
    const boids::neighborhood_summary<V> none;
    CHECK(boids::is_zero(none.mean_velocity()));
}

TEST_CASE("a blend of your own that equals the ready-made one gives its bits, on every path", "[summary][flock]") {
    using V = test::dvec2;
    auto cfg = boids::lesson::config<V>();
    SECTION("the lesson: metric, a cone, the lesson's forms") {}
    SECTION("a predator") {
        cfg.has_predator = true;
        cfg.predator = V{450, 270};
    }
    SECTION("no cone, linear forms, a torus") {
        cfg.view_angle = 360;
        cfg.world.kind = boids::edges::toroidal;
        cfg.separate.falloff = boids::separation_falloff::linear;
        cfg.separate.strength = 40;
        cfg.align = {boids::social_form::linear, 1.0};
        cfg.cohere = {boids::social_form::linear, 0.5};
    }
    SECTION("topological") {
        cfg.neighbors = boids::neighborhood_kind::topological;
        cfg.k = 7;
    }
    SECTION("by index") { cfg.order = boids::neighbor_order::by_index; }
    // A lambda is not the ready-made type: its step never takes the batched last stage.
    auto mine = [&](const boids::boid_view<V>& b, const boids::neighborhood_summary<V>& s) {
        return boids::flock_rules<V>(cfg)(b, s);
    };
#if defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)
    // The compiler may fuse a * b + c (as under -march=native), differently in the
    // ready-made blend's pack code and in the per-boid code: then one step, and closeness.
    const int steps = 1;
    auto same = [](const std::vector<V>& a, const std::vector<V>& b) {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!(boids::distance(a[i], b[i]) <= 1e-9 * (1 + boids::length(b[i])))) return false;
        return a.size() == b.size();
    };
#else
    const int steps = 60;
    auto same = [](const std::vector<V>& a, const std::vector<V>& b) { return same_bits(a, b); };
#endif
    boids::flock_workspace<V> ws1, ws2, ws3, ws4;
    const auto ready = run(cfg, boids::uniform_grid<V>(cfg.world, cfg.view_radius), steps, 400, ws1);
    const auto own = run(cfg, boids::uniform_grid<V>(cfg.world, cfg.view_radius), steps, 400, ws2, mine);
    CHECK(same(ready.first, own.first));
    CHECK(same(ready.second, own.second));
    const auto hashed_ready = run(cfg, boids::hashed_grid<V>(cfg.world, cfg.view_radius), steps, 200, ws3);
    const auto hashed_own = run(cfg, boids::hashed_grid<V>(cfg.world, cfg.view_radius), steps, 200, ws4, mine);
    CHECK(same(hashed_ready.first, hashed_own.first));
    CHECK(same(hashed_ready.second, hashed_own.second));
}

TEST_CASE("the rules as blend parts, with seek beside them, give the ready-made blend plus seek", "[summary][blend]") {
    using V = test::dvec2;
    auto cfg = boids::lesson::config<V>();
    const auto lim = cfg.limits;
    const auto parts =
        boids::make_weighted_blend(lim.max_force, boids::weight(1.8, boids::separation_rule<V>{cfg.separate, lim}),
                                   boids::weight(1.0, boids::alignment_rule<V>{cfg.align, lim}),
                                   boids::weight(0.8, boids::cohesion_rule<V>{cfg.cohere, lim}));
    const auto with_seek = boids::make_weighted_blend(lim.max_force, boids::weight(1.0, parts),
                                                      boids::weight(0.5, boids::seek<V>{V{450, 270}, lim}));
    boids::flock_workspace<V> ws1, ws2, ws3;
    const auto ready = run(cfg, boids::uniform_grid<V>(cfg.world, cfg.view_radius), 60, 300, ws1);
    const auto rules = run(cfg, boids::uniform_grid<V>(cfg.world, cfg.view_radius), 60, 300, ws2, parts);
    const auto seeking = run(cfg, boids::uniform_grid<V>(cfg.world, cfg.view_radius), 60, 300, ws3, with_seek);
    double worst = 0;
    for (std::size_t i = 0; i < ready.first.size(); ++i)
        worst = std::max(worst, boids::distance(ready.first[i], rules.first[i]));
    CHECK(worst < 1e-9);                       // the same sum, up to the sign of a zero term
    double centre_ready = 0, centre_seek = 0;  // seek pulls the flock toward the middle
    for (std::size_t i = 0; i < ready.first.size(); ++i) {
        centre_ready += boids::distance(ready.first[i], V{450, 270});
        centre_seek += boids::distance(seeking.first[i], V{450, 270});
    }
    CHECK(centre_seek < centre_ready);
}

TEST_CASE("the path report names the path and why", "[summary][flock]") {
    using V = test::dvec2;
    auto cfg = boids::lesson::config<V>();
    boids::flock_workspace<V> ws;
    std::vector<V> p, v;
    boids::lesson::scatter(3, cfg, p, v, 300);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    CHECK(ws.report.path == boids::flock_path::none);
    auto step = [&](const boids::flock_config<V>& c, auto& finder) {
        boids::flock_step(p, v, c, finder, ws, 1.0 / 60);
    };
    auto reason = [&] { return std::string(ws.report.reason); };
    step(cfg, grid);  // a cone: on the kernel
    CHECK(ws.report.path == boids::flock_path::fused_kernel);
    auto c = cfg;
    c.has_predator = true;
    c.predator = V{100, 100};
    step(c, grid);
    CHECK(ws.report.path == boids::flock_path::fused_kernel);
    c = cfg;
    c.neighbors = boids::neighborhood_kind::topological;
    step(c, grid);
    CHECK(ws.report.path == boids::flock_path::per_boid);
    CHECK(reason().find("topological") != std::string::npos);
    boids::all_pairs<V> pairs(cfg.world);
    step(cfg, pairs);
    CHECK(ws.report.path == boids::flock_path::per_boid);
    CHECK(reason().find("not a dense grid") != std::string::npos);
    c = cfg;
    c.world.kind = boids::edges::toroidal;
    boids::uniform_grid<V> torus(c.world, c.view_radius);
    p[5] = V{-3, 50};  // outside the torus's box
    step(c, torus);
    CHECK(ws.report.path == boids::flock_path::per_boid);
    CHECK(reason().find("outside the box") != std::string::npos);
    step(c, torus);  // the step wrapped it back in
    CHECK(ws.report.path == boids::flock_path::fused_kernel);
    CHECK(ws.report.boids_off_kernel == 0);
    p[7] = p[8];  // two boids on one spot: the kernel hands them to the per-boid path, and says so
    step(cfg, grid);
    CHECK(ws.report.path == boids::flock_path::mixed);
    CHECK(ws.report.boids_off_kernel >= 2);
    CHECK(ws.report.off_kernel.on_one_spot == ws.report.boids_off_kernel);
    CHECK(reason().find("very spot") != std::string::npos);
}

TEST_CASE("a blend's answer that is not finite counts as zero", "[summary][contract]") {
    using V = test::dvec2;
    auto cfg = boids::lesson::config<V>();
    std::vector<V> p, v;
    boids::lesson::scatter(4, cfg, p, v, 100);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    auto broken = [](const boids::boid_view<V>& b, const boids::neighborhood_summary<V>&) {
        return b.index % 2 == 0 ? V{std::nan(""), 1} : V{1e300 * 1e10, 0};
    };
    for (int s = 0; s < 10; ++s) boids::flock_step(p, v, cfg, grid, ws, 1.0 / 60, broken);
    bool finite = true;
    for (std::size_t i = 0; i < p.size(); ++i) finite = finite && boids::is_finite(p[i]) && boids::is_finite(v[i]);
    CHECK(finite);
}

TEST_CASE("the summary's nearest neighbour, on the kernel and on the per-boid path", "[summary]") {
    using V = test::dvec2;
    auto cfg = boids::lesson::config<V>();
    cfg.view_angle = 360;
    cfg.world.kind = boids::edges::toroidal;
    cfg.world.size = {3000, 1800};  // sparse: about one boid in four alone
    SECTION("metric: the fused kernel") {}
    SECTION("topological: the per-boid path") {
        cfg.neighbors = boids::neighborhood_kind::topological;
        cfg.k = 5;
    }
    std::vector<V> p, v;
    boids::lesson::scatter(8, cfg, p, v, 600);
    std::vector<double> seen(p.size(), -1);
    auto record = [&](const boids::boid_view<V>& b, const boids::neighborhood_summary<V>& s) {
        seen[b.index] = s.nearest_distance_squared;
        return boids::zero<V>();
    };
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    const auto p0 = p;
    boids::flock_step(p, v, cfg, grid, ws, 1.0 / 60, record);
    boids::all_pairs<V> ref(cfg.world);
    ref.build(boids::span<const V>(p0));
    std::size_t with = 0, without = 0;
    bool all = true;
    for (std::size_t i = 0; i < p0.size(); ++i) {
        double best = std::numeric_limits<double>::infinity();
        ref.for_each_within(i, cfg.view_radius, [&](const auto& n) { best = std::min(best, n.distance_squared); });
#if defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)
        // a * b + c may be fused (-march=native), differently in the kernel's packs and here
        all = all && (seen[i] == best || std::fabs(seen[i] - best) <= 1e-12 * best);
#else
        all = all && seen[i] == best;
#endif
        (std::isinf(best) ? without : with) += 1;
    }
    CHECK(all);
    CHECK(with > 100);
    CHECK(without > 50);  // boids alone: infinity
}

// The finite-in, finite-out contract (docs/reliability.md), point by point: for
// finite valid input every function returns finite values.
#include "test_support.hpp"
#include <limits>
#include <vector>
#include <boids/boids.hpp>
#include "plain_vectors.hpp"

namespace {
template <class V>
bool finite_all(const std::vector<V>& xs) {
    for (const auto& x : xs)
        if (!boids::is_finite(x)) return false;
    return true;
}
}  // namespace

TEMPLATE_TEST_CASE("behaviours on degenerate input stay finite", "[contract]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{10, 20, S(0.5), 0};
    const V z = boids::zero<V>();
    // Zero vectors everywhere, the target on the agent, zero radii.
    CHECK(boids::is_finite(boids::seek<V>{z, lim}(z, z)));
    CHECK(boids::is_finite(boids::flee<V>{z, S(0), lim}(z, z)));
    CHECK(boids::is_finite(boids::arrive<V>{z, S(0), lim, S(0)}(z, z)));
    CHECK(boids::is_finite(boids::arrive<V>{z, S(0), lim, S(0), boids::arrive_ramp::linear}(z, z)));
    CHECK(boids::is_finite(boids::steer_toward(z, z, S(1e-30), S(1e30))));
    // dt = 0 and a very large dt.
    for (S dt : {S(0), S(1e6)}) {
        V p = test::make<V>(1, 2), v = test::make<V>(3, 4);
        boids::integrate(p, v, test::make<V>(1e30, -1e30), dt, lim);
        CHECK(boids::is_finite(p));
        CHECK(test::len(v) <= 10.0 * (1 + 1e-6));
    }
}

TEST_CASE("flock steps on degenerate flocks stay finite", "[contract]") {
    using V = test::dvec2;
    for (auto kind : {boids::neighborhood_kind::metric, boids::neighborhood_kind::topological}) {
        for (double angle : {0.0, 270.0, 360.0}) {
            for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(30)}) {
                auto cfg = boids::lesson::config<V>();
                cfg.neighbors = kind;
                cfg.view_angle = angle;
                cfg.k = 50;  // k larger than the flock
                CAPTURE(static_cast<int>(kind), angle, n);
                std::vector<V> p(n, V{450, 270}), v(n, V{0, 0});  // all on one spot, at rest
                boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
                boids::flock_workspace<V> ws;
                for (double dt : {0.0, 1.0 / 60, 1e6, 1.0 / 60}) {
                    boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, dt);
                    CHECK(finite_all(p));
                    CHECK(finite_all(v));
                }
            }
        }
    }
}

TEST_CASE("finders answer radius 0 and empty flocks", "[contract]") {
    using V = test::dvec2;
    std::vector<V> p{V{1, 1}, V{1, 1}, V{2, 1}};
    const auto world = boids::world<double, 2>::box(boids::edges::toroidal, {10, 10});
    boids::uniform_grid<V> grid(world, 1.0);
    grid.build(boids::span<const V>(p));
    std::size_t seen = 0;
    grid.for_each_within(0, 0.0, [&](const boids::neighbor<double, 2>& n) {
        CHECK(n.index == 1);  // only the boid on the same spot
        ++seen;
    });
    CHECK(seen == 1);
    std::vector<V> none;
    grid.build(boids::span<const V>(none));
    CHECK(grid.size() == 0);
    CHECK(boids::mean_nearest_distance(boids::span<const V>(none)) == 0);
}

TEST_CASE("validate() names the field and the reason", "[contract]") {
    auto cfg = boids::lesson::config<test::dvec2>();
    cfg.view_radius = 1e-200;  // its square underflows
    const auto v = cfg.validate();
    CHECK_FALSE(v.ok());
    CHECK(std::string(v.field) == "view_radius");
    CHECK(std::string(v.reason).find("square") != std::string::npos);
    cfg = boids::lesson::config<test::dvec2>();
    cfg.alignment_weight = -1;
    CHECK(std::string(cfg.validate().field) == "weights");
    cfg = boids::lesson::config<test::dvec2>();
    cfg.limits.reaction_time = std::numeric_limits<double>::infinity();
    CHECK(std::string(cfg.validate().field) == "reaction_time");
}

// What a Release build does with the inputs that BOIDS_ASSERT guards (asserts are
// off here): something defined and finite, never a silent wrong answer.
#if defined(NDEBUG)
TEST_CASE("guarded inputs get defined answers where asserts are off", "[contract][release]") {
    using V = test::dvec2;
    const V z{0, 0};
    // A reaction time that is not > 0: the limit toward zero, max_force toward desired.
    for (double tau : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
        const V a = boids::steer_toward(V{3, 4}, z, tau, 2.0);
        CHECK(a.x == Approx(1.2));
        CHECK(a.y == Approx(1.6));
        CHECK(boids::is_zero(boids::steer_toward(V{1, 1}, V{1, 1}, tau, 2.0)));
    }
    // A negative or NaN dt moves nothing.
    for (double dt : {-0.5, std::numeric_limits<double>::quiet_NaN()}) {
        V p{1, 2}, v{3, 4};
        boids::integrate(p, v, V{1, 1}, dt, 10.0);
        CHECK((p.x == 1 && p.y == 2 && v.x == 3 && v.y == 4));
    }
    // A negative limit gives zero, not a vector turned round.
    CHECK(boids::is_zero(boids::clamp_magnitude(V{3, 4}, -5.0)));
    // flock_step with arrays of different sizes steps the boids that have both.
    auto cfg = boids::lesson::config<V>();
    std::vector<V> p{{100, 100}, {110, 100}, {400, 300}}, v{{10, 0}, {10, 0}};
    std::vector<V> p2(p.begin(), p.begin() + 2), v2 = v;
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, 1.0 / 60);
    boids::flock_step(boids::span<V>(p2), boids::span<V>(v2), cfg, grid, ws, 1.0 / 60);
    CHECK((p[0].x == p2[0].x && p[1].y == p2[1].y && v[1].x == v2[1].x));
    CHECK((p[2].x == 400 && p[2].y == 300));  // the third has no velocity: untouched
    // Grids with a cell size that is not finite and > 0 still find every neighbour.
    std::vector<V> cloud;
    boids::random_stream rng(3);
    for (int i = 0; i < 200; ++i) {
        const double x = rng.uniform(0, 10);
        const double y = rng.uniform(0, 10);
        cloud.push_back(V{x, y});
    }
    for (auto kind : {boids::edges::open, boids::edges::bounded, boids::edges::toroidal}) {
        boids::world_for<V> w;
        w.kind = kind;
        if (kind != boids::edges::open) w.size = {10, 10};
        boids::all_pairs<V> ref(w);
        ref.build(boids::span<const V>(cloud));
        for (double cell :
             {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
            CAPTURE(static_cast<int>(kind), cell);
            boids::uniform_grid<V> u(w, cell);
            boids::hashed_grid<V> h(w, cell);
            u.build(boids::span<const V>(cloud));
            h.build(boids::span<const V>(cloud));
            std::size_t nr = 0, nu = 0, nh = 0;
            for (std::size_t i = 0; i < cloud.size(); ++i) {
                ref.for_each_within(i, 1.5, [&](const auto&) { ++nr; });
                u.for_each_within(i, 1.5, [&](const auto&) { ++nu; });
                h.for_each_within(i, 1.5, [&](const auto&) { ++nh; });
            }
            CHECK(nr > 200);
            CHECK(nu == nr);
            CHECK(nh == nr);
        }
    }
}
#endif

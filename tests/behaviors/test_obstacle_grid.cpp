// Tests of boids/behaviors/obstacle_grid.hpp: a query selects exactly the obstacles whose
// surface lies within its radius, once each, in the order given, whatever the bucket, in
// 2D and 3D; avoid_obstacles and context_steering given the obstacles within their
// obstacle_range() answer bit for bit as with all of them; odd input selects nothing
// rather than failing.
#include "agent_sim.hpp"
#include <boids/behaviors/avoid_obstacles.hpp>
#include <boids/behaviors/context.hpp>
#include <boids/behaviors/obstacle_grid.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {
template <class V>
using obstacles_of = std::vector<boids::sphere<V>>;

// Each coordinate drawn in turn (arguments of one call are evaluated in an order compilers choose).
template <class V>
V draw(std::mt19937& rng, std::uniform_real_distribution<double>& d) {
    double c[3] = {0, 0, 0};
    for (std::size_t i = 0; i < boids::dimension_v<V>; ++i) c[i] = d(rng);
    return test::make<V>(c[0], c[1], c[2]);
}

// A 1,000-wide level (a square in 2D, a cube in 3D) of `count` obstacles of radius 2 to
// 20, a few of them 60 to 150 wide (wider than most buckets), some overlapping.
template <class V>
obstacles_of<V> level(std::size_t count, unsigned seed) {
    using S = boids::scalar_t<V>;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coordinate(0, 1000), small(2, 20), large(60, 150);
    obstacles_of<V> o;
    for (std::size_t i = 0; i < count; ++i) {
        const V c = draw<V>(rng, coordinate);
        o.push_back({c, S(i % 97 == 5 ? large(rng) : small(rng))});
    }
    return o;
}

template <class V>
bool same_bits(const V& a, const V& b) {
    for (std::size_t i = 0; i < boids::dimension_v<V>; ++i) {
        const auto x = boids::get(a, i), y = boids::get(b, i);
        if (std::memcmp(&x, &y, sizeof x) != 0) return false;
    }
    return true;
}

template <class V>
std::vector<std::uint32_t> within(const obstacles_of<V>& obstacles, const V& p, boids::scalar_t<V> radius) {
    std::vector<std::uint32_t> want;
    for (std::size_t i = 0; i < obstacles.size(); ++i)
        if (boids::distance(p, obstacles[i].centre) - obstacles[i].radius <= radius)
            want.push_back(static_cast<std::uint32_t>(i));
    return want;
}

template <class V>
boids::steering_limits<boids::scalar_t<V>> limits() {
    using S = boids::scalar_t<V>;
    return {S(60), S(720), S(2.5 / 60), S(0)};
}
}  // namespace

TEMPLATE_TEST_CASE("obstacle_grid::near selects the obstacles within the radius, once each, in the order given",
                   "[obstacle_grid]", BOIDS_VEC2_TYPES, BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const obstacles_of<V> obstacles = level<V>(600, 1);
    std::mt19937 rng(2);
    std::uniform_real_distribution<double> coordinate(-100, 1100), radius(0, 150);
    boids::obstacle_selection<V> got;
    // Buckets far smaller than the queries, about their size, far larger, and chosen by the grid.
    for (const double bucket : {2.0, 50.0, 5000.0, 0.0}) {
        const boids::obstacle_grid<V> grid(boids::span<const boids::sphere<V>>(obstacles), static_cast<S>(bucket));
        CAPTURE(bucket);
        CHECK(grid.bucket() > S(0));
        // The side used: as asked, unless the level would need more than about 4 buckets
        // an obstacle (2,400 over its 1,000 a side).
        const double buckets = std::pow(1000 / static_cast<double>(grid.bucket()), double(boids::dimension_v<V>));
        CHECK(buckets <= 2400);
        if (bucket == 50.0 && boids::dimension_v<V> == 2) CHECK(grid.bucket() == S(50));
        if (bucket == 2.0) CHECK(buckets > 1000);                    // grown no more than it needs
        if (bucket == 0.0) CHECK((buckets > 150 && buckets < 600));  // about two obstacles a bucket
        std::size_t selected = 0;
        for (int q = 0; q < 300; ++q) {
            const V p = draw<V>(rng, coordinate);
            const S r = S(radius(rng));
            grid.near(p, r, got);
            const std::vector<std::uint32_t> want = within(obstacles, p, r);
            CAPTURE(q);
            REQUIRE(got.indices == want);
            REQUIRE(got.obstacles.size() == want.size());
            for (std::size_t k = 0; k < want.size(); ++k) {
                CHECK(same_bits(got.obstacles[k].centre, obstacles[want[k]].centre));
                CHECK(got.obstacles[k].radius == obstacles[want[k]].radius);
            }
            CHECK(got.view().size() == want.size());
            selected += want.size();
        }
        CHECK(selected > 300);  // the queries did select obstacles
    }
}

TEMPLATE_TEST_CASE("avoid_obstacles given the obstacles within its obstacle_range() answers as with all of them",
                   "[obstacle_grid][avoid_obstacles]", BOIDS_VEC2_TYPES, BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const bool flat = boids::dimension_v<V> == 2;
    const obstacles_of<V> obstacles = level<V>(flat ? 1000 : 8000, 3);
    const boids::obstacle_grid<V> grid(boids::span<const boids::sphere<V>>(obstacles), S(40));
    std::mt19937 rng(4);
    std::uniform_real_distribution<double> coordinate(0, 1000), velocity(-60, 60);
    boids::obstacle_selection<V> near;
    for (const S clearance : {S(0.1), S(1)}) {
        boids::avoid_obstacles<V> all{boids::span<const boids::sphere<V>>(obstacles), S(4), limits<V>()};
        all.clearance = clearance;
        // The range reaches past the detection box (30 + 2.5 of braking, and the agent's
        // radius): its side is as wide as an obstacle's reach, and further for wider ones.
        const boids::sphere_range<S> range = all.obstacle_range(test::make<V>(60, 0));
        CHECK(range.distance > S(4 + 30 + 2.5 + 4));
        CHECK(range.distance < S(4 + 30 + 2.5 + 4 + 2 * clearance * 4));
        CHECK(range.per_radius > S(0.4));
        int pushed = 0, same = 0, same_within_box = 0;
        std::size_t selected = 0;
        const int calls = 3000;
        for (int i = 0; i < calls; ++i) {
            const V p = draw<V>(rng, coordinate);
            const V v = draw<V>(rng, velocity);
            const V want = all(p, v);
            grid.near(p, all.obstacle_range(v), near);
            boids::avoid_obstacles<V> given = all;
            given.obstacles = near.view();
            same += same_bits(want, given(p, v));
            selected += near.obstacles.size();
            pushed += !boids::is_zero(want);
            // Given only those whose surface lies within the detection box's length: not
            // always the same, since the box is as wide as the obstacle's reach.
            const S speed = boids::length(v);
            grid.near(p, all.agent_radius + speed * all.look_ahead + speed * speed / (S(2) * all.limits.max_force),
                      near);
            given.obstacles = near.view();
            same_within_box += same_bits(want, given(p, v));
        }
        CAPTURE(clearance, same_within_box);
        CHECK(same == calls);
        CHECK(same_within_box < calls);
        CHECK(pushed > calls / 10);                                    // the calls met obstacles
        CHECK(selected < std::size_t(calls) * obstacles.size() / 50);  // and were given a small share of them
    }
    // A whole run: an agent crossing the level at full speed, avoiding ahead of seeking,
    // takes the same path.
    const boids::avoid_obstacles<V> avoid{boids::span<const boids::sphere<V>>(obstacles), S(4), limits<V>()};
    const boids::seek<V> go{test::make<V>(1000, 1000, 1000), limits<V>()};
    test::agent<V> a{test::make<V>(0, 0, 0), test::make<V>(40, 40, 40)}, b = a;
    int steps_same = 0, steps = 0, avoiding = 0;
    const auto step = [&](test::agent<V>& x, bool selected) {
        boids::avoid_obstacles<V> f = avoid;
        if (selected) {
            grid.near(x.p, f.obstacle_range(x.v), near);
            f.obstacles = near.view();
        }
        V acc = f(x.p, x.v);
        if (boids::is_zero(acc)) acc = go(x.p, x.v);
        else if (selected) ++avoiding;
        boids::integrate(x.p, x.v, acc, S(1.0 / 60), f.limits);
    };
    for (; steps < 1200; ++steps) {
        step(a, false);
        step(b, true);
        steps_same += same_bits(a.p, b.p) && same_bits(a.v, b.v);
    }
    CHECK(steps_same == steps);
    CHECK(avoiding > 20);  // it did steer round obstacles
}

TEMPLATE_TEST_CASE("context_steering given the obstacles within its obstacle_range() answers as with all of them",
                   "[obstacle_grid][context_steering]", BOIDS_VEC2_TYPES, BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const obstacles_of<V> obstacles = level<V>(boids::dimension_v<V> == 2 ? 1000 : 8000, 5);
    const boids::obstacle_grid<V> grid(boids::span<const boids::sphere<V>>(obstacles), S(40));
    boids::context_steering<V> all{boids::span<const boids::sphere<V>>(obstacles), S(4), S(50), limits<V>()};
    all.goal = test::make<V>(500, 500, 500);
    const boids::sphere_range<S> range = all.obstacle_range();
    CHECK(range.distance > S(54));
    CHECK(range.distance < S(54.1));
    CHECK(range.per_radius < S(1e-3));
    std::mt19937 rng(6);
    std::uniform_real_distribution<double> coordinate(0, 1000), velocity(-60, 60);
    boids::obstacle_selection<V> near;
    int same = 0, endangered = 0;
    const int calls = 1500;
    for (int i = 0; i < calls; ++i) {
        const V p = draw<V>(rng, coordinate);
        const V v = draw<V>(rng, velocity);
        const V want = all(p, v);
        grid.near(p, range, near);
        boids::context_steering<V> given = all;
        given.obstacles = near.view();
        same += same_bits(want, given(p, v));
        endangered += near.obstacles.empty() ? 0 : 1;
    }
    CHECK(same == calls);
    CHECK(endangered > calls / 10);
}

TEMPLATE_TEST_CASE("obstacle_grid: no obstacles, obstacles that are not finite, odd radii and positions",
                   "[obstacle_grid]", BOIDS_VEC2_TYPES, BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const S inf = std::numeric_limits<S>::infinity(), nan = std::numeric_limits<S>::quiet_NaN();
    boids::obstacle_selection<V> got;
    {
        const boids::obstacle_grid<V> empty(boids::span<const boids::sphere<V>>(), S(10));
        empty.near(test::make<V>(0, 0), inf, got);
        CHECK(got.indices.empty());
        CHECK(empty.obstacles().empty());
    }
    const obstacles_of<V> obstacles{
        {test::make<V>(0, 0), S(2)},  {test::make<V>(nan, 0), S(1)},    {test::make<V>(3, 5), S(0)},  // a point
        {test::make<V>(1, 1), inf},   {test::make<V>(100, 100), S(40)}, {test::make<V>(-inf, 2), S(1)},
        {test::make<V>(6, 4), S(-1)},  // no obstacle at all: never met
        {test::make<V>(2, 2), nan}};
    for (const double bucket : {-1.0, 0.0, static_cast<double>(nan), static_cast<double>(inf), 1e-6, 7.0}) {
        const boids::obstacle_grid<V> grid(boids::span<const boids::sphere<V>>(obstacles), static_cast<S>(bucket));
        CAPTURE(bucket);
        CHECK(grid.obstacles().size() == obstacles.size());
        CHECK((grid.bucket() > S(0) && std::isfinite(static_cast<double>(grid.bucket()))));
        grid.near(test::make<V>(3, 4), inf, got);
        CHECK(got.indices == std::vector<std::uint32_t>{0, 2, 4, 6});  // every finite obstacle
        grid.near(test::make<V>(3, 4), S(1), got);
        CHECK(got.indices == std::vector<std::uint32_t>{2});  // the point, 1 away
        grid.near(test::make<V>(3, 4), S(3), got);
        CHECK(got.indices == std::vector<std::uint32_t>{0, 2});  // 5 - 2 and 1 (the last, 3 + 1)
        grid.near(test::make<V>(3, 4), S(0.5), got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(100, 60), S(0), got);
        CHECK(got.indices == std::vector<std::uint32_t>{4});  // on its surface
        grid.near(test::make<V>(3, 4), nan, got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(3, 4), S(-1), got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(nan, 4), S(1000), got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(inf, 4), inf, got);
        CHECK(got.indices.empty());
        // A range that grows with the radius: at (3, 4) the circle of 2 lies 3 away, at
        // (100, 1) the circle of 40 lies 59 away.
        grid.near(test::make<V>(3, 4), boids::sphere_range<S>{S(2), S(0.5)}, got);
        CHECK(got.indices == std::vector<std::uint32_t>{0, 2});  // 3 within 2 + 2 x 0.5
        grid.near(test::make<V>(3, 4), boids::sphere_range<S>{S(2), S(0.4)}, got);
        CHECK(got.indices == std::vector<std::uint32_t>{2});
        grid.near(test::make<V>(100, 1), boids::sphere_range<S>{S(40), S(0.5)}, got);
        CHECK(got.indices == std::vector<std::uint32_t>{4});  // 59 within 40 + 40 x 0.5
        grid.near(test::make<V>(100, 1), boids::sphere_range<S>{S(40), S(0.45)}, got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(3, 4), boids::sphere_range<S>{S(1), nan}, got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(3, 4), boids::sphere_range<S>{S(1), S(-1)}, got);
        CHECK(got.indices.empty());
    }
    // Parameters that are not numbers give an infinite range (every obstacle), never NaN.
    boids::avoid_obstacles<V> avoid{boids::span<const boids::sphere<V>>(), S(1), limits<V>()};
    CHECK(avoid.obstacle_range(test::make<V>(0, 0)).distance >= S(1));  // standing still: its own radius
    CHECK(avoid.obstacle_range(test::make<V>(inf, 0)).distance == inf);
    avoid.look_ahead = nan;
    CHECK(avoid.obstacle_range(test::make<V>(1, 0)).distance == inf);
    avoid.look_ahead = S(0.5);
    avoid.clearance = S(-1);  // nothing aside counts: the box ahead, or standing inside
    CHECK(avoid.obstacle_range(test::make<V>(1, 0)).distance >= S(1));
    CHECK(avoid.obstacle_range(test::make<V>(1, 0)).per_radius < S(1e-3));
    // Outside the parameters' meaningful values: every obstacle.
    avoid.clearance = S(-3);
    CHECK(avoid.obstacle_range(test::make<V>(1, 0)).distance == inf);
    avoid.clearance = S(0.1);
    avoid.agent_radius = S(-5);
    CHECK(avoid.obstacle_range(test::make<V>(0, 0)).distance == inf);
    boids::context_steering<V> context{boids::span<const boids::sphere<V>>(), S(1), nan, limits<V>()};
    CHECK(context.obstacle_range().distance == inf);
    context.look_ahead = S(-2);  // no ray counts; standing inside does
    CHECK(context.obstacle_range().distance >= S(1));
}

TEST_CASE("obstacle_grid: an obstacle whose distance rounds to the radius is selected", "[obstacle_grid]") {
    using V = glm::dvec2;
    // Centres a hair beyond the query's reach on each axis, their surface distance rounding to it.
    const double r = 31354, tiny = 7.4036710823662963e-171;
    const obstacles_of<V> obstacles{{V(0, 0), 1e-300}, {V(r + tiny, 0), 0}, {V(0, -r - tiny), 0}, {V(tiny, tiny), 0}};
    const boids::obstacle_grid<V> grid(boids::span<const boids::sphere<V>>(obstacles), 0);
    boids::obstacle_selection<V> got;
    grid.near(V(0, 0), r, got);
    CHECK(got.indices == within(obstacles, V(0, 0), r));
    CHECK(got.indices.size() == 4);
}

TEST_CASE("obstacle_grid: a steady-state query reuses the selection's storage", "[obstacle_grid]") {
    using V = glm::dvec3;
    const obstacles_of<V> obstacles = level<V>(2000, 8);
    const boids::obstacle_grid<V> grid(boids::span<const boids::sphere<V>>(obstacles), 40);
    boids::obstacle_selection<V> got;
    grid.near(V(500, 500, 500), 300, got);  // the largest query first
    const auto* indices = got.indices.data();
    const auto* selected = got.obstacles.data();
    const std::size_t most = got.obstacles.size();
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> coordinate(0, 1000);
    bool reused = true;
    for (int q = 0; q < 500; ++q) {
        grid.near(draw<V>(rng, coordinate), 40, got);
        reused = reused && got.indices.data() == indices && got.obstacles.data() == selected;
        CHECK(got.obstacles.size() < most);
    }
    CHECK(reused);
}

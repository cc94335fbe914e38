// Tests of boids/behaviors/wall_grid.hpp: a query selects exactly the walls within its
// radius, once each, in the order given, whatever the bucket; avoid_walls and
// follow_wall given the walls within their wall_range() answer bit for bit as with all
// the walls; odd input selects nothing rather than failing.
#include "agent_sim.hpp"
#include <boids/behaviors/follow_wall.hpp>
#include <boids/behaviors/wall_grid.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {
template <class V>
using walls_of = std::vector<boids::wall<V>>;

// A 1,000 x 1,000 level: its four sides and `count` walls 20 to 60 long at any angle,
// crossing as they fall, and a few posts (walls of no length).
template <class V>
walls_of<V> level(std::size_t count, unsigned seed) {
    using S = boids::scalar_t<V>;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coordinate(0, 1000), length(20, 60), angle(0, 6.283185307179586);
    walls_of<V> w{{test::make<V>(0, 0), test::make<V>(1000, 0)},
                  {test::make<V>(1000, 0), test::make<V>(1000, 1000)},
                  {test::make<V>(1000, 1000), test::make<V>(0, 1000)},
                  {test::make<V>(0, 1000), test::make<V>(0, 0)}};
    for (std::size_t i = 0; i < count; ++i) {
        const double x = coordinate(rng), y = coordinate(rng), l = i % 50 == 0 ? 0 : length(rng), a = angle(rng);
        w.push_back({test::make<V>(x, y), test::make<V>(S(x + l * std::cos(a)), S(y + l * std::sin(a)))});
    }
    return w;
}

// x drawn before y (arguments of one call are evaluated in an order compilers choose).
template <class V>
V draw(std::mt19937& rng, std::uniform_real_distribution<double>& d) {
    const double x = d(rng);
    const double y = d(rng);
    return test::make<V>(x, y);
}

template <class V>
bool same_bits(const V& a, const V& b) {
    for (std::size_t i = 0; i < 2; ++i) {
        const auto x = boids::get(a, i), y = boids::get(b, i);
        if (std::memcmp(&x, &y, sizeof x) != 0) return false;
    }
    return true;
}

// The behaviour's answer given only the walls the grid selects within `radius`.
template <class V, class Behavior>
V answer_near(const boids::wall_grid<V>& grid, Behavior behavior, boids::scalar_t<V> radius, const V& p, const V& v,
              boids::wall_selection<V>& near) {
    grid.near(p, radius, near);
    behavior.walls = near.view();
    return behavior(p, v);
}

template <class V>
boids::steering_limits<boids::scalar_t<V>> limits() {
    using S = boids::scalar_t<V>;
    return {S(60), S(720), S(2.5 / 60), S(0)};
}
}  // namespace

TEMPLATE_TEST_CASE("wall_grid::near selects the walls within the radius, once each, in the order given", "[wall_grid]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const walls_of<V> walls = level<V>(400, 1);
    std::mt19937 rng(2);
    std::uniform_real_distribution<double> coordinate(-100, 1100), radius(0, 150);
    boids::wall_selection<V> got;
    // Buckets far smaller than the queries, about their size, far larger, and chosen by the grid.
    for (const double bucket : {2.0, 50.0, 5000.0, 0.0}) {
        const boids::wall_grid<V> grid(boids::span<const boids::wall<V>>(walls), static_cast<S>(bucket));
        CHECK(grid.bucket() > S(0));
        // The side used: as asked, unless the level would need more than about 4 buckets
        // a wall (here 40 a side over its 1,000 and more).
        if (bucket == 50.0) CHECK(grid.bucket() == S(50));
        if (bucket == 2.0) CHECK(grid.bucket() > S(25));
        std::size_t selected = 0;
        for (int q = 0; q < 300; ++q) {
            const V p = draw<V>(rng, coordinate);
            const S r = S(radius(rng));
            grid.near(p, r, got);
            std::vector<std::uint32_t> want;
            for (std::size_t i = 0; i < walls.size(); ++i)
                if (boids::distance(p, boids::detail::nearest_on_wall(walls[i], p)) <= r)
                    want.push_back(static_cast<std::uint32_t>(i));
            CAPTURE(bucket, q);
            REQUIRE(got.indices == want);
            REQUIRE(got.walls.size() == want.size());
            for (std::size_t k = 0; k < want.size(); ++k) {
                CHECK(same_bits(got.walls[k].a, walls[want[k]].a));
                CHECK(same_bits(got.walls[k].b, walls[want[k]].b));
            }
            CHECK(got.view().size() == want.size());
            selected += want.size();
        }
        CHECK(selected > 300);  // the queries did select walls
    }
}

TEMPLATE_TEST_CASE("avoid_walls given the walls within its wall_range() answers as with all of them",
                   "[wall_grid][avoid_walls]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const walls_of<V> walls = level<V>(1000, 3);
    const boids::wall_grid<V> grid(boids::span<const boids::wall<V>>(walls), S(40));
    const boids::avoid_walls<V> all{boids::span<const boids::wall<V>>(walls), limits<V>(), S(30)};
    std::mt19937 rng(4);
    std::uniform_real_distribution<double> coordinate(0, 1000), velocity(-60, 60);
    boids::wall_selection<V> near;
    int pushed = 0, same = 0;
    std::size_t selected = 0;
    const int calls = 3000;
    for (int i = 0; i < calls; ++i) {
        const V p = draw<V>(rng, coordinate), v = draw<V>(rng, velocity);
        const V want = all(p, v);
        same += same_bits(want, answer_near(grid, all, all.wall_range(), p, v, near));
        pushed += !boids::is_zero(want);
        selected += near.walls.size();
    }
    CHECK(same == calls);
    CHECK(pushed > calls / 10);                                // the calls met walls
    CHECK(selected < std::size_t(calls) * walls.size() / 50);  // and were given a small share of them
}

TEMPLATE_TEST_CASE("follow_wall given the walls within its wall_range() answers as with all of them",
                   "[wall_grid][follow_wall]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const walls_of<V> walls = level<V>(1000, 5);
    const boids::wall_grid<V> grid(boids::span<const boids::wall<V>>(walls), S(40));
    std::mt19937 rng(6);
    std::uniform_real_distribution<double> coordinate(0, 1000), velocity(-60, 60);
    boids::wall_selection<V> near;
    for (const S look_ahead : {S(-1), S(1)}) {  // the default walk (10), and one of 60
        boids::follow_wall<V> all{
            boids::span<const boids::wall<V>>(walls), S(10), limits<V>(), boids::wall_side::right, look_ahead, S(30)};
        REQUIRE(all.validate().ok());
        const double range = static_cast<double>(all.wall_range());
        CHECK(range > 2 * 10 + 30);
        CHECK(range < (look_ahead < 0 ? 71 : 171));
        // Random calls: the same bits from the walls within the range; from those within
        // reach only, not always once the aim's walk is long (it reads walls further away).
        int same = 0, same_within_reach = 0, following = 0;
        const int calls = 2000;
        for (int i = 0; i < calls; ++i) {
            const V p = draw<V>(rng, coordinate);
            const V v = draw<V>(rng, velocity);
            const V want = all(p, v);
            same += same_bits(want, answer_near(grid, all, all.wall_range(), p, v, near));
            same_within_reach += same_bits(want, answer_near(grid, all, all.reach, p, v, near));
            following += !boids::is_zero(want);
        }
        CAPTURE(look_ahead, same_within_reach);
        CHECK(same == calls);
        if (look_ahead > 0) CHECK(same_within_reach < calls * 9 / 10);  // a walk of 60 reads far past reach
        CHECK(following > calls / 4);
        // A whole run: an agent following the walls for 20 s takes the same path.
        test::agent<V> a{test::make<V>(500, 500), test::make<V>(30, 0)}, b = a;
        int steps_same = 0, steps = 0;
        double travelled = 0;
        const auto step = [&](test::agent<V>& x, bool selected) {
            boids::follow_wall<V> f = all;
            if (selected) {
                grid.near(x.p, f.wall_range(), near);
                f.walls = near.view();
            }
            boids::integrate(x.p, x.v, f(x.p, x.v), S(1.0 / 60), f.limits);
        };
        for (; steps < 1200; ++steps) {
            const V before = a.p;
            step(a, false);
            step(b, true);
            steps_same += same_bits(a.p, b.p) && same_bits(a.v, b.v);
            travelled += static_cast<double>(boids::distance(before, a.p));
        }
        CHECK(steps_same == steps);
        CHECK(travelled > 600);  // it kept moving along the walls
    }
}

TEMPLATE_TEST_CASE("wall_grid: no walls, walls that are not finite, odd radii and positions", "[wall_grid]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const S inf = std::numeric_limits<S>::infinity(), nan = std::numeric_limits<S>::quiet_NaN();
    boids::wall_selection<V> got;
    {
        const boids::wall_grid<V> empty(boids::span<const boids::wall<V>>(), S(10));
        empty.near(test::make<V>(0, 0), inf, got);
        CHECK(got.indices.empty());
        CHECK(empty.walls().empty());
    }
    const walls_of<V> walls{{test::make<V>(0, 0), test::make<V>(10, 0)},
                            {test::make<V>(nan, 0), test::make<V>(5, 5)},
                            {test::make<V>(3, 3), test::make<V>(3, 3)},  // a post
                            {test::make<V>(-inf, 2), test::make<V>(0, 2)},
                            {test::make<V>(100, 100), test::make<V>(100, 120)}};
    for (const double bucket : {-1.0, 0.0, static_cast<double>(nan), static_cast<double>(inf), 1e-6, 7.0}) {
        const boids::wall_grid<V> grid(boids::span<const boids::wall<V>>(walls), static_cast<S>(bucket));
        CAPTURE(bucket);
        CHECK(grid.walls().size() == walls.size());
        CHECK((grid.bucket() > S(0) && std::isfinite(static_cast<double>(grid.bucket()))));
        grid.near(test::make<V>(3, 4), inf, got);
        CHECK(got.indices == std::vector<std::uint32_t>{0, 2, 4});  // every finite wall
        grid.near(test::make<V>(3, 4), S(1), got);
        CHECK(got.indices == std::vector<std::uint32_t>{2});  // the post, 1 away
        grid.near(test::make<V>(3, 4), S(0.5), got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(3, 4), nan, got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(3, 4), S(-1), got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(nan, 4), S(1000), got);
        CHECK(got.indices.empty());
        grid.near(test::make<V>(inf, 4), S(1000), got);
        CHECK(got.indices.empty());
    }
}

TEST_CASE("wall_grid: a wall whose distance rounds to the radius is selected, outside the box by a hair",
          "[wall_grid]") {
    using V = glm::dvec2;
    // The wall lies 7e-171 below y = 0, the query's box reaches down to 0: its distance,
    // 31354 + 7e-171, rounds to the radius.
    const double tiny = -7.4036710823662963e-171;
    const walls_of<V> walls{{V(2.5e-323, 0), V(0, 8.1e-320)}, {V(tiny, tiny), V(tiny, -7.2540736217240651e-171)}};
    const boids::wall_grid<V> grid(boids::span<const boids::wall<V>>(walls), 0);
    boids::wall_selection<V> got;
    grid.near(V(tiny, 31354), 31354, got);
    CHECK(got.indices == std::vector<std::uint32_t>{0, 1});
}

TEST_CASE("wall_grid: a steady-state query reuses the selection's storage", "[wall_grid]") {
    using V = glm::dvec2;
    const walls_of<V> walls = level<V>(1000, 8);
    const boids::wall_grid<V> grid(boids::span<const boids::wall<V>>(walls), 40);
    boids::wall_selection<V> got;
    grid.near(V(500, 500), 300, got);  // the largest query first
    const auto* indices = got.indices.data();
    const auto* selected = got.walls.data();
    const std::size_t most = got.walls.size();
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> coordinate(0, 1000);
    bool reused = true;
    for (int q = 0; q < 500; ++q) {
        grid.near(draw<V>(rng, coordinate), 40, got);
        reused = reused && got.indices.data() == indices && got.walls.data() == selected;
        CHECK(got.walls.size() < most);
    }
    CHECK(reused);
}

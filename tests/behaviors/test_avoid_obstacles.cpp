// Tests of boids/behaviors/avoid_obstacles.hpp.
#include "agent_sim.hpp"
#include <boids/behaviors/avoid_obstacles.hpp>
#include <boids/blend.hpp>
#include <boids/random.hpp>
#include <vector>

TEMPLATE_TEST_CASE("obstacle avoidance never enters an obstacle and still reaches its target", "[obstacles]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{8, 24, S(0.2), 0};
    const std::vector<boids::sphere<V>> rocks{
        {test::make<V>(20, 0.2, 0.1), S(4)}, {test::make<V>(35, -3), S(3)}, {test::make<V>(28, 8), S(2)}};
    const V target = test::make<V>(50, 0);
    const boids::avoid_obstacles<V> avoid{boids::span<const boids::sphere<V>>(rocks), S(0.5), lim};
    const boids::arrive<V> go{target, S(4), lim};
    double closest = 1e9;
    const auto end = test::run<V>(
        {test::make<V>(0, 0), test::make<V>(8, 0)}, lim, 30, 1.0 / 60,
        [&](const V& p, const V& v, double) {
            return boids::blend_priority(lim.max_force, S(1e-3), avoid(p, v), go(p, v));
        },
        [&](const test::agent<V>& a, double) {
            for (const auto& r : rocks)
                closest = std::min(closest, test::len(boids::sub(a.p, r.centre)) - static_cast<double>(r.radius));
        });
    CAPTURE(closest);
    CHECK(closest >= 0.5);  // its own radius: never inside
    CHECK(test::len(boids::sub(end.p, target)) < 1.0);
}

TEST_CASE("wall avoidance keeps a vehicle on its side of a wall", "[obstacles]") {
    struct v2 {
        double x, y;
    };
    using V = plain_vec2;
    const boids::steering_limits<float> lim{8, 30, 0.2f, 0};
    const boids::wall<V> walls[] = {{{10, -20}, {10, 20}}};
    const boids::avoid_walls<V> avoid{boids::span<const boids::wall<V>>(walls, 1), lim, 6.f};
    const boids::seek<V> go{{30, 0}, lim};  // the target is behind the wall
    double max_x = -1e9;
    test::run<V>(
        {{0, 0}, {8, 0}}, lim, 10, 1.0 / 60,
        [&](const V& p, const V& v, double) {
            return boids::blend_priority(lim.max_force, 1e-3f, avoid(p, v), go(p, v));
        },
        [&](const test::agent<V>& a, double) { max_x = std::max(max_x, static_cast<double>(a.p.x)); });
    CHECK(max_x < 10.0);
    (void)sizeof(v2);
}

TEST_CASE("a wall far beyond a feeler, nearly on its line, is not met", "[obstacles]") {
    using V = glm::dvec2;
    // The whisker at 45 degrees runs along y = x for 7.5; the wall lies on almost the same
    // line 2,800 further on. The crossing's fractions are rounding there (t came out -0).
    const boids::wall<V> far{V(8000, 8000.0000000000009), V(2000, 2000)};
    const V origin(2.6562507127018292e-313, 1.0012034364457862e-149);
    const V whisker = boids::detail::feelers<V>(V(1466.5, 8.2252328326221676e-314), 15.0).ray[1];
    CHECK(boids::detail::wall_crossing(origin, whisker, far) == -1.0);
    const boids::avoid_walls<V> avoid{boids::span<const boids::wall<V>>(&far, 1), {60, 720, 2.5 / 60, 0}, 15.0};
    CHECK(boids::is_zero(avoid(origin, V(1466.5, 8.2252328326221676e-314))));
    // The same wall moved onto the whisker's path is met, half-way along.
    const boids::wall<V> near{V(0, 10), V(10, 0)};
    const double t = boids::detail::wall_crossing(V(0, 0), V(7.5 / std::sqrt(2.0) * 2, 7.5 / std::sqrt(2.0) * 2), near);
    CHECK(t == Approx(0.471404520791).epsilon(1e-9));
}

TEMPLATE_TEST_CASE("containment never leaves its box", "[obstacles][containment]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{6, 12, S(0.25), 0};
    const V lo = test::make<V>(0, 0, 0), hi = test::make<V>(20, 10, 10);
    const boids::stay_within<V> box{lo, hi, lim};
    // Head straight for a wall at full speed, then bounce around with random pushes.
    bool inside = true;
    boids::random_stream rng(5);
    test::run<V>(
        {test::make<V>(10, 5, 5), test::make<V>(6, 1, -1)}, lim, 60, 1.0 / 60,
        [&](const V& p, const V& v, double) {
            const V noise = boids::scale(boids::unit_direction<V>(rng.next()), S(12));
            return boids::blend_priority(lim.max_force, S(1e-3), box(p, v), noise);
        },
        [&](const test::agent<V>& a, double) {
            for (std::size_t d = 0; d < boids::dimension_v<V>; ++d)
                inside = inside && boids::get(a.p, d) >= boids::get(lo, d) && boids::get(a.p, d) <= boids::get(hi, d);
        });
    CHECK(inside);
}

TEMPLATE_TEST_CASE("obstacle behaviours on degenerate input", "[obstacles][contract]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{6, 12, S(0.25), 0};
    const boids::sphere<V> rock{boids::zero<V>(), S(0)};
    const V z = boids::zero<V>();
    // Exactly on the centre of a zero-size obstacle, at rest: a finite push.
    CHECK(boids::is_finite(boids::avoid_obstacles<V>{boids::span<const boids::sphere<V>>(&rock, 1), S(0), lim}(z, z)));
    CHECK(boids::is_finite(boids::stay_within<V>{z, z, lim}(z, z)));
}

namespace {
// A caller's ray cast against 2D segments, written the way a game's would be: the
// first wall along the ray, its hit point and its normal.
struct segment_raycast {
    const boids::wall<plain_vec2>* walls;
    std::size_t count;
    int* calls;
    bool operator()(const plain_vec2& from, const plain_vec2& to, boids::ray_hit<plain_vec2>& hit) const {
        ++*calls;
        double best = 2;
        for (std::size_t i = 0; i < count; ++i) {
            const double ex = walls[i].b.x - walls[i].a.x, ey = walls[i].b.y - walls[i].a.y;
            const double rx = to.x - from.x, ry = to.y - from.y;
            const double denom = rx * ey - ry * ex;
            if (denom == 0) continue;
            const double ax = walls[i].a.x - from.x, ay = walls[i].a.y - from.y;
            const double t = (ax * ey - ay * ex) / denom, u = (ax * ry - ay * rx) / denom;
            if (t < 0 || t > 1 || u < 0 || u > 1 || t >= best) continue;
            best = t;
            hit.point = {static_cast<float>(from.x + t * rx), static_cast<float>(from.y + t * ry)};
            hit.normal = {static_cast<float>(ey), static_cast<float>(-ex)};  // either side will do
        }
        return best <= 1;
    }
};
}  // namespace

TEST_CASE("avoid_by_raycast over the caller's ray cast pushes as avoid_walls does", "[obstacles][raycast]") {
    using V = plain_vec2;
    const boids::steering_limits<float> lim{8, 30, 0.2f, 0};
    const boids::wall<V> walls[] = {{{10, -20}, {10, 20}}, {{-5, 8}, {25, 12}}, {{0, -9}, {14, -3}}};
    int calls = 0;
    const auto by_rays = boids::make_avoid_by_raycast<V>(segment_raycast{walls, 3, &calls}, lim, 6.f);
    const boids::avoid_walls<V> by_walls{boids::span<const boids::wall<V>>(walls, 3), lim, 6.f};
    boids::random_stream rng(11);
    int pushed = 0;
    for (int i = 0; i < 400; ++i) {
        const V p{static_cast<float>(rng.uniform(-5, 20)), static_cast<float>(rng.uniform(-12, 14))};
        const V v = boids::scale(boids::unit_direction<V>(rng.next()), static_cast<float>(rng.uniform(0.5, 8)));
        calls = 0;
        const V a = by_rays(p, v), b = by_walls(p, v);
        CHECK(calls == 3);
        CAPTURE(test::show(p), test::show(v), test::show(a), test::show(b));
        CHECK(test::near(a, b, 1e-3));
        pushed += boids::is_zero(b) ? 0 : 1;
    }
    CHECK(pushed > 50);  // the comparison covers pushes, not only quiet ground
    // Nothing met: no force; a hit with no usable normal is passed over.
    const auto nothing =
        boids::make_avoid_by_raycast<V>([](const V&, const V&, boids::ray_hit<V>&) { return false; }, lim, 6.f);
    CHECK(boids::is_zero(nothing(V{0, 0}, V{5, 0})));
    const auto no_normal = boids::make_avoid_by_raycast<V>(
        [](const V& from, const V&, boids::ray_hit<V>& hit) {
            hit.point = from;
            hit.normal = V{0, 0};
            return true;
        },
        lim, 6.f);
    CHECK(boids::is_zero(no_normal(V{0, 0}, V{0, 0})));
}

TEMPLATE_TEST_CASE("avoid_by_raycast in 3D keeps a diving flyer off the ground", "[obstacles][raycast]",
                   BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{8, 30, S(0.2), 0};
    int calls = 0;
    // The ground, y = 0, seen from above.
    auto ground = [&calls](const V& from, const V& to, boids::ray_hit<V>& hit) {
        ++calls;
        const S y0 = boids::get(from, 1), y1 = boids::get(to, 1);
        if (!(y0 >= S(0) && y1 < S(0))) return false;
        hit.point = boids::add_scaled(from, boids::sub(to, from), y0 / (y0 - y1));
        hit.normal = test::make<V>(0, 1, 0);
        return true;
    };
    const auto avoid = boids::make_avoid_by_raycast<V>(ground, lim, S(8));
    // Flying level 2 above it: the lower whisker (half length at 45 degrees, 2.8 down) meets
    // it and pushes up; all five feelers were cast.
    calls = 0;
    const V up = avoid(test::make<V>(0, 2, 0), test::make<V>(6, 0, 0));
    CHECK(calls == 5);
    CHECK(static_cast<double>(boids::get(up, 1)) > 0);
    CHECK(std::fabs(static_cast<double>(boids::get(up, 0))) < 1e-4);
    // A flyer diving at a target under the ground, avoidance first: it never goes below.
    const boids::seek<V> dive{test::make<V>(40, -30, 5), lim};
    double lowest = 1e9;
    test::run<V>(
        {test::make<V>(0, 12, 0), test::make<V>(4, -4, 0)}, lim, 10, 1.0 / 60,
        [&](const V& p, const V& v, double) {
            return boids::blend_priority(lim.max_force, S(1e-3), avoid(p, v), dive(p, v));
        },
        [&](const test::agent<V>& a, double) { lowest = std::min(lowest, static_cast<double>(boids::get(a.p, 1))); });
    CHECK(lowest > 0);
    CHECK(lowest < 4);  // it did come down to the ground
}

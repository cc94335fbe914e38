// Tests of boids/behaviors/follow_wall.hpp: the agent keeps its distance along walls,
// round corners and free ends, down ways too narrow for it, out of a room and a maze,
// never through a wall; and every odd input gives a finite answer.
#include "agent_sim.hpp"
#include <boids/behaviors/follow_wall.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
constexpr double pi = 3.14159265358979323846;

template <class V>
using walls_of = std::vector<boids::wall<V>>;

template <class V>
boids::wall<V> seg(double ax, double ay, double bx, double by) {
    return {test::make<V>(ax, ay), test::make<V>(bx, by)};
}
// A 200 x 200 room round the origin (a door in its right wall from y = -20 to 20 if asked).
template <class V>
walls_of<V> room(bool door = false) {
    walls_of<V> w{seg<V>(-100, -100, 100, -100), seg<V>(100, 100, -100, 100), seg<V>(-100, 100, -100, -100)};
    if (door) {
        w.push_back(seg<V>(100, -100, 100, -20));
        w.push_back(seg<V>(100, 20, 100, 100));
    } else {
        w.push_back(seg<V>(100, -100, 100, 100));
    }
    return w;
}
// A way 400 long and 2 half_width wide along the x axis, closed at both ends.
template <class V>
walls_of<V> closed_way(double half_width) {
    const double h = half_width;
    return {seg<V>(-200, -h, 200, -h), seg<V>(200, -h, 200, h), seg<V>(200, h, -200, h), seg<V>(-200, h, -200, -h)};
}

// The distance kept is 10; max_speed * reaction_time = 2.5 and max_speed^2 = max_force * 5,
// inside the range docs/behaviors.md states.
template <class V>
boids::steering_limits<boids::scalar_t<V>> limits() {
    using S = boids::scalar_t<V>;
    return {S(60), S(720), S(2.5 / 60), S(0)};
}

struct trace {
    double nearest = 1e300, furthest = 0;  // distance to the walls once settled
    double turned = 0;                     // rad round `centre`, counterclockwise positive
    double max_x = -1e300;
    int crossings = 0;
    bool finite = true;
};

template <class V>
double distance_to(const walls_of<V>& walls, const V& p) {
    return static_cast<double>(boids::detail::nearest_on_walls(boids::span<const boids::wall<V>>(walls), p).distance);
}

template <class V>
trace run_along(const walls_of<V>& walls, const boids::follow_wall<V>& follow, V p, V v, double seconds,
                double settle = 5, V centre = test::make<V>(0, 0)) {
    trace t;
    const auto lim = follow.limits;
    const boids::span<const boids::wall<V>> ws(walls);
    auto angle = [&](const V& q) {
        const V r = boids::sub(q, centre);
        return std::atan2(static_cast<double>(boids::get(r, 1)), static_cast<double>(boids::get(r, 0)));
    };
    double last = angle(p);
    V before = p;
    test::run<V>(
        {p, v}, lim, seconds, 1.0 / 60, [&](const V& q, const V& u, double) { return follow(q, u); },
        [&](const test::agent<V>& a, double time) {
            t.finite = t.finite && boids::is_finite(a.p) && boids::is_finite(a.v);
            if (boids::detail::crosses_a_wall(ws, before, a.p)) ++t.crossings;
            before = a.p;
            const double now = angle(a.p);
            double step = now - last;
            if (step > pi) step -= 2 * pi;
            if (step < -pi) step += 2 * pi;
            t.turned += step;
            last = now;
            t.max_x = std::max(t.max_x, static_cast<double>(boids::get(a.p, 0)));
            if (time < settle) return;
            const double d = distance_to(walls, a.p);
            t.nearest = std::min(t.nearest, d);
            t.furthest = std::max(t.furthest, d);
        });
    return t;
}
}  // namespace

TEMPLATE_TEST_CASE("follow_wall settles at its distance along a wall, on the hand asked", "[follow_wall]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const walls_of<V> floor{seg<V>(-5000, 0, 5000, 0)};
    for (const auto side : {boids::wall_side::right, boids::wall_side::left, boids::wall_side::either}) {
        for (const double vx : {0.0, -30.0}) {
            const boids::follow_wall<V> follow{boids::span<const boids::wall<V>>(floor), S(10), limits<V>(), side};
            REQUIRE(follow.validate().ok());
            test::agent<V> a{test::make<V>(0, 30), test::make<V>(vx, 0)};
            a = test::run<V>(a, follow.limits, 5, 1.0 / 60,
                             [&](const V& p, const V& v, double) { return follow(p, v); });
            // The floor below: on the right going +x, on the left going -x; `either`
            // keeps the way it was going (+x from rest).
            const bool plus_x = side == boids::wall_side::right || (side == boids::wall_side::either && vx == 0);
            CAPTURE(static_cast<int>(side), vx);
            CHECK(static_cast<double>(boids::get(a.p, 1)) == Approx(10).margin(0.1));
            CHECK(static_cast<double>(boids::get(a.v, 0)) == Approx(plus_x ? 60 : -60).margin(0.6));
            CHECK(std::fabs(static_cast<double>(boids::get(a.v, 1))) < 0.6);
        }
    }
}

TEMPLATE_TEST_CASE("follow_wall goes round a room inside and out, and round a free-standing wall", "[follow_wall]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const walls_of<V> box = room<V>();
    const walls_of<V> lone{seg<V>(-50, 0, 50, 0)};
    struct scene {
        const walls_of<V>* walls;
        V start;
        boids::wall_side side;
        double laps;  // counterclockwise positive, at least
    };
    // Inside with the wall on the right is counterclockwise; outside, on the left.
    const scene scenes[] = {{&box, test::make<V>(0, 0), boids::wall_side::right, 4},
                            {&box, test::make<V>(0, 0), boids::wall_side::left, -4},
                            {&box, test::make<V>(0, 150), boids::wall_side::left, 3.5},
                            {&box, test::make<V>(0, 150), boids::wall_side::right, -3.5},
                            {&lone, test::make<V>(0, 30), boids::wall_side::right, -10},
                            {&lone, test::make<V>(0, 30), boids::wall_side::left, 10}};
    for (const scene& s : scenes) {
        const boids::follow_wall<V> follow{boids::span<const boids::wall<V>>(*s.walls), S(10), limits<V>(), s.side};
        const trace t = run_along(*s.walls, follow, s.start, test::make<V>(0, 0), 60);
        CAPTURE(boids::get(s.start, 1), static_cast<int>(s.side), t.nearest, t.furthest, t.turned / (2 * pi));
        CHECK(t.finite);
        CHECK(t.crossings == 0);
        CHECK(t.nearest >= 8.0);    // round outer corners and free ends
        CHECK(t.furthest <= 15.0);  // across inner corners (their bisector is 14.1 away at 10)
        CHECK((s.laps > 0 ? t.turned / (2 * pi) >= s.laps : t.turned / (2 * pi) <= s.laps));
    }
}

TEMPLATE_TEST_CASE("follow_wall finds the door of a room and the way out of a maze, on either hand", "[follow_wall]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    for (const auto side : {boids::wall_side::right, boids::wall_side::left}) {
        CAPTURE(static_cast<int>(side));
        const walls_of<V> with_door = room<V>(true), without = room<V>(false);
        const boids::follow_wall<V> out{boids::span<const boids::wall<V>>(with_door), S(10), limits<V>(), side};
        const trace left_room = run_along(with_door, out, test::make<V>(-30, 40), test::make<V>(0, 0), 60);
        CHECK(left_room.max_x > 105);
        CHECK(left_room.crossings == 0);
        // Without the door it never leaves.
        const boids::follow_wall<V> in{boids::span<const boids::wall<V>>(without), S(10), limits<V>(), side};
        const trace stayed = run_along(without, in, test::make<V>(-30, 40), test::make<V>(0, 0), 60);
        CHECK(stayed.max_x < 100);
        CHECK(stayed.crossings == 0);

        // A maze of three lanes 66 wide joined end to end, the exit at the top of the right wall.
        const walls_of<V> maze{seg<V>(0, 0, 200, 0), seg<V>(200, 0, 200, 80), seg<V>(200, 120, 0, 120),
                               seg<V>(0, 120, 0, 0), seg<V>(66, 0, 66, 80),   seg<V>(133, 120, 133, 40)};
        const boids::follow_wall<V> solve{boids::span<const boids::wall<V>>(maze), S(10), limits<V>(), side};
        const trace solved = run_along(maze, solve, test::make<V>(30, 20), test::make<V>(0, 0), 90);
        CAPTURE(solved.max_x, solved.nearest);
        CHECK(solved.max_x > 205);
        CHECK(solved.crossings == 0);
        CHECK(solved.nearest >= 7.0);
    }
}

TEMPLATE_TEST_CASE("follow_wall keeps going down a way narrower than twice its distance", "[follow_wall]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    // 16 wide, 400 long, closed at both ends; the distance asked is 10.
    const walls_of<V> way = closed_way<V>(8);
    const boids::follow_wall<V> follow{boids::span<const boids::wall<V>>(way), S(10), limits<V>(),
                                       boids::wall_side::left};
    double travelled = 0;
    V before = test::make<V>(0, 0);
    int crossings = 0;
    test::run<V>(
        {before, test::make<V>(0, 0)}, follow.limits, 30, 1.0 / 60,
        [&](const V& p, const V& v, double) { return follow(p, v); },
        [&](const test::agent<V>& a, double) {
            travelled += test::len(boids::sub(a.p, before));
            if (boids::detail::crosses_a_wall(boids::span<const boids::wall<V>>(way), before, a.p)) ++crossings;
            before = a.p;
        });
    CAPTURE(travelled);
    CHECK(crossings == 0);
    CHECK(travelled > 0.5 * 60 * 30);  // on the move at better than half speed, end to end and back
}

TEMPLATE_TEST_CASE("follow_wall never aims through a way narrower than its distance", "[follow_wall]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    // 8 wide: the point `distance` (10) from one side lies past the other.
    const walls_of<V> way = closed_way<V>(4);
    for (const double look_ahead : {-1.0, 1.0}) {
        boids::follow_wall<V> follow{boids::span<const boids::wall<V>>(way), S(10), limits<V>(),
                                     boids::wall_side::right};
        follow.look_ahead = S(look_ahead);
        const trace t = run_along(way, follow, test::make<V>(0, -1), test::make<V>(0, 0), 30, 0);
        CAPTURE(look_ahead);
        CHECK(t.finite);
        CHECK(t.crossings == 0);
        CHECK(t.max_x > 150);
    }
}

TEST_CASE("follow_wall never crosses a wall among random walls, and its answer is always finite",
          "[follow_wall][fuzz]") {
    using V = glm::dvec2;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> coordinate(-200, 200);
    int crossings = 0, trials = 0;
    double nearest = 1e300, nearest_fast = 1e300;
    for (int trial = 0; trial < 240; ++trial) {
        walls_of<V> walls{seg<V>(-220, -220, 220, -220), seg<V>(220, -220, 220, 220), seg<V>(220, 220, -220, 220),
                          seg<V>(-220, 220, -220, -220)};
        for (int k = 0; k < 8; ++k)
            walls.push_back(seg<V>(coordinate(rng), coordinate(rng), coordinate(rng), coordinate(rng)));
        V p;
        do {
            p = V(coordinate(rng), coordinate(rng));
        } while (distance_to(walls, p) < 10);
        boids::follow_wall<V> follow{boids::span<const boids::wall<V>>(walls), 10, limits<V>(),
                                     trial % 2 ? boids::wall_side::right : boids::wall_side::left};
        // A third aim 1 s ahead (walk steps of 15, longer than the distance); a third
        // turn as slowly as the docs allow (max_speed * reaction_time = distance,
        // max_speed^2 = max_force * distance).
        const int kind = trial % 3;
        if (kind == 1) follow.look_ahead = 1;
        if (kind == 2) follow.limits = {60, 360, 1.0 / 6, 0};
        const trace t = run_along(walls, follow, p, V(coordinate(rng) * 0.3, coordinate(rng) * 0.3), 30, 2);
        CHECK(t.finite);
        crossings += t.crossings;
        (kind == 2 ? nearest_fast : nearest) = std::min(kind == 2 ? nearest_fast : nearest, t.nearest);
        ++trials;
    }
    CAPTURE(trials, nearest, nearest_fast);
    CHECK(crossings == 0);
    CHECK(nearest > 3.0);  // acute corners between random walls bring it closest
    CHECK(nearest_fast > 1.0);
}

TEMPLATE_TEST_CASE("follow_wall: no walls, out of reach, on a wall, on a point: finite", "[follow_wall]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V zero = test::make<V>(0, 0);
    const walls_of<V> none;
    boids::follow_wall<V> follow{boids::span<const boids::wall<V>>(none), S(10), limits<V>()};
    CHECK(boids::is_zero(follow(test::make<V>(3, 4), test::make<V>(1, 0))));

    const walls_of<V> floor{seg<V>(-100, 0, 100, 0)};
    follow.walls = boids::span<const boids::wall<V>>(floor);
    follow.reach = S(50);
    CHECK(boids::is_zero(follow(test::make<V>(0, 60), zero)));
    CHECK_FALSE(boids::is_zero(follow(test::make<V>(0, 40), zero)));

    // On the wall: back to the side it came from.
    const V off = follow(test::make<V>(0, 0), test::make<V>(0, -5));
    CHECK(boids::is_finite(off));
    CHECK(static_cast<double>(boids::get(off, 1)) > 0);
    CHECK(boids::is_finite(follow(test::make<V>(0, 0), zero)));
    CHECK(boids::is_finite(follow(test::make<V>(-100, 0), zero)));  // on an end
    CHECK(boids::is_zero(follow(test::make<V>(std::nan(""), 0), zero)));

    // A wall of no length is a post: the agent circles it.
    const walls_of<V> post{seg<V>(0, 0, 0, 0)};
    const boids::follow_wall<V> round{boids::span<const boids::wall<V>>(post), S(10), limits<V>()};
    const trace t = run_along(post, round, test::make<V>(0, 25), zero, 20);
    CAPTURE(t.nearest, t.furthest, t.turned);
    CHECK(t.finite);
    CHECK(t.nearest >= 8.0);
    CHECK(t.furthest <= 12.0);
    CHECK(t.turned <= -2 * 2 * pi);  // clockwise, the post on the right

    // Standing still at the distance asked: beside a wall it moves off along it, beside
    // the post it sets off round it (aiming across the curve, at most 45 degrees on).
    follow.reach = std::numeric_limits<S>::infinity();
    const V along = follow(test::make<V>(0, 10), zero);
    CHECK(static_cast<double>(boids::get(along, 0)) > 0);
    CHECK(std::fabs(static_cast<double>(boids::get(along, 1))) < 1e-3 * test::len(along));
    const V turning = round(test::make<V>(0, 10), zero);
    CHECK(static_cast<double>(boids::get(turning, 0)) > 0);
    CHECK(static_cast<double>(boids::get(turning, 1)) < 0);
    CHECK(-static_cast<double>(boids::get(turning, 1)) < static_cast<double>(boids::get(turning, 0)));
}

TEST_CASE("follow_wall::validate names the first field that is wrong", "[follow_wall]") {
    using V = glm::vec2;
    const walls_of<V> floor{seg<V>(-100, 0, 100, 0)};
    const boids::follow_wall<V> good{boids::span<const boids::wall<V>>(floor), 10.f, limits<V>()};
    REQUIRE(good.validate().ok());
    auto field_of = [](const boids::follow_wall<V>& f) {
        return std::string(f.validate().field ? f.validate().field : "");
    };
    const walls_of<V> bad_walls{seg<V>(0, 0, std::nan(""), 1)};
    auto f = good;
    f.walls = boids::span<const boids::wall<V>>(bad_walls);
    CHECK(field_of(f) == "walls");
    f = good;
    f.distance = 0;
    CHECK(field_of(f) == "distance");
    f = good;
    f.limits.reaction_time = 0;
    CHECK(field_of(f) == "reaction_time");
    f = good;
    f.look_ahead = std::nanf("");
    CHECK(field_of(f) == "look_ahead");
    f = good;
    f.reach = 0;
    CHECK(field_of(f) == "reach");
    CHECK(std::strlen(f.validate().reason) > 0);
}

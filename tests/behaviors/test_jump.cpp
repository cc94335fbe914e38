// Tests of boids/behaviors/jump.hpp: the flight lands where it should, the run-up
// reaches the take-off point at the speed the jump needs, and bad input is named.
#include "test_support.hpp"
#include <cmath>
#include <cstring>
#include <boids/behaviors/jump.hpp>
#include <boids/steer.hpp>

namespace {
// A side view in 2D (y up); in 3D gravity along -y too, so the ground is the x-z plane.
template <class V>
V down(double g) {
    return test::make<V>(0, -g, 0);
}
template <class V>
boids::jump<V> ledge_jump(const V& takeoff, const V& landing) {
    using S = boids::scalar_t<V>;
    return boids::jump<V>{takeoff, landing, down<V>(30), S(40), {S(120), S(300), S(0.2), S(0)}};
}
// Where a flight from `from` at `launch` is after t seconds (exact, no integrator).
template <class V>
V flight(const V& from, const V& launch, const V& gravity, double t) {
    return boids::generate<V>([&](std::size_t i) {
        const double p = static_cast<double>(boids::get(from, i)), v = static_cast<double>(boids::get(launch, i));
        return static_cast<boids::scalar_t<V>>(p + v * t + 0.5 * static_cast<double>(boids::get(gravity, i)) * t * t);
    });
}
}  // namespace

TEMPLATE_TEST_CASE("plan_jump comes down on the landing point, up, down or level", "[jump]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V from = test::make<V>(10, 5, -3);
    const V gravity = down<V>(30);
    for (const V landing :
         {test::make<V>(70, 5, -3), test::make<V>(60, 25, 4), test::make<V>(-40, -30, 9), test::make<V>(10, 5, -3)}) {
        const auto plan = boids::plan_jump(from, landing, gravity, S(40), S(1000));
        REQUIRE(plan.reachable);
        const double t = static_cast<double>(plan.flight_time);
        CHECK(t > 0);
        CHECK(test::near(flight(from, plan.launch_velocity, gravity, t), landing, 1e-3 * (1 + t)));
        // It leaves upward at the jump speed, and comes down (not up) on the landing.
        CHECK(static_cast<double>(boids::get(plan.launch_velocity, 1)) == Approx(40).epsilon(1e-5));
        CHECK(40 - 30 * t < 0);
        // The run-up part lies across gravity.
        CHECK(std::fabs(static_cast<double>(boids::get(plan.run_up_velocity, 1))) < 1e-4);
    }
}

TEMPLATE_TEST_CASE("plan_jump: a ledge too high, a gap too wide, no gravity: unreachable and finite", "[jump]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V from = test::make<V>(0, 0, 0);
    // 40 up at 30 down rises 40^2 / 60 = 26.7.
    CHECK(boids::plan_jump(from, test::make<V>(5, 26, 0), down<V>(30), S(40), S(100)).reachable);
    CHECK_FALSE(boids::plan_jump(from, test::make<V>(5, 27, 0), down<V>(30), S(40), S(100)).reachable);
    // Level, 2 * 40 / 30 = 2.67 s aloft: 266 across needs 99.75 / s, 268 needs 100.5 / s.
    CHECK(boids::plan_jump(from, test::make<V>(266, 0, 0), down<V>(30), S(40), S(100)).reachable);
    const auto wide = boids::plan_jump(from, test::make<V>(268, 0, 0), down<V>(30), S(40), S(100));
    CHECK_FALSE(wide.reachable);
    CHECK(static_cast<double>(boids::get(wide.run_up_velocity, 0)) == Approx(100.5).epsilon(1e-4));
    for (const V gravity : {boids::zero<V>(), test::make<V>(0, std::nan(""), 0)}) {
        const auto plan = boids::plan_jump(from, test::make<V>(5, 0, 0), gravity, S(40), S(100));
        CHECK_FALSE(plan.reachable);
        CHECK(boids::is_finite(plan.launch_velocity));
        CHECK(boids::is_finite(plan.run_up_velocity));
    }
    // No jump speed, landing on the spot: no flight at all.
    CHECK_FALSE(boids::plan_jump(from, from, down<V>(30), S(0), S(100)).reachable);
}

TEMPLATE_TEST_CASE("jump: the run-up reaches the take-off point at the run-up velocity, from anywhere", "[jump]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr bool flat = boids::dimension_v<V> == 2;
    const V takeoff = test::make<V>(100, 0, 20), landing = test::make<V>(220, -10, flat ? 0 : 60);
    const auto j = ledge_jump(takeoff, landing);
    REQUIRE(j.validate().ok());
    const auto plan = j.plan();
    REQUIRE(plan.reachable);
    const double run_speed = test::len(plan.run_up_velocity);
    const V run_way = boids::normalized_or_zero(plan.run_up_velocity);
    // Behind it at rest (in 3D, 32 to the side of the run-up's line); 80 behind on the
    // line (in 3D, 6 to its side); ahead of it (past the edge), at rest and running the
    // wrong way; standing on it; beside it and moving across (3D). From behind, near
    // the line and with room, it runs straight in: never backward.
    std::vector<std::pair<V, V>> starts = {
        {test::make<V>(0, 0, 20), boids::zero<V>()},
        {boids::add(boids::add_scaled(takeoff, run_way, S(-80)), test::make<V>(0, 0, flat ? 0 : 6)), boids::zero<V>()},
        {test::make<V>(130, 0, 20), boids::zero<V>()},
        {test::make<V>(110, 0, 20), test::make<V>(-100, 0, 0)},
        {takeoff, boids::zero<V>()},
    };
    if (!flat) starts.push_back({test::make<V>(40, 0, -30), test::make<V>(0, 0, 50)});
    // It never pushes along gravity, even for an agent above the ground and falling.
    for (const auto& [p, v] : starts) {
        const V a = j(boids::add(p, test::make<V>(0, 3, 0)), boids::add(v, test::make<V>(0, -4, 0)));
        CHECK(std::fabs(static_cast<double>(boids::get(a, 1))) < 1e-3);
        CHECK(test::len(a) > 1);
    }
    const S dt = S(1) / S(60);
    for (std::size_t k = 0; k < starts.size(); ++k) {
        auto [p, v] = starts[k];
        CAPTURE(k, test::show(p), test::show(v));
        bool ready = false;
        double fastest = 0, highest = 0, backward = 0;
        for (int step = 0; step < 60 * 30 && !ready; ++step) {
            const V a = j(p, v);
            REQUIRE(boids::is_finite(a));
            highest = std::max(highest, std::fabs(static_cast<double>(boids::get(a, 1))));
            boids::integrate(p, v, a, dt, j.limits);
            fastest = std::max(fastest, test::len(v));
            backward = std::max(backward, -static_cast<double>(boids::dot(v, run_way)));
            ready = j.ready(p, v);
        }
        REQUIRE(ready);
        CHECK(fastest <= 120 + 1e-3);
        CHECK(highest < 1e-3);
        if (k == 1 || (flat && k == 0)) CHECK(backward < 1e-3);
        // The take-off impulse is what the tolerances leave: the run-up did the work.
        const auto launch = j.plan_from(p);
        REQUIRE(launch.reachable);
        const V kick = boids::sub(launch.run_up_velocity, v);
        CHECK(test::len(kick) <= 1.0 + 0.05 * run_speed);
        CHECK(test::near(flight(p, launch.launch_velocity, j.gravity, static_cast<double>(launch.flight_time)), landing,
                         1e-2));
    }
}

TEMPLATE_TEST_CASE("jump: straight up, no force, zero vectors: finite, and standing on the spot", "[jump]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const V spot = test::make<V>(5, 0, 5);
    auto j = ledge_jump(spot, test::make<V>(5, 10, 5));  // a ledge straight above
    REQUIRE(j.plan().reachable);
    CHECK(test::len(j.plan().run_up_velocity) < 1e-4);
    CHECK(j.ready(spot, boids::zero<V>()));
    // Off the spot it walks back to it.
    const V a = j(test::make<V>(15, 0, 5), boids::zero<V>());
    CHECK(static_cast<double>(boids::get(a, 0)) < 0);
    CHECK(j.run_up_length() == Approx(1.0));  // only the position tolerance to spare
    // A ledge out of reach is never ready, even standing on the take-off point.
    j.landing = test::make<V>(5, 40, 5);
    CHECK_FALSE(j.plan().reachable);
    CHECK_FALSE(j.ready(spot, boids::zero<V>()));
    j.landing = test::make<V>(5, 10, 5);
    j.limits.max_force = 0;
    CHECK(boids::is_zero(j(test::make<V>(15, 0, 5), test::make<V>(3, 0, 0))));
    j.landing = test::make<V>(80, 0, 5);
    CHECK(std::isinf(static_cast<double>(j.run_up_length())));
    CHECK(boids::is_finite(j.run_up_start()));
    j.gravity = boids::zero<V>();
    j.limits.max_force = 300;
    CHECK(boids::is_finite(j(spot, boids::zero<V>())));
    CHECK(boids::is_finite(j(test::make<V>(1, 2, 3), test::make<V>(4, 5, 6))));
    (void)S(0);
}

TEST_CASE("jump::validate names the first field that is wrong", "[jump]") {
    using V = plain_vec2;
    const auto good = ledge_jump(test::make<V>(0, 0), test::make<V>(50, 0));
    REQUIRE(good.validate().ok());
    auto field_of = [](boids::jump<V> j) { return std::string(j.validate().field ? j.validate().field : ""); };
    auto j = good;
    j.takeoff = test::make<V>(std::nan(""), 0);
    CHECK(field_of(j) == "takeoff");
    j = good;
    j.landing = test::make<V>(0, HUGE_VAL);
    CHECK(field_of(j) == "landing");
    j = good;
    j.gravity = boids::zero<V>();
    CHECK(field_of(j) == "gravity");
    j = good;
    j.jump_speed = -1;
    CHECK(field_of(j) == "jump_speed");
    j = good;
    j.limits.reaction_time = 0;
    CHECK(field_of(j) == "reaction_time");
    j = good;
    j.position_tolerance = 0;
    CHECK(field_of(j) == "position_tolerance");
    j = good;
    j.velocity_tolerance = std::nan("");
    CHECK(field_of(j) == "velocity_tolerance");
    CHECK(std::strlen(j.validate().reason) > 0);
}

// Tests of boids/behaviors/orientation.hpp: turning to face, within the limits,
// without overshoot, the same at any frame rate.
#include "test_support.hpp"
#include <boids/behaviors/orientation.hpp>
#include <functional>
#include <vector>

namespace {
constexpr double pi = 3.141592653589793;

// Runs a 2D angular behaviour from `angle` at rest for `seconds`; calls watch(t, angle, w, a).
template <class S, class Turn, class Watch>
void spin(S& angle, S& w, const boids::angular_limits<S>& lim, double seconds, double dt, Turn&& turn, Watch&& watch) {
    const long steps = static_cast<long>(seconds / dt + 0.5);
    for (long i = 0; i < steps; ++i) {
        const S a = turn(angle, w, static_cast<double>(i) * dt);
        boids::integrate_orientation(angle, w, a, static_cast<S>(dt), lim);
        watch(static_cast<double>(i + 1) * dt, angle, w, a);
    }
}

template <class V>
double angle_between(const V& a, const V& b) {
    const double c = static_cast<double>(boids::dot(boids::normalized_or_zero(a), boids::normalized_or_zero(b)));
    return std::acos(std::clamp(c, -1.0, 1.0));
}

// Steps a 3D frame with `turn` for `seconds`; calls watch(t, frame, w, a).
template <class V, class Turn, class Watch>
void spin3(boids::local_frame<V>& o, V& w, const boids::angular_limits<boids::scalar_t<V>>& lim, double seconds,
           double dt, Turn&& turn, Watch&& watch) {
    const long steps = static_cast<long>(seconds / dt + 0.5);
    for (long i = 0; i < steps; ++i) {
        const V a = turn(o, w);
        boids::integrate_orientation(o, w, a, static_cast<boids::scalar_t<V>>(dt), lim);
        watch(static_cast<double>(i + 1) * dt, o, w, a);
    }
}
}  // namespace

TEST_CASE("wrap_angle and angle_difference take the short way round", "[orientation]") {
    CHECK(std::fabs(boids::wrap_angle(3 * pi)) == Approx(pi).margin(1e-12));
    CHECK(std::fabs(boids::wrap_angle(2 * pi)) < 1e-12);
    CHECK(boids::wrap_angle(-0.5) == Approx(-0.5));
    CHECK(boids::wrap_angle(std::nan("")) == 0.0);
    CHECK(boids::wrap_angle(1e300) >= -pi);
    CHECK(boids::wrap_angle(1e300) <= pi);
    // From 170 degrees to -170 degrees is 20 degrees counterclockwise, not 340 back.
    CHECK(boids::angle_difference(-170 * pi / 180, 170 * pi / 180) == Approx(20 * pi / 180));
    CHECK(boids::angle_difference(0.25f, -0.25f) == Approx(0.5f));
}

TEST_CASE("angular_limits name the field that is wrong", "[orientation]") {
    boids::angular_limits<double> lim;
    CHECK(lim.validate());
    lim.reaction_time = 0;
    CHECK(std::string(lim.validate().field) == "reaction_time");
    lim = {};
    lim.max_angular_speed = -1;
    CHECK(std::string(lim.validate().field) == "max_angular_speed");
    lim = {};
    lim.max_angular_acceleration = std::nan("");
    CHECK(std::string(lim.validate().field) == "max_angular_acceleration");
}

TEMPLATE_TEST_CASE("face turns to a target within the limits and settles without overshoot", "[orientation][face]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::angular_limits<S> lim{S(2), S(6), S(0.1)};
    for (const double bearing : {0.3, -1.2, 2.5, -3.1, 3.1}) {
        CAPTURE(bearing);
        const boids::face<V> f{test::make<V>(10 * std::cos(bearing), 10 * std::sin(bearing)), lim};
        S angle = 0, w = 0;
        double worst_speed = 0, worst_accel = 0, passed_by = 0;
        const double sign = bearing > 0 ? 1.0 : -1.0;
        spin(
            angle, w, lim, 4.0, 1.0 / 60, [&](S a, S om, double) { return f(test::make<V>(0, 0), {}, a, om); },
            [&](double, S a, S om, S acc) {
                worst_speed = std::max(worst_speed, std::fabs(static_cast<double>(om)));
                worst_accel = std::max(worst_accel, std::fabs(static_cast<double>(acc)));
                // Beyond the target: the remaining error changes sign.
                passed_by = std::max(passed_by, -sign * boids::angle_difference(bearing, static_cast<double>(a)));
            });
        CHECK(worst_speed <= 2 + 1e-6);
        CHECK(worst_accel <= 6 + 1e-5);
        CHECK(passed_by < 1e-6);
        CHECK(std::fabs(boids::angle_difference(bearing, static_cast<double>(angle))) < 2e-3);
        CHECK(std::fabs(static_cast<double>(w)) < 1e-2);
    }
}

TEMPLATE_TEST_CASE("face, look_where_going and match_orientation are finite on degenerate input", "[orientation]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::angular_limits<S> lim{};
    const V here = test::make<V>(3, 4);
    // A target on top of the agent and a still agent: brake the turn, nothing else.
    const S a1 = boids::face<V>{here, lim}(here, boids::zero<V>(), S(1), S(2));
    const S a2 = boids::look_where_going<V>{lim}(here, boids::zero<V>(), S(1), S(2));
    CHECK(a1 < 0);
    CHECK(a1 == a2);
    CHECK(boids::face<V>{here, lim}(here, boids::zero<V>(), S(1), S(0)) == 0);
    const S nan = std::numeric_limits<S>::quiet_NaN();
    CHECK(std::isfinite(boids::match_orientation<V>{nan, lim}(here, here, S(0), nan)));
    S angle = 1, w = 0.5f;
    boids::integrate_orientation(angle, w, S(100), S(0), lim);  // dt = 0: nothing moves
    CHECK(angle == 1);
    CHECK(w == S(0.5f));
}

TEMPLATE_TEST_CASE("look_where_going keeps the orientation on the velocity's heading", "[orientation]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::angular_limits<S> lim{S(3), S(12), S(0.1)};
    // Velocity turning at 0.5 rad/s: the orientation lags by a bounded, small angle.
    S angle = S(2), w = 0;  // starts looking the wrong way
    double late = 0;
    spin(
        angle, w, lim, 12.0, 1.0 / 60,
        [&](S a, S om, double t) {
            const V v = test::make<V>(5 * std::cos(0.5 * t), 5 * std::sin(0.5 * t));
            return boids::look_where_going<V>{lim}(test::make<V>(0, 0), v, a, om);
        },
        [&](double t, S a, S, S) {
            if (t > 4) late = std::max(late, std::fabs(boids::angle_difference(0.5 * t, static_cast<double>(a))));
        });
    // A critically damped follower of a ramp lags by rate * 4 tau (0.2 rad) at most.
    CHECK(late < 0.21);
    CHECK(late > 0);
}

TEMPLATE_TEST_CASE("2D turns agree at 30, 60 and 120 Hz within 2% of the angle turned", "[orientation][frame-rate]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::angular_limits<S> lim{};
    for (const double target : {2.9, -1.0, 0.4}) {
        CAPTURE(target);
        std::vector<std::vector<double>> runs;
        for (const double hz : {30.0, 60.0, 120.0}) {
            std::vector<double> samples;
            S angle = 0, w = 0;
            double next = 0.1;
            const boids::match_orientation<V> m{static_cast<S>(target), lim};
            spin(
                angle, w, lim, 3.0, 1.0 / hz,
                [&](S a, S om, double) { return m(boids::zero<V>(), boids::zero<V>(), a, om); },
                [&](double t, S a, S, S) {
                    if (t + 1e-9 >= next) {
                        samples.push_back(static_cast<double>(a));
                        next += 0.1;
                    }
                });
            runs.push_back(samples);
        }
        REQUIRE(runs[0].size() == 30);
        for (std::size_t r = 1; r < runs.size(); ++r)
            for (std::size_t k = 0; k < runs[0].size(); ++k)
                CHECK(std::fabs(runs[r][k] - runs[0][k]) <= 0.02 * std::fabs(target));
    }
}

TEMPLATE_TEST_CASE("3D face turns forward to the target, keeps the frame orthonormal, leaves the roll alone",
                   "[orientation][face]", BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::angular_limits<S> lim{S(2), S(6), S(0.1)};
    for (const V target :
         {test::make<V>(0, 5, 5), test::make<V>(-10, 0.5, 0), test::make<V>(-10, 0, 0), test::make<V>(1, -3, 2)}) {
        CAPTURE(test::show(target));
        auto o = boids::local_frame<V>::from_heading(test::make<V>(1, 0, 0));
        V w = boids::zero<V>();
        double worst_speed = 0, worst_frame = 0, last_error = 10, grew = 0;
        const boids::face<V> f{target, lim};
        spin3(
            o, w, lim, 5.0, 1.0 / 60, [&](const auto& fr, const V& om) { return f(boids::zero<V>(), {}, fr, om); },
            [&](double, const auto& fr, const V& om, const V&) {
                worst_speed = std::max(worst_speed, test::len(om));
                worst_frame = std::max(worst_frame, std::fabs(test::len(fr.forward) - 1));
                worst_frame = std::max(worst_frame, std::fabs(static_cast<double>(boids::dot(fr.forward, fr.up))));
                worst_frame = std::max(worst_frame, test::len(boids::sub(fr.side, boids::cross(fr.up, fr.forward))));
                const double e = angle_between(fr.forward, target);
                grew = std::max(grew, e - last_error);  // no overshoot: the error only shrinks
                last_error = e;
            });
        CHECK(worst_speed <= 2 + 1e-5);
        CHECK(worst_frame < 1e-4);
        CHECK(grew < (sizeof(S) == 4 ? 2e-3 : 1e-6));
        CHECK(angle_between(o.forward, target) < 5e-3);
    }
    // On top of the target: finite, nothing to do at rest.
    const auto o = boids::local_frame<V>::from_heading(test::make<V>(0, 0, 1));
    CHECK(boids::is_zero(boids::face<V>{boids::zero<V>(), lim}(boids::zero<V>(), {}, o, boids::zero<V>())));
}

TEMPLATE_TEST_CASE("align_up rolls the frame upright; match_orientation reaches a whole frame", "[orientation]",
                   BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::angular_limits<S> lim{};
    // Forward +x, rolled 120 degrees: up points down-ish.
    boids::local_frame<V> o;
    o.forward = test::make<V>(1, 0, 0);
    o.up = test::make<V>(0, std::cos(2.1), std::sin(2.1));
    o.side = boids::cross(o.up, o.forward);
    V w = boids::zero<V>();
    const boids::align_up<V> upright{test::make<V>(0, 1, 0), lim};
    double last = 10, grew = 0;
    spin3(
        o, w, lim, 4.0, 1.0 / 60, [&](const auto& fr, const V& om) { return upright({}, {}, fr, om); },
        [&](double, const auto& fr, const V&, const V&) {
            const double e = angle_between(fr.up, test::make<V>(0, 1, 0));
            grew = std::max(grew, e - last);
            last = e;
        });
    CHECK(grew < (sizeof(S) == 4 ? 2e-3 : 1e-6));
    CHECK(angle_between(o.up, test::make<V>(0, 1, 0)) < 5e-3);
    CHECK(angle_between(o.forward, test::make<V>(1, 0, 0)) < 1e-4);  // a roll only

    // A whole frame: looking up and back, rolled.
    boids::local_frame<V> goal;
    goal.forward = boids::normalized_or_zero(test::make<V>(-1, 1, 1));
    goal.up = boids::normalized_or_zero(boids::cross(goal.forward, test::make<V>(0, 0, 1)));
    goal.side = boids::cross(goal.up, goal.forward);
    const boids::match_orientation<V> m{goal, lim};
    spin3(
        o, w, lim, 6.0, 1.0 / 60, [&](const auto& fr, const V& om) { return m({}, {}, fr, om); },
        [](double, const auto&, const V&, const V&) {});
    CHECK(angle_between(o.forward, goal.forward) < 5e-3);
    CHECK(angle_between(o.up, goal.up) < 5e-3);
}

TEMPLATE_TEST_CASE("3D turns agree at 30, 60 and 120 Hz within 2% of the angle turned", "[orientation][frame-rate]",
                   BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::angular_limits<S> lim{};
    const V target = test::make<V>(-3, 2, 4);
    const double total = angle_between(test::make<V>(1, 0, 0), target);
    std::vector<std::vector<V>> runs;
    for (const double hz : {30.0, 60.0, 120.0}) {
        std::vector<V> samples;
        auto o = boids::local_frame<V>::from_heading(test::make<V>(1, 0, 0));
        V w = boids::zero<V>();
        double next = 0.1;
        const boids::face<V> f{target, lim};
        const boids::align_up<V> up{test::make<V>(0, 1, 0), lim};
        spin3(
            o, w, lim, 3.0, 1.0 / hz,
            [&](const auto& fr, const V& om) { return boids::add(f({}, {}, fr, om), up({}, {}, fr, om)); },
            [&](double t, const auto& fr, const V&, const V&) {
                if (t + 1e-9 >= next) {
                    samples.push_back(fr.forward);
                    next += 0.1;
                }
            });
        runs.push_back(samples);
    }
    REQUIRE(runs[0].size() == 30);
    for (std::size_t r = 1; r < runs.size(); ++r)
        for (std::size_t k = 0; k < runs[0].size(); ++k) CHECK(angle_between(runs[r][k], runs[0][k]) <= 0.02 * total);
}

TEMPLATE_TEST_CASE("the facing behaviours' agent call is the long call, as a steering that only turns",
                   "[orientation][agent]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::angular_limits<S> lim{S(2), S(8), S(0.15)};
    boids::oriented_view<V> agent;
    agent.index = 4;
    agent.position = test::make<V>(1, 2, 0.5);
    agent.velocity = test::make<V>(-1, 0.5, 0.25);
    agent.dt = S(1) / S(60);
    if constexpr (boids::dimension_v<V> == 2) {
        agent.orientation = S(0.3);
        agent.angular_velocity = S(-0.4);
    } else {
        agent.orientation = boids::local_frame<V>::from_heading(test::make<V>(1, 0.2, -0.3));
        agent.angular_velocity = test::make<V>(0.1, -0.4, 0.2);
    }
    const auto same = [&](const auto& behavior) {
        const boids::steering<V> s = behavior(agent);
        const boids::angular_t<V> a =
            behavior(agent.position, agent.velocity, agent.orientation, agent.angular_velocity);
        CHECK(test::near(s.linear, boids::zero<V>(), 0));
        if constexpr (boids::dimension_v<V> == 2) {
            CHECK(s.angular == a);
            CHECK(a != S(0));  // a turn to compare
        } else {
            CHECK(test::near(s.angular, a, 0));
            CHECK_FALSE(boids::is_zero(a));
        }
    };
    same(boids::face<V>{test::make<V>(-4, 3, 2), lim});
    same(boids::look_where_going<V>{lim});
    if constexpr (boids::dimension_v<V> == 2) {
        same(boids::match_orientation<V>{S(2), lim});
    } else {
        same(boids::match_orientation<V>{boids::local_frame<V>::from_heading(test::make<V>(0, 0, 1)), lim});
        same(boids::align_up<V>{test::make<V>(0, 0, 1), lim});
    }
}

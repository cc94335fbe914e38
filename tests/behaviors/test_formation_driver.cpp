// Tests of boids/behaviors/formation_driver.hpp: a formation that marches its anchor,
// keeps its slots and their velocities, narrows and assigns its members again.
#include "test_support.hpp"
#include <boids/behaviors/formation_driver.hpp>
#include <cmath>
#include <limits>
#include <vector>

namespace {
using V = plain_vec2;
using S = float;

double slots_width(boids::span<const V> local) {
    double lo = 1e300, hi = -1e300;
    for (const V& s : local) {
        lo = std::min(lo, static_cast<double>(s.y));
        hi = std::max(hi, static_cast<double>(s.y));
    }
    return hi - lo;
}
}  // namespace

TEST_CASE("a formation marches its anchor to the goal, and members on their slots stay on them", "[formation]") {
    boids::formation_shape<S> shape{boids::formation_pattern::wedge, S(2)};
    boids::formation<V> squad(shape, 9, V{0, 0}, S(0));
    std::vector<V> members(squad.slots().begin(), squad.slots().end());  // each on a slot, in slot order
    squad.assign(members);
    for (std::size_t i = 0; i < members.size(); ++i) CHECK(squad.slot_of(i) == i);
    const V goal{40, 30};
    int steps = 0;
    for (; steps < 2000 && boids::distance(squad.anchor(), goal) > S(0.05); ++steps) {
        S mean, worst;
        squad.errors(members, mean, worst);
        squad.march(goal, goal, worst, S(0.1), members);
        for (std::size_t i = 0; i < members.size(); ++i) members[i] = squad.target(i);
    }
    CHECK(steps < 2000);
    CHECK(std::abs(boids::angle_difference(squad.heading(), std::atan2(S(30), S(40)))) < S(0.05));
    for (const S h : {squad.heading(), squad.turn_rate()}) CHECK(std::isfinite(h));
}

TEST_CASE("a turning slot's velocity is the anchor's plus the turn, not the anchor's alone", "[formation]") {
    // A column of 8 turning about: the rear slots swing wide. slot_velocity must match
    // how fast each slot actually moves between two steps.
    boids::formation_shape<S> shape{boids::formation_pattern::line, S(2)};
    boids::formation<V> squad(shape, 8, V{0, 0}, S(0));
    std::vector<V> members(squad.slots().begin(), squad.slots().end());
    squad.assign(members);
    const V goal{-20, 40};  // behind and to the left: a long turn
    double error_slot = 0, error_anchor = 0;
    const S dt = S(0.05);
    for (int step = 0; step < 200; ++step) {
        std::vector<V> before(members.size());
        for (std::size_t i = 0; i < members.size(); ++i) before[i] = squad.target(i);
        squad.march(goal, goal, S(0), dt, members);
        for (std::size_t i = 0; i < members.size(); ++i) {
            const V moved = boids::scale(boids::sub(squad.target(i), before[i]), 1 / dt);
            error_slot += static_cast<double>(boids::distance(moved, squad.slot_velocity(i)));
            error_anchor += static_cast<double>(boids::distance(moved, squad.anchor_velocity()));
        }
    }
    CHECK(error_slot < 0.02 * error_anchor);  // about 1/180 measured
}

TEST_CASE("a narrower width lays the slots out in ranks that fit, and the members are assigned again", "[formation]") {
    boids::formation_shape<S> shape{boids::formation_pattern::line, S(2)};
    boids::formation<V> squad(shape, 10, V{0, 0}, S(0));
    CHECK(slots_width(squad.local_slots()) == Approx(18));
    std::vector<V> members(squad.slots().begin(), squad.slots().end());
    squad.assign(members);
    squad.set_width(S(5));
    CHECK(squad.width() == S(5));
    CHECK(slots_width(squad.local_slots()) <= 5 + 1e-5);
    squad.march(V{50, 0}, V{50, 0}, S(0), S(0.1), members);
    // Assigned again: the sum of squared distances is the least (brute force on 10 is too
    // many; it is at most the one before, slot i to member i).
    double now = 0, kept = 0;
    for (std::size_t i = 0; i < members.size(); ++i) {
        now += static_cast<double>(boids::distance_squared(members[i], squad.target(i)));
        kept += static_cast<double>(boids::distance_squared(members[i], squad.slots()[i]));
    }
    CHECK(now <= kept + 1e-9);
    squad.set_width(std::numeric_limits<S>::infinity());
    CHECK(slots_width(squad.local_slots()) == Approx(18));
}

TEST_CASE("a formation may leave the anchor's place to its leader", "[formation]") {
    for (const auto pattern : {boids::formation_pattern::line, boids::formation_pattern::column,
                               boids::formation_pattern::wedge, boids::formation_pattern::grid}) {
        boids::formation_shape<S> shape{pattern, S(2)};
        shape.leave_anchor_free = true;
        boids::formation<V> squad(shape, pattern == boids::formation_pattern::grid ? 9 : 6, V{3, 4}, S(1));
        for (const V& s : squad.slots()) CHECK(boids::distance(s, V{3, 4}) >= S(1.99));
        shape.leave_anchor_free = false;
        boids::formation<V> with(shape, pattern == boids::formation_pattern::grid ? 9 : 6, V{3, 4}, S(1));
        double nearest = 1e300;
        for (const V& s : with.slots()) nearest = std::min(nearest, static_cast<double>(boids::distance(s, V{3, 4})));
        CHECK(nearest < 1e-5);  // a member would stand on the leader
    }
}

TEST_CASE("a formation with dt = 0, no members or a goal on the anchor stays finite and still", "[formation]") {
    boids::formation_shape<S> shape;
    boids::formation<V> squad(shape, 4, V{1, 1}, S(0));
    std::vector<V> members(4, V{0, 0});  // all on one spot
    squad.assign(members);
    squad.march(V{9, 9}, V{9, 9}, S(0), S(0), members);
    CHECK(squad.anchor().x == S(1));
    squad.march(V{1, 1}, V{1, 1}, S(0), S(0.1), members);  // already there
    CHECK(boids::is_finite(squad.anchor()));
    CHECK(boids::is_finite(squad.anchor_velocity()));
    boids::formation<V> none(shape, 0, V{0, 0}, S(0));
    none.assign(std::vector<V>{});
    none.march(V{5, 0}, V{5, 0}, S(0), S(0.1), std::vector<V>{});
    S mean = -1, worst = -1;
    none.errors(boids::span<const V>(), mean, worst);
    CHECK(mean == S(0));
    CHECK(worst == S(0));
    CHECK(boids::formation_march<S>{}.validate());
    boids::formation_march<S> bad;
    bad.member_speed = 0;
    CHECK(std::string(bad.validate().field) == "member_speed");
}

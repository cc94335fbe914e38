// Tests of boids/behaviors/formation.hpp: the patterns, narrowing to a width, slot
// assignment (optimal and greedy), keeping a moving slot.
#include "test_support.hpp"
#include <boids/behaviors/formation.hpp>
#include <boids/random.hpp>
#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

namespace {
constexpr boids::formation_pattern all_patterns[] = {boids::formation_pattern::line, boids::formation_pattern::column,
                                                     boids::formation_pattern::wedge, boids::formation_pattern::circle,
                                                     boids::formation_pattern::grid};

template <class V>
double closest(const std::vector<V>& p) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t j = i + 1; j < p.size(); ++j) best = std::min(best, test::len(boids::sub(p[i], p[j])));
    return best;
}
template <class V>
double width(const std::vector<V>& p) {
    double lo = 1e300, hi = -1e300;
    for (const V& s : p) {
        lo = std::min(lo, static_cast<double>(boids::get(s, 1)));
        hi = std::max(hi, static_cast<double>(boids::get(s, 1)));
    }
    return hi - lo;
}
template <class V>
std::vector<V> slots_of(boids::formation_pattern pattern, std::size_t n, double spacing, double max_width) {
    using S = boids::scalar_t<V>;
    std::vector<V> out(n);
    boids::formation_workspace ws;
    boids::formation_shape<S> shape{pattern, static_cast<S>(spacing), static_cast<S>(max_width)};
    boids::formation_slots(shape, boids::span<V>(out), ws);
    return out;
}
bool is_assignment(const std::vector<std::size_t>& slot_of, std::size_t slots) {
    std::vector<int> taken(slots, 0);
    for (const std::size_t s : slot_of) {
        if (s == boids::unassigned) continue;
        if (s >= slots || taken[s]++ != 0) return false;
    }
    return true;
}
}  // namespace

TEMPLATE_TEST_CASE("every pattern keeps its slots a spacing apart, the leader's at the anchor", "[formation]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    for (const auto pattern : all_patterns)
        for (const std::size_t n : {1u, 2u, 5u, 24u, 61u}) {
            CAPTURE(static_cast<int>(pattern), n);
            const auto s = slots_of<V>(pattern, n, 1.5, std::numeric_limits<double>::infinity());
            REQUIRE(s.size() == n);
            if (n > 1) CHECK(closest(s) >= 1.5 * (1 - 1e-5));
            for (const V& p : s) CHECK(boids::is_finite(p));
            if (pattern != boids::formation_pattern::circle && pattern != boids::formation_pattern::grid)
                CHECK(test::len(s[0]) < 1e-9);
        }
    const auto line = slots_of<V>(boids::formation_pattern::line, 7, 2, std::numeric_limits<double>::infinity());
    CHECK(width(line) == Approx(12));
    CHECK(width(slots_of<V>(boids::formation_pattern::column, 7, 2, 1e300)) == 0);
    const auto wedge = slots_of<V>(boids::formation_pattern::wedge, 5, 2, std::numeric_limits<double>::infinity());
    CHECK(static_cast<double>(boids::get(wedge[1], 1)) > 0);  // odd slots on the left
    CHECK(static_cast<double>(boids::get(wedge[2], 1)) < 0);
    CHECK(static_cast<double>(boids::get(wedge[3], 0)) < static_cast<double>(boids::get(wedge[1], 0)));  // behind
}

TEMPLATE_TEST_CASE("a formation wider than max_width narrows into ranks that fit, in order", "[formation]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    for (const auto pattern : all_patterns) {
        CAPTURE(static_cast<int>(pattern));
        const auto wide = slots_of<V>(pattern, 24, 1.5, std::numeric_limits<double>::infinity());
        const auto narrow = slots_of<V>(pattern, 24, 1.5, 3.25);
        CHECK(width(narrow) <= 3.25);
        CHECK(closest(narrow) >= 1.5 * (1 - 1e-5));
        if (width(wide) > 3.25) CHECK(width(narrow) == Approx(3.0));  // three abreast
        // The front slot nearest the middle stays in front: the leader does not drop back.
        std::size_t front_wide = 0, front_narrow = 0;
        for (std::size_t i = 1; i < 24; ++i) {
            const auto x = boids::get(wide[i], 0), best = boids::get(wide[front_wide], 0);
            if (x > best ||
                (x == best && std::fabs(boids::get(wide[i], 1)) < std::fabs(boids::get(wide[front_wide], 1))))
                front_wide = i;
            if (boids::get(narrow[i], 0) > boids::get(narrow[front_narrow], 0)) front_narrow = i;
        }
        CHECK(boids::get(narrow[front_wide], 0) == boids::get(narrow[front_narrow], 0));
    }
    // No room at all: one behind another.
    CHECK(width(slots_of<V>(boids::formation_pattern::line, 9, 1.5, 0)) == 0);
    // Already narrow enough: untouched.
    const auto line = slots_of<V>(boids::formation_pattern::line, 3, 1.5, std::numeric_limits<double>::infinity());
    const auto same = slots_of<V>(boids::formation_pattern::line, 3, 1.5, 3.0);
    for (std::size_t i = 0; i < 3; ++i) CHECK(test::near(line[i], same[i], 0));
}

TEST_CASE("formation_shape names the field that is wrong", "[formation]") {
    boids::formation_shape<double> shape;
    CHECK(shape.validate());
    shape.spacing = 0;
    CHECK(std::string(shape.validate().field) == "spacing");
    shape = {};
    shape.max_width = std::nan("");
    CHECK(std::string(shape.validate().field) == "max_width");
}

TEST_CASE("assign_slots finds the cheapest assignment (brute force agrees) and greedy is a valid one",
          "[formation][assign]") {
    using V = plain_dvec3;
    boids::random_stream rng(7);
    boids::formation_workspace ws;
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t n = 1 + static_cast<std::size_t>(trial % 6), m = n + static_cast<std::size_t>(trial % 3);
        std::vector<V> members(n), slots(m);
        for (auto& p : members) p = {rng.uniform(-5, 5), rng.uniform(-5, 5), 0};
        for (auto& p : slots) p = {rng.uniform(-5, 5), rng.uniform(-5, 5), 0};
        std::vector<std::size_t> slot_of(n);
        const double got = boids::assign_slots(boids::span<const V>(members), boids::span<const V>(slots),
                                               boids::span<std::size_t>(slot_of), ws);
        REQUIRE(is_assignment(slot_of, m));
        for (const std::size_t s : slot_of) CHECK(s != boids::unassigned);
        // Brute force over every way to pick n of the m slots in order.
        std::vector<std::size_t> pick(m);
        std::iota(pick.begin(), pick.end(), std::size_t(0));
        double best = 1e300;
        do {
            double c = 0;
            for (std::size_t i = 0; i < n; ++i) c += boids::distance_squared(members[i], slots[pick[i]]);
            best = std::min(best, c);
        } while (std::next_permutation(pick.begin(), pick.end()));
        CHECK(got == Approx(best).epsilon(1e-9));
        // Greedy (forced by a limit of 0): valid, and never better than the optimum.
        std::vector<std::size_t> greedy(n);
        const double g = boids::assign_slots(boids::span<const V>(members), boids::span<const V>(slots),
                                             boids::span<std::size_t>(greedy), ws, 0);
        CHECK(is_assignment(greedy, m));
        CHECK(g >= best * (1 - 1e-12));
    }
    // More members than slots: each slot taken once, the rest left over.
    std::vector<V> members{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, slots{{2.1, 0, 0}};
    std::vector<std::size_t> slot_of(3);
    boids::assign_slots(boids::span<const V>(members), boids::span<const V>(slots), boids::span<std::size_t>(slot_of),
                        ws);
    CHECK(slot_of[2] == 0);
    CHECK(slot_of[0] == boids::unassigned);
    CHECK(slot_of[1] == boids::unassigned);
}

TEST_CASE("assignment on a large formation: optimal at 300, greedy at 2,000, both one slot each",
          "[formation][assign]") {
    using V = plain_dvec3;
    boids::formation_workspace ws;
    for (const std::size_t n : {300u, 2000u}) {
        std::vector<V> slots(n), members(n);
        boids::formation_slots(boids::formation_shape<double>{boids::formation_pattern::grid, 1.5},
                               boids::span<V>(slots), ws);
        boids::random_stream rng(n);
        for (auto& p : members) p = {rng.uniform(-40, 10), rng.uniform(-40, 40), 0};
        std::vector<std::size_t> slot_of(n);
        boids::assign_slots(boids::span<const V>(members), boids::span<const V>(slots),
                            boids::span<std::size_t>(slot_of), ws);
        CHECK(is_assignment(slot_of, n));
        CHECK(std::count(slot_of.begin(), slot_of.end(), boids::unassigned) == 0);
    }
}

TEMPLATE_TEST_CASE("members keep their slots on the march, and take new ones when one leaves", "[formation][scene]",
                   BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const boids::steering_limits<S> lim{3, 6, S(0.25), 0};
    boids::formation_workspace ws;
    std::size_t n = 10;
    std::vector<V> local(n), slot(n), p(n), v(n, boids::zero<V>());
    for (std::size_t i = 0; i < n; ++i) p[i] = test::make<V>(-static_cast<double>(i), 3.0 * std::sin(double(i)));
    const boids::formation_shape<S> shape{boids::formation_pattern::wedge, S(2)};
    std::vector<std::size_t> slot_of(n);
    V anchor = test::make<V>(5, 0);
    const V pace = test::make<V>(1, 0.5);
    auto march = [&](double seconds) {
        double worst = 0;
        for (int k = 0; k < static_cast<int>(seconds * 60); ++k) {
            anchor = boids::add_scaled(anchor, pace, S(1) / 60);
            boids::place_slots(anchor, pace, boids::span<const V>(local), boids::span<V>(slot));
            worst = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const boids::keep_slot<V> keep{slot[slot_of[i]], pace, lim};
                boids::integrate(p[i], v[i], keep(p[i], v[i]), S(1) / 60, lim);
                worst = std::max(worst, test::len(boids::sub(p[i], slot[slot_of[i]])));
            }
        }
        return worst;
    };
    boids::formation_slots(shape, boids::span<V>(local), ws);
    boids::place_slots(anchor, pace, boids::span<const V>(local), boids::span<V>(slot));
    boids::assign_slots(boids::span<const V>(p), boids::span<const V>(slot), boids::span<std::size_t>(slot_of), ws);
    // Settled on moving slots: within one step of the slot's travel (1.12 m/s / 60 = 1.9 cm),
    // the slot having moved before the member steers.
    CHECK(march(20) < 0.02);
    // Member 0 (the leader's slot, most likely) leaves: nine slots, each taken once.
    p.erase(p.begin());
    v.erase(v.begin());
    n = 9;
    local.resize(n);
    slot.resize(n);
    slot_of.resize(n);
    boids::formation_slots(shape, boids::span<V>(local), ws);
    boids::place_slots(anchor, pace, boids::span<const V>(local), boids::span<V>(slot));
    boids::assign_slots(boids::span<const V>(p), boids::span<const V>(slot), boids::span<std::size_t>(slot_of), ws);
    CHECK(is_assignment(slot_of, n));
    CHECK(std::count(slot_of.begin(), slot_of.end(), boids::unassigned) == 0);
    CHECK(march(20) < 0.02);
}

TEST_CASE("formation_pace waits for stragglers; keep_slot is finite on degenerate input", "[formation]") {
    CHECK(boids::formation_pace(0.5, 1.5) == 1);
    CHECK(boids::formation_pace(1.5, 1.5) == 1);
    CHECK(boids::formation_pace(3.0, 1.5) == Approx(0.5));
    CHECK(boids::formation_pace(4.5, 1.5) == 0);
    CHECK(boids::formation_pace(std::nan(""), 1.5) == 0);
    using V = plain_vec2;
    const boids::steering_limits<float> lim{2, 4, 0.25f, 0};
    const V here{1, 1};
    CHECK(boids::is_zero(boids::keep_slot<V>{here, {0, 0}, lim}(here, {0, 0})));
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK(boids::is_finite(boids::keep_slot<V>{{nan, 0}, {nan, nan}, lim}(here, {0, 0})));
    CHECK(test::len(boids::keep_slot<V>{{100, 0}, {5, 0}, lim}.desired_velocity(here)) <= 2.0001);
}

TEST_CASE("user-given slots narrow through fit_width like the patterns", "[formation]") {
    using V = plain_vec2;
    // A diamond of nine, 2 apart: 8 wide.
    std::vector<V> slots{{0, 0}, {-2, 2}, {-2, -2}, {-4, 4}, {-4, 0}, {-4, -4}, {-6, 2}, {-6, -2}, {-8, 0}};
    boids::formation_workspace ws;
    boids::fit_width(boids::span<V>(slots), 2.0f, 2.0f, ws);
    CHECK(width(slots) <= 2.0);
    CHECK(closest(slots) >= 2.0 * (1 - 1e-6));
    CHECK(slots[0].x == 0);          // the point stays in front
    CHECK(slots[1].y > slots[2].y);  // the left one stays left
}

TEMPLATE_TEST_CASE("the formation functions take std::vector and std::array as they take spans", "[formation]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    boids::formation_workspace ws;
    const boids::formation_shape<S> shape{boids::formation_pattern::wedge, S(2), S(100)};
    std::vector<V> local(7), by_span(7);
    boids::formation_slots(shape, local, ws);
    boids::formation_slots(shape, boids::span<V>(by_span), ws);
    for (std::size_t i = 0; i < local.size(); ++i) CHECK(boids::distance_squared(local[i], by_span[i]) == S(0));
    std::array<V, 7> fitted{};
    std::copy(local.begin(), local.end(), fitted.begin());
    boids::fit_width(fitted, S(2), S(3), ws);
    CHECK(width(std::vector<V>(fitted.begin(), fitted.end())) <= 3.0 + 1e-9);

    std::vector<V> world(7);
    boids::place_slots(test::make<V>(10, 0), test::make<V>(0, 1), local, world);
    // The wedge's slot 0 is the anchor's own place.
    CHECK(test::len(boids::sub(world[0], test::make<V>(10, 0))) < 1e-5);

    std::vector<V> members(world.rbegin(), world.rend());
    std::vector<std::size_t> slot_of(7);
    const double cost = boids::assign_slots(members, world, slot_of, ws);
    CHECK(cost < 1e-6);
    for (std::size_t m = 0; m < 7; ++m) CHECK(slot_of[m] == 6 - m);
}

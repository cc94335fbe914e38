// Tests of boids/crowd/detail/contacts.hpp: the pairs near contact that the crowd
// step's projection walks are the same, in the same order, whether an agent's
// candidates come from the grid's cells or from the step's lists of its nearest,
// and an agent whose list may miss one falls back to the grid.
#include "test_support.hpp"
#include <cmath>
#include <limits>
#include <random>
#include <vector>
#include <boids/crowd/agents.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "plain_vectors.hpp"

namespace {
// The lists as the step keeps them: each agent's k nearest within `radius`, where it
// stood; a non-finite agent has none.
template <class V>
struct step_lists {
    using S = boids::scalar_t<V>;
    static constexpr std::size_t D = boids::dimension_v<V>;
    std::vector<boids::neighbor<S, D>> found;
    std::vector<std::uint32_t> count;

    step_lists(const std::vector<V>& before, std::size_t k, S radius) {
        found.resize(before.size() * k);
        count.assign(before.size(), boids::detail::no_list);
        boids::uniform_grid<V> grid(boids::world_for<V>{}, radius);
        grid.build(boids::span<const V>(before));
        for (std::size_t i = 0; i < before.size(); ++i) {
            if (!boids::is_finite(before[i])) continue;
            boids::k_nearest<S, D> near(boids::span<boids::neighbor<S, D>>(found.data() + i * k, k), k);
            grid.nearest(i, near, radius);
            count[i] = static_cast<std::uint32_t>(near.result().size());
        }
    }
};

// listed_neighbours, counting the agents it vouched for and those it left to the grid.
template <class V>
struct counting_lists {
    boids::detail::listed_neighbours<V> lists;
    std::size_t listed = 0, to_grid = 0;
    void begin(boids::span<const V> p) { lists.begin(p); }
    template <class F>
    bool operator()(std::size_t i, boids::span<const V> p, boids::scalar_t<V> reach, F&& each) {
        const bool ok = lists(i, p, reach, each);
        ++(ok ? listed : to_grid);
        return ok;
    }
};

template <class V>
bool same_pairs(const boids::detail::contact_list<V>& a, const boids::detail::contact_list<V>& b) {
    if (a.pairs.size() != b.pairs.size()) return false;
    for (std::size_t p = 0; p < a.pairs.size(); ++p)
        if (a.pairs[p].i != b.pairs[p].i || a.pairs[p].j != b.pairs[p].j || a.pairs[p].combined != b.pairs[p].combined)
            return false;
    return true;
}
}  // namespace

TEMPLATE_TEST_CASE("contact list: the step's lists give the grid's pairs, in the grid's order", "[crowd][contacts]",
                   test::dvec2, test::fvec3) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<S> unit(S(0), S(1));
    std::size_t listed = 0, to_grid = 0, pairs = 0;
    for (int scene = 0; scene < 60; ++scene) {
        const std::size_t n = 50 + static_cast<std::size_t>(unit(rng) * S(400));
        const std::size_t k = std::size_t{1} + static_cast<std::size_t>(unit(rng) * S(12));
        const S list_radius = scene % 3 == 0 ? S(4) : S(15);
        const S spread = S(5) + unit(rng) * S(300);  // packed to sparse
        std::vector<V> before(n);
        std::vector<S> radius(n);
        for (std::size_t i = 0; i < n; ++i) {
            // Clusters, some agents on one spot, a few not finite.
            const S cluster[3] = {std::floor(unit(rng) * S(4)) * spread, std::floor(unit(rng) * S(2)) * spread, S(0)};
            before[i] = boids::generate<V>([&](std::size_t d) { return cluster[d] + unit(rng) * spread * S(0.3); });
            if (i % 37 == 5) before[i] = before[i - 1];
            if (i % 101 == 7) before[i] = boids::scale(boids::unit_axis<V>(0), std::numeric_limits<S>::quiet_NaN());
            radius[i] = S(0.5) + unit(rng) * S(1.5);
        }
        const step_lists<V> l(before, k, list_radius);
        // The move: a little, or in some scenes a few far (past what any list covers).
        std::vector<V> now = before;
        for (std::size_t i = 0; i < n; ++i) {
            const S step = scene % 4 == 1 && i % 23 == 3 ? S(20) : S(0.6);
            now[i] =
                boids::generate<V>([&](std::size_t d) { return boids::get(now[i], d) + (unit(rng) - S(0.5)) * step; });
        }
        S widest = 0;
        for (S r : radius) widest = std::max(widest, r);
        auto radius_of = [&](std::size_t i) { return radius[i]; };
        const boids::span<const V> p(now);
        boids::detail::contact_list<V> from_grid, from_lists;
        from_grid.make(p, widest, radius_of);
        counting_lists<V> near{
            {{l.found.data(), l.found.size()}, {l.count.data(), n}, k, list_radius, {before.data(), n}}};
        from_lists.make(p, widest, radius_of, near);
        CHECK(same_pairs(from_grid, from_lists));
        listed += near.listed;
        to_grid += near.to_grid;
        pairs += from_grid.pairs.size();
    }
    // Both ways were taken, over scenes with pairs to find.
    CHECK(listed > 1000);
    CHECK(to_grid > 1000);
    CHECK(pairs > 1000);
}

TEST_CASE("contact list: an agent whose list cannot vouch for its reach goes to the grid", "[crowd][contacts]") {
    using V = test::dvec2;
    using S = double;
    // Three agents in a row, 3 apart, radius 1: each list holds only the nearest one.
    const std::vector<V> before{{0, 0}, {3, 0}, {6, 0}};
    const step_lists<V> l(before, 1, S(15));
    std::vector<V> now = before;
    boids::detail::listed_neighbours<V> lists{{l.found.data(), 3}, {l.count.data(), 3}, 1, S(15), {before.data(), 3}};
    lists.begin(boids::span<const V>(now));
    std::size_t named = 0;
    auto count = [&](std::size_t) { ++named; };
    // Its one neighbour is 3 away: a reach of 2 is covered, a reach of 3 is not.
    CHECK(lists(0, boids::span<const V>(now), S(2), count));
    CHECK(named == 1);
    CHECK_FALSE(lists(0, boids::span<const V>(now), S(3), count));
    // Another agent's move counts against every list: agent 2 moved 1.5.
    now[2] = {7.5, 0};
    lists.begin(boids::span<const V>(now));
    CHECK(lists.farthest == Approx(1.5));
    CHECK_FALSE(lists(0, boids::span<const V>(now), S(2), count));
    CHECK(lists(0, boids::span<const V>(now), S(1), count));
    // No list, or no finite place before: never vouched for.
    step_lists<V> none = l;
    none.count[1] = boids::detail::no_list;
    boids::detail::listed_neighbours<V> missing{
        {none.found.data(), 3}, {none.count.data(), 3}, 1, S(15), {before.data(), 3}};
    missing.begin(boids::span<const V>(before));
    CHECK_FALSE(missing(1, boids::span<const V>(before), S(0.1), count));
    CHECK(missing(0, boids::span<const V>(before), S(0.1), count));
}

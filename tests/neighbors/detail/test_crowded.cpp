// Tests of boids/neighbors/detail/grid/crowded.hpp: the sub-cells of a grid's crowded cells
// hold each of their boids once, in the sub-cell its coordinates name, in slot order;
// strays in the cell do not spread them thin; cells that would mislead a query get none.
#include "neighbor_check.hpp"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstddef>
#include <limits>
#include <vector>
#include <boids/neighbors/uniform_grid.hpp>

namespace {
// A dense grid's index and the sub-cells of its crowded cells, built as uniform_grid builds.
template <class V>
struct crowded_build {
    boids::detail::grid_cells<V, false> cells;
    boids::detail::grid_build_scratch<V, false> scratch;

    crowded_build(const boids::world_for<V>& world, boids::scalar_t<V> cell) {
        cells.layout.world = world;
        cells.layout.cell_size = boids::detail::grid_layout<V, false>::usable_cell(cell);
    }
    void build(const std::vector<V>& pos) {
        boids::detail::build_grid(cells, scratch, boids::span<const V>(pos));
        boids::detail::build_crowded(cells);
    }
    [[nodiscard]] std::size_t count(std::size_t bucket) const {
        return cells.bucket_start[bucket + 1] - cells.bucket_start[bucket];
    }
};

// A spawn of `spawned` boids within half a unit of `at`, `strays` more spread over the
// 40-unit cell around it, and `others` spread over a world 2,000 across.
template <class V>
std::vector<V> spawn_with_strays(std::size_t spawned, std::size_t strays, std::size_t others, double at) {
    using S = boids::scalar_t<V>;
    boids::random_stream rng(17);
    std::vector<V> pos;
    for (std::size_t i = 0; i < spawned; ++i)
        pos.push_back(boids::generate<V>([&](std::size_t) { return S(at + rng.uniform(-0.5, 0.5)); }));
    for (std::size_t i = 0; i < strays; ++i)
        pos.push_back(boids::generate<V>([&](std::size_t) { return S(at + rng.uniform(-15, 15)); }));
    for (std::size_t i = 0; i < others; ++i)
        pos.push_back(boids::generate<V>([&](std::size_t) { return S(rng.uniform(1, 1999)); }));
    return pos;
}
}  // namespace

TEMPLATE_TEST_CASE(
    "crowded cells: every boid of a crowded cell once, in the sub-cell its coordinates name, in slot order",
    "[uniform_grid][crowded]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const auto kind = GENERATE(boids::edges::open, boids::edges::toroidal);
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 2000, 2000, 2000);
    const auto pos = spawn_with_strays<V>(1500, 8, 600, 620.0);
    crowded_build<V> b(world, S(40));
    b.build(pos);
    const auto& g = b.cells;
    const auto& cr = g.crowded;
    CAPTURE(static_cast<int>(kind), D);
    REQUIRE(g.most_in_a_cell > boids::detail::crowded_cell_size);
    // The grids are the crowded cells, by ascending bucket.
    std::size_t crowded = 0, entries = 0;
    for (std::size_t bucket = 0; bucket + 1 < g.bucket_start.size(); ++bucket) {
        const bool is_crowded = b.count(bucket) > boids::detail::crowded_cell_size;
        CHECK((cr.find(bucket) != nullptr) == is_crowded);
        crowded += is_crowded ? 1 : 0;
        entries += is_crowded ? b.count(bucket) : 0;
    }
    REQUIRE(crowded >= 1);
    REQUIRE(cr.grids.size() == crowded);
    REQUIRE(cr.start.back() == entries);
    std::vector<int> seen(g.order.size(), 0);
    for (const auto& sg : cr.grids) {
        std::size_t sub_cells = 1;
        for (std::size_t d = 0; d < D; ++d) {
            sub_cells *= static_cast<std::size_t>(sg.n[d]);
            // Sized by the spawn, not the strays: at most its extent across, about 2 a sub-cell.
            CHECK(sg.w[d] * S(sg.n[d]) <= S(1.0));
        }
        const std::size_t m = b.count(sg.bucket);
        CHECK(sub_cells >= m / 8);
        CHECK(sub_cells <= 2 * m);
        for (std::size_t c = 0; c < sub_cells; ++c) {
            const std::size_t e0 = cr.start[sg.first + c], e1 = cr.start[sg.first + c + 1];
            for (std::size_t e = e0; e < e1; ++e) {
                const std::size_t s = cr.slot[e];
                REQUIRE(s >= g.bucket_start[sg.bucket]);
                REQUIRE(s < g.bucket_start[sg.bucket + 1]);
                ++seen[s];
                if (e > e0) CHECK(cr.slot[e - 1] < cr.slot[e]);  // slot order within a sub-cell
                std::size_t named = 0;
                for (std::size_t d = D; d-- > 0;) {
                    const S x = cr.pos[d * cr.stride + e];
                    CHECK(x == g.spos[d * g.order.size() + s]);
                    named = named * static_cast<std::size_t>(sg.n[d]) +
                            static_cast<std::size_t>(boids::detail::crowded_cells<S, D>::sub_coord(sg, x, d));
                }
                CHECK(named == c);
            }
        }
    }
    std::size_t once = 0;
    for (std::size_t s = 0; s < seen.size(); ++s) once += seen[s] == 1 ? 1u : 0u;
    CHECK(once == entries);
    // Built again over the same flock: the same sub-cells, no buffer moved (no allocation).
    const auto* start = cr.start.data();
    const auto* slot = cr.slot.data();
    const auto before = cr.slot;
    b.build(pos);
    CHECK(cr.start.data() == start);
    CHECK(cr.slot.data() == slot);
    CHECK(cr.slot == before);
}

TEMPLATE_TEST_CASE("crowded cells: none where no cell is crowded, nor over positions that are not finite",
                   "[uniform_grid][crowded]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    crowded_build<V> b(boids::world_for<V>{}, S(40));
    b.build(spawn_with_strays<V>(400, 8, 600, 620.0));  // 408 in the fullest cell
    CHECK(b.cells.crowded.grids.empty());
    b.build(spawn_with_strays<V>(0, 0, 0, 620.0));  // no boid
    CHECK(b.cells.crowded.grids.empty());
    b.build(spawn_with_strays<V>(1500, 8, 600, 620.0));
    REQUIRE(b.cells.crowded.grids.size() == 1);
    const std::size_t bucket = b.cells.crowded.grids[0].bucket;
    const std::size_t s0 = b.cells.bucket_start[bucket], s1 = b.cells.bucket_start[bucket + 1];
    typename boids::detail::crowded_cells<S, boids::dimension_v<V>>::sub_grid sg;
    std::vector<S> sorting;
    CHECK(boids::detail::size_sub_grid(b.cells, s0, s1, sg, sorting));
    b.cells.spos[s0 + 7] = std::numeric_limits<S>::quiet_NaN();  // (as a query would never see it)
    CHECK_FALSE(boids::detail::size_sub_grid(b.cells, s0, s1, sg, sorting));
    b.cells.spos[s0 + 7] = std::numeric_limits<S>::infinity();
    CHECK_FALSE(boids::detail::size_sub_grid(b.cells, s0, s1, sg, sorting));
}

TEMPLATE_TEST_CASE(
    "crowded cells: uniform_grid builds them for queries of the nearest, not for an uncapped metric step's",
    "[uniform_grid][crowded]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    struct open_grid : boids::uniform_grid<V> {
        using boids::uniform_grid<V>::uniform_grid;
        [[nodiscard]] std::size_t crowded() const { return this->cells_.crowded.grids.size(); }
        [[nodiscard]] std::size_t fullest() const { return this->cells_.most_in_a_cell; }
    };
    const auto pos = spawn_with_strays<V>(1500, 8, 600, 620.0);
    open_grid grid(boids::world_for<V>{}, S(40));
    grid.build(boids::span<const V>(pos));  // a grid of your own: any query may come
    CHECK(grid.crowded() >= 1);
    grid.serve_queries(S(60), 7, S(1), false);  // a topological step's
    grid.build(boids::span<const V>(pos));
    CHECK(grid.crowded() >= 1);
    grid.serve_queries(S(60), 7, S(1));  // a metric step's, capped: its crowded boids read them too
    grid.build(boids::span<const V>(pos));
    CHECK(grid.crowded() >= 1);
    grid.serve_queries(S(60), std::numeric_limits<std::size_t>::max(), S(1));  // uncapped: every one within it
    grid.build(boids::span<const V>(pos));
    CHECK(grid.fullest() > boids::detail::crowded_cell_size);
    CHECK(grid.crowded() == 0);
}

TEMPLATE_TEST_CASE(
    "crowded cells: a stack over half a sub-cell is found, and named to its boids only where no other boid of the "
    "cell can lie at distance 0",
    "[uniform_grid][crowded]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    // A spawn on one spot away from 0, strays around it in its cell; a stack on 0 in the
    // cell beside, alone there or with strays so near 0 that their offsets square to 0.
    const S tiny = S(sizeof(S) == sizeof(float) ? 1e-30 : 1e-170);
    const bool strays_by_zero = GENERATE(false, true);
    auto pos = spawn_with_strays<V>(0, 40, 600, 620.0);
    pos.erase(std::remove_if(pos.begin(), pos.end(), [](const V& x) { return boids::get(x, 0) < S(40); }), pos.end());
    const V spot = boids::generate<V>([](std::size_t d) { return S(617.25 + double(d)); });
    const V zero = boids::zero<V>();
    std::vector<V> stacked;  // by index: the two stacks interleaved, the others after
    for (std::size_t i = 0; i < 1400; ++i) {
        stacked.push_back(i % 2 ? spot : zero);
        if (strays_by_zero && i % 40 == 0)
            stacked.push_back(boids::generate<V>([&](std::size_t d) { return d ? S(0) : S(i / 40 + 1) * tiny; }));
    }
    pos.insert(pos.begin(), stacked.begin(), stacked.end());
    crowded_build<V> b(boids::world_for<V>{}, S(40));
    b.build(pos);
    const auto& g = b.cells;
    const auto& cr = g.crowded;
    CAPTURE(D, strays_by_zero);
    REQUIRE(cr.grids.size() == 2);
    REQUIRE(cr.spot_count.size() + 1 == cr.start.size());
    auto same = [](const V& a, const V& c) {
        bool equal = true;
        for (std::size_t d = 0; d < D; ++d) equal = equal && boids::get(a, d) == boids::get(c, d);
        return equal;
    };
    auto at = [&](std::size_t e) { return g.order[cr.slot[e]]; };
    for (std::size_t c = 0; c + 1 < cr.start.size(); ++c) {  // each stack: over half its sub-cell's entries
        const std::size_t e0 = cr.start[c], e1 = cr.start[c + 1];
        std::size_t most = 0, first = e1;
        for (std::size_t e = e0; e < e1; ++e) {
            std::size_t on = 0;
            for (std::size_t f = e0; f < e1; ++f) on += same(pos[at(e)], pos[at(f)]) ? 1u : 0u;
            if (on > most) most = on, first = e;
        }
        // Kept unless a boid off the spot lies at an offset from it that squares to 0.
        bool joined = false;
        for (std::size_t j = 0; first < e1 && j < pos.size(); ++j) {
            const V o = boids::offset(boids::world_for<V>{}, pos[at(first)], pos[j]);
            joined = joined || (!same(pos[j], pos[at(first)]) && boids::dot(o, o) == S(0));
        }
        CAPTURE(c, e1 - e0, most, joined);
        if (2 * most > e1 - e0 && e1 - e0 > 1 && !joined) {
            CHECK(cr.spot_count[c] == most);
            CHECK(cr.spot_first[c] == first);
        } else {
            CHECK(cr.spot_count[c] == 0);
        }
    }
    std::size_t on_spot = 0, on_zero = 0;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const auto stack = boids::detail::stack_on_own_spot(g, g.slot[i]);
        if (same(pos[i], spot)) {
            REQUIRE(stack.count == 700);  // (strays in its cell, some in its sub-cell)
            std::size_t on = 0;
            for (std::size_t e = stack.first; e < stack.end; ++e) on += same(pos[at(e)], spot) ? 1u : 0u;
            CHECK(on == 700);
            CHECK(same(pos[at(stack.first)], spot));
            ++on_spot;
        } else if (same(pos[i], zero)) {
            // Alone in its cell: the cell's boids are the stack's; beside the strays: none.
            CHECK(stack.count == (strays_by_zero ? 0u : 700u));
            ++on_zero;
        } else {
            CHECK(stack.count == 0);
        }
    }
    CHECK(on_spot == 700);
    CHECK(on_zero == 700);
}

TEMPLATE_TEST_CASE(
    "crowded cells: a spawn a few dozen roundings across is cut on every axis it spans, and queries "
    "there are all_pairs'",
    "[uniform_grid][crowded]", BOIDS_ALL_VEC_TYPES) {
    // A spawn on one spot after a step from rest: its boids a few roundings of their
    // coordinates apart (sub-cells need only be a few roundings wide: every query reads
    // the sub-cells of its ball's box, a few roundings wider).
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const S at = S(200.5);
    const S ulp = std::nextafter(at, S(1000)) - at;
    boids::random_stream rng(23);
    std::vector<V> pos;
    for (std::size_t i = 0; i < 1500; ++i)
        pos.push_back(boids::generate<V>([&](std::size_t) { return at + S(std::floor(rng.uniform(-40, 41))) * ulp; }));
    for (std::size_t i = 0; i < 600; ++i)
        pos.push_back(boids::generate<V>([&](std::size_t) { return S(rng.uniform(1, 1999)); }));
    crowded_build<V> b(boids::world_for<V>{}, S(40));
    b.build(pos);
    REQUIRE(b.cells.crowded.grids.size() == 1);
    const auto& sg = b.cells.crowded.grids[0];
    for (std::size_t d = 0; d < D; ++d) {
        CAPTURE(d, sg.n[d], sg.w[d] / ulp);
        CHECK(sg.n[d] >= 4);
    }
    boids::all_pairs<V> ref(boids::world_for<V>{});
    ref.build(boids::span<const V>(pos));
    boids::uniform_grid<V> grid(boids::world_for<V>{}, S(40));
    grid.serve_queries(S(40), 7, S(1), false);
    grid.build(boids::span<const V>(pos));
    const boids::vision_cone<S, D> all{};
    for (std::size_t i = 0; i < 1500; i += 7) {
        CAPTURE(i);
        REQUIRE(test::knn_list<V>(grid, i, 7, std::numeric_limits<S>::infinity()) ==
                test::knn_list<V>(ref, i, 7, std::numeric_limits<S>::infinity()));
        REQUIRE(test::metric_set<V>(grid, i, S(3) * ulp, all) == test::metric_set<V>(ref, i, S(3) * ulp, all));
    }
}

TEMPLATE_TEST_CASE(
    "crowded cells: a query reads the sub-cells of its ball's box, a few roundings wider: every point whose offset "
    "squares within its radius, and not one sub-cell more each way",
    "[uniform_grid][crowded]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const auto kind = GENERATE(boids::edges::open, boids::edges::toroidal);
    // Far from 0 (coordinates round coarsely), the crowd across a torus's seam or not.
    const double at = GENERATE(620.0, 1999.75);
    // Spread over a unit, or a few dozen roundings of a coordinate (sub-cells a few wide).
    const bool roundings = GENERATE(false, true);
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 2000, 2000, 2000);
    auto pos = spawn_with_strays<V>(1500, 8, 600, at);
    if (roundings) {
        const S ulp = std::nextafter(S(at), S(0)) - S(at);
        boids::random_stream spread(31);
        for (std::size_t i = 0; i < 1500; ++i)
            pos[i] =
                boids::generate<V>([&](std::size_t) { return S(at) + S(std::floor(spread.uniform(-40, 41))) * ulp; });
    }
    if (kind != boids::edges::open)
        for (auto& x : pos)
            x = boids::generate<V>([&](std::size_t d) { return world.wrap_scalar(boids::get(x, d), world.size[d]); });
    crowded_build<V> b(world, S(40));
    b.build(pos);
    const auto& g = b.cells;
    const auto& cr = g.crowded;
    REQUIRE(!cr.grids.empty());
    const bool images = g.layout.images();
    boids::random_stream rng(29);
    std::size_t points = 0, edge = 0;
    for (const auto& sg : cr.grids) {
        const std::size_t s0 = g.bucket_start[sg.bucket], s1 = g.bucket_start[sg.bucket + 1];
        for (std::size_t q = 0; q < 300; ++q) {
            // A boid of the spawn as the query's point (across the seam too: an image of
            // it), and the exact distance to one of the cell as its radius.
            const auto sp = static_cast<std::size_t>(rng.uniform(0.0, 1500.0));
            const std::size_t st = s0 + static_cast<std::size_t>(rng.uniform(0.0, double(s1 - s0)));
            const V p = pos[sp], t = pos[g.order[st]];
            const V o = boids::offset(world, p, t);
            const S r = std::sqrt(boids::dot(o, o)) * S(q % 3 == 0 ? 1.0 : 0.5);
            std::array<S, D> pa{}, slack{};
            for (std::size_t d = 0; d < D; ++d) {
                pa[d] = boids::get(p, d);
                const S shift = images ? world.size[d] : S(0);
                slack[d] = boids::detail::sub_cell_slack(sg, pa[d], shift, boids::detail::reach_with_rounding(r), d);
            }
            std::array<std::int32_t, D> lo{}, hi{};
            boids::detail::sub_cells_within(cr, sg, pa, r, images, world, slack, lo, hi);
            for (std::size_t d = 0; d < D; ++d) {
                CAPTURE(d, r, sg.w[d], slack[d]);
                if (!roundings) CHECK(slack[d] < sg.w[d]);
                // The box's sub-cells: at most two more than its width in them.
                const double wide = 2.0 * (double(boids::detail::reach_with_rounding(r)) + double(slack[d]));
                CHECK(double(hi[d] - lo[d] + 1) <= std::floor(wide / double(sg.w[d])) + 2);
            }
            for (std::size_t s = s0; s < s1; ++s) {  // each point within r of p lies in them
                const V x = pos[g.order[s]];
                const V ox = boids::offset(world, p, x);
                if (!(boids::dot(ox, ox) <= r * r)) continue;
                ++points;
                bool inside = true;
                for (std::size_t d = 0; d < D; ++d) {
                    const auto j = static_cast<std::int32_t>(
                        boids::detail::crowded_cells<S, D>::sub_coord(sg, boids::get(x, d), d));
                    inside = inside && lo[d] <= j && j <= hi[d];
                    edge += j == lo[d] || j == hi[d] ? 1u : 0u;
                }
                CAPTURE(s, r);
                CHECK(inside);
            }
        }
    }
    CHECK(points > 1000);
    CHECK(edge > 100);  // points in the box's edge sub-cells: the bounds are met, not loose
}

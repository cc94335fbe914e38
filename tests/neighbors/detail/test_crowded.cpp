// Tests of boids/neighbors/detail/grid/crowded.hpp: the sub-cells of a grid's crowded cells
// hold each of their boids once, in the sub-cell its coordinates name, in slot order;
// strays in the cell do not spread them thin; cells that would mislead a query get none.
#include "neighbor_check.hpp"
#include <cmath>
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
    for (std::size_t s = 0; s < seen.size(); ++s) once += seen[s] == 1 ? 1 : 0;
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

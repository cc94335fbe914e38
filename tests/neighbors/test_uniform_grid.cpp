// Tests of boids/neighbors/uniform_grid.hpp: the same neighbours as all_pairs, for
// every kind of world, in 2D and 3D, metric (with and without the cone) and topological.
#include "neighbor_check.hpp"
#include <cstring>
#include <boids/executor.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include "plain_vectors.hpp"

namespace {
// How many of the boids picked by `every` the batch (nearest_in_slots, the step's query)
// gives other k nearest than all_pairs finds.
template <class V, class Pick>
std::size_t batch_off_all_pairs(const boids::uniform_grid<V>& grid, const boids::all_pairs<V>& ref, std::size_t k,
                                Pick&& every) {
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    std::vector<boids::neighbor<S, D>> storage(k);
    boids::k_nearest<S, D> batch(boids::span<boids::neighbor<S, D>>(storage), k);
    std::size_t differ = 0;
    grid.nearest_in_slots(0, grid.size(), batch, std::numeric_limits<S>::infinity(),
                          [&](std::size_t s, const boids::k_nearest<S, D>& got) {
                              const std::size_t i = grid.order()[s];
                              if (!every(i)) return;
                              std::vector<test::record<S, D>> list;
                              for (const auto& nb : got.result())
                                  list.emplace_back(nb.index, nb.distance_squared, nb.offset);
                              if (list != test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity())) ++differ;
                          });
    return differ;
}
}  // namespace

TEMPLATE_TEST_CASE("uniform_grid agrees with all_pairs on random flocks", "[uniform_grid][property]",
                   BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto kind = GENERATE(boids::edges::bounded, boids::edges::wrap, boids::edges::toroidal, boids::edges::open);
    const auto seed = GENERATE(range<std::uint64_t>(1, 4));
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 100, 70, 40);
    CAPTURE(static_cast<int>(kind));
    test::check_against_all_pairs<V, boids::uniform_grid<V>>(
        world, [&](S radius) { return boids::uniform_grid<V>(world, radius); }, seed);
}

TEMPLATE_TEST_CASE("uniform_grid in a world only a cell or two wide", "[uniform_grid][property]", BOIDS_VEC2_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    // Radius 9 in a 10 x 25 torus: one cell across, two down; no boid may be seen twice.
    const auto world = test::box<V>(boids::edges::toroidal, 10, 25);
    test::check_against_all_pairs<V, boids::uniform_grid<V>>(
        world, [&](S) { return boids::uniform_grid<V>(world, S(9)); }, 11);
}

TEST_CASE("uniform_grid lays out whole cells a little larger than asked", "[uniform_grid]") {
    const std::vector<plain_vec2> corners{{0.f, 0.f}, {899.f, 539.f}};  // a flock from corner to corner
    boids::uniform_grid<plain_vec2> g(boids::world<float, 2>::box(boids::edges::wrap, {900.f, 540.f}), 60.f);
    g.build(boids::span<const plain_vec2>(corners));
    // Cells at least 60 px plus a 1/64 margin for rounding: 899 / 60.9375 -> 14, 539 -> 8.
    CHECK(g.cells_per_axis()[0] == 14);
    CHECK(g.cells_per_axis()[1] == 8);
    CHECK(g.bucket_count() == 112);
}

TEST_CASE("uniform_grid keeps its cells near 8 a boid for a flat cloud spread far apart", "[uniform_grid]") {
    // Two axes wide, one a single cell: scaling every axis alike left the wide ones at
    // thousands of cells each (gigabytes of buckets).
    std::vector<test::dvec3> p{{0, 0, 0}, {1e12, 1e12, 0}, {-1e12, 5e11, 0}, {3, 4, 0}};
    boids::uniform_grid<test::dvec3> g(boids::world_for<test::dvec3>{}, 1.0);
    g.build(boids::span<const test::dvec3>(p));
    CHECK(g.bucket_count() <= 4096);
    CHECK(g.cells_per_axis()[2] == 1);
    CHECK(g.cells_per_axis()[0] > 1);
    std::size_t seen = 0;
    g.for_each_within(3, 10.0, [&](const boids::neighbor<double, 3>& nb) { seen += nb.index == 0 ? 1 : 0; });
    CHECK(seen == 1);  // still exact
}

TEST_CASE("uniform_grid over a large box covers the flock, not the box", "[uniform_grid]") {
    // 3,000 boids in a ball 12 across in a corner of a 2,000 x 2,000 x 2,000 box: tiling
    // the box with at most about 8 cells a boid gave cells near 70 wide for a radius of
    // 4, and every boid read the whole flock.
    boids::random_stream rng(3);
    std::vector<test::dvec3> p(3000);
    for (auto& x : p) {
        test::dvec3 u;
        do {
            u = {rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)};
        } while (boids::dot(u, u) > 1.0);
        x = {30 + 6 * u.x, 30 + 6 * u.y, 30 + 6 * u.z};
    }
    for (auto kind : {boids::edges::bounded, boids::edges::wrap}) {
        const auto world = boids::world<double, 3>::box(kind, {2000.0, 2000.0, 2000.0});
        boids::uniform_grid<test::dvec3> g(world, 4.0);
        g.build(boids::span<const test::dvec3>(p));
        CAPTURE(static_cast<int>(kind));
        for (std::size_t d = 0; d < 3; ++d) CHECK(g.cells_per_axis()[d] <= 3);  // 12 / 4.0625
        // Still every neighbour, all_pairs' own.
        boids::all_pairs<test::dvec3> brute(world);
        brute.build(boids::span<const test::dvec3>(p));
        for (std::size_t i = 0; i < p.size(); i += 97) {
            std::vector<std::size_t> a, b;
            g.for_each_within(i, 4.0, [&](const boids::neighbor<double, 3>& nb) { a.push_back(nb.index); });
            brute.for_each_within(i, 4.0, [&](const boids::neighbor<double, 3>& nb) { b.push_back(nb.index); });
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            CHECK(a == b);
        }
    }
}

TEMPLATE_TEST_CASE("uniform_grid: strays far from the flock sit in the edge cells, and every query is all_pairs'",
                   "[uniform_grid][property]", BOIDS_ALL_VEC_TYPES) {
    // A flock 40 across with a few boids far away (flung off, or parked together): over
    // their bounding box, cells of the radius would number far more than 8 a boid, and
    // widening them to fit put the whole flock in one cell. The grid covers the flock,
    // the strays clamped into the edge cells, and finds what all_pairs finds, for the
    // flock's boids and the strays alike.
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t dim = boids::dimension_v<V>;
    const S radius = S(2);
    const std::size_t n = dim == 2 ? 600 : 1200;
    for (const auto kind : {boids::edges::open, boids::edges::bounded, boids::edges::wrap}) {
        const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 40000, 40000, 40000);
        boids::random_stream rng(kind == boids::edges::open ? 3 : 4);
        std::vector<V> pos(n), vel(n);
        for (std::size_t i = 0; i < n; ++i) {
            pos[i] = boids::generate<V>([&](std::size_t) { return static_cast<S>(20000.0 + rng.uniform(0, 40)); });
            vel[i] = boids::unit_direction<V>(rng.next());
        }
        // Strays on every side, two of them within reach of each other, and five parked on one spot.
        auto at = [&](double x, double y, double z) { return test::make<V>(x, y, z); };
        pos[3] = at(39000, 20010, 20010);
        pos[4] = at(39001, 20011, 20010);
        pos[5] = at(20010, 100, 20020);
        pos[6] = at(20015, 20020, 39990);
        pos[7] = at(20041.5, 20020, 20020);  // just past the flock
        for (std::size_t i = 10; i < 15; ++i) pos[i] = at(500, 600, 700);
        boids::all_pairs<V> ref(world);
        ref.build(boids::span<const V>(pos));
        boids::uniform_grid<V> g(world, radius);
        g.build(boids::span<const V>(pos));
        CAPTURE(static_cast<int>(kind));
        CHECK(test::cells_held(g) > (dim == 2 ? 200 : 1000));  // by the flock: over its bounds, about 20 an axis
        for (std::size_t i = 0; i < pos.size(); ++i) {
            if (i > 20 && i % 3 != 0) continue;
            test::require_same_answers(g, ref, i, radius, S(7), vel[i], {1, 7, 40});
        }
    }
}

TEMPLATE_TEST_CASE("uniform_grid: flocks far apart each keep cells of the size asked, and every query is all_pairs'",
                   "[uniform_grid][property]", BOIDS_ALL_VEC_TYPES) {
    // Flocks 30 across (2D; 12 in 3D), scattered over a space 40,000 across (a game's
    // map with a few flocks on it), two of them side by side just over two cells apart on
    // one axis: cells of the radius over their bounding box would number far more than 8
    // a boid, and widening them to fit put each flock in a cell or two. The grid squeezes
    // the empty stretches between flocks out of the coordinates it counts cells by, and
    // finds what all_pairs finds, within the radius, within a radius that reaches across
    // the narrow gap, and for k nearest that reach other flocks.
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t dim = boids::dimension_v<V>;
    const S radius = S(2);
    const std::size_t flocks = dim == 2 ? 9 : 5, per = dim == 2 ? 60 : 120;
    const double side = dim == 2 ? 30.0 : 12.0;
    for (const auto kind : {boids::edges::open, boids::edges::bounded, boids::edges::wrap}) {
        const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 40000, 40000, 40000);
        boids::random_stream rng(kind == boids::edges::open ? 5 : 6);
        std::vector<V> pos, vel;
        for (std::size_t f = 0; f < flocks; ++f) {
            std::array<double, 3> corner{};
            for (auto& c : corner) c = rng.uniform(100, 39000);
            for (std::size_t i = 0; i < per; ++i) {
                pos.push_back(boids::generate<V>(
                    [&](std::size_t d) { return static_cast<S>(corner[d] + rng.uniform(0, side)); }));
                vel.push_back(boids::unit_direction<V>(rng.next()));
            }
        }
        // Flock 1 beside flock 0, 4.5 past its side along the first axis (a gap of about
        // 4.5, just over two cells), level with it on the others.
        for (std::size_t i = 0; i < per; ++i)
            pos[per + i] = boids::generate<V>(
                [&](std::size_t d) { return boids::get(pos[i], d) + (d == 0 ? static_cast<S>(side + 4.5) : S(0)); });
        boids::all_pairs<V> ref(world);
        ref.build(boids::span<const V>(pos));
        boids::uniform_grid<V> g(world, radius);
        g.build(boids::span<const V>(pos));
        CAPTURE(static_cast<int>(kind));
        CHECK(test::cells_held(g) > flocks * 25);  // about 60 (2D) or 100 (3D) a flock; unsqueezed, one or two
        for (std::size_t i = 0; i < pos.size(); ++i) {
            if (i % 4 != 0 && i != per - 1 && i != per) continue;
            test::require_same_answers(g, ref, i, radius, S(7), vel[i], {1, 7, per + 10});
        }
    }
}

TEMPLATE_TEST_CASE(
    "uniform_grid: boids spanning more than the largest scalar on one axis, flocks far apart on "
    "another: all_pairs' answers",
    "[uniform_grid][property]", BOIDS_ALL_VEC_TYPES) {
    // The first axis's width overflows to infinity (left as one cell); along the second,
    // three flocks a quarter of the largest scalar apart, over more cells than the grid
    // allows even at the width rounding needs there, are squeezed together. (Run under
    // UBSan: no NaN may reach an integer conversion.)
    using V = TestType;
    using S = boids::scalar_t<V>;
    const S huge = std::numeric_limits<S>::max() / S(1.5);
    const double quarter = static_cast<double>(std::numeric_limits<S>::max()) / 4;
    boids::random_stream rng(9);
    std::vector<V> pos, vel;
    for (std::size_t i = 0; i < 300; ++i) {
        pos.push_back(boids::generate<V>([&](std::size_t d) {
            return static_cast<S>(rng.uniform(0, 20) + (d == 1 ? quarter * static_cast<double>(i % 3) : 0.0));
        }));
        vel.push_back(boids::unit_direction<V>(rng.next()));
    }
    pos[0] = boids::generate<V>([&](std::size_t d) { return d == 0 ? huge : S(5); });
    pos[1] = boids::generate<V>([&](std::size_t d) { return d == 0 ? -huge : S(5); });
    const boids::world_for<V> open{};
    boids::all_pairs<V> ref(open);
    ref.build(boids::span<const V>(pos));
    boids::uniform_grid<V> g(open, S(2));
    g.build(boids::span<const V>(pos));
    for (std::size_t i = 0; i < pos.size(); i += 7) test::require_same_answers(g, ref, i, S(2), S(7), vel[i], {1, 7});
}

TEMPLATE_TEST_CASE("uniform_grid over a large torus: a clump across the seams with a sparse halo, all_pairs' answers",
                   "[uniform_grid][property]", BOIDS_ALL_VEC_TYPES) {
    // A torus far too large to tile, a dense clump centred on its corner (across every
    // seam) and a few boids scattered up to a sixth of the torus around it, some just
    // across a seam from the clump's edge: the flock lies within less than half of the
    // torus, yet its bounding box holds far more cells of the radius than 8 a boid.
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t dim = boids::dimension_v<V>;
    const S radius = S(3);
    const auto world = test::box<V>(boids::edges::toroidal, 4000, 4000, 4000);
    for (double clump_side : {10.0, 30.0}) {
        boids::random_stream rng(static_cast<std::uint64_t>(clump_side));
        std::vector<V> pos(500);
        auto around_corner = [&](double half) {
            return boids::generate<V>([&](std::size_t d) {
                return boids::world_for<V>::wrap_scalar(static_cast<S>(rng.uniform(-half, half)), world.size[d]);
            });
        };
        for (std::size_t i = 0; i < pos.size(); ++i) pos[i] = around_corner(i < 490 ? clump_side / 2 : 650.0);
        // Past the clump's edge, one on each side of a seam.
        pos[490] = test::make<V>(clump_side / 2 + 1.0, 1.0, 1.0);
        pos[491] = test::make<V>(4000.0 - clump_side / 2 - 1.5, 1.0, 1.0);
        pos[492] = test::make<V>(1.0, 4000.0 - clump_side / 2 - 2.0, 3999.0);
        boids::all_pairs<V> ref(world);
        ref.build(boids::span<const V>(pos));
        boids::uniform_grid<V> g(world, radius);
        g.build(boids::span<const V>(pos));
        CAPTURE(clump_side);
        for (std::size_t i = 0; i < pos.size(); ++i) {
            const boids::vision_cone<S, dim> all{};
            REQUIRE(test::metric_set<V>(g, i, radius, all) == test::metric_set<V>(ref, i, radius, all));
            for (std::size_t k : {std::size_t(1), std::size_t(7)})
                REQUIRE(test::knn_list<V>(g, i, k, std::numeric_limits<S>::infinity()) ==
                        test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
        }
    }
}

TEMPLATE_TEST_CASE("uniform_grid over a torus much larger than its flock: the same neighbours and offsets as all_pairs",
                   "[uniform_grid][property]", BOIDS_ALL_VEC_TYPES) {
    // A torus too large to tile with cells of the radius (more than about 8 a boid): a
    // flock within less than half of it on every axis, across a seam or not, gets cells
    // over the flock alone; one that spans half or more gets cells that tile the torus.
    // Both must match all_pairs.
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto world = test::box<V>(boids::edges::toroidal, 400, 280, 160);
    const S radius = S(3);
    for (double start : {0.0, 0.3, 0.52, 0.9, 0.95})  // where the flock starts, in box sizes
        for (double span : {0.1, 0.45, 0.6}) {        // how much of the box it spans
            boids::random_stream rng(static_cast<std::uint64_t>(start * 100 + span * 10));
            std::vector<V> pos(300), vel(300);
            for (std::size_t i = 0; i < pos.size(); ++i) {
                pos[i] = boids::generate<V>([&](std::size_t d) {
                    const double x = (start + span * rng.uniform(0, 1)) * static_cast<double>(world.size[d]);
                    return boids::world_for<V>::wrap_scalar(static_cast<S>(x), world.size[d]);
                });
                vel[i] = boids::unit_direction<V>(rng.next());
            }
            boids::all_pairs<V> ref(world);
            ref.build(boids::span<const V>(pos));
            boids::uniform_grid<V> g(world, radius);
            g.build(boids::span<const V>(pos));
            CAPTURE(start, span);
            // Tiling the torus: about 4,096 cells (8 a boid, at least 4,096); a flock a
            // tenth of it across, across a seam or not, under a thousand cells of the radius.
            if (span < 0.2) CHECK(g.bucket_count() < 1000);
            if (span > 0.5) CHECK(g.bucket_count() > 3000);
            // Across a seam a cell edge lies on it: each cell holds boids of one side.
            const auto runs = g.runs();
            std::size_t mixed = 0;
            for (std::size_t s = 0; s < pos.size(); s = runs.cell_end_of(s)) {
                S image[boids::dimension_v<V>];
                if (runs.one_side_image(s, runs.cell_end_of(s), image) == nullptr) ++mixed;
            }
            CHECK(mixed == 0);
            if (span < 0.5 && start + span > 1.0) CHECK(runs.across_seams());
            for (std::size_t i = 0; i < pos.size(); i += 7) {
                const auto cone = boids::vision_cone<S, boids::dimension_v<V>>::from(vel[i], S(270));
                const boids::vision_cone<S, boids::dimension_v<V>> all{};
                REQUIRE(test::metric_set<V>(g, i, radius, all) == test::metric_set<V>(ref, i, radius, all));
                REQUIRE(test::metric_set<V>(g, i, radius, cone) == test::metric_set<V>(ref, i, radius, cone));
                REQUIRE(test::metric_set<V>(g, i, S(20), all) == test::metric_set<V>(ref, i, S(20), all));
                for (std::size_t k : {std::size_t(1), std::size_t(7), std::size_t(40)})
                    REQUIRE(test::knn_list<V>(g, i, k, std::numeric_limits<S>::infinity()) ==
                            test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
            }
        }
}

TEMPLATE_TEST_CASE("uniform_grid pads a torus's cells only by what rounding needs", "[uniform_grid][property]",
                   BOIDS_ALL_VEC_TYPES) {
    // 14.08 cells of the radius fit across this torus: a 1/64 margin would leave 13
    // (the standard 3D scene of 10,000 boids), the rounding margin leaves 14. A box
    // world, where boids may stray from the box, keeps 1/64.
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const S radius = S(1.5298);
    {
        boids::uniform_grid<V> torus(test::box<V>(boids::edges::toroidal, 21.544, 21.544, 21.544), radius);
        boids::uniform_grid<V> bounded(test::box<V>(boids::edges::bounded, 21.544, 21.544, 21.544), radius);
        // (A box world's grid covers its boids: here two, in opposite corners.)
        const std::vector<V> two{boids::zero<V>(), boids::generate<V>([](std::size_t) { return S(21.54); })};
        torus.build(boids::span<const V>(two));
        bounded.build(boids::span<const V>(two));
        for (std::size_t d = 0; d < D; ++d) {
            CHECK(torus.cells_per_axis()[d] == 14);
            CHECK(bounded.cells_per_axis()[d] == 13);
        }
        CHECK(torus.runs().plan_for(radius).reach == 1);
    }
    // A torus 14 cells across whose cells are as narrow as the margin allows (within
    // twice it), and pairs of boids the radius apart, give or take an ulp or two on
    // each axis, all over it and across its seams: the grid sees what all_pairs sees.
    constexpr S eps = std::numeric_limits<S>::epsilon();
    const S side = S(14) * (radius + S(2) * S(4) * (S(16) * eps * radius + S(8) * eps * S(14) * radius * S(1.001)));
    const auto world = test::box<V>(boids::edges::toroidal, side, side, side);
    boids::random_stream rng(5);
    std::vector<V> pos;
    auto wrap = [&](S x) { return x < S(0) ? x + side : (x >= side ? x - side : x); };
    for (std::size_t pair = 0; pair < 400; ++pair) {
        V a = boids::generate<V>([&](std::size_t) { return S(rng.uniform(0, double(side))); });
        if (pair % 10 == 0)
            a = boids::generate<V>([&](std::size_t d) { return d == pair / 10 % D ? S(0) : boids::get(a, d); });
        if (pair % 10 == 1) a = boids::generate<V>([&](std::size_t) { return std::nextafter(side, S(0)); });
        const V u = boids::generate<V>([&](std::size_t) { return S(rng.normal()); });
        const S len = boids::length(u);
        V b = boids::generate<V>([&](std::size_t d) {
            S x = wrap(boids::get(a, d) + radius * boids::get(u, d) / len);
            for (int step = static_cast<int>(rng.uniform(-2.999, 2.999)); step != 0; step += step > 0 ? -1 : 1)
                x = std::nextafter(x, step > 0 ? side : S(0));
            return x;
        });
        pos.push_back(a);
        pos.push_back(b);
    }
    boids::uniform_grid<V> grid(world, radius);
    grid.build(boids::span<const V>(pos));
    boids::all_pairs<V> ref(world);
    ref.build(boids::span<const V>(pos));
    REQUIRE(grid.cells_per_axis()[0] == 14);
    REQUIRE(grid.runs().plan_for(radius).reach == 1);
    std::size_t at_radius = 0;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        CAPTURE(i);
        const auto got = test::metric_set<V>(grid, i, radius, {});
        REQUIRE(got == test::metric_set<V>(ref, i, radius, {}));
        for (const auto& nb : got)
            at_radius += std::get<1>(nb) > radius * radius * S(0.999) ? std::size_t(1) : std::size_t(0);
    }
    CHECK(at_radius > pos.size() / 4);  // the pairs do sit at the radius
}

TEMPLATE_TEST_CASE("uniform_grid k nearest in dense clouds and uneven flocks equal all_pairs",
                   "[uniform_grid][property]", BOIDS_ALL_VEC_TYPES) {
    // The by-distance query guesses a radius from the local density and widens it when
    // too few fall inside: a Gaussian cloud (dense core, sparse edge), a torus, and
    // cells far smaller and far larger than the neighbours' distances; k up to 257 (past the
    // largest the by-distance query ranks, 256).
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const auto kind = GENERATE(boids::edges::open, boids::edges::toroidal);
    const double cell = GENERATE(0.3, 1.0, 4.0);
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 30, 30, 30);
    boids::random_stream rng(77);
    std::vector<V> pos(1500);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        if (kind == boids::edges::open) {
            pos[i] = boids::generate<V>([&](std::size_t) { return S(4.0 * rng.normal()); });
        } else {
            pos[i] = boids::generate<V>([&](std::size_t) { return S(rng.uniform(0, 30)); });
        }
        if (i % 97 == 5) pos[i] = pos[i - 1];  // a few on the same spot
    }
    boids::all_pairs<V> ref(world);
    ref.build(boids::span<const V>(pos));
    boids::uniform_grid<V> grid(world, S(cell));
    grid.build(boids::span<const V>(pos));
    CAPTURE(static_cast<int>(kind), cell, D);
    for (std::size_t i = 0; i < pos.size(); i += 7) {
        CAPTURE(i);
        for (std::size_t k :
             {std::size_t(7), std::size_t(24), std::size_t(64), std::size_t(80), std::size_t(250), std::size_t(257)}) {
            REQUIRE(test::knn_list<V>(grid, i, k, std::numeric_limits<S>::infinity()) ==
                    test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
            REQUIRE(test::knn_list<V>(grid, i, k, S(1.5)) == test::knn_list<V>(ref, i, k, S(1.5)));
        }
    }
}

TEMPLATE_TEST_CASE(
    "uniform_grid k nearest of boids stacked on one spot: the lowest indices there, as all_pairs finds "
    "them, from a few slots",
    "[uniform_grid][property]", BOIDS_ALL_VEC_TYPES) {
    // A flock spawned on one spot: more on it than the by-distance query ranks (4k + 64),
    // interleaved by index with a stack on a torus's seam (a cell's edge: no shortcut
    // there), twins a rounding apart, and boids around them; every kind of world, cells
    // of two sizes.
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const auto kind = GENERATE(boids::edges::open, boids::edges::toroidal, boids::edges::bounded);
    const double cell = GENERATE(1.0, 6.0);
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 30, 30, 30);
    const V spot = boids::generate<V>([](std::size_t d) { return S(10.3 + 3.1 * double(d)); });
    const V seam = boids::generate<V>([](std::size_t d) { return S(d == 0 ? 0.0 : 12.7); });
    const V twin = boids::generate<V>(
        [&](std::size_t d) { return d == 0 ? std::nextafter(boids::get(spot, 0), S(100)) : boids::get(spot, d); });
    boids::random_stream rng(31);
    std::vector<V> pos(2000);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        switch (i % 10) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4:
        case 5: pos[i] = spot; break;
        case 6: pos[i] = seam; break;
        case 7: pos[i] = i % 20 == 7 ? twin : seam; break;
        default: pos[i] = boids::generate<V>([&](std::size_t) { return S(rng.uniform(1, 29)); });
        }
    }
    boids::all_pairs<V> ref(world);
    ref.build(boids::span<const V>(pos));
    boids::uniform_grid<V> grid(world, S(cell));
    grid.build(boids::span<const V>(pos));
    CAPTURE(static_cast<int>(kind), cell, D);
    std::size_t most_looked = 0;
    for (std::size_t i = 0; i < pos.size(); i += 3) {
        CAPTURE(i);
        for (std::size_t k : {std::size_t(1), std::size_t(7), std::size_t(64), std::size_t(130)}) {
            REQUIRE(test::knn_list<V>(grid, i, k, std::numeric_limits<S>::infinity()) ==
                    test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
            REQUIRE(test::knn_list<V>(grid, i, k, S(0.5)) == test::knn_list<V>(ref, i, k, S(0.5)));
        }
        if (i % 10 < 6) {  // on the spot, away from any cell's edge: a few slots of its own cell
            std::vector<boids::neighbor<S, D>> storage(7);
            boids::k_nearest<S, D> knn(boids::span<boids::neighbor<S, D>>(storage), 7);
            grid.nearest(i, knn);
            most_looked = std::max(most_looked, knn.candidates());
        }
    }
    CHECK(most_looked < pos.size() / 2);
    // The batch (the step's query) gives each slot the same.
    CHECK(batch_off_all_pairs(grid, ref, 7, [](std::size_t) { return true; }) == 0);
}

TEMPLATE_TEST_CASE(
    "uniform_grid k nearest and metric queries of a spawn beside a spread flock: all_pairs' answers from the "
    "sub-cells",
    "[uniform_grid][property]", BOIDS_ALL_VEC_TYPES) {
    // Cells capped by the spread half (about 8 a boid over the world) hold each packed
    // spawn whole: one jittered within half a unit, one across a torus's seam, one on a
    // line (one axis spread only), among boids spread over the world.
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const auto kind = GENERATE(boids::edges::open, boids::edges::toroidal);
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 2000, 2000, 2000);
    boids::random_stream rng(43);
    std::vector<V> pos(4000);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        pos[i] = boids::generate<V>([&](std::size_t d) {
            const double a = rng.uniform(-0.5, 0.5);
            switch (i % 8) {
            case 0:
            case 1:
            case 2: return S(700.3 + a);                                      // the spawn
            case 3: return S(d == 0 ? (a < 0 ? 2000.0 + a : a) : 311.0 + a);  // across the seam
            case 4: return S(d == 0 ? 1500.0 + a : 901.0);                    // a line
            default: return S(rng.uniform(1, 1999));
            }
        });
    }
    boids::all_pairs<V> ref(world);
    ref.build(boids::span<const V>(pos));
    boids::uniform_grid<V> grid(world, S(60));
    grid.serve_queries(S(60), 7, S(1), false);  // as a topological step asks: cells from the flock
    grid.build(boids::span<const V>(pos));
    CAPTURE(static_cast<int>(kind), D);
    std::size_t looked = 0, spawned = 0;
    for (std::size_t i = 0; i < pos.size(); i += 5) {
        CAPTURE(i);
        for (std::size_t k : {std::size_t(1), std::size_t(7), std::size_t(40)})
            REQUIRE(test::knn_list<V>(grid, i, k, std::numeric_limits<S>::infinity()) ==
                    test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
        REQUIRE(test::knn_list<V>(grid, i, 7, S(0.01)) == test::knn_list<V>(ref, i, 7, S(0.01)));
        // Within a radius (the metric query reads only the sub-cells it reaches), all
        // round and in a cone, from within a sub-cell to beyond the crowded cell.
        const auto cone = boids::vision_cone<S, D>::from(boids::unit_direction<V>(i), S(270));
        const boids::vision_cone<S, D> all{};
        for (const S r : {S(0.05), S(0.3), S(2), S(60)}) {
            CAPTURE(r);
            REQUIRE(test::metric_set<V>(grid, i, r, all) == test::metric_set<V>(ref, i, r, all));
            REQUIRE(test::metric_set<V>(grid, i, r, cone) == test::metric_set<V>(ref, i, r, cone));
        }
        if (i % 8 < 3) {
            std::vector<boids::neighbor<S, D>> storage(7);
            boids::k_nearest<S, D> knn(boids::span<boids::neighbor<S, D>>(storage), 7);
            grid.nearest(i, knn);
            looked += knn.candidates();
            ++spawned;
        }
    }
    // A boid of the spawn reads a few sub-cells, not its cell's 1,500 boids.
    CAPTURE(looked / spawned);
    CHECK(looked < spawned * 300);
    CHECK(batch_off_all_pairs(grid, ref, 7, [](std::size_t i) { return i % 13 == 0; }) == 0);
}

TEMPLATE_TEST_CASE("uniform_grid sizes its cells for a spread flock, not for a spawn packed within a unit beside it",
                   "[uniform_grid]", BOIDS_ALL_VEC_TYPES) {
    // Queries of a few nearest: the spawn's boids read the sub-cells of the cells they
    // crowd, so the cells are sized as for the spread flock alone (counted in, the spawn
    // would shrink every cell to the cap on their count).
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto world = test::box<V>(boids::edges::toroidal, 2000, 2000, 2000);
    boids::random_stream rng(44);
    std::vector<V> spread(2000), both;
    for (auto& x : spread) x = boids::generate<V>([&](std::size_t) { return S(rng.uniform(1, 1999)); });
    both = spread;
    for (std::size_t i = 0; i < 2000; ++i)
        both.push_back(boids::generate<V>([&](std::size_t) { return S(1000.3 + rng.uniform(-0.5, 0.5)); }));
    struct query {
        std::size_t nearest;
        bool within_radius;
    };
    for (query q : {query{7, false}, query{7, true}, query{64, true}}) {
        boids::uniform_grid<V> alone(world, S(60)), beside(world, S(60));
        alone.serve_queries(S(60), q.nearest, S(1), q.within_radius);
        beside.serve_queries(S(60), q.nearest, S(1), q.within_radius);
        alone.build(boids::span<const V>(spread));
        beside.build(boids::span<const V>(both));
        CAPTURE(q.nearest, q.within_radius, alone.cell_size(), beside.cell_size());
        CHECK(beside.cell_size() > alone.cell_size() * S(0.5));
        CHECK(beside.cell_size() < alone.cell_size() * S(2));
    }
}

TEMPLATE_TEST_CASE("uniform_grid k nearest when boids stray outside a box world", "[uniform_grid][property]",
                   BOIDS_VEC2_TYPES) {
    // Boids beyond the box sit in its edge cells (found by fuzzing: a boid above the
    // box, with twins on the same spot, was not given its twins).
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto kind = GENERATE(boids::edges::bounded, boids::edges::wrap);
    const auto world = test::box<V>(kind, 100, 70);
    boids::random_stream rng(5);
    std::vector<V> pos;
    for (int i = 0; i < 400; ++i) {
        const double x = rng.uniform(-30, 130), y = rng.uniform(-30, 100);
        pos.push_back(boids::generate<V>([&](std::size_t d) { return S(d == 0 ? x : y); }));
        if (i % 9 == 0) pos.push_back(pos.back());
    }
    boids::all_pairs<V> ref(world);
    ref.build(boids::span<const V>(pos));
    boids::uniform_grid<V> grid(world, S(1));
    grid.build(boids::span<const V>(pos));
    for (std::size_t i = 0; i < pos.size(); ++i) {
        CAPTURE(static_cast<int>(kind), i);
        for (std::size_t k : {std::size_t(1), std::size_t(2), std::size_t(7)}) {
            REQUIRE(test::knn_list<V>(grid, i, k, std::numeric_limits<S>::infinity()) ==
                    test::knn_list<V>(ref, i, k, std::numeric_limits<S>::infinity()));
            REQUIRE(test::knn_list<V>(grid, i, k, S(1)) == test::knn_list<V>(ref, i, k, S(1)));
        }
    }
}

TEMPLATE_TEST_CASE("uniform_grid nearest_in_slots gives every slot what nearest_in_slot gives it",
                   "[uniform_grid][property]", BOIDS_ALL_VEC_TYPES) {
    // The batch shares one block of candidates per cell; the answer must not change,
    // bit for bit: uniform tori (large, and 3 or 4 cells across), Gaussian clouds in
    // open worlds, boids outside a box, twins on one spot, and k from 1 to 80.
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const auto kind = GENERATE(boids::edges::open, boids::edges::toroidal, boids::edges::bounded);
    const double side = GENERATE(9.0, 13.0, 40.0);
    const double cell = GENERATE(1.0, 3.0);
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, side, side, side);
    boids::random_stream rng(static_cast<std::uint64_t>(side * 10 + cell));
    std::vector<V> pos(D == 2 ? 800 : 1200);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        if (kind == boids::edges::open)
            pos[i] = boids::generate<V>([&](std::size_t) { return S(side / 8 * rng.normal()); });
        else if (kind == boids::edges::bounded)
            pos[i] = boids::generate<V>([&](std::size_t) { return S(rng.uniform(-2, side + 2)); });
        else pos[i] = boids::generate<V>([&](std::size_t) { return S(rng.uniform(0, side)); });
        if (i % 53 == 7) pos[i] = pos[i - 1];
    }
    boids::uniform_grid<V> grid(world, S(cell));
    grid.build(boids::span<const V>(pos));
    CAPTURE(static_cast<int>(kind), side, cell, D);
    for (std::size_t k : {std::size_t(1), std::size_t(7), std::size_t(24), std::size_t(80)}) {
        for (S max_radius : {std::numeric_limits<S>::infinity(), S(cell * 0.8), S(cell * 2.5)}) {
            std::vector<boids::neighbor<S, D>> a(k), b(k);
            boids::k_nearest<S, D> one(boids::span<boids::neighbor<S, D>>(a), k);
            boids::k_nearest<S, D> batch(boids::span<boids::neighbor<S, D>>(b), k);
            std::size_t visited = 0, in_order = 0, differ = 0, first_differ = pos.size();
            grid.nearest_in_slots(
                0, pos.size(), batch, max_radius, [&](std::size_t s, const boids::k_nearest<S, D>& got) {
                    in_order += s == visited ? 1 : 0;  // every slot, in order
                    ++visited;
                    grid.nearest_in_slot(s, one, max_radius);
                    bool same = got.size() == one.size();
                    for (std::size_t j = 0; same && j < got.size(); ++j)
                        same = got[j].index == one[j].index &&
                               std::memcmp(&got[j].distance_squared, &one[j].distance_squared, sizeof(S)) == 0 &&
                               std::memcmp(got[j].offset.data(), one[j].offset.data(), sizeof(S) * D) == 0;
                    if (!same && differ++ == 0) first_differ = s;
                });
            CAPTURE(k, max_radius, first_differ);
            REQUIRE(in_order == pos.size());
            REQUIRE(differ == 0);
            REQUIRE(visited == pos.size());
        }
    }
}

TEMPLATE_TEST_CASE("uniform_grid built by several tasks equals the sequential build", "[uniform_grid][threads]",
                   BOIDS_VEC2_TYPES, BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto kind = GENERATE(boids::edges::toroidal, boids::edges::bounded, boids::edges::open);
    const bool apart = GENERATE(false, true);  // six flocks far apart (outside a torus: a squeezed grid)
    const auto world = kind == boids::edges::open ? boids::world_for<V>{} : test::box<V>(kind, 60, 60, 60);
    boids::random_stream rng(3);
    std::vector<V> pos(20000);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const double shift = apart ? 20000.0 * static_cast<double>(i % 6) : 0.0;
        pos[i] = boids::generate<V>([&](std::size_t d) { return S(rng.uniform(-5, 65) + (d == 0 ? shift : 0.0)); });
        if (i % 101 == 3) pos[i] = pos[i - 1];
    }
    boids::uniform_grid<V> one(world, S(2)), many(world, S(2));
    one.build(boids::span<const V>(pos));
    if (apart && kind != boids::edges::toroidal)
        CHECK(test::cells_held(one) > 1000);  // thousands of cells of 2; unsqueezed, 500-700
    for (std::size_t tasks : {std::size_t(2), std::size_t(3), std::size_t(8)}) {
        CAPTURE(static_cast<int>(kind), apart, tasks);
        many.build(boids::span<const V>(pos), boids::thread_count{2}, tasks);
        REQUIRE(many.size() == one.size());
        REQUIRE(std::equal(one.order().begin(), one.order().end(), many.order().begin()));
        for (std::size_t d = 0; d < boids::dimension_v<V>; ++d)
            REQUIRE(std::memcmp(one.runs().axis(d).data(), many.runs().axis(d).data(), sizeof(S) * pos.size()) == 0);
        std::size_t same_cells = 0, same_slots = 0;
        for (std::size_t s = 0; s < pos.size(); ++s)
            same_cells += one.runs().cell_end_of(s) == many.runs().cell_end_of(s) ? std::size_t(1) : std::size_t(0);
        for (std::size_t i = 0; i < pos.size(); ++i)
            same_slots += one.slot_of(i) == many.slot_of(i) ? std::size_t(1) : std::size_t(0);
        REQUIRE(same_cells == pos.size());
        REQUIRE(same_slots == pos.size());
        REQUIRE(many.runs().all_in_box() == one.runs().all_in_box());
        REQUIRE(test::knn_list<V>(many, 17, 7, S(3)) == test::knn_list<V>(one, 17, 7, S(3)));
    }
}

TEMPLATE_TEST_CASE("uniform_grid puts every boid in the cell its coordinates name", "[uniform_grid]", BOIDS_VEC2_TYPES,
                   BOIDS_VEC3_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    const auto kind = GENERATE(boids::edges::toroidal, boids::edges::bounded);
    const bool torus = kind == boids::edges::toroidal;
    const auto world = test::box<V>(kind, 60, 45, 30);
    boids::uniform_grid<V> g(world, S(3));
    // The cells that tile the box (a torus's, whatever its boids; a bounded world's
    // grid covers its boids instead, below).
    boids::uniform_grid<V> tiling(test::box<V>(boids::edges::toroidal, 60, 45, 30), S(3));
    tiling.build(boids::span<const V>());
    const auto tiles = tiling.cells_per_axis();
    REQUIRE(tiles[0] > 10);
    auto tile_width = [&](std::size_t d) { return world.size[d] / static_cast<S>(tiles[d]); };
    // 1,037 boids (the build goes by chunks of 64: a tail, and whole chunks inside
    // the box as well as chunks with a boid outside it), many exactly on cell edges.
    boids::random_stream rng(7);
    std::vector<V> pos(1037);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        pos[i] = boids::generate<V>([&](std::size_t d) {
            const double u = rng.uniform(0, 1);
            if (i % 3 == 0) return static_cast<S>(std::floor(u * tiles[d])) * tile_width(d);  // on an edge
            if (i % 7 == 1) return std::nextafter(world.size[d], S(0));                       // the last value inside
            return static_cast<S>(u * static_cast<double>(world.size[d]));
        });
        if (i >= 700 && i % 50 == 0)
            pos[i] = boids::generate<V>([&](std::size_t d) { return S(-3) - static_cast<S>(d); });
        if (i >= 700 && i % 50 == 25) pos[i] = boids::generate<V>([&](std::size_t d) { return world.size[d] + S(1); });
    }
    pos[1000] = boids::generate<V>([](std::size_t) { return std::numeric_limits<S>::quiet_NaN(); });
    g.build(boids::span<const V>(pos));
    const auto cells = g.cells_per_axis();
    if (torus) REQUIRE(cells == tiles);
    REQUIRE(cells[0] > 10);
    // Where the cells start and how wide they are: the box's for a torus, else the
    // bounding box of the finite boids (here from -3 - d to the side + 1).
    S origin[D], width[D];
    for (std::size_t d = 0; d < D; ++d) {
        S lo = S(0), hi = world.size[d];
        if (!torus) {
            lo = std::numeric_limits<S>::max();
            hi = std::numeric_limits<S>::lowest();
            for (const V& x : pos)
                if (boids::is_finite(x)) {
                    lo = std::min(lo, boids::get(x, d));
                    hi = std::max(hi, boids::get(x, d));
                }
            CHECK(lo == S(-3) - static_cast<S>(d));
            CHECK(hi == world.size[d] + S(1));
        }
        origin[d] = lo;
        width[d] = (hi - lo) / static_cast<S>(cells[d]);
    }
    // Cell j of axis d holds [origin + j w, origin + (j + 1) w); a torus wraps first,
    // a bounded world clamps to its edge cells (NaN to cell 0).
    auto cell_of = [&](S x, std::size_t d) {
        if (torus) x = boids::world_for<V>::wrap_scalar(x, world.size[d]);
        S t = (x - origin[d]) / width[d];
        if (!(t >= S(0))) t = S(0);
        if (t > static_cast<S>(cells[d] - 1)) t = static_cast<S>(cells[d] - 1);
        return static_cast<std::size_t>(t);
    };
    std::vector<std::size_t> bucket(pos.size());
    for (std::size_t s = 0; s < pos.size(); ++s) {
        std::size_t b = 0;
        for (std::size_t d = D; d-- > 0;) b = b * static_cast<std::size_t>(cells[d]) + cell_of(g.runs().axis(d)[s], d);
        bucket[s] = b;
    }
    std::size_t in_order = 0, right_ends = 0;
    for (std::size_t s = 0; s < pos.size(); ++s) {
        in_order += s == 0 || bucket[s] >= bucket[s - 1] ? std::size_t(1) : std::size_t(0);
        std::size_t end = s + 1;
        while (end < pos.size() && bucket[end] == bucket[s]) ++end;
        right_ends += g.runs().cell_end_of(s) == end ? std::size_t(1) : std::size_t(0);
    }
    CAPTURE(static_cast<int>(kind));
    REQUIRE(in_order == pos.size());
    REQUIRE(right_ends == pos.size());
}

TEMPLATE_TEST_CASE("uniform_grid counts the candidates its k-nearest queries look at", "[uniform_grid][sink]",
                   BOIDS_VEC2_TYPES) {
    // A uniform torus, about 4 boids a cell: the batch looks at each cell's block (its
    // runs, as the metric query's), a query of its own at the cells its ball touches.
    using V = TestType;
    using S = boids::scalar_t<V>;
    const auto world = test::box<V>(boids::edges::toroidal, 40, 40, 40);
    boids::random_stream rng(11);
    std::vector<V> pos(1600);
    for (auto& p : pos) {
        const double x = rng.uniform(0, 40);
        const double y = rng.uniform(0, 40);
        p = test::make<V>(x, y);
    }
    boids::uniform_grid<V> grid(world, S(2));
    grid.build(boids::span<const V>(pos));
    const auto plan = grid.runs().plan_for(S(2));
    std::size_t blocks = 0;
    for (std::size_t s = 0; s < pos.size(); ++s)
        grid.runs().for_each_run(s, plan, [&](std::size_t s0, std::size_t s1) { blocks += s1 - s0; });
    std::vector<boids::neighbor<S, 2>> storage(7);
    boids::k_nearest<S, 2> knn(boids::span<boids::neighbor<S, 2>>(storage), 7);
    std::size_t found = 0;
    grid.nearest_in_slots(0, pos.size(), knn, std::numeric_limits<S>::infinity(),
                          [&](std::size_t, const boids::k_nearest<S, 2>& k) { found += k.size(); });
    REQUIRE(found == 7 * pos.size());
    CAPTURE(blocks, knn.candidates());
    CHECK(knn.candidates() >= blocks);  // every block, and the queries that went on alone
    CHECK(knn.candidates() < blocks + blocks / 10);
    knn.reset_candidates();
    std::size_t fewest = pos.size(), most = 0;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const std::size_t before = knn.candidates();
        grid.nearest(i, knn);
        const std::size_t looked = knn.candidates() - before;
        fewest = std::min(fewest, looked);
        most = std::max(most, looked);
    }
    CAPTURE(fewest, most);
    CHECK(fewest >= 8);                // the 7 found and the boid itself, at least
    CHECK(most < pos.size() / 10);     // never a scan of the flock
    CHECK(knn.candidates() < blocks);  // rows of cells the ball touches, fewer than whole blocks
}

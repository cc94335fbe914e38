// pack_width_digest.cpp - prints a digest of every bit of a few flocks after some
// steps. Built once per pack width (scalar packs; this build's packs with the
// kernel's run-time AVX dispatch; 16-byte packs without it; 32-byte packs built
// with -mavx, run where the CPU has AVX); the test
// flock.same-bits-any-pack-width (compare_outputs.cmake) requires every build to
// print the same lines, which holds because the kernel sums in eight logical lanes
// whatever the width of its packs (flock/detail/kernel.hpp). Built once more against
// boids::prebuilt (the step and the kernel taken from its library, compiled
// separately): the same lines again.
#include <boids/boids.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include "bits_digest.hpp"
#include "plain_vectors.hpp"

namespace {
using f2 = test::fvec2;
using d3 = test::dvec3;
}  // namespace

namespace {
// The ready-made step, or with `blend` where one is given.
template <class V, class... Blend>
void run(const char* name, boids::flock_config<V> cfg, std::size_t n, int steps, const Blend&... blend) {
    using S = boids::scalar_t<V>;
    std::vector<V> p, v;
    boids::lesson::scatter(7, cfg, p, v, n);
    boids::uniform_grid<V> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<V> ws;
    for (int s = 0; s < steps; ++s)
        boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, grid, ws, S(0.05), blend...);
    std::printf("%-28s %016llx\n", name, static_cast<unsigned long long>(test::bits_digest{}.eat(p).eat(v).value()));
}

template <class V>
boids::flock_config<V> scene(boids::edges kind, double side, double radius) {
    using S = boids::scalar_t<V>;
    boids::flock_config<V> c;
    c.world.kind = kind;
    c.world.size.fill(S(side));
    c.limits = {S(2.0), S(4.0), S(0.5), S(0.5)};
    c.view_radius = S(radius);
    c.separate.radius = S(radius * 0.6);
    return c;
}
}  // namespace

int main() {
    using boids::edges;
    using boids::separation_falloff;
    // A large torus (runs with one image: per_shift), a small one (per_lane), a box
    // and an open world; the lesson's, inverse-square and linear separations; a cone.
    for (edges kind : {edges::toroidal, edges::bounded, edges::open}) {
        const std::string k = kind == edges::toroidal ? "torus" : (kind == edges::bounded ? "box" : "open");
        auto c2 = scene<f2>(kind, 40.0, 2.0);
        run(("2d/" + k + "/lesson").c_str(), c2, 600, 40);
        c2.separate.falloff = separation_falloff::inverse_square;
        c2.separate.strength = 0.05f;
        c2.view_angle = 270.0f;
        run(("2d/" + k + "/inverse-square/cone").c_str(), c2, 600, 40);
        auto c3 = scene<d3>(kind, 12.0, 2.0);
        c3.separate.falloff = separation_falloff::linear;
        run(("3d/" + k + "/linear").c_str(), c3, 500, 30);
    }
    auto small = scene<f2>(edges::toroidal, 5.0, 2.0);  // under three cells a side: per_lane wrapping
    run("2d/small-torus/lesson", small, 60, 40);
    // Packed flocks (about 170 neighbours a boid in 2D, 230 in 3D): a cap the grid
    // sizes its cells for (the near block), a cone, no cap (cells of half the radius).
    for (edges kind : {edges::toroidal, edges::bounded}) {
        const std::string k = kind == edges::toroidal ? "torus" : "box";
        auto packed = scene<f2>(kind, 12.0, 2.0);
        packed.max_neighbors = 7;
        packed.view_angle = 270.0f;
        run(("2d/packed-" + k + "/cap-7/cone").c_str(), packed, 2000, 15);
        packed.max_neighbors = boids::no_cap;
        packed.view_angle = 360.0f;
        run(("2d/packed-" + k + "/no-cap").c_str(), packed, 2000, 15);
    }
    auto packed3 = scene<d3>(edges::toroidal, 8.0, 2.0);
    packed3.max_neighbors = 16;
    packed3.separate.falloff = separation_falloff::linear;
    run("3d/packed-torus/cap-16", packed3, 2000, 10);
    auto topo = scene<d3>(edges::toroidal, 12.0, 2.0);
    topo.neighbors = boids::neighborhood_kind::topological;
    run("3d/torus/topological", topo, 500, 30);
#if defined(BOIDS_DIGEST_GLM)
    // GLM's vectors, whose ready-made step boids::prebuilt holds whole.
    auto g2 = scene<glm::vec2>(edges::toroidal, 40.0, 2.0);
    g2.view_angle = 270.0f;
    run("glm/vec2/torus/cone", g2, 600, 40);
    auto g3 = scene<glm::dvec3>(edges::bounded, 12.0, 2.0);
    g3.max_neighbors = 7;
    run("glm/dvec3/box/cap-7", g3, 500, 30);
    // A blend of the user's (which boids::prebuilt calls through a blend_ref).
    const boids::flock_rules<glm::vec2> rules(g2);
    const auto own = [&rules](const boids::boid_view<glm::vec2>& b, const boids::neighborhood_summary<glm::vec2>& s) {
        return rules(b, s) + glm::vec2(0.25f, 0.0f);
    };
    run("glm/vec2/torus/own-blend", g2, 600, 40, own);
#endif
    return 0;
}

// scenes_digest.cpp - runs seeded scenes of the library (the lesson's flock on a
// wrapped and a toroidal world, a wandering vehicle, the starlings, RVO2's circle of
// agents) and prints one digest of every bit of each. same_bits_across_compilers.sh
// builds it with other compilers and optimisation levels and requires the same lines
// (docs/determinism.md).
#include <boids/boids.hpp>
#include <cmath>
#include <cstdio>
#include <vector>
#include "bits_digest.hpp"
#include "crowd_circle.hpp"
#include "plain_vectors.hpp"

namespace {
using f2 = test::fvec2;
using f3 = test::fvec3;

// Prints `name` and the digest of every bit of the vectors given.
template <class A, class B>
void print(const char* name, const std::vector<A>& a, const std::vector<B>& b) {
    std::printf("%-24s %016llx\n", name, static_cast<unsigned long long>(test::bits_digest{}.eat(a).eat(b).value()));
}

void lesson_flock(const char* name, boids::edges kind) {
    auto cfg = boids::lesson::config<f2>();
    cfg.world.kind = kind;
    std::vector<f2> p, v;
    boids::lesson::scatter(3, cfg, p, v, 500);
    boids::uniform_grid<f2> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<f2> ws;
    for (int s = 0; s < 300; ++s) boids::flock_step(boids::span<f2>(p), boids::span<f2>(v), cfg, grid, ws, 1.0f / 60);
    print(name, p, v);
}

void wandering_vehicle() {
    const boids::steering_limits<float> limits{150, 300, 0.25f, 0};
    const boids::wander<f2> wander{40, 80, 3, limits};
    auto state = boids::wander_state<f2>::seeded(9);
    std::vector<f2> p{{400, 225}}, v{{60, 0}};
    const float dt = 1.0f / 60;
    for (int s = 0; s < 600; ++s) boids::integrate(p[0], v[0], wander(p[0], v[0], state, dt), dt, limits);
    print("vehicle/wander", p, v);
}

void starlings() {
    const boids::starling::params<float> model{};
    std::vector<f3> p, v;
    boids::starling::starting_cloud(2, 3000, model, p, v);
    boids::starling::flock<f3> f(model, p.size());
    const auto steps = static_cast<int>(std::lround(10.0 / static_cast<double>(model.dt)));
    for (int s = 0; s < steps; ++s) f.step(boids::span<f3>(p), boids::span<f3>(v));
    print("starlings/roost", p, v);
}

void crowd_circle() {
    test::crowd_circle scene(250, 1);
    boids::uniform_grid<test::dvec2> grid(boids::world_for<test::dvec2>{}, scene.config.neighbor_distance);
    boids::crowd_workspace<test::dvec2> ws;
    for (int s = 0; s < 400; ++s) {
        scene.aim();
        boids::crowd_step(scene.agents(), scene.config, grid, ws);
    }
    print("crowd/circle", scene.position, scene.velocity);
}
}  // namespace

int main() {
    lesson_flock("flock/wrap", boids::edges::wrap);
    lesson_flock("flock/toroidal", boids::edges::toroidal);
    wandering_vehicle();
    starlings();
    crowd_circle();
    return 0;
}

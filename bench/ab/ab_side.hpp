// bench/ab/ab_side.hpp - what each side of bench/ab.sh offers the driver: one flock
// of the standard scene, stepped by one copy of the headers.
#pragma once
#include <cstddef>
#include <cstdint>

struct ab_side {
    virtual ~ab_side() = default;
    // One step (the scene starts afresh every 20 steps, so it stays as it began:
    // uniform, or settled); its wall time in microseconds.
    virtual double step() = 0;
    // A digest of every position's bits.
    [[nodiscard]] virtual std::uint64_t digest() const = 0;
};

struct ab_scene {
    std::size_t boids = 10000;
    bool topological = false;  // k = 7
    bool crowd = false;        // crowd_step on RVO2's circle instead of a flock (the view angle is unused)
    long settle_steps = 0;     // untimed steps first: the flock then starts from where they left it
};

// What may differ between the sides: the dimension, the vision cone (degrees; 360:
// none) and the threads (a thread_pool of this many, made once).
struct ab_run {
    int dim = 2;
    double view_angle = 360;
    std::size_t threads = 1;
};

ab_side* make_side_a(const ab_scene& scene, const ab_run& run);
ab_side* make_side_b(const ab_scene& scene, const ab_run& run);

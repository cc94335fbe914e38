// boids/flock_config.hpp - what a flock step is told: which neighbours (metric or
// topological, radius, cone, k, separation's push), the limits it moves within,
// the ready-made blend's rules, and the workspace and report it keeps.
#pragma once
#include <cmath>
#include <limits>
#include <vector>
#include "detail/flock_kernel.hpp"
#include "flocking.hpp"
#include "neighbors/world.hpp"
#include "steer.hpp"

namespace boids {

// The order in which a boid's neighbours are summed.
enum class neighbor_order {
    // The finder's own order. Grids scan cells with a vectorised kernel: fastest.
    // Bit-identical for any thread count; differs from all_pairs in the last bits.
    finder,
    // By boid index: every finder gives the same bits (slower: a sort per boid).
    by_index
};

enum class neighborhood_kind {
    metric,      // every boid within the view radius (and the cone)
    topological  // the k nearest (within the view radius)
};

template <class V>
struct flock_config {
    using S = scalar_t<V>;
    world_for<V> world{};
    steering_limits<S> limits{};
    neighborhood_kind neighbors = neighborhood_kind::metric;
    S view_radius = S(1);
    S view_angle = S(360);            // degrees; a full circle means no cone
    std::size_t k = 7;                // topological: how many
    std::size_t max_neighbors = 256;  // metric: the nearest this many count (0: none)
    neighbor_order order = neighbor_order::finder;

    separation<V> separate{S(1)};
    alignment<V> align{};
    cohesion<V> cohere{};
    bool use_separation = true, use_alignment = true, use_cohesion = true;
    S separation_weight = S(1), alignment_weight = S(1), cohesion_weight = S(1);

    bool has_predator = false;
    V predator{};
    S panic_radius = S(0);
    S flee_weight = S(1);

    [[nodiscard]] validation validate() const noexcept {
        if (auto v = limits.validate(); !v) return v;
        if (auto v = world.validate(); !v) return v;
        if (!(std::isfinite(view_radius) && view_radius > 0))
            return detail::fail("view_radius", "must be finite and > 0");
        if (!(view_radius * view_radius >= std::numeric_limits<S>::min() &&
              view_radius * view_radius <= std::numeric_limits<S>::max()))
            return detail::fail("view_radius", "its square must be a normal number (about 1e-154 to 1e154 in double)");
        if (!(view_angle >= 0 && view_angle <= S(360)))
            return detail::fail("view_angle", "must be in [0, 360] degrees");
        if (neighbors == neighborhood_kind::topological && k == 0) return detail::fail("k", "must be >= 1");
        if (!(std::isfinite(separate.radius) && separate.radius >= 0))
            return detail::fail("separation.radius", "must be finite and >= 0");
        if (!(std::isfinite(separate.strength) && separate.strength >= 0))
            return detail::fail("separation.strength", "must be finite and >= 0");
        for (S w : {separation_weight, alignment_weight, cohesion_weight, flee_weight})
            if (!(std::isfinite(w) && w >= 0)) return detail::fail("weights", "must be finite and >= 0");
        if (has_predator && !(std::isfinite(panic_radius) && panic_radius >= 0))
            return detail::fail("panic_radius", "must be finite and >= 0");
        if (has_predator && !boids::is_finite(predator)) return detail::fail("predator", "must be finite");
        return {};
    }
};

namespace detail {
// A boid's new state, kept by slot until every boid has looked. Position and
// velocity side by side: the last pass, which copies them to the caller's arrays in
// index order, reads one place per boid, not two (at a million boids, random lines).
template <class V>
struct moved_boid {
    V position, velocity;
};
}  // namespace detail

// Which way flock_step went for its last step, and why (flock_workspace::report).
enum class flock_path {
    none,          // no step yet
    fused_kernel,  // metric neighbours over a dense grid: the vectorised kernel, boid by boid in cell order
    per_boid       // a query per boid through the finder, then the same sums
};
struct flock_step_report {
    flock_path path = flock_path::none;
    const char* reason = "";           // why this path
    std::size_t boids_off_kernel = 0;  // on the kernel's path: boids it handed to the per-boid path
                                       // (boids on one spot, crowded boids in a cone, over-full cells)
};

// Scratch space for flock_step: accelerations and one neighbour buffer per task.
template <class V>
struct flock_workspace {
    using S = scalar_t<V>;
    std::vector<V> accelerations;
    std::vector<neighbor<S, dimension_v<V>>> neighbors;  // tasks * capacity
    std::vector<S> sorted_velocities;                    // per axis, in the grid's cell order
    std::vector<detail::moved_boid<V>> finished_states;  // new states by slot (the fused step: every boid's)
    std::vector<unsigned char> finished;                 // by slot: the new state above is ready
    std::vector<unsigned char> task_ok;                  // per task: its boids suit the fused kernel
    std::vector<S> blocks;                               // per task: a cell's candidates (see block_for)
    std::vector<S> crowd_distances;                      // per task: a crowded boid's distances (heeded_radius_squared)
    std::vector<std::size_t> off_kernel;                 // per task: boids handed from the kernel to the per-boid path
    std::vector<V> gathered_positions, gathered_velocities;  // a strided step's copies of your members
    std::size_t capacity = 0;
    std::size_t tasks = 0;
    flock_step_report report{};  // the last step's path and why

    // A cell's candidates beyond this many take the general path; the block stays
    // small enough for the first-level cache.
    static constexpr std::size_t block_capacity = 1024;
    static_assert(block_capacity <= detail::block_capacity_limit, "counts in the kernel must stay exact");
    static constexpr std::size_t block_stride = block_capacity + 16;   // + lanes read past the end
    static constexpr std::size_t block_rows = 3 * dimension_v<V> + 1;  // positions, velocities, shifts per axis; zeros
    static constexpr std::size_t crowd_stride = block_capacity + detail::distance_padding<S>;

    [[nodiscard]] detail::candidate_block<S, dimension_v<V>> block_for(std::size_t task) noexcept {
        constexpr std::size_t D = dimension_v<V>;
        detail::candidate_block<S, D> b;
        S* base = blocks.data() + task * block_rows * block_stride;
        for (std::size_t d = 0; d < D; ++d) {
            b.pos[d] = base + d * block_stride;
            b.vel[d] = base + (D + d) * block_stride;
            b.shift[d] = b.shift_row[d] = base + (2 * D + d) * block_stride;
        }
        b.no_shift = base + 3 * D * block_stride;  // zeros, never written
        b.capacity = block_capacity;
        return b;
    }

    void prepare(std::size_t n, std::size_t task_count, std::size_t per_boid) {
        if (accelerations.size() != n) accelerations.resize(n);
        if (tasks != task_count || capacity != per_boid) {
            tasks = task_count;
            capacity = per_boid;
            neighbors.resize(tasks * capacity);
            task_ok.resize(tasks);
            off_kernel.resize(tasks);
            // Zeros, so lanes read past a block's end are finite on the first fill.
            blocks.assign(tasks * block_rows * block_stride, S(0));
            crowd_distances.assign(tasks * crowd_stride, S(0));
        }
    }
};

}  // namespace boids

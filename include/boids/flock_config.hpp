// boids/flock_config.hpp - what a flock step is told: which neighbours (metric or
// topological, radius, cone, k, separation's push), the limits it moves within,
// the ready-made blend's rules, and the workspace and report it keeps.
#pragma once
#include <algorithm>
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

// flock_config::max_neighbors for a metric neighbourhood without a cap: every boid
// within the radius and the cone counts (0 means the same).
inline constexpr std::size_t no_cap = std::numeric_limits<std::size_t>::max();

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
    std::size_t max_neighbors = 256;  // metric: the nearest this many count (no_cap or 0: all of them)
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

    // How many neighbours a metric neighbourhood keeps: max_neighbors, with 0 read as no_cap.
    [[nodiscard]] std::size_t neighbor_cap() const noexcept { return max_neighbors == 0 ? no_cap : max_neighbors; }
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
    fused_kernel,  // metric neighbours over a dense grid: every boid on the vectorised kernel, in cell order
    mixed,         // the fused kernel for most boids; boids_off_kernel of them (see off_kernel) boid by boid
    per_boid       // a query per boid through the finder, then the same sums
};
// Why boids of a fused step left the kernel for the per-boid path, by reason.
struct off_kernel_counts {
    std::size_t on_one_spot = 0;  // a neighbour on the boid's very spot (the per-boid path's seeded push)
    std::size_t tied_at_cap = 0;  // the nearest max_neighbors end within a tie in distance, broken by index there
};
struct flock_step_report {
    flock_path path = flock_path::none;
    const char* reason = "";           // why this path
    std::size_t boids_off_kernel = 0;  // on the kernel's path: boids it handed to the per-boid path
    off_kernel_counts off_kernel{};    // the same, by reason
};

namespace detail {
// A block of candidates' storage (candidate_block), grown to the largest block met.
template <class S, std::size_t D>
struct block_storage {
    std::vector<S> data;  // block_rows rows, `stride` apart
    std::size_t capacity = 0, stride = 0;

    static constexpr std::size_t block_rows = 3 * D + 1;  // positions, velocities, shifts per axis; zeros
    static constexpr std::size_t first_capacity = 1024;   // candidates: a block the first-level cache holds

    // Room for `candidates` (the kernel reads up to 16 lanes past the end).
    void reserve(std::size_t candidates) {
        if (candidates <= capacity && !data.empty()) return;
        std::size_t c = std::max(first_capacity, capacity);
        while (c < candidates) c *= 2;
        capacity = c;
        stride = c + 16;
        data.assign(block_rows * stride, S(0));  // zeros: lanes read past a block's end are finite
    }
    [[nodiscard]] candidate_block<S, D> view() {
        if (data.empty()) reserve(first_capacity);
        candidate_block<S, D> b;
        S* base = data.data();
        for (std::size_t d = 0; d < D; ++d) {
            b.pos[d] = base + d * stride;
            b.vel[d] = base + (D + d) * stride;
            b.shift[d] = b.shift_row[d] = base + (2 * D + d) * stride;
        }
        b.no_shift = base + 3 * D * stride;  // zeros, never written
        b.capacity = capacity;
        return b;
    }
};

// One task's scratch space in a flock step. Each task grows its own, to the largest
// neighbourhood it has met: a step allocates nothing once the flock has been as dense.
template <class S, std::size_t D>
struct task_scratch {
    std::vector<neighbor<S, D>> neighbors;  // the per-boid path: one boid's neighbours
    block_storage<S, D> full, near;         // a cell's candidates within the radius; in the cells around it
    std::vector<S> distances;               // a crowded boid's distances to a block's candidates
    off_kernel_counts off{};                // boids handed from the kernel to the per-boid path

    // A view of `storage` with room for `candidates`; the distances keep up.
    [[nodiscard]] candidate_block<S, D> block_for(block_storage<S, D>& storage, std::size_t candidates) {
        storage.reserve(candidates);
        const std::size_t most = std::max(full.capacity, near.capacity) + distance_padding<S>;
        if (distances.size() < most) distances.assign(most, S(0));
        return storage.view();
    }
    // The former for the whole radius, as tests use it.
    [[nodiscard]] candidate_block<S, D> block_view() { return block_for(full, 0); }
};
}  // namespace detail

// Scratch space for flock_step: accelerations, and per task a neighbour buffer and
// the kernel's block, each grown to what the flock needs.
template <class V>
struct flock_workspace {
    using S = scalar_t<V>;
    std::vector<V> accelerations;
    std::vector<S> sorted_velocities;                              // per axis, in the grid's cell order
    std::vector<detail::moved_boid<V>> finished_states;            // new states by slot (the fused step: every boid's)
    std::vector<unsigned char> finished;                           // by slot: the new state above is ready
    std::vector<unsigned char> task_ok;                            // per task: its boids suit the fused kernel
    std::vector<detail::task_scratch<S, dimension_v<V>>> scratch;  // per task
    std::vector<V> gathered_positions, gathered_velocities;        // a strided step's copies of your members
    std::size_t tasks = 0;
    flock_step_report report{};  // the last step's path and why

    void prepare(std::size_t n, std::size_t task_count) {
        if (accelerations.size() != n) accelerations.resize(n);
        if (tasks != task_count) {
            tasks = task_count;
            scratch.resize(tasks);
            task_ok.resize(tasks);
        }
        for (auto& t : scratch) t.off = {};
    }
};

}  // namespace boids

// boids/flock/workspace.hpp - what a flock step keeps between steps: its scratch space,
// grown to what the flock needs and then reused, and the report of the last step's path.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>
#include "../vector.hpp"
#include "detail/kernel.hpp"

namespace boids {
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

template <class S, std::size_t D>
using sub_grid_t = typename crowded_cells<S, D>::sub_grid;

// Where a block of candidates comes from: the sub-cells lo..hi (per axis, both
// included) of a crowded cell's sub-grid, or a cell's slots [s0, s1); over a torus,
// with the image of the cell nearest the query (`shift`, added to each offset) and the
// query's point as that image sees it (`at`).
template <class S, std::size_t D>
struct block_source {
    const sub_grid_t<S, D>* sub = nullptr;
    std::array<std::int32_t, D> lo{}, hi{};
    std::size_t s0 = 0, s1 = 0;
    std::array<S, D> shift{}, at{};
    std::array<S, D> slack{};  // of the sub-cells (sub_cell_slack)
};

// One task's scratch space in a flock step. Each task grows its own, to the largest
// neighbourhood it has met: a step allocates nothing once the flock has been as dense.
template <class S, std::size_t D>
struct task_scratch {
    std::vector<neighbor<S, D>> neighbors;    // the per-boid path: one boid's neighbours
    block_storage<S, D> full, near;           // a cell's candidates within the radius; in the cells around it
    block_storage<S, D> sub;                  // a boid's of a crowded cell, in the sub-cells around its own
    std::vector<S> distances;                 // a crowded boid's distances to a block's candidates
    std::vector<block_source<S, D>> sources;  // where a crowded boid's block comes from
    off_kernel_counts off{};                  // boids handed from the kernel to the per-boid path

    // A view of `storage` with room for `candidates`; the distances keep up.
    [[nodiscard]] candidate_block<S, D> block_for(block_storage<S, D>& storage, std::size_t candidates) {
        storage.reserve(candidates);
        const std::size_t most = std::max({full.capacity, near.capacity, sub.capacity}) + distance_padding<S>;
        if (distances.size() < most) distances.assign(most, S(0));
        return storage.view();
    }
    // The former for the whole radius, as tests use it.
    [[nodiscard]] candidate_block<S, D> block_view() { return block_for(full, 0); }
};
// The report of a fused step: every boid on the kernel, or how many left it and why.
template <class Scratch>
[[nodiscard]] flock_step_report fused_report(const std::vector<Scratch>& tasks) noexcept {
    flock_step_report r{
        flock_path::fused_kernel, "metric neighbours over a dense grid: every boid on the kernel", 0, {}};
    for (const auto& t : tasks) {
        r.off_kernel.on_one_spot += t.off.on_one_spot;
        r.off_kernel.tied_at_cap += t.off.tied_at_cap;
    }
    r.boids_off_kernel = r.off_kernel.on_one_spot + r.off_kernel.tied_at_cap;
    if (r.boids_off_kernel == 0) return r;
    r.path = flock_path::mixed;
    if (r.off_kernel.tied_at_cap == 0)
        r.reason = "the fused kernel, but boids with a neighbour on their very spot boid by boid";
    else if (r.off_kernel.on_one_spot == 0)
        r.reason = "the fused kernel, but boids whose nearest max_neighbors end in a tie boid by boid";
    else r.reason = "the fused kernel, but boids on one spot and boids tied at the cap boid by boid";
    return r;
}

}  // namespace detail

// Scratch space for flock_step: accelerations, and per task a neighbour buffer and
// the kernel's block, each grown to what the flock needs.
template <class V>
struct flock_workspace {
    using S = scalar_t<V>;
    std::vector<V> accelerations;
    std::vector<S> sorted_velocities;                    // per axis, in the grid's cell order
    std::vector<S> crowded_velocities;                   // per axis, in the order of the crowded cells' sub-cells
    std::vector<detail::moved_boid<V>> finished_states;  // new states by slot (the fused step: every boid's)
    std::vector<unsigned char> finished;                 // by slot: the new state above is ready
    std::vector<unsigned char> task_ok;                  // per task: its boids suit the fused kernel
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

// boids/neighbors/cell_order.hpp - keeping the caller's own arrays in a grid's cell
// order.
//
// A grid sorts the boids into cell order on every build, but the caller's arrays keep
// their own order, so each pass of a step that reads or writes them (the build, the
// gather of velocities, the write-back of moved boids) jumps about in memory: at a
// million boids those random accesses take about half of a step. Putting the arrays
// in the grid's order now and then turns them into passes in sequence; boids drift
// out of order slowly (a few percent of a cell a frame), so every few dozen frames is
// enough. After a step, the grid's order() is the cell order of the positions the
// step started from: nearly that of the new ones, with no build of its own.
//
//     boids::flock_step(pos, vel, cfg, grid, ws, dt);
//     if (frame % 32 == 0) {  // boid grid.order()[s] becomes boid s, in every array
//         boids::apply_order(grid.order(), pos, scratch_positions);
//         boids::apply_order(grid.order(), vel, scratch_positions);
//         boids::apply_order(grid.order(), colours, scratch_colours);
//     }
//
// Every per-boid array must be reordered alike (whatever a model or the caller keeps
// per boid), and the grid must be built again before it answers another query: its
// indices are the old ones. Results stay deterministic; a reordered flock is another
// input, so its later steps may differ from the unordered flock's in the last bits
// (sums run in another order).
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>
#include "../config.hpp"
#include "../span.hpp"

namespace boids {

// data[s] = the old data[order[s]], for every s. `order` must be a permutation of
// 0 .. data.size() - 1 (a grid's order() after a build on data.size() boids). An
// order of another size, or with an index out of range (a grid built on another
// flock), changes nothing and returns false (and asserts, where BOIDS_ASSERT is on).
// `scratch` is grown to data.size() on the first call and only reused after: no
// allocation in a steady state. One scratch may serve arrays of one element type.
template <class T, class Alloc>
bool apply_order(span<const std::size_t> order, span<T> data, std::vector<T, Alloc>& scratch) {
    const std::size_t n = data.size();
    BOIDS_ASSERT(order.size() == n, "apply_order: the order and the array differ in size");
    if (order.size() != n) return false;
    if (scratch.size() < n) scratch.resize(n);
    bool in_range = true;
    for (std::size_t s = 0; s < n; ++s) {
        const std::size_t from = order[s];
        in_range = in_range && from < n;
        scratch[s] = data[from < n ? from : s];  // read nothing out of range; written back only if all are in
    }
    BOIDS_ASSERT(in_range, "apply_order: an index in the order is out of range");
    if (!in_range) return false;
    std::copy(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(n), data.begin());
    return true;
}

// The same for a std::vector.
template <class T, class Alloc>
bool apply_order(span<const std::size_t> order, std::vector<T, Alloc>& data, std::vector<T, Alloc>& scratch) {
    return apply_order(order, span<T>(data.data(), data.size()), scratch);
}

}  // namespace boids

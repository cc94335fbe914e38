// boids/neighbors/uniform_grid.hpp - a uniform grid of cells about the view radius,
// rebuilt every step in O(N) by a counting sort into cell order. A metric query
// scans the 3x3 (3x3x3) block of cells as contiguous runs; a topological query scans
// the rows of cells a ball guessed to hold about 1.6 k boids touches, then ranks.
// Handles bounded, wrapping (the lesson's edges) and toroidal worlds. Its cells cover
// the flock's bounding box (less far strays, and the empty stretches between flocks far
// apart), but tile a torus's box unless it is too large to tile at about 8 cells a boid
// and the flock lies within less than half of it, across its seams or not.
//
//     boids::uniform_grid<V> grid(world, view_radius);   // cell size: the radius you query most
//     grid.build(positions);                            // every step, before the queries
//     grid.for_each_within(i, radius, [&](const auto& nb) { ... });         // metric
//     grid.for_each_within(i, radius, cone, sink);                          // with a vision cone
//     grid.nearest(i, knn);                             // topological: knn.capacity() nearest
//     grid.nearest_in_slots(0, n, knn, radius, [&](std::size_t s, const auto& found) { ... });
//     grid.order();                                     // boid indices in cell order (apply_order)
//
// Also: build(positions, executor, tasks) (the same index, in parallel), build over
// members of your structs (strided_span), set_cell_size, cell_size, cells_per_axis,
// bucket_count, size, world, slot_of, nearest_in_slot. No query allocates, nor does a
// build once the grid has held a flock of the size.
#pragma once
#include "detail/grid/index.hpp"

namespace boids {

template <class V>
class uniform_grid : public detail::grid_index<V, false> {
public:
    using detail::grid_index<V, false>::grid_index;

    // Cells are runs of slots that hold only their own boids: flock_step's fused
    // kernel scans them (through runs()).
    static constexpr bool has_contiguous_runs = true;

    // The grid as the fused flock step reads it: slots, per-axis positions and the
    // runs of a boid's block of cells. Valid until the next build.
    [[nodiscard]] detail::grid_runs<V> runs() const noexcept { return detail::grid_runs<V>(this->cells_); }
};

}  // namespace boids

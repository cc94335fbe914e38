// boids/neighbors/hashed_grid.hpp - a grid over unbounded space: cells are hashed
// into about 2N buckets, so memory follows the flock's size, not the ground it has
// covered. The same queries and results as uniform_grid, through the same layout and
// walks; a topological query walks rings of cells outward.
//
//     boids::hashed_grid<V> grid(boids::world_for<V>::unbounded(), view_radius);
//     grid.build(positions);
//     grid.for_each_within(i, radius, sink);   grid.nearest(i, knn);
//
// Also: build over members of your structs (strided_span), nearest_in_slot(s),
// nearest_in_slots, order, slot_of, set_cell_size, cell_size, bucket_count, size, world.
#pragma once
#include "detail/grid/index.hpp"

namespace boids {

template <class V>
class hashed_grid : public detail::grid_index<V, true> {
public:
    using detail::grid_index<V, true>::grid_index;
};

}  // namespace boids

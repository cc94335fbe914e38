// boids/neighbors/hashed_grid.hpp - a grid over unbounded space: cells are hashed
// into about 2N buckets, so memory follows the flock's size, not the ground it
// has covered. Same queries and results as uniform_grid.
#pragma once
#include "../detail/grid_core.hpp"

namespace boids {

template <class V>
using hashed_grid = detail::grid_core<V, true>;

} // namespace boids

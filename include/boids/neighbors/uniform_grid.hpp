// boids/neighbors/uniform_grid.hpp - a uniform grid of cells about the view radius,
// rebuilt every step in O(N) by a counting sort into cell order. A metric query
// scans the 3x3 (3x3x3) block of cells as contiguous runs; a topological query scans
// the rows of cells a ball guessed to hold about 1.6 k boids touches, then ranks.
// Handles bounded, wrapping (the lesson's edges) and toroidal worlds; in an open
// world it covers the flock's bounding box (see hashed_grid for flocks that roam far).
#pragma once
#include "../detail/grid_core.hpp"

namespace boids {

template <class V>
using uniform_grid = detail::grid_core<V, false>;

} // namespace boids

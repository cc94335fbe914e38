// boids/flock/summary.hpp - what one boid's neighbourhood adds up to: the input of a blend.
//
// flock_step finds every boid's neighbours (metric: within the view radius and the
// cone; topological: the k nearest) in the old state, sums over them into a
// neighborhood_summary, and hands the boid and its summary to a blend that returns
// an acceleration. The flock rules need nothing else: alignment is the mean
// velocity, cohesion the mean offset, separation the push. A blend of your own may
// use the summary, any behaviour of the library, and any state you keep by index.
#pragma once
#include <cstddef>
#include <limits>
#include "../agent.hpp"
#include "../vector.hpp"

namespace boids {

// The sums over one boid's neighbours. Offsets are measured as the world measures
// them (across a torus's edge by the minimum image), from the boid to the neighbour.
template <class V>
struct neighborhood_summary {
    using S = scalar_t<V>;
    std::size_t count = 0;                 // neighbours seen, those on the boid's very spot included
    V offset_sum = boids::zero<V>();       // sum of offsets to them: offset_sum / count is the way to their centre
    V velocity_sum = boids::zero<V>();     // sum of their velocities: velocity_sum / count is their mean velocity
    V push = boids::zero<V>();             // the separation push for the configured falloff, over neighbours
                                           // closer than the separation radius (and apart): sum of w(d) * offset
    V coincident_push = boids::zero<V>();  // sum of the seeded unit directions away from neighbours on the very spot
    std::size_t coincident = 0;            // how many of those there are (within the separation radius)
    S nearest_distance_squared = std::numeric_limits<S>::infinity();  // to the nearest neighbour
                                                                      // (0: one on the very spot; infinity: none)

    [[nodiscard]] V mean_offset() const noexcept {
        return count == 0 ? boids::zero<V>() : boids::scale(offset_sum, S(1) / static_cast<S>(count));
    }
    [[nodiscard]] V mean_velocity() const noexcept {
        return count == 0 ? boids::zero<V>() : boids::scale(velocity_sum, S(1) / static_cast<S>(count));
    }
};

}  // namespace boids

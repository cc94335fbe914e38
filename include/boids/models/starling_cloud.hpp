// boids/models/starling_cloud.hpp - the source's starting cloud for the starling
// model: a ball of birds heading one way.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>
#include "../config.hpp"
#include "../random.hpp"
#include "../vector.hpp"
#include "starling_params.hpp"
#include "starling_terms.hpp"

namespace boids {
namespace starling {

// The source's starting cloud: `birds` birds uniform in a ball of radius
// size_scale(birds) around (0, 20, 0), all heading one seeded horizontal direction at
// the preferred speed, each a little off it (normal noise of 0.1 of the speed across,
// 0.05 up). The same seed gives the same cloud on every machine.
template <class V>
void starting_cloud(std::uint64_t seed, std::size_t birds, const params<scalar_t<V>>& p, std::vector<V>& positions,
                    std::vector<V>& velocities) {
    using S = scalar_t<V>;
    const double e = starling::size_scale(static_cast<double>(birds));
    random_stream rng(hash_combine(seed, 0xC10Du));
    const double heading = 2.0 * pi<double> * rng.uniform();
    const double v0 = static_cast<double>(p.flight.preferred_speed);
    positions.resize(birds);
    velocities.resize(birds);
    for (std::size_t i = 0; i < birds; ++i) {
        double x, y, z;
        do {  // uniform in the unit ball
            x = rng.uniform(-1, 1);
            y = rng.uniform(-1, 1);
            z = rng.uniform(-1, 1);
        } while (x * x + y * y + z * z > 1);
        const double at[3] = {e * x, 20 + e * y, e * z};
        positions[i] = boids::generate<V>([&](std::size_t d) { return static_cast<S>(at[d]); });
        // One draw a statement: the order the stream is read in is written down.
        const double nx = rng.normal();
        const double ny = rng.normal();
        const double nz = rng.normal();
        const double vel[3] = {v0 * (std::cos(heading) + 0.1 * nx), v0 * 0.05 * ny,
                               v0 * (std::sin(heading) + 0.1 * nz)};
        velocities[i] = boids::generate<V>([&](std::size_t d) { return static_cast<S>(vel[d]); });
    }
}

}  // namespace starling
}  // namespace boids

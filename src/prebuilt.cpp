// src/prebuilt.cpp - the library behind boids::prebuilt: every instantiation that
// boids/flock/prebuilt.hpp declares, compiled once.
#include <boids/flock/prebuilt.hpp>

namespace boids {
BOIDS_DETAIL_PREBUILT(template)
}  // namespace boids

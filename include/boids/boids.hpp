// boids/boids.hpp - the umbrella header: everything, plus the GLM adapter when GLM
// is on the include path (define BOIDS_NO_GLM to leave it out).
#pragma once
#include "config.hpp"
#include "span.hpp"
#include "vector.hpp"
#include "steer.hpp"
#include "blend.hpp"
#include "random.hpp"
#include "behaviors/seek_flee_arrive.hpp"
#include "neighbors/world.hpp"

#if !defined(BOIDS_NO_GLM) && defined(__has_include)
#  if __has_include(<glm/vec2.hpp>)
#    include "glm.hpp"
#  endif
#endif
